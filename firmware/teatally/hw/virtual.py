# A virtual board: the Hardware contract (see hw/base.py) with a frame buffer
# in RAM, pins driven by a script and a clock that only moves when told.
# Tests drive the real App with it on CPython and MicroPython alike, and the
# simulator builds on it (hw/sim.py adds the host calls).

import framebuf

from teatally.compat import const
from teatally.hw.pages import ChangedPages

W = const(128)
H = const(64)
SENT_LOG = const(4)  # shows remembered in ``sent`` until the reader resets ``sends``
_SHOW_BYTES = const(33)  # a show in ``sent``: how many windows, then up to 8 of 4 bytes


class VirtualDisplay(framebuf.FrameBuffer):
    """128x64 MONO_VLSB like the SSD1306; show() counts frames. Has the
    contract's fast path (hw.base): ``bands``, ``clear()`` and ``vlsb``.

    show(full=False) goes through the same hw.pages.ChangedPages as a real
    panel and records what it would send: show number i since ``sends``
    was last set to 0 (the first SENT_LOG of them; the bench reads them
    around each press) is ``sent[33 * i]`` windows, each 4 bytes after it
    (first page, last page, first column, last column; see hw.pages)."""

    def __init__(self):
        self.buffer = bytearray(W * H // 8)
        super().__init__(self.buffer, W, H, framebuf.MONO_VLSB)
        self.bands = framebuf.FrameBuffer(self.buffer, W, H // 8, framebuf.GS8)
        self.vlsb = memoryview(self.buffer)
        self.changed_pages = ChangedPages(self.buffer, self._record)
        self.sent = bytearray(SENT_LOG * _SHOW_BYTES)
        self.sends = 0
        self.frames = 0
        self.on = True
        self.level = 255
        self.flipped = False

    def clear(self):
        self.bands.fill(0)  # one byte fill instead of 8192 pixels

    def show(self, full=False):
        self.frames += 1
        self.changed_pages.show(full)

    def show_top(self):
        self.changed_pages.show_top()

    def _record(self, mask):
        if self.sends < SENT_LOG:
            at = self.sends * _SHOW_BYTES
            self.sent[at] = self.changed_pages.count
            self.sent[at + 1 : at + _SHOW_BYTES] = self.changed_pages.windows  # (past count: stale, unread)
        self.sends += 1

    def contrast(self, v):
        self.level = v

    def poweroff(self):
        self.on = False

    def poweron(self):
        self.on = True


class VirtualHardware:
    """Pins are a list of booleans (True = pressed) set by the driver of the
    test; time is a virtual millisecond counter advanced by advance()."""

    def __init__(self, flash_root, layout="4key", board_name="virtual"):
        self.display = VirtualDisplay()
        self.layout = layout
        n = 4 if layout == "4key" else 16 if layout == "keypad" else 2
        self.pins = [False] * n
        self.scan = None
        if layout == "keypad":
            # the keys as a matrix's contacts, read by the Pico's own scan
            from teatally.hw.keypad import Matrix
            from teatally.hw.wires import MatrixWires

            self.wires = MatrixWires(self.pins)
            self.matrix = Matrix(self.wires.rows, self.wires.cols)
            for c in self.wires.cols:
                c.irq(self.matrix.edge)
            self.predicates = tuple(self.matrix.predicate(i) for i in range(n))
            self.scan = self._scan
        else:
            self.predicates = tuple(self._pred(i) for i in range(n))
        self.now = 0
        self.flash_root = flash_root
        self.board_name = board_name
        self.wdt_fed = 0
        self.seed = 12345

    def _pred(self, i):
        pins = self.pins
        return lambda: pins[i]

    def _scan(self):
        # the columns' interrupts as the contacts changed, then the scan
        self.wires.settle()
        self.matrix.scan()

    def ticks_ms(self):
        return self.now

    def advance(self, ms):
        self.now += ms

    def idle(self):
        self.now += 1

    def wait(self, ms):
        # nothing can happen in a virtual world while it rests: the clock
        # moves on (at least 1 ms, like a pass of the loop)
        self.now += max(1, ms)

    def start_watchdog(self, ms):
        pass

    def wdt_feed(self):
        self.wdt_fed += 1

    def keep_watchdog(self):
        pass

    def allow_interrupts(self):
        pass

    def mem_free(self):
        try:
            import gc

            return gc.mem_free()
        except AttributeError:  # CPython: unknown, as the contract says
            return -1

    def rand(self, n):
        # deterministic LCG: tests must replay identically on both interpreters
        self.seed = (self.seed * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.seed >> 8) % n

    def reset(self):
        raise SystemExit("reset")

    def set_flip(self, flip):
        self.display.flipped = bool(flip)
        self.display.changed_pages.forget()  # as a real panel's: the next show sends every page

