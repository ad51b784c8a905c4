# Tea Tally firmware package: pure-Python game logic, journal, input flow and
# screens. Runs on MicroPython 1.2x (rp2) and CPython 3.11.
VERSION = "0.1.0"
