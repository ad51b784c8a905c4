# Mending a damaged journal: no intact line is lost (issue 15).
#
# journal.Journal.scan stops taking lines at the first damaged one; when
# intact lines follow it (or the setup line itself is damaged) it leaves the
# journal as it is and lists what follows in Journal.later. A Mend works
# through that list on the game built from the lines before the damage:
#
# - each run of damaged bytes is cut into the lines it held (a line ends in
#   TAB + 8 hex digits: two lines glued by a lost newline come apart, and a
#   line whose CRC still checks out is simply kept); each line that does not
#   check out is "lost" and the players enter it again (the guided screens:
#   ui_t42_recover), prefilled with what can still be read of it (its JSON
#   if it parses, or the one byte a CRC check can put right, see hint_of),
#   and offered only the answers the next intact lines allow (allows: the
#   engine plays each answer out, the hint's answers first, and replays the
#   lines after it);
# - each intact line is replayed; a line the engine now refuses stops the
#   replay there (the screen says which and why);
# - at the end the journal as found is copied to games/dNNNN.jsonl and the
#   journal rewritten from the game (atomic: Journal.rewrite).
#
# Nothing is written before the end: a power cut while the players re-enter
# a line leaves the damaged journal, and the next boot mends it again.

import binascii
import json

from teatally import journal, t42

# The answers a check plays out at most per option shown (each a probe of the
# round): past it, the option is offered (not proven impossible).
BUDGET = 60
# Intact lines replayed to check an answer (the first refusal usually comes
# at once); the whole rest is replayed when the line is entered.
AHEAD = 6
_ACTIONS = ("effect", "none", 4, 5, 6, 7, 8)


class Lost:
    """A line of the journal the players enter again; hint: what can still
    be read of it (a dict, perhaps wrong in places) or None."""

    __slots__ = ("hint",)

    def __init__(self, hint):
        self.hint = hint


def split_run(run):
    """The lines a run of damaged bytes held, in order: a dict for a line
    whose CRC checks out (kept as it is), a Lost for each other one."""
    out = []
    pieces = journal.split_run(run)
    for i in range(len(pieces)):
        body, crc = pieces[i]
        if not body:
            continue
        good = journal.intact_body(body, crc)
        obj = _obj(good) if good is not None else None
        out.append(obj if obj is not None else Lost(hint_of(body, crc)))
    return out


def _obj(b):
    # bytes -> dict, or None
    try:
        obj = json.loads(b)
    except (ValueError, UnicodeError):
        return None
    return obj if isinstance(obj, dict) else None


def hint_of(body, crc):
    """What can still be read of a damaged line (a dict or None): the line
    with the one byte changed that makes its CRC right, if the CRC is known
    and there is such a byte (then it is the line as written, but for a
    near-impossible chance); else its JSON if it still parses (a byte of
    the CRC damaged, or a value changed: perhaps wrong in places)."""
    if crc is not None:
        fixed = one_byte_fix(body, crc)
        obj = _obj(fixed) if fixed is not None else None
        if obj is not None:
            return obj
    return _obj(body)


def one_byte_fix(body, crc):
    """body with one byte changed so that its CRC-32 is crc, or None.

    CRC-32 is linear: changing byte i by XOR d changes the CRC by a value
    that depends only on d and the bytes after i, and is the XOR of the
    changes of d's bits. So for each position the 8 changes of one bit
    are computed (9 CRCs of zeros) and the byte that gives the change
    wanted is solved for, instead of trying 255 bytes at each place."""
    n = len(body)
    want = binascii.crc32(body) ^ crc
    if not want:
        return body
    for i in range(n - 1, -1, -1):
        zeros = bytearray(n - i)
        z = binascii.crc32(zeros)
        rows = []
        for k in range(8):
            zeros[0] = 1 << k
            rows.append((binascii.crc32(zeros) ^ z, 1 << k))
        d = _solve(rows, want)
        if d:
            b = bytearray(body)
            b[i] ^= d
            if binascii.crc32(b) == crc:
                return bytes(b)
    return None


def _solve(rows, want):
    # rows: (32-bit change, byte bits). -> the bits whose changes XOR to
    # want, or 0. An XOR basis with distinct top bits, largest first.
    basis = []
    for v, t in rows:
        for bv, bt in basis:
            if v ^ bv < v:
                v ^= bv
                t ^= bt
        if v:
            basis.append((v, t))
            basis.sort()
            basis.reverse()
    d = 0
    for bv, bt in basis:
        if want ^ bv < want:
            want ^= bv
            d ^= bt
    return d if want == 0 else 0


def find_path(d, target, path=()):
    """Keys leading from the dict d to the dict target (by identity), or None."""
    if d is target:
        return path
    for k in d:
        v = d[k]
        if isinstance(v, dict):
            p = find_path(v, target, path + (k,))
            if p is not None:
                return p
    return None


def clone(o):
    """A copy of a round line deep enough that no answer reaches into o."""
    if isinstance(o, dict):
        c = {}
        for k in o:
            c[k] = clone(o[k])
        return c
    if isinstance(o, list):
        return [clone(v) for v in o]
    return o


def put(draft, need, v):
    """Write answer v to need (asked of draft) into draft, as the guided
    round does: the winner's action (need None) or params[key]."""
    if need is None or need.kind == t42.ASK_ACTION:
        if v == "effect":
            draft["effect"] = {}
        elif v != "none":
            draft["buy"] = v
        return
    params = need.params
    slot = params.get(need.key)
    if isinstance(slot, list):
        slot.append(v)
    else:
        params[need.key] = v


def _put_in_copy(draft, need, v):
    # a copy of draft with v answered (need's params found in the copy)
    c = clone(draft)
    if need is not None and need.kind != t42.ASK_ACTION:
        path = find_path(draft, need.params)
        if path is None:
            return None
        p = c
        for k in path:
            p = p[k]
        slot = p.get(need.key)
        if isinstance(slot, list):
            slot.append(v)
        else:
            p[need.key] = v
        return c
    put(c, None, v)
    return c


def hinted(hint, draft, need):
    """The hint's answer to need (asked of draft), or None."""
    if not isinstance(hint, dict):
        return None
    if need is None or need.kind == t42.ASK_ACTION:
        if "effect" in hint:
            return "effect"
        return hint.get("buy", "none")
    path = find_path(draft, need.params)
    if path is None:
        return None
    src = hint
    for k in path:
        src = src.get(k) if isinstance(src, dict) else None
    if not isinstance(src, dict):
        return None
    v = src.get(need.key)
    if isinstance(v, list):
        i = len(need.params.get(need.key) or ())
        v = v[i] if i < len(v) else None
    return v


def option_values(need):
    """The answers a question offers, in order (a picker's range spelled out)."""
    if need is None or need.kind == t42.ASK_ACTION:
        return _ACTIONS
    if need.kind in (t42.ASK_STARS, t42.ASK_HOURGLASSES):
        return tuple(range(need.options[0], need.options[1] + 1))
    return need.options


class Mend:
    """The mending of a damaged journal, step by step (see the top)."""

    def __init__(self, journal, records):
        self.journal = journal
        self.records = records  # lines before the damage (taken by scan)
        self.slots = []  # what follows: (start, end) spans, dicts, Lost
        self.at = 0  # the next slot
        self.entered = 0  # lines the players entered again
        self.kept = records  # lines kept (replayed)
        self.stopped = None  # (which line, why) if the engine refused one
        self.dropped = 0  # slots not replayed after a refusal
        later = journal.later
        for i in range(len(later)):
            if isinstance(later[i], tuple):
                self.slots.append(later[i])
            else:
                self.slots.extend(split_run(later[i]) or [Lost(None)])
        # lost lines after the last intact one are not asked for: the
        # rounds to play next (as a torn last line is dropped)
        self.tail = 0
        while len(self.slots) > (0 if records else 1) and isinstance(self.slots[-1], Lost):
            self.slots.pop()
            self.tail += 1

    def lost(self):
        """The Lost line the players are to enter now, or None."""
        if self.at < len(self.slots) and isinstance(self.slots[self.at], Lost):
            return self.slots[self.at]
        return None

    def line_number(self):
        """The 1-based record line of the slot at hand (the setup is 1)."""
        return self.records + self.at + 1

    def replay(self, app):
        """Replay the intact lines from the slot at hand until a lost one
        (-> it) or the end (the journal is rewritten: -> None)."""
        while self.at < len(self.slots):
            slot = self.slots[self.at]
            if isinstance(slot, Lost):
                return slot
            obj = self._obj(slot)
            why = obj if isinstance(obj, str) else _apply(app, obj)
            if why is not None:
                self.stopped = (self._label(app, obj), why)
                self.dropped = len(self.slots) - self.at
                break
            self.kept += 1
            self.at += 1
        self.finish(app)
        return None

    def entered_line(self):
        """The players entered the lost line at hand (applied to the game)."""
        self.entered += 1
        self.at += 1

    def finish(self, app):
        """Keep a copy of the journal as found; write the mended one."""
        self.copy = self.journal.keep_copy()
        if app.game is not None:
            self.journal.rewrite(app.game.setup, app.game.actions)
        app.mend = None

    def report(self):
        """What was kept, in words (wrapped by the screen)."""
        out = "Kept %d line%s, entered %d again." % (self.kept, "" if self.kept == 1 else "s", self.entered)
        if self.stopped is not None:
            out += " %s refused (%s): it and %d later line%s dropped." % (
                self.stopped[0],
                self.stopped[1],
                self.dropped - 1,
                "" if self.dropped == 2 else "s",
            )
        if self.tail:
            out += " %d unreadable at the end dropped." % self.tail
        return out + " Copy as found: " + self.copy

    def _obj(self, slot):
        if isinstance(slot, dict):
            return slot
        return self.journal.read_line(slot)

    def _label(self, app, obj):
        if app.game is None:
            return "The setup"
        if isinstance(obj, dict) and "adjust" in obj:
            return "Adjustment %d" % (self.line_number() - 1)
        return "Round %d" % (app.game.state.round + 1)

    # -- what the intact lines allow ---------------------------------------------
    def _next_kept(self, app):
        # the objects of up to AHEAD intact lines after the lost one at hand
        out = []
        i = self.at + 1
        while i < len(self.slots) and len(out) < AHEAD:
            slot = self.slots[i]
            if isinstance(slot, Lost):
                break
            obj = self._obj(slot)
            if isinstance(obj, str):
                break
            out.append(obj)
            i += 1
        return out

    def allows(self, app, draft, need, acted, options):
        """Of options (answers to need, asked of draft), those with which
        the round can be completed so that the most of the next intact
        lines replay after it (all of them, unless one is refused
        whatever the players enter: then as many as any answer allows).
        An option whose search ran out of BUDGET is kept (not proven
        worse); if nothing completes, all are offered."""
        later = self._next_kept(app)
        hint = self.lost().hint if self.lost() is not None else None
        scores = []
        for v in options:
            app.hw.wdt_feed()  # a search can take a while on the Pico
            d = _put_in_copy(draft, need, v)
            budget = [BUDGET, False]
            n = -1 if d is None else _best(app.game, d, acted or need is None, hint, later, budget)
            scores.append((n, budget[1]))
        top = -1
        for n, _ in scores:
            if n > top:
                top = n
        if top < 0:
            return list(options)
        return [options[i] for i in range(len(options)) if scores[i][0] == top or scores[i][1]]

    def setup_allows(self, answers, options):
        """The setup's flamingo holder (answers == []) or watch start
        ([flamingo]) options some setup replays the next intact lines with."""
        later = []
        i = self.at + 1
        while i < len(self.slots) and len(later) < AHEAD and not isinstance(self.slots[i], Lost):
            obj = self._obj(self.slots[i])
            if isinstance(obj, str):
                break
            later.append(obj)
            i += 1
        out = []
        for v in options:
            fl = v if not answers else answers[0]
            watches = t42.SPACES if not answers else (v,)
            for w in watches:
                if _setup_replays(fl, w, later):
                    out.append(v)
                    break
        return out if out else list(options)


def _setup_replays(flamingo, watch, later):
    setup = {"game": "tea-for-2", "flamingo": flamingo, "watch": watch, "objectives": _ANY_OBJECTIVES}
    try:
        s = t42.new_state(setup)
        for obj in later:
            s = t42.apply(s, obj)
    except t42.Refused:
        return False
    return True


_ANY_OBJECTIVES = {"4": "tarts", "5": "hourglasses", "6": "deck", "7": "destroyed", "8": "most:cat"}


def _apply(app, obj):
    # one intact line into the game (the first: the setup) -> None, or why refused
    try:
        if app.game is None:
            app.game = t42.Game(obj)
        else:
            app.game.apply(obj)
    except t42.Refused as exc:
        return str(exc)
    return None


def _best(game, draft, acted, hint, later, budget):
    # The most later lines (a list of objects) that replay after a
    # completion of draft (the engine's options, the hint's answer first);
    # -1 if no completion plays. budget: [probes left, ran out].
    fills = []
    try:
        need = game.probe(draft, fills, not acted)
    except t42.Refused:
        return -1
    if need is None:
        return _replayed(game.state, draft, later)
    first = hinted(hint, draft, need)
    values = option_values(need)
    order = [first] if first in values else []
    for v in values:
        if v != first:
            order.append(v)
    best = -1
    for v in order:
        if budget[0] <= 0:
            budget[1] = True
            break
        budget[0] -= 1
        d = _put_in_copy(draft, need, v)
        n = -1 if d is None else _best(game, d, acted or need.kind == t42.ASK_ACTION, hint, later, budget)
        if n > best:
            best = n
            if best == len(later):
                break
    return best


def _replayed(state, line, later):
    # how many of the later lines replay after line (-1: line itself refused)
    try:
        s = t42.apply(state, line)
    except t42.Refused:
        return -1
    n = 0
    try:
        for obj in later:
            s = t42.apply(s, obj)
            n += 1
    except t42.Refused:
        pass
    return n


# -- the host tools' reading of a damaged journal -------------------------------------
# `teatally replay` and `teatally report` have no players to ask: they keep
# what the device would keep without asking. A damaged line is put right
# when its CRC allows (one byte changed), else skipped; the intact lines
# after it are replayed until the engine refuses one (it depended on the
# line skipped). The account says line by line what was done.


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


def is_journal(data):
    """Is the record (bytes) a device journal: does a line of it end in a
    CRC tail (TAB, 8 hex digits) that checks out?"""
    for raw in data.split(b"\n"):
        raw = raw.rstrip(b"\r")
        if len(raw) > 9 and raw[-9] == 9 and journal.intact_body(raw[:-9], _crc_of(raw)) == raw[:-9]:
            return True
    return False


def _crc_of(raw):
    # the CRC a line's tail gives, or None
    try:
        return int(raw[-8:], 16)
    except ValueError:
        return None


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
    pieces = journal.split_run(raw.rstrip(b"\r") + b"\n")
    if not pieces:
        out.append((n, None, reason))
        return
    for body, crc in pieces:
        good = journal.intact_body(body, crc)
        if good is not None and _obj(good) is not None:
            out.append((n, _obj(good), "damaged (%s), an intact line in it kept" % reason))
            continue
        fixed = one_byte_fix(body, crc) if crc is not None else None
        obj = _obj(fixed) if fixed is not None else None
        if obj is not None:
            out.append((n, obj, "%s, one byte put right by its CRC" % reason))
        else:
            out.append((n, None, reason))
