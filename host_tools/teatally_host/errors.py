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


def read_bytes(path):
    """The file's bytes ('-': stdin's); a file that cannot be read is BadInput."""
    import sys

    if path == "-":
        raw = getattr(sys.stdin, "buffer", None)  # (a text stream standing in for it has none)
        return sys.stdin.read().encode() if raw is None else raw.read()
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise BadInput("%s: %s" % (path, exc.strerror or exc))


def read_text(path, what="file"):
    """The file's text (UTF-8; '-': stdin); unreadable or not UTF-8 is BadInput."""
    try:
        return read_bytes(path).decode()
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
