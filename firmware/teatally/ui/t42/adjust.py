"""The game menu's manual adjustment (T42-INPUT-2): pick what to correct,
then by how much; and an adjustment told in words (adjust_hint, for the
history too). A rare module of its own (ui.core.RARE), away from the
history's sentences, so that the press which opens it imports only this
(first light worst in teatally_host.budgets). Rule IDs refer to
seeds/tea-for-2.md."""

from teatally import words
from teatally.rules import t42
from teatally.ui.core import Menu, Message, Picker, wrap
from teatally.ui.t42.words import NAMES

FIELDS = ("stars", "tarts", "hourglasses")  # what a player holds that can be corrected


def adjust_hint(adj):
    """An adjustment in words: "Blue tarts +2, hand on copy" (the
    history's hint and sentence, the board's line after it is made)."""
    parts = []
    for i in (0, 1):
        d = adj.get(t42.PLAYERS[i])
        if isinstance(d, dict):
            for f in FIELDS:  # (a dict's order is not the same on MicroPython)
                if f in d:
                    parts.append(words.f("adj.field", words.player(i), words.t("field." + f), "%+d" % d[f]))
    if "flamingo" in adj:
        parts.append(words.f("adj.flamingo", _who(adj["flamingo"])))
    if "watch" in adj:
        w = adj["watch"]
        parts.append(words.f("adj.watch", words.space(w) if w in t42.SPACES else str(w)))
    return words.t("say.and").join(parts)


def _who(name):
    return words.player(t42.PLAYERS.index(name)) if name in t42.PLAYERS else str(name)


class Adjust(Menu):
    """Pick what to correct; the engine judges every adjustment."""

    def __init__(self, app):
        Menu.__init__(self, words.t("adj.title"), [], self._pick)
        self.refresh(app)

    def refresh(self, app):
        s = app.game.state
        items = []
        for p in (0, 1):
            me = s.players[p]
            for f in FIELDS:
                items.append((words.f("adj.item", NAMES[p], words.t("field." + f), getattr(me, f)), (p, f)))
        items.append((words.f("adj.flamingo.item", NAMES[s.flamingo]), "flamingo"))
        items.append((words.f("adj.watch.item", words.space(t42.SPACES[s.watch])), "watch"))
        self.items = items

    def shown(self, ui):
        self.refresh(ui.app)

    def _pick(self, ui, what):
        s = ui.app.game.state
        if what == "flamingo":
            items = [(NAMES[p], t42.PLAYERS[p]) for p in (0, 1)]
            title = words.t("adj.flamingo.title")
            # (the keypad's keys, issue 31: 1 Blue, 2 Pink; the spaces 1-5 as in a round)
            ui.push(_menu(ui)(title, items, lambda ui, v: _adjust(ui, {"flamingo": v}), sel=s.flamingo, keys=[2, 4]))
        elif what == "watch":
            items = [(words.space(sp), sp) for sp in t42.SPACES]
            keys = [2 << i for i in range(len(items))]
            title = words.t("adj.watch.title")
            ui.push(_menu(ui)(title, items, lambda ui, v: _adjust(ui, {"watch": v}), sel=s.watch, keys=keys))
        else:
            p, f = what
            cur = getattr(s.players[p], f)
            ui.push(
                _picker(ui)(
                    words.f("adj.picker", NAMES[p], words.t("field." + f)),
                    -cur,
                    adjust_most(s, f, cur),
                    0,
                    lambda ui, v: _adjust(ui, {t42.PLAYERS[p]: {f: v}}) if v else ui.pop(),
                    describe=lambda v: [words.f("adj.now", cur), words.f("adj.then", cur + v)],
                )
            )


def _menu(ui):
    # the menu that takes keys (a keys list) on the keypad board (ui.keypad)
    if ui.app.keys.layout == "keypad":
        from teatally.ui import keypad

        return keypad.KeyMenu
    return _keyless_menu


def _keyless_menu(title, items, pick, sel=0, keys=None):
    return Menu(title, items, pick, sel=sel)


def _picker(ui):
    # the number picker that takes digits on the keypad board
    if ui.app.keys.layout == "keypad":
        from teatally.ui import keypad

        return keypad.KeyPicker
    return Picker


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
        ui.replace(Message(words.t("refused.title"), wrap(str(exc))))
        return
    ui.app.show_game(None, (words.t("adj.done"), adjust_hint(adj)))
