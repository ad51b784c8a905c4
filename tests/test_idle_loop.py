"""The main loop rests between key presses (issue 23): app.main()'s pass
(App.step, App.idle_work) then hw.wait(App.rest_ms()), with a board whose
sleeps move a virtual clock (the base class's 1 ms sleeps, as on the Pico).

With no key pressed the loop runs about once a second (the watchdog is fed
at every pass), the screen still goes dark at its timeout, and a key edge
ends a rest at once. Both interpreters, identical output.
"""

SCENARIO = r"""
from teatally import app as _app
from teatally.buttons import K_OK
from teatally.hw.base import Hardware
from teatally.hw.virtual import VirtualHardware


class Board(VirtualHardware):
    # the Pico's rest (Hardware.wait: 1 ms sleeps until a key edge), on a
    # virtual clock
    woken = False
    wait = Hardware.wait

    def __init__(self, root):
        super().__init__(root)
        self.sleeps = 0
        self.edges = []  # [(virtual time, OK down?)]: a key's edges (their interrupts)

    def sleep_ms(self, ms):
        self.now += ms
        self.sleeps += 1
        if self.edges and self.now >= self.edges[0][0]:
            self.pins[K_OK] = self.edges.pop(0)[1]
            self.woken = True  # what the pin's interrupt does


hw = Board(FLASH)
a = _app.App(hw)
a.boot()
passes = 0
feeds = []
dark_at = None


def run_until(t):
    global passes, dark_at
    while hw.now < t:
        fed = hw.wdt_fed
        a.step()
        a.idle_work()
        passes += 1
        if hw.wdt_fed > fed:
            feeds.append(hw.now)
        if dark_at is None and not a.fb.on:
            dark_at = hw.now
        hw.wait(a.rest_ms())


run_until(200000)  # 200 s with nothing pressed
gaps = [feeds[i + 1] - feeds[i] for i in range(len(feeds) - 1)]
print("passes", passes, "sleeps", hw.sleeps, "longest gap", max(gaps), "dark at", dark_at)
# OK goes down 300 ms into a rest and up 80 ms later: each edge ends the
# rest it falls in; the key wakes the dark screen
start = hw.now
hw.edges = [(start + 300, True), (start + 380, False)]
before = passes
run_until(start + 299)
print("before the key", passes - before)
run_until(start + 301)
print("at the key", passes - before, hw.now - start, a.keys.held())
run_until(start + 500)
print("awake", a.fb.on)
"""


def test_the_loop_rests_feeds_the_watchdog_and_keeps_the_timeout(dual):
    out = dual(SCENARIO).splitlines()
    head = out[0].split()
    passes, sleeps, gap, dark = int(head[1]), int(head[3]), int(head[6]), int(head[9])
    # about one pass a second once the boot's work is done: not thousands
    assert passes < 200 + 50
    assert sleeps > 190000  # the rest is slept, 1 ms at a time
    assert gap <= 1001  # the watchdog (8 s) is fed at least every second
    timeout = 120000  # app.DEFAULTS["timeout_s"]
    assert timeout < dark <= timeout + 2
    # the rest went on to the key's edge, which ended it: the next pass
    # (within a millisecond) saw the key down
    assert out[1] == "before the key 1"
    assert out[2] in ("at the key 2 300 True", "at the key 2 301 True")
    assert out[3] == "awake True"
