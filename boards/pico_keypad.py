# Board: Raspberry Pi Pico + 0.96" SSD1306 128x64 I2C OLED + a 4x4 membrane
# matrix keypad (the usual "123A / 456B / 789C / *0#D" one, 8-pin ribbon).
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
#   Keypad ribbon (left to right, keys facing you)    Pico
#   ----------------------------------------------    ----
#   1  ROW1  (1 2 3 A)                          ----  pin 14 GP10
#   2  ROW2  (4 5 6 B)                          ----  pin 15 GP11
#   3  ROW3  (7 8 9 C)                          ----  pin 16 GP12
#   4  ROW4  (* 0 # D)                          ----  pin 17 GP13
#   5  COL1  (1 4 7 *)                          ----  pin 19 GP14
#   6  COL2  (2 5 8 0)                          ----  pin 20 GP15
#   7  COL3  (3 6 9 #)                          ----  pin 21 GP16
#   8  COL4  (A B C D)                          ----  pin 22 GP17
#
# No resistors or diodes: the rows are open-drain outputs (a row is driven
# low or left floating, so two keys on one column never short two driven
# rows), the columns use the Pico's internal pull-ups and an edge interrupt
# each. At rest every row is low: a key going down pulls its column low and
# its interrupt wakes the CPU; the matrix is scanned only then and while a
# key is down (teatally.hw.keypad). The rows are the same GPIOs as the
# 4-button board's UP..BACK, so a board wired for one can be rewired for the
# other on the same header pins 14-17.
#
# Keys: the digits and * / # answer questions directly; A = UP, B = DOWN,
# C = OK, D = BACK (held: LONG, as on the 4-button board). Hold D at start
# for the safe mode. One key at a time: a key pressed while another is held
# is ignored, two pressed at once count neither.
#
# Driver: micropython-lib "ssd1306" (SSD1306_I2C(width, height, i2c, addr)).

NAME = "pico_keypad"
DESCRIPTION = "Pico + SSD1306 128x64 I2C OLED, 4x4 matrix keypad"
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

WIDTH = 128
HEIGHT = 64
ROTATION = 0
DRIVER_ROTATE = 0

# the matrix lines: (name, GPIO), four rows then four columns
BUTTONS = (
    ("ROW1", 10),
    ("ROW2", 11),
    ("ROW3", 12),
    ("ROW4", 13),
    ("COL1", 14),
    ("COL2", 15),
    ("COL3", 16),
    ("COL4", 17),
)
ACTIVE_LOW = True  # a key pulls its column low
PULL_UP = True
LAYOUT = "keypad"
