"""The real Raspberry Pi Pico behind the hardware contract (see hw.base).

``start()`` is called once by the app on the device (``setup()`` does the
work; ``start()`` adds the safe boot and, when no board comes up, the boot
diagnostics of hw.diagnose):

1. reads ``/board.txt`` (first line = board name; absent or empty means
   ``pico_ssd1306``),
2. imports the board module from ``/boards/<name>.py`` or ``.mpy`` (if that
   board cannot be brought up it falls back, see ``setup``, and records
   ``board_error``),
3. builds the I2C/SPI bus and the mip-installed display driver (``ssd1306``
   from micropython-lib, ``sh1106`` from robert-hh/SH1106, ``sh1107`` from
   peter-l5/SH1107 v317+, all in ``/lib``), always as a 128x64 frame,
4. makes one Pin predicate per key (internal pull-ups; active-low inverted),
5. returns a ``PicoHardware``.

Files the device expects (the flash tool must put them there)::

    /boot.py                   runs first, also at mpremote's soft reset: keeps a
                               running watchdog fed (see firmware/boot.py)
    /main.py                   entry point
    /teatally/...              this package (.mpy)
    /lib/ssd1306.mpy|py ...    display driver(s) from the board's MIP_PACKAGES
    /boards/<name>.py          the chosen board module (boards/<name>.py of the repo)
    /board.txt                 the chosen board's NAME (optional)

``machine`` is imported only inside functions, so this module compiles with
mpy-cross and imports on the host, but it can only run on the Pico.
"""

import time

from teatally.compat import const
from teatally.hw import base as hw_base
from teatally.hw.base import FRAME_H, FRAME_W, Hardware
from teatally.hw.pages import ChangedPages

# SSD1306 commands (datasheet 10.1.4, 10.1.5), as micropython-lib names them
_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)
_PAGES = const(8)  # hw.pages: 8 pages of 128 bytes
_PAGE_BYTES = const(128)
_LAST = const(127)  # the last column
_BACK = const(3)  # BACK's place in boards.KEY_ORDER["4key"]
_KEYPAD_D = const(15)  # the keypad's D (BACK): its place in hw.keypad.KEYPAD
# drawn with framebuf's built-in 8x8 font (ASCII, in every language)
SAFE_TEXT = "Safe mode: REPL"


def _pin_predicate(pin, active_low):
    # one closure per key, made once at setup: polling allocates nothing
    if active_low:
        return lambda: not pin.value()
    return lambda: bool(pin.value())


def ssd1306_sender(d, pages, bus):
    """``send(mask)`` for micropython-lib's SSD1306 ``d`` on ``bus`` ("i2c" or
    "spi"): each window of ``pages`` (a hw.pages.ChangedPages) as its
    column/page window, then per page one data write of its columns.

    On I2C the six window commands go as one transaction (control byte 0x00:
    a stream of commands, datasheet 8.1.5.2) through the driver's own bus,
    not six ``write_cmd`` of 0x80 + a command each. A window narrower than
    a page sends each page's columns as a memoryview slice: one small object
    a page (a write's length is its buffer's); nothing else allocates (the
    closures below have at most five names and arguments: MicroPython passes
    more through the heap)."""
    data = d.write_data
    shadow = memoryview(pages.shadow)
    if bus == "i2c":
        i2c = d.i2c
        addr = d.addr
        cmds = bytearray((0x00, _SET_COL_ADDR, 0, _LAST, _SET_PAGE_ADDR, 0, _PAGES - 1))

        def window(w, i):  # the window w[i:i+4]: first page, last page, first column, last column
            cmds[2] = w[i + 2]
            cmds[3] = w[i + 3]
            cmds[5] = w[i]
            cmds[6] = w[i + 1]
            i2c.writeto(addr, cmds)

    else:
        cmd = d.write_cmd

        def window(w, i):
            cmd(_SET_COL_ADDR)
            cmd(w[i + 2])
            cmd(w[i + 3])
            cmd(_SET_PAGE_ADDR)
            cmd(w[i])
            cmd(w[i + 1])

    def send(mask):
        w = pages.windows
        for i in range(0, 4 * pages.count, 4):
            window(w, i)
            p0 = w[i]
            p1 = w[i + 1]
            a = w[i + 2]
            b = w[i + 3]
            if b - a == _LAST and p1 - p0 == _PAGES - 1:
                data(pages.shadow)  # the whole frame: one write
            elif b - a == _LAST:
                for q in range(p0, p1 + 1):
                    data(pages.shadow_pages[q])  # whole pages: their views, nothing allocated
            else:
                n = b - a + 1
                for q in range(p0 * _PAGE_BYTES + a, (p1 + 1) * _PAGE_BYTES, _PAGE_BYTES):
                    data(shadow[q : q + n])  # a page's columns a..b

    return send


def marking_sender(d, driver_show):
    """``send(mask)`` for a driver with ``pages_to_update`` (robert-hh
    sh1106, peter-l5 sh1107): mark the pages, let its show() send them (an
    older version without the mask sends every page)."""

    def send(mask):
        if mask:
            d.pages_to_update = mask
            driver_show()

    return send


def send_changed_pages(d, driver, bus):
    """Route display ``d``'s show() through a hw.pages.ChangedPages over its
    driver's frame: ``d.show(full=False)`` sends only what changed.
    ``driver``: the board's DISPLAY_DRIVER, ``bus``: its BUS. -> the
    ChangedPages, or None when the driver hides its frame (its own show()
    stays)."""
    frame = hw_base.frame_bytes(d)
    if frame is None:
        return None
    ssd1306 = driver == "ssd1306"
    pages = ChangedPages(frame, None, ssd1306)  # only the SSD1306's sender uses the columns
    # the driver's show is bound before it is replaced
    pages.send = ssd1306_sender(d, pages, bus) if ssd1306 else marking_sender(d, d.show)
    d.show = pages.show  # the drivers' own flip() calls self.show(True): this one
    d.show_top = pages.show_top
    return pages


def make_display(machine, b):
    """Bus + driver for board module ``b``: a FrameBuffer whose show() sends
    only the pages that changed (hw.pages)."""
    Pin = machine.Pin
    drv = __import__(b.DISPLAY_DRIVER)
    if b.BUS == "i2c":
        bus = machine.I2C(b.BUS_ID, sda=Pin(b.SDA), scl=Pin(b.SCL), freq=b.FREQ)
    else:
        # Create the SPI before the DC/RST/CS pins: SPI1's default MISO is GP8
        # (DC on the Waveshare module); the driver's dc.init() takes it back.
        bus = machine.SPI(b.BUS_ID, baudrate=b.FREQ, polarity=0, phase=0, sck=Pin(b.SCK), mosi=Pin(b.MOSI))
    rst = Pin(b.RST) if b.RST is not None else None
    name = b.DISPLAY_DRIVER
    if name == "ssd1306":
        if b.BUS == "i2c":
            d = drv.SSD1306_I2C(FRAME_W, FRAME_H, bus, addr=b.ADDR)
        else:
            d = drv.SSD1306_SPI(FRAME_W, FRAME_H, bus, Pin(b.DC), rst, Pin(b.CS))
        if b.DRIVER_ROTATE == 180:
            d.rotate(1)
    elif name == "sh1106":
        if b.BUS == "i2c":
            d = drv.SH1106_I2C(FRAME_W, FRAME_H, bus, rst, addr=b.ADDR, rotate=b.DRIVER_ROTATE)
        else:
            d = drv.SH1106_SPI(FRAME_W, FRAME_H, bus, Pin(b.DC), rst, Pin(b.CS), rotate=b.DRIVER_ROTATE)
        d.sleep(False)
    elif name == "sh1107":
        # peter-l5 v317+: a 128x64 SH1107 panel is given as (128, 64), rotate 0/180
        if b.BUS == "i2c":
            d = drv.SH1107_I2C(FRAME_W, FRAME_H, bus, rst, address=b.ADDR, rotate=b.DRIVER_ROTATE)
        else:
            d = drv.SH1107_SPI(FRAME_W, FRAME_H, bus, Pin(b.DC), rst, Pin(b.CS), rotate=b.DRIVER_ROTATE)
        d.sleep(False)
    else:
        raise ValueError("unknown display driver " + name)
    d.fill(0)
    d.show()
    hw_base.add_bands(d)  # cheap clear() and bands (see hw.base) where the driver allows
    send_changed_pages(d, name, b.BUS)  # show(): only what changed (hw.pages)
    return d


class PicoHardware(Hardware):
    def __init__(self, board, board_error=None):
        import machine

        super().__init__()
        self._machine = machine
        self._wdt = None
        self._keeper = None
        self.board = board
        self.board_name = board.NAME
        self.board_error = board_error
        self.layout = board.LAYOUT
        self.flash_root = ""
        Pin = machine.Pin
        pull = Pin.PULL_UP if board.PULL_UP else None
        if board.LAYOUT == "keypad":
            self._keypad(Pin, pull, board.BUTTONS)
        else:
            preds = []
            for _, gpio in board.BUTTONS:
                pin = Pin(gpio, Pin.IN, pull)
                pin.irq(self._edge, Pin.IRQ_FALLING | Pin.IRQ_RISING)  # ends wait()
                preds.append(_pin_predicate(pin, board.ACTIVE_LOW))
            self.predicates = tuple(preds)
        self.display = make_display(machine, board)

    def _keypad(self, Pin, pull, lines):
        # the matrix (hw.keypad): rows open-drain, columns pulled up with an
        # interrupt each; Keys calls the scan at every poll
        from teatally.hw.keypad import Matrix

        rows = tuple([Pin(g, Pin.OPEN_DRAIN, value=0) for _, g in lines[:4]])
        cols = tuple([Pin(g, Pin.IN, pull) for _, g in lines[4:]])
        self._matrix = m = Matrix(rows, cols)
        for c in cols:
            c.irq(self._key_edge, Pin.IRQ_FALLING | Pin.IRQ_RISING)
        self.predicates = tuple([m.predicate(k) for k in range(16)])
        self.scan = m.scan

    def _edge(self, pin):
        self.woken = True

    def _key_edge(self, pin):
        self._matrix.armed = True  # (Matrix.edge, without a second call in the interrupt)
        self.woken = True

    def sleep_ms(self, ms):
        time.sleep_ms(ms)  # rp2: the CPU waits for an interrupt (WFE)

    def start_watchdog(self, ms):
        if self._wdt is None:
            ms = min(max(ms, 1000), 8000)  # RP2040 WDT tops out at 8388 ms
            self._wdt = self._machine.WDT(timeout=ms)
            self.watchdog_ms = ms

    def wdt_feed(self):
        if self._wdt is not None:
            self._wdt.feed()

    def keep_watchdog(self):
        # a timer feeds from now on (it stops at the next soft reset, where
        # boot.py starts its own): the REPL stays usable
        wdt = self._wdt
        if wdt is not None and self._keeper is None:
            self._keeper = self._machine.Timer(period=1000, callback=lambda t: wdt.feed())

    def safe_boot(self):
        """True when BACK (both keys on a 2-key board) is held at start:
        the app stays off, the display and the console say so."""
        if self.scan is not None:
            self.scan()
        held = [p() for p in self.predicates]
        back = _KEYPAD_D if self.layout == "keypad" else _BACK
        if not (all(held) if self.layout == "2key" else held[back]):
            return False
        d = self.display
        d.fill(0)
        d.text(SAFE_TEXT, 4, 28, 1)  # framebuf's own font: no words table before the app
        d.show()
        print("Tea Tally: %s (a key held at start); reset without it for the game." % SAFE_TEXT)
        return True

    def rand(self, n):
        import os

        if n <= 0:
            raise ValueError("rand(n) needs n > 0")
        b = os.urandom(4)  # rp2: ring-oscillator entropy
        return ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) % n

    def reset(self):
        self._machine.reset()

    def allow_interrupts(self):
        # Ctrl-C on again (start() turned it off); one that came meanwhile
        # waits on the console: raised now
        kbd_intr(3)
        if ctrl_c_waiting():
            raise KeyboardInterrupt

    def set_flip(self, on):
        on = bool(on)
        base = self.board.DRIVER_ROTATE == 180
        d = self.display
        flip = getattr(d, "flip", None)  # sh1106 / sh1107: flip(flag, update) relative to their rotate
        if flip is not None:
            flip((on != base) if self.board.DISPLAY_DRIVER == "sh1106" else on, False)
        else:  # micropython-lib ssd1306: rotate(0|1) is absolute
            d.rotate(1 if on != base else 0)
        d.show(True)  # every page again: a segment remap applies to the data written after it
        self.flipped = on


def _candidates(boards, name, root):
    # the chosen board, then the default, then whatever else is in /boards
    import os

    names = [name]
    if boards.DEFAULT_BOARD != name:
        names.append(boards.DEFAULT_BOARD)
    try:
        listing = sorted(os.listdir(root + boards.BOARDS_DIR))
    except OSError:
        listing = []
    for f in listing:
        n = f.split(".")[0]
        if boards.valid_board_name(n) and n not in names:
            names.append(n)
    return names


def bring_up(root=""):
    """-> (the PicoHardware of the first board that comes up, or None;
    tried: [(name, why, its board module or None)] for each that did not),
    in the order of _candidates."""
    from teatally.hw import boards

    name = boards.read_board_name(root)
    tried = []
    for n in _candidates(boards, name, root):
        board = None
        try:
            board = boards.load_board(n, root)
        except ImportError:
            why = "no /boards/%s.py" % n
        except Exception as e:
            why = type(e).__name__
        else:
            problems = boards.board_problems(board)
            if problems:
                why = problems[0]
                board = None
            else:
                err = "%s: %s" % tried[0][:2] if tried else None
                try:
                    return PicoHardware(board, err), tried
                except ImportError:
                    why = "driver %s not installed" % board.DISPLAY_DRIVER
                except Exception as e:  # e.g. OSError: nothing answers on the I2C address
                    why = type(e).__name__
        tried.append((n, why, board))
    return None, tried


def setup(root=""):
    """Bring up the board named in /board.txt and return its PicoHardware.

    If that board cannot be brought up (file missing or broken, its driver not
    installed, the bus refusing), the next candidate is tried -- the default
    board, then any other file in /boards -- and the first failure is kept in
    ``board_error`` for the about screen: a wrong choice in the settings menu
    must not leave a device that cannot boot. None comes up: RuntimeError
    naming the first failure.
    """
    hw, tried = bring_up(root)
    if hw is None:
        raise RuntimeError("%s: %s" % tried[0][:2])
    return hw


def kbd_intr(c):
    """micropython.kbd_intr: Ctrl-C on (3) or off (-1). (The tests' fake
    machine replaces this and ctrl_c_waiting.)"""
    import micropython

    micropython.kbd_intr(c)


def ctrl_c_waiting():
    """Read the console up to a Ctrl-C that came while Ctrl-C was off (a
    character there then): True if one did. What follows it stays for the
    REPL (mpremote's Ctrl-A: its raw REPL)."""
    import select
    import sys

    p = select.poll()
    p.register(sys.stdin, select.POLLIN)
    while p.poll(0):
        if sys.stdin.read(1) == "\x03":
            return True
    return False


def start(root=""):
    """For app.main on the Pico: the PicoHardware, or None to stay in the
    REPL with the watchdog off: safe mode (PicoHardware.safe_boot), or no
    board came up (then hw.diagnose reports on the console and in
    /boot.log, and blinks the LED).

    Ctrl-C is off meanwhile (a session opened at power-up used to cut the
    report off): the report is written whole, then the REPL reads the
    session's Ctrl-C as a character. When a board comes up, Ctrl-C stays off
    until app.main calls allow_interrupts (a Ctrl-C that came meanwhile is
    raised there, where the app says a computer holds the board)."""
    import machine
    import os

    kbd_intr(-1)
    handed = False  # a hardware goes to app.main (it turns Ctrl-C on again)
    try:
        hw, tried = bring_up(root)
        if hw is None:
            from teatally.hw import diagnose

            diagnose.no_board(machine, tried, root)
            return None
        try:
            os.remove(root + "/boot.log")  # the fault it told of is mended
        except OSError:
            pass
        if hw.safe_boot():
            return None
        handed = True
        return hw
    finally:
        if not handed:
            kbd_intr(3)
