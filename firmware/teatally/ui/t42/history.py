"""The game menu's history of the journal lines, and the sentences that tell
a line (describe, also `teatally report`'s). A rare module (ui.core.RARE):
opened by the game menu, released when its screens close. Rule IDs refer
to seeds/tea-for-2.md."""

from teatally import words
from teatally.rules import t42
from teatally.ui.core import Lines, Menu, wrap
from teatally.ui.t42.adjust import adjust_hint
from teatally.ui.t42.words import NAMES, card_word, round_label


def action_hint(action):
    """The history's bottom line for a journal line: "beat Pink guards"
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
        return words.f("hist.beat", NAMES[1], card_word(p))
    return words.f("hist.beat", NAMES[0], card_word(b))


def describe(before, action):
    """Journal line `action`, played on the state `before`, in sentences:
    "Blue's queen beat Pink's guards. Blue's queen: destroyed an alice
    from pile 8 (2 stars). Blue spent 2 hourglasses: the hand on copy;
    copied Pink's cat; moved the hand to stars; gained 2 stars." Every
    step the engine played is said (Told): the card destroyed, the king's
    take, the watch's path through copies, the reshuffles, the end. No
    round number (the history's title and the report's line say it).
    Made when the history's line is opened, and by `teatally report`."""
    if "adjust" in action:
        return words.f("hist.adjusted", adjust_hint(action["adjust"]))
    r = Told(before)
    after = t42.play(r, before, action)
    b = action["blue"]
    p = action["pink"]
    w = after.last[2]
    cards = (b, p) if w == 0 else (p, b)
    key = "say.beat" if t42.VALUE[b] != t42.VALUE[p] else "say.tie"
    out = [words.f(key, words.player(w), words.card(cards[0]), words.player(1 - w), words.card(cards[1]))]
    if "effect" not in action and "buy" not in action:
        out.append(words.f("say.none", words.player(w)))
    shuffles = []
    steps = r.steps
    i = 0
    while i < len(steps):
        e = steps[i]
        if e[0] == "buy":
            out.append(words.f("say.buy", words.player(w), words.t("say.a." + t42.PILE_CARD[e[1]]), e[1],
                               words.n("n.tarts", e[2])))
            i += 1
        elif e[0] == "shuffle":
            shuffles.append(words.f("say.shuffled" if e[2] else "say.reshuffled", words.player(e[1])))
            i += 1
        else:
            # an effect (its card first) or the watch (its hourglasses
            # first): one sentence, the steps that follow as its clauses
            i = _sentence(steps, i, out, shuffles)
    out += shuffles
    if after.over:
        out.append(words.t("end.piles" if after.end == "piles" else "end.rabbits"))
    return words.t("say.gap").join(out)


def _sentence(steps, i, out, shuffles):
    # the sentence of the effect or watch at steps[i], with each step it
    # played as a clause (reshuffles on the way go to shuffles) -> the
    # index of the first step after it
    e = steps[i]
    clauses = []
    i += 1
    while i < len(steps) and steps[i][0] != "watch":
        s = steps[i]
        k = s[0]
        if k == "shuffle":
            shuffles.append(words.f("say.shuffled" if s[2] else "say.reshuffled", words.player(s[1])))
        elif k == "space":
            clauses.append(words.f("say.hand" if steps[i - 1][0] == "watch" else "say.moved", words.space(s[2])))
        elif k == "copy":
            if s[2] is None:
                clauses.append(words.t("say.nocopy"))
            else:
                declined = i + 1 < len(steps) and steps[i + 1][0] == "declined"
                clauses.append(words.f("say.declined" if declined else "say.copied", words.player(1 - s[1]),
                                       words.card(s[2])))
        elif k == "pile":
            clauses.append(words.f("say.pile", words.t("say.a." + s[2]), s[3], words.n("n.stars", s[4])))
        elif k == "destroy":
            clauses.append(words.f("say.card", words.player(s[2]), words.card(s[3]), words.n("n.stars", s[4])))
        elif k == "spared":
            clauses.append(words.f("say.spared", words.player(s[2])))
        elif k == "nothing":
            clauses.append(words.t("say.nothing"))
        elif k == "take":
            got = words.n("n.tarts" if s[2] == "tarts" else "n.hourglasses", s[3])
            if s[4]:
                clauses.append(words.f("say.from", got, s[4], words.player(1 - s[1])))
            else:
                clauses.append(words.f("say.took", got))
        elif k == "flamingo":
            clauses.append(words.t("say.flamingo"))
        elif k == "gain":
            clauses.append(words.f("say.gained", words.n("n.stars", s[2])))
        elif k == "reveal":
            shown = words.t("say.and").join([words.card(c) for c in s[2]]) if s[2] else words.n("n.cards", 0)
            clauses.append(words.f("say.revealed", words.player(s[1]), shown))
        # ("card" after a copy: the copy's clause named it; "declined": said with its copy)
        i += 1
    said = words.t("say.sep").join(clauses)
    if e[0] == "watch":
        out.append(words.f("say.watch", words.player(e[1]), words.n("n.hourglasses", e[2]), said))
    else:
        out.append(words.f("say.effect", words.player(e[1]), words.card(e[2]), said))
    return i


class Told(t42.Round):
    """A round played (strictly: every answer in the line) that notes each
    step in steps, in the order played, as tuples:
    ("card", p, card)          card's effect, for player p (also a copied one)
    ("watch", p, n)            p spent n hourglasses (the hand moves)
    ("space", p, space)        the hand on space, played for p
    ("copy", p, card)          p copies the foe's top card (None: no card)
    ("declined",)              ... and the copy was declined
    ("pile", p, card, v, n)    p destroyed card from pile v, n stars
    ("destroy", p, who, card, n)  p destroyed player who's card, n stars
    ("spared", p, who)         p's executioner hit who's queen: kept
    ("nothing", p)             nothing there to destroy
    ("take", p, token, n, k)   p took n tokens, k of them from the foe
    ("flamingo", p)            p took the flamingo
    ("gain", p, n)             p gained n stars (stars and reveal spaces)
    ("reveal", p, cards)       p revealed cards (guards, reveal space)
    ("buy", v, cost)           the winner bought pile v's top card
    ("shuffle", p, rabbit)     p reshuffled (rabbit: one was added)
    The engine's own methods apply the rules; these only look."""

    def __init__(self, s):
        t42.Round.__init__(self, s, False)
        self.steps = []

    def effect(self, p, card, params, base=()):
        self.steps.append(("card", p, card))
        t42.Round.effect(self, p, card, params, base)

    def hourglasses(self, w, action):
        h = t42.Round.hourglasses(self, w, action)
        if h:
            self.steps.append(("watch", w, h))
        return h

    def space(self, p, params, base=()):
        sp = self.s.watch
        me = self.s.players[p]
        stars = me.stars
        self.steps.append(("space", p, t42.SPACES[sp]))
        t42.Round.space(self, p, params, base)
        if t42.SPACES[sp] == "stars":
            self.steps.append(("gain", p, me.stars - stars))
        elif t42.SPACES[sp] == "flamingo":
            self.steps.append(("flamingo", p))

    def copy(self, p, params, base):
        top = self.s.players[1 - p].discard
        self.steps.append(("copy", p, top[-1] if top else None))
        t42.Round.copy(self, p, params, base)

    def declined(self, p, params, base):
        d = t42.Round.declined(self, p, params, base)
        if d:
            self.steps.append(("declined",))
        return d

    def destroy_pile(self, p, params):
        n = len(self.s.players[p].destroyed)
        t42.Round.destroy_pile(self, p, params)
        me = self.s.players[p]
        if len(me.destroyed) > n:
            self.steps.append(("pile", p, me.destroyed[-1], params["pile"], params["stars"]))
        else:
            self.steps.append(("nothing", p))

    def executioner(self, p, params):
        n = len(self.s.players[p].destroyed)
        t42.Round.executioner(self, p, params)
        self._destroyed(p, 1 - p, n, params)

    def destroy(self, p, params):
        n = len(self.s.players[p].destroyed)
        t42.Round.destroy(self, p, params)
        self._destroyed(p, p, n, params)

    def _destroyed(self, p, who, n, params):
        # after p's executioner or destroy space: what p destroyed of who's
        me = self.s.players[p]
        if len(me.destroyed) > n:
            self.steps.append(("destroy", p, who, me.destroyed[-1], params["stars"]))
        elif "card" in params:
            self.steps.append(("spared", p, who))  # the queen (T42-DESTROY-2)
        else:
            self.steps.append(("nothing", p))

    def take(self, p, n, token):
        me = self.s.players[p]
        foe = self.s.players[1 - p]
        had = getattr(me, token)
        left = getattr(foe, token)
        t42.Round.take(self, p, n, token)
        self.steps.append(("take", p, token, getattr(me, token) - had, left - getattr(foe, token)))

    def king(self, p, params):
        t42.Round.king(self, p, params)
        if params["take"] == "flamingo":
            self.steps.append(("flamingo", p))

    def reveal(self, p, params, n):
        self.steps.append(("reveal", p, params.get("cards")))
        return t42.Round.reveal(self, p, params, n)

    def reveal_space(self, p, params):
        t42.Round.reveal_space(self, p, params)
        self.steps.append(("gain", p, params.get("stars", 0)))

    def buy(self, w, action):
        tarts = self.s.players[w].tarts
        t42.Round.buy(self, w, action)
        self.steps.append(("buy", action["buy"], tarts - self.s.players[w].tarts))

    def reshuffle(self, p):
        left = self.s.supply_rabbits
        t42.Round.reshuffle(self, p)
        self.steps.append(("shuffle", p, self.s.supply_rabbits < left))


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
    (label, i) for journal line i, e.g. ("R12 Blue queen", 14); OK on a
    row shows the line in sentences (detail).

    Only the rows drawn are made, when first drawn, from the
    lines' tags (t42.Actions.tags: the cards, or an adjustment) without
    decoding the lines (every row of a 60-round game at once: ~27 ms on
    the Pico)."""

    def __init__(self, game):
        self.game = game
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
        # the line in sentences (describe: played again on the state
        # before it), titled with its label
        ui.push(Lines(self[i][0], wrap(describe(self.game.state_at(i), self.acts[i]))))


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
