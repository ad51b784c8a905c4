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

from teatally import t42, words
from teatally.buttons import E_LONG, E_PRESS, K_BACK, K_DOWN, K_OK, K_UP
from teatally.ui import LINE, Menu, Message, Screen, Stamp, header, keyof, kind, text, wrap

NAMES = (words.player(0), words.player(1))


def action_label(action, n):
    """A journal line in a few words: "R12 Blue queen" (the winner and the
    card that won; "R12 tie: queen" on a tie), "R12 adjusted" for an
    adjustment."""
    if "adjust" in action:
        return words.f("hist.adjust", n)
    return round_label(action.get("blue"), action.get("pink"), n)


def round_label(b, p, n):
    """Round n's label from the cards blue and pink revealed (names)."""
    vb = t42.VALUE.get(b, 0) - t42.VALUE.get(p, 0)
    if vb == 0:
        return words.f("hist.tie", n, _card_word(b))
    if vb > 0:
        return words.f("hist.won", n, NAMES[0], _card_word(b))
    return words.f("hist.won", n, NAMES[1], _card_word(p))


def _card_word(c):
    return words.card(c) if c in t42.VALUE else "?"


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
# characters of the 8x8 font, 56 px, apart), the numbers are formatted to
# bytes (see ui.py) once per game state, into one list kept for the
# purpose, and the icons in front of the rows are one image. The drawing is
# split into short functions so that each frame fits the C stack (see ui.py).
#
# Rows: 0 the round and the watch hand; 1 the names and the flamingo;
# 2 stars (and teacups); 3 tarts and hourglasses; 4 cards in the draw
# piles; 5 the score-board piles and the rabbits; 6 a hint (until the game
# menu has been opened once) or the notes of the round before; 7 the next
# round's first question with the answer OK gives (ui_t42_round.opening).
PILE_STEP = 20  # px from one score-board pile to the next
_column = []  # the icons in front of the rows (gfx.column), made once
_names = Stamp()  # the players' names and the flamingo (band 1)
_piles = Stamp()  # the piles' value labels and the rabbit (band 5)
# The board's text for the state _shown[0] (see board_rows): filled in
# place, no new list or tuple per state.
_ROWS = [None] * 8
_shown = [None]
_OPENING = [None, None]  # the state and the board's last line for it (Status.prepare)


def board_rows(s):
    """The status board's text for state s: [title, stars track, teacups
    (x, count, x, count: the players who have some), tarts, hourglasses,
    draw piles, pile counts, rabbits]. One list, refilled when s is another
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
        rows[6] = _pile_texts(s.piles)
        rows[7] = b"%d" % s.supply_rabbits
        _shown[0] = s
    return rows


def _pile_texts(piles):
    # the cards left in each pile, as text, one list a state
    out = []
    i = 0
    while i < len(piles):
        out.append(b"%d" % piles[i])
        i += 1
    return out


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
    """Both players' boards, the watch, the piles and the supply at a glance,
    and the next round's first question at the bottom.

    OK: that answer (the likeliest card, selected); UP/DOWN: the question
    with the next card selected (the round has begun); BACK: game menu;
    LONG BACK: undo; LONG OK: redo."""

    def __init__(self, game=None):
        self.game = game  # the t42.Game shown (for needs)
        self.toast = None  # (title, line) shown until the next key
        self.note = None  # a line for row 6 until the next key (after a round)

    @property
    def needs(self):
        # The board's question and OK come from the round's module. The final
        # scoring comes on LONG OK when the round redone ends the game. A
        # round played that ends it shows its notices first, and the notice
        # needs the final scoring (loaded while it is read, when the round's
        # module is no longer needed): so the score table is not kept loaded
        # all through the last rounds, when the heap is fullest.
        g = self.game
        if g is not None and (g.state.over or (g.can_redo() and may_end(g.state))):
            return _ROUND_END_NEEDS
        return _ROUND_NEEDS

    def key(self, ui, ev):
        if self.toast is not None or self.note is not None:
            self.toast = self.note = None
            ui.dirty = True
        k = keyof(ev)
        if kind(ev) == E_PRESS and (k == K_OK or k == K_UP or k == K_DOWN):
            if ui.app.game.state.over:
                show_game(ui, None)
            else:
                from teatally import ui_t42_round

                ui_t42_round.start(ui, ev)  # the question, this key on it
        elif ev == (E_PRESS | K_BACK):
            ui.menu_seen = True
            ui.push(game_menu(ui, 0))
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
        self._bottom(ui, fb, s)

    def _bottom(self, ui, fb, s):
        # row 6: the round's notes, or the menu's hint; row 7: the question,
        # once found (prepare: a probe, between presses)
        if self.note is not None:
            text(fb, self.note, 0, 6 * LINE)
        elif not ui.menu_seen:
            text(fb, words.t("board.hint"), 0, 6 * LINE)
        if not s.over and _OPENING[0] is s:
            text(fb, _OPENING[1], 0, 7 * LINE)

    def prepare(self, app):
        """Idle work (app.App): the next round's first question for the
        board's last line (ui_t42_round.opening: a probe, not a press's
        work). The keys do not wait for it: OK, UP and DOWN act on that
        question whether it is shown yet or not. -> True if it found it."""
        s = app.game.state if app.game is not None else None
        if s is None or s.over or _OPENING[0] is s:
            return False
        from teatally import ui_t42_round

        _OPENING[1] = ui_t42_round.opening(app)
        _OPENING[0] = s
        app.ui.dirty = True
        return True


def _top(gfx, fb, s, title):
    # the title bar (round, the watch's space), the names and the flamingo
    header(fb, title)
    gfx.icon(fb, gfx.ICON_WATCH, 28, 0, 0)
    text(fb, words.space(t42.SPACES[s.watch]), 38, 0, 0)
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
    if not _piles.paste(fb, 5, 0):
        _pile_labels(gfx, fb)
        _piles.keep(fb, 5, 0)
    _pile_counts(fb, rows[6])
    text(fb, rows[7], 5 * PILE_STEP + 11, 5 * LINE)


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
        ui.push(Message(words.t("journal.title"), wrap(notice)))


# -- undo / redo -----------------------------------------------------------
def do_undo(ui):
    """Undo the last committed line; returns (title, line) saying what."""
    app = ui.app
    g = app.game
    if not g.can_undo():
        return (words.t("undo.none"), "")
    i = len(g.actions) - 1
    label = action_label(g.actions[i], round_number(g, i))
    app.undo()
    return (words.t("undo.done"), label)


def do_redo(ui):
    g = ui.app.game
    if not g.can_redo():
        return (words.t("redo.none"), "")
    refused = _redo(ui.app)
    if refused is not None:
        return (words.t("redo.refused"), refused)
    i = len(g.actions) - 1
    return (words.t("redo.done"), action_label(g.actions[i], round_number(g, i)))


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
    (words.t("menu.history"), "history"),
    (words.t("menu.score"), "score"),
    (words.t("menu.legend"), "legend"),
    (words.t("menu.adjust"), "adjust"),
    (words.t("menu.undo"), "undo"),
    (words.t("menu.redo"), "redo"),
    (words.t("menu.home"), "home"),
)


# what its entries open (the home menu: ui_misc)
MENU_NEEDS = ("ui_t42_more", "ui_t42_end", "ui_misc")


def game_menu(ui, sel):
    m = Menu(words.t("menu.title"), MENU, _menu_pick, sel=sel)  # never changed: no copy
    m.needs = MENU_NEEDS  # type: ignore[attr-defined]  # read by app.App.wanted, any screen may have it
    return m


def _menu_pick(ui, what):
    if what == "history":
        from teatally import ui_t42_more

        ui.push(ui_t42_more.history(ui.app.game))
    elif what == "score":
        _score_now(ui)
    elif what == "legend":
        ui.push(Legend())
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

    ui.push(ui_t42_end.Lines(words.t("score.now"), ui_t42_end.score_lines(ui.app.game.state)))


# -- the board's legend ---------------------------------------------------------
# (icon, words) for each symbol of the status board
_LEGEND = (
    ("ICON_STAR", "legend.stars"),
    ("ICON_TEACUP", "legend.teacups"),
    ("ICON_TART", "legend.tarts"),
    ("ICON_HOURGLASS", "legend.hourglasses"),
    ("ICON_PILE", "legend.draw"),
    ("ICON_FLAMINGO", "legend.flamingo"),
    ("ICON_WATCH", "legend.watch"),
    (None, "legend.piles"),
    ("ICON_RABBIT", "legend.rabbits"),
)


class Legend(Screen):
    """What each symbol of the status board stands for; UP/DOWN scroll,
    OK or BACK go back."""

    title = ""

    def __init__(self):
        self.title = words.t("legend.title")
        self.top = 0

    def key(self, ui, ev):
        k = keyof(ev)
        if k == K_DOWN and self.top + 7 < len(_LEGEND):
            self.top += 1
        elif k == K_UP and self.top > 0:
            self.top -= 1
        elif ev == (E_PRESS | K_OK) or ev == (E_PRESS | K_BACK):
            ui.pop()
            return
        else:
            return
        ui.dirty = True

    def draw(self, ui, fb):
        header(fb, self.title)
        i = self.top
        while i < len(_LEGEND) and i < self.top + 7:
            _legend_row(ui.gfx, fb, _LEGEND[i], (i - self.top + 1) * LINE)
            i += 1


def _legend_row(gfx, fb, row, y):
    if row[0] is None:
        fb.fill_rect(0, y, 7, LINE, 1)
        text(fb, b"4", 1, y, 0)
    else:
        gfx.icon(fb, getattr(gfx, row[0]), 0, y)
    text(fb, words.t(row[1]), 11, y)
