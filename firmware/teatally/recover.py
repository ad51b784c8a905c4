# Mending a damaged journal: no intact line is lost (issue 15).
#
# journal.Journal.scan stops taking lines at the first damaged one; when
# intact lines follow it (or the setup line itself is damaged) it leaves the
# journal as it is and lists what follows in Journal.later (settle). A Mend
# works through that list on the game built from the lines before the damage:
#
# - each run of damaged bytes is cut into the lines it held (a line ends in
#   TAB + 8 hex digits: two lines glued by a lost newline come apart, and a
#   line whose CRC still checks out is simply kept); each line that does not
#   check out is lost ([hint]) and the players enter it again (the guided screens:
#   ui.t42.recover), prefilled with what can still be read of it (the line
#   with the one byte put right that makes its CRC check out, else its JSON
#   if it still parses), and offered only the answers the next intact lines
#   allow (allows: the engine plays each answer out, the read one first, and
#   replays the lines after it);
# - each intact line is replayed; a line the engine now refuses stops the
#   replay there (the screen says which and why);
# - at the end the journal as found is copied to games/dNNNN.jsonl and the
#   journal rewritten from the game (atomic: rewrite).
#
# Nothing is written before the end: a power cut while the players re-enter
# a line leaves the damaged journal, and the next boot mends it again.
# Loaded only when damage is found (a normal game never imports it).

import binascii
import json

from teatally.rules import t42
from teatally.compat import const

# The answers a check plays out at most per option shown (each a probe of the
# round): past it, the option is offered (not proven worse).
_BUDGET = const(60)
# Intact lines replayed to check an answer (the first refusal usually comes
# at once); the whole rest is replayed when the line is entered.
_AHEAD = const(6)
_ACTIONS = ("effect", "none", 4, 5, 6, 7, 8)
# an effect's first choice that the action menu offers with it; the cat's
# "space" first: its dict holds the space's parameters too (a copied king's
# "take", a copied queen's "pile")
_FOLDED = ("space", "take", "pile")


def settle(j, st):
    """journal.Journal.scan found damage in committed lines (st: its counts,
    see there). With no intact line after it (garbage at the end) it is
    dropped (Journal.drop_tail). Intact lines after it, or a damaged setup:
    the journal stays as found and j.later lists what follows, for a Mend.
    -> (records taken, notice or None)."""
    later = st[4]
    last = len(later) - 1
    while last >= 0 and not isinstance(later[last], tuple) and dict not in [type(x) for x in split_run(later[last])]:
        last -= 1  # (a run holding an intact line counts as one)
    if last >= 0 or not st[0]:
        j.later = later  # (damage after the last intact line: Mend.tail)
        return st[0], None
    return st[0], j.drop_tail(st)


def split_pieces(run):
    """The lines a run of damaged bytes held, as (JSON bytes, CRC or None):
    a line ends in TAB and 8 hex digits wherever its newline went; the rest
    after the last such end, if any, has no CRC. Bytes after the last
    newline (a torn append: never committed) are left out."""
    b = bytes(run[: run.rfind(b"\n") + 1])
    out = []
    at = 0
    i = b.find(b"\t")
    while i >= 0:
        try:
            crc = int(b[i + 1 : i + 9], 16) if i + 9 <= len(b) else -1
        except ValueError:
            crc = -1
        if crc >= 0:
            out.append((b[at:i].strip(), crc))
            at = i + 9
        i = b.find(b"\t", i + 1)
    rest = b[at:].strip()
    if rest:
        out.append((rest, None))
    return out


def intact_body(body, crc):
    """The end of body from a "{" on (the whole of it first) whose CRC-32
    is crc, else None: a line glued to bytes before it (a lost newline, a
    torn append) still checks out."""
    i = 0
    while crc is not None and i >= 0:
        if binascii.crc32(body[i:]) == crc:
            return body[i:]
        i = body.find(b"{", i + 1)
    return None


def one_byte_fix(body, crc):
    """body with the one byte changed (to printable ASCII, what the journal
    writes) that makes its CRC-32 crc, or None."""
    b = bytearray(body)
    for i in range(len(b)):
        was = b[i]
        for c in range(32, 127):
            b[i] = c
            if binascii.crc32(b) == crc:
                return bytes(b)
        b[i] = was
    return None


def split_run(run):
    """The lines a run of damaged bytes held, in order: a dict for a line
    whose CRC checks out (kept as it is), a lost one as [hint]: what can
    still be read of it (a dict, perhaps wrong in places) or None."""
    out = []
    for body, crc in split_pieces(run):
        good = intact_body(body, crc) if body else None
        obj = line_object(good) if good is not None else None
        if obj is None and body:
            fixed = one_byte_fix(body, crc) if crc is not None else None
            obj = [(fixed is not None and line_object(fixed)) or line_object(body)]
        if obj is not None:
            out.append(obj)
    return out


def line_object(b):
    """A line's JSON body (bytes) -> its dict, or None (the host's salvage
    reads damaged lines the same way)."""
    try:
        obj = json.loads(b)
    except (ValueError, UnicodeError):
        return None
    return obj if isinstance(obj, dict) else None


def find_path(d, target, path=()):
    """Keys leading from the dict d to the dict target (by identity), or None."""
    if d is target:
        return path
    for k in d:
        if isinstance(d[k], dict):
            p = find_path(d[k], target, path + (k,))
            if p is not None:
                return p
    return None


def _at(d, path):
    # d[path[0]][path[1]]... (None where there is no such dict)
    for k in path or ():
        d = d.get(k) if isinstance(d, dict) else None
    return d if path is not None else None


def answered(draft, need, v):
    """A copy of the round line draft with answer v to need (None: the
    winner's action) written in, as the guided round writes it (a copied
    effect applied leaves no trace: the round counts it, T42-COPY-4)."""
    c = json.loads(json.dumps(draft))
    if need is not None and need.kind == t42.ASK_COPY and not v:
        return c
    if need is None or need.kind == t42.ASK_ACTION:
        if v == "effect":
            c["effect"] = {}
        elif type(v) is tuple:  # the effect with its first choice (ui.t42.round._act)
            c["effect"] = {v[0]: v[1]}
        elif v != "none":
            c["buy"] = v
        return c
    p = _at(c, find_path(draft, need.params))
    if isinstance(p.get(need.key), list):
        p[need.key].append(v)
    else:
        p[need.key] = v
    return c


def hinted(hint, draft, need):
    """The hint's answer to need (asked of draft; None: the action), or None."""
    if not isinstance(hint, dict):
        return None
    if need is None or need.kind == t42.ASK_ACTION:
        if "effect" not in hint:
            return hint.get("buy", "none")
        e = hint["effect"]
        if isinstance(e, dict):
            for k in _FOLDED:
                if k in e:
                    return (k, e[k])  # as the action menu offers it (ui.t42.round._effect_rows)
        return "effect"
    src = _at(hint, find_path(draft, need.params))
    v = src.get(need.key) if isinstance(src, dict) else None
    if need.kind == t42.ASK_COPY:
        return v is True if isinstance(src, dict) else None  # no "decline": applied
    if isinstance(v, list):
        i = len(need.params.get(need.key) or ())
        v = v[i] if i < len(v) else None
    return v


class Mend:
    """The mending of a damaged journal, step by step (see the top)."""

    def __init__(self, j, records):
        self.journal = j
        self.slots = []  # what follows: (start, end) spans, dicts, [hint] (lost)
        self.at = 0  # the slot at hand
        self.entered = 0  # lines the players entered again
        self.kept = records  # lines kept (replayed)
        self.stopped = None  # what the engine refused, and why
        for x in j.later:
            if isinstance(x, tuple):
                self.slots.append(x)
            else:
                self.slots.extend(split_run(x) or [[None]])
        # lost lines after the last intact one are not asked for: the
        # rounds to play next (as a torn last line is dropped)
        self.tail = 0
        while len(self.slots) > (0 if records else 1) and isinstance(self.slots[-1], list):
            self.slots.pop()
            self.tail += 1

    def lost(self):
        """The lost line the players are to enter now ([hint]), or None."""
        if self.at < len(self.slots) and isinstance(self.slots[self.at], list):
            return self.slots[self.at]
        return None

    def replay(self, app):
        """Replay the intact lines from the slot at hand until a lost one
        (-> it) or the end (the journal is rewritten: -> None)."""
        while self.at < len(self.slots) and self.lost() is None:
            obj = self._obj(self.slots[self.at])
            why = _apply(app, obj) if obj is not None else "unreadable"
            if why is not None:
                what = "Round %d" % (app.game.state.round + 1) if app.game is not None else "The setup"
                self.stopped = "%s refused (%s): %d line(s) dropped." % (what, why, len(self.slots) - self.at)
                break
            self.kept += 1
            self.at += 1
        if self.lost() is not None and self.stopped is None:
            return self.lost()
        # the journal as found copied, then rewritten, after the screen
        # that reports it (app.later: every press shows its screen first)
        self.copy = self.journal.copy_name()
        game = app.game  # (None: the setup was refused, left as found)
        setup = actions = None
        if game is not None:
            setup, actions = game.setup, list(game.actions)
        app.later(_mended, self.journal, self.copy, setup, actions)
        app.mend = None
        return None

    def entered_line(self):
        """The players entered the lost line at hand (applied to the game)."""
        self.entered += 1
        self.at += 1

    def report(self):
        """What was kept, in words (wrapped by the screen)."""
        out = "Kept %d lines, entered %d again. " % (self.kept, self.entered)
        if self.stopped is not None:
            out += self.stopped + " "
        if self.tail:
            out += "%d unreadable at the end. " % self.tail
        return out + "Copy: " + self.copy

    def _obj(self, slot):
        # an intact slot's object (None if it no longer reads)
        if isinstance(slot, dict):
            return slot
        f = open(self.journal.path, "rb")
        try:
            f.seek(slot[0])
            b = f.read(slot[1] - slot[0])
        finally:
            f.close()
        return line_object(b[: b.rfind(b"\t")])  # its CRC was checked by the scan

    def _next_kept(self):
        # the objects of up to _AHEAD intact lines after the lost one at hand
        out = []
        i = self.at + 1
        while i < len(self.slots) and len(out) < _AHEAD and not isinstance(self.slots[i], list):
            obj = self._obj(self.slots[i])
            if obj is None:
                break
            out.append(obj)
            i += 1
        return out

    # -- what the intact lines allow -----------------------------------------------
    def allows(self, app, draft, need, acted, options, copies=0):
        """Of options (answers to need, asked of draft), those with which
        the round can be completed so that the most of the next intact
        lines replay after it (all of them, unless one is refused whatever
        the players enter: then as many as any answer allows); copies:
        the copied effects applied so far (T42-COPY-4). An option
        whose search ran out of _BUDGET is kept (not proven worse); if
        nothing completes, all are offered."""
        later = self._next_kept()
        hint = self.lost()[0]
        scores = []
        for v in options:
            app.hw.wdt_feed()  # a search can take a while on the Pico
            budget = [_BUDGET, False]
            n = copies + (need is not None and need.kind == t42.ASK_COPY and not v)
            scores.append(
                (_best(app.game, answered(draft, need, v), acted or need is None, hint, later, budget, n), budget[1])
            )
        top = max([n for n, _ in scores])
        if top < 0:
            return list(options)
        return [options[i] for i in range(len(options)) if scores[i][0] == top or scores[i][1]]

    def shape(self, r, lo_hi=None):
        """A guided round's question (r: the Round, set up for r.need)
        narrowed to what the intact lines after it allow, the answer read
        from the damaged line selected (r.sel): a menu's rows (r.rows), or
        given lo_hi, a picker's range -> (lo, hi)."""
        rows = r.rows
        values = list(range(lo_hi[0], lo_hi[1] + 1)) if lo_hi else [it[1] for it in rows]
        ok = self.allows(r.app, r.draft, r.need, r.acted, values, r.copies)
        v = hinted(self.lost()[0], r.draft, r.need)
        if lo_hi:
            if v in ok:
                r.sel = v
            return (min(ok), max(ok))
        rows[:] = [it for it in rows if it[1] in ok]
        for i in range(len(rows)):
            # (a folded effect's choice the menu offers plainly: one pile left)
            if rows[i][1] == v or (type(v) is tuple and rows[i][1] == "effect"):
                r.sel = i
        return None

    def setup_items(self, answers, items, sel):
        """A damaged setup's question (answers so far; items, sel as the
        new-game screen has them) -> (items, sel): no random draw (the line
        recorded what was drawn), the flamingo holder and watch start
        narrowed to those some setup replays the next intact rounds with,
        the answer read from the damaged line selected."""
        n = len(answers)
        later = self._next_kept()
        ok = []
        for it in items:
            for w in t42.SPACES if n == 0 else (it[1],):
                if n > 1 or (
                    it[1] != "random" and _replayed(_setup(answers[0] if n else it[1], w), None, later) == len(later)
                ):
                    ok.append(it)
                    break
        if not ok:
            ok = [it for it in items if it[1] != "random"]
        hint = self.lost()[0]
        hint = hint if isinstance(hint, dict) else {}
        v = hint.get(("flamingo", "watch")[n]) if n < 2 else _at(hint, ("objectives",))
        if n > 1 and isinstance(v, dict):
            v = v.get(str(t42.PILES[n - 2]))
        for i in range(len(ok)):
            if ok[i][1] == v:
                sel = i
        return ok, min(sel, len(ok) - 1)


def _setup(flamingo, watch):
    # the state a setup with this flamingo holder and watch start begins with
    o = t42.OBJECTIVES  # any: they only score
    s = {"game": "tea-for-2", "flamingo": flamingo, "watch": watch}
    s["objectives"] = {"4": o[0], "5": o[1], "6": o[2], "7": o[3], "8": o[4]}
    return t42.new_state(s)


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


def _best(game, draft, acted, hint, later, budget, copies=0):
    # The most later lines (a list of objects) that replay after a
    # completion of draft (the engine's options, the hint's answer first);
    # -1 if no completion plays. budget: [probes left, ran out]; copies:
    # the copied effects applied so far (T42-COPY-4).
    try:
        need = game.probe(draft, [], not acted, copies)
    except t42.Refused:
        return -1
    if need is None:
        return _replayed(game.state, draft, later)
    first = hinted(hint, draft, need)
    if type(first) is tuple:
        first = "effect"  # the search asks the effect's choice after it
    values = need.options
    if need.kind == t42.ASK_ACTION:
        values = _ACTIONS
    elif need.kind == t42.ASK_STARS or need.kind == t42.ASK_HOURGLASSES:
        values = range(values[0], values[1] + 1)
    best = -1
    for v in [first] + [v for v in values if v != first]:
        if budget[0] <= 0:
            budget[1] = True
            break
        if v is None or v not in values:
            continue
        budget[0] -= 1
        more = copies + (need.kind == t42.ASK_COPY and not v)
        n = _best(game, answered(draft, need, v), acted or need.kind == t42.ASK_ACTION, hint, later, budget, more)
        if n > best:
            best = n
            if best == len(later):
                break
    return best


def _replayed(state, line, later):
    # how many of the later lines replay after line (None: none) from
    # state; -1: line itself refused
    try:
        s = t42.apply(state, line) if line is not None else state
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


def _mended(journal, copy, setup, actions):
    # (Mend.replay's flash work, after its screen) the journal as found kept
    # as games/<copy>, then the mended game written over it
    journal.keep_copy(copy)
    if setup is not None:
        journal.rewrite(setup, actions)
