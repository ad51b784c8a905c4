# Board: Raspberry Pi Pico + 1.3" SH1106 128x64 I2C OLED + 4 push buttons.
#
# Wiring (Pico pin numbers are the physical header pins):
#
#   OLED        Pico
#   ----        ----
#   GND   ----  pin 38 GND
#   VCC   ----  pin 36 3V3(OUT)
#   SDA   ----  pin 6  GP4  (I2C0 SDA)
#   SCL   ----  pin 7  GP5  (I2C0 SCL)
#
#   Button      Pico                 other leg
#   ------      ----                 ---------
#   UP    ----  pin 14 GP10          GND (pin 13 or 18)
#   DOWN  ----  pin 15 GP11          GND
#   OK    ----  pin 16 GP12          GND
#   BACK  ----  pin 17 GP13          GND
#
# Same wiring as pico_ssd1306: the 1.3" SH1106 modules are pin-compatible with
# the 0.96" SSD1306 ones but need a different driver (the SH1106 has 132
# columns of RAM; the driver skips the first two). Buttons close to GND with
# internal pull-ups: pressed reads 0 (ACTIVE_LOW).
#
# Driver: robert-hh's SH1106 (MIT), installed with
#   mip.install("github:robert-hh/SH1106/sh1106.py")
# SH1106_I2C(width, height, i2c, res=None, addr=0x3c, rotate=0); flip(flag)
# turns it by 180 degrees; newer versions push only the changed pages in show().

NAME = "pico_sh1106"
DESCRIPTION = "Pico + SH1106 1.3in 128x64 I2C OLED, 4 buttons"
DISPLAY_DRIVER = "sh1106"
MIP_PACKAGES = ["github:robert-hh/SH1106/sh1106.py"]

BUS = "i2c"
BUS_ID = 0
SDA = 4
SCL = 5
SCK = None
MOSI = None
CS = None
DC = None
RST = None
FREQ = 400000
ADDR = 0x3C

WIDTH = 128
HEIGHT = 64
ROTATION = 0
DRIVER_ROTATE = 0

BUTTONS = (("UP", 10), ("DOWN", 11), ("OK", 12), ("BACK", 13))
ACTIVE_LOW = True
PULL_UP = True
LAYOUT = "4key"
