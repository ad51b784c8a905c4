"""What every `teatally` command does with bad input: one line on stderr,
``teatally <command>: <what is wrong>``, and exit status 2 (never a
traceback). A command raises BadInput; the cli (teatally_host.cli) prints it.

Exit statuses, the same in every command:
  0  done
  1  done, but what it checked failed (bench: a budget exceeded; sim: the
     firmware stopped)
  2  bad input: a file that cannot be read or is not what it should be, an
     unknown option value, an unknown board, no board on the USB port
  3  an internal error (a bug in Tea Tally): one line as well;
     TEATALLY_DEBUG=1 shows the traceback
"""

from teatally import record
from teatally.journal import RecordError, parse_record_lines

BAD_INPUT = 2
INTERNAL = 3
# A record line nested deeper than the host's JSON parser can follow. No
# legal line comes near it: a copy chain, the deepest thing in a record,
# nests a few levels (T42-COPY-3).
TOO_DEEP = "not valid JSON (nested too deeply)"


class BadInput(Exception):
    """A mistake in what the user gave: str(exc) is the message, one line."""


def one_line(text):
    """text with every run of white space (newlines too) made one space."""
    return " ".join(str(text).split())


def shown(name):
    """A file name as a message shows it: as it is, or quoted with escapes
    when it holds a line break or another control character."""
    return name if name.isprintable() else repr(name)


def say(command, message):
    """The one line a failed command (or a warning) leaves on stderr."""
    import sys

    sys.stderr.write("teatally %s: %s\n" % (command, one_line(message)))


def folder(path, what):
    """Make the folder `path` (and its parents) unless it is there ->
    Path; a path that is or runs through something that is not a folder
    (a file, /dev/null) is BadInput naming it: `what` says what the folder
    is for ("--out: the folder for the report's files")."""
    from pathlib import Path

    p = Path(path)
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        for q in [p] + list(p.parents):
            if q.exists() and not q.is_dir():
                kind = "a file, not a folder" if q.is_file() else "not a folder"
                raise BadInput("%s: %s is %s" % (what, shown(str(q)), kind) + (
                    "" if q == p else ", so %s cannot be one" % shown(str(p))))
        raise BadInput("%s: cannot make %s: %s" % (what, shown(str(p)), exc.strerror or exc))
    return p


# The most any command reads of one input (a game record, a score file, a
# key script, each record of a season's folder): 1 MiB. A 60-round game's
# record is about 4 KB, a bench key script the same, a score file well under
# 1 KB, so 1 MiB leaves any real input room (a record of 10,000 adjustments
# fits) while an endless stream (/dev/zero, /dev/urandom, a pipe that never
# ends) or a huge file is refused after 1 MiB instead of filling the
# computer's memory: what a command holds stays a few times this (the
# lines and their JSON), far under 100 MB.
MAX_INPUT = 1 << 20
MAX_INPUT_TEXT = "1 MiB"
# what `teatally CMD -h` says of it, below the options of the commands that read input
INPUT_LIMIT_NOTE = ("Every input is read up to %s, and more is refused: a whole game's record is about 4 KB "
                    "and a score file under 1 KB, so the limit only stops an endless stream or a wrong file "
                    "(e.g. /dev/zero) before it fills the memory." % MAX_INPUT_TEXT)


def too_big(path, what):
    """The one line for an input over MAX_INPUT."""
    return "%s: more than %s, far more than any %s (%s is the most read of any input)" % (
        shown(str(path)), MAX_INPUT_TEXT, what, MAX_INPUT_TEXT)


def read_limited(f, path, what):
    """At most MAX_INPUT bytes of the binary stream f, read in pieces (a pipe
    gives what it has); more is BadInput (too_big) and is never read."""
    chunks = []
    got = 0
    while True:
        piece = f.read(min(1 << 16, MAX_INPUT + 1 - got))
        if not piece:
            return b"".join(chunks)
        if isinstance(piece, str):  # (a text stream standing in for stdin)
            piece = piece.encode()
        chunks.append(piece)
        got += len(piece)
        if got > MAX_INPUT:
            raise BadInput(too_big(path, what))


def read_bytes(path, what="file"):
    """The file's bytes ('-': stdin's), at most MAX_INPUT of them; a file
    that cannot be read, or more than that, is BadInput."""
    import sys

    if path == "-":
        return read_limited(getattr(sys.stdin, "buffer", sys.stdin), "stdin", what)
    try:
        with open(path, "rb") as f:
            return read_limited(f, path, what)
    except OSError as exc:
        raise BadInput("%s: %s" % (shown(str(path)), exc.strerror or exc))


def read_text(path, what="file"):
    """The file's text (UTF-8; '-': stdin), as read_bytes; not UTF-8 is BadInput."""
    try:
        return read_bytes(path, what).decode()
    except UnicodeDecodeError:
        raise BadInput("%s: the %s is not UTF-8 text" % (path, what))


class _Lines:
    """The record's lines, up to line `upto`, counting those read: when the
    JSON parser gives up on a line (RecursionError), `n` is its number."""

    def __init__(self, data, upto=None):
        self.lines = data.split(b"\n" if isinstance(data, bytes) else "\n")
        if upto is not None:
            self.lines = self.lines[: max(0, upto)]
        self.n = 0

    def __iter__(self):
        for line in self.lines:
            self.n += 1
            yield line


def record_lines(data):
    """(line number, object) for each line of a record, as
    journal.parse_record_lines gives them, but a line too deep for the
    host's JSON parser is a RecordError too (instead of a RecursionError)."""
    lines = _Lines(data)
    found = parse_record_lines(lines)
    while True:
        try:
            item = next(found)
        except StopIteration:
            return
        except RecursionError:
            raise RecordError(lines.n, TOO_DEEP)
        yield item


def load_record(data, upto=None):
    """record.load(data, upto), with a too deep line a RecordError."""
    lines = _Lines(data, upto)
    try:
        return record.load(lines)
    except RecursionError:
        raise RecordError(lines.n, TOO_DEEP)
