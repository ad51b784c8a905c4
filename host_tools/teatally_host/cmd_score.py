"""`teatally score FILE`: score a Tea Time or Tea Witches game from JSON.

Input (FILE, or '-' for stdin), one object:

    {"game": "tea-time", "players": [{"name": "A", "counts": [6 ints], "alice": true}, ...]}
    {"game": "tea-witches", "players": [{"name": "A", "coins": 5, "teas": 2, "upgrades": 10,
        "coupons": 3, "loyal_witches": 5, "loyal_celebriteas": 3, "hex_wards": 3, "togo2": 2,
        "togo4": 1, "special_teas": 1, "loyal_track": 4}, ...]}

Output on stdout, canonical JSON (sorted keys) and a newline, exit 0:

    tea-time:    {"scores": [int per player], "winners": [indices]}
    tea-witches: {"scores": [{"A": .., ..., "I": .., "total": ..} per player], "winners": [indices]}

Invalid input: exit 2, one line on stderr (`teatally score: <why>`), nothing
on stdout. "name" is
optional (a string); every other field is required, and unknown fields are
refused so a typo cannot pass silently. The rules and the checks are the
firmware's (teatally.rules.teatime, teatally.rules.witches; seeds/tea-time.md,
seeds/tea-witches.md).
"""

import json
import sys

from teatally import jsonc
from teatally.rules import teatime
from teatally.rules import witches
from teatally_host.errors import INPUT_LIMIT_NOTE, BadInput, read_text

GAMES = ("tea-time", "tea-witches")


class InputError(ValueError):
    pass


EPILOG = INPUT_LIMIT_NOTE


def add_arguments(parser):
    parser.add_argument("file", metavar="FILE", help="game JSON file (at most 1 MiB), or '-' for stdin")


def _read(path):
    # the words every command uses for a file it cannot read (errors.BadInput)
    return read_text(path, "game file")


def _reject_constant(name):
    raise InputError("malformed JSON: %s is not a number" % name)


# How deep a score file may nest: an object, its list of players, a player
# object, a list of counts. Deeper is refused before it is parsed, so no
# parser recursion depends on the input.
MAX_DEPTH = 8


def _parse(text):
    if not text.strip():
        raise InputError('the file is empty: expected a JSON object with "game" and "players"')
    if _depth(text) > MAX_DEPTH:
        raise InputError("malformed JSON: nested deeper than %d levels (a score file nests 4: the game, its list "
                         "of players, a player, the counts)" % MAX_DEPTH)
    try:
        doc = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise InputError("malformed JSON at line %d, column %d: %s" % (exc.lineno, exc.colno, exc.msg.lower()))
    if not isinstance(doc, dict):
        raise InputError('expected a JSON object with "game" and "players"')
    extra = sorted(set(doc) - {"game", "players"})
    if extra:
        raise InputError("unknown top-level field %r" % extra[0])
    if "game" not in doc:
        raise InputError('missing "game" (one of %s)' % ", ".join(GAMES))
    game = doc["game"]
    if game not in GAMES:
        raise InputError("unknown game %s (expected one of %s)" % (json.dumps(game), ", ".join(GAMES)))
    players = doc.get("players")
    if not isinstance(players, list):
        raise InputError('"players" must be a list of player objects')
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            raise InputError("player %d: expected an object" % (i + 1))
        if "name" in p and not isinstance(p["name"], str):
            raise InputError("player %d: name must be a string" % (i + 1))
    return game, players


def _depth(text):
    """How deep the brackets of a JSON text nest (those inside strings
    skipped): counted in one pass, without recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


def _tea_time(players):
    rows = []
    for i, p in enumerate(players):
        extra = sorted(set(p) - {"name", "counts", "alice"})
        if extra:
            raise InputError("player %d: unknown field %s" % (i + 1, extra[0]))
        for key in ("counts", "alice"):
            if key not in p:
                raise InputError("player %d: missing %s" % (i + 1, key))
        rows.append((p["counts"], p["alice"]))
    teatime.validate(rows)
    scores = teatime.score(rows)
    return {"scores": scores, "winners": teatime.winners(rows, scores)}


def _tea_witches(players):
    rows = [{k: v for k, v in p.items() if k != "name"} for p in players]
    witches.validate(rows)
    scores = [witches.score(p) for p in rows]
    return {"scores": scores, "winners": witches.winners(rows, scores)}


def score_document(text):
    """Scores for one input document (str); raises ValueError with one line."""
    game, players = _parse(text)
    if game == "tea-time":
        return _tea_time(players)
    return _tea_witches(players)


def run(args):
    try:
        result = score_document(_read(args.file))
    except ValueError as exc:  # (the rule checks of teatime / witches too)
        raise BadInput(str(exc))
    sys.stdout.write(jsonc.dumps(result) + "\n")
    return 0
