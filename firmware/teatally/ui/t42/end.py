"""Tea for 2's score table: "Score now" in the game menu and the final
scoring screen. A rare module (ui.core.RARE): opened by the status board and
the game menu (ui.t42.board), released when its screens close. The scores
come from the engine (t42.score, T42-SCORE-*); rule IDs refer to
seeds/tea-for-2.md."""

from teatally import words
from teatally.rules import t42
from teatally.ui.core import Lines, pad, wrap


def objective_name(o):
    """An objective in words: "most king", "hourglasses"."""
    return words.objective(o)


_PILE_KEY = ("4", "5", "6", "7", "8")  # t42.score's objective keys
_LABEL = 13  # the score table's label column; the numbers take 8 more
_HEAD = 11  # the head's indent: "Blue" ends over the first number


def score_lines(s, sc=None, wins=True):
    """The score table as if the game ended now (T42-SCORE-1..8): stars so
    far, each objective (its pile and name, blue's points, pink's; "-"
    while its pile is not empty, so it does not score yet), totals and the
    winner (wins: at the end; the final screen says it first), then what
    "-" means. sc: t42.score(s) if the caller has it already. -> lines
    (str)."""
    if sc is None:
        sc = t42.score(s)
    lines = [" " * _HEAD + words.t("score.head")]
    _row(lines, words.t("score.stars"), b"%3d%5d" % (s.players[0].stars, s.players[1].stars))
    open_piles = False
    for v in t42.PILES:
        o = sc["objectives"].get(_PILE_KEY[v - 4])
        name = words.f("score.obj", v, objective_name(s.objectives[v]))
        if o is None:
            open_piles = True
            _row(lines, name, b"  -    -")
        else:
            _row(lines, name, b"%3d%5d" % (o["blue"], o["pink"]))
    _row(lines, words.t("score.total"), b"%3d%5d" % (sc["blue"], sc["pink"]))
    if wins:
        lines.append(winner_line(sc))
    if open_piles:
        lines.append(words.t("score.legend"))
    return lines


def winner_line(sc):
    """Who wins, in words ("Blue wins", on a tie "Pink wins (flamingo)")."""
    w = 0 if sc["winner"] == "blue" else 1
    return words.f("score.wins.flamingo" if sc["blue"] == sc["pink"] else "score.wins", words.player(w))


def _row(lines, label, numbers):
    # a label and its two numbers on one line; a long label on two, its
    # last words with the numbers (never the numbers on a line of their own)
    numbers = numbers.decode()
    padded, numbers = _padded(label, numbers)
    i = len(label)
    while padded is None and i > 0:
        i = label.rfind(" ", 0, i)
        if i > 0:
            padded, numbers = _padded(label[i + 1 :], numbers)
    if padded is None:
        lines.extend(wrap(label))  # no word of it fits the column (no label does)
        padded = " " * _LABEL
    elif i < len(label):
        lines.append(label[:i])
    lines.append(padded + numbers)


def _padded(label, numbers):
    # label padded to the numbers' column; where no mix of spaces fills the
    # gap exactly (Japanese: 8-pixel glyphs), up to two columns further,
    # the numbers giving up their leading spaces. -> (line start or None,
    # the numbers)
    k = 0
    while k < 3 and (k == 0 or numbers[k - 1] == " "):
        padded = pad(label, _LABEL + k)
        if padded is not None:
            return padded, numbers[k:]
        k += 1
    return None, numbers


def final_screen(ui, back, long_back):
    """The final scoring, the winner first: the title says who won and by
    what score (on a tie, the first line says the flamingo decided), then
    the table; OK archives the game and shows the home
    menu. back(ui), long_back(ui): the game menu and the undo (the status
    board's, which opens this module)."""
    s = ui.app.game.state
    sc = t42.score(s)
    # a tie: the first line says the flamingo's holder won it
    lines = [winner_line(sc)] if sc["blue"] == sc["pink"] else []
    lines.extend(score_lines(s, sc, False))
    lines.append(words.k("final.ok"))
    w = 0 if sc["winner"] == "blue" else 1
    title = words.f("final.title", words.player(w), sc[t42.PLAYERS[w]], sc[t42.PLAYERS[1 - w]])
    return Lines(title, lines, _archive, back, long_back)


def _archive(ui):
    app = ui.app
    app.archive()
    app.home()
