# The simulator's board: VirtualHardware whose display, buttons, clock and
# dice live with the host (teatally_host.sim) behind `host.call`. Only the
# MicroPython VM run by `teatally sim` has the `host` module; the Pico never
# imports this file (app.hardware() picks hw.pico on the rp2 port).
#
# Protocol (every reply is a plain string):
#   board        -> '{"name": ..., "layout": "4key"|"2key"}'
#   show  ADDR NOW -> "" the 1 KB frame (MONO_VLSB): its address in the VM's
#                   memory (uctypes.addressof), read there by the host (a
#                   Pico's show does not copy it either), and the virtual
#                   clock (the terminal plays a hold at the wall clock's pace)
#   flip  0|1    -> ""   the panel turned 180 degrees (settings)
#   power 0|1    -> ""   display off/on (screen timeout)
#   rand  N      -> "k"  0 <= k < N
#   wait  NOW    -> "quit", or '[[dt, mask], ...]': pin changes at NOW+dt
#                   (mask bit i = button i pressed; -1 = no change, only a
#                   point in time to reach: a `wait:MS` or idle wall time)
#
# Determinism: the clock is virtual and moves 10 ms per idle(); the host is
# asked for more input only once the queue is empty and nothing changed for
# SETTLE_MS (debounce, queued key events and the redraw are done by then),
# so a key script gives the same frames on every run and every machine.
# Asking once per gesture (not per tick) keeps a whole game to a few seconds.

import json

import uctypes

import host  # type: ignore[import-not-found]  # the VM's guest->host bridge, absent on the Pico

from teatally.compat import const
from teatally.hw.virtual import VirtualDisplay, VirtualHardware

TICK_MS = const(10)
SETTLE_MS = const(150)

HW = None  # the one board of this run (a reset keeps it: same clock, same queue)


class SimDisplay(VirtualDisplay):
    def __init__(self, clock):
        super().__init__()
        self.at = uctypes.addressof(self.buffer)  # the frame never moves (no compacting collector)
        self.clock = clock  # the board (its virtual ticks_ms)

    def show(self, full=False):
        super().show(full)  # the pages a panel would be sent (hw.pages); the host gets the whole frame
        host.call("show", "%d %d" % (self.at, self.clock.now))

    def poweroff(self):
        self.on = False
        host.call("power", "0")

    def poweron(self):
        self.on = True
        host.call("power", "1")


class SimHardware(VirtualHardware):
    def __init__(self, name, layout):
        super().__init__("/flash", layout, name)
        self.display = SimDisplay(self)
        self.queue = []  # [(abs_ms, mask)], oldest first
        self.quiet_at = 0  # ask for input from then on (SETTLE_MS after a pin change)
        self.quitting = False
        self.asks = 0

    def idle(self):
        self.now += TICK_MS
        q = self.queue
        while q and q[0][0] <= self.now:
            mask = q.pop(0)[1]
            if mask >= 0:
                pins = self.pins
                for i in range(len(pins)):
                    pins[i] = bool(mask & (1 << i))
                self.quiet_at = self.now + SETTLE_MS
        if not q and self.now >= self.quiet_at:
            self._ask()

    def wait(self, ms):
        # one tick, whatever the rest asked: the simulator's clock moves by
        # ticks so that a key script gives the same frames on every run
        self.idle()

    def _ask(self):
        self.asks += 1
        reply = host.call("wait", str(self.now))
        if reply == "quit":
            self.quitting = True
            raise SystemExit(0)
        for dt, mask in json.loads(reply):
            self.queue.append((self.now + dt, mask))

    def set_flip(self, flip):
        super().set_flip(flip)
        host.call("flip", "1" if flip else "0")

    def rand(self, n):
        return int(host.call("rand", str(n)))


def setup():
    global HW
    if HW is None:
        board = json.loads(host.call("board", ""))
        HW = SimHardware(board["name"], board["layout"])
    else:
        HW.display.fill(0)
    return HW
