"""The game menu's Tea for 2 screens: the history of the journal lines and
manual adjustment (T42-INPUT-2). A rare module (ui.core.RARE): opened by
the game menu, released when its screens close. Rule IDs refer to
seeds/tea-for-2.md."""

from teatally import words
from teatally.rules import t42
from teatally.ui.core import Lines, Menu, Message, Picker, wrap
from teatally.ui.t42.words import NAMES, card_word, round_label


def action_hint(action):
    """The history's bottom line for a journal line: "beat pink guards"
    (a round: the loser and their card), "Blue tarts +2" (an adjustment)."""
    if "adjust" in action:
        return adjust_hint(action["adjust"])
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
        return words.f("hist.beat", words.t("who.pink"), card_word(p))
    return words.f("hist.beat", words.t("who.blue"), card_word(b))


def adjust_hint(adj):
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
        return words.f("hist.adjusted", n, adjust_hint(action["adjust"]))
    b = action.get("blue")
    p = action.get("pink")
    vb = t42.VALUE.get(b, 0)
    vp = t42.VALUE.get(p, 0)
    if vb == vp:
        out = words.f("say.tie", n, card_word(b), card_word(p))
        w = -1
    else:
        w = 0 if vb > vp else 1
        out = words.f("say.beat", n, NAMES[w], card_word(b if w == 0 else p), words.t("who." + t42.PLAYERS[1 - w]),
                      card_word(p if w == 0 else b))
    who = NAMES[w] if w >= 0 else words.t("say.winner")
    foe = NAMES[1 - w] if w >= 0 else words.t("say.loser")
    if "effect" in action:
        out += "; " + _effect(b if w == 0 else p, action["effect"], who, foe)
    elif "buy" in action:
        v = action["buy"]
        out += "; " + words.f("say.buy", who, v, card_word(t42.PILE_CARD.get(v)))
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
        return words.f("say.effect", who, card_word(card), said)
    return words.f("say.effect", who, card_word(card), words.t("effect." + card) if card in t42.VALUE else "")


def _params(params, who, foe, own):
    # what an effect's or a space's answers say: a pile, a card, cards,
    # the flamingo or tarts, a space, and what came of it ("then")
    parts = []
    stars = params.get("stars")
    tail = words.f("say.stars", words.n("n.stars", stars)) if isinstance(stars, int) else ""
    if "pile" in params:
        parts.append(words.f("say.pile", params["pile"]) + tail)
    elif "card" in params:
        parts.append(words.f("say.own" if own else "say.card", foe, card_word(params["card"])) + tail)
    elif isinstance(params.get("cards"), list):
        parts.append(words.f("say.cards", ", ".join([card_word(c) for c in params["cards"]])) + tail)
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
    rows = Rows(game)
    return Menu(words.t("hist.title"), rows, rows.detail, sel=len(rows) - 1, hint=rows.hint)


def _leave(ui, i):
    ui.pop()


class Rows:
    """The history's rows as its Menu reads them: len(rows), and rows[i] =
    (label, i) for journal line i, e.g. ("R12 Blue queen", 14).

    Only the rows drawn are made, when first drawn, from the
    lines' tags (t42.Actions.tags: the cards, or an adjustment) without
    decoding the lines (every row of a 60-round game at once: ~27 ms on
    the Pico)."""

    def __init__(self, game):
        self.acts = game.actions
        self.size = len(self.acts)
        self.made = [None] * 8  # row i at i % 8: the menu shows 7 rows at most

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
        return adjust_hint(a["adjust"]) if "adjust" in a else _round_hint(a)

    def detail(self, ui, i):
        # the line in sentences (describe), titled with its label
        ui.push(Lines(self[i][0], wrap(describe(self.acts[i], _round_of(self.acts.tags, i)))))


def _label(tags, i):
    # ui.t42.words.action_label's words for line i, from its tag
    # (t42.Actions), without decoding the line
    n = _round_of(tags, i)
    if tags[i] == t42.TAG_ADJUSTS:
        return words.f("hist.adjust", n)
    return round_label(_CARDS[tags[i] >> 4], _CARDS[tags[i] & 15], n)


def _round_of(tags, i):
    # the round of line i: the rounds up to it (an adjustment keeps the one before)
    return i + 1 - tags.count(_ADJUSTS, 0, i + 1)


# a tag's card (its index in t42.CARDS, more for none) -> its name (None: none)
_CARDS = t42.CARDS + (None,) * (16 - len(t42.CARDS))
_ADJUSTS = bytes((t42.TAG_ADJUSTS,))  # an adjustment's tag


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
            # (the keypad's keys, issue 31: 1 Blue, 2 Pink; the spaces 1-5 as in a round)
            ui.push(_menu(ui)(title, items, lambda ui, v: _adjust(ui, {"flamingo": v}), sel=s.flamingo, keys=[2, 4]))
        elif what == "watch":
            items = [(words.space(sp), sp) for sp in t42.SPACES]
            keys = [2 << i for i in range(len(items))]
            title = words.t("adj.watch.title")
            ui.push(_menu(ui)(title, items, lambda ui, v: _adjust(ui, {"watch": v}), sel=s.watch, keys=keys))
        else:
            p, f = what
            cur = getattr(s.players[p], f)
            ui.push(
                _picker(ui)(
                    words.f("adj.picker", NAMES[p], words.t("field." + f)),
                    -cur,
                    adjust_most(s, f, cur),
                    0,
                    lambda ui, v: _adjust(ui, {t42.PLAYERS[p]: {f: v}}) if v else ui.pop(),
                    describe=lambda v: [words.f("adj.now", cur), words.f("adj.then", cur + v)],
                )
            )


def _menu(ui):
    # the menu that takes keys (a keys list) on the keypad board (ui.keypad)
    if ui.app.keys.layout == "keypad":
        from teatally.ui import keypad

        return keypad.KeyMenu
    return _keyless_menu


def _keyless_menu(title, items, pick, sel=0, keys=None):
    return Menu(title, items, pick, sel=sel)


def _picker(ui):
    # the number picker that takes digits on the keypad board
    if ui.app.keys.layout == "keypad":
        from teatally.ui import keypad

        return keypad.KeyPicker
    return Picker


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
    ui.app.show_game(None, (words.t("adj.done"), action_hint(action)))
