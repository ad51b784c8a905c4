"""show() sends only the pages of the frame that changed.

Why: what a player waits for after a key press is mostly the display's bus,
not the computing. The default board's SSD1306 takes a whole frame over I2C
at 400 kHz in about 23.5 ms, while the press itself computes a few ms. The
UI redraws the whole frame for every press (``ui.core.UI.draw`` starts with
``clear()``), yet a press that moves a menu's selection or steps a picker
changes one to three of the frame's eight pages (a page: 8 pixel rows, the
128 bytes ``128*p .. 128*p+127`` in every MONO format the drivers use, see
hw.base); only a press that opens another screen changes them all. So every
display's show() goes through ``ChangedPages.show``: it compares each page
with a copy of what the panel was last sent (the *shadow*), copies the pages
that differ into the shadow and hands only those to the driver. The drivers'
own dirty-page tracking (robert-hh sh1106, peter-l5 sh1107
``pages_to_update``) cannot do this: it marks what drawing *touched*, and
every frame touches everything.

Allocation-free: the page views are made once; on MicroPython ``memoryview ==
memoryview`` compares the bytes and ``view[:] = view`` copies them without
touching the heap (checked under ``micropython.heap_lock()`` in
tests/test_pages.py).

``show(True)`` and the first show() send every page: the panel's memory is
unknown then (at boot; after a flip, whose segment remap applies to the data
written after it; after a bus error inside a show). Display off/on
(``poweroff``/``poweron``) keeps the panel's memory, so it changes nothing
here.

How each driver is given the pages (``send(mask)``, bit p = page p; the
Pico's are in hw.pico, wired by ``make_display``):

- micropython-lib ``ssd1306`` (``ssd1306_sender``): its show() always sends
  the whole frame, so the pages go out through its ``write_cmd`` /
  ``write_data``: for each run of adjacent changed pages, the window
  SET_COL_ADDR 0..127 + SET_PAGE_ADDR first..last (six commands), then the
  run's pages, one data write each (the panel's horizontal addressing mode,
  set by the driver's init, carries on from page to page across writes); a
  run of all eight pages goes as one write of the whole shadow.
- robert-hh ``sh1106`` and peter-l5 ``sh1107`` (``marking_sender``): their
  ``pages_to_update`` mask is set to the changed pages and their own show()
  sends those.
- ``hw.virtual.VirtualDisplay`` (tests, bench, simulator) records the mask.
"""

from teatally.compat import const

_PAGES = const(8)
_PAGE_BYTES = const(128)
_ALL_PAGES = const(0xFF)  # a mask with every page


class ChangedPages:
    """The shadow of what the panel shows and the show() that keeps it.

    ``frame``: the bytearray the UI draws into (1024 bytes); ``send(mask)``:
    puts the pages in ``mask`` on the panel, called once per show (with 0
    when nothing changed)."""

    def __init__(self, frame, send):
        self.frame = frame
        self.shadow = bytearray(_PAGES * _PAGE_BYTES)
        f = memoryview(frame)
        s = memoryview(self.shadow)
        self.frame_pages = tuple(f[p * _PAGE_BYTES : (p + 1) * _PAGE_BYTES] for p in range(_PAGES))
        self.shadow_pages = tuple(s[p * _PAGE_BYTES : (p + 1) * _PAGE_BYTES] for p in range(_PAGES))
        self.send = send
        self.known = False  # does the shadow hold what the panel has?

    def forget(self):
        """The panel's memory is unknown: the next show sends every page."""
        self.known = False

    def changed(self):
        """The mask of the pages that differ from the shadow (every page when
        the panel is unknown); the shadow takes them over."""
        frame_pages = self.frame_pages
        shadow_pages = self.shadow_pages
        if not self.known:
            self.known = True
            self.shadow[:] = self.frame
            return _ALL_PAGES
        mask = 0
        for p in range(_PAGES):
            if frame_pages[p] != shadow_pages[p]:
                shadow_pages[p][:] = frame_pages[p]
                mask |= 1 << p
        return mask

    def show(self, full=False):
        """Send the pages that changed since the last show (every page if
        ``full``); -> their mask."""
        if full:
            self.forget()
        mask = self.changed()
        try:
            self.send(mask)
        except Exception:
            self.forget()  # a bus error: the panel may lack some pages, send them all next time
            raise
        return mask
