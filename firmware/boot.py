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
import os
import sys

import machine

# WATCHDOG CTRL (RP2040 0x40058000, RP2350 0x400d8000); bit 30 ENABLE: running
WATCHDOG_CTRL = 0x400D8000 if "RP2350" in getattr(sys.implementation, "_machine", "") else 0x40058000
WATCHDOG_MS = 8000  # as app.main starts it
FEED_MS = 1000


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


try:
    finish_switch()
except OSError as e:
    print("boot.py:", e)
keeper = start_keeper()  # main.py hands it to app.main()
