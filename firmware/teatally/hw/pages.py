"""show() sends only the pages of the frame that changed.

Why: what a player waits for after a key press is mostly the display's bus,
not the computing. The default board's SSD1306 takes a whole frame over I2C
at 400 kHz in about 23.5 ms, while the press itself computes a few ms. The
UI redraws the whole frame for every press (``ui.core.UI.draw`` starts with
``clear()``), but most presses -- a menu selection moving, a picker's +/- --
change one to three of the frame's eight pages (a page: 8 pixel rows, the
128 bytes ``128*p .. 128*p+127`` in every MONO format the drivers use, see
hw.base). So every display's show() goes through ``ChangedPages.show``: it
compares each page with a copy of what the panel was last sent (the
*shadow*), copies the pages that differ into the shadow and hands only those
to the driver. The drivers' own dirty-page tracking (robert-hh sh1106,
peter-l5 sh1107 ``pages_to_update``) cannot do this: it marks what drawing
*touched*, and every frame touches everything.

Allocation-free: the page views are made once; on MicroPython ``memoryview ==
memoryview`` compares the bytes and ``view[:] = view`` copies them without
touching the heap (checked under ``micropython.heap_lock()`` in
tests/test_pages.py).

``show(True)`` and the first show() send every page: the panel's memory is
unknown then (at boot; after a flip, whose segment remap applies to the data
written after it). Display off/on (``poweroff``/``poweron``) keeps the
panel's memory, so it changes nothing here.

How each driver is given the pages (``send(mask)``, bit p = page p):

- micropython-lib ``ssd1306`` (``ssd1306_sender``): its show() always sends
  the whole frame, so the pages go out here through its ``write_cmd`` /
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

PAGES = const(8)
PAGE_BYTES = const(128)
ALL_PAGES = const(0xFF)  # a mask with every page

# SSD1306 commands (datasheet 10.1.4, 10.1.5), as micropython-lib names them
_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)


class ChangedPages:
    """The shadow of what the panel shows and the show() that keeps it.

    ``frame``: the bytearray the UI draws into (1024 bytes); ``send(mask)``:
    puts the pages in ``mask`` on the panel, called once per show (with 0
    when nothing changed). ``sent``: the mask of the last show."""

    def __init__(self, frame, send):
        self.frame = frame
        self.shadow = bytearray(PAGES * PAGE_BYTES)
        f = memoryview(frame)
        s = memoryview(self.shadow)
        self.frame_pages = tuple(f[p * PAGE_BYTES : (p + 1) * PAGE_BYTES] for p in range(PAGES))
        self.shadow_pages = tuple(s[p * PAGE_BYTES : (p + 1) * PAGE_BYTES] for p in range(PAGES))
        self.send = send
        self.known = False  # does the shadow hold what the panel has?
        self.sent = 0

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
            return ALL_PAGES
        mask = 0
        for p in range(PAGES):
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
        self.sent = mask
        self.send(mask)
        return mask


def ssd1306_sender(d, shadow):
    """``send(mask)`` for micropython-lib's SSD1306 (I2C or SPI) ``d``: each
    run of adjacent pages as one column/page window and its pages' data."""
    cmd = d.write_cmd
    data = d.write_data
    pages = shadow.shadow_pages
    whole = shadow.shadow

    def send(mask):
        p = 0
        while p < PAGES:
            if not mask >> p & 1:
                p += 1
                continue
            last = p
            while last + 1 < PAGES and mask >> (last + 1) & 1:
                last += 1
            cmd(_SET_COL_ADDR)
            cmd(0)
            cmd(PAGE_BYTES - 1)
            cmd(_SET_PAGE_ADDR)
            cmd(p)
            cmd(last)
            if p == 0 and last == PAGES - 1:
                data(whole)
            else:
                while p <= last:
                    data(pages[p])
                    p += 1
            p = last + 1

    return send


def marking_sender(d, driver_show):
    """``send(mask)`` for a driver with ``pages_to_update`` (robert-hh
    sh1106, peter-l5 sh1107): mark the pages, let its show() send them."""

    def send(mask):
        if mask:
            d.pages_to_update = mask
            driver_show()

    return send


def send_changed_pages(d, frame):
    """Route display ``d``'s show() through a ChangedPages over ``frame`` (its
    driver's frame bytes, hw.base.frame_bytes): ``d.show(full=False)``.
    -> the ChangedPages, or None when the driver is not one of the above
    (its own show() stays)."""
    if hasattr(d, "pages_to_update"):
        pages = ChangedPages(frame, None)
        pages.send = marking_sender(d, d.show)  # the driver's show, bound before it is replaced
    elif hasattr(d, "write_cmd") and hasattr(d, "write_data"):
        pages = ChangedPages(frame, None)
        pages.send = ssd1306_sender(d, pages)
    else:
        return None
    d.show = pages.show  # the drivers' own flip() calls self.show(True): this one
    return pages
