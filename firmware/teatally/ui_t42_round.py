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
# Each answer is written into the draft and the engine is probed once for
# the next question (a probe plays the whole round on a scratch state, so it
# is the price of a press). Before an answer goes in, a copy of the draft is
# kept: BACK restores the draft of the question before and asks it again.
# Questions with a single possible answer are filled in silently by the
# engine within that one probe (T42-INPUT-1), which tells what it filled in
# (for the "blue: cat only" notes); they are not part of the answers, so
# BACK skips over them.

from teatally import t42
from teatally.ui import Menu, Message, Picker, Screen
from teatally.ui_t42 import END_NEEDS, NAMES, SHORT, show_game, wrap

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
# Menu labels written out once: a % format costs ~20K fuel (0.1 ms) on
# every press. _CARD_ITEM: card -> its menu item, name and value (t42.VALUE;
# tests/test_ui_t42.py checks they agree).
_CARD_ITEM = {
    "cat": ("cat 1", "cat"),
    "rabbit": ("rabbit 1", "rabbit"),
    "dormouse": ("dormouse 2", "dormouse"),
    "guards": ("guards 3", "guards"),
    "executioner": ("executioner 4", "executioner"),
    "knave": ("knave 5", "knave"),
    "caterpillar": ("caterpillar 6", "caterpillar"),
    "king": ("king 7", "king"),
    "alice": ("alice 8", "alice"),
    "queen": ("queen 9", "queen"),
}
_TIMES = ("", "", " x2", " x3", " x4", " x5", " x6", " x7", " x8", " x9")
_REVEALS = ("Blue reveals", "Pink reveals")
_ADD_RABBIT = ("Blue: add rabbit", "Pink: add rabbit")
_SHUFFLE = ("Blue: shuffle", "Pink: shuffle")
_WINS = (("Blue wins", "Blue wins (tie)"), ("Pink wins", "Pink wins (tie)"))
_BUY = {4: "Buy 4: ", 5: "Buy 5: ", 6: "Buy 6: ", 7: "Buy 7: ", 8: "Buy 8: "}
_TARTS = ("0 tarts", "1 tart", "2 tarts", "3 tarts", "4 tarts", "5 tarts", "6 tarts", "7 tarts", "8 tarts")

# Items with a count ("king 7 x3"), kept while there are few: from one round
# to the next most stay the same. Keyed by the card's value * 64 + the count
# (cat and rabbit share a value, so a hit's card is checked).
_COUNTED = {}


def _counted(item, n):
    key = t42.VALUE[item[1]] * 64 + n if n < 64 else -1
    hit = _COUNTED.get(key)
    if hit is not None and hit[1] == item[1]:
        return hit
    hit = (item[0] + _TIMES[n] if n < len(_TIMES) else "%s x%d" % (item[0], n), item[1])
    if len(_COUNTED) >= 12:
        _COUNTED.clear()
    _COUNTED[key] = hit
    return hit


# The printed stars last entered per card in this game: the likely answer
# next time (T42-DESTROY-1: the players read them off the card). Kept for
# one Game object only, so a new game (or a new App in a test) starts afresh.
_memo = [None, {}]


def _last_stars(game):
    if _memo[0] is not game:
        _memo[0] = game
        _memo[1] = {}
    return _memo[1]


# One Round serves an App's rounds one after the other, with its Menu and
# Picker set up again for each question rather than made anew: every object
# a press makes costs it a search of the heap once the heap is full.
_ROUND = []


def start(ui):
    """Begin a round on top of the status board."""
    ui.push(Screen())  # the round's slot on the stack; replaced by its questions
    r = _ROUND[0] if _ROUND and _ROUND[0].app is ui.app else None
    if r is None:
        r = Round(ui.app)
        _ROUND[:] = [r]
    else:
        r.reset()
    r.advance(ui)


class Round:
    __slots__ = ("app", "answers", "saved", "draft", "acted", "need", "winner", "notes", "screens", "calls", "fills")

    def __init__(self, app):
        self.app = app
        self.answers = []  # what the players picked, in the order asked
        self.saved = []  # per answer: (a copy of the draft, acted, notes) before it
        self.screens = [None, None]  # the Menu and the Picker, once made
        self.calls = (self.answer, self.back)  # bound once
        self.fills = []  # what a probe filled in without asking (t42.apply)
        self.reset()

    def reset(self):
        """Ready for a new round."""
        del self.answers[:]
        del self.saved[:]
        self.draft = {}  # the round line being built
        self.acted = False  # the winner's action is in the draft
        self.need = None  # the question on screen: a t42.Need, or None for the action
        self.winner = -1
        self.notes = None  # what was filled in without asking, for the next screen

    # -- the next question ---------------------------------------------------
    def advance(self, ui):
        g = self.app.game
        draft = self.draft
        if not self.acted and "blue" in draft and "pink" in draft:
            self._action(ui)  # no probe needed to know that
            return
        fills = self.fills
        try:
            # T42-INPUT-1: the engine fills in the answers with one
            # possibility itself (in fills), so one probe serves a press
            need = g.probe(draft, fills, not self.acted)
        except t42.Refused as exc:
            # cannot happen with the offered options; say why, step back
            del fills[:]
            ui.replace(Message("Refused", wrap(str(exc)), ok=self.back))
            return
        if fills:
            for kind, who, v in fills:
                if kind == t42.ASK_CARD:
                    note = "%s: %s only" % (t42.PLAYERS[who], v)
                    self.notes = note if self.notes is None else self.notes + "; " + note
            del fills[:]
        if need is None:
            t42.settled(draft)  # committed as it is: no second play of the round
            self.commit(ui)
            return
        if need.kind == t42.ASK_ACTION:
            self._action(ui)
            return
        self.need = need
        ui.replace(self.question(need))

    def _action(self, ui):
        # both cards known: the winner's action (T42-ROUND-2, -3)
        draft = self.draft
        self.winner = t42.round_winner(self.app.game.state.flamingo, draft["blue"], draft["pink"])
        self.need = None
        ui.replace(self.action_menu())

    def answer(self, ui, v):
        need = self.need
        self.saved.append((_clone(self.draft), self.acted, self.notes))
        self.answers.append(v)
        if need is None:
            _act(self.draft, v)
            self.acted = True
        else:
            if need.kind == t42.ASK_STARS:
                _last_stars(self.app.game)[_stars_card(need.what)] = v
            _fill(need, v)
        self.advance(ui)

    def back(self, ui):
        """BACK: one question back; at the first question the round is dropped."""
        if not self.answers:
            ui.pop()
            return
        self.answers.pop()
        self.draft, self.acted, self.notes = self.saved.pop()
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
                items.append((_BUY[v] + _TARTS[cost], v))
        items.append(("Nothing", "none"))
        tie = points == 0
        title = _WINS[w][1 if tie else 0]

        def hint(v):
            if v == "effect":
                return EFFECT[cards[w]]
            if v == "none":
                return "flamingo holder" if tie else "no action"
            return "%s, %d left" % (t42.PILE_CARD[v], s.pile(v))

        return self._menu(title, items, 0, self._hint(hint))

    def question(self, need):
        kind = need.kind
        g = self.app.game
        s = g.state
        if kind == t42.ASK_CARD:
            who = need.who
            top = need.params is self.draft  # the round's own reveal: counts are exact
            draw = s.players[who].draw
            options = need.options
            rows = [options] * len(options)  # one allocation, no growing; filled below
            sel = 0
            best = 0
            j = 0
            for c in options:
                n = draw.get(c, 0)
                item = _CARD_ITEM[c]
                if top and n > 1:
                    item = _counted(item, n)
                rows[j] = item
                if n > best:
                    best = n
                    sel = j
                j += 1
            if top:
                title = _REVEALS[who]
                hint = str(s.players[who].draw_count()) + " in draw pile"
            else:
                title = need.what
                hint = NAMES[who] + "'s card"
            return self._menu(title, rows, sel, self._hint(lambda v: hint))
        if kind == t42.ASK_PILE:
            items = [("%d %s" % (v, t42.PILE_CARD[v]), v) for v in need.options]
            return self._menu(need.what + ": pile", items, 0, self._hint(None))
        if kind == t42.ASK_SPACE:
            items = [(sp, sp) for sp in need.options]
            return self._menu("Hand to?", items, 0, self._hint(lambda v: SPACE[v]))
        if kind == t42.ASK_TAKE:
            items = [("Take flamingo", "flamingo"), ("Take 2 tarts", "tarts")]
            sel = 1 if s.flamingo == need.who else 0
            return self._menu("%s king" % NAMES[need.who], items, sel, self._hint(None))
        lo, hi = need.options
        notes = self.notes
        if kind == t42.ASK_STARS:
            what = need.what
            lines = ([notes] if notes else []) + wrap(what)  # the same for every value: made once
            describe = lambda v: lines
            v = _last_stars(g).get(_stars_card(what), 0)
            return self._picker("Printed stars", lo, hi, v, describe)
        # ASK_HOURGLASSES (T42-WATCH-1, -2): show where the hand would land
        # (need.watch: where the action left it, a cat may have moved it)
        watch = need.watch

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
        return self._picker(title, lo, hi, 0, land)

    def _tag(self, screen):
        # lets a test driver (or the simulator) see which round a screen asks for
        screen.round = self
        return screen

    def _menu(self, title, items, sel, hint):
        m = self.screens[0]
        if m is None:
            m = self.screens[0] = self._tag(Menu(title, items, self.calls[0], self.calls[1], sel, hint))
        else:
            Menu.__init__(m, title, items, self.calls[0], self.calls[1], sel, hint)
        return m

    def _picker(self, title, lo, hi, value, describe):
        p = self.screens[1]
        if p is None:
            p = self.screens[1] = self._tag(Picker(title, lo, hi, value, self.calls[0], describe, self.calls[1]))
        else:
            Picker.__init__(p, title, lo, hi, value, self.calls[0], describe, self.calls[1])
        return p

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
        if lines and after.over:
            # the game ends: the final scoring is built when the notice is
            # read, not on this press (the commit's, already the dearest)
            m = Message("After round %d" % after.round, lines, ok=_final)
            m.needs = END_NEEDS  # type: ignore[attr-defined]  # read by app.App.wanted
            ui.reset(m)
            return
        show_game(ui, None)
        if lines:
            # read, they give way to the board below
            ui.push(Message("After round %d" % after.round, lines))


def _final(ui):
    # the last round's notice read: the final scoring (ui_t42_end, kept
    # loaded by the notice's needs)
    show_game(ui, None)


def _clone(o):
    # a copy of the draft deep enough that no answer reaches into it
    t = type(o)
    if t is dict:
        c = dict(o)
        for k in o:
            v = o[k]
            if type(v) is dict or type(v) is list:
                c[k] = _clone(v)
        return c
    if t is list:
        c = list(o)
        for i in range(len(o)):
            v = o[i]
            if type(v) is dict or type(v) is list:
                c[i] = _clone(v)
        return c
    return o


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


def _stars_card(what):
    # "blue executioner knave stars" -> "knave"
    parts = what.split(" ")
    return parts[-2] if len(parts) > 1 else what


def notices(before, after, w):
    """What the players must do on the table after the round, found by
    comparing the states (T42-SHUF-1, -4, T42-END-1..3)."""
    out = []
    rabbits = before.supply_rabbits - after.supply_rabbits
    for p in (w, 1 - w):
        b = before.players[p]
        a = after.players[p]
        # a draw pile only grows by a reshuffle, and a discard pile only
        # shrinks by one (the revealed card makes up for the destroy space)
        if len(a.discard) < len(b.discard) or a.draw_count() >= b.draw_count():
            if rabbits > 0:
                rabbits -= 1
                out.append(_ADD_RABBIT[p])
                out.append("  and shuffle")
            else:
                out.append(_SHUFFLE[p])
                out.append("  (no rabbit)")
    if after.end is not None and before.end is None:
        if after.end == "rabbits":
            out.append("No rabbit left:")
        else:
            out.append("4 piles empty:")
        out.append("game ends")
    return out
