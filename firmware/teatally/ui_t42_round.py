# The guided round: the device asks, one screen at a time, exactly what the
# engine needs to finish the round (T42-INPUT-1) and commits it as one
# journal line.
#
# The round is driven entirely by probing the engine: t42.Game.probe(draft)
# names the next missing answer (a t42.Need with its legal options) or says
# the round is complete. Only one question is the UI's own: the winner's
# action (effect, buy or nothing), because the engine treats a missing
# action as "nothing" (T42-ROUND-3).
#
# The answers the players typed are kept in a list; the draft is rebuilt
# from them on every step, so BACK simply drops the last answer and asks
# again. Questions with a single possible answer are filled in silently
# (T42-INPUT-1) and are not part of the list, so BACK skips over them.

from teatally import t42
from teatally.ui import Menu, Message, Picker, Screen
from teatally.ui_t42 import NAMES, SHORT, show_game, wrap

# what each card's effect does (T42-CARD-1..9), for the action menu
EFFECT = {
    "cat": "hand to any spot",
    "rabbit": "destroy pile top",
    "dormouse": "take 2 tarts",
    "guards": "foe reveals 3",
    "executioner": "destroy foe card",
    "knave": "take 3 tarts",
    "caterpillar": "take 2 hourglass",
    "king": "flamingo/2 tarts",
    "alice": "take 1 hourglass",
    "queen": "destroy pile top",
}
# what each watch space does (T42-SPACE-1..5)
SPACE = {
    "stars": "gain 2 stars",
    "destroy": "destroy own card",
    "reveal": "reveal 2: stars",
    "flamingo": "take flamingo",
    "copy": "copy foe's top",
}
# The printed stars last entered per card in this game: the likely answer
# next time (T42-DESTROY-1: the players read them off the card). Kept for
# one Game object only, so a new game (or a new App in a test) starts afresh.
_memo = [None, {}]


def _last_stars(game):
    if _memo[0] is not game:
        _memo[0] = game
        _memo[1] = {}
    return _memo[1]


def start(ui):
    """Begin a round on top of the status board."""
    ui.push(Screen())  # the round's slot on the stack; replaced by its questions
    Round(ui.app).advance(ui)


class Round:
    __slots__ = ("app", "answers", "draft", "need", "winner", "notes")

    def __init__(self, app):
        self.app = app
        self.answers = []  # what the players picked, in the order asked
        self.draft = {}  # the round line being built
        self.need = None  # the question on screen: a t42.Need, or None for the action
        self.winner = -1
        self.notes = None  # what was filled in without asking, for the next screen

    # -- replay the answers, ask the next question ---------------------------
    def advance(self, ui):
        g = self.app.game
        draft = {}
        self.draft = draft
        self.notes = None
        acted = False
        i = 0
        answers = self.answers
        while True:
            if not acted and "blue" in draft and "pink" in draft:
                # both cards known: the winner's action (T42-ROUND-2, -3)
                self.winner = t42.round_winner(g.state.flamingo, draft["blue"], draft["pink"])
                if i == len(answers):
                    self.need = None
                    ui.replace(self.action_menu())
                    return
                _act(draft, answers[i])
                i += 1
                acted = True
                continue
            try:
                need = g.probe(draft)
            except t42.Refused as exc:
                # cannot happen with the offered options; say why, step back
                ui.replace(Message("Refused", wrap(str(exc)), ok=self.back))
                return
            if need is None:
                self.commit(ui)
                return
            only = _only(need)
            if only is not None:
                _fill(need, only)  # T42-INPUT-1: one possible answer, none asked
                if need.kind == t42.ASK_CARD:
                    note = "%s: %s only" % (t42.PLAYERS[need.who], only)
                    self.notes = note if self.notes is None else self.notes + "; " + note
                continue
            if i < len(answers):
                _fill(need, answers[i])
                i += 1
                continue
            self.need = need
            ui.replace(self.question(need))
            return

    def answer(self, ui, v):
        need = self.need
        if need is not None and need.kind == t42.ASK_STARS:
            _last_stars(self.app.game)[_stars_card(need.what)] = v
        self.answers.append(v)
        self.advance(ui)

    def back(self, ui):
        """BACK: one question back; at the first question the round is dropped."""
        if not self.answers:
            ui.pop()
            return
        self.answers.pop()
        self.advance(ui)

    def _hint(self, text):
        notes = self.notes
        if notes is None:
            return text
        return lambda v: notes

    # -- the screens ------------------------------------------------------------
    def action_menu(self):
        g = self.app.game
        s = g.state
        d = self.draft
        w = self.winner
        cards = (d["blue"], d["pink"])
        points = t42.VALUE[cards[w]] - t42.VALUE[cards[1 - w]]  # T42-BUY-1
        tarts = s.players[w].tarts
        items = [("Effect: " + SHORT[cards[w]], "effect")]
        for v, cost in t42.buy_options(s, points):
            if cost <= tarts:
                items.append(("Buy %d: %d tart%s" % (v, cost, "" if cost == 1 else "s"), v))
        items.append(("Nothing", "none"))
        tie = points == 0
        title = "%s wins%s" % (NAMES[w], " (tie)" if tie else "")

        def hint(v):
            if v == "effect":
                return EFFECT[cards[w]]
            if v == "none":
                return "flamingo holder" if tie else "no action"
            return "%s, %d left" % (t42.PILE_CARD[v], s.pile(v))

        return self._tag(Menu(title, items, self.answer, back=self.back, hint=self._hint(hint)))

    def question(self, need):
        kind = need.kind
        g = self.app.game
        s = g.state
        if kind == t42.ASK_CARD:
            top = need.params is self.draft  # the round's own reveal: counts are exact
            draw = s.players[need.who].draw
            items = []
            sel = 0
            best = 0
            for j in range(len(need.options)):
                c = need.options[j]
                n = draw.get(c, 0)
                label = "%s %d" % (c, t42.VALUE[c])
                if top and n > 1:
                    label += " x%d" % n
                items.append((label, c))
                if n > best:
                    best = n
                    sel = j
            if top:
                title = "%s reveals" % NAMES[need.who]
                hint = "%d in draw pile" % s.players[need.who].draw_count()
            else:
                title = need.what
                hint = "%s's card" % NAMES[need.who]
            return self._tag(Menu(title, items, self.answer, back=self.back, sel=sel, hint=self._hint(lambda v: hint)))
        if kind == t42.ASK_PILE:
            items = [("%d %s" % (v, t42.PILE_CARD[v]), v) for v in need.options]
            return self._tag(Menu(need.what + ": pile", items, self.answer, back=self.back, hint=self._hint(None)))
        if kind == t42.ASK_SPACE:
            items = [(sp, sp) for sp in need.options]
            m = Menu("Hand to?", items, self.answer, back=self.back, hint=self._hint(lambda v: SPACE[v]))
            return self._tag(m)
        if kind == t42.ASK_TAKE:
            items = [("Take flamingo", "flamingo"), ("Take 2 tarts", "tarts")]
            sel = 1 if s.flamingo == need.who else 0
            m = Menu("%s king" % NAMES[need.who], items, self.answer, back=self.back, sel=sel, hint=self._hint(None))
            return self._tag(m)
        lo, hi = need.options
        notes = self.notes
        if kind == t42.ASK_STARS:
            what = need.what
            lines = ([notes] if notes else []) + wrap(what)  # the same for every value: made once
            describe = lambda v: lines
            v = _last_stars(g).get(_stars_card(what), 0)
            return self._tag(Picker("Printed stars", lo, hi, v, self.answer, describe=describe, back=self.back))
        # ASK_HOURGLASSES (T42-WATCH-1, -2): show where the hand would land
        watch = self.watch_after_action()

        def land(n):
            out = [notes] if notes else []
            if n == 0:
                out.append("no move")
                out.append("hand on " + t42.SPACES[watch])
            else:
                sp = t42.SPACES[t42.landing(watch, n)]
                out.append("hand -> " + sp)
                out.append(SPACE[sp])
            return out

        title = "%s hourglasses" % NAMES[need.who]
        return self._tag(Picker(title, lo, hi, 0, self.answer, describe=land, back=self.back))

    def _tag(self, screen):
        # lets a test driver (or the simulator) see which round a screen asks for
        screen.round = self
        return screen

    def watch_after_action(self):
        """Where the hand stands before any hourglass is spent: the engine
        plays the round with 0 hourglasses (a cat may have moved it)."""
        d = self.draft
        d["hourglasses"] = 0
        try:
            return t42.apply(self.app.game.state, d, True).watch
        except (t42.Need, t42.Refused):
            return self.app.game.state.watch
        finally:
            del d["hourglasses"]

    # -- the commit -----------------------------------------------------------------
    def commit(self, ui):
        app = self.app
        before = app.game.state
        try:
            after = app.commit(self.draft)  # one journal line
        except t42.Refused as exc:
            ui.replace(Message("Refused", wrap(str(exc)), ok=self.back))
            return
        lines = notices(before, after, self.winner)
        show_game(ui, None)
        if lines:
            # read, they give way to the board (or the final scoring) below
            ui.push(Message("After round %d" % after.round, lines))


def _act(draft, v):
    """Write the winner's action into the round line (T42-ROUND-3)."""
    if v == "effect":
        draft["effect"] = {}
    elif v != "none":
        draft["buy"] = v


def _fill(need, v):
    slot = need.params.get(need.key)
    if isinstance(slot, list):  # multi-card reveals (guards, reveal space)
        slot.append(v)
    else:
        need.params[need.key] = v


def _only(need):
    """The answer when exactly one is possible, else None."""
    o = need.options
    if need.kind in (t42.ASK_STARS, t42.ASK_HOURGLASSES):
        return o[0] if o[0] == o[1] else None
    return o[0] if len(o) == 1 else None


def _stars_card(what):
    # "blue executioner knave stars" -> "knave"
    parts = what.split(" ")
    return parts[-2] if len(parts) > 1 else what


def _reshuffled(b, a):
    # A draw pile only grows by a reshuffle, and a discard pile only shrinks
    # by one (the revealed card makes up for the destroy space).
    return a.draw_count() >= b.draw_count() or len(a.discard) < len(b.discard)


def notices(before, after, w):
    """What the players must do on the table after the round, found by
    comparing the states (T42-SHUF-1, -4, T42-END-1..3)."""
    out = []
    rabbits = before.supply_rabbits - after.supply_rabbits
    for p in (w, 1 - w):
        if _reshuffled(before.players[p], after.players[p]):
            if rabbits > 0:
                rabbits -= 1
                out.append("%s: add rabbit" % NAMES[p])
                out.append("  and shuffle")
            else:
                out.append("%s: shuffle" % NAMES[p])
                out.append("  (no rabbit)")
    if after.end is not None and before.end is None:
        if after.end == "rabbits":
            out.append("No rabbit left:")
        else:
            out.append("4 piles empty:")
        out.append("game ends")
    return out
