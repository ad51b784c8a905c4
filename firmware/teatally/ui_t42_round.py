# The guided round: the device asks, one screen at a time, exactly what the
# engine needs to finish the round (T42-INPUT-1) and commits it as one
# journal line.
#
# The round is driven entirely by probing the engine: t42.Game.probe(draft)
# names the next missing answer (a t42.Need with its legal options) or says
# the round is complete. Only one question is the UI's own: the winner's
# action (effect, buy or nothing), because the engine treats a missing
# action as "nothing" (T42-ROUND-3). Likewise an applied copy leaves no
# trace in the line (T42-COPY-4: only a declined one does): the round
# counts the copies applied and the probe asks about the next one.
#
# Each answer is written into the draft and the engine is probed once for
# the next question (a probe plays the whole round on a scratch state, so it
# is the price of a press). Before an answer goes in, a copy of the draft is
# kept: BACK restores the draft of the question before and asks it again.
# Questions with a single possible answer are filled in silently by the
# engine within that one probe (T42-INPUT-1), which tells what it filled in
# (for the "blue: cat only" notes); they are not part of the answers, so
# BACK skips over them.

from teatally import t42, words
from teatally.ui import Menu, Message, Picker, Screen
from teatally.ui_t42 import END_NEEDS, NAMES, show_final, show_game, wrap

# the words' lookups as globals: one word of a frame less than an attribute
# (see Round on frames)
_wf = words.f
_wt = words.t
_wn = words.n
_wc = words.card

# Screen text comes from teatally.words. Menu labels are made once: a %
# format or a + of two str costs ~20K fuel (0.1 ms) on every press (each
# new str is looked up among the interned strings). What a press must make
# is made as bytes (not looked up; ui.text takes them).
# _CARD_ITEM: card -> its menu item, name and value (t42.VALUE;
# tests/test_ui_t42.py checks they agree).
_CARD_ITEM = {}
for _c in t42.CARDS:
    _CARD_ITEM[_c] = (_wf("card.item", _wc(_c), t42.VALUE[_c]), _c)
_TIMES = ("", "", " x2", " x3", " x4", " x5", " x6", " x7", " x8", " x9")
_REVEALS = (_wf("ask.reveals", NAMES[0]), _wf("ask.reveals", NAMES[1]))
_HOURGLASSES = (_wf("ask.hourglasses", NAMES[0]), _wf("ask.hourglasses", NAMES[1]))
_COPIES = (_wf("ask.copies", NAMES[0]), _wf("ask.copies", NAMES[1]))

# Items with a count ("king 7 x3"), kept while there are few: from one round
# to the next most stay the same. Keyed by the card's value * 64 + the count
# (cat and rabbit share a value, so a hit's card is checked).
_COUNTED = {}


def _counted(item, n):
    key = t42.VALUE[item[1]] * 64 + n if n < 64 else -1
    hit = _COUNTED.get(key)
    if hit is not None and hit[1] == item[1]:
        return hit
    hit = (item[0] + _TIMES[n] if n < len(_TIMES) else item[0] + " x%d" % n, item[1])
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


def start(ui, ev=None):
    """Begin a round on top of the status board; the key ev (the board's
    OK, UP or DOWN) then goes to its first question when the board showed
    it (opening): OK takes the answer selected first."""
    asked = ev is not None and first_question(ui.app) is not None
    ui.push(Screen())  # the round's slot on the stack; replaced by its questions
    r = _ROUND[0] if _ROUND and _ROUND[0].app is ui.app else None
    if r is None:
        r = Round(ui.app)
        _ROUND[:] = [r]
    else:
        r.reset()
    r.advance(ui)
    if asked and getattr(ui.top(), "round", None) is r:
        ui.top().key(ui, ev)


# The status board's last line for the state _OPEN[0], and the question it
# shows (None: not a card): one probe a state.
_OPEN = [None, None, None]


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
            _OPEN[1] = _wt("board.play")
            _OPEN[2] = None
        else:
            listed = _arranged(need.options, game.state.players[need.who].draw)
            _OPEN[2] = (need, listed)
            _OPEN[1] = _next_card(need, listed)
        _OPEN[0] = game.state


def _first_need(game):
    # the Need a round's first probe raises (None: complete or refused)
    with _REFUSAL:
        return game.probe({}, [], True)


def _next_card(need, listed):
    # "Blue: dormouse? OK": the card selected first (Round._ask_card)
    return _wf("board.next", NAMES[need.who], _wc(listed[len(listed) // 2]))


def _only(fill):
    # the note for a card the engine filled in: the player's only one
    return _wf("note.only", NAMES[fill[1]], _wc(fill[2]))


def _hand(out, watch, n):
    # ASK_HOURGLASSES: where n hourglasses take the hand, what it does there
    sp = t42.SPACES[t42.landing(watch, n)]
    out.append(_wf("hand.moves" if n else "hand.stays", words.space(sp)))
    out.append(_wt("space.does." + sp))


# Frame sizes: MicroPython puts a function's frame on the heap when its
# arguments, locals and value stack come to more than 11 words (fewer with a
# try), at the price of a heap search on every call (~15K fuel, a small call
# costs ~3K). The functions a press runs stay under that: the questions are
# split by kind, each try has a small function of its own, and Menu and
# Picker are set up from the Round's fields (their __init__ takes seven
# arguments). What a screen calls back (the hints, the picker's lines) are
# methods bound once, not closures made per question.
class Round:
    __slots__ = (
        "app",
        "answers",
        "saved",
        "draft",
        "acted",
        "need",
        "winner",
        "notes",
        "screens",
        "calls",
        "fills",
        "title",
        "rows",
        "sel",
        "say",
        "text",
        "ready",
        "points",
        "copies",
    )

    def __init__(self, app):
        self.app = app
        self.answers = []  # what the players picked, in the order asked
        # per answer, four entries: a copy of the draft, acted, notes and
        # copies before it
        self.saved = []
        self.screens = [None, None]  # the Menu and the Picker, once made
        # bound once: answer, back; the bottom lines (_say, _act_hint,
        # _copy_hint) and the picker's lines (_say, _land)
        self.calls = (
            self.answer,
            self.back,
            self._say,
            self._act_hint,
            self._land,
            self.prepare,
            self._card_hint,
            self._copy_hint,
        )
        self.fills = []  # what a probe filled in without asking (t42.apply)
        # the question on screen, for _menu and _picker: its title, its
        # items or the picker's lines (one list, reused), the item or value
        # selected first, the menu's bottom line or the picker's lines (a
        # function of the value)
        self.title = ""
        self.rows = []
        self.sel = 0
        self.say = None
        self.text = None  # what _say gives (_act_hint: the effect's words)
        self.reset()

    def reset(self):
        """Ready for a new round."""
        del self.answers[:]
        del self.saved[:]
        self.draft = {}  # the round line being built
        self.acted = False  # the winner's action is in the draft
        self.copies = 0  # copied effects the players chose to apply (T42-COPY-4)
        self.need = None  # the question on screen: a t42.Need, or None for the action
        self.winner = -1
        self.notes = None  # what was filled in without asking, for the next screen
        self.ready = None  # the selected answer played between presses (prepare)
        self.points = 0  # what the winner won by (the action menu)

    # -- the next question ---------------------------------------------------
    def advance(self, ui):
        draft = self.draft
        if not self.acted and "blue" in draft and "pink" in draft:
            self._action(ui)  # no probe needed to know that
            return
        self._next(ui, self._probe())

    def _next(self, ui, need):
        # what the probe of the draft found: the next question, or the commit
        if _REFUSAL.exc is not None:
            # cannot happen with the offered options: say why, step back
            del self.fills[:]
            self._refused(ui, _REFUSAL.exc)
            return
        if self.fills:
            self._filled()
        if need is None:
            t42.settled(self.draft)  # committed as it is: no second play of the round
            self.commit(ui)
            return
        if need.kind == t42.ASK_ACTION:
            self._action(ui)
            return
        self.need = need
        ui.replace(self.question(need))

    def _probe(self):
        # -> the next Need, or None: complete (or refused: _REFUSAL.exc)
        with _REFUSAL:
            # T42-INPUT-1: the engine fills in the answers with one
            # possibility itself (in fills), so one probe serves a press
            return self.app.game.probe(self.draft, self.fills, not self.acted, self.copies)

    def _refused(self, ui, exc):
        # say why, BACK steps back
        ui.replace(Message(_wt("refused.title"), wrap(str(exc)), ok=self.back))

    def _filled(self):
        # the "blue: cat only" notes for the next screen
        fills = self.fills
        for i in range(len(fills)):
            if fills[i][0] == t42.ASK_CARD:
                note = _only(fills[i])
                self.notes = note if self.notes is None else self.notes + " " + note
        del fills[:]

    def _action(self, ui):
        # both cards known: the winner's action (T42-ROUND-2, -3)
        draft = self.draft
        self.winner = t42.round_winner(self.app.game.state.flamingo, draft["blue"], draft["pink"])
        self.need = None
        ui.replace(self.action_menu())

    def answer(self, ui, v):
        a = self.ready
        self.ready = None
        if a is not None and a.fits(self, v):
            a.answer(self, ui)  # made ahead (ui_t42_ahead)
            return
        need = self.need
        saved = self.saved
        saved.append(_clone(self.draft))
        saved.append(self.acted)
        saved.append(self.notes)
        saved.append(self.copies)
        self.notes = None  # said on the screen after the fill only
        self.answers.append(v)
        if need is None:
            _act(self.draft, v)
            self.acted = True
        elif need.kind == t42.ASK_COPY and not v:
            self.copies += 1  # applied: counted, not written (T42-COPY-4)
        else:
            if need.kind == t42.ASK_STARS:
                _last_stars(self.app.game)[_stars_key(need)] = v
            _fill(need, v)  # a declined copy: {"decline": true}
        self.advance(ui)

    def back(self, ui):
        """BACK: one question back; at the first question the round is dropped."""
        self.ready = None
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
        _recall(ui.top(), v)  # the cursor on the answer given before

    # -- made ahead, between presses ---------------------------------------------------
    def prepare(self, app):
        """The question screens' prepare (app.App idle work): the answer
        selected played ahead (ui_t42_ahead, loaded only then: at the 96 KB
        cap the code would not fit). -> True if it played one."""
        if not app.roomy():
            return False
        from teatally import ui_t42_ahead

        return ui_t42_ahead.prepare(self, app)

    # -- what the screens call back ---------------------------------------------------
    def _hint(self, say):
        # the menu's bottom line (the notes go above it: _menu)
        return say

    def _say(self, v):
        # the same bottom line (or the picker's lines) for every option
        return self.text

    def _act_hint(self, v):
        # the action menu's bottom line (text: the winner's effect in words;
        # sel: the points won by, T42-BUY-1): for a buy, the purchase rule
        if v == "effect":
            return self.text
        if v == "none":
            return _wt("act.none.hint")
        return _cost(v, self.points)

    def _card_hint(self, v):
        # a card question's bottom line: how many of the draw pile's cards
        # are this one (the "x2" of the label), when the counts are exact
        draw = self.app.game.state.players[self.need.who].draw
        return _wf("card.hint", draw.get(v, 0), self.app.game.state.players[self.need.who].draw_count())

    def _copy_hint(self, v):
        # the copy question's bottom line (text: the copied effect in words)
        if not v:
            return self.text
        return _wt("copy.decline.hint")

    def _land(self, n):
        # ASK_HOURGLASSES (T42-WATCH-1, -2): where the hand would land
        # (need.watch: where the action left it, a cat may have moved it)
        out = self.rows
        del out[:]
        if self.notes:
            out.extend(wrap(self.notes))
        _hand(out, self.need.watch, n)
        return out

    # -- the screens ------------------------------------------------------------
    def action_menu(self):
        d = self.draft
        w = self.winner
        card = d["blue"] if w == 0 else d["pink"]
        points = t42.VALUE[card] - t42.VALUE[d["pink"] if w == 0 else d["blue"]]  # T42-BUY-1
        self._action_rows(card, points)
        if points:
            self.title = _wf("win.by", NAMES[w], points)
        else:
            self.title = _wf("win.tie", NAMES[w])  # the flamingo's holder (T42-ROUND-2)
        self.text = _wt("effect." + card)
        self.say = self._hint(self.calls[3])
        # selected first: the dearest buy the winner can afford, else the
        # effect (what players choose most: measured on the bench's games)
        self.sel = 1 if len(self.rows) > 2 else 0
        self.points = points  # (for _act_hint: the buys' cost)
        return self._menu()

    def _action_rows(self, card, points):
        # the effect, the buys the winner can afford, nothing (T42-ROUND-3)
        rows = self.rows
        del rows[:]
        rows.append((_wf("act.effect", _wc(card)), "effect"))
        s = self.app.game.state
        _buy_rows(rows, s, points, s.players[self.winner].tarts)
        rows.append((_wt("act.none"), "none"))

    def question(self, need):
        kind = need.kind
        if kind == t42.ASK_CARD:
            return self._ask_card(need)
        if kind == t42.ASK_PILE:
            return self._ask_pile(need)
        if kind == t42.ASK_SPACE:
            return self._ask_space(need)
        if kind == t42.ASK_TAKE:
            return self._ask_take(need)
        if kind == t42.ASK_STARS:
            return self._ask_stars(need)
        if kind == t42.ASK_COPY:
            return self._ask_copy(need)
        return self._ask_hourglasses(need)

    def _ask_card(self, need):
        who = need.who
        top = need.params is self.draft  # the round's own reveal: counts are exact
        draw = self.app.game.state.players[who].draw
        rows = self.rows
        del rows[:]
        _card_rows(rows, _arranged(need.options, draw), draw if top else None)
        self.sel = len(rows) // 2
        if top:
            self.title = _REVEALS[who]
            self.say = self._hint(self.calls[6])
        else:
            self.title = words.label(need.what)
            self.text = _wf("card.whose", NAMES[who])
            self.say = self._hint(self.calls[2])
        return self._menu()

    def _ask_pile(self, need):
        _pile_rows(self.rows, need.options)
        self.title = _wf("ask.pile", words.label(need.what, 24 - len(_wt("ask.pile"))))
        self.sel = 0
        self.text = _wt("pile.hint")
        self.say = self._hint(self.calls[2])
        return self._menu()

    def _ask_space(self, need):
        _space_rows(self.rows, need.options)
        self.title = _wt("ask.space")
        self.sel = 0
        self.say = self._hint(_space_says)
        return self._menu()

    def _ask_take(self, need):
        rows = self.rows
        del rows[:]
        rows.append((_wt("take.flamingo"), "flamingo"))
        rows.append((_wt("take.tarts"), "tarts"))
        self.title = _wf("ask.take", NAMES[need.who])
        self.sel = 1 if self.app.game.state.flamingo == need.who else 0
        self.say = self._hint(None)
        return self._menu()

    def _ask_copy(self, need):
        # T42-COPY-4: the copied effect, or decline it; the first answer
        # says what the copy does (the card: the label's last word), the
        # second the notes of what was filled in, if any
        card = _last_word(need.what)
        rows = self.rows
        del rows[:]
        rows.append((_wf("copy.apply", _wc(card)), False))
        rows.append((_wt("copy.decline"), True))
        self.title = _COPIES[need.who]
        self.sel = 0
        self.text = _wt("effect." + card)
        self.say = self.calls[7]
        return self._menu()

    def _ask_stars(self, need):
        # the same for every value: made once, for this question
        lines = self.rows
        del lines[:]
        if self.notes:
            lines.extend(wrap(self.notes))
        key = _stars_key(need)
        lines.extend(wrap(_wf("stars.on", _wc(key)) if key in t42.VALUE else _wt("stars.revealed")))
        self.text = lines
        self.title = _wt("ask.stars")
        self.sel = _last_stars(self.app.game).get(_stars_key(need), 0)
        self.say = self.calls[2]
        return self._picker(need.options)

    def _ask_hourglasses(self, need):
        self.title = _HOURGLASSES[need.who]
        self.sel = 0
        self.say = self.calls[4]
        return self._picker(need.options)

    def _tag(self, screen):
        # lets a test driver (or the simulator) see which round a screen asks for
        screen.round = self
        return screen

    def _menu(self):
        # the Menu for the question set up in title, rows, sel and say
        if self.screens[0] is None:
            self.screens[0] = self._tag(Menu(self.title, self.rows, self.calls[0], self.calls[1], self.sel, self.say))
            self.screens[0].prepare = self.calls[5]  # type: ignore[attr-defined]  # app.App idle work
        else:
            Menu.__init__(self.screens[0], self.title, self.rows, self.calls[0], self.calls[1], self.sel, self.say)
        self.screens[0].note = wrap(self.notes) if self.notes else None  # type: ignore[attr-defined]
        return self.screens[0]

    def _picker(self, lo_hi):
        # the Picker from lo to hi for the question set up in title, sel
        # (the first value) and say (its lines); describe and back are set
        # apart from __init__ (seven arguments would need a heap frame)
        if self.screens[1] is None:
            self.screens[1] = self._tag(Picker("", 0, 0, 0, None))
            self.screens[1].prepare = self.calls[5]  # type: ignore[attr-defined]  # app.App idle work
        Picker.__init__(self.screens[1], self.title, lo_hi[0], lo_hi[1], self.sel, self.calls[0])
        self.screens[1].describe = self.say  # type: ignore[attr-defined]
        self.screens[1].back = self.calls[1]  # type: ignore[attr-defined]
        return self.screens[1]

    # -- the commit -----------------------------------------------------------------
    def commit(self, ui):
        before = self.app.game.state
        after = self._commit()
        if after is None:
            self._refused(ui, _REFUSAL.exc)
            return
        lines = notices(before, after, self.winner)
        if lines and after.over:
            # the game ends: the final scoring is built when the notice is
            # read, not on this press (the commit's, already the dearest)
            ui.reset(_notice(after, lines, show_final))
            return
        show_game(ui, None)
        if len(lines) == 2:
            # one player's reshuffle: said on the board until the next key
            # (no press to read it); more goes on a screen of its own
            ui.top().toast = (lines[0], lines[1])
        elif lines:
            # read, they give way to the board below
            ui.push(_notice(after, lines, None))

    def _commit(self):
        # -> the state after the round, written to the journal (its text
        # made ahead, if prepare did); None if refused (_REFUSAL.exc)
        text = _LINE[1] if _LINE[0] is self.draft else None
        _LINE[0] = _LINE[1] = None
        with _REFUSAL:
            return self.app.commit(self.draft, text)  # one journal line


class _Catch:
    """`with _REFUSAL:` keeps a t42.Refused in .exc instead of raising it.
    A with fits a small frame where `except t42.Refused as exc` would not:
    the `as` takes a second exception-stack entry (see Round)."""

    __slots__ = ("exc",)

    def __enter__(self):
        self.exc = None

    def __exit__(self, t, v, tb):
        if isinstance(v, t42.Refused):
            self.exc = v
            return True
        return False


_REFUSAL = _Catch()
_LINE = [None, None]  # a line made ahead and its journal text (see _commit)


def _notice(after, lines, ok):
    # what to do on the table after the round (notices)
    m = Message(_wf("notice.title", after.round), lines, ok=ok)
    if ok is show_final:
        m.needs = END_NEEDS  # type: ignore[attr-defined]  # read by app.App.wanted
    return m


def _card_rows(rows, options, draw):
    # the card options, each with its count in the draw pile when the counts
    # are exact (draw; else None)
    for j in range(len(options)):
        rows.append(_card_item(options[j], draw))


def _card_item(c, draw):
    n = draw.get(c, 0) if draw is not None else 0
    return _counted(_CARD_ITEM[c], n) if n > 1 else _CARD_ITEM[c]


def _arranged(options, draw):
    """The card options as the menu lists them: the likeliest (the most of
    it in the draw pile) in the middle, selected first, the next likeliest
    below it, the next above, and so on outwards, so that the card revealed
    is few presses away either way round (the menu wraps). Cards as likely
    as each other keep value order among their places (all equally likely:
    plain value order, the middle one selected)."""
    ranked = _ranked(options, draw)
    out = [None] * len(options)
    a = 0
    while a < len(out):
        b = _tied(ranked, draw, a)
        _place(out, ranked, a, b)
        a = b
    return out


def _ranked(options, draw):
    # the options, likeliest first (equal counts in value order)
    ranked = []
    taken = [False] * len(options)
    while len(ranked) < len(options):
        j = _likeliest(options, draw, taken)
        taken[j] = True
        ranked.append(options[j])
    return ranked


def _tied(ranked, draw, a):
    # the end of the run of ranked cards as likely as ranked[a]
    b = a + 1
    while b < len(ranked) and draw.get(ranked[b], 0) == draw.get(ranked[a], 0):
        b += 1
    return b


def _place(out, ranked, a, b):
    # ranks a .. b - 1 (as likely as each other): their places from the
    # middle, filled in value order
    places = []
    k = a
    while k < b:
        places.append((len(out) // 2 + _offset(k)) % len(out))
        k += 1
    places.sort()
    k = a
    while k < b:
        out[places[k - a]] = ranked[k]
        k += 1


def _offset(k):
    # the k-th likeliest's place from the middle: 0, +1, -1, +2, -2, ...
    return (k + 1) // 2 if k & 1 else -(k // 2)


def _likeliest(options, draw, taken):
    # the index of the option not yet taken that the draw pile holds most of
    best = -1
    j = -1
    i = 0
    while i < len(options):
        if not taken[i] and draw.get(options[i], 0) > best:
            best = draw.get(options[i], 0)
            j = i
        i += 1
    return j


def _pile_rows(rows, options):
    # "4 executioner" for pile 4 (bytes: no new str)
    del rows[:]
    for i in range(len(options)):
        rows.append(_pile_item(options[i]))


def _pile_item(v):
    return (_wf("pile.item", v, _wc(t42.PILE_CARD[v])), v)


def _space_rows(rows, options):
    del rows[:]
    for i in range(len(options)):
        rows.append((options[i], options[i]))


def _buy_rows(rows, s, points, tarts):
    # the buys the winner can afford (T42-BUY-2; as t42.buy_options, without
    # its list of tuples), dearest first; the piles are 4 to 8 (t42.PILES),
    # a range of constants takes the fewest frame words
    for v in range(8, 3, -1):  # the dearest first: the likeliest buy
        if s.pile(v) and t42.buy_cost(v, points) <= tarts:
            rows.append(_buy_item(v, points))


def _buy_item(v, points):
    # "Buy 6: caterpillar" (its cost on the bottom line: _cost)
    return (_BUYS[v - 4], v)


_BUYS = tuple([_wf("act.buy", v, _wc(t42.PILE_CARD[v])) for v in t42.PILES])


def _cost(v, points):
    # the purchase rule for pile v won by points (T42-BUY-2): its value less
    # the points, never below nothing
    cost = t42.buy_cost(v, points)
    if cost == 0:
        return _wf("buy.free", points)
    return _wf("buy.cost", v, points, _wn("n.tarts", cost))


def _space_says(v):
    return _wt("space.does." + v)


def _recall(screen, v):
    # BACK: the question asked again with the cursor on the answer given
    # before (a menu's item, a picker's value)
    items = getattr(screen, "items", None)
    if items is not None:
        i = 0
        while i < len(items):
            if items[i][1] == v:
                screen.sel = i
                return
            i += 1
    elif getattr(screen, "value", None) is not None and screen.lo <= v <= screen.hi:
        screen.value = v


def _clone(o):
    # a copy of the draft deep enough that no answer reaches into it
    t = type(o)
    if t is dict:
        return _clone_dict(o)
    if t is list:
        return _clone_list(o)
    return o


_NESTED = (dict, list)


def _clone_dict(o):
    c = dict(o)
    for k in o:
        if type(o[k]) in _NESTED:
            c[k] = _clone(o[k])
    return c


def _clone_list(o):
    c = list(o)
    for i in range(len(o)):
        if type(o[i]) in _NESTED:
            c[i] = _clone(o[i])
    return c


def _act(draft, v):
    """Write the winner's action into the round line (T42-ROUND-3)."""
    if v == "effect":
        draft["effect"] = {}
    elif v != "none":
        draft["buy"] = v


def _fill(need, v):
    _fill_in(need.params, need.key, v)


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
    rabbits = _reshuffled(out, w, before, after, rabbits)
    _reshuffled(out, 1 - w, before, after, rabbits)
    if after.end is not None and before.end is None:
        out.extend(wrap(_wt("end.rabbits" if after.end == "rabbits" else "end.piles")))
    return out


def _reshuffled(out, p, before, after, rabbits):
    # player p's reshuffle, if any: the notice and the rabbit it took.
    # -> the rabbits left
    if _reshuffles(before.players[p], after.players[p]):
        if rabbits > 0:
            out.append(_wf("shuffle.rabbit", NAMES[p]))
            out.append(_wt("shuffle.rabbit2"))
            return rabbits - 1
        out.append(_wf("shuffle.norabbit", NAMES[p]))
        out.append(_wt("shuffle.norabbit2"))
    return rabbits


def _reshuffles(b, a):
    # a draw pile only grows by a reshuffle, and a discard pile only shrinks
    # by one (the revealed card makes up for the destroy space)
    return len(a.discard) < len(b.discard) or a.draw_count() >= b.draw_count()
