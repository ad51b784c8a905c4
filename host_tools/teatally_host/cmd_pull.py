"""`teatally pull`: copy the current journal and the archived games off the
device into a local folder, for `teatally report`. Every ``games/*.jsonl``
comes along: the finished games (gNNNN) and the journals kept as they were
found damaged or set aside (dNNNN, see teatally.journal).

One mpremote session: boot.py first (it keeps a running watchdog fed, so a
season of archives is not cut off 8 s after mpremote's Ctrl-C, on a board
with an older firmware too), then one `exec` that sends every file as hex
lines under a "file x of N NAME BYTES" header; this tool writes them and
shows the progress; then mpremote's `reset` (cmd_flash.RESTART): the board
starts again and the app resumes the game from its journal (a failed pull
is followed by a reset of its own where the board may still answer).
Nothing on the board is written."""

import binascii
import sys
from pathlib import Path

from teatally_host.errors import folder

# On the device: the files, then each one as hex (binary-safe: a damaged
# journal may hold any byte), read whole (a journal is a few KB; the app is
# not running). One line, so the dry run prints one command.
DUMP = (
    "import os, binascii; "
    "L = [n for n in ['game.jsonl'] if n in os.listdir()] + "
    "(['games/' + n for n in sorted(os.listdir('games')) if n.endswith('.jsonl')] if 'games' in os.listdir() else []); "
    "[print('file %d of %d %s %d' % (i + 1, len(L), n, os.stat(n)[6])) or "
    "[print(binascii.hexlify(b[j:j + 192]).decode()) for b in [open(n, 'rb').read()] for j in range(0, len(b), 192)] "
    "for i, n in enumerate(L)]; "
    "print('end of files')"
)


def add_arguments(p):
    p.add_argument("dest", nargs="?", default="records", help="local folder (default: %(default)s)")
    p.add_argument("--port", default="auto", help="mpremote connect target (default: auto)")
    p.add_argument("--dry-run", action="store_true", help="print the mpremote command, run nothing")


def plan(port):
    """The one mpremote command line (without `mpremote`)."""
    from teatally_host.cmd_flash import FIRMWARE, session

    from teatally_host.cmd_flash import RESTART

    return session([["run", str(FIRMWARE / "boot.py")], ["exec", DUMP], RESTART], port)


def local_name(name):
    """Where a device file goes in the folder: game.jsonl -> current.jsonl,
    games/g0001.jsonl -> g0001.jsonl."""
    return "current.jsonl" if name == "game.jsonl" else name.rpartition("/")[2]


class Files:
    """Writes the files of DUMP's output into dest as its lines come. Each
    file is written under a temporary name (NAME.part) and takes its own
    name only when all its bytes have come: a cut pull never leaves half a
    record where a whole one was."""

    def __init__(self, dest, out):
        self.dest = Path(dest)
        self.out = out
        self.f = None
        self.name = None  # the local name of the file being written
        self.size = 0  # its size on the device
        self.got = 0  # files pulled whole
        self.total = 0
        self.bytes = 0
        self.ended = False
        self.done = 0  # files begun (for cmd_flash.failure: how far it came)
        self.switched = False
        self.last = ""

    def line(self, text):
        text = text.rstrip("\r\n")
        self.last = text or self.last
        if text.startswith("file ") and " of " in text:
            parts = text.split()
            self.close()
            try:
                n, self.total, name, size = int(parts[1]), int(parts[3]), parts[4], int(parts[5])
            except (IndexError, ValueError):
                return
            self.done = n
            print("file %d of %d: %s, %d bytes" % (n, self.total, name, size), file=self.out)
            self.name = local_name(name)
            self.size = size
            self.f = open(self.dest / (self.name + ".part"), "wb")
        elif text == "end of files":
            self.close()
            self.ended = True
        elif self.f is not None:
            try:
                self.f.write(binascii.unhexlify(text.strip()))
            except (binascii.Error, ValueError):
                self.close()

    def close(self):
        """The file being written ends: whole, it takes its name; cut, its
        part is removed."""
        if self.f is None:
            return
        whole = self.f.tell() == self.size
        self.f.close()
        self.f = None
        part = self.dest / (self.name + ".part")
        if whole:
            part.replace(self.dest / self.name)
            self.got += 1
            self.bytes += self.size
        else:
            part.unlink()

    def where(self):
        """How far the pull came, in words (cmd_flash.failure)."""
        if not self.done:
            return "before any file was copied"
        return "with %d of %d files copied" % (self.got, self.total)


def run(args):
    from teatally_host import cmd_flash

    argv = plan(args.port)
    if args.dry_run:
        print("mpremote " + " ".join(cmd_flash.quote(a.replace(str(cmd_flash.ROOT) + "/", "")) for a in argv))
        return 0
    folder(args.dest, "the folder for the records")
    files = Files(args.dest, sys.stdout)
    text = []
    try:
        lines, wait = cmd_flash.spawn(argv)
        try:
            for line in lines:
                text.append(line)
                files.line(line)
        finally:
            files.close()
        code = wait()
    except KeyboardInterrupt:
        cmd_flash.restart_after_failure("", args.port)  # (mpremote was stopped mid-session)
        raise
    if code != 0 or not files.ended:
        msg = cmd_flash.failure("".join(text), files, "pull")
        print("teatally pull: " + msg, file=sys.stderr)
        cmd_flash.restart_after_failure("".join(text), args.port)
        return 2
    print("pulled %d file(s), %d bytes, into %s; %s" % (files.got, files.bytes, args.dest, cmd_flash.RESTARTED))
    return 0
