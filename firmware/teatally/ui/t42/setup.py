"""The setup of a new Tea for 2 game (T42-SETUP-2..4), asked from the home
menu. A rare module (ui.core.RARE): opened by the home menu, released once
the game starts (or the setup is left). Rule IDs refer to
seeds/tea-for-2.md."""

from teatally import words
from teatally.rules import t42
from teatally.ui.core import Lines, Menu, wrap



def objective_label(o):
    return words.objective(o)


# What the setup screens show, by question (the number of answers so far):
# its title, items and hint.
_OBJECTIVE_ITEMS = [(objective_label(o), o) for o in t42.OBJECTIVES]
_TITLES = [words.t("new.flamingo"), words.t("new.watch")] + [words.f("new.pile", v) for v in t42.PILES]
_ITEMS = [
    [(words.player(0), "blue"), (words.player(1), "pink"), (words.t("new.random"), "random")],
    [(words.t("new.random"), "random")] + [(words.space(sp), sp) for sp in t42.SPACES],
] + [_OBJECTIVE_ITEMS] * len(t42.PILES)
# the keypad's keys (issue 31; ui.keypad.keyed): 1 Blue, 2 Pink; the watch's
# spaces 1-5 as in a round (ui.keypad.answer_keys); the objectives 1-9 in
# the rulebook's order; 0 a random draw (a mend's narrowed lists: by cursor)
_KEYS = [[2, 4, 1], [1] + [2 << i for i in range(len(t42.SPACES))]] + [
    [2 << i for i in range(len(t42.OBJECTIVES))]
] * len(t42.PILES)


def _one_tart(v):
    # T42-SETUP-2: the holder 1 tart, the other player 3
    if v == "random":
        return words.t("new.flamingo.random")
    w = t42.PLAYERS.index(v)
    return words.f("new.flamingo.hint", words.player(w), words.player(1 - w))


_HINTS = [_one_tart] + [None] * (1 + len(t42.PILES))


def _pile_lines(lines, answers):
    # "4 most knave": the objective above each pile
    for i in range(len(t42.PILES)):
        lines.append(_pile_line(t42.PILES[i], answers))


def _repeat_lines(lines, answers):
    # T42-OBJ-2: the summary's warning, "! tarts twice", for each face above
    # more than one pile (as teatally.record.repeated_objective finds them
    # for the replay tool; that module is not loaded on the device)
    faces = answers[2:]
    for i in range(len(faces)):
        if faces[i] in faces[:i] and faces[i] not in faces[i + 1 :]:
            lines.extend(wrap(words.f("new.twice", objective_label(faces[i]))))


def _repeated_text(rep):
    # record.repeated_text with the screens' labels: "most king is already above pile 5"
    return words.f("new.repeated", objective_label(rep[0]), rep[1])


def _pile_line(v, answers):
    return words.f("new.pile.line", v, objective_label(answers[v - 2]))


class NewGame:
    """The setup questions in order (T42-SETUP-2..4): flamingo holder, watch
    start, the objective above each pile 4..8, then a summary to confirm.
    BACK steps back one question; BACK at the first leaves. A face already
    above another pile is taken only once confirmed (T42-OBJ-2), and the
    summary warns of it."""

    def __init__(self):
        self.answers = []  # flamingo, watch, objective 4 .. objective 8
        self.rolled = [False, False]  # flamingo / watch drawn at random
        self.pending = None  # a repeated objective face waiting for its confirmation
        # a recover.Mend while a damaged setup is entered again: no random
        # draw, the answers read from the damaged line selected, the
        # flamingo and watch narrowed to what the intact rounds allow
        self.guide = None

    def screen(self, ui):
        n = len(self.answers)
        if n < len(_TITLES):
            # the first item selected on every screen (issue 30: objective
            # screens that look the same keep the cursor in the same place;
            # a face chosen twice is asked about, T42-OBJ-2)
            items, sel = _ITEMS[n], 0
            if self.guide is not None:
                items, sel = self.guide.setup_items(self.answers, items, sel)
            elif ui.app.keys.layout == "keypad":
                from teatally.ui import keypad

                return keypad.KeyMenu(_TITLES[n], items, self.pick, self.back, sel, _HINTS[n], _KEYS[n])
            return Menu(_TITLES[n], items, self.pick, self.back, sel, _HINTS[n])
        return Lines(words.t("new.title"), self._summary_lines(), ok=self.start, back=self.back)

    def _summary_lines(self):
        a = self.answers
        r = self.rolled
        lines = []
        lines.append(words.f("new.sum.flamingo", words.player(t42.PLAYERS.index(a[0])), "*" if r[0] else ""))
        lines.append(words.f("new.sum.watch", words.space(a[1]), "*" if r[1] else ""))
        _pile_lines(lines, a)
        _repeat_lines(lines, a)
        if r[0] or r[1]:
            lines.append(words.t("new.sum.random"))
        lines.append(words.k("new.sum.ok"))
        return lines

    def pick(self, ui, v):
        n = len(self.answers)
        if n >= 2 and v in self.answers[2:]:
            ui.replace(self._repeated(v))  # T42-OBJ-2: confirmed first
            return
        self.take(ui, v)

    def _repeated(self, v):
        # the warning for a face already above a pile: OK takes it, BACK
        # asks the question again
        self.pending = v
        a = self.answers
        rep = (v, t42.PILES[a.index(v, 2) - 2], t42.PILES[len(a) - 2])
        lines = wrap(_repeated_text(rep) + words.t("new.repeated.ask"))
        lines.append(words.k("new.repeated.ok"))
        lines.append(words.k("new.repeated.back"))
        return Lines(words.t("new.repeated.title"), lines, ok=self.keep, back=self.again)

    def keep(self, ui):
        self.take(ui, self.pending)

    def again(self, ui):
        ui.replace(self.screen(ui))

    def take(self, ui, v):
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
        # a literal (the piles are 4..8, t42.PILES): no str(v) made per pile
        a = self.answers
        return {
            "game": "tea-for-2",
            "flamingo": a[0],
            "watch": a[1],
            "objectives": {"4": a[2], "5": a[3], "6": a[4], "7": a[5], "8": a[6]},
        }

    def start(self, ui):
        ui.app.new_game(self.setup())
        ui.app.show_game()


def new_game(ui):
    """Ask the setup of a new Tea for 2 game (called from the home menu)."""
    g = NewGame()
    g.guide = ui.app.mend
    ui.push(g.screen(ui))
