"""A main-loop pass asks nothing of the heap (issue 32): on the real port
every pass allocated 76 B (App.finish's frame, too big for the C stack:
MicroPython keeps a function's state on the heap past 11 words, a try block
included), so a key held brought a collection (~19 ms) every few hundred
passes, one inside a LONG DOWN. The pass of app.run (App.step,
App.idle_work, hw.wait(App.rest_ms())) is played idle and with a key held,
on both interpreters: MicroPython counts what it asks of the heap
(micropython.mem_total: frames freed at once count too) and runs it with
the heap locked; CPython runs the same passes (it has no such count, so it
reports none) and both must say the same."""

SCENARIO = r"""
import sys
from teatally import app as _app
from teatally.buttons import K_OK
from teatally.hw.base import Hardware
from teatally.hw.virtual import VirtualHardware

MP = sys.implementation.name == "micropython"
if MP:
    import micropython
R = [0, 0, 0]


class Board(VirtualHardware):
    # the Pico's rest (Hardware.wait: 1 ms naps until a key edge) on a
    # virtual clock
    woken = False
    wait = Hardware.wait

    def sleep_ms(self, ms):
        self.now += ms


hw = Board(FLASH)
a = _app.App(hw)
a.boot()


def one():
    a.step()
    a.idle_work()
    hw.wait(a.rest_ms())


def asked(what):
    one()  # (anything the first pass in this state does once)
    if MP:
        R[0] = micropython.mem_total()
    one()
    if MP:
        R[1] = micropython.mem_total()
        micropython.heap_lock()
    R[2] = 0
    try:
        one()
    except MemoryError:
        R[2] = 1
    if MP:
        micropython.heap_unlock()
    print(what, "asks", R[1] - R[0], "B;", "MemoryError" if R[2] else "runs", "with the heap locked")


for i in range(5):
    one()  # the boot's own work: its drawing, its collection
asked("idle pass")
print("events", a.keys.pending(), "asleep", a.asleep)
hw.pins[K_OK] = True
for i in range(20):
    one()
asked("pass with OK held")
print("held", a.keys.held(), "screen", a.ui.top().title)
hw.pins[K_OK] = False
for i in range(40):
    one()
asked("idle pass after the release")
print("screen", a.ui.top().title)
"""


def test_a_loop_pass_asks_nothing_of_the_heap(dual):
    out = dual(SCENARIO).splitlines()
    assert out[0] == "idle pass asks 0 B; runs with the heap locked"
    assert out[2] == "pass with OK held asks 0 B; runs with the heap locked"
    assert out[3].startswith("held True")
    assert out[4] == "idle pass after the release asks 0 B; runs with the heap locked"
    assert out[5] != out[3].split("screen ")[1]  # (the release was a press: OK opened the next screen)
