# The Tea for 2 screens around a round: the status board, the game menu
# (history, score now, adjust, undo, redo), the new-game setup and the final
# scoring. The guided round itself lives in ui_t42_round.py.
#
# No rule lives here: what is legal, what a round does and how the game is
# scored all come from teatally.t42 (the engine); these screens only show the
# state and turn key presses into the engine's answers. Rule IDs refer to
# seeds/tea-for-2.md.

from teatally import t42
from teatally.buttons import E_LONG, E_PRESS, K_BACK, K_DOWN, K_OK, K_UP
from teatally.ui import LINE, ROWS, W, Menu, Message, Picker, Screen, Stamp, header, keyof, kind, text_fit, wrap

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


def objective_name(o):
    # 8 columns in the score table
    if o[:5] == "most:":
        return "M " + SHORT.get(o[5:], o[5:])
    if o == "hourglasses":
        return "hourgl."
    if o == "destroyed":
        return "destroy"
    return o


def action_label(action, n):
    """A journal line in words: "12 cater/alice" for round n, "adj" for an adjustment."""
    if "adjust" in action:
        return "%d adj" % n
    return "%d %s/%s" % (n, SHORT.get(action.get("blue"), "?"), SHORT.get(action.get("pink"), "?"))


def action_hint(action):
    """What the winner did: "P: buy 6 h2", "B: effect", "tie: -" ..."""
    if "adjust" in action:
        adj = action["adjust"]
        parts = []
        for k in ("blue", "pink"):
            d = adj.get(k)
            if isinstance(d, dict):
                for f in d:
                    parts.append("%s %s%+d" % (k[0].upper(), f[:5], d[f]))
        if "flamingo" in adj:
            parts.append("fl " + str(adj["flamingo"]))
        if "watch" in adj:
            parts.append("hand " + str(adj["watch"]))
        return " ".join(parts)
    vb = t42.VALUE.get(action.get("blue"), 0)
    vp = t42.VALUE.get(action.get("pink"), 0)
    who = "B" if vb > vp else "P" if vp > vb else "tie"
    h = action.get("hourglasses", 0)
    # one format, one new string: it is the history's hint, made on every key press
    if "buy" in action and "effect" not in action:
        if h:
            return "%s: buy %s h%d" % (who, action["buy"], h)
        return "%s: buy %s" % (who, action["buy"])
    what = "effect" if "effect" in action else "-"
    if h:
        return "%s: %s h%d" % (who, what, h)
    return "%s: %s" % (who, what)


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
# ui.py) once per game state, and the icons in front of the rows are
# one image.
NAMES_ROW = "%-7s%s" % (NAMES[0].upper(), NAMES[1].upper())
PILE_LABELS = " ".join([str(v) for v in t42.PILES])  # one every 16 px
_column = []  # the icons in front of the rows (gfx.column), made once
_names = Stamp()  # the players' names and the flamingo (band 1)
_piles = Stamp()  # the piles' value labels and the rabbit (band 6)


def board_rows(s):
    """The status board's text for state s: [title, stars track, teacups
    ((x, count), ...), tarts, hourglasses, draw piles, piles + supply]."""
    b = s.players[0]
    p = s.players[1]
    tb = t42.track(b.stars)  # the board shows a track space plus teacups (T42-STAR-1)
    tp = t42.track(p.stars)
    cups = []
    n = t42.teacups(b.stars)
    if n:
        cups.append((16 + 8 * len(b"%d" % tb) + 2, b"%d" % n))
    n = t42.teacups(p.stars)
    if n:
        cups.append((72 + 8 * len(b"%d" % tp) + 2, b"%d" % n))
    pl = s.piles
    return (
        b"R%d" % (s.round + 1),
        b"%-7d%d" % (tb, tp),
        cups,
        b"%-7d%d" % (b.tarts, p.tarts),
        b"%-7d%d" % (b.hourglasses, p.hourglasses),
        b"%-7d%d" % (b.draw_count(), p.draw_count()),
        # pile counts under their labels (16 px apart), the rabbits at x = 96
        b"%-2d%-2d%-2d%-2d%-4d%d" % (pl[0], pl[1], pl[2], pl[3], pl[4], s.supply_rabbits),
    )


class Status(Screen):
    """Both players' boards, the watch, the piles and the supply at a glance.

    OK: play a round; UP/DOWN: game menu; LONG BACK: undo; LONG OK: redo."""

    def __init__(self):
        self.toast = None  # (title, line) shown until the next key
        self._of = None  # the state _rows shows
        self._rows = None

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
        gfx = ui.gfx
        icons = gfx.ICONS
        s = ui.app.game.state
        rows = self._rows
        if rows is None or self._of is not s:
            # a state is never changed in place (T42-INPUT-3): a new round
            # or an undo gives another object
            rows = self._rows = board_rows(s)
            self._of = s
        text = fb.text
        blit = fb.blit
        if self.toast is not None:
            header(fb, self.toast[0])
            text_fit(fb, self.toast[1], 0, LINE)
        else:
            header(fb, rows[0])
            gfx.icon(fb, gfx.ICON_WATCH, 40, 0, 0)
            text(t42.SPACES[s.watch], 50, 0, 0)
            if not _names.paste(fb, 1, s.flamingo):
                text(NAMES_ROW, 16, LINE, 1)
                if s.flamingo == 0 or s.flamingo == 1:
                    blit(icons[gfx.ICON_FLAMINGO], 52 + 56 * s.flamingo, LINE, 0)
                _names.keep(fb, 1, s.flamingo)
        if not _column:
            _column.append(gfx.column((gfx.ICON_STAR, gfx.ICON_TART, gfx.ICON_HOURGLASS, gfx.ICON_PILE)))
        blit(_column[0], 2, 2 * LINE, 0)
        text(rows[1], 16, 2 * LINE, 1)
        for xc, n in rows[2]:
            blit(icons[gfx.ICON_TEACUP], xc, 2 * LINE, 0)
            text(n, xc + 9, 2 * LINE, 1)
        text(rows[3], 16, 3 * LINE, 1)
        text(rows[4], 16, 4 * LINE, 1)
        text(rows[5], 16, 5 * LINE, 1)
        if not _piles.paste(fb, 6, 0):
            # score-board piles: inverse value labels over the cards left
            fr = fb.fill_rect
            fr(0, 6 * LINE, 9, LINE, 1)
            fr(16, 6 * LINE, 9, LINE, 1)
            fr(32, 6 * LINE, 9, LINE, 1)
            fr(48, 6 * LINE, 9, LINE, 1)
            fr(64, 6 * LINE, 9, LINE, 1)
            text(PILE_LABELS, 0, 6 * LINE, 0)
            blit(icons[gfx.ICON_RABBIT], 96, 6 * LINE, 0)
            _piles.keep(fb, 6, 0)
        text(rows[6], 0, 7 * LINE, 1)


def show_game(ui, notice):
    """Reset the stack to the current game: the status board, or the final
    scoring once the game is over; a journal notice goes on top."""
    game = ui.app.game
    if game is None:
        ui.app.home()
    elif game.state.over:
        ui.reset(final_screen(ui))
    else:
        ui.reset(Status())
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
    app = ui.app
    g = app.game
    if not g.can_redo():
        return ("Nothing to redo", "")
    try:
        app.redo()
    except t42.Refused as exc:
        return ("Cannot redo", str(exc))
    i = len(g.actions) - 1
    return ("Redone", action_label(g.actions[i], round_number(g, i)))


def after_undo(ui, toast):
    st = Status()
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


def game_menu(ui, sel):
    return Menu("Game", list(MENU), _menu_pick, sel=sel)


def _menu_pick(ui, what):
    app = ui.app
    if what == "history":
        ui.push(history(app.game))
    elif what == "score":
        ui.push(Lines("If it ended now", score_lines(app.game.state)))
    elif what == "adjust":
        ui.push(Adjust(app))
    elif what == "undo":
        after_undo(ui, do_undo(ui))
    elif what == "redo":
        after_redo(ui, do_redo(ui))
    elif what == "home":
        app.home()


class Lines(Message):
    """Scrolling lines with separate OK and BACK (Message gives both to ok).

    ok(ui) / back(ui) default to pop; long_back(ui), when given, answers LONG BACK."""

    def __init__(self, title, lines, ok=None, back=None, long_back=None):
        Message.__init__(self, title, lines, ok)
        self.back = back
        self.long_back = long_back

    def key(self, ui, ev):
        if ev == (E_PRESS | K_BACK):
            if self.back is not None:
                self.back(ui)
            else:
                ui.pop()
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


# -- scoring ------------------------------------------------------------------
def score_lines(s):
    """The score table as if the game ended now (T42-SCORE-1..8): stars so
    far, each objective (pile, face, blue +x, pink +y; '.' = pile not empty,
    so it does not score), totals and the winner."""
    sc = t42.score(s)
    objs = sc["objectives"]
    lines = ["%-10s%3s%3s" % ("", "B", "P"), "%-10s%3d%3d" % ("stars", s.players[0].stars, s.players[1].stars)]
    for v in t42.PILES:
        name = "%d %s" % (v, objective_name(s.objectives[v]))
        o = objs.get(str(v))
        if o is None:
            lines.append("%-10s%3s%3s" % (name, ".", "."))
        else:
            lines.append("%-10s%3d%3d" % (name, o["blue"], o["pink"]))
    lines.append("%-10s%3d%3d" % ("total", sc["blue"], sc["pink"]))
    w = sc["winner"]
    tie = sc["blue"] == sc["pink"]
    lines.append("%s wins%s" % (w[0].upper() + w[1:], " (flam.)" if tie else ""))
    return lines


def final_screen(ui):
    s = ui.app.game.state
    sc = t42.score(s)
    lines = score_lines(s)
    lines.append("OK: archive game")
    return Lines(
        "Final %d:%d" % (sc["blue"], sc["pink"]),
        lines,
        ok=_archive,
        back=lambda ui: ui.push(game_menu(ui, 0)),
        long_back=lambda ui: after_undo(ui, do_undo(ui)),
    )


def _archive(ui):
    app = ui.app
    app.archive()
    app.home()


# -- history --------------------------------------------------------------------
def history(game):
    """Every journal line in words, newest selected; OK shows the line itself."""
    items = []
    n = 0
    for i in range(len(game.actions)):
        a = game.actions[i]
        if "adjust" not in a:
            n += 1
        items.append((action_label(a, n), i))
    acts = game.actions

    def detail(ui, i):
        from teatally import jsonc

        ui.push(Lines(items[i][0], wrap(action_hint(acts[i])) + wrap(jsonc.dumps(acts[i]))))

    m = Menu("History", items, detail, sel=len(items) - 1, hint=lambda i: action_hint(acts[i]))
    if not items:
        m.hint = None
        m.items = [("(no rounds yet)", -1)]
        m.pick = lambda ui, i: ui.pop()
    return m


# -- manual adjustment (T42-INPUT-2) ---------------------------------------------------
FIELDS = ("stars", "tarts", "hourglasses")


class Adjust(Menu):
    """Pick what to correct; the engine judges every adjustment."""

    def __init__(self, app):
        Menu.__init__(self, "Adjust", [], self._pick)
        self.refresh(app)

    def refresh(self, app):
        s = app.game.state
        items = []
        for p in (0, 1):
            me = s.players[p]
            for f in FIELDS:
                items.append(("%s %s %d" % (NAMES[p], f[:6], getattr(me, f)), (p, f)))
        items.append(("Flamingo " + t42.PLAYERS[s.flamingo], "flamingo"))
        items.append(("Hand " + t42.SPACES[s.watch], "watch"))
        self.items = items

    def shown(self, ui):
        self.refresh(ui.app)

    def _pick(self, ui, what):
        s = ui.app.game.state
        if what == "flamingo":
            items = [(NAMES[p], t42.PLAYERS[p]) for p in (0, 1)]
            ui.push(Menu("Flamingo holder", items, lambda ui, v: _adjust(ui, {"flamingo": v}), sel=s.flamingo))
        elif what == "watch":
            items = [(sp, sp) for sp in t42.SPACES]
            ui.push(Menu("Watch hand on", items, lambda ui, v: _adjust(ui, {"watch": v}), sel=s.watch))
        else:
            p, f = what
            cur = getattr(s.players[p], f)
            span = 99 if f == "stars" else t42.TOTAL_TARTS
            ui.push(
                Picker(
                    "%s %s +/-" % (NAMES[p], f[:6]),
                    -span,
                    span,
                    0,
                    lambda ui, v: _adjust(ui, {t42.PLAYERS[p]: {f: v}}) if v else ui.pop(),
                    describe=lambda v: ["now %d" % cur, "then %d" % (cur + v)],
                )
            )


def _adjust(ui, adj):
    action = {"adjust": adj}
    try:
        ui.app.commit(action)
    except t42.Refused as exc:
        ui.replace(Message("Refused", wrap(str(exc))))
        return
    toast = ("Adjusted", action_hint(action))
    if ui.app.game.state.over:
        ui.reset(final_screen(ui))
    else:
        after_undo(ui, toast)


# -- new game setup ---------------------------------------------------------------
OBJ_LABELS = {
    "hourglasses": "hourglasses",
    "tarts": "tarts",
    "deck": "deck size",
    "destroyed": "destroyed",
}


def objective_label(o):
    if o[:5] == "most:":
        return "most " + o[5:]
    return OBJ_LABELS.get(o, o)


class NewGame:
    """The setup questions in order (T42-SETUP-2..4): flamingo holder, watch
    start, the objective above each pile 4..8, then a summary to confirm.
    BACK steps back one question; BACK at the first leaves."""

    __slots__ = ("answers", "rolled")

    def __init__(self):
        self.answers = []  # flamingo, watch, objective 4 .. objective 8
        self.rolled = [False, False]  # flamingo / watch drawn at random

    def screen(self, ui):
        n = len(self.answers)
        if n == 0:
            items = [("Blue", "blue"), ("Pink", "pink"), ("Random", "random")]
            return Menu("Flamingo holder", items, self.pick, back=self.back, hint=lambda v: "starts with 1 tart")
        if n == 1:
            items = [("Random", "random")] + [(sp, sp) for sp in t42.SPACES]
            return Menu("Watch hand start", items, self.pick, back=self.back)
        if n < 7:
            used = self.answers[2:]
            sel = 0
            while sel < len(t42.OBJECTIVES) - 1 and t42.OBJECTIVES[sel] in used:
                sel += 1
            items = [(objective_label(o), o) for o in t42.OBJECTIVES]
            return Menu("Above pile %d" % (n + 2), items, self.pick, back=self.back, sel=sel)
        lines = [
            "Flamingo %s%s" % (self.answers[0], "*" if self.rolled[0] else ""),
            "Hand %s%s" % (self.answers[1], "*" if self.rolled[1] else ""),
        ]
        for v in t42.PILES:
            lines.append("%d %s" % (v, objective_label(self.answers[v - 2])))
        if self.rolled[0] or self.rolled[1]:
            lines.append("* drawn at random")
        lines.append("OK: start game")
        return Lines("New game?", lines, ok=self.start, back=self.back)

    def pick(self, ui, v):
        n = len(self.answers)
        if v == "random":
            # drawn once, when picked: stepping back and forth keeps the draw
            v = t42.PLAYERS[ui.app.hw.rand(2)] if n == 0 else t42.SPACES[ui.app.hw.rand(5)]
            self.rolled[n] = True
        elif n < 2:
            self.rolled[n] = False
        self.answers.append(v)
        ui.replace(self.screen(ui))

    def back(self, ui):
        if not self.answers:
            ui.pop()
            return
        self.answers.pop()
        ui.replace(self.screen(ui))

    def setup(self):
        a = self.answers
        objs = {}
        for v in t42.PILES:
            objs[str(v)] = a[v - 2]
        return {"game": "tea-for-2", "flamingo": a[0], "watch": a[1], "objectives": objs}

    def start(self, ui):
        ui.app.new_game(self.setup())
        show_game(ui, None)


def new_game(ui):
    """Ask the setup of a new Tea for 2 game (called from the home menu)."""
    ui.push(NewGame().screen(ui))
