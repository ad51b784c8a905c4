"""Tea for 2's score table: "Score now" in the game menu and the final
scoring screen. A rare module (ui.core.RARE): opened by the status board and
the game menu (ui.t42.board), released when its screens close. The scores
come from the engine (t42.score, T42-SCORE-*); rule IDs refer to
seeds/tea-for-2.md."""

from teatally.rules import t42
from teatally.ui.core import Lines
from teatally.ui.t42.round import SHORT


def objective_name(o):
    # 8 columns in the score table
    if o[:5] == "most:":
        return "M " + SHORT.get(o[5:], o[5:])
    if o == "hourglasses":
        return "hourgl."
    if o == "destroyed":
        return "destroy"
    return o


# The score table's lines are bytes (fb.text takes them as it takes str):
# a new str costs a search of MicroPython's interned-string table (~0.15 ms
# on the Pico), bytes do not, and the final scoring comes on the press that
# commits the last round. Objective names as bytes, made once each.
_OBJ_NAME = {}
_PILE_KEY = ("4", "5", "6", "7", "8")  # t42.score's objective keys
_WINS = ((b"Blue wins", b"Blue wins (flam.)"), (b"Pink wins", b"Pink wins (flam.)"))


def _objective_bytes(o):
    b = _OBJ_NAME.get(o)
    if b is None:
        b = _OBJ_NAME[o] = objective_name(o).encode()
    return b


def score_lines(s, sc=None):
    """The score table as if the game ended now (T42-SCORE-1..8): stars so
    far, each objective (pile, face, blue +x, pink +y; '.' = pile not empty,
    so it does not score), totals and the winner. sc: t42.score(s) if the
    caller has it already. -> lines as bytes."""
    if sc is None:
        sc = t42.score(s)
    lines = [b"            B  P"]
    lines.append(b"stars     %3d%3d" % (s.players[0].stars, s.players[1].stars))
    for v in t42.PILES:
        lines.append(_objective_line(v, s, sc))
    lines.append(b"total     %3d%3d" % (sc["blue"], sc["pink"]))
    lines.append(_WINS[0 if sc["winner"] == "blue" else 1][1 if sc["blue"] == sc["pink"] else 0])
    return lines


def _objective_line(v, s, sc):
    # pile v's objective and what it gave each player ("%d %-8s": v is one digit)
    o = sc["objectives"].get(_PILE_KEY[v - 4])
    if o is None:
        return b"%d %-8s  .  ." % (v, _objective_bytes(s.objectives[v]))
    return b"%d %-8s%3d%3d" % (v, _objective_bytes(s.objectives[v]), o["blue"], o["pink"])


def final_screen(ui, back, long_back):
    """The final scoring; OK archives the game and shows the home menu.
    back(ui), long_back(ui): the game menu and the undo (the status
    board's, which opens this module)."""
    s = ui.app.game.state
    sc = t42.score(s)
    lines = score_lines(s, sc)
    lines.append("OK: archive game")
    return Lines("Final %d:%d" % (sc["blue"], sc["pink"]), lines, _archive, back, long_back)


def _archive(ui):
    app = ui.app
    app.archive()
    app.home()
