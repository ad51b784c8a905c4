# The game menu's Tea for 2 screens: the history of the journal lines and
# manual adjustment (T42-INPUT-2).
#
# Loaded only while the game menu is open: it names this module in its
# `needs` (ui_t42), so the main loop loads it between key presses, before
# the player can pick an entry. Rule IDs refer to seeds/tea-for-2.md.

from teatally import t42
from teatally.ui import Menu, Message, Picker, wrap
from teatally.ui_t42 import NAMES, action_label, after_undo, final_screen


def action_hint(action):
    """What the winner did: "P: buy 6 h2", "B: effect", "tie: -" ..."""
    if "adjust" in action:
        return _adjust_hint(action["adjust"])
    return _round_hint(action, action.get("hourglasses", 0))


# The history's hint is made on every key press in it: the functions are
# small enough for frames on MicroPython's C stack (more than 11 words of
# arguments, locals and value stack go on the heap, a heap search a call).
def _round_hint(action, h):
    vb = t42.VALUE.get(action.get("blue"), 0)
    vp = t42.VALUE.get(action.get("pink"), 0)
    who = "B" if vb > vp else "P" if vp > vb else "tie"
    # one format, one new string
    if "buy" in action and "effect" not in action:
        if h:
            return "%s: buy %s h%d" % (who, action["buy"], h)
        return "%s: buy %s" % (who, action["buy"])
    if h:
        return "%s: %s h%d" % (who, "effect" if "effect" in action else "-", h)
    return "%s: %s" % (who, "effect" if "effect" in action else "-")


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
    items = []
    n = 0
    for i in range(len(game.actions)):
        a = game.actions[i]
        if "adjust" not in a:
            n += 1
        items.append((action_label(a, n), i))
    acts = game.actions

    def detail(ui, i):
        from teatally import jsonc
        from teatally.ui_t42_end import Lines  # loaded with the game menu (its needs)

        ui.push(Lines(items[i][0], wrap(action_hint(acts[i])) + wrap(jsonc.dumps(acts[i]))))

    m = Menu("History", items, detail, sel=len(items) - 1, hint=lambda i: action_hint(acts[i]))
    if not items:
        m.hint = None
        m.items = [("(no rounds yet)", -1)]
        m.pick = lambda ui, i: ui.pop()
    return m


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
            span = 99 if f == "stars" else t42.TOTAL_TARTS
            ui.push(
                Picker(
                    "%s %s +/-" % (NAMES[p], f[:6]),
                    -span,
                    span,
                    0,
                    lambda ui, v: _adjust(ui, {t42.PLAYERS[p]: {f: v}}) if v else ui.pop(),
                    describe=lambda v: [b"now %d" % cur, b"then %d" % (cur + v)],  # bytes: no new str a press
                )
            )


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
