"""`teatally flash --dry-run` and the mip manifest (no board needed)."""

import contextlib
import json
import shlex
from pathlib import Path

import pytest

from teatally_host import cli, cmd_flash


def dry(capsys, *extra, cmd="flash"):
    """The dry run's one mpremote command, split into its chained steps."""
    assert cli.main([cmd, "--dry-run", *extra]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if not line.startswith("#")]
    assert len(lines) == 1 and lines[0].startswith("mpremote connect ")
    return steps_of(shlex.split(lines[0])[1:])


def steps_of(argv):
    """connect PORT + step + step ... -> (port, [step, ...])."""
    assert argv[0] == "connect"
    steps = [[]]
    for a in argv[2:]:
        if a == "+":
            steps.append([])
        else:
            steps[-1].append(a)
    return argv[1], steps


@pytest.mark.parametrize("board", cmd_flash.board_names())
def test_dry_run_is_one_session_staging_everything_then_switching(capsys, board):
    port, steps = dry(capsys, "--board", board)
    b = cmd_flash.load_board(board)
    assert port == "auto"
    # the device first (a Pico with MicroPython 1.23+), then boot.py keeps a
    # running watchdog fed for the rest of the session
    assert steps[0][0] == "exec" and "sys.platform == 'rp2' and v >= (1, 23)" in steps[0][1]
    assert steps[1] == ["run", "firmware/boot.py"]
    assert steps[2][0] == "exec" and "os.mkdir(d)" in steps[2][1]
    mip = [s[2:] for s in steps if s[:2] == ["mip", "install"]]
    assert mip == [["--target", "lib.new", p] for p in b["MIP_PACKAGES"]]
    copies = [s for s in steps if s[:2] == ["fs", "cp"]]
    # the package folder by folder into teatally.new, every device module once
    package = [c for c in copies if c[-1].startswith(":teatally")]
    assert [c[-1] for c in package] == [":%s/" % cmd_flash.staged(d) for d in cmd_flash.package_dirs()]
    assert package[0][-1] == ":teatally.new/"
    mpys = [m for c in package for m in c[2:-1]]
    assert sorted(m.split("build/mpy/", 1)[1] for m in mpys) == sorted(
        cmd_flash.mpy_path(p) for p in cmd_flash.firmware_modules()
    )
    assert "teatally/app.mpy" in " ".join(mpys) and "hw/sim" not in " ".join(mpys)
    # the small files under new names too; nothing is in place before the switch
    assert ["boards/%s.py" % board, ":boards/%s.py.new" % board] in [c[2:] for c in copies]
    assert ["firmware/main.py", ":main.py.new"] in [c[2:] for c in copies]
    assert ["firmware/boot.py", ":boot.py.new"] in [c[2:] for c in copies]
    assert steps[-2][0] == "exec" and "os.rename('teatally.new', 'teatally')" in steps[-2][1]
    assert "f.write('%s')" % board in steps[-2][1] and steps[-1] == ["reset"]
    assert steps.index(copies[-1]) == len(steps) - 3
    # never touches the games
    text = " ".join(" ".join(s) for s in steps)
    assert "game.jsonl" not in text and "games" not in text


def test_dry_run_port_and_driver_options(capsys):
    port, steps = dry(capsys, "--port", "/dev/ttyACM1", "--no-driver")
    assert port == "/dev/ttyACM1"
    assert not any(s[0] == "mip" for s in steps)


def test_compile_for_rp2350_uses_its_arch(tmp_path):
    made = cmd_flash.compile_firmware("rp2350", out=tmp_path / "mpy")
    assert len(made) == len(cmd_flash.firmware_modules())
    assert all(m.stat().st_size > 0 for m in made)
    # the embedded source name is the module's name (a qstr the import makes
    # anyway), not a path of the build machine: one less string per module
    # in the device's heap
    ui = (tmp_path / "mpy" / "teatally" / "ui" / "core.mpy").read_bytes()
    assert b"teatally.ui.core\x00" in ui
    assert str(cmd_flash.FIRMWARE).encode() not in ui
    assert cmd_flash.source_name(cmd_flash.FIRMWARE / "teatally" / "__init__.py") == "teatally"
    assert cmd_flash.source_name(cmd_flash.FIRMWARE / "teatally" / "ui" / "__init__.py") == "teatally.ui"
    assert cmd_flash.source_name(cmd_flash.FIRMWARE / "teatally" / "ui" / "t42" / "round.py") == "teatally.ui.t42.round"


def test_version_check_and_error_messages():
    assert cmd_flash.check_version("(1, 27)\n") is None
    assert "version mismatch" in cmd_flash.check_version("(1, 19)")
    assert "could not read" in cmd_flash.check_version("garbage")
    assert "no board found" in cmd_flash.explain("mpremote: no device found")
    assert "not running" in cmd_flash.explain("could not enter raw repl")
    assert "full" in cmd_flash.explain("OSError: [Errno 28] ENOSPC")
    assert cmd_flash.explain("all good") is None


def test_package_json_is_current_and_installs_everything():
    from pathlib import Path

    root = Path(cmd_flash.ROOT)
    assert (root / "package.json").read_text() == cmd_flash.package_json(), "regenerate package.json"
    pkg = json.loads((root / "package.json").read_text())
    for _dest, src in pkg["urls"]:
        assert (root / src).exists(), src
    dests = [d for d, _ in pkg["urls"]]
    assert "main.py" in dests and "teatally/rules/t42.py" in dests and "boards/pico_ssd1306.py" in dests
    assert pkg["deps"] == [["ssd1306", "latest"]]


def test_pull_dry_run_is_one_read_only_session(capsys):
    port, steps = dry(capsys, "out", cmd="pull")
    assert port == "auto" and steps[0] == ["run", "firmware/boot.py"]
    assert len(steps) == 3 and steps[1][0] == "exec" and "game.jsonl" in steps[1][1]
    assert not any(w in steps[1][1] for w in ("remove", "rename", "'w'", "mkdir"))
    # it ends with the game running again: a hard reset (boot.py, main.py)
    assert steps[2] == ["reset"] == cmd_flash.RESTART


def sessions(monkeypatch, *runs):
    """cmd_flash.spawn replaced by mpremote sessions that print runs[i][0]
    and exit with runs[i][1], in turn. -> the argument lists seen."""
    seen = []
    todo = list(runs)

    def spawn(args):
        seen.append(args)
        output, code = todo.pop(0)
        return iter(output.splitlines(True)), lambda: code

    monkeypatch.setattr(cmd_flash, "spawn", spawn)
    monkeypatch.setattr(cmd_flash, "compile_firmware", lambda chip: [])
    return seen


def test_every_session_ends_with_the_game_running_again(monkeypatch, capsys, tmp_path):
    """flash and pull end with mpremote's reset (the app starts as at
    power-up and resumes from its journal) and say so; a session that
    failed where the board may still answer is followed by a reset of its
    own, and the tool says whether the board came back."""
    restart = ["connect", "auto", "reset"]
    # a flash that stops at the driver's install (offline): the board answers
    seen = sessions(monkeypatch, ("device rp2 1.28\nInstall ssd1306\nmpremote: Error: [Errno -3] Temporary failure "
                                  "in name resolution\n", 1), ("", 0))
    assert cli.main(["flash"]) == 2
    got = capsys.readouterr()
    assert seen[0][-1] == "reset" and seen[1] == restart
    assert got.out.splitlines()[-1] == "teatally: " + cmd_flash.RESTARTED
    assert got.err.count("\n") == 1
    # a flash cut (the board reset, the cable pulled) that does not come back
    seen = sessions(monkeypatch, ("device rp2 1.28\nmpremote: Error with transport: write failed\n", 1),
                    ("mpremote: could not enter raw repl\n", 1))
    assert cli.main(["flash", "--no-driver", "--port", "/dev/ttyACM1"]) == 2
    assert seen[1] == ["connect", "/dev/ttyACM1", "reset"]
    assert capsys.readouterr().out.splitlines()[-1] == "teatally: " + cmd_flash.NOT_RESTARTED
    # no board, no MicroPython, another kind of board: nothing to restart
    for out in ("mpremote: no device found\n", "mpremote: could not enter raw repl\n",
                "device esp32 1.27\nKeyError: teatally: not a Pico\n"):
        seen = sessions(monkeypatch, (out, 1))
        assert cli.main(["flash", "--no-driver"]) == 2
        assert len(seen) == 1 and cmd_flash.RESTARTED not in capsys.readouterr().out
    # a flash that went well: the reset is its last step
    seen = sessions(monkeypatch, ("device rp2 1.28\n" + cmd_flash.SWITCHED + "\n", 0))
    assert cli.main(["flash", "--no-driver"]) == 0
    assert len(seen) == 1 and seen[0][-1] == "reset"
    assert capsys.readouterr().out.splitlines()[-1] == "flashed pico_ssd1306; " + cmd_flash.RESTARTED
    # pull: done, then the reset in the same session
    seen = sessions(monkeypatch, ("file 1 of 1 game.jsonl 2\n6869\nend of files\n", 0))
    assert cli.main(["pull", str(tmp_path / "rec")]) == 0
    assert len(seen) == 1 and seen[0][-1] == "reset" and (tmp_path / "rec" / "current.jsonl").read_bytes() == b"hi"
    assert capsys.readouterr().out.splitlines()[-1].endswith("; " + cmd_flash.RESTARTED)
    # pull cut off midway: a reset of its own
    seen = sessions(monkeypatch, ("file 1 of 3 game.jsonl 10\n00\nmpremote: Error with transport: read failed\n", 1),
                    ("", 0))
    assert cli.main(["pull", str(tmp_path / "rec")]) == 2
    assert seen[1] == restart
    got = capsys.readouterr()
    assert got.err.count("\n") == 1 and got.out.splitlines()[-1] == "teatally: " + cmd_flash.RESTARTED
    # Ctrl-C in the terminal (mpremote stopped too): the board reset, then
    # the tool stops as it did
    for cmd in (["flash", "--no-driver"], ["pull", str(tmp_path / "rec")]):
        seen = sessions(monkeypatch, ("device rp2 1.28\n", 1), ("", 0))

        def interrupted(output):
            yield output
            raise KeyboardInterrupt

        first = cmd_flash.spawn

        def spawn(args, first=first, seen=seen):
            lines, wait = first(args)
            return (interrupted(next(lines)) if len(seen) == 1 else lines), wait

        monkeypatch.setattr(cmd_flash, "spawn", spawn)
        assert cli.main(cmd) == 130
        got = capsys.readouterr()
        assert seen[1] == restart and "teatally: " + cmd_flash.RESTARTED in got.out and "interrupted" in got.err


# -- --romfs ------------------------------------------------------------------------


def test_dry_run_romfs_deploys_before_removing_the_littlefs_package(capsys):
    """--romfs: the device check, the keeper, then the image is written
    (`romfs deploy` checks the partition and the size before writing), then
    the LittleFS copy of the package goes (it would shadow /rom), then the
    staged small files are switched; the games are never touched."""
    _, steps = dry(capsys, "--romfs")
    assert steps[0][0] == "exec" and "v >= (1, 25)" in steps[0][1]
    assert steps[1] == ["run", "firmware/boot.py"]
    deploy = steps.index(["romfs", "deploy", "build/teatally.romfs"])
    prepare = [i for i, s in enumerate(steps) if s[0] == "exec" and "teatally-old" in s[1]]
    assert len(prepare) == 1 and deploy < prepare[0]
    assert ["fs", "cp", "firmware/main.py", ":main.py.new"] in steps
    assert steps[-1] == ["reset"] and "os.rename('main.py.new', 'main.py')" in steps[-2][1]
    # no .mpy goes to LittleFS
    assert not any(s[:2] == ["fs", "cp"] and s[-1].startswith(":teatally") for s in steps)
    text = " ".join(" ".join(s) for s in steps)
    assert "game.jsonl" not in text and "games" not in text


def test_romfs_query_and_version_messages():
    ok = "ROMFS0 partition has size 262144 bytes (64 blocks of 4096 bytes each)\n  Raw contents: d2:cd:31 ...\n"
    assert cmd_flash.check_romfs_query(ok) is None
    assert cmd_flash.check_romfs_query(ok, 100_000) is None
    assert "does not fit" in cmd_flash.check_romfs_query(ok, 300_000)
    for out in ("ROMFS is not enabled on this device\n", "No ROMFS partitions available\n", ""):
        assert "no ROMFS partition" in cmd_flash.check_romfs_query(out)
    assert "empty" in cmd_flash.check_romfs_query("ROMFS0 partition has size 0 bytes\n")
    assert "no ROMFS partition" in cmd_flash.explain("mpremote: ROMFS is not enabled on this device")
    assert "does not fit" in cmd_flash.explain("ROMFS image is too big for the target partition")
    # VfsRom arrived in 1.25
    assert "version mismatch" in cmd_flash.check_version("(1, 24)", cmd_flash.MIN_DEVICE_ROMFS)
    assert cmd_flash.check_version("(1, 25)", cmd_flash.MIN_DEVICE_ROMFS) is None


def fake_mpremote(monkeypatch, output, code=1):
    """cmd_flash.spawn replaced: mpremote prints ``output`` and exits with ``code``."""
    seen = []

    def spawn(args):
        seen.append(args)
        return iter(output.splitlines(True)), lambda: code

    monkeypatch.setattr(cmd_flash, "spawn", spawn)
    monkeypatch.setattr(cmd_flash, "compile_firmware", lambda chip: [])
    return seen


def test_romfs_without_partition_stops_before_writing(monkeypatch, capsys, tmp_path):
    """A stock RPI_PICO firmware (no ROMFS partition): `romfs deploy` stops
    before writing, and one clear line says why."""
    image = tmp_path / "teatally.romfs"
    image.write_bytes(b"\xd2\xcd\x31\x00")
    monkeypatch.setattr(cmd_flash, "build_romfs", lambda chip: image)
    fake_mpremote(monkeypatch, "device rp2 1.27\nmpremote: ROMFS is not enabled on this device\n")
    assert cli.main(["flash", "--romfs"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no ROMFS partition" in err and "without --romfs" in err


def test_a_board_that_is_not_a_pico_or_disconnects_gets_one_line(monkeypatch, capsys):
    cases = [
        # MicroPython on an ESP32: the device check stops the session
        ("device esp32 1.27\nTraceback (most recent call last):\nKeyError: teatally: not a Pico\n",
         "runs MicroPython for esp32, not for a Raspberry Pi Pico"),
        ("device rp2 1.19\nKeyError: teatally: not a Pico with MicroPython 1.23 or newer\n", "version mismatch"),
        # not MicroPython at all on that port
        ("b''\nmpremote: could not enter raw repl\n", "MicroPython is not running on the board"),
        ("mpremote: no device found\n", "no board found"),
    ]
    for out, want in cases:
        fake_mpremote(monkeypatch, out)
        assert cli.main(["flash", "--no-driver"]) == 2
        got = capsys.readouterr()
        assert want in got.err and got.err.count("\n") == 1, got.err
    # cut off mid-copy (the board reset, the cable pulled): how far it came
    # and how to finish, in one line, not mpremote's traceback
    files = [str(f) for f in cmd_flash.copied_files(cmd_flash.plan("pico_ssd1306", driver=False))]
    out = "device rp2 1.28\n" + "".join("cp %s :teatally.new/\n" % f for f in files[:12]) + (
        "Traceback (most recent call last):\n  File ...\nserial.serialutil.SerialException: device reports "
        "readiness to read but returned no data (device disconnected or multiple access on port?)\n")
    fake_mpremote(monkeypatch, out)
    assert cli.main(["flash", "--no-driver"]) == 2
    got = capsys.readouterr()
    assert got.err == ("teatally flash: the board disconnected with 11 of %d files copied (file 12, %s, cut off); "
                       "the old firmware still boots; run `teatally flash` again to finish (files already there are "
                       "skipped)\n" % (len(files), cmd_flash.short_path(files[11])))
    assert "file 12 of %d: teatally/" % len(files) in got.out and "Traceback" not in got.out + got.err
    # all went well: progress for every file, then done
    fake_mpremote(monkeypatch, "device rp2 1.28\n" + "".join("cp %s :x/\n" % f for f in files)
                  + cmd_flash.SWITCHED + "\n", code=0)
    assert cli.main(["flash", "--no-driver"]) == 0
    out = capsys.readouterr().out
    assert "file %d of %d: firmware/main.py" % (len(files), len(files)) in out and "flashed pico_ssd1306" in out
    # pull, cut off: one line too
    fake_mpremote(monkeypatch, "file 1 of 3 game.jsonl 10\n00\nmpremote: Error with transport: write failed\n")
    from teatally_host import cmd_pull

    monkeypatch.setattr(cmd_pull, "Path", cmd_pull.Path)
    assert cli.main(["pull", str(cmd_flash.ROOT / "build" / "pull-test")]) == 2
    err = capsys.readouterr().err
    assert err == ("teatally pull: the board disconnected with 0 of 3 files copied; nothing on the board changed: "
                   "run `teatally pull` again\n")


def test_romfs_image_holds_exactly_the_device_modules(tmp_path):
    tree = tmp_path / "mpy"
    cmd_flash.compile_firmware("rp2040", out=tree)
    img = cmd_flash.romfs_image(tree)
    assert img.startswith(b"\xd2\xcd\x31")
    fw = tmp_path / "fw"
    fw.mkdir()
    (fw / "img").write_bytes(img)
    res = mp(
        "import os, vfs\n"
        "def main():\n"
        "    f = open('/fw/img', 'rb')\n"
        "    b = f.read()\n"
        "    f.close()\n"
        "    vfs.mount(vfs.VfsRom(b), '/rom')\n"
        "def walk(d):\n"
        "    for name, kind, *_ in os.ilistdir(d):\n"
        "        if kind == 0x4000:\n"
        "            walk(d + '/' + name)\n"
        "        else:\n"
        "            print((d + '/' + name)[5:])\n"
        "main()\n"
        "walk('/rom/teatally')\n",
        fw,
    )
    assert sorted(res.split()) == sorted(cmd_flash.mpy_path(p) for p in cmd_flash.firmware_modules())


def mp(script, fw, flash=None, heap=None):
    from teatally_host import mpvm

    r = mpvm.run(script, firmware=str(fw), flash_dir=str(flash) if flash else None, heap=heap or mpvm.PICO_HEAP)
    assert r.code == 0, r.stderr
    return r.stdout


# The device after `flash --romfs`: main.py on LittleFS, sys.path as a ROMFS
# build sets it up ('' = the LittleFS root first, then /rom); the guest runs
# flash --romfs's removal line there, then boots the app.
ROMFS_BOOT = """\
import gc, os, sys, vfs
ROM = []
def mount():
    f = open('/fw/img', 'rb')
    ROM.append(f.read())
    f.close()
    vfs.mount(vfs.VfsRom(ROM[0]), '/rom')
    os.chdir('/flash')
    sys.path[:] = ['', '.frozen', '/rom', '/rom/lib', '/lib']
mount()
%(prepare)s
def boot():
    from teatally import app
    from teatally.hw import virtual as hw_virtual
    print(app.__file__)
    a = app.App(hw_virtual.VirtualHardware('/flash'))
    a.boot()
    a.ui.draw(a.fb)
    a.key(0x12)
    a.key(0x11)
    print('errors %%d' %% a.errors)
boot()
"""


def test_romfs_image_boots_the_app_and_littlefs_copies_are_removed(tmp_path):
    """The image flash --romfs builds (plus the host's virtual board) mounts
    on the VM and the app boots from it; a package left on LittleFS would
    shadow /rom, and flash --romfs's removal line takes it away."""
    import shutil

    from teatally_host import bench, benchvm, mpvm

    tree = tmp_path / "mpy"
    benchvm.build_firmware(tree)
    fw = tmp_path / "fw"
    fw.mkdir()
    (fw / "img").write_bytes(cmd_flash.romfs_image(tree, skip=("hw/sim",)))
    flash = tmp_path / "flash"
    shutil.copytree(tree / "teatally", flash / "teatally")
    (flash / "teatally" / "notes.txt").write_text("not ours")
    shutil.copy(cmd_flash.FIRMWARE / "main.py", flash / "main.py")
    # the image is read into the VM's heap (on a Pico it stays in flash):
    # the heap is raised by what it takes, as the bench does
    heap = mpvm.PICO_HEAP + bench.romfs_extra_heap(bench.romfs_image_heap((fw / "img").stat().st_size))
    out = mp(ROMFS_BOOT % {"prepare": ""}, fw, flash, heap)
    assert out.splitlines()[0] == "teatally/app.mpy"  # the LittleFS copy shadows /rom
    out = mp(ROMFS_BOOT % {"prepare": cmd_flash._PREPARE_ROMFS}, fw, flash, heap)
    assert out.splitlines() == ["/rom/teatally/app.mpy", "errors 0"]
    # a folder left with a stranger's file in it would shadow /rom as well
    # (a bare folder imports as a package): moved aside, the file kept
    assert not (flash / "teatally").exists()
    assert [p.name for p in (flash / "teatally-old").iterdir()] == ["notes.txt"]
    assert {"boards", "main.py"} <= {p.name for p in flash.iterdir()}
    # only modules in it: the folder goes
    shutil.rmtree(flash / "teatally-old")
    shutil.copytree(tree / "teatally", flash / "teatally")
    mp("import os\nos.chdir('/flash')\n" + cmd_flash._PREPARE_ROMFS + "\n", fw, flash)
    assert not (flash / "teatally").exists() and not (flash / "teatally-old").exists()


def test_manifest_freezes_every_device_module_and_the_default_board():
    """firmware/manifest.py (for a firmware build with the package frozen):
    package("teatally") lists exactly the device modules (what teatally
    flash copies), the default board's file exists, and its display driver
    comes by require(), as micropython-lib packages do."""
    seen = {"package": [], "module": [], "require": []}
    ns = {
        "include": lambda path: None,
        "metadata": lambda **kw: None,
        "package": lambda name, files=None, base_path=".", opt=None: seen["package"].append((name, files)),
        "module": lambda name, base_path=".", opt=None: seen["module"].append((base_path, name)),
        "require": lambda name, **kw: seen["require"].append(name),
    }
    path = cmd_flash.FIRMWARE / "manifest.py"
    exec(compile(path.read_text(), str(path), "exec"), ns)
    [(name, files)] = seen["package"]
    assert name == "teatally"
    assert sorted(files) == sorted(cmd_flash.module_path(p) + ".py" for p in cmd_flash.firmware_modules())
    [(base, board)] = seen["module"]
    assert (cmd_flash.FIRMWARE / base / board).exists() and board == "pico_ssd1306.py"
    assert seen["require"] == cmd_flash.load_board("pico_ssd1306")["MIP_PACKAGES"]


# -- a flash cut after every file ---------------------------------------------------


@contextlib.contextmanager
def device(flash):
    """CPython as the device: in the flash's root, a `machine` whose
    watchdog is not running (boot.py starts no keeper)."""
    import os
    import sys
    import types

    here = os.getcwd()
    saved = sys.modules.get("machine")
    sys.modules["machine"] = types.SimpleNamespace(mem32={0x40058000: 0})
    os.chdir(flash)
    try:
        yield
    finally:
        os.chdir(here)
        if saved is None:
            sys.modules.pop("machine")
        else:
            sys.modules["machine"] = saved


def play(argv, flash, cut_after=None):
    """The session's steps done to ``flash`` (a folder) as the device does
    them, here under CPython: exec and run in the flash's root, fs cp and
    mip as copies; stopped after ``cut_after`` files (the board reset or the
    cable pulled). -> the number of files copied."""
    import shutil

    _, steps = steps_of(argv)
    n = 0
    with device(flash):
        for st in steps:
            if st[0] == "exec" and "sys.implementation.version" not in st[1]:  # (CPython is no Pico)
                exec(st[1], {})
            elif st[0] == "run":
                exec(open(st[1]).read(), {"__name__": "__main__"})
            elif st[:2] == ["mip", "install"]:
                name = st[4].rpartition("/")[2]  # ssd1306 (from the index: .mpy) or a URL's sh1106.py
                (flash / st[3]).mkdir(exist_ok=True)
                (flash / st[3] / (name if "." in name else name + ".mpy")).write_text("# new driver\n")
            elif st[:2] == ["fs", "cp"]:
                for src in st[2:-1]:
                    dest = st[-1][1:]
                    shutil.copyfile(src, flash / dest / Path(src).name if dest.endswith("/") else flash / dest)
                    n += 1
                    if n == cut_after:
                        return n
    return n


def tree(d):
    """{relative path: bytes} of every file below d."""
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(Path(d).rglob("*")) if p.is_file()}


def boot_py(flash):
    """firmware/boot.py at the next start."""
    with device(flash):
        exec((cmd_flash.FIRMWARE / "boot.py").read_text(), {"__name__": "__main__"})


def old_device(flash, new):
    """A device running an older Tea Tally: its package (the new one plus a
    module the new one dropped, and a different __init__), its driver,
    board file, main.py, a journal and an archive."""
    import shutil

    shutil.copytree(new / "teatally", flash / "teatally")
    (flash / "teatally" / "legacy.mpy").write_bytes(b"old module")
    (flash / "teatally" / "__init__.mpy").write_bytes(b"old init")
    (flash / "lib").mkdir()
    (flash / "lib" / "ssd1306.mpy").write_text("# old driver\n")
    (flash / "boards").mkdir()
    (flash / "boards" / "pico_ssd1306.py").write_text("# old board\n")
    (flash / "main.py").write_text("# old main\n")
    (flash / "board.txt").write_text("pico_ssd1306")
    (flash / "game.jsonl").write_text("journal\n")
    (flash / "games").mkdir()
    (flash / "games" / "g0001.jsonl").write_text("archive\n")
    return tree(flash)


def test_a_flash_cut_after_any_file_leaves_the_old_firmware_and_the_next_flash_finishes(tmp_path):
    """Cut after each file in turn: the old firmware is there, whole, as it
    was (and boot.py changes nothing); the flash run again ends with the new
    firmware in place, exactly what an uncut flash gives. The switch cut
    between its two renames is mended by boot.py."""
    new = tmp_path / "mpy"
    cmd_flash.compile_firmware("rp2040", out=new)
    argv = cmd_flash.session(cmd_flash.plan("pico_ssd1306", build=new))
    n_files = len(cmd_flash.copied_files(cmd_flash.plan("pico_ssd1306", build=new)))
    clean = tmp_path / "clean"
    clean.mkdir()
    old = old_device(clean, new)
    assert play(argv, clean) == n_files
    done = tree(clean)
    assert {k: v for k, v in done.items() if k.startswith("teatally/")} == {
        k: v for k, v in tree(new).items() if k.startswith("teatally/")}
    assert done["lib/ssd1306.mpy"] == b"# new driver\n" and done["board.txt"] == b"pico_ssd1306"
    assert done["main.py"] == (cmd_flash.FIRMWARE / "main.py").read_bytes()
    assert done["boot.py"] == (cmd_flash.FIRMWARE / "boot.py").read_bytes()
    assert done["game.jsonl"] == old["game.jsonl"] and done["games/g0001.jsonl"] == old["games/g0001.jsonl"]
    live = ("teatally/", "lib/", "boards/", "main.py", "boot.py", "board.txt", "game", "games/")
    for cut in range(1, n_files + 1):
        flash = tmp_path / ("cut%d" % cut)
        flash.mkdir()
        old_device(flash, new)
        assert play(argv, flash, cut_after=cut) == cut
        boot_py(flash)
        now = tree(flash)
        # every file the old firmware boots from is as it was
        assert {k: v for k, v in now.items() if k.startswith(live) and not k.endswith(".new")} == old, cut
        assert play(argv, flash) == n_files
        assert tree(flash) == done, cut
    # cut inside the switch, between moving the old package aside and the new one in
    flash = tmp_path / "switch"
    flash.mkdir()
    old_device(flash, new)
    play(argv, flash, cut_after=n_files)
    (flash / "teatally").rename(flash / "teatally.old")
    boot_py(flash)
    assert tree(flash / "teatally") == tree(new / "teatally")


def test_the_prepare_and_switch_lines_run_on_micropython(tmp_path):
    """The lines CPython played above, on the MicroPython VM (its flash a
    host folder): prepare removes a stray staged file and a leftover
    teatally.old, the switch puts everything in place; the games stay."""
    new = tmp_path / "mpy"
    cmd_flash.compile_firmware("rp2040", out=new)
    steps = cmd_flash.plan("pico_ssd1306", build=new)
    argv = cmd_flash.session(steps)
    flash = tmp_path / "flash"
    flash.mkdir()
    old = old_device(flash, new)
    (flash / "teatally.old" / "ui").mkdir(parents=True)
    (flash / "teatally.old" / "ui" / "x.mpy").write_bytes(b"left by a cut switch")
    (flash / "teatally.new").mkdir()
    (flash / "teatally.new" / "gone.mpy").write_bytes(b"a module this firmware dropped")
    fw = tmp_path / "fw"
    fw.mkdir()
    mp("import os\nos.chdir('/flash')\n" + cmd_flash._PREPARE + "\n", fw, flash)
    assert not (flash / "teatally.old").exists() and not (flash / "teatally.new" / "gone.mpy").exists()
    assert all((flash / cmd_flash.staged(d)).is_dir() for d in cmd_flash.package_dirs())
    no_switch = cmd_flash.session(steps[:-2])
    play(no_switch, flash)
    out = mp("import os\nos.chdir('/flash')\n" + steps[-2][1] + "\n", fw, flash)
    assert out == cmd_flash.SWITCHED + "\n"
    clean = tmp_path / "clean"
    clean.mkdir()
    old_device(clean, new)
    play(argv, clean)
    assert tree(flash) == tree(clean)
    assert tree(flash)["games/g0001.jsonl"] == old["games/g0001.jsonl"]


def test_progress_follows_paths_with_spaces_and_a_cut_counts_the_files_copied(tmp_path):
    """A clone in a folder whose name has spaces: mpremote's "cp SRC DEST"
    line has more than three words; each still shows its file at once, and
    a cut says how many files are truly on the board (the file whose "cp"
    line came last may be cut off)."""
    import io

    build = tmp_path / "my games" / "tea tally" / "mpy"
    steps = cmd_flash.plan("pico_ssd1306", driver=False, build=build)
    files = cmd_flash.copied_files(steps)
    for f in files:
        if str(f).startswith(str(build)):
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_bytes(b"x" * 10)
    assert all(" " in str(f) for f in files if str(f).startswith(str(build)))
    out = io.StringIO()
    prog = cmd_flash.Progress(files, out)
    # mpremote's line for a copy into a folder: "cp <src> :teatally.new/"
    dest = [st[-1] for st in steps if st[:2] == ["fs", "cp"] for _ in st[2:-1]]
    for i in range(3):
        prog.line("cp %s %s\n" % (files[i], dest[i]))
        assert "file %d of %d: " % (i + 1, len(files)) in out.getvalue().splitlines()[-1]
    assert out.getvalue().splitlines()[0].startswith("file 1 of %d: %s" % (len(files), files[0]))
    assert prog.copied == 2 and prog.done == 3
    msg = cmd_flash.failure("device rp2 1.28\nserial.serialutil.SerialException: write failed\n", prog, "flash")
    assert msg.startswith("the board disconnected with 2 of %d files copied (file 3, " % len(files)), msg
    # "Up to date" after a cp line: that file is on the board
    prog.line("Up to date: teatally.new/x.mpy\n")
    assert prog.copied == 3
    # nothing begun: "before any file"
    prog = cmd_flash.Progress(files, io.StringIO())
    msg = cmd_flash.failure("device rp2 1.28\nmpremote: stopped\n", prog, "flash")
    assert "before any of the %d files was copied" % len(files) in msg and "file 0" not in msg


def test_offline_driver_install_says_the_internet_is_needed_once_and_no_driver(monkeypatch, capsys):
    """mip install of the display driver without the internet (mpremote's
    own output when the name lookup fails): one line naming the cause and
    --no-driver, not "run it again"."""
    fake_mpremote(monkeypatch, (
        "device rp2 1.28\nInstall ssd1306\nInstalling ssd1306 (latest) from https://micropython.org/pi/v2 to lib.new\n"
        "Package may be partially installed\nmpremote: [Errno -3] Temporary failure in name resolution requesting "
        "https://micropython.org/pi/v2/package/6/ssd1306/latest.json\n"))
    assert cli.main(["flash"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("teatally flash: could not download the display driver ssd1306 "
                                                   "from micropython.org ([Errno -3] Temporary failure in name "
                                                   "resolution): installing it needs the internet once"), err
    assert "`teatally flash --no-driver` skips it" in err and "old firmware still boots" in err
    # an HTTP error is not "offline"
    assert cmd_flash.unreachable("mpremote: Error 500 requesting https://micropython.org/pi/v2/x.json\n") is None


@pytest.mark.parametrize("cmd", ["flash", "pull"])
def test_no_board_says_no_board_found_and_nothing_else(monkeypatch, capsys, tmp_path, cmd):
    for output in ("mpremote: no device found\n",
                   "mpremote: failed to access /dev/ttyACM0 (it may be in use by another program)\n"):
        fake_mpremote(monkeypatch, output)
        argv = [cmd, "--no-driver"] if cmd == "flash" else [cmd, str(tmp_path / "records")]
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert err == ("teatally %s: no board found: plug in the Pico (USB data cable) and close other serial "
                       "programs\n" % cmd), err


def test_a_cut_pull_keeps_only_whole_files(monkeypatch, capsys, tmp_path):
    """A pull cut in its second file: the first is written whole, the
    second is not left half written (nor is an earlier copy of it spoiled)."""
    dest = tmp_path / "records"
    dest.mkdir()
    (dest / "g0002.jsonl").write_bytes(b"an earlier pull\n")
    fake_mpremote(monkeypatch, "file 1 of 2 game.jsonl 3\n616263\nfile 2 of 2 games/g0002.jsonl 10\n6465\n"
                  "mpremote: Error with transport: write failed\n")
    assert cli.main(["pull", str(dest)]) == 2
    err = capsys.readouterr().err
    assert err == ("teatally pull: the board disconnected with 1 of 2 files copied; nothing on the board changed: "
                   "run `teatally pull` again\n"), err
    assert sorted(p.name for p in dest.iterdir()) == ["current.jsonl", "g0002.jsonl"]
    assert (dest / "current.jsonl").read_bytes() == b"abc"
    assert (dest / "g0002.jsonl").read_bytes() == b"an earlier pull\n"
