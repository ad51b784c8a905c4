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
(for the "Blue's only card: cat." notes, shown above the next question's
bottom line); they are not part of the answers, so BACK skips over them.

The status board shows the next round's first question with the answer
selected first (opening): its OK, UP and DOWN begin the round and act on
that question (start). Screen text comes from teatally.words."""

from teatally import words
from teatally.rules import t42
from teatally.ui.core import Menu, Message, Picker, Screen, wrap
from teatally.ui.t42.words import NAMES

# the card options as menu items ("caterpillar 6"), made once
_CARD_ITEM = {}
for _c in t42.CARDS:
    _CARD_ITEM[_c] = (words.f("card.item", words.card(_c), t42.VALUE[_c]), _c)
_REVEALS = (words.f("ask.reveals", NAMES[0]), words.f("ask.reveals", NAMES[1]))
_HOURGLASSES = (words.f("ask.hourglasses", NAMES[0]), words.f("ask.hourglasses", NAMES[1]))
_COPIES = (words.f("ask.copies", NAMES[0]), words.f("ask.copies", NAMES[1]))

def _counted(item, n):
    # a card's item with its count in the draw pile: "king 7 x3"
    return (item[0] + " x%d" % n, item[1])


# What the players answered last time in this game, the likely answer next
# time: per card, the printed stars last entered (T42-DESTROY-1: the players
# read them off the card); per winning card and whether a buy was offered
# (_act_key), the action it got, and per winner what they did last
# (_winner_key) (issue 26: players mostly do again what they did with a
# card when they could buy, or could not); the king's take (_take_key). Kept for
# one Game object only, so a new game (or a new App in a test) starts afresh.
_memo = [None, {}]


def _act_key(card, buys):
    # the memo's key of a winning card's action: a small int, no new object
    # (heap live peak: 112,752 B; with (card, buys) tuples 113,200 B, of
    # the budget's 114,688)
    return 2 * t42.CARDS.index(card) + (1 if buys else 0)


def _winner_key(w, buys):
    # the memo's key of what player w did last as the winner: "effect",
    # "buy" or "none" (for a card not seen yet in this game)
    return 100 + 2 * w + (1 if buys else 0)


def _take_key(who, holds):
    # the memo's key of the king's take (T42-CARD-7): per player, holding
    # the flamingo or not
    return 110 + 2 * who + (1 if holds else 0)


def _last(game):
    if _memo[0] is not game:
        _memo[0] = game
        _memo[1] = {}
    return _memo[1]


def start(ui, ev=None):
    """Begin a round on top of the status board; the key ev (the board's
    OK, UP or DOWN) then goes to its first question, which the board shows
    (opening): OK takes the answer selected first."""
    asked = ev is not None and ui.app.mend is None and first_question(ui.app) is not None
    ui.push(Screen())  # the round's slot on the stack; replaced by its questions
    r = Round(ui.app)
    r.guide = ui.app.mend
    r.advance(ui)
    if asked and getattr(ui.top(), "round", None) is r:
        ui.top().key(ui, ev)


# The status board's last line for the state _OPEN[0], and the question it
# shows (None: not a card): one probe a state. The line asks player
# _OPEN[3] about card _OPEN[4]: the same question as the state before
# keeps its text. Speed, first light (issue 24): without the memo computing
# p95 +0.6 ms, first light proxy 25.4 ms > 25; without keeping the text
# +0.4 ms, 25.2 ms.
_OPEN = [None, None, None, None, None]


def opening(app):
    """The status board's last line: the next round's first question and
    the answer OK gives there (the likeliest card, selected first), e.g.
    "Blue: dormouse? OK"."""
    _open(app.game)
    return _OPEN[1]


def first_question(app):
    """The question the board's OK, UP and DOWN act on: (need, its options
    as listed, the middle one selected first: _arranged), or None when the
    board only opens the round."""
    _open(app.game)
    return _OPEN[2]


def _open(game):
    if _OPEN[0] is not game.state:
        need = _first_need(game)
        if need is None or need.kind != t42.ASK_CARD:
            _OPEN[1] = words.t("board.play")
            _OPEN[2] = _OPEN[3] = _OPEN[4] = None
        else:
            who = need.who
            listed = _arranged(need.options, game.state.players[who].draw)
            _OPEN[2] = (need, listed)
            card = listed[len(listed) // 2]
            if _OPEN[3] != who or _OPEN[4] != card:
                _OPEN[1] = words.f("board.next", NAMES[who], words.card(card))
                _OPEN[3] = who
                _OPEN[4] = card
        _OPEN[0] = game.state


def _first_need(game):
    # the Need a round's first probe raises (None: complete or refused)
    try:
        return game.probe({}, [], True, 0)
    except t42.Refused:
        return None


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
        self.points = 0  # what the winner won by (the action menu's buys)
        self.action = None  # the winner's action answered last (kept at the commit)
        self.buys = False  # the action menu offers a buy
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
            self.commit(ui)
        elif need.kind == t42.ASK_ACTION:
            self._action(ui)
        else:
            self.need = need
            ui.replace(self.question(need))

    def _refused(self, ui, exc):
        # say why, BACK steps back
        ui.replace(Message(words.t("refused.title"), wrap(str(exc)), ok=self.back))

    def _filled(self):
        # the "Blue's only card: cat." notes for the next screen
        fills = self.fills
        for f in fills:
            if f[0] == t42.ASK_CARD:
                note = words.f("note.only", NAMES[f[1]], words.card(f[2]))
                self.notes = note if self.notes is None else self.notes + " " + note
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
        self.notes = None  # said on the screen after the fill only
        self.answers.append(v)
        if need is None:
            _act(self.draft, v)
            self.acted = True
            self.action = v
        elif need.kind == t42.ASK_COPY and not v:
            self.copies += 1  # applied: counted, not written (T42-COPY-4)
        else:
            if need.kind == t42.ASK_STARS:
                _last(self.app.game)[_stars_key(need)] = v
            elif need.kind == t42.ASK_TAKE:
                _last(self.app.game)[_take_key(need.who, self.app.game.state.flamingo == need.who)] = v
            _fill_in(need.params, need.key, v)  # a declined copy: {"decline": true}
        self.advance(ui)

    def back(self, ui):
        """BACK: one question back, its cursor on the answer given; at the
        first question the round is dropped."""
        if not self.answers:
            ui.pop()
            return
        v = self.answers.pop()
        saved = self.saved
        self.copies = saved.pop()
        self.notes = saved.pop()
        self.acted = saved.pop()
        self.draft = saved.pop()
        self.advance(ui)
        _recall(ui.top(), v)

    # -- what the screens call back ---------------------------------------------------
    def _say(self, v):
        # the same bottom line (or the picker's lines) for every option
        return self.text

    def _act_hint(self, v):
        # the action menu's bottom line (text: the winner's effect in words);
        # for a buy, the purchase rule (T42-BUY-1, -2)
        if v == "effect":
            return self.text
        if v == "none":
            return words.t("act.none.hint")
        if type(v) is tuple:
            if v[0] == "pile":
                return words.f("pile.item", v[1], words.card(t42.PILE_CARD[v[1]]))
            if v[0] == "space":
                return words.t("space.does." + v[1])
            return self.text
        return _cost(v, self.points)

    def _card_hint(self, v):
        # a reveal's bottom line: how many of the draw pile's cards are this
        # one (the "x2" of the label)
        player = self.app.game.state.players[self.need.who]
        return words.f("card.hint", player.draw.get(v, 0), player.draw_count())

    def _copy_hint(self, v):
        # the copy question's bottom line (text: the copied effect in words)
        if not v:
            return self.text
        return words.t("copy.decline.hint")

    def _land(self, n):
        # ASK_HOURGLASSES (T42-WATCH-1, -2): where the hand would land
        # (need.watch: where the action left it, a cat may have moved it)
        out = self.lines
        del out[:]
        if self.notes:
            out.extend(wrap(self.notes))
        sp = t42.SPACES[t42.landing(self.need.watch, n)]
        out.append(words.f("hand.moves" if n else "hand.stays", words.space(sp)))
        out.append(words.t("space.does." + sp))
        return out

    # -- the screens ------------------------------------------------------------
    def action_menu(self):
        d = self.draft
        w = self.winner
        card = d["blue"] if w == 0 else d["pink"]
        points = t42.VALUE[card] - t42.VALUE[d["pink"] if w == 0 else d["blue"]]  # T42-BUY-1
        s = self.app.game.state
        rows = _effect_rows(s, card)
        if card != "king" and self.app.keys.layout == "keypad":
            # the keypad: "#" the effect, its first choice asked next by its
            # own keys (a queen's pile 4-8 would be a buy's keys); the
            # king's takes keep their keys 1 and 2 (ui.keypad.answer_keys)
            rows = [(words.f("act.effect", words.card(card)), "effect")]
        effects = len(rows)
        _buy_rows(rows, s, points, s.players[w].tarts)  # T42-BUY-2
        rows.append((words.t("act.none"), "none"))  # T42-ROUND-3
        self.text = words.t("effect." + card)
        self.points = points
        self.buys = len(rows) > effects + 1
        if points:
            title = words.f("win.by", NAMES[w], points)
        else:
            title = words.f("win.tie", NAMES[w])  # the flamingo's holder (T42-ROUND-2)
        # selected first: what this card got last time in this game if it
        # is offered, else the dearest buy the winner can afford, else the
        # effect (what players chose most on the bench's games)
        memo = _last(self.app.game)
        last = memo.get(_act_key(card, self.buys))
        if last is None:
            # the card not seen yet: what this winner did last time
            last = memo.get(_winner_key(w, self.buys))
            if last == "buy":
                last = rows[effects][1] if self.buys else None
            elif last == "effect":
                last = rows[0][1]
        sel = effects if self.buys else 0
        for i in range(len(rows)):
            if rows[i][1] == last:
                sel = i
        if card == "king" and sel < effects:
            # the king's take: this player's last one (holding the flamingo
            # or not), else the flamingo unless they hold it
            take = memo.get(_take_key(w, s.flamingo == w))
            sel = 1 if take == "tarts" or (take is None and s.flamingo == w) else 0
        return self._menu(title, rows, sel, self._act_hint)

    def question(self, need):
        kind = need.kind
        if kind == t42.ASK_CARD:
            return self._ask_card(need)
        if kind == t42.ASK_PILE:
            return self._ask_pile(need)
        if kind == t42.ASK_SPACE:
            spaces = [(words.space(sp), sp) for sp in need.options]
            return self._menu(words.t("ask.space"), spaces, 0, _space_says)
        if kind == t42.ASK_TAKE:
            return self._ask_take(need)
        if kind == t42.ASK_STARS:
            return self._ask_stars(need)
        if kind == t42.ASK_COPY:
            return self._ask_copy(need)
        return self._picker(_HOURGLASSES[need.who], need.options, 0, self._land)

    def _ask_pile(self, need):
        piles = [(words.f("pile.item", v, words.card(t42.PILE_CARD[v])), v) for v in need.options]
        self.text = words.t("pile.hint")
        title = words.f("ask.pile", words.label(need.what, 24 - len(words.t("ask.pile"))))
        return self._menu(title, piles, 0, self._say)

    def _ask_take(self, need):
        rows = [(words.t("take.flamingo"), "flamingo"), (words.t("take.tarts"), "tarts")]
        # selected first: what this player took last time in this game
        # (holding the flamingo or not), else the flamingo unless they hold it
        holds = self.app.game.state.flamingo == need.who
        last = _last(self.app.game).get(_take_key(need.who, holds))
        sel = 1 if holds else 0
        if last is not None:
            sel = 0 if last == "flamingo" else 1
        return self._menu(words.f("ask.take", NAMES[need.who]), rows, sel, None)

    def _ask_stars(self, need):
        # the same lines for every value: made once, for this question
        lines = []
        if self.notes:
            lines.extend(wrap(self.notes))
        key = _stars_key(need)
        ask = words.f("stars.on", words.card(key)) if key in t42.VALUE else words.t("stars.revealed")
        lines.extend(wrap(ask))
        self.text = lines
        sel = _last(self.app.game).get(key, 0)
        return self._picker(words.t("ask.stars"), need.options, sel, self._say)

    def _ask_copy(self, need):
        # T42-COPY-4: the copied effect (the card: the label's last word), or
        # decline it; the bottom line says what the copy does
        card = _last_word(need.what)
        self.text = words.t("effect." + card)
        choices = [(words.f("copy.apply", words.card(card)), False), (words.t("copy.decline"), True)]
        return self._menu(_COPIES[need.who], choices, 0, self._copy_hint)

    def _ask_card(self, need):
        who = need.who
        draw = self.app.game.state.players[who].draw
        listed = _arranged(need.options, draw)
        if need.params is self.draft:
            # the round's own reveal: the counts are exact
            return self._menu(_REVEALS[who], _card_rows(listed, draw), len(listed) // 2, self._card_hint)
        self.text = words.f("card.whose", NAMES[who])
        return self._menu(words.label(need.what), _card_rows(listed, None), len(listed) // 2, self._say)

    def _menu(self, title, rows, sel, hint):
        if self.guide is not None:
            # a damaged round: narrowed to what the later lines allow, prefilled
            self.rows = rows
            self.sel = sel
            self.guide.shape(self)
            sel = self.sel
        if self.app.keys.layout == "keypad":
            # the keypad's keys by meaning (ui.keypad: loaded on that board only)
            from teatally.ui import keypad

            keys = keypad.answer_keys(self.need.kind if self.need is not None else t42.ASK_ACTION, rows)
            m = keypad.KeyMenu(title, rows, self.answer, self.back, sel, hint, keys)
        else:
            m = Menu(title, rows, self.answer, self.back, sel, hint)
        m.round = self  # type: ignore[attr-defined]
        m.note = wrap(self.notes) if self.notes else None  # type: ignore[attr-defined]
        return m

    def _picker(self, title, lo_hi, value, describe):
        if self.guide is not None:
            self.sel = value
            lo_hi = self.guide.shape(self, lo_hi)
            value = self.sel
        cls = Picker
        if self.app.keys.layout == "keypad":
            from teatally.ui import keypad

            cls = keypad.KeyPicker  # (digits)
        m = cls(title, lo_hi[0], lo_hi[1], value, self.answer, describe, self.back)
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
        if self.action is not None:
            d = self.draft
            v = self.action
            memo = _last(app.game)
            memo[_act_key(d["blue"] if self.winner == 0 else d["pink"], self.buys)] = v
            memo[_winner_key(self.winner, self.buys)] = "buy" if type(v) is int else "effect" if type(v) is tuple else v
            if type(v) is tuple and v[0] == "take":
                memo[_take_key(self.winner, before.flamingo == self.winner)] = v[1]
        if self.guide is not None:
            app.show_game()  # the mend goes on (ui.t42.recover); no table notices
            return
        lines = notices(before, after, self.winner)
        if lines and after.over:
            # the game ends: the final scoring comes when the notice is read
            ui.reset(_notice(after, lines, _show_game))
            return
        if len(lines) == 2:
            # one player's reshuffle: said on the board until the next key
            # (no press to read it); more goes on a screen of its own
            app.show_game(None, (lines[0], lines[1]))
            return
        app.show_game()
        if lines:
            # read, they give way to the board below
            ui.push(_notice(after, lines, None))


def _show_game(ui):
    ui.app.show_game()


def _notice(after, lines, ok):
    # what to do on the table after the round (notices)
    return Message(words.f("notice.title", after.round), lines, ok=ok)


def _card_rows(listed, draw):
    # the menu's items for the cards listed, with their counts in draw
    # ("king 7 x3") if given
    rows = [None] * len(listed)
    i = 0
    while i < len(rows):
        rows[i] = _CARD_ITEM[listed[i]]
        n = draw.get(listed[i], 0) if draw is not None else 0
        if n > 1:
            rows[i] = _counted(rows[i], n)
        i += 1
    return rows


def _arranged(options, draw):
    """The card options as the menu lists them: the likeliest (the most of
    it in the draw pile) in the middle, selected first, the next likeliest
    below it, the next above, and so on outwards, so that the card revealed
    is few presses away either way round (the menu wraps). Cards as likely
    as each other keep value order among their places (all equally likely:
    plain value order, the middle one selected)."""
    # One sort of plain ints, key i - n * count for option i:
    # unique, likeliest first, equal counts in value order; the option is
    # key % n, its count -(key // n). Rank k goes to place n // 2 + 0, +1,
    # -1, +2, -2, ... (k = 0, 1, 2, ...); ranks as likely as each other (a
    # group) fill their places in value order: the places are walked in
    # order, each taking the next rank of its group.
    n = len(options)
    keys = [i - n * draw.get(options[i], 0) for i in range(n)]
    keys.sort()
    group = [0] * n  # per place: the first rank of the group it is for
    nxt = [0] * n  # per group (its first rank): the next rank to place
    a = 0
    for k in range(n):
        if keys[k] // n != keys[a] // n:
            a = k
            nxt[a] = a
        group[(n // 2 + ((k + 1) // 2 if k & 1 else -(k // 2))) % n] = a
    out = [None] * n
    for p in range(n):
        a = group[p]
        out[p] = options[keys[nxt[a]] % n]
        nxt[a] += 1
    return out


def _effect_rows(s, card):
    """The action menu's rows for the winner's effect (T42-CARD-*): with its
    first choice folded in where it starts with one of two or more (the
    king's take, the pile the queen or a rabbit destroys, the space the cat
    moves the hand to; issue 26: one question and its OK fewer, and BACK
    from the question after still comes back here), else "Effect: guards"."""
    if card == "king":
        return [(words.t("act.flamingo"), ("take", "flamingo")), (words.t("act.tarts"), ("take", "tarts"))]
    rows = []
    if card == "cat":
        for sp in t42.SPACES:  # the action is the chain's first step: every space (T42-COPY-3)
            rows.append((words.f("act.space", words.space(sp)), ("space", sp)))
    elif card == "queen" or card == "rabbit":
        for v in t42.PILES:
            if s.pile(v):
                rows.append((words.f("act.pile", v), ("pile", v)))
        if len(rows) == 1:
            del rows[:]  # one pile: the engine fills it in (T42-INPUT-1)
    if not rows:
        rows.append((words.f("act.effect", words.card(card)), "effect"))
    return rows


def _buy_rows(rows, s, points, tarts):
    # the buys the winner can afford (T42-BUY-2), the dearest first
    for v in range(8, 3, -1):  # t42.PILES, from the top
        if s.pile(v) and t42.buy_cost(v, points) <= tarts:
            rows.append((_BUYS[v - 4], v))


# "Buy 6: caterpillar" (its cost on the bottom line: _cost)
_BUYS = tuple([words.f("act.buy", v, words.card(t42.PILE_CARD[v])) for v in t42.PILES])


def _cost(v, points):
    # the purchase rule for pile v won by points (T42-BUY-2): its value less
    # the points, never below nothing
    cost = t42.buy_cost(v, points)
    if cost == 0:
        return words.f("buy.free", points)
    return words.f("buy.cost", v, points, words.n("n.tarts", cost))


def _space_says(v):
    return words.t("space.does." + v)


def _recall(screen, v):
    # BACK: the question asked again with the cursor on the answer given
    # before (a menu's item, a picker's value)
    items = getattr(screen, "items", None)
    if items is not None:
        for i in range(len(items)):
            if items[i][1] == v:
                screen.sel = i
                return
    elif getattr(screen, "value", None) is not None and screen.lo <= v <= screen.hi:
        screen.value = v


def _clone(o):
    # a copy of the draft deep enough that no answer reaches into it
    if type(o) is dict:
        return {k: _clone(v) for k, v in o.items()}
    if type(o) is list:
        return [_clone(v) for v in o]
    return o


def _act(draft, v):
    """Write the winner's action into the round line (T42-ROUND-3): the
    effect (with its first choice, a (key, answer) pair: _effect_rows), a
    buy (the pile's value) or nothing."""
    if v == "effect":
        draft["effect"] = {}
    elif type(v) is tuple:
        draft["effect"] = {v[0]: v[1]}
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


def notices(before, after, w):
    """What the players must do on the table after the round, found by
    comparing the states (T42-SHUF-1, -4, T42-END-1..3)."""
    out = []
    rabbits = before.supply_rabbits - after.supply_rabbits
    rabbits = _reshuffled(out, w, before, after, rabbits)  # the winner's first
    _reshuffled(out, 1 - w, before, after, rabbits)
    if after.end is not None and before.end is None:
        _ended(out, after.end)
    return out


def _ended(out, end):
    # the game's end notice (T42-END-1, -2)
    out.extend(wrap(words.t("end.rabbits" if end == "rabbits" else "end.piles")))


def _reshuffled(out, p, before, after, rabbits):
    # player p's reshuffle, if any: the notice and the rabbit it took.
    # -> the rabbits left
    if not _reshuffles(before.players[p], after.players[p]):
        return rabbits
    if rabbits > 0:
        _said(out, "shuffle.rabbit", "shuffle.rabbit2", NAMES[p])
        return rabbits - 1
    _said(out, "shuffle.norabbit", "shuffle.norabbit2", NAMES[p])
    return rabbits


def _said(out, key, key2, name):
    # a reshuffle's notice: its two lines for the player name
    out.append(words.f(key, name))
    out.append(words.t(key2))


def _reshuffles(b, a):
    # a draw pile only grows by a reshuffle, and a discard pile only shrinks
    # by one (the revealed card makes up for the destroy space)
    return len(a.discard) < len(b.discard) or a.draw_count() >= b.draw_count()
