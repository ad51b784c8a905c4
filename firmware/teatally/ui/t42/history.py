"""The game menu's Tea for 2 screens: the history of the journal lines and
manual adjustment (T42-INPUT-2). A rare module (ui.core.RARE): opened by
the game menu, released when its screens close. Rule IDs refer to
seeds/tea-for-2.md."""

from teatally import jsonc
from teatally.rules import t42
from teatally.ui.core import Lines, Menu, Message, Picker, wrap
from teatally.ui.t42.words import NAMES, SHORT


def action_hint(action):
    """What the winner did: "P: buy 6 h2", "B: effect", "tie: -" ..."""
    if "adjust" in action:
        return adjust_hint(action["adjust"])
    return _round_hint(action).decode()


# The history's hint is made on every key press in it: as bytes (fb.text
# draws them; a new str searches the interned strings, see ui.core).
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


def adjust_hint(adj):
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
    rows = Rows(game)
    return Menu("History", rows, rows.detail, sel=len(rows) - 1, hint=rows.hint)


def _leave(ui, i):
    ui.pop()


class Rows:
    """The history's rows as its Menu reads them: len(rows), and rows[i] =
    (label, i) for journal line i, e.g. (b"12 cater/alice", 14).

    Only the rows drawn are made, when first drawn, as bytes, from the
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
        # the line in words, then as the journal holds it
        a = self.acts[i]
        ui.push(Lines(self[i][0].decode(), wrap(action_hint(a)) + wrap(jsonc.dumps(a))))


def _label(tags, i):
    # words.action_label's words for line i, from its tag (t42.Actions), as
    # bytes. The round: those up to line i (an adjustment keeps the one before).
    n = i + 1 - tags.count(_ADJUSTS, 0, i + 1)
    if tags[i] == t42.TAG_ADJUSTS:
        return b"%d adj" % n
    return b"%d %s/" % (n, _SHORT[tags[i] >> 4]) + _SHORT[tags[i] & 15]


# a tag's card (its index in t42.CARDS, more for none) -> words.SHORT's name, bytes
_SHORT = tuple([SHORT[c].encode() for c in t42.CARDS]) + (b"?",) * (16 - len(t42.CARDS))
_ADJUSTS = bytes((t42.TAG_ADJUSTS,))  # an adjustment's tag


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
    ui.app.show_game(None, ("Adjusted", action_hint(action)))
