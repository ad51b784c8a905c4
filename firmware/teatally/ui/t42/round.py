"""The guided round: the device asks, one screen at a time, exactly what the
engine needs to finish the round (T42-INPUT-1) and commits it as one
journal line.

The round is driven entirely by probing the engine: t42.Game.probe(draft)
names the next missing answer (a t42.Need with its legal options) or says
the round is complete. Only one question is the UI's own: the winner's
action (effect, buy or nothing), because the engine treats a missing
action as "nothing" (T42-ROUND-3). Likewise an applied copy leaves no
trace in the line (T42-COPY-4: only a declined one does): the round
counts the copies applied and the probe asks about the next one.

Each answer is written into the draft and the engine is probed once for
the next question (a probe plays the whole round on a scratch state, so it
is the price of a press). Before an answer goes in, a copy of the draft is
kept: BACK restores the draft of the question before and asks it again.
Questions with a single possible answer are filled in silently by the
engine within that one probe (T42-INPUT-1), which tells what it filled in
(for the "blue: cat only" notes); they are not part of the answers, so
BACK skips over them."""

from teatally.rules import t42
from teatally.ui.core import COLS, Menu, Message, Picker, Screen, wrap
from teatally.ui.t42.words import NAMES, SHORT

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
# Menu labels written out once: a % format or a + of two str costs ~20K
# fuel (0.1 ms) on every press (each new str is looked up among the
# interned strings). What a press must make is made as bytes (not looked
# up; fb.text takes them): few tables, as the module's heap counts too.
# _CARD_ITEM: card -> its menu item, name and value (t42.VALUE;
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
_HOURGLASSES = ("Blue hourglasses", "Pink hourglasses")
_COPIES = ("Blue copies", "Pink copies")
_ADD_RABBIT = ("Blue: add rabbit", "Pink: add rabbit")
_SHUFFLE = ("Blue: shuffle", "Pink: shuffle")
_WINS = (("Blue wins", "Blue wins (tie)"), ("Pink wins", "Pink wins (tie)"))
_BUY = {4: b"Buy 4: ", 5: b"Buy 5: ", 6: b"Buy 6: ", 7: b"Buy 7: ", 8: b"Buy 8: "}
_TARTS = (b"0 tarts", b"1 tart", b"2 tarts", b"3 tarts", b"4 tarts", b"5 tarts", b"6 tarts", b"7 tarts", b"8 tarts")

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


def start(ui):
    """Begin a round on top of the status board."""
    ui.push(Screen())  # the round's slot on the stack; replaced by its questions
    r = Round(ui.app)
    r.guide = ui.app.mend
    r.advance(ui)


class Round:
    """One guided round: the draft line, the answers so far and what BACK
    needs to step back; each question is a Menu or a Picker tagged with
    the round (``screen.round``: test drivers and the simulator read it)."""

    def __init__(self, app):
        self.app = app
        self.answers = []  # what the players picked, in the order asked
        # per answer, four entries: a copy of the draft, acted, notes and
        # copies before it
        self.saved = []
        self.fills = []  # what a probe filled in without asking (t42.apply)
        self.draft = {}  # the round line being built
        self.acted = False  # the winner's action is in the draft
        self.copies = 0  # copied effects the players chose to apply (T42-COPY-4)
        self.need = None  # the question on screen: a t42.Need, or None for the action
        self.winner = -1
        self.notes = None  # what was filled in without asking, for the next screen
        self.lines = []  # the picker's lines (_land)
        self.text = None  # what _say gives (_act_hint: the effect's words)
        # a recover.Mend while a damaged round is entered again: it prefills
        # and narrows the answers (recover.Mend.shape reads rows and sel),
        # and the commit is its (App.commit)
        self.guide = None
        self.rows = []
        self.sel = 0

    # -- the next question ---------------------------------------------------
    def advance(self, ui):
        draft = self.draft
        if not self.acted and "blue" in draft and "pink" in draft:
            self._action(ui)  # no probe needed to know that
            return
        try:
            # T42-INPUT-1: the engine fills in the answers with one
            # possibility itself (in fills), so one probe serves a press
            need = self.app.game.probe(draft, self.fills, not self.acted, self.copies)
        except t42.Refused as exc:
            # cannot happen with the offered options: say why, step back
            del self.fills[:]
            self._refused(ui, exc)
            return
        if self.fills:
            self._filled()
        if need is None:
            t42.settled(draft)  # committed as it is: no second play of the round
            self.commit(ui)
        elif need.kind == t42.ASK_ACTION:
            self._action(ui)
        else:
            self.need = need
            ui.replace(self.question(need))

    def _refused(self, ui, exc):
        # say why, BACK steps back
        ui.replace(Message("Refused", wrap(str(exc)), ok=self.back))

    def _filled(self):
        # the "blue: cat only" notes for the next screen
        fills = self.fills
        for f in fills:
            if f[0] == t42.ASK_CARD:
                note = "%s: %s only" % (t42.PLAYERS[f[1]], f[2])
                self.notes = note if self.notes is None else self.notes + "; " + note
        del fills[:]

    def _action(self, ui):
        # both cards known: the winner's action (T42-ROUND-2, -3)
        draft = self.draft
        self.winner = t42.round_winner(self.app.game.state.flamingo, draft["blue"], draft["pink"])
        self.need = None
        ui.replace(self.action_menu())

    def answer(self, ui, v):
        need = self.need
        self.saved.append(_clone(self.draft))
        self.saved.append(self.acted)
        self.saved.append(self.notes)
        self.saved.append(self.copies)
        self.answers.append(v)
        if need is None:
            _act(self.draft, v)
            self.acted = True
        elif need.kind == t42.ASK_COPY and not v:
            self.copies += 1  # applied: counted, not written (T42-COPY-4)
        else:
            if need.kind == t42.ASK_STARS:
                _last_stars(self.app.game)[_stars_key(need)] = v
            _fill_in(need.params, need.key, v)  # a declined copy: {"decline": true}
        self.advance(ui)

    def back(self, ui):
        """BACK: one question back; at the first question the round is dropped."""
        if not self.answers:
            ui.pop()
            return
        self.answers.pop()
        saved = self.saved
        self.copies = saved.pop()
        self.notes = saved.pop()
        self.acted = saved.pop()
        self.draft = saved.pop()
        self.advance(ui)

    # -- what the screens call back ---------------------------------------------------
    def _hint(self, say):
        # the menu's bottom line: the notes of what was filled in, if any
        if self.notes is None:
            return say
        self.text = self.notes
        return self._say

    def _say(self, v):
        # the same bottom line (or the picker's lines) for every option
        return self.text

    def _act_hint(self, v):
        # the action menu's bottom line (text: the winner's effect in words)
        if v == "effect":
            return self.text
        if v == "none":
            d = self.draft
            return "flamingo holder" if t42.VALUE[d["blue"]] == t42.VALUE[d["pink"]] else "no action"
        return t42.PILE_CARD[v].encode() + b", %d left" % self.app.game.state.pile(v)

    def _copy_hint(self, v):
        # the copy question's bottom line (text: the copied effect in words)
        if not v:
            return self.text
        return "nothing happens" if self.notes is None else self.notes

    def _land(self, n):
        # ASK_HOURGLASSES (T42-WATCH-1, -2): where the hand would land
        # (need.watch: where the action left it, a cat may have moved it)
        out = self.lines
        del out[:]
        if self.notes:
            out.append(self.notes)
        watch = self.need.watch
        if n == 0:
            out.append("no move")
            out.append(b"hand on " + t42.SPACES[watch].encode())
        else:
            sp = t42.SPACES[t42.landing(watch, n)]
            out.append(b"hand -> " + sp.encode())
            out.append(SPACE[sp])
        return out

    # -- the screens ------------------------------------------------------------
    def action_menu(self):
        d = self.draft
        w = self.winner
        card = d["blue"] if w == 0 else d["pink"]
        points = t42.VALUE[card] - t42.VALUE[d["pink"] if w == 0 else d["blue"]]  # T42-BUY-1
        rows = [(b"Effect: " + SHORT[card].encode(), "effect")]
        s = self.app.game.state
        _buy_rows(rows, s, points, s.players[w].tarts)  # T42-BUY-2
        rows.append(("Nothing", "none"))  # T42-ROUND-3
        self.text = EFFECT[card]
        return self._menu(_WINS[w][1 if points == 0 else 0], rows, 0, self._hint(self._act_hint))

    def question(self, need):
        kind = need.kind
        if kind == t42.ASK_CARD:
            return self._ask_card(need)
        if kind == t42.ASK_PILE:
            piles = [(b"%d " % v + t42.PILE_CARD[v].encode(), v) for v in need.options]
            return self._menu(need.what + ": pile", piles, 0, self._hint(None))
        if kind == t42.ASK_SPACE:
            return self._menu("Hand to?", [(sp, sp) for sp in need.options], 0, self._hint(_space_says))
        if kind == t42.ASK_TAKE:
            rows = [("Take flamingo", "flamingo"), ("Take 2 tarts", "tarts")]
            sel = 1 if self.app.game.state.flamingo == need.who else 0
            return self._menu("%s king" % NAMES[need.who], rows, sel, self._hint(None))
        if kind == t42.ASK_STARS:
            # the same lines for every value: made once, for this question
            lines = []
            if self.notes:
                lines.append(self.notes)
            _wrap_label(lines, need.what)
            self.text = lines
            sel = _last_stars(self.app.game).get(_stars_key(need), 0)
            return self._picker("Printed stars", need.options, sel, self._say)
        if kind == t42.ASK_COPY:
            # T42-COPY-4: the copied effect (the card: the label's last
            # word), or decline it; the bottom line says what the copy
            # does, or the notes of what was filled in
            card = _last_word(need.what)
            self.text = EFFECT[card]
            choices = [(b"Apply: " + SHORT[card].encode(), False), ("Decline", True)]
            return self._menu(_COPIES[need.who], choices, 0, self._copy_hint)
        return self._picker(_HOURGLASSES[need.who], need.options, 0, self._land)

    def _ask_card(self, need):
        who = need.who
        top = need.params is self.draft  # the round's own reveal: counts are exact
        player = self.app.game.state.players[who]
        rows = [_card_item(c, player.draw if top else None) for c in need.options]
        if top:
            title = _REVEALS[who]
            self.text = b"%d in draw pile" % player.draw_count()
        else:
            title = need.what
            self.text = NAMES[who].encode() + b"'s card"
        return self._menu(title, rows, _most(need.options, player.draw), self._hint(self._say))

    def _menu(self, title, rows, sel, hint):
        if self.guide is not None:
            # a damaged round: narrowed to what the later lines allow, prefilled
            self.rows = rows
            self.sel = sel
            self.guide.shape(self)
            sel = self.sel
        m = Menu(title, rows, self.answer, self.back, sel, hint)
        m.round = self  # type: ignore[attr-defined]
        return m

    def _picker(self, title, lo_hi, value, describe):
        if self.guide is not None:
            self.sel = value
            lo_hi = self.guide.shape(self, lo_hi)
            value = self.sel
        m = Picker(title, lo_hi[0], lo_hi[1], value, self.answer, describe, self.back)
        m.round = self  # type: ignore[attr-defined]
        return m

    # -- the commit -----------------------------------------------------------------
    def commit(self, ui):
        app = self.app
        before = app.game.state
        try:
            after = app.commit(self.draft)  # one journal line
        except t42.Refused as exc:
            self._refused(ui, exc)
            return
        if self.guide is not None:
            app.show_game()  # the mend goes on (ui.t42.recover); no table notices
            return
        lines = notices(before, after, self.winner)
        if lines and after.over:
            # the game ends: the final scoring comes when the notice is read
            ui.reset(_notice(after, lines, _show_game))
            return
        app.show_game()
        if lines:
            # read, they give way to the board below
            ui.push(_notice(after, lines, None))


def _show_game(ui):
    ui.app.show_game()


def _notice(after, lines, ok):
    # what to do on the table after the round (notices)
    return Message("After round %d" % after.round, lines, ok=ok)


def _card_item(c, draw):
    n = draw.get(c, 0) if draw is not None else 0
    return _counted(_CARD_ITEM[c], n) if n > 1 else _CARD_ITEM[c]


def _most(options, draw):
    # the index of the card the draw pile holds most of (the likely reveal,
    # selected first)
    sel = best = 0
    for j in range(len(options)):
        if draw.get(options[j], 0) > best:
            best = draw[options[j]]
            sel = j
    return sel


def _buy_rows(rows, s, points, tarts):
    # the buys the winner can afford (T42-BUY-2)
    for v in t42.PILES:
        if s.pile(v) and t42.buy_cost(v, points) <= tarts:
            rows.append(_buy_item(v, points))


def _buy_item(v, points):
    # bytes: no new str
    return (_BUY[v] + _TARTS[t42.buy_cost(v, points)], v)


def _space_says(v):
    return SPACE[v]


def _clone(o):
    # a copy of the draft deep enough that no answer reaches into it
    if type(o) is dict:
        return {k: _clone(v) for k, v in o.items()}
    if type(o) is list:
        return [_clone(v) for v in o]
    return o


def _act(draft, v):
    """Write the winner's action into the round line (T42-ROUND-3)."""
    if v == "effect":
        draft["effect"] = {}
    elif v != "none":
        draft["buy"] = v


def _fill_in(params, key, v):
    slot = params.get(key)
    if isinstance(slot, list):  # multi-card reveals (guards, reveal space)
        slot.append(v)
    else:
        params[key] = v


def _stars_key(need):
    # the card whose printed stars are asked: in the params next to them (a
    # destroyed card, a pile), else named in the label
    params = need.params
    c = params.get("card")
    if c is not None:
        return c
    v = params.get("pile")
    if v is not None:
        return t42.PILE_CARD[v]
    return _stars_card(need.what)


def _last_word(what):
    # "watch copy queen" -> "queen" (the card a copy question is about)
    return what[what.rfind(" ") + 1 :]


def _stars_card(what):
    # "blue watch reveal stars" -> "reveal": the word before the last (one
    # new str; a split would make one per word)
    i = what.rfind(" ")
    if i < 0:
        return what
    return what[what.rfind(" ", 0, i) + 1 : i]


def _wrap_label(lines, what):
    """Append to lines what ui.wrap(what) gives, as bytes: ui.wrap makes a
    str for every word and every joined line (~0.1 ms each, a label costs
    ~1 ms). An ASCII label of words with one space between them is cut at
    the last space that fits; any other (and a word longer than a line) is
    left to ui.wrap."""
    b = what.encode()
    if len(b) != len(what) or b[:1] == b" " or b" " * 2 in b:
        lines.extend(wrap(what))
        return
    while len(b) > COLS:
        i = b.rfind(b" ", 0, COLS + 1)
        if i < 0:
            lines.extend(wrap(b.decode()))  # a word longer than a line
            return
        lines.append(b[:i])
        b = b[i + 1 :]
    if b:
        lines.append(b)


def notices(before, after, w):
    """What the players must do on the table after the round, found by
    comparing the states (T42-SHUF-1, -4, T42-END-1..3)."""
    out = []
    rabbits = before.supply_rabbits - after.supply_rabbits
    rabbits = _reshuffled(out, w, before, after, rabbits)
    _reshuffled(out, 1 - w, before, after, rabbits)
    if after.end is not None and before.end is None:
        out.append("No rabbit left:" if after.end == "rabbits" else "4 piles empty:")
        out.append("game ends")
    return out


def _reshuffled(out, p, before, after, rabbits):
    # player p's reshuffle, if any: the notice and the rabbit it took.
    # -> the rabbits left
    if _reshuffles(before.players[p], after.players[p]):
        if rabbits > 0:
            out.append(_ADD_RABBIT[p])
            out.append("  and shuffle")
            return rabbits - 1
        out.append(_SHUFFLE[p])
        out.append("  (no rabbit)")
    return rabbits


def _reshuffles(b, a):
    # a draw pile only grows by a reshuffle, and a discard pile only shrinks
    # by one (the revealed card makes up for the destroy space)
    return len(a.discard) < len(b.discard) or a.draw_count() >= b.draw_count()
