"""`teatally replay FILE`: the reference for state. Prints the state after the
record (or after line N with --upto) as one JSON object with sorted keys."""

import sys

from teatally import jsonc, record, t42
from teatally.journal import RecordError


def add_arguments(p):
    p.add_argument("record", help="game record (JSON Lines; '-' for stdin)")
    p.add_argument("--upto", type=int, metavar="N", help="print the state after line N")


def read_record(path):
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as f:
        return f.read()


def run(args):
    try:
        data = read_record(args.record)
    except OSError as exc:
        print("%s: %s" % (args.record, exc.strerror or exc), file=sys.stderr)
        return 2
    try:
        game = record.load(data, args.upto)
    except RecordError as exc:
        print("line %d: %s" % (exc.line, exc.reason), file=sys.stderr)
        return 2
    warn_repeated_objective(game)
    sys.stdout.write(jsonc.dumps(t42.to_json(game.state)) + "\n")
    return 0


def warn_repeated_objective(game):
    """T42-OBJ-2: a face above two piles is accepted, with a warning on
    stderr (the state still goes to stdout, exit status 0)."""
    faces = [game.state.objectives[v] for v in t42.PILES]
    rep = record.repeated_objective(faces)
    if rep is not None:
        print(
            "warning: setup: %s (pile %d repeats it; each tile is placed once)" % (record.repeated_text(rep), rep[2]),
            file=sys.stderr,
        )
