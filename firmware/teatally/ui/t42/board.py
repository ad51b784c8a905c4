"""The Tea for 2 screens a game is played on: the status board, the game
menu, undo and redo. With the guided round (ui.t42.round) they stay loaded
all game; the screens the game menu opens (history and adjustments, the
score table) and the final scoring are rare ones (ui.core.RARE): opened here
when needed, released when closed.

No rule lives here: what is legal, what a round does and how the game is
scored all come from the engine (teatally.rules.t42); these screens only
show the state and turn key presses into the engine's answers. Rule IDs
refer to seeds/tea-for-2.md."""

from teatally import words
from teatally.buttons import E_LONG, E_PRESS, K_BACK, K_D0, K_DOWN, K_OK, K_UP
from teatally.rules import t42
from teatally.ui.core import LINE, Lines, Menu, Message, Screen, Stamp, header, keyof, kind, text, title_done, wrap
from teatally.ui.t42.round import forget as forget_round
from teatally.ui.t42.round import opening
from teatally.ui.t42.round import start as start_round
from teatally.ui.t42.words import NAMES, action_label, round_number

# -- the status board ------------------------------------------------------
# The board is drawn after nearly every key press, so it is drawn with few
# calls: both players' numbers share one text row (the two columns are 7
# characters of the 8x8 font, 56 px, apart), the numbers are formatted to
# bytes (see ui.py) once per game state, into one list kept for the
# purpose, and the icons in front of the rows are one image.
#
# Rows: 0 the round and the watch hand; 1 the names and the flamingo;
# 2 stars (and teacups); 3 tarts and hourglasses; 4 cards in the draw
# piles; 5 the score-board piles and the rabbits; 6 a hint (until the game
# menu has been opened once) or the notes of the round before; 7 the next
# round's first question with the answer OK gives (ui_t42_round.opening).
PILE_STEP = 20  # px from one score-board pile to the next
_column = []  # the icons in front of the rows (gfx.column), made once
# Speed, first light (issue 24 took each out: computing p95 +0.3 ms, first
# light proxy 25.0 ms > 25 without _names; +0.3 ms, 25.1 ms without
# _labels; +1.4 ms, 26.5 ms without _piles and _labels; +0.75 ms, 25.6 ms
# without _ROWS/_shown, plain str rows made on every draw):
_names = Stamp()  # the players' names and the flamingo (band 1)
_labels = Stamp()  # the piles' value labels and the rabbit (band 5)
_piles = Stamp()  # the same with the piles' counts and the supply's rabbits
# The board's text for the state _shown[0] (see board_rows): filled in
# place, no new list or tuple per state.
_ROWS = [None] * 8
_shown = [None]


def forget():
    """Let go of the last game: the board's text and the state it was made
    for, and the round's first question (App.archive: a finished game's
    state stays out of the home menu's heap, 3.2 KB; heap_live_peak_bytes)."""
    _shown[0] = None
    for i in range(len(_ROWS)):
        _ROWS[i] = None
    forget_round()


def board_rows(s):
    """The status board's text for state s: [title, stars track, teacups
    (x, count, x, count: the players who have some), tarts, hourglasses,
    draw piles, pile counts (the rabbits last: band 5's texts), rabbits].
    One list, refilled when s is another state (a state is never changed
    in place: T42-INPUT-3; a new round or an undo gives another object)."""
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
        piles = _pile_texts(s.piles, s.supply_rabbits)
        rows[6] = piles
        rows[7] = piles[5]
        _shown[0] = s
    return rows


def _pile_texts(piles, rabbits):
    # the cards left in each pile and the rabbits in the supply, as text,
    # one list a state (what band 5 shows: the key of its Stamp)
    out = []
    i = 0
    while i < len(piles):
        out.append(b"%d" % piles[i])
        i += 1
    out.append(b"%d" % rabbits)
    return out


def _cups(sb, sp):
    # (x, count, total, ...) of the teacups right of each player's track
    # number, and the stars in all after them (T42-STAR-1: "4 cup 2 =54")
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
        # the total in the 6x8 font after the count; three digits (4
        # teacups) without the "=", so that pink's fits the screen
        cups.append(b"=%d" % stars if stars < 100 else b"%d" % stars)


class Status(Screen):
    """Both players' boards, the watch, the piles and the supply at a glance,
    and the next round's first question at the bottom.

    OK: that answer (the likeliest card, selected); UP/DOWN: the question
    with the next card selected (the round has begun); BACK: game menu;
    LONG BACK: undo (asked first on the 2-key board: long_back); LONG OK:
    redo."""

    back_does = "does.menu"  # (what a hold shows: ui.hold)
    undoes = True

    def __init__(self, toast=None):
        self.toast = toast  # (title, line) shown until the next key
        self.note = None  # a line for row 6 until the next key (after a round)

    def key(self, ui, ev):
        if self.toast is not None or self.note is not None:
            self.toast = self.note = None
            ui.dirty = True
        k = keyof(ev)
        if kind(ev) == E_PRESS and (k == K_OK or k == K_UP or k == K_DOWN or k >= K_D0):
            # (the keypad's keys answer the round's first question at once)
            if ui.app.game.state.over:
                show_game(ui)
            else:
                start_round(ui, ev)  # the question, this key on it
        elif ev == (E_PRESS | K_BACK):
            ui.menu_seen = True
            ui.push(game_menu(ui, 0))
        elif ev == (E_LONG | K_BACK):
            long_back(ui)
        elif ev == (E_LONG | K_OK):
            redo(ui)

    def draw(self, ui, fb):
        s = ui.app.game.state
        rows = board_rows(s)
        if self.toast is not None:
            header(fb, self.toast[0])
            text(fb, self.toast[1], 0, LINE)
        else:
            _top(ui.gfx, fb, s, rows[0])
        _board(ui.gfx, fb, rows)
        self._bottom(ui, fb, s)

    def _bottom(self, ui, fb, s):
        # row 6: the round's notes, or the menu's hint; row 7: the question
        # (ui.t42.round.opening: one probe a state)
        if self.note is not None:
            text(fb, self.note, 0, 6 * LINE)
        elif not ui.menu_seen:
            text(fb, words.k("board.hint"), 0, 6 * LINE)
        if not s.over:
            text(fb, opening(ui.app), 0, 7 * LINE)


def _top(gfx, fb, s, title):
    # the title bar (round, the watch's space), the names and the flamingo
    header(fb, title, False)
    gfx.icon(fb, gfx.ICON_WATCH, 28, 0, 0)
    text(fb, words.space(t42.SPACES[s.watch]), 38, 0, 0)
    title_done(fb)
    if not _names.paste(fb, 1, s.flamingo):
        text(fb, NAMES[0], 16, LINE)
        text(fb, NAMES[1], 72, LINE)
        if s.flamingo == 0 or s.flamingo == 1:
            fb.blit(gfx.ICONS[gfx.ICON_FLAMINGO], 46 + 56 * s.flamingo, LINE, 0)
        _names.keep(fb, 1, s.flamingo)


def _board(gfx, fb, rows):
    # the players' rows under the icons, then the piles and the supply
    if not _column:
        _column.append(gfx.column((gfx.ICON_STAR, gfx.ICON_TART, gfx.ICON_PILE)))
        _column.append(gfx.ICONS[gfx.ICON_HOURGLASS])
    fb.blit(_column[0], 2, 2 * LINE, 0)
    fb.text(rows[1], 16, 2 * LINE, 1)
    if rows[2]:
        _teacups(gfx, fb, rows[2])
    fb.text(rows[3], 16, 3 * LINE, 1)
    fb.blit(_column[1], 38, 3 * LINE, 0)
    fb.blit(_column[1], 94, 3 * LINE, 0)
    fb.text(rows[4], 48, 3 * LINE, 1)
    fb.text(rows[5], 16, 4 * LINE, 1)
    # band 5 changes only when a pile or the supply does (a buy, a
    # reshuffle's rabbit): kept whole, keyed by its texts (rows[6]); its
    # labels and the rabbit never change (kept by themselves)
    if not _piles.paste(fb, 5, rows[6]):
        if not _labels.paste(fb, 5, 0):
            _pile_labels(gfx, fb)
            _labels.keep(fb, 5, 0)
        _pile_counts(fb, rows[6])
        text(fb, rows[7], 5 * PILE_STEP + 11, 5 * LINE)
        _piles.keep(fb, 5, rows[6])


def _pile_labels(gfx, fb):
    # score-board piles: inverse value labels, the rabbit icon
    v = 0
    while v < 5:
        fb.fill_rect(v * PILE_STEP, 5 * LINE, 7, LINE, 1)
        text(fb, b"%d" % (v + 4), v * PILE_STEP + 1, 5 * LINE, 0)
        v += 1
    fb.blit(gfx.ICONS[gfx.ICON_RABBIT], 5 * PILE_STEP + 2, 5 * LINE, 0)


def _pile_counts(fb, counts):
    # the cards left in each pile, right of its label
    i = 0
    while i < 5:
        text(fb, counts[i], i * PILE_STEP + 8, 5 * LINE)
        i += 1


def _teacups(gfx, fb, cups):
    i = 0
    while i < len(cups):
        fb.blit(gfx.ICONS[gfx.ICON_TEACUP], cups[i], 2 * LINE, 0)
        fb.text(cups[i + 1], cups[i] + 9, 2 * LINE, 1)
        text(fb, cups[i + 2], cups[i] + 9 + 8 * len(cups[i + 1]) + 1, 2 * LINE)
        i += 3


def final_screen(ui):
    """The final scoring (ui.t42.end, opened for it)."""
    s = ui.open("t42.end").final_screen(ui, _game_menu, long_back)
    s.back_does = "does.menu"  # (its BACK: the game menu, as a hold says)
    return s


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
        ui.push(Message(words.t("journal.title"), wrap(notice)))


# -- undo / redo -----------------------------------------------------------
def long_back(ui):
    """LONG BACK (the status board, the final scoring): the undo. Where it
    is the last stage of BACK's own hold (the 2-key board: ui.hold), the
    screen asks first, naming the line it would undo."""
    hold = ui.app.hold
    g = ui.app.game
    if hold is not None and g.can_undo():
        i = len(g.actions) - 1
        hold.ask(ui, action_label(g.actions[i], round_number(g, i)), undo)
    else:
        undo(ui)


def undo(ui):
    """Undo the last committed line and say what on the status board, and
    how to take it back (the redo's keys, on row 6 until the next key)."""
    app = ui.app
    g = app.game
    if not g.can_undo():
        show_game(ui, None, (words.t("undo.none"), ""))
        return
    i = len(g.actions) - 1
    label = action_label(g.actions[i], round_number(g, i))
    app.undo()
    show_game(ui, None, (words.t("undo.done"), label))
    top = ui.top()
    if isinstance(top, Status):
        top.note = words.k("undo.redo")


def redo(ui):
    """Redo the last undone line (the final scoring if it ends the game)."""
    g = ui.app.game
    if not g.can_redo():
        toast = (words.t("redo.none"), "")
    else:
        try:
            ui.app.redo()
            i = len(g.actions) - 1
            toast = (words.t("redo.done"), action_label(g.actions[i], round_number(g, i)))
        except t42.Refused as exc:
            toast = (words.t("redo.refused"), str(exc))
    show_game(ui, None, toast)


# -- the game menu ------------------------------------------------------------
MENU = (
    (words.t("menu.history"), "history"),
    (words.t("menu.score"), "score"),
    (words.t("menu.legend"), "legend"),
    (words.t("menu.adjust"), "adjust"),
    (words.t("menu.undo"), "undo"),
    (words.t("menu.redo"), "redo"),
    (words.t("menu.home"), "home"),
)


def game_menu(ui, sel):
    return Menu(words.t("menu.title"), MENU, _menu_pick, sel=sel)  # never changed: no copy


def _game_menu(ui):
    ui.push(game_menu(ui, 0))


def _menu_pick(ui, what):
    if what == "history":
        ui.open("t42.adjust")  # (the history's imports: its adjustments in adjust's words)
        ui.push(ui.open("t42.history").history(ui.app.game))
    elif what == "score":
        end = ui.open("t42.end")
        ui.push(Lines(words.t("score.now"), end.score_lines(ui.app.game.state)))
    elif what == "legend":
        ui.push(ui.open("t42.legend").Legend())
    elif what == "adjust":
        ui.push(ui.open("t42.adjust").Adjust(ui.app))
    elif what == "undo":
        undo(ui)
    elif what == "redo":
        redo(ui)
    elif what == "home":
        ui.app.home()
