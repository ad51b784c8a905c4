# The game menu's Tea for 2 screens: the history of the journal lines and
# manual adjustment (T42-INPUT-2).
#
# Loaded only while the game menu is open: it names this module in its
# `needs` (ui_t42), so the main loop loads it between key presses, before
# the player can pick an entry. Rule IDs refer to seeds/tea-for-2.md.

from teatally import t42, words
from teatally import words_more  # noqa: F401  (their words: loaded with this module, app.App.wanted)
from teatally.ui import Menu, Message, Picker, wrap
from teatally.ui_t42 import NAMES, after_undo, final_screen, round_label


def action_hint(action):
    """The history's bottom line for a journal line: "beat pink guards"
    (a round: the loser and their card), "Blue tarts +2" (an adjustment)."""
    if "adjust" in action:
        return _adjust_hint(action["adjust"])
    return _round_hint(action)


def _round_hint(action):
    # a round line's hint: who the winner beat, or a tie
    b = action.get("blue")
    p = action.get("pink")
    vb = t42.VALUE.get(b, 0)
    vp = t42.VALUE.get(p, 0)
    if vb == vp:
        return words.t("hist.tied")
    if vb > vp:
        return words.f("hist.beat", words.t("who.pink"), _card(p))
    return words.f("hist.beat", words.t("who.blue"), _card(b))


def _card(c):
    return words.card(c) if c in t42.VALUE else "?"


def _adjust_hint(adj):
    # an adjustment in words: "Blue tarts +2, hand on copy"
    parts = []
    for k in ("blue", "pink"):
        d = adj.get(k)
        if isinstance(d, dict):
            for f in d:
                parts.append(words.f("adj.field", NAMES[t42.PLAYERS.index(k)], words.t("field." + f), "%+d" % d[f]))
    if "flamingo" in adj:
        parts.append(words.f("adj.flamingo", _who(adj["flamingo"])))
    if "watch" in adj:
        w = adj["watch"]
        parts.append(words.f("adj.watch", words.space(w) if w in t42.SPACES else str(w)))
    return ", ".join(parts)


def _who(name):
    return NAMES[t42.PLAYERS.index(name)] if name in t42.PLAYERS else str(name)


def describe(action, n):
    """Journal line `action` (round n) in sentences, e.g. "R12 Blue queen
    beat pink guards; Blue destroyed the top of pile 8 (2 stars)." Made
    when the history's line is opened (or ahead, between presses)."""
    if "adjust" in action:
        return words.f("hist.adjusted", n, _adjust_hint(action["adjust"]))
    b = action.get("blue")
    p = action.get("pink")
    vb = t42.VALUE.get(b, 0)
    vp = t42.VALUE.get(p, 0)
    if vb == vp:
        out = words.f("say.tie", n, _card(b), _card(p))
        w = -1
    else:
        w = 0 if vb > vp else 1
        out = words.f("say.beat", n, NAMES[w], _card(b if w == 0 else p), words.t("who." + t42.PLAYERS[1 - w]),
                      _card(p if w == 0 else b))
    who = NAMES[w] if w >= 0 else words.t("say.winner")
    foe = NAMES[1 - w] if w >= 0 else words.t("say.loser")
    if "effect" in action:
        out += "; " + _effect(b if w == 0 else p, action["effect"], who, foe)
    elif "buy" in action:
        v = action["buy"]
        out += "; " + words.f("say.buy", who, v, _card(t42.PILE_CARD.get(v)))
    else:
        out += "; " + words.f("say.none", who)
    h = action.get("hourglasses", 0)
    if h:
        out += "; " + words.f("say.hourglasses", who, words.n("n.hourglasses", h))
    if isinstance(action.get("watch"), dict) and action["watch"]:
        out += "; " + words.f("say.watch", _params(action["watch"], who, foe, True))
    return out + "."


def _effect(card, params, who, foe):
    # a card's effect in words, from its card and what the players told
    if not isinstance(params, dict):
        params = {}
    said = _params(params, who, foe, False)
    if said:
        return words.f("say.effect", who, _card(card), said)
    return words.f("say.effect", who, _card(card), words.t("effect." + card) if card in t42.VALUE else "")


def _params(params, who, foe, own):
    # what an effect's or a space's answers say: a pile, a card, cards,
    # the flamingo or tarts, a space, and what came of it ("then")
    parts = []
    stars = params.get("stars")
    tail = words.f("say.stars", words.n("n.stars", stars)) if isinstance(stars, int) else ""
    if "pile" in params:
        parts.append(words.f("say.pile", params["pile"]) + tail)
    elif "card" in params:
        parts.append(words.f("say.own" if own else "say.card", foe, _card(params["card"])) + tail)
    elif isinstance(params.get("cards"), list):
        parts.append(words.f("say.cards", ", ".join([_card(c) for c in params["cards"]])) + tail)
    if params.get("take") == "flamingo":
        parts.append(words.t("say.take.flamingo"))
    elif params.get("take") == "tarts":
        parts.append(words.t("say.take.tarts"))
    if params.get("space") in t42.SPACES:
        parts.append(words.f("say.space", words.space(params["space"])))
    if isinstance(params.get("then"), dict):
        more = _params(params["then"], who, foe, own)
        if more:
            parts.append(words.f("say.then", more))
    return ", ".join(parts)


# -- history --------------------------------------------------------------------
def history(game):
    """Every journal line in words, newest selected; OK shows the line itself."""
    if not len(game.actions):
        return Menu(words.t("hist.title"), [(words.t("hist.empty"), -1)], _leave)
    _ROWS.open(game)
    m = _HISTORY
    m.sel = len(_ROWS) - 1  # (the first draw scrolls to it)
    m.top = 0
    return m


def _leave(ui, i):
    ui.pop()


def _close(ui):
    # BACK: the rows made and the game's lines are let go
    _ROWS.open(None)
    ui.pop()


class Rows:
    """The history's rows as its Menu reads them: len(rows), and rows[i] =
    (label, i) for journal line i, e.g. (b"12 cater/alice", 14).

    Opening the history of a 60-round game made every row, ~27 ms on the
    Pico against 6 ms for a key press: a row decoded its line (the game
    keeps them packed, t42.Actions) and made its label, a new str. Now only
    the rows drawn are made, when first drawn, as bytes, from the lines'
    tags (t42.Actions.tags: the cards, or an adjustment) without decoding
    the lines."""

    __slots__ = ("acts", "size", "made", "ahead")

    def __init__(self):
        self.made = [None] * 8  # row i at i % 8: the menu shows 7 rows at most
        self.open(None)

    def open(self, game):
        # the rows of game's lines (None: none)
        self.acts = _NO_LINES if game is None else game.actions
        self.size = len(self.acts)  # (len(rows): no call a read)
        self.ahead = None  # (i, line i's detail screen), made by prepare
        i = 0
        while i < 8:
            self.made[i] = None
            i += 1

    def __len__(self):
        return self.size

    def __getitem__(self, i):
        # the menu reads a row's label and value several times a draw: kept
        r = self.made[i & 7]
        if r is None or r[1] != i:
            if not 0 <= i < self.size:
                raise IndexError  # (also ends a `for row in rows`)
            r = self.made[i & 7] = (_label(self.acts.tags, i), i)
        return r

    def hint(self, i):
        a = self.acts[i]
        return _adjust_hint(a["adjust"]) if "adjust" in a else _round_hint(a)

    def detail(self, ui, i):
        d = self.ahead
        if d is None or d[0] != i:
            d = self.ahead = (i, _detail(self[i][0], self.acts[i], _round_of(self.acts.tags, i)))
        d[1].top = 0  # (shown before: from its first line again)
        ui.push(d[1])

    def prepare(self, i):
        # line i's detail, made ahead -> True if it made it
        if self.ahead is not None and self.ahead[0] == i:
            return False
        self.ahead = None  # (its heap free for the next)
        self.ahead = (i, _detail(self[i][0], self.acts[i], _round_of(self.acts.tags, i)))
        return True


def _prepare(app):
    # the history's idle work (app.App): the selected line's detail made
    # ahead, so that OK only shows it (a long line's JSON text, wrapped, is
    # more than a key press's work). Out of memory (app._made_ahead): OK
    # makes it.
    return _ROWS.prepare(_HISTORY.sel)


def _label(tags, i):
    # ui_t42.action_label's words for line i, from its tag (t42.Actions)
    # without decoding the line. The round: those up to line i (an
    # adjustment keeps the one before).
    n = _round_of(tags, i)
    if tags[i] == t42.TAG_ADJUSTS:
        return words.f("hist.adjust", n)
    return round_label(_CARDS[tags[i] >> 4], _CARDS[tags[i] & 15], n)


def _round_of(tags, i):
    return i + 1 - tags.count(_ADJUSTS, 0, i + 1)


def _detail(title, a, n):
    # the line in words (sentences, wrapped)
    from teatally.ui_t42_end import Lines  # loaded with the game menu (its needs)

    return Lines(title, wrap(describe(a, n)))


# a tag's card (its index in t42.CARDS, more for none) -> its name (None: none)
_CARDS = t42.CARDS + (None,) * (16 - len(t42.CARDS))
_ADJUSTS = bytes((t42.TAG_ADJUSTS,))  # an adjustment's tag

# The history screen, made with the module (between key presses, with the
# game menu that needs it): opening it makes no objects but its rows. A
# Menu and the Rows with their attributes are several blocks of heap, and
# in a fragmented heap each such allocation searches it (see ui.py). One
# screen does: only the game menu opens the history, and nothing on top of
# the history leads back to the game menu but BACK.
_NO_LINES = t42.Actions()
_ROWS = Rows()
_HISTORY = Menu(words.t("hist.title"), _ROWS, _ROWS.detail, _close, hint=_ROWS.hint)
_HISTORY.prepare = _prepare  # type: ignore[attr-defined]  # app.App idle work


# -- manual adjustment (T42-INPUT-2) ---------------------------------------------------
FIELDS = ("stars", "tarts", "hourglasses")


class Adjust(Menu):
    """Pick what to correct; the engine judges every adjustment."""

    def __init__(self, app):
        Menu.__init__(self, words.t("adj.title"), [], self._pick)
        self.refresh(app)

    def refresh(self, app):
        s = app.game.state
        items = []
        for p in (0, 1):
            me = s.players[p]
            for f in FIELDS:
                items.append((words.f("adj.item", NAMES[p], words.t("field." + f), getattr(me, f)), (p, f)))
        items.append((words.f("adj.flamingo.item", NAMES[s.flamingo]), "flamingo"))
        items.append((words.f("adj.watch.item", words.space(t42.SPACES[s.watch])), "watch"))
        self.items = items

    def shown(self, ui):
        self.refresh(ui.app)

    def _pick(self, ui, what):
        s = ui.app.game.state
        if what == "flamingo":
            items = [(NAMES[p], t42.PLAYERS[p]) for p in (0, 1)]
            title = words.t("adj.flamingo.title")
            ui.push(Menu(title, items, lambda ui, v: _adjust(ui, {"flamingo": v}), sel=s.flamingo))
        elif what == "watch":
            items = [(words.space(sp), sp) for sp in t42.SPACES]
            ui.push(Menu(words.t("adj.watch.title"), items, lambda ui, v: _adjust(ui, {"watch": v}), sel=s.watch))
        else:
            p, f = what
            cur = getattr(s.players[p], f)
            ui.push(
                Picker(
                    words.f("adj.picker", NAMES[p], words.t("field." + f)),
                    -cur,
                    adjust_most(s, f, cur),
                    0,
                    lambda ui, v: _adjust(ui, {t42.PLAYERS[p]: {f: v}}) if v else ui.pop(),
                    describe=lambda v: [words.f("adj.now", cur), words.f("adj.then", cur + v)],
                )
            )


def adjust_most(s, f, cur):
    """The most a player holding cur of f ("stars", "tarts", "hourglasses")
    can be given: what the supply holds; for stars, up to t42.MAX_STARS
    (T42-INPUT-2, T42-INPUT-4). The least is -cur: all they hold. The
    picker offers exactly that range, so the engine takes every choice."""
    if f == "stars":
        return t42.MAX_STARS - cur if cur < t42.MAX_STARS else 0
    return getattr(s, "supply_" + f)


def _adjust(ui, adj):
    action = {"adjust": adj}
    try:
        ui.app.commit(action)
    except t42.Refused as exc:
        ui.replace(Message(words.t("refused.title"), wrap(str(exc))))
        return
    toast = (words.t("adj.done"), action_hint(action))
    if ui.app.game.state.over:
        ui.reset(final_screen(ui))
    else:
        after_undo(ui, toast)
