"""`teatally replay FILE`: the reference for state. Prints the state after the
record (or after line N with --upto) as one JSON object with sorted keys."""

import sys

from teatally import jsonc, record, t42
from teatally.journal import RecordError
from teatally_host import salvage


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
        kept = salvage.damaged(data, exc)  # a damaged device journal: what it keeps
        if kept is None:
            print("line %d: %s" % (exc.line, exc.reason), file=sys.stderr)
            return 2
        game = record.load(kept, args.upto)
    sys.stdout.write(jsonc.dumps(t42.to_json(game.state)) + "\n")
    return 0
