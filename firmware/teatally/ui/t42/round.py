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
that question (start). Screen text comes from teatally.words.

A player's habits are the interface (issue 30): every list a question
shows is in a fixed order (rows: cards in value order, piles in value
order, spaces clockwise; action_rows: the effect, the buys from the
dearest, nothing), and its cursor starts by a fixed rule (first_row: a
card revealed from a draw pile on the likeliest one, the engine knowing
the pile; everything else on the first row; a number on 0), never on an
answer just taken back (BACK) or undone (the undone round, the game's
redo line: avoided). Nothing is remembered from earlier rounds, so the
same journal and keys give the same record with or without a restart."""

from teatally import words
from teatally.buttons import E_PRESS, K_OK
from teatally.rules import t42
from teatally.ui.core import Menu, Message, Picker, Screen, fits, wrap
from teatally.ui.t42.words import NAMES

# the card options as menu items ("caterpillar 6"), made once
_CARD_ITEM = {}
for _c in t42.CARDS:
    _CARD_ITEM[_c] = (words.f("card.item", words.card(_c), t42.VALUE[_c]), _c)
_REVEALS = (words.f("ask.reveals", NAMES[0]), words.f("ask.reveals", NAMES[1]))
_HOURGLASSES = (words.f("ask.hourglasses", NAMES[0]), words.f("ask.hourglasses", NAMES[1]))
_COPIES = (words.f("ask.copies", NAMES[0]), words.f("ask.copies", NAMES[1]))

def _counted(item, n):
    # a card's item with its count in the pile: "king 7 x3"
    return (item[0] + " x%d" % n, item[1])


def rows(need):
    """The options of a question (a t42.Need, not a number: those are
    picked over need.options = (lo, hi)) as every screen lists them, in a
    fixed order: (label, value) rows. Cards in value order (t42.CARDS: the
    rulebook's values, the cat before the rabbit), each with its count in
    the pile it comes from when there are two or more ("king 7 x2"); piles
    in value order (4..8); the watch's spaces clockwise from 12 o'clock
    (t42.SPACES); the king's take: the flamingo, then 2 tarts; a copy:
    apply, then decline. The winner's action: action_rows."""
    kind = need.kind
    if kind == t42.ASK_CARD:
        return _card_rows(need.options, need.pile)
    if kind == t42.ASK_PILE:
        return [(words.f("pile.item", v, words.card(t42.PILE_CARD[v])), v) for v in need.options]
    if kind == t42.ASK_SPACE:
        return [(words.space(sp), sp) for sp in need.options]
    if kind == t42.ASK_TAKE:
        return [(words.t("take.flamingo"), "flamingo"), (words.t("take.tarts"), "tarts")]
    # ASK_COPY: the copied effect (the card: the label's last word), or decline it
    card = _last_word(need.what)
    return [(words.f("copy.apply", words.card(card)), False), (words.t("copy.decline"), True)]


def first_row(need, listed):
    """Where a list's cursor starts (listed: rows(need), or the card names):
    a card revealed from a draw pile on the likeliest one (the most of it
    in the pile, the first of equals: the engine knows each draw pile);
    every other list on its first row."""
    pile = need.pile
    if need.kind != t42.ASK_CARD or type(pile) is not dict:
        return 0
    best = 0
    most = 0
    for i in range(len(listed)):
        v = listed[i]
        n = pile.get(v if type(v) is str else v[1], 0)
        if n > most:
            best = i
            most = n
    return best


def avoided(listed, sel, v):
    """The start sel moved off v, an answer taken back or undone (never the
    default again): to the next row down (wrapping) that is not v and does
    not spend (an action's buy: an int); sel itself if v is not there."""
    n = len(listed)
    if n < 2 or listed[sel][1] != v:
        return sel
    for k in range(1, n):
        i = (sel + k) % n
        w = listed[i][1]
        if w != v and type(w) is not int:
            return i
    return sel


def start(ui, ev=None):
    """Begin a round on top of the status board; the key ev (the board's
    OK, UP or DOWN) then goes to its first question, which the board shows
    (opening): OK takes the answer selected first."""
    asked = ev is not None and ui.app.mend is None and first_question(ui.app) is not None
    ui.push(Screen())  # the round's slot on the stack; replaced by its questions
    r = Round(ui.app)
    r.guide = ui.app.mend
    if r.advance(ui, ev if asked else None):
        return  # the key answered the first question (its screen not made)
    if asked and getattr(ui.top(), "round", None) is r:
        ui.top().key(ui, ev)


# The status board's last line for the state _OPEN[0] (and the undone
# line _OPEN[5]), and the question it shows (None: not a card): one probe a
# state. The line asks player _OPEN[3] about card _OPEN[4] in the keys of
# layout _OPEN[6]: the same question as the state before keeps its text.
# Speed, first light (issue 24): without the memo computing p95 +0.6 ms,
# first light proxy 25.4 ms > 25; without keeping the text +0.4 ms, 25.2 ms.
_OPEN = [None, None, None, None, None, None, None]


def forget():
    """Let go of the last game's state and texts (the game is archived: the
    home menu's heap, heap_live_peak_bytes)."""
    for i in range(len(_OPEN)):
        _OPEN[i] = None


def opening(app):
    """The status board's last line: the next round's first question and
    the answer OK gives there (the likeliest card, selected first), e.g.
    "Blue: dormouse? OK"."""
    _open(app.game)
    return _OPEN[1]


def first_question(app):
    """The question the board's OK, UP and DOWN act on: (need, its cards in
    value order, the index selected first: first_row, off the undone
    round's card), or None when the board only opens the round."""
    _open(app.game)
    return _OPEN[2]


def undone(game):
    """The round line the players just undid (the game's next redo), whose
    answers are never the default again, or None."""
    r = game.redo_stack
    if r and "adjust" not in r[-1]:
        return r[-1]
    return None


def _open(game):
    gone = undone(game)
    if _OPEN[0] is not game.state or _OPEN[5] is not gone:
        need = _first_need(game)
        if need is None or need.kind != t42.ASK_CARD:
            _OPEN[1] = words.k("board.play")
            _OPEN[2] = _OPEN[3] = _OPEN[4] = None
        else:
            who = need.who
            listed = need.options
            sel = first_row(need, listed)
            if gone is not None:
                sel = _off(listed, sel, gone.get(need.key))
            need.pile = None  # (not kept with the board: only the card is shown)
            _OPEN[2] = (need, listed, sel)
            card = listed[sel]
            if _OPEN[3] != who or _OPEN[4] != card or _OPEN[6] != words.LAYOUT[0]:
                _OPEN[1] = words.k("board.next", NAMES[who], words.card(card))
                _OPEN[3] = who
                _OPEN[4] = card
                _OPEN[6] = words.LAYOUT[0]
        _OPEN[0] = game.state
        _OPEN[5] = gone


def _off(names, sel, v):
    # avoided() for a list of card names: the next one that is not v
    if names[sel] == v and len(names) > 1:
        return (sel + 1) % len(names)
    return sel


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
        self.notes = None  # what was filled in without asking, for the next screen
        self.lines = []  # the picker's lines (_land)
        self.said = {}  # what a copy space copies, per question (_copy_says)
        self.text = None  # what _say gives (_act_hint: the effect's words)
        self.taken = None  # the answer BACK took back, for the question asked again (_start)
        self.back_to = False  # a question asked again by BACK
        # a recover.Mend while a damaged round is entered again: it prefills
        # and narrows the answers (recover.Mend.shape reads rows and sel),
        # and the commit is its (App.commit)
        self.guide = None
        self.rows = []
        self.sel = 0

    # -- the next question ---------------------------------------------------
    def advance(self, ui, ev=None):
        """Ask the next question, or commit the round when it is complete.
        ev: the board's key that opened the round (start), for the first
        question: when it picks an answer (OK, the keypad's keys), that
        answer is taken as the question's screen would take it, and the
        screen is not made (full_frame_p95_ms on the keypad board: the
        board's key made a whole list only for it to be replaced in the
        same press). -> True when ev was taken."""
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
            self.said = {}
            v = self._picked(need, ev) if ev is not None else None
            if v is not None:
                self.answer(ui, v)
                return True
            q = self.question(need)
            if self.guide is not None and _one_answer(q):
                # a damaged round narrowed to one answer: not asked (issue
                # 30: no "use hourglasses 0..0"); like the engine's fills,
                # not one of the answers BACK steps through
                self._only(ui, q.lo if isinstance(q, Picker) else q.items[0][1])
                return
            ui.replace(q)

    def _picked(self, need, ev):
        # the card the board's key ev picks on the first question need, as
        # its menu would (_ask_card; ui.keypad.KeyMenu): OK the card it
        # starts on, a keypad key its card; None for any other key (UP,
        # DOWN, a key no card answers: the screen is made, the key on it)
        if need.kind != t42.ASK_CARD or self.guide is not None:
            return None
        listed = [_CARD_ITEM[c] for c in need.options]  # (the counts are only shown)
        if ev == E_PRESS | K_OK:
            return listed[avoided(listed, first_row(need, listed), self._avoid())][1]
        if self.app.keys.layout != "keypad":
            return None
        from teatally.ui import keypad

        b = keypad.keyed(ev)
        if b < 0:
            return None
        keys = keypad.answer_keys(t42.ASK_CARD, listed)
        for i in range(len(keys)):
            if keys[i] & (1 << b):
                return listed[i][1]
        return None

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
        self.said = {}
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
        elif need.kind == t42.ASK_COPY and not v:
            self.copies += 1  # applied: counted, not written (T42-COPY-4)
        else:
            _fill_in(need.params, need.key, v)  # a declined copy: {"decline": true}
        self.advance(ui)

    def _only(self, ui, v):
        # the one answer a mend leaves, written in without asking
        need = self.need
        if need.kind == t42.ASK_COPY and not v:
            self.copies += 1
        else:
            _fill_in(need.params, need.key, v)
        self.advance(ui)

    def back(self, ui):
        """BACK: one question back, asked again with its cursor where it
        always starts, but never on the answer taken back (avoided); at the
        first question the round is dropped."""
        if not self.answers:
            ui.pop()
            return
        saved = self.saved
        self.taken = self.answers.pop()
        self.back_to = True
        self.copies = saved.pop()
        self.notes = saved.pop()
        self.acted = saved.pop()
        self.draft = saved.pop()
        self.advance(ui)
        self.back_to = False

    def _avoid(self):
        # the answer the question on screen must not start on: the one BACK
        # took back, else the undone round's (recover.hinted reads it as a
        # mend reads a damaged line), else None
        if self.back_to:
            return self.taken
        gone = undone(self.app.game) if self.guide is None else None
        if gone is None:
            return None
        return _answer_in(gone, self.draft, self.need)

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
                if v[1] == "copy":
                    d = _clone(self.draft)
                    _act(d, v)
                    return self._copy_says("act", d)
                return words.t("space.does." + v[1])
            if v[0] == "take":
                return words.t("take.does." + v[1])  # (the holder's king: tarts only)
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
        if not n:
            # no hourglass: the hand stays and nothing happens (T42-WATCH-1)
            out.append(words.t("hand.stays"))
            out.append(words.t("hand.none"))
            return out
        sp = t42.SPACES[t42.landing(self.need.watch, n)]
        out.append(words.f("hand.moves", words.space(sp)))
        if sp == "copy":
            d = _clone(self.draft)
            d[self.need.key] = n
            out.extend(wrap(self._copy_says(n, d)))
        else:
            out.append(words.t("space.does." + sp))
        return out

    def _copy_says(self, at, d):
        """What a copy space does in the draft d: it names the card copied
        (the engine's copy question asks about it, T42-COPY-1, -4), or says
        there is nothing to copy (T42-COPY-2). One probe, kept per at (the
        hourglasses, or the action's row) for this question."""
        said = self.said.get(at)
        if said is None:
            try:
                need = self.app.game.probe(d, [], False, self.copies)
            except t42.Refused:
                need = None
            if need is not None and need.kind == t42.ASK_COPY:
                said = words.f("copy.card", words.card(_last_word(need.what)))
            else:
                said = words.t("copy.none")
            self.said[at] = said
        return said

    # -- the screens ------------------------------------------------------------
    def action_menu(self):
        d = self.draft
        w = self.winner
        card = d["blue"] if w == 0 else d["pink"]
        points = t42.VALUE[card] - t42.VALUE[d["pink"] if w == 0 else d["blue"]]  # T42-BUY-1
        s = self.app.game.state
        # the keypad: "#" the effect, its first choice asked next by its own
        # keys (a queen's pile 4-8 would be a buy's keys); the king's takes
        # keep their keys 1 and 2 (ui.keypad.answer_keys)
        listed = action_rows(s, w, card, points, s.players[w].tarts, self.app.keys.layout != "keypad")
        self.text = _effect_says(card, 1 - w)
        self.points = points
        if points:
            title = words.f("win.by", NAMES[w], points)
        else:
            title = words.f("win.tie", NAMES[w])  # the flamingo's holder (T42-ROUND-2)
        # selected first: the first row, the card's effect (with its first
        # choice), which spends nothing (a buy spends tarts)
        return self._menu(title, listed, 0, self._act_hint)

    def question(self, need):
        kind = need.kind
        if kind == t42.ASK_CARD:
            return self._ask_card(need)
        if kind == t42.ASK_PILE:
            return self._ask_pile(need)
        if kind == t42.ASK_SPACE:
            return self._menu(words.t("ask.space"), rows(need), 0, _space_says)
        if kind == t42.ASK_TAKE:
            return self._menu(words.f("ask.take", NAMES[need.who]), rows(need), 0, None)
        if kind == t42.ASK_STARS:
            return self._ask_stars(need)
        if kind == t42.ASK_COPY:
            return self._ask_copy(need)
        # ASK_HOURGLASSES: from 0, none spent
        return self._picker(_HOURGLASSES[need.who], need.options, 0, self._land)

    def _ask_pile(self, need):
        self.text = words.t("pile.hint")
        label = words.label(need.what)
        title = words.f("ask.pile", label)
        if not fits(title):
            title = label  # the piles listed say what is asked
        return self._menu(title, rows(need), 0, self._say)

    def _ask_stars(self, need):
        # the same lines for every value: made once, for this question
        lines = []
        if self.notes:
            lines.extend(wrap(self.notes))
        key = _stars_key(need)
        if key in t42.VALUE:
            title = words.f("ask.stars.on", words.card(key))
            lines.extend(wrap(words.t("stars.on")))
        else:
            title = words.t("ask.stars")
            lines.extend(wrap(words.t("stars.revealed")))
        self.text = lines
        # from 0, never from an earlier answer
        return self._picker(title, need.options, 0, self._say)

    def _ask_copy(self, need):
        # T42-COPY-4: the copied effect (the card: the label's last word), or
        # decline it; the bottom line says what the copy does
        self.text = _effect_says(_last_word(need.what), 1 - need.who)
        return self._menu(_COPIES[need.who], rows(need), 0, self._copy_hint)

    def _ask_card(self, need):
        who = need.who
        listed = rows(need)
        sel = first_row(need, listed)
        if need.params is self.draft:
            # the round's own reveal
            return self._menu(_REVEALS[who], listed, sel, self._card_hint)
        # the destroy space picks from a discard pile, the others take a
        # draw pile's top card (guards, executioner, reveal)
        whose = "card.discard" if _last_word(need.what) == "destroy" else "card.whose"
        self.text = words.f(whose, NAMES[who])
        return self._menu(words.label(need.what), listed, sel, self._say)

    def _menu(self, title, listed, sel, hint):
        sel = avoided(listed, sel, self._avoid())
        if self.guide is not None:
            # a damaged round: narrowed to what the later lines allow, prefilled
            self.rows = listed
            self.sel = sel
            self.guide.shape(self)
            sel = self.sel
        if self.app.keys.layout == "keypad":
            # the keypad's keys by meaning (ui.keypad: loaded on that board only)
            from teatally.ui import keypad

            keys = keypad.answer_keys(self.need.kind if self.need is not None else t42.ASK_ACTION, listed)
            m = keypad.KeyMenu(title, listed, self.answer, self.back, sel, hint, keys)
        else:
            m = Menu(title, listed, self.answer, self.back, sel, hint)
        m.round = self  # type: ignore[attr-defined]
        m.note = wrap(self.notes) if self.notes else None  # type: ignore[attr-defined]
        return m

    def _picker(self, title, lo_hi, value, describe):
        # never on an answer taken back or undone, unless every other value
        # spends (the hourglasses: 0 stays)
        if value == self._avoid() and self.need.kind == t42.ASK_STARS and value < lo_hi[1]:
            value += 1
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


def _one_answer(q):
    # a question (Menu or Picker) with one answer to choose
    if isinstance(q, Picker):
        return q.lo == q.hi
    return len(q.items) == 1


def _show_game(ui):
    ui.app.show_game()


def _notice(after, lines, ok):
    # what to do on the table after the round (notices)
    return Message(words.f("notice.title", after.round), lines, ok=ok)


def _card_rows(listed, pile):
    # the menu's items for the cards listed, with their counts in the pile
    # ("king 7 x3": a draw pile card -> count, or a discard pile's list) if
    # given
    out = [None] * len(listed)
    i = 0
    while i < len(out):
        c = listed[i]
        out[i] = _CARD_ITEM[c]
        if pile is not None:
            n = pile.get(c, 0) if type(pile) is dict else pile.count(c)
            if n > 1:
                out[i] = _counted(out[i], n)
        i += 1
    return out


def action_rows(s, w, card, points, tarts, folded=True):
    """The winner's action menu's rows, in a fixed order (T42-ROUND-3): the
    card's effect (_effect_rows: with its first choice where it has one),
    the buys the winner can afford from the dearest down (T42-BUY-2), then
    nothing. It starts on its first row (spends nothing). Not folded (the
    keypad): one effect row for every card but the king, its first choice
    asked next."""
    if folded or card == "king":
        out = _effect_rows(s, card, w)
    else:
        out = [(words.f("act.effect", words.card(card)), "effect")]
    _buy_rows(out, s, points, tarts)
    out.append((words.t("act.none"), "none"))
    return out


def _effect_says(card, foe):
    # a card's effect in words, naming the foe where it acts on them
    # ("Pink loses top card")
    return words.f("effect." + card, NAMES[foe])


def _effect_rows(s, card, w):
    """The action menu's rows for the winner's effect (T42-CARD-*): with its
    first choice folded in where it starts with one of two or more (the
    king's take, the pile the queen or a rabbit destroys, the space the cat
    moves the hand to; issue 26: one question and its OK fewer, and BACK
    from the question after still comes back here), else "Effect: guards"."""
    if card == "king":
        # the flamingo is not offered to its holder: taking it does nothing
        take = [] if s.flamingo == w else [(words.t("act.flamingo"), ("take", "flamingo"))]
        take.append((words.t("act.tarts"), ("take", "tarts")))
        return take
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


def _answer_in(line, draft, need):
    """The round line's answer to need (asked of draft; None: the winner's
    action, as the action menu offers it), or None: read as a mend reads a
    damaged line (recover.hinted; that module is rare, not loaded for an
    undo)."""
    if need is None:
        if "buy" in line:
            return line["buy"]
        e = line.get("effect")
        if e is None:
            return "none"
        for k in ("space", "take", "pile"):  # (a cat's space before the keys of what it plays)
            if k in e:
                return (k, e[k])
        return "effect"
    src = _follow(line, draft, need.params)
    if type(src) is not dict:
        return None
    if need.kind == t42.ASK_COPY:
        return src.get("decline") is True
    v = src.get(need.key)
    if type(v) is list:
        i = len(need.params.get(need.key) or ())
        v = v[i] if i < len(v) else None
    return v


def _follow(line, d, target):
    # what line holds where the dict target is within d (by identity)
    if d is target:
        return line
    if type(line) is dict:
        for k in d:
            if type(d[k]) is dict:
                got = _follow(line.get(k), d[k], target)
                if got is not None:
                    return got
    return None


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
