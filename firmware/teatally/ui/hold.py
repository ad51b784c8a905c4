"""A hold shown while it counts, and the undo it gives asked first (issue
30): the boards whose undo is a later stage of BACK's own hold
(teatally.buttons.STAGED: the 2-key board, where B held alone is OK until
0.6 s, BACK until 1.5 s, then LONG BACK). The app loads this module at
boot on those boards only (App.hold); the 4-key board never imports it.

While B is held alone past SHOW_MS (a tap is over long before), the two
bottom lines say what the hold will do. Line 6 (inverse): before long_ms
what holding on gives ("hold: game menu"), after it what letting go does
now ("let go: game menu"): the words of the top screen's ``back_does``.
Line 7: a bar filling as the hold goes on, with a tick where BACK begins,
towards the undo named at its end where the screen on top undoes
(``undoes``: the status board, the final scoring); elsewhere the bar ends
at BACK, and a hold past 1.5 s is BACK all the same (event()). The undo
itself is never done by the hold: at 1.5 s the screen asks (Ask: "Undo?",
the round it would undo, "B: undo  A: keep").

Drawn over the frame on screen (bands 6 and 7: only their pages go to
the panel), again only when the bar grew STEP_MS's worth (20 drawings a
second at most) or the words changed, and
never while a redraw is due: a release during a hold waits at most for
one such drawing, a few milliseconds, before its own screen (first light,
bench/README.md).
"""

from teatally import words
from teatally.buttons import E_LONG, E_PRESS, K_BACK, K_OK
from teatally.ui.core import LINE, W, Screen, bar, header, keyof, kind, text, width, wrap

SHOW_MS = 250  # a hold is shown from then on (a tap lasts about 100 ms)
STEP_MS = 50  # the bar is drawn again when it grew this much time's worth
_Y = 6 * LINE  # the hold's two lines: 6 (words) and 7 (the bar)


class Hold:
    """The hold on screen: App.step calls step() at each pass of the loop
    (before the screen is drawn, if it is due: then the hold is drawn at
    the next pass), App.handle() passes every event through event()."""

    __slots__ = ("keys", "px", "going", "words", "label", "full", "end", "tick", "step_px")

    def __init__(self, keys):
        self.keys = keys
        self.px = -1  # the bar's length on screen (-1: no hold shown)
        self.going = False  # the words drawn are letting go's
        self.words = None  # the words drawn on line 6 (bytes, as ui.core.text draws them)
        self.label = None  # the undo's name at the bar's end (bytes)
        self.full = 0  # the bar's length when full, px
        self.end = 0  # the hold's length the full bar stands for, ms
        self.tick = -1  # where BACK begins on the bar (-1: no undo after it)
        self.step_px = 1  # the bar is drawn again when it grew this much (STEP_MS)

    def step(self, app, now):
        """Draw the hold on screen, or have the screen drawn again when a
        hold shown ended without a redraw (a key that changed nothing).
        A pass with nothing new to draw costs a few look-ups."""
        ms = self.keys.hold_ms(now)
        ui = app.ui
        if ui.dirty:
            self.px = -1  # the screen is drawn anew (the hold comes at the next pass)
            return
        if ms < SHOW_MS:
            if self.px >= 0:
                self.px = -1
                ui.dirty = True
            return
        keys = self.keys
        going = ms >= keys.long_ms
        if self.px < 0 or going != self.going:
            # a new hold (or the frame drawn anew), or BACK reached: what
            # the screen on top does with it
            top = ui.top()
            does = None if top is None else top.back_does
            if does is None:
                return
            self.words = words.f("hold.go" if going else "hold.hold", words.t(does)).encode()
            self.going = going
            if top.undoes:
                self.label = words.t("does.undo").encode()
                self.end = keys.very_long_ms
                self.full = W - 3 - width(self.label) - 2
                self.tick = keys.long_ms * self.full // self.end
            else:
                self.end = keys.long_ms
                self.full = W - 3
                self.tick = -1
            self.step_px = self.full * STEP_MS // self.end or 1
            self.px = -1
        px = self.full * (ms if ms < self.end else self.end) // self.end
        if self.px >= 0 and (px == self.px or (px < self.full and px - self.px < self.step_px)):
            return  # (drawn again STEP_MS later, or when full)
        self.px = px
        self.draw(app.fb, self.full + 2, self.tick)
        app.fb.show()

    def draw(self, fb, room, tick):
        # line 6 inverse, line 7 the bar: an outline room px wide, filled
        # px, a tick (BACK begins) at tick, the undo's name after it
        bar(fb, _Y)
        text(fb, self.words, 1, _Y, 0)  # (a lit column before it: ui.core.text)
        y = _Y + LINE
        fb.fill_rect(0, y, W, LINE, 0)
        fb.rect(0, y + 1, room, LINE - 1, 1)
        fb.fill_rect(1, y + 2, self.px, LINE - 3, 1)
        if tick >= 0:
            fb.vline(tick + 1, y, 2, 1)
            text(fb, self.label, room + 2, y)

    def event(self, ui, ev):
        """LONG BACK where the screen on top does not undo is its BACK: the
        hold only went on (as its bar said)."""
        if ev == (E_LONG | K_BACK) and not ui.top().undoes:
            return E_PRESS | K_BACK
        return ev

    def ask(self, ui, label, undo):
        """LONG BACK that undoes: asked first (label: the line it undoes)."""
        ui.push(Ask(label, undo))


class Ask(Screen):
    """Undo the last line? OK undoes it (undo(ui)); any other press keeps
    it (back to the screen below). A hold's release never answers: the
    keys wait until every key is up (teatally.buttons)."""

    def __init__(self, label, undo):
        self.title = words.t("undo.ask")
        self.lines = wrap(label)
        self.lines.append(words.k("undo.ask.keys"))
        self.undo = undo

    def key(self, ui, ev):
        if kind(ev) != E_PRESS:
            return
        if keyof(ev) == K_OK:
            self.undo(ui)
        else:
            ui.pop()

    def draw(self, ui, fb):
        header(fb, self.title)
        y = LINE
        for s in self.lines:
            text(fb, s, 0, y)
            y += LINE
