# Tea Tally's boot.py. The rp2 port runs it at every start and every soft
# reset, also in mpremote's raw REPL (where main.py does not run), before
# main.py. Self-contained on purpose (no teatally imports): it must work when
# the package is broken or half copied. `teatally flash` runs it at the start
# of its session too, so a board with an older firmware is kept fed as well.
#
# 1. A flash cut between its two renames (teatally -> teatally.old, then
#    teatally.new -> teatally) left no /teatally: finish the switch.
# 2. A watchdog still running from before the soft reset (the app's: on rp2
#    it cannot be stopped) would reset the board 8 s later, in the middle of
#    mpremote's work or a person's REPL: a timer feeds it. The timer stops at
#    the next soft reset, and this file starts it again; app.main() stops it
#    once its loop feeds (a hung loop is still reset).
# 3. The dark screen's LED code (hw.diagnose: /boot.log's "LED: N blinks"
#    line) goes on blinking after a soft reset, in every mpremote session
#    and at the REPL after it: a timer blinks it while /boot.log is there
#    (the app removes it once a board comes up); app.main() stops it.
import os
import sys

import machine

# WATCHDOG CTRL (RP2040 0x40058000, RP2350 0x400d8000); bit 30 ENABLE: running
WATCHDOG_CTRL = 0x400D8000 if "RP2350" in getattr(sys.implementation, "_machine", "") else 0x40058000
WATCHDOG_MS = 8000  # as app.main starts it
FEED_MS = 1000
BOOT_LOG = "boot.log"  # hw.diagnose's report (the flash's root is the cwd)
BLINK_MS = 200  # as hw.diagnose blinks: n blinks, then a pause
PAUSE_STEPS = 6


def finish_switch():
    names = os.listdir()
    if "teatally" not in names and "teatally.old" in names:
        # teatally.new is complete (the switch only starts then); else go back
        os.rename("teatally.new" if "teatally.new" in names else "teatally.old", "teatally")


def start_keeper():
    """A timer feeding the running watchdog; None when none runs."""
    if not machine.mem32[WATCHDOG_CTRL] & (1 << 30):
        return None
    wdt = machine.WDT(timeout=WATCHDOG_MS)  # re-arms the running one; feed() needs the object
    return machine.Timer(period=FEED_MS, callback=lambda t: wdt.feed())


def led_code():
    """N of /boot.log's "LED: N blinks" line; 0 without a report."""
    try:
        with open(BOOT_LOG) as f:
            for line in f:
                if line.startswith("LED: "):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


class Blinker:
    """The LED blinking n times, then a pause, again, from a timer."""

    def __init__(self, n):
        self.led = machine.Pin("LED", machine.Pin.OUT)
        self.pattern = [1, 0] * n + [0] * PAUSE_STEPS
        self.step = 0
        self.timer = machine.Timer(period=BLINK_MS, callback=self.tick)

    def tick(self, t):
        self.led.value(self.pattern[self.step])
        self.step = (self.step + 1) % len(self.pattern)

    def deinit(self):
        self.timer.deinit()
        self.led.value(0)


def start_blinker():
    """The dark screen's LED code blinking again; None without a report."""
    n = led_code()
    if not n:
        return None
    try:
        return Blinker(n)
    except (ValueError, TypeError):  # a board without Pin("LED")
        return None


try:
    finish_switch()
except OSError as e:
    print("boot.py:", e)
# run again in the same globals (`mpremote run boot.py`: teatally flash and
# pull): the timers of the first run stop, one of each runs
for _t in (globals().get("keeper"), globals().get("blinker")):
    if _t is not None:
        _t.deinit()
keeper = start_keeper()  # main.py hands it to app.main()
blinker = start_blinker()  # and this one
