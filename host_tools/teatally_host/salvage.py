"""Reading a damaged device journal on the host (`teatally replay`,
`teatally report`): what the device keeps without asking the players.

The device has players to ask (teatally.recover: a damaged line is entered
again); the host tools have not. A damaged line is put right when its CRC
allows (one byte changed, recover.one_byte_fix), else skipped; the intact
lines after it are replayed until the engine refuses one (it depended on
the line skipped). The account says line by line what was done; the
commands print it on stderr and go on with what was kept.
"""

from teatally import journal, jsonc, recover
from teatally.rules import t42
from teatally.journal import RecordError
from teatally_host.errors import say

# The reasons journal.parse_record_lines gives for a line whose bytes are
# damaged (not a line the engine refuses)
DAMAGE = ("CRC mismatch", "not valid JSON", "not UTF-8", "not a JSON object")


def damaged(data, exc, command, name=None):
    """The record text of what can be kept of a device journal (data,
    bytes or str) with damaged lines, exc the first RecordError found; the
    account printed on stderr (`teatally <command>: ...` lines, each after
    `name: ` when a name is given). None if exc is not damage, the record is
    not a device journal (a hand-written record's mistake is an error), or
    nothing can be kept.

    This is the one verdict on a damaged file, the same in `replay`,
    `report` and a season's `report FOLDER`: what it keeps is the game."""
    if isinstance(data, str):
        data = data.encode()
    if exc.reason not in DAMAGE or not is_journal(data):
        return None
    try:
        objs, account = salvage(data)
    except RecordError:
        return None
    for line in account:
        say(command, line if name is None else "%s: %s" % (name, line))
    if not objs:
        return None
    return "".join(jsonc.dumps(o, True) + "\n" for o in objs)


def is_journal(data):
    """Is the record (bytes) a device journal: does a line of it end in a
    CRC tail (TAB, 8 hex digits) that checks out?"""
    for raw in data.split(b"\n"):
        raw = raw.rstrip(b"\r")
        if len(raw) > 9 and raw[-9] == 9:
            try:
                crc = int(raw[-8:], 16)
            except ValueError:
                continue
            if recover.intact_body(raw[:-9], crc) == raw[:-9]:
                return True
    return False


def salvage(data):
    """(objects kept, account: a list of lines in words) of a game record
    (bytes) with damaged lines. The objects are [] when the setup line is
    lost; a line the engine refuses before any damage raises
    journal.RecordError as record.load does."""
    pieces = _record_pieces(data)
    objs = []
    account = []
    game = None
    skipped = 0
    for i in range(len(pieces)):
        n, obj, how = pieces[i]
        if obj is None:
            if game is None:
                account.append("line %d: the setup, damaged (%s): nothing can be replayed" % (n, how))
                return [], account
            account.append("line %d: damaged (%s), skipped" % (n, how))
            skipped += 1
            continue
        if how:
            account.append("line %d: %s" % (n, how))
        try:
            if game is None:
                game = t42.Game(obj)
            else:
                game.apply(obj)
        except t42.Refused as exc:
            if not skipped:
                raise journal.RecordError(n, str(exc))
            left = len(pieces) - i - 1
            account.append(
                "line %d: refused after the damage (%s): it and %d later line%s not replayed"
                % (n, exc, left, "" if left == 1 else "s")
            )
            break
        objs.append(obj)
    account.insert(0, "damaged record: kept %d of %d lines" % (len(objs), len(pieces)))
    return objs, account


def _record_pieces(data):
    # [(line number, object or None, what was done or why lost)] of a record
    out = []
    n = 0
    for raw in data.split(b"\n"):
        n += 1
        s = raw.strip()
        if not s or s[:1] == b"#":
            continue
        try:
            got = list(journal.parse_record_lines([raw]))
        except journal.RecordError as exc:
            _damaged_line(out, n, raw, exc.reason)
            continue
        out.append((n, got[0][1], ""))
    return out


def _damaged_line(out, n, raw, reason):
    # the lines a damaged line still holds (glued ones come apart), each
    # put right by its CRC if one byte was changed, else lost
    pieces = recover.split_pieces(raw.rstrip(b"\r") + b"\n")
    if not pieces:
        out.append((n, None, reason))
        return
    for body, crc in pieces:
        good = recover.intact_body(body, crc)
        obj = recover.line_object(good) if good is not None else None
        if obj is not None:
            out.append((n, obj, "damaged (%s), an intact line in it kept" % reason))
            continue
        fixed = recover.one_byte_fix(body, crc) if crc is not None else None
        obj = recover.line_object(fixed) if fixed is not None else None
        if obj is not None:
            out.append((n, obj, "%s, one byte put right by its CRC" % reason))
        else:
            out.append((n, None, reason))

