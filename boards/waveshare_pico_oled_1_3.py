# Board: Waveshare Pico-OLED-1.3 (SH1107 64x128 OLED, SPI, keys A and B),
# plugged straight onto a Raspberry Pi Pico's headers: no wiring to do.
#
# Fixed by the module (as printed in Waveshare's wiki):
#
#   Signal      Pico
#   ------      ----
#   SCK   ----  GP10 (SPI1 SCK)
#   MOSI  ----  GP11 (SPI1 TX)
#   CS    ----  GP9
#   DC    ----  GP8
#   RST   ----  GP12
#   KEY A ----  GP15  (to GND when pressed: ACTIVE_LOW, internal pull-up)
#   KEY B ----  GP17  (to GND when pressed)
#
# The glass is 64 wide x 128 tall; Tea Tally uses it turned a quarter to a
# 128x64 landscape frame. peter-l5's SH1107 driver (v317 and later) addresses
# a 128x64 SH1107 panel directly as SH1107_SPI(128, 64, spi, dc, res, cs,
# rotate=0|180), so the quarter turn costs nothing at run time.
# DRIVER_ROTATE=180 follows a published landscape project on this module
# (HCui91/pico_tfl_departure_board); if the picture is upside down in your
# case, the settings screen's flip (set_flip) turns it round.
#
# Driver: peter-l5's SH1107 (MIT), installed with
#   mip.install("github:peter-l5/SH1107/sh1107.py")
#
# Two keys: the "2key" layout of teatally.buttons maps them (B is a shift):
#   tap A = DOWN, hold A = LONG DOWN + repeat DOWN, tap B = OK,
#   hold B 0.6-1.5 s = BACK, hold B 1.5 s = LONG BACK (the undo, asked first),
#   A+B tap = UP, A+B hold = LONG UP + repeat UP, hold B then press A = LONG OK.
# The screens name these gestures ("B", "hold B", "A+B"...: words "key.2key")
# and show a hold of B while it counts (teatally.ui.hold).

NAME = "waveshare_pico_oled_1_3"
DESCRIPTION = "Waveshare Pico-OLED-1.3 (SH1107 SPI, keys A/B)"
DISPLAY_DRIVER = "sh1107"
MIP_PACKAGES = ["github:peter-l5/SH1107/sh1107.py"]

BUS = "spi"
BUS_ID = 1
SDA = None
SCL = None
SCK = 10
MOSI = 11
CS = 9
DC = 8
RST = 12
FREQ = 10000000
ADDR = None

WIDTH = 64
HEIGHT = 128
ROTATION = 90
DRIVER_ROTATE = 180

# (physical key, GPIO) in the order A, B
BUTTONS = (("A", 15), ("B", 17))
ACTIVE_LOW = True
PULL_UP = True
LAYOUT = "2key"
