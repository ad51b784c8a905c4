# Board: Raspberry Pi Pico + 0.96" SSD1306 128x64 I2C OLED + 4 push buttons.
# The default board (used when /board.txt is absent).
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
# Buttons close to GND; the Pico's internal pull-ups hold the pins high, so a
# pressed button reads 0 (ACTIVE_LOW). Most SSD1306 modules carry their own
# 4.7k I2C pull-ups. Address 0x3C (some modules are strapped to 0x3D).
#
# Driver: micropython-lib "ssd1306" (SSD1306_I2C(width, height, i2c, addr)).

NAME = "pico_ssd1306"
DESCRIPTION = "Pico + SSD1306 128x64 I2C OLED, 4 buttons"
DISPLAY_DRIVER = "ssd1306"
MIP_PACKAGES = ["ssd1306"]

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

# Panel as the maker describes it; the firmware always draws a 128x64 frame.
WIDTH = 128
HEIGHT = 64
ROTATION = 0  # degrees from the panel to the firmware's 128x64 frame
DRIVER_ROTATE = 0  # value handed to the driver; set_flip(True) turns it 180

# (logical key, GPIO) in the order UP, DOWN, OK, BACK
BUTTONS = (("UP", 10), ("DOWN", 11), ("OK", 12), ("BACK", 13))
ACTIVE_LOW = True
PULL_UP = True
LAYOUT = "4key"
