"""The screen framework: a stack of screens, each handling logical key
events and drawing itself into a 128x64 framebuf. Data flows one way:
buttons -> Keys events -> UI.key -> (engine, journal) -> UI.draw -> show().

Screens never touch pins or the display driver; they get the UI object (for
push/pop and the app's services, ``ui.app``) and the frame buffer.
Everything here runs unchanged on CPython (with the host's pure-Python
framebuf) and MicroPython.

A screen is a Screen with key(ui, ev) and draw(ui, fb); it sets
``ui.dirty = True`` when it must be drawn again. The generic ones are here
(Menu, Picker, Message, Lines). The screens few games need live in modules
of their own, listed in RARE and opened with ``ui.open(name)``.

Drawing cost (most of a key press's computing, redrawn after every key):
every new str is looked up in MicroPython's interned-string table, a linear
search through all the names of the loaded modules (~0.15 ms a string), so
what is drawn on every press makes few new strings: fixed text is kept
(teatally.words), and numbers are formatted to bytes (b"%d" % n: no lookup;
text() takes bytes as well as str). Screen text is drawn with text() in the
6x8 font (teatally.ui.font), 21 columns a line; nothing is ever cut: what
does not fit is wrapped or said shorter (OVERFLOWS, tests/test_text_fit.py)."""

import sys

from teatally.buttons import E_LONG, E_PRESS, E_REPEAT, K_BACK, K_DOWN, K_OK, K_UP
from teatally.compat import const

W = const(128)
H = const(64)
COLS = const(21)  # characters a line in the 6x8 font (teatally.font)
LINE = const(8)
ROWS = const(8)
GS8 = const(6)  # framebuf.GS8, one byte a pixel (see Stamp)

# Repeat/long events on UP/DOWN step like presses (value pickers, lists).
STEP_KINDS = (E_PRESS, E_LONG, E_REPEAT)


def kind(ev):
    return ev & 0xF0


def keyof(ev):
    return ev & 0x0F


def width(s):
    """Pixels the text s takes across in the screens' font (teatally.font)."""
    return _font().width(s)


def fits(s, room=W):
    """Does s fit in room pixels?"""
    return _font().width(s) <= room


# Another language's padding while it is on (issue 18: ja_text.pad, set by
# ui.lang.use_language); None: spaces, one a character.
PAD = [None]


def pad(s, cols):
    """s followed by spaces up to column cols of the 6x8 font (a table's
    next column starts there), or None when s is wider than cols columns."""
    if PAD[0] is not None:
        return PAD[0](s, cols)
    return s + " " * (cols - len(s)) if len(s) <= cols else None


# Another language's line breaking while it is on (issue 18: ja_text.wrap,
# set by ui.lang.use_language with font.EXT); None: the spaces' (below).
WRAP = [None]


def wrap(text):
    """Split text at spaces into lines of at most COLS characters (a word
    longer than a line is split). Words are kept as the text has them: two
    spaces in a line stay two, spaces at a line's start are dropped."""
    if WRAP[0] is not None:
        return WRAP[0](text)
    # Each line is one slice of text: one new string a line instead of one
    # a word and one a join (each new string searches the interned-string
    # table). The line being filled is text[a : w - 1] (a < 0: none yet),
    # the next word text[w:e].
    out = []
    a = -1
    w = 0
    while w <= len(text):
        e = text.find(" ", w)
        if e < 0:
            e = len(text)
        while e - w > COLS:  # a word longer than a line: split
            if a >= 0:
                out.append(text[a : w - 1])
                a = -1
            out.append(text[w : w + COLS])
            w += COLS
        if a < 0 or e - a > COLS:  # the word starts a line
            if a >= 0:
                out.append(text[a : w - 1])
            a = w if e > w else -1  # an empty word (two spaces) starts none
        w = e + 1
    if a >= 0:
        out.append(text[a : w - 1])
    return out


def name_lines(text):
    """text holding a file name (a board's, "waveshare_pico_oled_1_3") as
    lines that fit: broken after an underscore, every character kept (wrap
    would split the name at the 21st column)."""
    out = []
    while not fits(text):
        i = len(text)
        while i > 0 and not fits(text[: i + 1]):
            i = text.rfind("_", 0, i)
        if i <= 0:
            break
        out.append(text[: i + 1])
        text = text[i + 1 :]
    out.append(text)
    return out


# Text wider than its place, as (text, x, y) while the list has room: never
# cut on screen (tests/test_text_fit.py walks every screen and reads it).
OVERFLOWS = []
_FONT = []  # teatally.font and its draw, imported at the first text drawn


def _font():
    if not _FONT:
        from teatally.ui import font

        _FONT.append(font)
        _FONT.append(font.draw)
    return _FONT[0]


def text(fb, s, x, y, c=1):
    """Draw s (str or bytes) at x, y in the 6x8 font (teatally.ui.font): lit
    pixels (c=1) or dark ones (c=0, on a bar). Text must fit from x to the
    screen's right edge: what does not is noted in OVERFLOWS."""
    # Speed, first light: c is reused for the width drawn so that this frame
    # stays within 11 words off the heap (tests/test_hot_frames.py); a plain
    # local costs computing p95 +0.8 ms (14.7 -> 15.5 ms).
    if type(s) is str:
        s = s.encode()  # bytes: no new str (no interned-string search)
    if not _FONT:
        _font()
    if x < 1 - c:
        # text before the left edge, or dark text (on a bar) at the edge:
        # its first column would merge with the glass's dark border
        _overflow(s, x, y)
    c = _FONT[1](fb, s, x, y, c)
    if x + c > W:
        _overflow(s, x, y)


def _overflow(s, x, y):
    # note text running past its place's edge
    if len(OVERFLOWS) < 20:
        OVERFLOWS.append((s, x, y))


def _lines(fb, lines, i, y, whole=False):
    # lines[i], lines[i + 1], ... from y down to the bottom; whole: the
    # screen cannot scroll, so a line left below the bottom is cut
    # (OVERFLOWS, tests/test_text_fit.py)
    while y < H and i < len(lines):
        text(fb, lines[i], 0, y)
        y += LINE
        i += 1
    if whole and i < len(lines):
        _overflow(lines[i], 0, y)


class Screen:
    """Base screen. Subclasses override key() and draw()."""

    title = ""
    # What BACK does here and whether LONG BACK undoes, as a hold on the
    # 2-key board shows them while it counts (teatally.ui.hold): a words
    # key (None: BACK does nothing, no hold is shown), a bool.
    back_does = "does.back"
    undoes = False
    ahead = None  # a rare module (RARE) its next press likely opens: UI.ahead

    def key(self, ui, ev):
        if ev == (E_PRESS | K_BACK):
            ui.pop()

    def go_back(self, ui):
        # BACK: the screen's own back(ui) when it has one, else the one below
        back = getattr(self, "back", None)
        if back is not None:
            back(ui)
        else:
            ui.pop()

    def draw(self, ui, fb):
        pass

    def shown(self, ui):
        """Called when the screen becomes the top one again."""


class Menu(Screen):
    """A scrolling list. items: list of (label, value). pick(ui, value) is
    called on OK; back(ui) on BACK (default: pop)."""

    def __init__(self, title, items, pick, back=None, sel=0, hint=None):
        self.title = title
        self.items = items
        self.pick = pick
        self.back = back
        self.sel = sel if 0 <= sel < len(items) else 0
        self.top = 0
        self.hint = hint  # optional fn(value) -> bottom line text

    def key(self, ui, ev):
        k = keyof(ev)
        n = len(self.items)
        if k == K_UP and kind(ev) in STEP_KINDS and n:
            self.sel = (self.sel - 1) % n
        elif k == K_DOWN and kind(ev) in STEP_KINDS and n:
            self.sel = (self.sel + 1) % n
        elif ev == (E_PRESS | K_OK) and n:
            self.pick(ui, self.items[self.sel][1])
        elif ev == (E_PRESS | K_BACK):
            self.go_back(ui)
        else:
            return
        ui.dirty = True

    def draw(self, ui, fb):
        # Every key press redraws: no new strings here but the hint's (each
        # new string costs a search of the interned-string table, ~0.15 ms).
        rows = self._shown()
        if self.sel < self.top:
            self.top = self.sel
        elif self.sel >= self.top + rows:
            self.top = self.sel - rows + 1
        header(fb, self.title)
        n = len(self.items)
        self._rows(fb, self.top + rows if self.top + rows < n else n)
        if n > rows:
            self._scrollbar(fb, rows)
        self._bottom(fb)

    def _shown(self):
        # the item rows: all but the title, the hint and the note's lines
        rows = ROWS - 2 if self.hint else ROWS - 1
        note = getattr(self, "note", None)  # lines above the hint (a round's notes)
        return rows - len(note) if note else rows

    def _bottom(self, fb):
        # the hint on the last line, the note's lines above it
        if self.hint and len(self.items):
            text(fb, self.hint(self.items[self.sel][1]), 0, H - LINE)
        note = getattr(self, "note", None)
        if note:
            _lines(fb, note, 0, H - LINE * (len(note) + (1 if self.hint else 0)), True)

    def _rows(self, fb, end):
        # items top .. end - 1 from y = LINE, 15 columns from x = 4; the
        # selected one dark on a bar
        i = self.top
        y = LINE
        while i < end:
            if i == self.sel:
                bar(fb, y)
            _item(fb, self.items[i][0], y, i != self.sel)
            y += LINE
            i += 1

    def _scrollbar(self, fb, rows):
        # on the right edge, a thumb as long as the share of the items shown,
        # as far down its travel (rows * LINE - h) as top is down the items
        n = len(self.items)
        h = max(3, (H - LINE) * rows // n)
        y = (rows * LINE - h) * self.top // max(1, n - rows) + LINE
        fb.fill_rect(W - 2, y, 2, h, 1)


def _item(fb, label, y, c):
    # a menu line's label from x = 4, clear of the scrollbar (2 px at the
    # right edge): 20 columns
    if type(label) is str:
        label = label.encode()
    w = _font().draw(fb, label, 4, y, c)
    if 4 + w > W - 2:
        _overflow(label, 4, y)


class Picker(Screen):
    """Pick a whole number lo..hi with UP/DOWN (held: auto-repeat).

    describe(v) -> list of up to 5 lines shown under the title (e.g. where n
    hourglasses land); done(ui, v) on OK."""

    def __init__(self, title, lo, hi, value, done, describe=None, back=None):
        self.title = title
        self.lo = lo
        self.hi = hi
        self.value = lo if value < lo else hi if value > hi else value
        self.done = done
        self.describe = describe
        self.back = back
        self._range = None  # "lo..hi", made at the first draw

    def key(self, ui, ev):
        k = keyof(ev)
        if k == K_UP and kind(ev) in STEP_KINDS:
            self.value = self.value + 1 if self.value < self.hi else self.lo
        elif k == K_DOWN and kind(ev) in STEP_KINDS:
            self.value = self.value - 1 if self.value > self.lo else self.hi
        elif ev == (E_PRESS | K_OK):
            self.done(ui, self.value)
        elif ev == (E_PRESS | K_BACK):
            self.go_back(ui)
        else:
            return
        ui.dirty = True

    def draw(self, ui, fb):
        header(fb, self.title)
        # the value, big: three columns (-12) at scale 2 keep clear of the
        # range text; four (-999, the adjust picker's stars) start at the
        # left edge to keep clear of it too
        v = str(self.value)
        ui.gfx.big(fb, v, 4 if len(v) <= 3 else 0, 12, 3 if len(v) <= 2 else 2)
        if self._range is None:
            # bytes (fb.text takes them): no new str
            self._range = b"%d..%d" % (self.lo, self.hi)
        text(fb, self._range, 64, 16)
        if self.describe is not None:
            _lines(fb, self.describe(self.value), 0, 40, True)  # the 3 lines left


class Message(Screen):
    """Lines of text; OK (or BACK) calls ok(ui) (default: pop)."""

    def __init__(self, title, lines, ok=None, top=0):
        self.title = title
        self.lines = lines
        self.ok = ok
        self.top = top

    def key(self, ui, ev):
        k = keyof(ev)
        if k == K_DOWN and kind(ev) in STEP_KINDS:
            if self.top + ROWS - 1 < len(self.lines):
                self.top += 1
        elif k == K_UP and kind(ev) in STEP_KINDS:
            if self.top > 0:
                self.top -= 1
        elif ev == (E_PRESS | K_OK) or ev == (E_PRESS | K_BACK):
            if self.ok is not None:
                self.ok(ui)
            else:
                ui.pop()
        else:
            return
        ui.dirty = True

    def draw(self, ui, fb):
        header(fb, self.title)
        _lines(fb, self.lines, self.top, LINE)


class Lines(Message):
    """Scrolling lines with separate OK and BACK (Message gives both to ok).

    ok(ui) / back(ui) default to pop; long_back(ui), when given, answers LONG BACK."""

    def __init__(self, title, lines, ok=None, back=None, long_back=None):
        Message.__init__(self, title, lines, ok)
        self.back = back
        self.long_back = long_back
        self.undoes = long_back is not None  # (the final scoring's undo)

    def key(self, ui, ev):
        if ev == (E_PRESS | K_BACK):
            self.go_back(ui)
            ui.dirty = True
        elif ev == (E_LONG | K_BACK) and self.long_back is not None:
            self.long_back(ui)
            ui.dirty = True
        else:
            Message.key(self, ui, ev)

    def draw(self, ui, fb):
        Message.draw(self, ui, fb)
        if len(self.lines) > ROWS - 1:
            # more below / above: the player knows to scroll
            gfx = ui.gfx
            if self.top + ROWS - 1 < len(self.lines):
                gfx.icon(fb, gfx.ICON_DOWN, W - 8, 7 * LINE, 1)
            if self.top:
                gfx.icon(fb, gfx.ICON_UP, W - 8, 0, 0)


def clear(fb):
    """Blank the frame: the display's one-byte-fill clear() where it has the
    fast path (see hw.base; fill(0) sets 8192 pixels one by one). Asked by
    ``bands``, not ``clear``: a driver's own clear() may do something else.
    Speed, first light (issue 24: with fill(0) computing p95 +0.6 ms, first
    light proxy 25.2 ms > 25)."""
    if getattr(fb, "bands", None) is None:
        fb.fill(0)
    else:
        fb.clear()


def bar(fb, y, c=1):
    """Light (c=1) or darken the whole text line at y: the title bar, the
    selected menu line."""
    fb.fill_rect(0, y, W, LINE, c)


class Stamp:
    """A text line (one 8-pixel band) that looks the same frame after frame,
    such as a board's fixed labels: drawn once, then its 128 bytes are
    copied in through the display's ``bands`` (hw.base), one blit instead
    of several drawing calls. On a display without bands it is always drawn.

        if not stamp.paste(fb, r, key):
            ... draw band r (nothing else may be in it) ...
            stamp.keep(fb, r, key)

    ``key`` names what the band shows (redrawn when it changes)."""

    __slots__ = ("img", "fb", "key")

    def __init__(self):
        self.img = None
        self.fb = None  # the display the bytes came from (their format is its own)
        self.key = None

    def paste(self, fb, r, key):
        if self.fb is not fb or self.key != key:
            return False
        fb.bands.blit(self.img, 0, r)
        return True

    def keep(self, fb, r, key):
        b = getattr(fb, "bands", None)
        if b is None:
            return
        img = self.img
        if img is None:
            # the bands' own class and format (GS8): no import of framebuf
            # here (~0.2 ms; and CPython may not have one)
            img = self.img = type(b)(bytearray(W), W, 1, GS8)
        img.blit(b, 0, -r)
        self.fb = fb
        self.key = key


def header(fb, title, done=True):
    # inverse title bar: tells the player at a glance where they are; done:
    # nothing more goes on it (else the screen calls title_done itself)
    bar(fb, 0)
    text(fb, title, 1, 0, 0)  # a lit column left of the first letter
    if done:
        title_done(fb)


def title_done(fb):
    """The title bar is drawn: on the panel at once, while the rest of the
    screen is drawn (a new screen's first light; hw.base show_top). Its
    last row goes dark first: apart from a selected first row below it
    (the two bars read as one block), the same on every screen (the top
    page does not change when a selection moves); drawn after the bar's
    text (the font's fast path wants whole cells)."""
    fb.hline(0, LINE - 1, W, 0)
    top = getattr(fb, "show_top", None)  # (only displays have it)
    if top is not None:
        top()


# The screens few games need, and the home menu (no game needs it while it
# is played), as teatally.ui.<name>: imported by the key press that opens
# them (UI.open) and released when their screens are closed, so that their
# bytecode leaves the heap (an import from a .mpy file copies it into the
# heap). Everything else is imported once and stays.
RARE = ("home", "pads", "settings", "archive", "t42.setup", "t42.history", "t42.adjust", "t42.end",
        "t42.recover", "t42.legend")


class UI:
    """The screen stack plus the services screens share (set by the app)."""

    def __init__(self, app, gfx):
        self.app = app
        self.gfx = gfx
        self.stack = []
        self.dirty = True
        self.menu_seen = False  # the game menu was opened: its first-use hint goes
        # the rare modules open: [name, the stack index of their first
        # screen, True until a push/replace/reset places that screen]
        self.opened = []

    def open(self, name):
        """The module teatally.ui.<name> (one of RARE), imported if need be,
        for a screen about to be pushed (or to replace or reset the stack).
        It stays loaded while the stack still holds that screen's place."""
        if name not in RARE:
            raise ValueError("not a rare screen module: " + name)
        full = "teatally.ui." + name
        for o in self.opened:
            if o[0] == full:
                o[2] = True
                break
        else:
            self.opened.append([full, len(self.stack), True])
        __import__(full)
        return sys.modules[full]

    def ahead(self):
        """Import the rare module the screen on top names as its likely
        next (its ``ahead`` attribute: the home menu's new-game setup), so
        that the press which opens it pays no import (and meets no
        collection the import brings: the first press from the home menu,
        first light worst in teatally_host.budgets). The module stays
        loaded while that screen is on the stack, as if it had opened it.
        Called between presses (App.idle_work)."""
        top = self.top()
        name = top.ahead if top is not None else None
        if name is None:
            return
        full = "teatally.ui." + name
        for o in self.opened:
            if o[0] == full:
                return
        self.opened.append([full, len(self.stack) - 1, False])
        __import__(full)

    def _placed(self, i):
        # the modules opened for the screen now at index i
        for o in self.opened:
            if o[2]:
                o[1] = min(o[1], i)
                o[2] = False

    def _release(self, n):
        # close the rare modules opened for stack index n and above
        keep = []
        for o in self.opened:
            if o[1] < n or o[2]:
                keep.append(o)
            else:
                _unload(o[0])
        self.opened = keep

    def top(self):
        return self.stack[-1] if self.stack else None

    def push(self, screen):
        self._placed(len(self.stack))
        self.stack.append(screen)
        self.dirty = True

    def pop(self):
        if len(self.stack) > 1:
            self.stack.pop()
            self._release(len(self.stack))
            self.stack[-1].shown(self)
        self.dirty = True

    def replace(self, screen):
        if self.stack:
            self.stack.pop()
        self.push(screen)

    def reset(self, screen):
        self._release(0)
        self._placed(0)
        self.stack = [screen]
        self.dirty = True

    def key(self, ev):
        s = self.top()
        if s is not None:
            s.key(self, ev)
            if (ev == (E_PRESS | K_UP) or ev == (E_PRESS | K_DOWN)) and self.top() is not s:
                # UP/DOWN go at the press (teatally.buttons): a press that
                # opened another screen ends its hold, so the new screen
                # gets no LONG/REPEAT steps from it
                self.app.keys.end_hold()

    def draw(self, fb):
        clear(fb)
        s = self.top()
        if s is not None:
            s.draw(self, fb)
        self.dirty = False


def _unload(name):
    # Out of sys.modules and its package: once its screens are gone, its
    # code is garbage. MicroPython only: CPython (host tools, tests) has
    # memory to spare, and its tests hold on to the modules they imported.
    if sys.implementation.name != "micropython":
        return
    sys.modules.pop(name, None)
    pkg, _, attr = name.rpartition(".")
    if hasattr(sys.modules[pkg], attr):
        delattr(sys.modules[pkg], attr)
