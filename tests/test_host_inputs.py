"""What the `teatally` commands read and say about it (issue 33): every input
is read up to errors.MAX_INPUT (1 MiB) and no further, an endless stream, an
endless line or a deep nesting is refused in one line with exit 2 and little
memory; a damaged device journal gets one verdict in replay, report and a
season; a path that is not a folder is named as such."""

import json
import resource
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from test_cli_fuzz import check, run_cli

from teatally_host import cli, gen
from teatally_host.errors import MAX_INPUT

ROOT = Path(__file__).resolve().parents[1]
DEMO = (ROOT / "examples" / "demo-game.jsonl").read_bytes()
# what a command may hold while it refuses an endless input: a few times the
# 1 MiB it reads (the bound is about 100 MB)
HELD = 16 << 20


class Endless:
    """A binary stream that never ends: `head`, then `fill` for ever."""

    def __init__(self, head=b"", fill=b"\0"):
        self.head = head
        self.fill = fill
        self.given = 0

    def read(self, n=-1):
        if n is None or n < 0:
            raise AssertionError("an endless stream read whole")
        out = (self.head[self.given:self.given + n] + self.fill * n)[:n]
        self.given += n
        return out


class EndlessStdin:
    def __init__(self, stream):
        self.buffer = stream

    def read(self):
        raise AssertionError("an endless stdin read whole")

    def isatty(self):
        return False


def run_endless(argv, stream, monkeypatch):
    """(exit status, stdout, stderr, the most memory Python held) of
    `teatally argv` with stdin an endless stream."""
    monkeypatch.setattr(sys, "stdin", EndlessStdin(stream))
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    tracemalloc.start()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(argv)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return code, out.getvalue(), err.getvalue(), peak


ENDLESS = {
    "zeros": Endless(),
    # an endless line after a good record: no newline ever comes
    "endless line": Endless(DEMO + b'{"blue": "', b"x"),
    # a line that nests for ever
    "endless nesting": Endless(DEMO, b"["),
    "endless lines": Endless(b"", b'{"adjust": {}}\n'),
}
WHAT = {"replay": "game record", "score": "game file", "sim": "key script"}


@pytest.mark.parametrize("kind", sorted(ENDLESS))
@pytest.mark.parametrize("argv", [["replay", "-"], ["score", "-"], ["sim", "--keys", "-"]], ids=lambda a: a[0])
def test_an_endless_stdin_is_refused_after_1_mib_in_one_line(monkeypatch, argv, kind):
    stream = ENDLESS[kind]
    stream.given = 0
    code, out, err, peak = run_endless(argv, stream, monkeypatch)
    assert (code, out) == (2, ""), err
    assert err == ("teatally %s: stdin: more than 1 MiB, far more than any %s (1 MiB is the most read of any "
                   "input)\n" % (argv[0], WHAT[argv[0]]))
    assert MAX_INPUT < stream.given <= MAX_INPUT + (1 << 16)  # read no further than needed
    assert peak < HELD, peak


def test_every_file_input_is_bounded(tmp_path):
    """/dev/zero (and /dev/urandom) as a record, a score file, a key
    script, a bench record and a season's record: refused, named."""
    for argv, what in (
        (["replay", "/dev/zero"], "game record"),
        (["score", "/dev/urandom"], "game file"),
        (["report", "/dev/zero"], "game record"),
        (["sim", "--keys", "/dev/zero"], "key script"),
    ):
        code, out, err = check(argv[0], run_cli(argv))
        assert code == 2 and err == ("teatally %s: %s: more than 1 MiB, far more than any %s (1 MiB is the most read "
                                     "of any input)\n" % (argv[0], argv[-1], what)), err
    # bench --records: its records are checked before the long run
    recs = tmp_path / "recs"
    recs.mkdir()
    (recs / "zero.jsonl").symlink_to("/dev/zero")
    code, out, err = check("bench", run_cli(["bench", "--records", str(recs)]))
    assert code == 2 and "zero.jsonl: more than 1 MiB" in err
    # a season: the endless record is left out, the others count
    season = tmp_path / "season"
    season.mkdir()
    (season / "zero.jsonl").symlink_to("/dev/zero")
    (season / "demo.jsonl").write_bytes(DEMO)
    code, out, err = check("report", run_cli(["report", str(season)]))
    assert code == 0 and out.startswith("games finished: 0 (unfinished 1, invalid 1)")
    assert err == ("teatally report: zero.jsonl left out (invalid): more than 1 MiB, far more than any game record "
                   "(1 MiB is the most read of any input)\n")
    # a file of exactly 1 MiB is read (and judged on what it holds)
    big = tmp_path / "big.jsonl"
    big.write_bytes(DEMO + b"#" * (MAX_INPUT - len(DEMO) - 1) + b"\n")
    assert big.stat().st_size == MAX_INPUT
    assert run_cli(["replay", str(big)])[0] == 0


def test_a_deep_nesting_is_refused_in_our_words(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_bytes(b"[" * (MAX_INPUT - 1))
    code, out, err = check("replay", run_cli(["replay", str(deep)]))
    assert (code, err) == (2, "teatally replay: line 1: not valid JSON (nested too deeply)\n")
    code, out, err = check("score", run_cli(["score", str(deep)]))
    assert code == 2 and err.startswith("teatally score: malformed JSON: nested deeper than 8 levels"), err
    assert "recursion" not in err


@pytest.mark.parametrize("argv", [["replay", "/dev/zero"], ["score", "/dev/urandom"]])
def test_the_console_command_stays_small_on_an_endless_file(argv):
    """The issue's cases as a user runs them, with the address space capped
    at 1 GB: one line and exit 2, not "internal error ... MemoryError"
    (before: about 24 GB, then the kernel's kill)."""
    cap = 1 << 30

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    exe = ROOT / ".venv" / "bin" / "teatally"
    res = subprocess.run([str(exe)] + argv, capture_output=True, text=True, preexec_fn=limit, timeout=60)
    assert res.returncode == 2 and res.stdout == "", res
    assert res.stderr.count("\n") == 1 and "more than 1 MiB" in res.stderr, res.stderr


# -- one verdict per damaged file --------------------------------------------------


def test_a_torn_journal_gets_the_same_verdict_in_replay_report_and_season(tmp_path):
    """A device journal whose last line is torn (the power cut while it was
    written): replay, the single report and the season all keep the lines
    before it (salvage.damaged) and say so on stderr; the season counts the
    game (unfinished: its last round is lost) instead of leaving it out."""
    objs = gen.random_game(4)
    text = gen.record_text(objs, crc=True).encode()
    last = text.rstrip(b"\n").rpartition(b"\n")[2]
    torn = text[: len(text) - len(last) // 2 - 1]
    season = tmp_path / "season"
    season.mkdir()
    (season / "torn.jsonl").write_bytes(torn)
    n = len(objs)
    account = "damaged record: kept %d of %d lines" % (n - 1, n)
    code, out, err = check("replay", run_cli(["replay", str(season / "torn.jsonl")]))
    assert code == 0 and err.splitlines()[0] == "teatally replay: " + account
    code, out, err = check("report", run_cli(["report", str(season / "torn.jsonl"), "--out", str(tmp_path / "r")]))
    assert code == 0 and err.splitlines()[0] == "teatally report: " + account
    assert "not finished" in out
    code, out, err = check("report", run_cli(["report", str(season), "--out", str(tmp_path / "s")]))
    assert code == 0 and out.startswith("games finished: 0 (unfinished 1, invalid 0)")
    assert err.splitlines()[0] == "teatally report: torn.jsonl: " + account
    # a hand-written record (no CRC) with a bad line is refused by all three
    (season / "torn.jsonl").unlink()
    (season / "bad.jsonl").write_bytes(DEMO + b"{broken\n")
    assert run_cli(["replay", str(season / "bad.jsonl")])[0] == 2
    assert run_cli(["report", str(season / "bad.jsonl")])[0] == 2
    code, out, err = check("report", run_cli(["report", str(season), "--out", str(tmp_path / "s")]))
    assert code == 0 and "invalid 1" in out and err.startswith("teatally report: bad.jsonl left out (invalid): line ")


def test_season_html_is_written_or_said_to_be_missing(tmp_path):
    season = tmp_path / "season"
    season.mkdir()
    (season / "demo.jsonl").write_bytes(DEMO)  # unfinished: no season yet
    code, out, err = check("report", run_cli(["report", str(season), "--html"]))
    assert code == 0 and err == "teatally report: no season.html: %s holds no finished game\n" % season
    assert not (season / "season.html").exists() and (season / "season.json").exists()
    gen.write_record(gen.random_game(1), season / "g1.jsonl", crc=True)
    code, out, err = check("report", run_cli(["report", str(season), "--html"]))
    page = (season / "season.html").read_text()
    assert code == 0 and err == "" and out.splitlines()[-1].endswith("season.html")
    assert "<th>games finished</th><td>1</td>" in page and "<th>unfinished</th><td>1</td>" in page


# -- a path that is not a folder ---------------------------------------------------


def test_a_file_where_a_folder_is_wanted_is_named(tmp_path):
    f = tmp_path / "afile"
    f.write_text("x")
    code, out, err = check("sim", run_cli(["sim", "--flash", str(f), "--keys", "-"]))
    assert (code, err) == (2, "teatally sim: --flash (the folder playing the Pico's flash): %s is a file, not a "
                              "folder\n" % f)
    code, out, err = check("sim", run_cli(["sim", "--png", str(f / "frames"), "--keys", "-"]))
    assert (code, err) == (2, "teatally sim: --png (the folder for the frames): %s is a file, not a folder, so %s "
                              "cannot be one\n" % (f, f / "frames"))
    code, out, err = check("report", run_cli(["report", str(ROOT / "examples" / "demo-game.jsonl"),
                                              "--out", "/dev/null"]))
    assert (code, err) == (2, "teatally report: --out (the folder for the report's files): /dev/null is not a "
                              "folder\n")
    code, out, err = check("pull", run_cli(["pull", str(f)]))
    assert (code, err) == (2, "teatally pull: the folder for the records: %s is a file, not a folder\n" % f)


def test_the_simulators_flash_folder_files_are_read_bounded(tmp_path):
    """sim reads the flash folder's board.txt and settings.json itself (the
    board to boot, --lang): endless ones are read a few KB at most, as
    a damaged file (the firmware's defaults), and the game starts."""
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "board.txt").symlink_to("/dev/zero")
    (flash / "settings.json").symlink_to("/dev/zero")
    from teatally_host import sim

    assert sim.board_of(flash) == sim.DEFAULT_BOARD
    (flash / "settings.json").unlink()
    (flash / "settings.json").write_bytes(b"[" * 100000)
    sim.set_language(flash, "ja")
    assert json.loads((flash / "settings.json").read_text()) == {"lang": "ja"}
