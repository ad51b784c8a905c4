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
