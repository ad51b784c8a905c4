# The Tea for 2 score table: "Score now" in the game menu and the final
# scoring screen, with Lines, the scrolling text screen they (and the setup
# summary, the history's detail) are shown in.
#
# Not loaded while a game is played far from its end: the status board and
# the game menu name this module in their `needs` (ui_t42), so the main loop
# loads it between key presses before a key can show the final scoring.
# The scores come from teatally.t42 (T42-SCORE-*); rule IDs refer to
# seeds/tea-for-2.md.

from teatally import t42, words
from teatally import words_more  # noqa: F401  (their words: loaded with this module, app.App.wanted)
from teatally.buttons import E_LONG, E_PRESS, K_BACK
from teatally.ui import LINE, ROWS, W, Message, pad
from teatally.ui_t42 import after_undo, do_undo, game_menu


# Message.__init__ by a global name: one word less on the value stack than
# the attribute of Message, so Lines.__init__'s frame (six arguments) fits
# MicroPython's C stack (more than 11 words go on the heap: a heap search
# on every call).
_message_init = Message.__init__


class Lines(Message):
    """Scrolling lines with separate OK and BACK (Message gives both to ok).

    ok(ui) / back(ui) default to pop; long_back(ui), when given, answers LONG BACK."""

    needs = ()  # modules its keys may import (app.App.wanted)

    def __init__(self, title, lines, ok=None, back=None, long_back=None):
        _message_init(self, title, lines, ok)
        self.back = back
        self.long_back = long_back

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


def objective_name(o):
    """An objective in words: "most king", "hourglasses"."""
    return words.objective(o)


_PILE_KEY = ("4", "5", "6", "7", "8")  # t42.score's objective keys
_LABEL = 11  # the score table's label column; the numbers take 10 more


def score_lines(s, sc=None):
    """The score table as if the game ended now (T42-SCORE-1..8): stars so
    far, each objective (its pile and name, blue's points, pink's; "-"
    while its pile is not empty, so it does not score yet), totals and the
    winner, then what "-" means. sc: t42.score(s) if the caller has it
    already. -> lines (str)."""
    if sc is None:
        sc = t42.score(s)
    lines = [" " * _LABEL + words.t("score.head")]
    _row(lines, words.t("score.stars"), b"%5d%5d" % (s.players[0].stars, s.players[1].stars))
    open_piles = False
    for v in range(4, 9):  # the piles (t42.PILES): a range of constants takes the fewest frame words
        o = sc["objectives"].get(_PILE_KEY[v - 4])
        name = words.f("score.obj", v, objective_name(s.objectives[v]))
        if o is None:
            open_piles = True
            _row(lines, name, b"    -    -")
        else:
            _row(lines, name, b"%5d%5d" % (o["blue"], o["pink"]))
    _row(lines, words.t("score.total"), b"%5d%5d" % (sc["blue"], sc["pink"]))
    w = 0 if sc["winner"] == "blue" else 1
    lines.append(words.f("score.wins.flamingo" if sc["blue"] == sc["pink"] else "score.wins", words.player(w)))
    if open_piles:
        lines.append(words.t("score.legend"))
    return lines


def _row(lines, label, numbers):
    # a label and its two numbers on one line, or on two when it is long
    numbers = numbers.decode()
    padded = pad(label, _LABEL)
    if padded is not None:
        lines.append(padded + numbers)
    else:
        lines.append(label)
        lines.append(" " * _LABEL + numbers)


# OK archives the game and shows the home menu
FINAL_NEEDS = ("ui_misc",)


def final_screen(ui):
    s = ui.app.game.state
    sc = t42.score(s)
    lines = score_lines(s, sc)
    lines.append(words.t("final.ok"))
    m = Lines(words.f("final.title", sc["blue"], sc["pink"]), lines, _archive, _game_menu, _undo)
    m.needs = FINAL_NEEDS
    m.prepare = _Summary(sc).prepare  # type: ignore[attr-defined]  # app.App idle work
    return m


class _Summary:
    """The archive's final line, made while the final scoring is read (idle
    work: the screen's prepare), so that the OK press only moves the game."""

    __slots__ = ("sc",)

    def __init__(self, sc):
        self.sc = sc

    def prepare(self, app):
        ready = app.summary
        if app.game is None or (ready is not None and ready[0] is app.game.state):
            return False  # made already (an undo and a redo give another state)
        from teatally.journal import line_text

        app.summary = (app.game.state, line_text(self.sc))
        return True


def _game_menu(ui):
    ui.push(game_menu(ui, 0))


def _undo(ui):
    after_undo(ui, do_undo(ui))


def _archive(ui):
    app = ui.app
    app.archive()
    app.home()
