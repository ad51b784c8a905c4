"""`teatally replay FILE`: the reference for state. Prints the state after the
record (or after line N with --upto) as one JSON object with sorted keys.
A bad line: `teatally replay: line N: why` on stderr, exit 2."""

import sys

from teatally import jsonc, record
from teatally.rules import t42
from teatally.journal import RecordError
from teatally_host.errors import INPUT_LIMIT_NOTE, BadInput, load_record, read_bytes
from teatally_host import salvage


EPILOG = INPUT_LIMIT_NOTE


def add_arguments(p):
    p.add_argument("record", help="game record (JSON Lines, at most 1 MiB; '-' for stdin)")
    p.add_argument("--upto", type=int, metavar="N", help="print the state after line N")


def run(args):
    if args.upto is not None and args.upto < 1:
        raise BadInput("--upto must be a line number, 1 or more")
    data = read_bytes(args.record, "game record")
    try:
        game = load_record(data, args.upto)
    except RecordError as exc:
        kept = salvage.damaged(data, exc, "replay")  # a damaged device journal: what it keeps
        if kept is None:
            raise BadInput("line %d: %s" % (exc.line, exc.reason))
        game = load_record(kept, args.upto)
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
            "teatally replay: warning: setup: %s (pile %d repeats it; each tile is placed once)"
            % (record.repeated_text(rep), rep[2]),
            file=sys.stderr,
        )
