"""The hardware contract: what the app and UI may rely on, on any board.

``teatally.hw.pico.setup()`` (the real Pico, its board read by
``teatally.hw.boards``) and the simulator's hardware
(``teatally.hw.sim``) both return an object with this interface; ``Hardware``
below is the base class with safe defaults, so a new implementation only
overrides what it really has.

Attributes
----------
display
    A ``framebuf.FrameBuffer`` (subclass) of the 128x64 logical frame
    (``FRAME_W`` x ``FRAME_H``), any MONO format (SSD1306/SH1106 drivers use
    MONO_VLSB, peter-l5's SH1107 MONO_HMSB: draw through the FrameBuffer
    methods and ``teatally.ui.gfx``, never poke the buffer; the fast path below
    is the one way around them). Extra methods:
    ``show(full=False)`` push to the glass the pages that changed since the
    last show, every page with ``full`` (hw.pages), ``show_top()`` the top
    page alone if it changed (the title bar, ahead of the rest: ui.core.
    title_done; optional), ``contrast(0..255)``,
    ``poweroff()``, ``poweron()``.
    ``None`` only in headless tests.

    Optional fast path (``add_bands`` below attaches it when the driver
    exposes its frame bytes; ``VirtualDisplay`` has it built in; absent, the
    UI falls back to ``fill``/``fill_rect``):

    ``clear()``  blank the whole frame like ``fill(0)`` and mark every page
    for the next ``show()``, by one byte fill (``fill(0)`` sets the 8192
    pixels one by one: ~0.8 ms, an eighth of a key press's budget).
    ``bands``   a GS8 FrameBuffer ``FRAME_W`` x ``FRAME_H // 8`` over the
    same bytes: "pixel" (x, r) is one byte of the 8-pixel band r. Only
    *whole* bands may be touched through it: VLSB, HLSB and HMSB all keep
    pixel rows 8r..8r+7 in bytes 128r..128r+127, so filling a band with
    0x00 / 0xFF (``ui.bar``) or copying its 128 bytes out and back in
    (``ui.Stamp``) means the same in every MONO format. The drivers'
    dirty-page tracking does not see it: only use it after ``clear()`` in
    the same frame.
    ``vlsb``    only where the frame is MONO_VLSB (SSD1306, SH1106 unrotated,
    ``VirtualDisplay``): a memoryview of its bytes, column x of band r at
    byte 128r + x, bit 0 the top row: a font's column bytes go straight in
    (``teatally.ui.font``: text ~2.5x cheaper). Same rule as ``bands``.
predicates
    Tuple of zero-argument callables, one per physical key, True = pressed
    (active-low pins already inverted). Order: UP, DOWN, OK, BACK for "4key";
    A, B for "2key"; the legend's keys row by row for "keypad"
    (hw.keypad.KEYPAD). Feed them to ``teatally.buttons.Keys`` (``make_keys()``).
scan
    None, or (the keypad) a zero-argument callable its keys
    (hw.keypad.KeypadKeys) call first at every poll: the matrix scan, whose
    findings the predicates read.
layout
    "4key", "2key" or "keypad" (see ``teatally.buttons`` for the 2-key
    gestures and the keypad's keys).
flash_root
    Prefix of every path on flash: "" on the Pico (so "/games/..."),
    "/flash" in the simulator. Always build paths as ``flash_root + "/..."``.
board_name
    The board module's NAME ("pico_ssd1306", ...), "none" when headless.
board
    The imported board module (constants), or None.
board_error
    None, or a short text when the configured board could not be loaded and
    the default board was used instead (show it on the about screen).
flipped
    True after ``set_flip(True)``.

Methods
-------
ticks_ms()          Millisecond tick counter (wraps: compare with ticks_diff).
wait(ms)            Rest up to ms milliseconds, ending early at a key edge
                    (``woken``, set by a pin interrupt on the Pico): the
                    main loop's rest between passes (app.App.rest_ms). The
                    base class rests in 1 ms sleeps (``sleep_ms``).
sleep_ms(ms)        Sleep (Pico: time.sleep_ms, the CPU waits for an
                    interrupt meanwhile; USB and timers keep running).
start_watchdog(ms)  Start the hardware watchdog (Pico: machine.WDT, at most
                    8388 ms); once started it cannot be stopped.
wdt_feed()          Feed the watchdog (no-op before start_watchdog).
keep_watchdog()     The program was interrupted (KeyboardInterrupt): keep a
                    started watchdog fed from now on, so the REPL stays
                    usable (Pico: a machine.Timer). No-op elsewhere.
allow_interrupts()  Ctrl-C may interrupt the app from now on (Pico: it was
                    off while the board came up, hw.pico.start; one that
                    came meanwhile raises KeyboardInterrupt here). No-op
                    elsewhere.
mem_free()          Free heap in bytes (-1 when unknown, e.g. CPython).
rand(n)             Random int in 0..n-1 from the hardware layer (Pico: the
                    ROSC via os.urandom). Shared logic never imports random.
reset()             Restart the device (Pico: machine.reset()). The base
                    class only sets ``reset_requested``.
set_flip(on)        Turn the picture 180 degrees where the driver can.
make_keys(**kw)     A ``buttons.Keys`` for these predicates and layout.
"""

from teatally.compat import const, ticks_ms as _ticks_ms

FRAME_W = const(128)
FRAME_H = const(64)
FRAME_BYTES = const(1024)  # FRAME_W * FRAME_H // 8
# Where the display drivers keep their frame: micropython-lib ssd1306
# ("buffer"), robert-hh sh1106 ("renderbuf", the one drawn into), peter-l5
# sh1107 ("displaybuf" from v317, "renderbuf" before).
_FRAME_ATTRS = ("buffer", "renderbuf", "displaybuf")


def frame_bytes(d):
    """The bytearray behind display ``d``'s whole frame, or None."""
    for name in _FRAME_ATTRS:
        b = getattr(d, name, None)
        if isinstance(b, bytearray) and len(b) == FRAME_BYTES:
            return b
    return None


def bands_of(buf):
    """The ``bands`` view (see the contract above) of a frame's bytes."""
    import framebuf

    return framebuf.FrameBuffer(buf, FRAME_W, FRAME_H // 8, framebuf.GS8)


def add_bands(d):
    """Give display ``d`` the optional ``bands`` and ``clear()`` when its
    driver exposes the frame's bytes; returns True if it did."""
    buf = frame_bytes(d)
    if buf is None:
        return False
    bands = bands_of(buf)
    if hasattr(d, "pages_to_update"):
        # sh1106 / sh1107: show() sends only the pages marked in this mask,
        # which their own drawing methods keep; a byte fill must mark them
        def clear():
            bands.fill(0)
            d.pages_to_update = 0xFF  # all 8 pages of the 64 rows

    else:

        def clear():
            bands.fill(0)

    d.bands = bands
    d.clear = clear
    if _is_vlsb(d, buf):
        d.vlsb = memoryview(buf)
    return True


def _is_vlsb(d, buf):
    # MONO_VLSB keeps pixel (0, 1) in bit 1 of byte 0 (HLSB, HMSB: in byte 16)
    if not hasattr(d, "pixel"):
        return False
    was = d.pixel(0, 1)
    d.pixel(0, 1, 1)
    lit = buf[0] & 2
    d.pixel(0, 1, 0)
    unlit = buf[0] & 2
    d.pixel(0, 1, was)
    return lit != 0 and unlit == 0


class Hardware:
    """Base hardware: safe defaults for everything in the contract above."""

    def __init__(self):
        self.display = None
        self.predicates = ()
        self.scan = None
        self.layout = "4key"
        self.flash_root = ""
        self.board_name = "none"
        self.board = None
        self.board_error = None
        self.flipped = False
        self.watchdog_ms = 0
        self.reset_requested = False
        self.woken = False  # a key edge since the last wait() (see wait)
        self._seed = 0x2545F491  # xorshift32 state: deterministic unless reseeded

    def ticks_ms(self):
        return _ticks_ms()

    def sleep_ms(self, ms):
        pass

    def wait(self, ms):
        # ms naps of 1 ms, counted down: a key edge (woken, set by its pin's
        # interrupt) ends the rest within a millisecond. rp2's sleep_ms
        # cannot be woken by a pin (the CPU waits for its timer alarm), and
        # machine.lightsleep(ms) stops the clocks a key needs: a nap of
        # 1 ms is the rest the port allows with a key seen in time. Each nap
        # costs the CPU the SDK's timer work and these few bytecodes, no
        # clock read (the rest runs long by the naps' cost, which only
        # delays the next pass's checks; cpumodel.LOOP in the bench)
        # (self.sleep_ms(1) called in place: taken out as a bound method
        # it would be a heap object a rest)
        while ms > 0 and not self.woken:
            self.sleep_ms(1)
            ms -= 1
        self.woken = False

    def start_watchdog(self, ms):
        self.watchdog_ms = ms

    def wdt_feed(self):
        pass

    def keep_watchdog(self):
        pass

    def allow_interrupts(self):
        pass

    def mem_free(self):
        import gc

        try:
            return gc.mem_free()
        except AttributeError:  # CPython
            return -1

    def seed(self, s):
        self._seed = (s & 0xFFFFFFFF) or 1

    def rand(self, n):
        """Deterministic xorshift32 fallback; real boards use hardware entropy."""
        if n <= 0:
            raise ValueError("rand(n) needs n > 0")
        x = self._seed
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self._seed = x
        return x % n

    def reset(self):
        self.reset_requested = True

    def set_flip(self, on):
        self.flipped = bool(on)

    def make_keys(self, **kw):
        from teatally.buttons import Keys

        if self.layout == "keypad":
            from teatally.hw.keypad import KeypadKeys

            return KeypadKeys(self.predicates, self.scan, now_ms=self.ticks_ms(), **kw)
        return Keys(self.predicates, self.layout, now_ms=self.ticks_ms(), **kw)
