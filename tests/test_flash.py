"""`teatally flash --dry-run` and the mip manifest (no board needed)."""

import json
import shlex

import pytest

from teatally_host import cli, cmd_flash


def dry(capsys, *extra):
    assert cli.main(["flash", "--dry-run", *extra]) == 0
    return [shlex.split(line) for line in capsys.readouterr().out.splitlines() if line.startswith("mpremote")]


@pytest.mark.parametrize("board", cmd_flash.board_names())
def test_dry_run_lists_every_step_for_each_board(capsys, board):
    cmds = dry(capsys, "--board", board)
    b = cmd_flash.load_board(board)
    assert cmds[0][:4] == ["mpremote", "connect", "auto", "exec"] and "version" in cmds[0][4]
    mip = [c[5] for c in cmds if c[3:5] == ["mip", "install"]]
    assert mip == b["MIP_PACKAGES"]
    copies = [c for c in cmds if c[3:5] == ["fs", "cp"]]
    mpys = copies[0][5:-1]
    assert copies[0][-1] == ":teatally/"
    assert sorted(m.rsplit("/", 1)[1] for m in mpys) == sorted(
        p.stem + ".mpy" for p in cmd_flash.firmware_modules()
    )
    assert "app.mpy" in " ".join(mpys) and "hw_sim" not in " ".join(mpys)
    assert ["boards/%s.py" % board, ":boards/%s.py" % board] in [c[5:] for c in copies]
    assert ["firmware/main.py", ":main.py"] in [c[5:] for c in copies]
    assert any("board.txt" in c[-1] and board in c[-1] for c in cmds if c[3] == "exec")
    assert cmds[-1][3:] == ["reset"]
    # never touches the games
    text = " ".join(" ".join(c) for c in cmds)
    assert "game.jsonl" not in text and "rm" not in [c[4] for c in cmds if len(c) > 4 and c[3] == "fs"]


def test_dry_run_port_and_driver_options(capsys):
    cmds = dry(capsys, "--port", "/dev/ttyACM1", "--no-driver")
    assert all(c[1:3] == ["connect", "/dev/ttyACM1"] for c in cmds)
    assert not any(c[3] == "mip" for c in cmds)


def test_compile_for_rp2350_uses_its_arch(tmp_path):
    made = cmd_flash.compile_firmware("rp2350", out=tmp_path / "mpy")
    assert len(made) == len(cmd_flash.firmware_modules())
    assert all(m.stat().st_size > 0 for m in made)
    # the embedded source name is the module's name (a qstr the import makes
    # anyway), not a path of the build machine: one less string per module
    # in the device's heap
    ui = (tmp_path / "mpy" / "teatally" / "ui.mpy").read_bytes()
    assert b"teatally.ui\x00" in ui
    assert str(cmd_flash.FIRMWARE).encode() not in ui
    assert cmd_flash.source_name(cmd_flash.FIRMWARE / "teatally" / "__init__.py") == "teatally"


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
    assert "main.py" in dests and "teatally/t42.py" in dests and "boards/pico_ssd1306.py" in dests
    assert pkg["deps"] == [["ssd1306", "latest"]]


def test_pull_dry_run(capsys):
    assert cli.main(["pull", "--dry-run", "out"]) == 0
    out = capsys.readouterr().out
    assert "mpremote connect auto fs cp :game.jsonl out/current.jsonl" in out


# -- --romfs ------------------------------------------------------------------------


def test_dry_run_romfs_checks_the_partition_before_touching_the_board(capsys):
    """--romfs: version and partition first, then the image is written, then
    the LittleFS copy of the package goes (it would shadow /rom), then
    main.py and the board file as usual; the games are never touched."""
    cmds = dry(capsys, "--romfs")
    steps = [c[3:] for c in cmds]
    assert steps[0][0] == "exec" and "version" in steps[0][1]
    assert steps[1] == ["romfs", "query"]
    deploy = steps.index(["romfs", "deploy", "build/teatally.romfs"])
    prepare = [i for i, s in enumerate(steps) if s[0] == "exec" and "os.remove('teatally/'" in s[1]]
    assert len(prepare) == 1 and deploy < prepare[0]
    assert ["fs", "cp", "firmware/main.py", ":main.py"] in steps
    assert steps[-1] == ["reset"]
    # no .mpy goes to LittleFS
    assert not any(s[:2] == ["fs", "cp"] and s[-1] == ":teatally/" for s in steps)
    text = " ".join(" ".join(c) for c in cmds)
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


class _Proc:
    def __init__(self, out, code=0):
        self.stdout, self.stderr, self.returncode = out, "", code


def test_romfs_without_partition_stops_before_writing(monkeypatch, capsys, tmp_path):
    """A stock RPI_PICO firmware (no ROMFS partition): a clear error, and
    nothing on the board was changed (no deploy, no removal, no copy)."""
    image = tmp_path / "teatally.romfs"
    image.write_bytes(b"\xd2\xcd\x31\x00")
    monkeypatch.setattr(cmd_flash, "build_romfs", lambda chip: image)
    seen = []

    def fake_run(argv, **kw):
        seen.append(argv[3:])
        if "romfs" in argv:
            return _Proc("No ROMFS partitions available\n")
        return _Proc("(1, 27)\n")

    monkeypatch.setattr(cmd_flash.subprocess, "run", fake_run)
    assert cli.main(["flash", "--romfs"]) == 2
    err = capsys.readouterr().err
    assert "no ROMFS partition" in err and "without --romfs" in err
    assert [s[2:4] for s in seen] == [["exec", "import sys; print(sys.implementation.version[:2])"],
                                      ["romfs", "query"]]


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
        "    print(' '.join(sorted(os.listdir('/rom/teatally'))))\n"
        "main()\n",
        fw,
    )
    assert res.split() == sorted(p.stem + ".mpy" for p in cmd_flash.firmware_modules())


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
    from teatally import app, hw_virtual
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

    from teatally_host import bench, mpvm

    tree = tmp_path / "mpy"
    bench.build_firmware(tree)
    fw = tmp_path / "fw"
    fw.mkdir()
    (fw / "img").write_bytes(cmd_flash.romfs_image(tree, skip=("hw_sim",)))
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
