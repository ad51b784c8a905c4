"""The Tea for 2 screens a game is played on: the status board, the game
menu, undo and redo. With the guided round (ui.t42.round) they stay loaded
all game; the screens the game menu opens (history and adjustments, the
score table) and the final scoring are rare ones (ui.core.RARE): opened here
when needed, released when closed.

No rule lives here: what is legal, what a round does and how the game is
scored all come from the engine (teatally.rules.t42); these screens only
show the state and turn key presses into the engine's answers. Rule IDs
refer to seeds/tea-for-2.md."""

from teatally.buttons import E_LONG, E_PRESS, K_BACK, K_DOWN, K_OK, K_UP
from teatally.rules import t42
from teatally.ui.core import LINE, Lines, Menu, Message, Screen, Stamp, header, keyof, kind, text_fit, wrap
from teatally.ui.t42.round import start as start_round
from teatally.ui.t42.words import NAMES, action_label, round_number

# -- the status board ------------------------------------------------------
# The board is drawn after nearly every key press, so it is drawn with few
# calls: both players' numbers share one text row (the two columns are 7
# characters, 56 px, apart), the numbers are formatted to bytes (see
# ui.core) once per game state, into one list kept for the purpose, and the
# icons in front of the rows are one image.
NAMES_ROW = "%-7s%s" % (NAMES[0].upper(), NAMES[1].upper())
PILE_LABELS = " ".join([str(v) for v in t42.PILES])  # one every 16 px
_column = []  # the icons in front of the rows (gfx.column), made once
_names = Stamp()  # the players' names and the flamingo (band 1)
_piles = Stamp()  # the piles' value labels and the rabbit (band 6)
# The board's text for the state _shown[0] (see board_rows): filled in
# place, no new list or tuple per state.
_ROWS = [None] * 7
_shown = [None]


def board_rows(s):
    """The status board's text for state s: [title, stars track, teacups
    (x, count, x, count: the players who have some), tarts, hourglasses,
    draw piles, piles + supply]. One list, refilled when s is another
    state (a state is never changed in place: T42-INPUT-3; a new round or
    an undo gives another object)."""
    rows = _ROWS
    if _shown[0] is not s:
        b = s.players[0]
        p = s.players[1]
        rows[0] = b"R%d" % (s.round + 1)
        # the board shows a track space plus teacups (T42-STAR-1)
        rows[1] = b"%-7d%d" % (t42.track(b.stars), t42.track(p.stars))
        rows[2] = _cups(b.stars, p.stars)
        rows[3] = b"%-7d%d" % (b.tarts, p.tarts)
        rows[4] = b"%-7d%d" % (b.hourglasses, p.hourglasses)
        rows[5] = b"%-7d%d" % (b.draw_count(), p.draw_count())
        # pile counts under their labels (16 px apart), the rabbits at x =
        # 96: three two-value formats (a six-tuple is a bigger allocation)
        pl = s.piles
        rows[6] = b"%-2d%-2d" % (pl[0], pl[1]) + b"%-2d%-2d" % (pl[2], pl[3]) + b"%-4d%d" % (pl[4], s.supply_rabbits)
        _shown[0] = s
    return rows


def _cups(sb, sp):
    # (x, count, ...) of the teacups right of each player's track number
    if sb <= 25 and sp <= 25:
        return ()  # none yet (T42-STAR-1): no new object
    cups = []
    _cup(cups, 16, sb)
    _cup(cups, 72, sp)
    return cups


def _cup(cups, x, stars):
    # a player's teacups, right of the track number drawn at x
    n = t42.teacups(stars)
    if n:
        x += 8 * len(b"%d" % t42.track(stars)) + 2
        cups.append(x)
        cups.append(b"%d" % n)


class Status(Screen):
    """Both players' boards, the watch, the piles and the supply at a glance.

    OK: play a round; UP/DOWN: game menu; LONG BACK: undo; LONG OK: redo."""

    def __init__(self, toast=None):
        self.toast = toast  # (title, line) shown until the next key

    def key(self, ui, ev):
        if self.toast is not None:
            self.toast = None
            ui.dirty = True
        k = keyof(ev)
        if ev == (E_PRESS | K_OK):
            if ui.app.game.state.over:
                show_game(ui)
            else:
                start_round(ui)
        elif k in (K_UP, K_DOWN) and kind(ev) == E_PRESS:
            ui.push(game_menu(ui, 0 if k == K_DOWN else len(MENU) - 1))
        elif ev == (E_LONG | K_BACK):
            undo(ui)
        elif ev == (E_LONG | K_OK):
            redo(ui)

    def draw(self, ui, fb):
        s = ui.app.game.state
        rows = board_rows(s)
        if self.toast is not None:
            header(fb, self.toast[0])
            text_fit(fb, self.toast[1], 0, LINE)
        else:
            _top(ui.gfx, fb, s, rows[0])
        _board(ui.gfx, fb, rows)


def _top(gfx, fb, s, title):
    # the title bar (round, the watch's space), the names and the flamingo
    header(fb, title)
    gfx.icon(fb, gfx.ICON_WATCH, 40, 0, 0)
    fb.text(t42.SPACES[s.watch], 50, 0, 0)
    if not _names.paste(fb, 1, s.flamingo):
        fb.text(NAMES_ROW, 16, LINE, 1)
        if s.flamingo == 0 or s.flamingo == 1:
            fb.blit(gfx.ICONS[gfx.ICON_FLAMINGO], 52 + 56 * s.flamingo, LINE, 0)
        _names.keep(fb, 1, s.flamingo)


def _board(gfx, fb, rows):
    # the players' rows under the icons, then the piles and the supply
    if not _column:
        _column.append(gfx.column((gfx.ICON_STAR, gfx.ICON_TART, gfx.ICON_HOURGLASS, gfx.ICON_PILE)))
    fb.blit(_column[0], 2, 2 * LINE, 0)
    fb.text(rows[1], 16, 2 * LINE, 1)
    if rows[2]:
        _teacups(gfx, fb, rows[2])
    fb.text(rows[3], 16, 3 * LINE, 1)
    fb.text(rows[4], 16, 4 * LINE, 1)
    fb.text(rows[5], 16, 5 * LINE, 1)
    if not _piles.paste(fb, 6, 0):
        # score-board piles: inverse value labels over the cards left
        fb.fill_rect(0, 6 * LINE, 9, LINE, 1)
        fb.fill_rect(16, 6 * LINE, 9, LINE, 1)
        fb.fill_rect(32, 6 * LINE, 9, LINE, 1)
        fb.fill_rect(48, 6 * LINE, 9, LINE, 1)
        fb.fill_rect(64, 6 * LINE, 9, LINE, 1)
        fb.text(PILE_LABELS, 0, 6 * LINE, 0)
        fb.blit(gfx.ICONS[gfx.ICON_RABBIT], 96, 6 * LINE, 0)
        _piles.keep(fb, 6, 0)
    fb.text(rows[6], 0, 7 * LINE, 1)


def _teacups(gfx, fb, cups):
    i = 0
    while i < len(cups):
        fb.blit(gfx.ICONS[gfx.ICON_TEACUP], cups[i], 2 * LINE, 0)
        fb.text(cups[i + 1], cups[i] + 9, 2 * LINE, 1)
        i += 2


def final_screen(ui):
    """The final scoring (ui.t42.end, opened for it)."""
    return ui.open("t42.end").final_screen(ui, _game_menu, undo)


def show_game(ui, notice=None, toast=None):
    """Reset the stack to the current game: the status board (with toast, a
    (title, line) saying what just happened), or the final scoring once the
    game is over; a journal notice goes on top. While a damaged journal is
    mended, its next step instead (ui.t42.recover)."""
    if ui.app.mend is not None:
        ui.open("t42.recover").show(ui)
        return
    game = ui.app.game
    if game is None:
        ui.app.home()
    elif game.state.over:
        ui.reset(final_screen(ui))
    else:
        ui.reset(Status(toast))
    if notice:
        ui.push(Message("Journal", wrap(notice)))


# -- undo / redo -----------------------------------------------------------
def undo(ui):
    """Undo the last committed line and say what on the status board."""
    app = ui.app
    g = app.game
    if not g.can_undo():
        show_game(ui, None, ("Nothing to undo", ""))
        return
    i = len(g.actions) - 1
    label = action_label(g.actions[i], round_number(g, i))
    app.undo()
    show_game(ui, None, ("Undone", label))


def redo(ui):
    """Redo the last undone line (the final scoring if it ends the game)."""
    g = ui.app.game
    if not g.can_redo():
        toast = ("Nothing to redo", "")
    else:
        try:
            ui.app.redo()
            i = len(g.actions) - 1
            toast = ("Redone", action_label(g.actions[i], round_number(g, i)))
        except t42.Refused as exc:
            toast = ("Cannot redo", str(exc))
    show_game(ui, None, toast)


# -- the game menu ------------------------------------------------------------
MENU = (
    ("History", "history"),
    ("Score now", "score"),
    ("Adjust", "adjust"),
    ("Undo", "undo"),
    ("Redo", "redo"),
    ("Home", "home"),
)


def game_menu(ui, sel):
    return Menu("Game", MENU, _menu_pick, sel=sel)  # never changed: no copy


def _game_menu(ui):
    ui.push(game_menu(ui, 0))


def _menu_pick(ui, what):
    if what == "history":
        ui.push(ui.open("t42.history").history(ui.app.game))
    elif what == "score":
        end = ui.open("t42.end")
        ui.push(Lines("If it ended now", end.score_lines(ui.app.game.state)))
    elif what == "adjust":
        ui.push(ui.open("t42.history").Adjust(ui.app))
    elif what == "undo":
        undo(ui)
    elif what == "redo":
        redo(ui)
    elif what == "home":
        ui.app.home()
