"""Boot diagnostics: what to tell a person whose Pico shows a dark screen.

When no board comes up (``hw.pico.start``), this module writes one report
to the serial console and to ``/boot.log``: each board tried and why it
failed, then an I2C scan of the chosen board's pins and of every other I2C
pin pair of the RP2040 (both ways round), what answers where, what the
board file expected, and one sentence saying what to do. The Pico's LED
(``Pin("LED")``) then blinks the verdict, for a person without a serial
console (README, "Putting it on a Pico"):

  2 blinks  the display answers at another I2C address than the board file's
  3 blinks  the display answers on other pins (SDA/SCL swapped, or other GPIOs)
  4 blinks  no display answers on any I2C pins (power, GND, wires)
  5 blinks  something else: a board file or display driver missing or broken

``report`` is plain logic (the scan is a function given to it) and runs on
both interpreters; ``no_board`` does the scanning, writing and blinking with
``machine``. Imported only when the boot failed.
"""

# SSD1306, SH1106 and SH1107 modules answer at 0x3C or 0x3D (an address strap)
DISPLAY_ADDRS = (0x3C, 0x3D)
# The RP2040's I2C pin pairs (SDA, SCL): I2C0 on GP0/1, 4/5, ..., 20/21,
# I2C1 on GP2/3, 6/7, ..., 18/19 and 26/27
I2C_PAIRS = ((0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (12, 13), (14, 15), (16, 17), (18, 19), (20, 21),
             (26, 27))
# GPIO -> the Pico's header pin (GP22-28 skip the GND pins too)
HEADER = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16, 13: 17, 14: 19,
          15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34}
BLINKS = {"address": 2, "pins": 3, "none": 4, "other": 5}
MEANING = {
    "address": "the display answers at another address",
    "pins": "the display answers on other pins",
    "none": "no display answers",
    "other": "a board file or driver problem",
}
BOOT_LOG = "/boot.log"
# The scan (soft_scan): SoftI2C at 100 kHz, a start waiting at most 1 ms for
# SCL to rise (clock stretching; SoftI2C's default is 50 ms). Its pins get
# their pull-ups first, as machine.I2C gives them: an unconnected pin keeps
# the RP2040's reset pull-down and reads low, and SoftI2C leaves the pulls
# alone, so the scan used to wait 50 ms an address on ~20 pin pairs: the
# report came 114 s after power-up (the real rp2 port). A pair whose line
# still reads low is held low by something: no I2C bus idles there, it is
# not scanned. Now the report comes within 5 s (tests/test_boot_rescue.py).
SCAN_FREQ = 100000
SCAN_TIMEOUT_US = 1000
BLINK_MS = 200  # one step of the pattern: on, off, on, off, ..., then a pause
PAUSE_STEPS = 6
FLOATING = 16  # more answers than this on one pair: lines without pull-ups, not devices


def gp(n):
    """GPIO n as the README and the board files' tables name it: GP4 (pin 6)."""
    return "GP%d (pin %d)" % (n, HEADER[n]) if n in HEADER else "GP%d" % n


def hexes(addrs):
    return " ".join(["0x%02X" % a for a in addrs]) or "nothing"


def scan_pins(board, scan):
    """[(sda, scl, addresses)]: the board's own pins first (always), then
    every other pair either way round where something answers. ``scan(sda,
    scl)`` -> the addresses that answer."""
    mine = (board.SDA, board.SCL)
    found = [(board.SDA, board.SCL, _real(scan(board.SDA, board.SCL)))]
    for a, b in I2C_PAIRS:
        for sda, scl in ((a, b), (b, a)):
            if (sda, scl) != mine:
                got = _real(scan(sda, scl))
                if got:
                    found.append((sda, scl, got))
    return found


def _real(addrs):
    addrs = sorted(addrs)
    return [] if len(addrs) > FLOATING else addrs


def verdict(board, found, why):
    """-> (kind, sentence) for the scan ``found`` (scan_pins) of board
    module ``board``, which failed for ``why``."""
    path = "boards/%s.py" % board.NAME
    sda, scl, here = found[0]
    if board.ADDR in here:
        return "other", "The display answers at 0x%02X on SDA %s / SCL %s as %s says; it failed otherwise: %s." % (
            board.ADDR, gp(sda), gp(scl), path, why)
    shown = [a for a in here if a in DISPLAY_ADDRS]
    if shown:
        return "address", ("The display answers at 0x%02X, not at 0x%02X as %s says: "
                           "set ADDR = 0x%02X in %s and flash again." % (shown[0], board.ADDR, path, shown[0], path))
    for s, c, addrs in found[1:]:
        shown = [a for a in addrs if a in DISPLAY_ADDRS]
        if not shown:
            continue
        if (s, c) == (scl, sda):
            return "pins", ("SDA and SCL are swapped: the display answers at 0x%02X with SDA on %s and SCL on %s; "
                            "swap the two wires." % (shown[0], gp(s), gp(c)))
        return "pins", ("The display answers at 0x%02X on SDA %s / SCL %s, not on SDA %s / SCL %s as %s says: "
                        "move the two wires there (or set SDA, SCL and BUS_ID in %s)." % (
                            shown[0], gp(s), gp(c), gp(sda), gp(scl), path, path))
    return "none", ("No display answers on any I2C pins: check the display's VCC (3V3(OUT), pin 36) and GND "
                    "(pin 38) wires, then SDA to %s and SCL to %s." % (gp(sda), gp(scl)))


def report(tried, scan):
    """-> (kind, lines): the whole report for the boards ``tried``
    [(name, why, board module or None)], the first being the chosen one;
    the first I2C board among them is scanned with ``scan(sda, scl)``."""
    lines = ["Tea Tally: no board came up; the app did not start (the REPL is yours).", "Boards tried:"]
    for name, why, _ in tried:
        lines.append("  %s: %s" % (name, why))
    board = why = None
    for _, w, b in tried:
        if b is not None and b.BUS == "i2c":
            board, why = b, w
            break
    if board is None:
        kind = "other"
        lines.append("=> No I2C board to scan: mend the first board above (teatally flash --board NAME copies "
                     "its file and installs its driver).")
    else:
        found = scan_pins(board, scan)
        lines.append("I2C scan for %s (it expects the display at 0x%02X, SDA %s / SCL %s):" % (
            board.NAME, board.ADDR, gp(board.SDA), gp(board.SCL)))
        for sda, scl, addrs in found:
            lines.append("  SDA %s / SCL %s: %s" % (gp(sda), gp(scl), hexes(addrs)))
        if len(found) == 1:
            lines.append("  (nothing answers on the other I2C pins)")
        kind, sentence = verdict(board, found, why)
        lines.append("=> " + sentence)
    lines.append("LED: %d blinks, then a pause: %s (README, \"Putting it on a Pico\")." % (BLINKS[kind], MEANING[kind]))
    return kind, lines


def blink_pattern(n):
    """The LED's states, one per BLINK_MS: n blinks, then a pause."""
    return [1, 0] * n + [0] * PAUSE_STEPS


def blink(machine, n):
    """Blink the Pico's LED n times, pause, again, from a timer: the REPL
    stays free (the timer stops at the next soft reset). -> the Timer."""
    led = machine.Pin("LED", machine.Pin.OUT)
    pattern = blink_pattern(n)
    step = [0]

    def tick(t):
        led.value(pattern[step[0]])
        step[0] = (step[0] + 1) % len(pattern)

    return machine.Timer(period=BLINK_MS, callback=tick)


def soft_scan(machine):
    """scan(sda, scl) with machine.SoftI2C (any pins, either way round),
    both lines pulled up first; a line that still reads low: nothing (see
    SCAN_TIMEOUT_US)."""
    Pin = machine.Pin

    def scan(sda, scl):
        try:
            d = Pin(sda, Pin.IN, Pin.PULL_UP)
            c = Pin(scl, Pin.IN, Pin.PULL_UP)
            if not (d.value() and c.value()):
                return []
            return machine.SoftI2C(scl=c, sda=d, freq=SCAN_FREQ, timeout=SCAN_TIMEOUT_US).scan()
        except (OSError, ValueError):
            return []

    return scan


def no_board(machine, tried, root=""):
    """The report on the console and in <root>/boot.log, the LED blinking.
    -> (kind, the blinking Timer or None)."""
    kind, lines = report(tried, soft_scan(machine))
    text = "\n".join(lines) + "\n"
    print(text, end="")
    try:
        with open(root + BOOT_LOG, "w") as f:
            f.write(text)
    except OSError:
        pass  # the console has it
    try:
        timer = blink(machine, BLINKS[kind])
    except (ValueError, TypeError):  # a board without Pin("LED")
        timer = None
    return kind, timer
