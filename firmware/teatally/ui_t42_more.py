# The game menu's Tea for 2 screens: the history of the journal lines and
# manual adjustment (T42-INPUT-2).
#
# Loaded only while the game menu is open: it names this module in its
# `needs` (ui_t42), so the main loop loads it between key presses, before
# the player can pick an entry. Rule IDs refer to seeds/tea-for-2.md.

from teatally import t42
from teatally.ui import Menu, Message, Picker, wrap
from teatally.ui_t42 import NAMES, SHORT, after_undo, final_screen


def action_hint(action):
    """What the winner did: "P: buy 6 h2", "B: effect", "tie: -" ..."""
    if "adjust" in action:
        return _adjust_hint(action["adjust"])
    return _round_hint(action).decode()


# The history's hint is made on every key press in it: as bytes (fb.text
# draws them; a new str searches the interned strings, see ui.py), by
# functions small enough for frames on MicroPython's C stack (more than 11
# words of arguments, locals and value stack go on the heap, a heap search
# a call), with formats of two values (a tuple of three is two blocks of
# heap: a search too).
def _round_hint(action):
    # a round line's hint, bytes
    vb = t42.VALUE.get(action.get("blue"), 0)
    vp = t42.VALUE.get(action.get("pink"), 0)
    who = b"B" if vb > vp else b"P" if vp > vb else b"tie"
    if "buy" in action and "effect" not in action:
        who = b"%s: buy %d" % (who, action["buy"])  # a pile: an int (the engine's check)
    else:
        who = b"%s: %s" % (who, b"effect" if "effect" in action else b"-")
    vb = action.get("hourglasses", 0)
    return who + b" h%d" % vb if vb else who


def _adjust_hint(adj):
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


# -- history --------------------------------------------------------------------
def history(game):
    """Every journal line in words, newest selected; OK shows the line itself."""
    if not len(game.actions):
        return Menu("History", [("(no rounds yet)", -1)], _leave)
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
            d = self.ahead = (i, _detail(self[i][0].decode(), self.acts[i]))
        d[1].top = 0  # (shown before: from its first line again)
        ui.push(d[1])

    def prepare(self, i):
        # line i's detail, made ahead -> True if it made it
        if self.ahead is not None and self.ahead[0] == i:
            return False
        self.ahead = None  # (its heap free for the next)
        self.ahead = (i, _detail(self[i][0].decode(), self.acts[i]))
        return True


def _prepare(app):
    # the history's idle work (app.App): the selected line's detail made
    # ahead, so that OK only shows it (a long line's JSON text, wrapped, is
    # more than a key press's work). Out of memory (app._made_ahead): OK
    # makes it.
    return _ROWS.prepare(_HISTORY.sel)


def _label(tags, i):
    # ui_t42.action_label's words for line i, from its tag (t42.Actions), as
    # bytes: fb.text draws them, and a new str costs a search of the
    # interned strings (see ui.py). The round: those up to line i (an
    # adjustment keeps the one before).
    n = i + 1 - tags.count(_ADJUSTS, 0, i + 1)
    if tags[i] == t42.TAG_ADJUSTS:
        return b"%d adj" % n
    return b"%d %s/" % (n, _SHORT[tags[i] >> 4]) + _SHORT[tags[i] & 15]


def _detail(title, a):
    # the line in words, then as the journal holds it
    from teatally import jsonc
    from teatally.ui_t42_end import Lines  # loaded with the game menu (its needs)

    return Lines(title, wrap(action_hint(a)) + wrap(jsonc.dumps(a)))


# a tag's card (its index in t42.CARDS, more for none) -> ui_t42.SHORT's name, bytes
_SHORT = tuple([SHORT[c].encode() for c in t42.CARDS]) + (b"?",) * (16 - len(t42.CARDS))
_ADJUSTS = bytes((t42.TAG_ADJUSTS,))  # an adjustment's tag

# The history screen, made with the module (between key presses, with the
# game menu that needs it): opening it makes no objects but its rows. A
# Menu and the Rows with their attributes are several blocks of heap, and
# in a fragmented heap each such allocation searches it (see ui.py). One
# screen does: only the game menu opens the history, and nothing on top of
# the history leads back to the game menu but BACK.
_NO_LINES = t42.Actions()
_ROWS = Rows()
_HISTORY = Menu("History", _ROWS, _ROWS.detail, _close, hint=_ROWS.hint)
_HISTORY.prepare = _prepare  # type: ignore[attr-defined]  # app.App idle work


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
            ui.push(
                Picker(
                    "%s %s +/-" % (NAMES[p], f[:6]),
                    -cur,
                    adjust_most(s, f, cur),
                    0,
                    lambda ui, v: _adjust(ui, {t42.PLAYERS[p]: {f: v}}) if v else ui.pop(),
                    describe=lambda v: [b"now %d" % cur, b"then %d" % (cur + v)],  # bytes: no new str a press
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
        ui.replace(Message("Refused", wrap(str(exc))))
        return
    toast = ("Adjusted", action_hint(action))
    if ui.app.game.state.over:
        ui.reset(final_screen(ui))
    else:
        after_undo(ui, toast)
