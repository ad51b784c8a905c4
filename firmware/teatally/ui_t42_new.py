# The setup of a new Tea for 2 game (T42-SETUP-2..4), asked from the home
# menu. Loaded only around the home menu: the home menu names this module in
# its `needs` (ui_misc), so the main loop loads it between key presses,
# before "New Tea for 2" can be picked. Rule IDs refer to seeds/tea-for-2.md.

from teatally import t42
from teatally.ui import Menu
from teatally.ui_t42 import show_game

OBJ_LABELS = {
    "hourglasses": "hourglasses",
    "tarts": "tarts",
    "deck": "deck size",
    "destroyed": "destroyed",
}


def objective_label(o):
    if o[:5] == "most:":
        return "most " + o[5:]
    return OBJ_LABELS.get(o, o)


class NewGame:
    """The setup questions in order (T42-SETUP-2..4): flamingo holder, watch
    start, the objective above each pile 4..8, then a summary to confirm.
    BACK steps back one question; BACK at the first leaves."""

    __slots__ = ("answers", "rolled")

    def __init__(self):
        self.answers = []  # flamingo, watch, objective 4 .. objective 8
        self.rolled = [False, False]  # flamingo / watch drawn at random

    def screen(self, ui):
        n = len(self.answers)
        if n == 0:
            items = [("Blue", "blue"), ("Pink", "pink"), ("Random", "random")]
            return Menu("Flamingo holder", items, self.pick, back=self.back, hint=lambda v: "starts with 1 tart")
        if n == 1:
            items = [("Random", "random")] + [(sp, sp) for sp in t42.SPACES]
            return Menu("Watch hand start", items, self.pick, back=self.back)
        if n < 7:
            used = self.answers[2:]
            sel = 0
            while sel < len(t42.OBJECTIVES) - 1 and t42.OBJECTIVES[sel] in used:
                sel += 1
            items = [(objective_label(o), o) for o in t42.OBJECTIVES]
            return Menu("Above pile %d" % (n + 2), items, self.pick, back=self.back, sel=sel)
        lines = [
            "Flamingo %s%s" % (self.answers[0], "*" if self.rolled[0] else ""),
            "Hand %s%s" % (self.answers[1], "*" if self.rolled[1] else ""),
        ]
        for v in t42.PILES:
            lines.append("%d %s" % (v, objective_label(self.answers[v - 2])))
        if self.rolled[0] or self.rolled[1]:
            lines.append("* drawn at random")
        lines.append("OK: start game")
        from teatally.ui_t42_end import Lines  # loaded with the home menu (its needs)

        return Lines("New game?", lines, ok=self.start, back=self.back)

    def pick(self, ui, v):
        n = len(self.answers)
        if v == "random":
            # drawn once, when picked: stepping back and forth keeps the draw
            v = t42.PLAYERS[ui.app.hw.rand(2)] if n == 0 else t42.SPACES[ui.app.hw.rand(5)]
            self.rolled[n] = True
        elif n < 2:
            self.rolled[n] = False
        self.answers.append(v)
        ui.replace(self.screen(ui))

    def back(self, ui):
        if not self.answers:
            ui.pop()
            return
        self.answers.pop()
        ui.replace(self.screen(ui))

    def setup(self):
        a = self.answers
        objs = {}
        for v in t42.PILES:
            objs[str(v)] = a[v - 2]
        return {"game": "tea-for-2", "flamingo": a[0], "watch": a[1], "objectives": objs}

    def start(self, ui):
        ui.app.new_game(self.setup())
        show_game(ui, None)


def new_game(ui):
    """Ask the setup of a new Tea for 2 game (called from the home menu)."""
    ui.push(NewGame().screen(ui))
