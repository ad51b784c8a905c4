# The Tea for 2 screens a game is played on: the status board, the game
# menu, undo and redo. They stay loaded the whole game, so they are kept
# small; the rest comes in its own modules, loaded between key presses
# (app.App.idle_work) before a key can need it:
#   ui_t42_round  the guided round (the status board's OK)
#   ui_t42_more   history and manual adjustment (the game menu)
#   ui_t42_end    the score table, the final scoring screen, Lines (the game
#                 menu; the status board once a round may end the game)
#   ui_t42_new    the new-game setup (the home menu)
# The status board and the game menu name what they need (`needs`).
#
# No rule lives here: what is legal, what a round does and how the game is
# scored all come from teatally.t42 (the engine); these screens only show the
# state and turn key presses into the engine's answers. Rule IDs refer to
# seeds/tea-for-2.md.

from teatally import t42
from teatally.buttons import E_LONG, E_PRESS, K_BACK, K_DOWN, K_OK, K_UP
from teatally import words
from teatally.ui import LINE, Menu, Message, Screen, Stamp, header, keyof, kind, text, wrap

NAMES = ("Blue", "Pink")
# Card names cut to 5 letters so "12 cater/alice" fits a 16-column line.
SHORT = {
    "cat": "cat",
    "rabbit": "rabbt",
    "dormouse": "dorm",
    "guards": "guard",
    "executioner": "exec",
    "knave": "knave",
    "caterpillar": "cater",
    "king": "king",
    "alice": "alice",
    "queen": "queen",
}


def action_label(action, n):
    """A journal line in words: "12 cater/alice" for round n, "adj" for an adjustment."""
    if "adjust" in action:
        return "%d adj" % n
    return "%d %s/%s" % (n, SHORT.get(action.get("blue"), "?"), SHORT.get(action.get("pink"), "?"))


def round_number(game, i):
    """The round number of game.actions[i] (adjustments keep the previous one)."""
    acts = game.actions
    if i == len(acts) - 1:
        return game.state.round  # the rounds played so far
    n = 0
    for k in range(i + 1):
        if "adjust" not in acts[k]:
            n += 1
    return n


# -- the status board ------------------------------------------------------
# The board is drawn after nearly every key press, so it is drawn with few
# calls: both players' numbers share one text row (the two columns are 7
# characters, 56 px, apart), the numbers are formatted to bytes (see
# ui.py) once per game state, into one list kept for the purpose, and the
# icons in front of the rows are one image. The drawing is split into short
# functions so that each frame fits the C stack (see ui.py).
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

    def __init__(self, game=None):
        self.game = game  # the t42.Game shown (for needs)
        self.toast = None  # (title, line) shown until the next key

    @property
    def needs(self):
        # OK starts a round (the round's module). The final scoring comes
        # on LONG OK when the round redone ends the game. A round played
        # that ends it shows its notices first, and the notice needs the
        # final scoring (loaded while it is read, when the round's module
        # is no longer needed): so the score table is not kept loaded all
        # through the last rounds, when the heap is fullest.
        g = self.game
        if g is not None and (g.state.over or (g.can_redo() and may_end(g.state))):
            return _ROUND_END_NEEDS
        return _ROUND_NEEDS

    def key(self, ui, ev):
        if self.toast is not None:
            self.toast = None
            ui.dirty = True
        k = keyof(ev)
        if ev == (E_PRESS | K_OK):
            if ui.app.game.state.over:
                show_game(ui, None)
            else:
                from teatally import ui_t42_round

                ui_t42_round.start(ui)
        elif k in (K_UP, K_DOWN) and kind(ev) == E_PRESS:
            ui.push(game_menu(ui, 0 if k == K_DOWN else len(MENU) - 1))
        elif ev == (E_LONG | K_BACK):
            after_undo(ui, do_undo(ui))
        elif ev == (E_LONG | K_OK):
            after_redo(ui, do_redo(ui))

    def draw(self, ui, fb):
        s = ui.app.game.state
        rows = board_rows(s)
        if self.toast is not None:
            header(fb, self.toast[0])
            text(fb, self.toast[1], 0, LINE)
        else:
            _top(ui.gfx, fb, s, rows[0])
        _board(ui.gfx, fb, rows)


def _top(gfx, fb, s, title):
    # the title bar (round, the watch's space), the names and the flamingo
    header(fb, title)
    gfx.icon(fb, gfx.ICON_WATCH, 40, 0, 0)
    text(fb, words.space(t42.SPACES[s.watch]), 50, 0, 0)
    if not _names.paste(fb, 1, s.flamingo):
        text(fb, words.t("board.blue"), 16, LINE)
        text(fb, words.t("board.pink"), 72, LINE)
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


END_NEEDS = ("ui_t42_end",)
_ROUND_NEEDS = ("ui_t42_round",)
_ROUND_END_NEEDS = ("ui_t42_round", "ui_t42_end")


def may_end(s):
    """Could the next round of state s end the game (T42-END-1..3)? Then the
    final scoring (ui_t42_end) must be loaded before it starts. A round
    plays two chains, the winner's action and the watch space, each ending
    in at most one effect or space (a copy or a cat only passes on; T42-COPY-1):
    so it empties at most 2 pile cards (a buy, rabbit or queen each), and a
    player loses at most 7 cards from the draw pile (own card, guards
    twice), so only a player with at most 7 there can reshuffle, twice only
    with a whole deck of 7 or fewer (each reshuffle takes a rabbit from the
    supply; none left ends the game)."""
    # (in three parts: one frame would not fit the C stack, see ui.py)
    if s.over:
        return True
    if _reshuffles(s) > s.supply_rabbits:
        return True
    return _piles_may_empty(s.piles)


def _reshuffles(s):
    # the most reshuffles the next round can make, one rabbit each
    n = 0
    i = 0
    while i < 2:
        d = s.players[i].draw_count()
        if d <= 7:
            n += 1
            if d + len(s.players[i].discard) <= 7:
                n += 1
        i += 1
    return n


def _piles_may_empty(piles):
    # can 2 pile cards more leave only one pile with cards?
    left = sorted([v for v in piles if v])
    k = len(left) - 1  # the piles still to empty: all but one
    return k <= 0 or sum(left[:k]) <= 2


def final_screen(ui):
    from teatally import ui_t42_end

    return ui_t42_end.final_screen(ui)


def show_final(ui):
    """The last round's notices read: the final scoring (ui_t42_end, loaded
    while they were read: the notice's needs). Here, not in the round's
    module: the notice then holds nothing of that module, which the idle
    work drops before the final scoring is built."""
    show_game(ui, None)


def show_game(ui, notice):
    """Reset the stack to the current game: the status board, or the final
    scoring once the game is over; a journal notice goes on top."""
    game = ui.app.game
    if game is None:
        ui.app.home()
    elif game.state.over:
        ui.reset(final_screen(ui))
    else:
        ui.reset(Status(game))
    if notice:
        ui.push(Message("Journal", wrap(notice)))


# -- undo / redo -----------------------------------------------------------
def do_undo(ui):
    """Undo the last committed line; returns (title, line) saying what."""
    app = ui.app
    g = app.game
    if not g.can_undo():
        return ("Nothing to undo", "")
    i = len(g.actions) - 1
    label = action_label(g.actions[i], round_number(g, i))
    app.undo()
    return ("Undone", label)


def do_redo(ui):
    g = ui.app.game
    if not g.can_redo():
        return ("Nothing to redo", "")
    refused = _redo(ui.app)
    if refused is not None:
        return ("Cannot redo", refused)
    i = len(g.actions) - 1
    return ("Redone", action_label(g.actions[i], round_number(g, i)))


def _redo(app):
    # app.redo() -> None, or why the engine refused it. A function of its
    # own, and the exception takes the argument's name: a frame with an
    # `except ... as` fits the C stack only with one name and no more
    # (MicroPython allocates a bigger one on the heap at every call).
    try:
        app.redo()
    except t42.Refused as app:
        return str(app)
    return None


def after_undo(ui, toast):
    st = Status(ui.app.game)
    st.toast = toast
    ui.reset(st)


def after_redo(ui, toast):
    if ui.app.game.state.over:
        ui.reset(final_screen(ui))
    else:
        after_undo(ui, toast)


# -- the game menu ------------------------------------------------------------
MENU = (
    ("History", "history"),
    ("Score now", "score"),
    ("Adjust", "adjust"),
    ("Undo", "undo"),
    ("Redo", "redo"),
    ("Home", "home"),
)


# what its entries open (the home menu: ui_misc)
MENU_NEEDS = ("ui_t42_more", "ui_t42_end", "ui_misc")


def game_menu(ui, sel):
    m = Menu("Game", MENU, _menu_pick, sel=sel)  # never changed: no copy
    m.needs = MENU_NEEDS  # type: ignore[attr-defined]  # read by app.App.wanted, any screen may have it
    return m


def _menu_pick(ui, what):
    if what == "history":
        from teatally import ui_t42_more

        ui.push(ui_t42_more.history(ui.app.game))
    elif what == "score":
        _score_now(ui)
    elif what == "adjust":
        from teatally import ui_t42_more

        ui.push(ui_t42_more.Adjust(ui.app))
    elif what == "undo":
        after_undo(ui, do_undo(ui))
    elif what == "redo":
        after_redo(ui, do_redo(ui))
    elif what == "home":
        ui.app.home()


def _score_now(ui):
    # (out of _menu_pick: its frame would not fit the C stack, see ui.py)
    from teatally import ui_t42_end

    ui.push(ui_t42_end.Lines("If it ended now", ui_t42_end.score_lines(ui.app.game.state)))
