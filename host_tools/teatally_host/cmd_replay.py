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


# A device journal (its lines carry CRCs) with a line whose bytes are
# damaged (not a line the engine refuses, not a hand-written record's
# mistake): read as the device keeps a damaged journal
# (teatally.recover.salvage), with an account on stderr of what was kept.
DAMAGE = ("CRC mismatch", "not valid JSON", "not UTF-8", "not a JSON object")


def damaged(data, exc, upto=None):
    """The game of a record with damaged lines (exc: the first one found),
    its account printed on stderr; None if exc is not damage or nothing
    can be kept."""
    from teatally import recover

    if isinstance(data, str):
        data = data.encode()
    if exc.reason not in DAMAGE or not recover.is_journal(data):
        return None
    try:
        objs, account = recover.salvage(data)
    except RecordError:
        return None
    for line in account:
        print("teatally: " + line, file=sys.stderr)
    if not objs:
        return None
    return record.load(gen_text(objs), upto)


def gen_text(objs):
    """Record text of objects (one compact JSON line each)."""
    from teatally import jsonc

    return "".join(jsonc.dumps(o, True) + "\n" for o in objs)


def run(args):
    try:
        data = read_record(args.record)
    except OSError as exc:
        print("%s: %s" % (args.record, exc.strerror or exc), file=sys.stderr)
        return 2
    try:
        game = record.load(data, args.upto)
    except RecordError as exc:
        game = damaged(data, exc, args.upto)
        if game is None:
            print("line %d: %s" % (exc.line, exc.reason), file=sys.stderr)
            return 2
    sys.stdout.write(jsonc.dumps(t42.to_json(game.state)) + "\n")
    return 0
