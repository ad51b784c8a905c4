# The screen framework: a stack of screens, each handling logical key events
# and drawing itself into a 128x64 framebuf. Data flows one way:
# buttons -> Keys events -> UI.key -> (engine, journal) -> UI.draw -> show().
#
# Screens never touch pins or the display driver; they get the UI object (for
# push/pop and the app's services) and the frame buffer. Everything here runs
# unchanged on CPython (with the host's pure-Python framebuf) and MicroPython.

from teatally.buttons import E_LONG, E_PRESS, E_REPEAT, K_BACK, K_DOWN, K_OK, K_UP
from teatally.compat import const

W = const(128)
H = const(64)
COLS = const(16)
LINE = const(8)
ROWS = const(8)

# Repeat/long events on UP/DOWN step like presses (value pickers, lists).
STEP_KINDS = (E_PRESS, E_LONG, E_REPEAT)


def kind(ev):
    return ev & 0xF0


def keyof(ev):
    return ev & 0x0F


def fit(s, n=COLS):
    """Cut s to n characters (the 8x8 font gives 16 per line)."""
    return s if len(s) <= n else s[: n - 1] + "~"


def wrap(text, n=COLS):
    """Split text at spaces into lines of at most n characters (a word longer
    than a line is cut)."""
    out = []
    line = ""
    for word in text.split(" "):
        while len(word) > n:
            if line:
                out.append(line)
                line = ""
            out.append(word[:n])
            word = word[n:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= n:
            line += " " + word
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    return out


def pad_left(s, n):
    # str.rjust is missing on MicroPython
    return " " * (n - len(s)) + s if len(s) < n else s


class Screen:
    """Base screen. Subclasses override key() and draw()."""

    title = ""

    def key(self, ui, ev):
        if ev == (E_PRESS | K_BACK):
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
            if self.back is not None:
                self.back(ui)
            else:
                ui.pop()
        else:
            return
        ui.dirty = True

    def draw(self, ui, fb):
        rows = ROWS - 1 - (1 if self.hint else 0)
        if self.sel < self.top:
            self.top = self.sel
        elif self.sel >= self.top + rows:
            self.top = self.sel - rows + 1
        header(fb, self.title)
        y = LINE
        for i in range(self.top, min(len(self.items), self.top + rows)):
            label = fit(self.items[i][0], COLS - 1)
            if i == self.sel:
                fb.fill_rect(0, y, W, LINE, 1)
                fb.text(label, 4, y, 0)
            else:
                fb.text(label, 4, y, 1)
            y += LINE
        if len(self.items) > rows:
            # scrollbar on the right edge
            h = max(3, (H - LINE) * rows // len(self.items))
            span = H - LINE - h - (LINE if self.hint else 0)
            yb = LINE + span * self.top // max(1, len(self.items) - rows)
            fb.fill_rect(W - 2, yb, 2, h, 1)
        if self.hint and self.items:
            fb.text(fit(self.hint(self.items[self.sel][1])), 0, H - LINE, 1)


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

    def key(self, ui, ev):
        k = keyof(ev)
        if k == K_UP and kind(ev) in STEP_KINDS:
            self.value = self.value + 1 if self.value < self.hi else self.lo
        elif k == K_DOWN and kind(ev) in STEP_KINDS:
            self.value = self.value - 1 if self.value > self.lo else self.hi
        elif ev == (E_PRESS | K_OK):
            self.done(ui, self.value)
        elif ev == (E_PRESS | K_BACK):
            if self.back is not None:
                self.back(ui)
            else:
                ui.pop()
        else:
            return
        ui.dirty = True

    def draw(self, ui, fb):
        header(fb, self.title)
        v = str(self.value)
        # gfx.big; three columns (e.g. -12) at scale 2 keep clear of the range text
        ui.gfx.big(fb, v, 4, 12, 3 if len(v) <= 2 else 2)
        fb.text("%d..%d" % (self.lo, self.hi), 64, 16, 1)
        if self.describe is not None:
            y = 40
            for line in self.describe(self.value)[:3]:
                fb.text(fit(line), 0, y, 1)
                y += LINE


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
        y = LINE
        for line in self.lines[self.top : self.top + ROWS - 1]:
            fb.text(fit(line), 0, y, 1)
            y += LINE


def header(fb, title):
    # inverse title bar: tells the player at a glance where they are
    fb.fill_rect(0, 0, W, LINE, 1)
    fb.text(fit(title), 0, 0, 0)


class UI:
    """The screen stack plus the services screens share (set by the app)."""

    def __init__(self, app, gfx):
        self.app = app
        self.gfx = gfx
        self.stack = []
        self.dirty = True

    def top(self):
        return self.stack[-1] if self.stack else None

    def push(self, screen):
        self.stack.append(screen)
        self.dirty = True

    def pop(self):
        if len(self.stack) > 1:
            self.stack.pop()
            self.stack[-1].shown(self)
        self.dirty = True

    def replace(self, screen):
        if self.stack:
            self.stack.pop()
        self.push(screen)

    def reset(self, screen):
        self.stack = [screen]
        self.dirty = True

    def key(self, ev):
        s = self.top()
        if s is not None:
            s.key(self, ev)

    def draw(self, fb):
        fb.fill(0)
        s = self.top()
        if s is not None:
            s.draw(self, fb)
        self.dirty = False
