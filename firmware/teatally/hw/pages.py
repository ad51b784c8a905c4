"""show() sends only what changed: on the SSD1306, only the changed columns.

Why: what a player waits for after a key press is mostly the display's bus,
not the computing: the default board's SSD1306 takes a whole frame over I2C
at 400 kHz in about 23.3 ms, while the press itself computes a few ms. The
UI redraws the whole frame for every press (``ui.core.UI.draw`` starts with
``clear()``), yet a press changes few of the frame's eight pages (a page: 8
pixel rows, the 128 bytes ``128*p .. 128*p+127`` in every MONO format the
drivers use, see hw.base) or, when it opens another screen, mostly only the
columns between a page's first and last differing word. So every display's
show() goes through ``ChangedPages.show``: it compares each page with a copy
of what the panel was last sent (the *shadow*, C-fast ``==``), and for a
page that differs, with ``columns``, finds its first and last differing
column by scanning from both ends (a Python loop: about 7 us a byte of
unchanged margin on a Pico by the bench's estimate, a third of the 22.5 us
a byte that is not sent saves on I2C), copies the page into the shadow and
puts it in a *window* (pages p0..p1, columns a..b). A page joins the window
of the page above when the columns that adds cost at most _WINDOW_BYTES
(what a window's commands cost on I2C), else it opens its own (greedy; on
the bench as good as the best grouping). The drivers' own dirty-page
tracking (robert-hh sh1106, peter-l5 sh1107 ``pages_to_update``) cannot do
this: it marks what drawing *touched*, and every frame touches everything.

Allocation-free: the page views are made once; on MicroPython ``memoryview ==
memoryview``, reading a view's byte and ``view[:] = view`` do not touch the
heap (checked under ``micropython.heap_lock()`` in tests/test_pages.py).

``show(True)`` and the first show() send everything (one window of the whole
frame): the panel's memory is unknown then (at boot; after a flip, whose
segment remap applies to the data written after it; after a bus error inside
a show). Display off/on (``poweroff``/``poweron``) keeps the panel's memory.

What each driver is given (``send(mask)``, bit p = page p; hw.pico's
senders, wired by ``make_display``):

- micropython-lib ``ssd1306`` (``ssd1306_sender``, ``columns``): the
  windows, each as SET_COL_ADDR a b + SET_PAGE_ADDR p0 p1 (on I2C one
  transaction, control byte 0x00) and one data write per page of its columns
  a..b (the panel's horizontal addressing wraps from column b to column a of
  the next page); the whole frame as one data write.
- robert-hh ``sh1106`` and peter-l5 ``sh1107`` (``marking_sender``): the
  mask, as ``pages_to_update``; their own show() sends those pages whole (no
  column scan: it would buy nothing).
- ``hw.virtual.VirtualDisplay`` (tests, bench, simulator) records the
  windows.
"""

from teatally.compat import const

_PAGES = const(8)
_PAGE_BYTES = const(128)
_LAST = const(127)  # a page's last column
_ALL_PAGES = const(0xFF)  # a mask with every page
# A window's commands on I2C cost about as much as this many data bytes
# (address, 0x00 and six commands: 74 clocks; a data byte: 9).
_WINDOW_BYTES = const(8)


class ChangedPages:
    """The shadow of what the panel shows and the show() that keeps it.

    ``frame``: the bytearray the UI draws into (1024 bytes); ``send(mask)``:
    puts what changed on the panel, called once per show (with 0 when
    nothing changed): the pages in ``mask``, which are, column by column,
    the ``count`` windows in ``windows`` (4 bytes each: first page, last
    page, first column, last column). ``columns``: find each changed page's
    changed columns (else a changed page is all its columns)."""

    def __init__(self, frame, send, columns=True):
        self.frame = frame
        self.shadow = bytearray(_PAGES * _PAGE_BYTES)
        f = memoryview(frame)
        s = memoryview(self.shadow)
        self.frame_pages = tuple(f[p * _PAGE_BYTES : (p + 1) * _PAGE_BYTES] for p in range(_PAGES))
        self.shadow_pages = tuple(s[p * _PAGE_BYTES : (p + 1) * _PAGE_BYTES] for p in range(_PAGES))
        self.windows = bytearray(4 * _PAGES)
        self.count = 0
        self.send = send
        self.columns = columns
        self.known = False  # does the shadow hold what the panel has?

    def forget(self):
        """The panel's memory is unknown: the next show sends every page."""
        self.known = False

    def changed(self, pages=_PAGES):
        """The mask of the pages that differ from the shadow among the first
        ``pages`` (every page when the panel is unknown), which the shadow
        takes over; their windows in ``windows``/``count`` (see the module's
        docstring)."""
        w = self.windows
        if not self.known:
            self.known = True
            self.shadow[:] = self.frame
            w[0] = 0
            w[1] = _PAGES - 1
            w[2] = 0
            w[3] = _LAST
            self.count = 1
            return _ALL_PAGES
        frame_pages = self.frame_pages
        shadow_pages = self.shadow_pages
        mask = 0
        i = 0  # bytes of windows written
        p0 = p1 = a0 = b0 = -2  # the last window: pages p0..p1, columns a0..b0
        for p in range(pages):
            f = frame_pages[p]
            s = shadow_pages[p]
            if f == s:
                continue
            a = 0
            b = _LAST
            if self.columns:  # the page differs somewhere: both loops stop
                while f[a] == s[a]:
                    a += 1
                while f[b] == s[b]:
                    b -= 1
            s[:] = f
            mask |= 1 << p
            if p == p1 + 1:  # join the window above if the extra columns cost at most a window
                lo = a if a < a0 else a0
                hi = b if b > b0 else b0
                k = p - p0  # its pages
                if (k + 1) * (hi - lo) - k * (b0 - a0) - (b - a) <= _WINDOW_BYTES:
                    p1 = p
                    a0 = lo
                    b0 = hi
                    w[i - 3] = p
                    w[i - 2] = lo
                    w[i - 1] = hi
                    continue
            p0 = p1 = p
            a0 = a
            b0 = b
            w[i] = p
            w[i + 1] = p
            w[i + 2] = a
            w[i + 3] = b
            i += 4
        self.count = i // 4
        return mask

    def show(self, full=False, pages=_PAGES):
        """Send what changed since the last show (everything if ``full``);
        -> the mask of the pages sent."""
        if full:
            self.forget()
        mask = self.changed(pages)
        try:
            self.send(mask)
        except Exception:
            self.forget()  # a bus error: the panel may lack some pages, send them all next time
            raise
        return mask

    def show_top(self):
        """Send the top page (the title bar) now if it changed, before the
        rest of the frame is drawn: a new screen's first light (nothing
        while the panel is unknown: the whole frame goes at the show)."""
        if self.known and self.frame_pages[0] != self.shadow_pages[0]:
            self.show(False, 1)
