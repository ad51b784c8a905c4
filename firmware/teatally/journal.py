# The on-flash game journal: the device's journal IS the game record.
#
# Record format (JSON Lines, UTF-8): blank lines and lines starting with '#'
# are ignored; line 1 is the setup object, later lines are rounds or
# adjustments (interpreted by teatally.rules.t42, opaque here).
#
# Line protection (a contract shared with the host replay tool): a record line
# may end with a TAB and exactly 8 lowercase hex digits, the CRC-32
# (binascii.crc32) of the UTF-8 bytes of the JSON text before the tab. The
# journal always writes it; hand-written records may omit it.
#
# Lines are written compact (jsonc.dumps(obj, True): no spaces), as flash is
# spent on every round; readers take any JSON.
#
# Power-loss rules: a whole-file change (start, undo across rounds, repair) is
# written to a temp file and os.rename()d over the journal (atomic on
# LittleFS), so the journal is always the old or the new version. The undo's
# copy knows where each line ends (Journal.ends, kept since the load), so it
# reads nothing twice and allocates nothing per chunk. An append
# can only be torn in its last line; the CRC (and the missing newline) gives
# it away and load() drops it. A line's append is the commit of that round:
# a line without its newline was never committed, so it is dropped too.
#
# Damage in an earlier line: no intact line is lost. load()/scan() take the
# lines before the first bad one; when intact lines follow the damage (or the
# setup line itself is damaged) the journal is left as it is and
# Journal.later says what follows (see scan): teatally.recover then has the
# players enter again only what is missing and rewrites the journal
# (recover.rewrite: atomic). Damage with no intact line after it (a torn append,
# garbage at the end) is dropped at once. Either way the journal as it was
# found is first copied to games/dNNNN.jsonl (keep_copy: numbered with the
# archives, never overwritten, pruned with them when flash is low).
#
# Only os functions that MicroPython has: rename, remove, listdir, stat,
# mkdir, statvfs. No os.path: paths are joined by hand ("" root -> "/x").

import binascii
import json
import os
import sys

from teatally import jsonc

GAME = "game.jsonl"
ARCHIVE_DIR = "games"
PAD_FILE = "pad.json"  # a score pad in progress (ui.pads saves it after every entry)
# Keep at least this much flash free for the current game; archives go first.
MIN_FREE = 16 * 1024
# games/gNNNN.jsonl: a finished game; games/dNNNN.jsonl: a journal kept as it
# was found damaged, or a game set aside (one numbering for both: by age)
# A journal line longer than this is damage (garbage without a newline);
# bounds the heap used per line read. Round lines are ~70 bytes, setup more.
MAX_LINE = 1024
# Flash bytes per committed round line (JSON + tab + CRC + newline). Not
# enforced (refusing a round would lose the game); tests measure against it.
ROUND_LINE_BUDGET = 128
_MP = sys.implementation.name == "micropython"
_CHUNK = 256  # bytes per chunk of a copy (undo, repair)
_READ = 1024  # bytes per read of the load


class RecordError(ValueError):
    """A bad line in a game record: .line (1-based) and .reason."""

    def __init__(self, line, reason):
        super().__init__("line %d: %s" % (line, reason))
        self.line = line
        self.reason = reason


def _crc(data):
    # unsigned on both interpreters (Python 3's crc32; MicroPython's too)
    return binascii.crc32(data)


def protect(json_text):
    """Journal line for a canonical JSON text: text, TAB, CRC-32 hex, newline."""
    return "%s\t%08x\n" % (json_text, _crc(json_text.encode()))


def _is_hex8(b, at):
    for i in range(at, at + 8):
        c = b[i]
        if not (48 <= c <= 57 or 97 <= c <= 102):
            return False
    return True


def _split(b, n=-1):
    # b: bytes of one line, its first n without its line ending (n < 0: all
    # of them). Returns (json_bytes, crc_state) with crc_state True
    # (present, right), False (present, wrong), None (absent).
    if n < 0:
        n = len(b)
    if n >= 9 and b[n - 9] == 9:
        body = b[: n - 9]
        if b"%08x" % _crc(body) == b[n - 8 : n]:  # (bytes: no str to look up)
            return body, True
        if _is_hex8(b, n - 8):  # (only a line that fails looks at its digits: resume_ms_est)
            return body, False
    return (b if n == len(b) else b[:n]), None


def _strip_eol(b):
    if b[-1:] == b"\n":
        b = b[:-1]
    if b[-1:] == b"\r":
        b = b[:-1]
    return b


def unprotect(line):
    """JSON text of a record line (str or bytes), or None when the CRC is
    present and wrong or the line is torn/malformed. A line without a CRC
    (hand-written) is returned as is if it could be a whole object."""
    if isinstance(line, str):
        line = line.encode()
    body, ok = _split(_strip_eol(line))
    if ok is False:
        return None
    if ok is None:
        body = body.rstrip()
        # a JSON object line ends with '}'; anything else was cut short
        if body[-1:] != b"}":
            return None
    try:
        return body.decode()
    except UnicodeError:
        return None


def _loads_obj(text):
    # -> dict, or a reason string
    try:
        obj = json.loads(text)
    except ValueError:
        return "not valid JSON"
    except MemoryError:
        # a line nested thousands deep (damage or a hostile file) does not
        # fit the heap: refused like any bad line, the rest of the heap intact
        return "too large to read"
    if not isinstance(obj, dict):
        return "not a JSON object"
    return obj


def _record(raw, require_crc, n=-1):
    # raw: bytes of one line, its first n without its ending (n < 0: all
    # of them) -> dict or a reason string
    body, ok = _split(raw, n)
    if ok is False:
        return "CRC mismatch"
    if ok is None and require_crc:
        return "no CRC"
    if body and max(body) < 128:
        # ASCII, as every line the device writes: JSON read from the bytes
        # themselves, no text made first (resume_ms_est: a line's decode)
        return _loads_obj(body)
    text = _utf8(body)
    return "not UTF-8" if text is None else _loads_obj(text)


def _utf8(b):
    # b decoded, or None
    try:
        return b.decode()
    except UnicodeError:
        return None


def parse_record_lines(source):
    """Yield (line_number, obj) for each record line of a game record.

    source: the whole text (str/bytes) or an iterable of lines (a file, a
    list). Blank lines and '#' comments are skipped; a CRC is checked when
    present. A bad line raises RecordError(line, reason)."""
    if isinstance(source, (str, bytes)):
        source = source.split("\n" if isinstance(source, str) else b"\n")
    n = 0
    for line in source:
        n += 1
        if isinstance(line, str):
            line = line.encode()
        raw = _strip_eol(line)
        s = raw.strip()
        if not s or s[:1] == b"#":
            continue
        obj = _record(raw, False)
        if isinstance(obj, str):
            raise RecordError(n, obj)
        yield n, obj


def _data(text):
    # what a line's JSON text is written as: MicroPython writes (and CRCs)
    # a str's UTF-8 bytes as they are, without a copy
    return text if _MP else text.encode()


def line_text(obj):
    """A record line's JSON as the journal writes it (without its tail)."""
    return _data(jsonc.dumps(obj, True))


def _tail(data):
    # a line's end after its JSON bytes, as protect() writes it: TAB, CRC-32
    # hex, newline (bytes: a new str costs an interned-string search)
    return b"\t%08x\n" % _crc(data)


def _write_line(f, data):
    """Write one protected line to the open file f (the JSON text data, then
    its tail) and flush it: on LittleFS the flush is the commit. Closes f.
    -> the file's length after."""
    try:
        f.write(data)
        f.write(_tail(data))
        f.flush()
        return f.tell()
    finally:
        f.close()


def write_file(path, text):
    """Replace the small file at path by text, atomically: written beside
    it, then renamed over it (a power cut leaves the old or the new file)."""
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.rename(path + ".tmp", path)


def _join(root, name):
    return root + "/" + name


def file_exists(path):
    """True if a file or folder is at path."""
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def _copy_prefix(src, dst, nbytes, tail):
    # First nbytes of src -> dst (chunked: small heap); the rest -> tail, if
    # any. One buffer for the whole copy: no allocation per chunk.
    buf = bytearray(_CHUNK)
    mv = memoryview(buf)
    fi = open(src, "rb")
    for path, left in ((dst, nbytes), (tail, -1)):
        if path is None:
            break
        fo = open(path, "wb")
        while left:
            n = fi.readinto(buf if left < 0 or left >= _CHUNK else mv[:left])
            if not n:
                break
            fo.write(buf if n == _CHUNK else mv[:n])
            left -= n
        fo.flush()
        fo.close()
    fi.close()


class _Reader:
    """readline(MAX_LINE) in chunks: MicroPython's readline asks the file for
    one byte at a time. next() gives the same pieces: a line with its
    newline, MAX_LINE bytes of a longer one, the unterminated rest, then b""."""

    __slots__ = ("f", "buf", "at", "more")

    def __init__(self, f):
        self.f = f
        self.buf = b""
        self.at = 0
        self.more = True

    def next(self):
        while True:
            at = self.at
            i = self.buf.find(b"\n", at)
            if 0 <= i < at + MAX_LINE:
                self.at = i + 1
                return self.buf[at : i + 1]
            if len(self.buf) - at >= MAX_LINE:
                self.at = at + MAX_LINE
                return self.buf[at : at + MAX_LINE]
            if not self.more:
                self.at = len(self.buf)
                return self.buf[at:]
            self.fill()

    def fill(self):
        b = self.f.read(_READ)
        self.more = len(b) > 0
        self.buf = self.buf[self.at :] + b
        self.at = 0


def _line_ends(path, ends):
    # the offset after each line of the file at path, appended to ends
    at = 0
    f = open(path, "rb")
    rd = _Reader(f)
    while True:
        n = len(rd.next())
        if not n:
            break
        at += n
        ends.append(at)
    f.close()


def _statvfs_free(root):
    def free():
        try:
            st = os.statvfs(root or "/")
        except OSError:
            return None  # unknown (e.g. the host VM): prune nothing
        return st[0] * st[4]

    return free


def _listdir(path):
    try:
        return os.listdir(path)
    except OSError:
        return []


def _numbered(names, prefix="g"):
    # the names among names with that prefix (None: archives and kept
    # copies) and a number, oldest first
    nums = []
    for name in names:
        if (prefix is None or name[:1] == prefix) and _archive_number(name) >= 0:
            nums.append((_archive_number(name), name))
    nums.sort()
    return [name for k, name in nums]


def _write_final(f, data):
    # the archive's last line: "# final " and the summary's JSON text data
    # (written in pieces: no str made of the whole line), flushed; closes f
    try:
        f.write(b"# final ")
        f.write(data)
        f.write(b"\n")
        f.flush()
    finally:
        f.close()


def _archive_number(name):
    # "g0012.jsonl" (or "d0012.jsonl") -> 12; anything else (temp files,
    # strays) -> -1
    if len(name) < 8 or name[0] not in "gd" or name[-6:] != ".jsonl":
        return -1
    digits = name[1:-6]
    for c in digits:
        if not "0" <= c <= "9":
            return -1
    return int(digits)


class Journal:
    """The current game at <root>/game.jsonl; finished games in <root>/games/."""

    __slots__ = ("root", "path", "tmp", "games", "free_bytes", "lines", "ends", "later")

    def __init__(self, root, free_bytes=None):
        self.root = root
        self.path = _join(root, GAME)
        self.tmp = _join(root, "game.tmp")
        self.games = _join(root, ARCHIVE_DIR)
        # free_bytes() -> int or None; injectable (tests, CPython hosts)
        self.free_bytes = free_bytes or _statvfs_free(root)
        self.lines = 0  # record lines in the journal, known after load/start/append
        # ends[i]: the file offset just after line i + 1; None: not known
        # (a journal found on flash and not loaded yet)
        self.ends = None
        # after a scan that found intact lines after damage (or a damaged
        # setup): what follows the lines taken, in order: (start, end) file
        # offsets of an intact line, or the bytes of a run of damaged lines
        # (at most 2048 of them). None: nothing to mend (see
        # teatally.recover).
        self.later = None

    def exists(self):
        return file_exists(self.path)

    def load(self):
        """-> (objects, notice). The objects of the lines before the first
        damaged one; a damaged or torn tail is dropped (the file repaired
        atomically, a copy kept) and notice says so (else None). Intact lines
        after damage are not dropped: see scan and Journal.later."""
        objs = []
        return objs, self.scan(objs.append)[1]

    def scan(self, take):
        """Stream the journal: take(obj) for each line before the first
        damaged one, in order, never for a damaged line. Damage with no
        intact line after it is dropped (the journal as found is copied to
        games/dNNNN.jsonl first, the file repaired atomically). Intact lines
        after damage, or a damaged setup line, are kept: the journal stays
        as it is and self.later lists what follows (teatally.recover mends
        it). -> (records taken, notice or None). On the Pico, fold rounds
        into the game state here instead of holding the list: a round
        parsed into a dict costs ~330 bytes of heap under MicroPython, its
        line ~100 on flash."""
        # records, bytes of the valid prefix, damaged lines, ends, later
        st = [0, 0, 0, [], []]
        self.later = None
        for obj in self._walk(st):
            take(obj)
        return self._settle(st)

    def _walk(self, st):
        # Yield the objects of the valid prefix; then note what follows.
        if not file_exists(self.path):
            return
        f = open(self.path, "rb")  # there but unreadable: the error says so
        starts = True  # the next piece read begins a new line
        at = 0  # file offset of the piece read
        rd = _Reader(f)
        try:
            while True:
                line = rd.next()
                if not line:
                    break
                whole = line[-1] == 10  # (a newline: no slice of it to compare, resume_ms_est)
                obj = _record(line, True, len(line) - 1) if whole and starts else None
                if st[2] or not isinstance(obj, dict):
                    _note_later(st, line, at, starts, isinstance(obj, dict))
                else:
                    st[0] += 1
                    st[1] += len(line)
                    st[3].append(st[1])
                    yield obj
                starts = whole
                at += len(line)
        finally:
            f.close()

    def _settle(self, st):
        self.lines = st[0]
        self.ends = st[3]
        if not st[2]:
            return st[0], None
        later = st[4]
        if st[0] and len(later) == 1 and b"\n" not in later[0]:
            return st[0], self.drop_tail(st)  # a torn append: never committed
        from teatally import recover  # damage in committed lines: rare, loaded only then

        return recover.settle(self, st)

    def rewrite(self, setup_obj, actions):
        """The journal becomes setup_obj and the actions (a sequence), in one
        atomic step (written beside it, renamed over it): a mended journal
        (teatally.recover)."""
        ends = []
        f = open(self.tmp, "wb")
        try:
            for i in range(len(actions) + 1):
                f.write(protect(jsonc.dumps(setup_obj if i == 0 else actions[i - 1], True)).encode())
                ends.append(f.tell())
            f.flush()
        finally:
            f.close()
        os.rename(self.tmp, self.path)
        self.lines = len(ends)
        self.ends = ends
        self.later = None

    def drop_tail(self, st):
        """Drop the damage after the lines taken (st: scan's counts): the
        journal as found copied to games/dNNNN.jsonl first, then cut
        (atomic). -> the notice."""
        name = self.keep_copy()
        _copy_prefix(self.path, self.tmp, st[1], None)
        os.rename(self.tmp, self.path)
        return "Last %d line(s) unreadable: dropped (a copy is kept: %s)" % (st[2], name)

    def copy_name(self):
        """The name keep_copy() gives its copy next (reads only: a screen
        can say it before the copy is made, App.later)."""
        return self._next_name("d", _numbered(_listdir(self.games), None))

    def keep_copy(self, name=None):
        """Copy the journal as it is to games/dNNNN.jsonl (a new name each
        time: never overwritten; ``name``: copy_name()'s, told ahead).
        -> the name."""
        if name is None:
            name = self._next_archive("d")
        elif not file_exists(self.games):
            os.mkdir(self.games)
        try:
            _copy_prefix(self.path, _join(self.games, name), -1, None)
        except OSError:
            _remove(_join(self.games, name))  # no half copy left (a full flash)
            raise
        return name

    def set_aside(self):
        """Move the journal (whatever it is, even a folder) to
        games/dNNNN.jsonl, out of the way of a new game. Nothing is deleted.
        -> the name."""
        name = self._next_archive("d")
        os.rename(self.path, _join(self.games, name))
        return name

    def start(self, setup_obj, text=None):
        """Begin a new game: the journal becomes just the setup line (atomic).
        text: the line's JSON made ahead (line_text(setup_obj))."""
        if text is None:
            text = line_text(setup_obj)
        end = _write_line(open(self.tmp, "wb"), text)
        os.rename(self.tmp, self.path)
        self.lines = 1
        self.ends = [end]

    def append(self, obj, text=None):
        """Commit one round or adjustment: one protected line, flushed.
        text: its JSON made ahead (line_text(obj)). Returns the number of
        bytes written."""
        data = line_text(obj) if text is None else text
        end = _write_line(open(self.path, "ab"), data)
        self.lines += 1
        ends = self.ends
        if ends is None:
            # not loaded: where the line began is unknown
            return len(data.encode() if _MP else data) + 10
        n = end - (ends[-1] if ends else 0)
        ends.append(end)
        return n

    def truncate(self, n_lines):
        """Undo across committed rounds: keep the first n_lines record lines
        (atomic rewrite, so an undo survives power loss)."""
        if n_lines <= 0:
            _remove(self.path)
            self.lines = 0
            self.ends = []
            return
        ends = self.ends
        if ends is None or not ends or os.stat(self.path)[6] != ends[-1]:
            ends = self._measure()  # not loaded, or changed behind our back
        if n_lines >= len(ends):
            # nothing to cut: the journal stays as it is
            self.lines = len(ends)
            self.ends = ends
            return
        del ends[n_lines:]
        _copy_prefix(self.path, self.tmp, ends[-1], None)
        os.rename(self.tmp, self.path)
        self.lines = n_lines
        self.ends = ends

    def _measure(self):
        # where each line of the journal ends (no check: it was loaded before)
        ends = []
        _line_ends(self.path, ends)
        return ends

    def list_archives(self):
        """Archived game file names, oldest first (e.g. ['g0001.jsonl', ...])."""
        return _numbered(_listdir(self.games))

    def archive_path(self, name):
        return _join(self.games, name)

    def archive(self, final_summary_obj, text=None):
        """Move the finished game to games/gNNNN.jsonl (next number after the
        highest, so names sort by age) and end it with a comment line
        '# final {...}' so the file stays a valid game record. Returns the name.

        The move is a rename first: at no instant is the game in neither
        place nor in both. Power loss before the comment is written leaves an
        archive without it (the summary can be replayed from the record).
        text: the summary's JSON made ahead (line_text(final_summary_obj))."""
        name = self._next_archive()
        path = _join(self.games, name)
        os.rename(self.path, path)
        self.lines = 0
        self.ends = []
        if text is None:
            text = line_text(final_summary_obj)
        _write_final(open(path, "ab"), text)
        return name

    def _next_archive(self, prefix="g"):
        # the next archive's name (the games folder made if need be): the
        # number after the highest of the archives and the copies kept
        names = _numbered(_listdir(self.games), None)
        if not names and not file_exists(self.games):
            os.mkdir(self.games)
        return self._next_name(prefix, names)

    def _next_name(self, prefix, names):
        # the number after the highest of names (sorted archive names)
        return "%s%04d.jsonl" % (prefix, _archive_number(names[-1]) + 1 if names else 1)

    def prune(self, min_free_bytes):
        """Delete the oldest archived games and kept copies (damaged
        journals, games set aside) while free space is below
        min_free_bytes. Never touches the current game. Returns the names
        deleted, oldest first."""
        gone = []
        free = self.free_bytes()
        if free is None or free >= min_free_bytes:
            return gone  # the usual case: nothing to list
        names = _numbered(_listdir(self.games), None)
        while names:
            if free is None or free >= min_free_bytes:
                break
            name = names.pop(0)
            os.remove(_join(self.games, name))
            gone.append(name)
            free = self.free_bytes()
        return gone


def _note_later(st, line, at, starts, intact):
    # a piece read after the first damaged line (or the damaged one): an
    # intact line's span, or its bytes added to the run of damaged lines
    later = st[4]
    if intact:
        later.append((at, at + len(line)))
        return
    if starts:
        st[2] += 1
    if not later or isinstance(later[-1], tuple):
        later.append(bytearray())
    run = later[-1]
    if len(run) < 2048:  # (enough for the players' prefill; bounds the heap)
        run.extend(line[: 2048 - len(run)])
