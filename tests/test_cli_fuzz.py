"""Every `teatally` command fed fuzzed input: never a traceback.

Each command runs in-process (teatally_host.cli.main) on inputs drawn by
Hypothesis: record files (random bytes, random JSON lines nested deep, valid
records with bytes changed, numbers made huge, values of the wrong type),
score documents, key scripts, option values and whole command lines. What
must hold every time: the exit status is 0 or 2 (1 only where a command's
check may fail: never for these inputs), nothing on stderr but lines
`teatally <command>: ...`, exactly one of them on exit 2, and never the cli's
"internal error" line (a bug that got that far). The slow parts stay out:
the simulator's VM, mpy-cross, mpremote and the bench's runs are stubbed;
their inputs are what is fuzzed.
"""

import contextlib
import io
import json
import os
import sys
import tempfile
import warnings
from pathlib import Path
from unittest import mock

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from teatally_host import cli, gen

ROOT = Path(__file__).resolve().parents[1]
DEMO = (ROOT / "examples" / "demo-game.jsonl").read_bytes()
FULL = gen.record_text(gen.random_game(11)).encode()
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))


class FakeStdin:
    def __init__(self, data):
        self.buffer = io.BytesIO(data)

    def read(self):
        return self.buffer.read().decode()

    def isatty(self):
        return False


def run_cli(argv, stdin=b""):
    """(exit status, stdout, stderr) of `teatally argv` run in-process."""
    out, err = io.StringIO(), io.StringIO()
    old_in = sys.stdin
    sys.stdin = FakeStdin(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                warnings.catch_warnings(record=True) as warned:
            warnings.simplefilter("always")
            try:
                code = cli.main(argv)
            except SystemExit as exc:  # argparse: -h, or a mistake in the options
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = old_in
    # a warning would be lines of its own on stderr
    assert not warned, [str(w.message) for w in warned]
    return code, out.getvalue(), err.getvalue()


def check(command, result):
    """The promise: exit 0 or 2, stderr only `teatally <command>: ...`
    lines (one on exit 2), no internal error."""
    code, _out, err = result
    assert code in (0, 2), result
    lines = err.splitlines()
    assert all(line.startswith("teatally %s: " % command) for line in lines), result
    assert "internal error" not in err and "Traceback" not in err, result
    if code == 2:
        assert len(lines) == 1 and err.endswith("\n"), result
    return result


# -- records ----------------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
KEYS = ["game", "flamingo", "watch", "objectives", "blue", "pink", "effect", "buy", "hourglasses", "adjust",
        "stars", "tarts", "card", "cards", "pile", "space", "take", "then"]
record_values = st.recursive(
    st.sampled_from(["blue", "pink", "cat", "queen", "king", "tea-for-2", "stars", "copy", "tarts"])
    | st.integers(min_value=-(10**30), max_value=10**30) | st.booleans() | st.none() | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=5),
    max_leaves=16,
)


def deep(n, kind):
    return ("[" * n + "]" * n) if kind == "list" else ('{"a":' * n + "1" + "}" * n)


@st.composite
def mutated(draw, base=DEMO + b"\n"):
    """A valid record with a few bytes changed, inserted or dropped."""
    data = bytearray(draw(st.sampled_from([base, FULL])))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(data) - 1))
        op = draw(st.sampled_from(["set", "insert", "drop"]))
        b = draw(st.integers(0, 255))
        if op == "set":
            data[i] = b
        elif op == "insert":
            data.insert(i, b)
        else:
            del data[i]
    return bytes(data)


@st.composite
def json_lines(draw):
    """The demo's setup, then lines of random JSON (or deep nesting)."""
    setup = DEMO.split(b"\n")[1]
    lines = [setup if draw(st.booleans()) else json.dumps(draw(record_values)).encode()]
    for _ in range(draw(st.integers(0, 4))):
        pick = draw(st.integers(0, 9))
        if pick == 0:
            lines.append(deep(draw(st.integers(1, 5000)), draw(st.sampled_from(["list", "dict"]))).encode())
        elif pick == 1:
            lines.append(json.dumps({"adjust": {draw(st.sampled_from(["blue", "pink"])): {
                draw(st.sampled_from(["stars", "tarts", "hourglasses"])): draw(st.integers(-(10**30), 10**30))}}}
            ).encode())
        else:
            lines.append(json.dumps(draw(record_values)).encode())
    return b"\n".join(lines) + b"\n"


GAME = gen.random_game(5, adjust_rate=0.1)


def _paths(o, path=()):
    # every place in a JSON value: (keys...) down to it
    yield path
    if isinstance(o, dict):
        for k in o:
            yield from _paths(o[k], path + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from _paths(v, path + (i,))


@st.composite
def one_value_wrong(draw):
    """A legal game with one value (anywhere in one line) replaced."""
    objs = json.loads(json.dumps(GAME))
    n = draw(st.integers(0, len(objs) - 1))
    path = draw(st.sampled_from(list(_paths(objs[n]))))
    value = draw(record_values)
    if not path:
        objs[n] = value
    else:
        o = objs[n]
        for k in path[:-1]:
            o = o[k]
        o[path[-1]] = value
    return "".join(json.dumps(o) + "\n" for o in objs).encode()


records = st.one_of(st.binary(max_size=300), mutated(), json_lines(), one_value_wrong())
HOSTILE = [
    b"[" * 1000,
    ("[" * 1000 + "]" * 1000).encode(),
    DEMO.split(b"\n")[1] + b"\n" + b'{"adjust":' * 3000 + b"1" + b"}" * 3000,
    DEMO.split(b"\n")[1] + b'\n{"adjust":{"blue":{"stars":99999999999999999999999999}}}\n',
    b"\xff\xfe\x00garbage",
    b"",
]


@FUZZ
@given(data=records, upto=st.none() | st.integers(-5, 12))
@example(data=HOSTILE[0], upto=None)
@example(data=HOSTILE[1], upto=None)
@example(data=HOSTILE[2], upto=None)
@example(data=HOSTILE[2], upto=2)
@example(data=HOSTILE[3], upto=None)
@example(data=HOSTILE[4], upto=None)
@example(data=HOSTILE[5], upto=None)
def test_replay_fuzz(data, upto):
    """replay: any bytes, from a file or stdin, with or without --upto."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "game.jsonl"
        path.write_bytes(data)
        more = [] if upto is None else ["--upto", str(upto)]
        code, out, _ = check("replay", run_cli(["replay", str(path)] + more))
        assert (code == 0) == out.endswith("}\n")
        assert check("replay", run_cli(["replay", "-"] + more, stdin=data))[0] == code


def test_replay_refuses_the_hostile_cases_in_one_line():
    """The issue's cases: 1000 nested [ and a huge star count are refused
    with their line number."""
    for data, want in (
        (HOSTILE[0], "teatally replay: line 1: not valid JSON (nested too deeply)\n"),
        (HOSTILE[2], "teatally replay: line 2: not valid JSON (nested too deeply)\n"),
        (HOSTILE[3], "teatally replay: line 2: adjust: blue can have at most 999 stars\n"),
    ):
        assert run_cli(["replay", "-"], stdin=data) == (2, "", want)


file_names = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"), min_size=1,
                     max_size=12).filter(lambda n: n not in (".", ".."))


@SLOW
@given(data=records, name=file_names)
@example(data=HOSTILE[0], name="bad")
@example(data=HOSTILE[2], name="bad")
@example(data=HOSTILE[3], name="bad")
@example(data=DEMO, name="a$\\frac$")
@example(data=FULL, name="<b>&'\"")
def test_report_fuzz(data, name):
    """report of one record (with --html; any file name: it is the chart's
    title), and of a folder holding it beside a good record: a bad record is
    one line for the single report, and is left out by name from the season
    report, which still counts the rest."""
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d) / "season"
        folder.mkdir()
        (folder / (name + ".jsonl")).write_bytes(data)
        (folder / "good.jsonl").write_bytes(FULL)
        code, out, err = check("report", run_cli(["report", "--html", "--out", d, str(folder / (name + ".jsonl"))]))
        assert (code == 0) == (Path(d) / (name + ".html")).exists()
        code2, out2, err2 = check("report", run_cli(["report", str(folder)]))
        assert code2 == 0 and out2.startswith("games finished: ") and out2.endswith("season.json\n")
        assert (err2 == "") == (code == 0), (err, err2)


def test_season_report_names_what_it_leaves_out(tmp_path):
    """A season with a record of 1000 nested [ and one unreadable file
    still reports the good games; each bad file is named on stderr."""
    (tmp_path / "a.jsonl").write_bytes(FULL)
    (tmp_path / "b.jsonl").write_bytes(HOSTILE[0])
    (tmp_path / "c.jsonl").mkdir()
    code, out, err = check("report", run_cli(["report", str(tmp_path)]))
    assert code == 0 and out.startswith("games finished: 1 (unfinished 0, invalid 2)")
    assert err.splitlines() == [
        "teatally report: b.jsonl left out (invalid): line 1: not valid JSON (nested too deeply)",
        "teatally report: c.jsonl left out (invalid): Is a directory",
    ]
    assert out.splitlines()[-1] == "wrote %s" % (tmp_path.resolve() / "season.json")


# -- score ------------------------------------------------------------------------
FIELDS = ["name", "counts", "alice", "coins", "teas", "upgrades", "coupons", "loyal_witches",
          "loyal_celebriteas", "hex_wards", "togo2", "togo4", "special_teas", "loyal_track"]
score_values = st.recursive(
    st.integers(-(10**30), 10**30) | st.booleans() | st.none() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=7),
    max_leaves=10,
)
players = st.lists(st.dictionaries(st.sampled_from(FIELDS), score_values, max_size=13), max_size=5)
documents = st.fixed_dictionaries(
    {"game": st.sampled_from(["tea-time", "tea-witches", "tea-for-2", 3]), "players": players}
)


@FUZZ
@given(doc=documents | json_values, raw=st.none() | st.binary(max_size=100))
@example(doc=None, raw=b"[" * 5000)
@example(doc=None, raw=b"NaN")
def test_score_fuzz(doc, raw):
    """score: documents of the right shape with wrong values, any JSON, any bytes."""
    data = raw if raw is not None else json.dumps(doc).encode()
    check("score", run_cli(["score", "-"], stdin=data))


# -- sim, flash, pull, bench: their inputs, the slow parts stubbed -----------------
class StubSim:
    """sim.Sim without the VM: the run ends at once, cleanly."""

    def __init__(self, board, flash, source, **kw):
        from teatally_host import sim

        sim.load_board(board)
        self.guest_out = ""
        self.state_text = None

    def run(self, heap=None):
        return mock.Mock(code=0, stdout="", stderr="")

    def rows(self):
        return [[0] * 128 for _ in range(64)]


def ran(*args, **kw):
    from teatally_host.errors import BadInput

    raise BadInput("(the bench would run now)")


@contextlib.contextmanager
def stubbed():
    from teatally_host import bench, cmd_flash, sim

    def mpremote(args):
        return iter(["mpremote: no device found\n"]), lambda: 1

    with mock.patch.object(sim, "Sim", StubSim), \
            mock.patch.object(cmd_flash, "compile_firmware", lambda chip: []), \
            mock.patch.object(cmd_flash, "build_romfs", lambda chip: ROOT / "README.md"), \
            mock.patch.object(cmd_flash, "spawn", mpremote), \
            mock.patch.object(bench, "run_bench", ran):
        yield


key_words = st.sampled_from(["up", "down", "ok", "back", "UP", "long:ok", "wait:100", "3*down", "#", "\n",
                             "99999999999*ok", "wait:99999999999999", "x", "²*ok", "wait:²", "0*up"])
key_scripts = st.lists(key_words, max_size=12).map(" ".join) | st.text(max_size=40)


@FUZZ
@given(script=key_scripts | st.binary(max_size=40), scale=st.integers(-3, 40),
       board=st.none() | st.sampled_from(["pico_ssd1306", "nosuch", "../firmware/main", "", "_x"]))
def test_sim_fuzz(script, scale, board):
    """sim: any key script (text or bytes), scale and board name."""
    with tempfile.TemporaryDirectory() as d, stubbed():
        keys = Path(d) / "k.keys"
        if isinstance(script, bytes):
            keys.write_bytes(script)
        else:
            keys.write_text(script)
        argv = ["sim", "--keys", str(keys), "--flash", str(Path(d) / "flash"), "--scale", str(scale), "--quiet"]
        argv += [] if board is None else ["--board", board]
        check("sim", run_cli(argv))


def test_the_same_mistake_the_same_answer():
    """An unknown board: exit 2 and the same words in flash and sim; a
    board given as a path is no board; a mistake in the options is one line
    naming the command."""
    with stubbed(), tempfile.TemporaryDirectory() as d:
        flash = check("flash", run_cli(["flash", "--board", "nosuch", "--dry-run"]))
        sim = check("sim", run_cli(["sim", "--board", "nosuch", "--keys", "-", "--flash", d]))
        known = "unknown board 'nosuch' (known: pico_keypad, pico_sh1106, pico_ssd1306, waveshare_pico_oled_1_3)\n"
        assert flash == (2, "", "teatally flash: " + known)
        assert sim == (2, "", "teatally sim: " + known)
        assert check("flash", run_cli(["flash", "--board", "../firmware/main", "--dry-run"]))[0] == 2
        for command, needs in (("replay", "x"), ("report", "x"), ("score", "x"), ("sim", None), ("flash", None),
                               ("pull", None), ("bench", None)):
            code, out, err = run_cli([command, "--nosuch"] + ([needs] if needs else []))
            assert (code, out) == (2, "") and err.count("\n") == 1
            assert err.startswith("teatally %s: unrecognized arguments: --nosuch" % command)


words = st.sampled_from(["--board", "pico_ssd1306", "nosuch", "--chip", "rp2040", "rp2350", "--port", "auto",
                         "--dry-run", "--romfs", "--no-driver", "--upto", "-1", "3", "x", "--html", "--out",
                         "--records", "--strict", "--no-write", "--keys", "--scale", "0", "--seed",
                         "--demo", "--flash", "--png", "--shot", "-", "--plain", "--quiet", "-h"])


@FUZZ
@given(command=st.sampled_from(["flash", "pull", "bench", "sim", "replay", "report", "score"]),
       args=st.lists(words | st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
                                     max_size=6), max_size=6))
def test_command_lines_fuzz(command, args):
    """Whole command lines of known and random words, run where they are
    (paths relative to a fresh folder), the slow parts stubbed."""
    if command == "sim" and "--keys" not in args and "--demo" not in args:
        args = args + ["--keys", "k.keys"]  # (no interactive terminal)
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as d, stubbed():
        Path(d, "k.keys").write_text("ok")
        os.chdir(d)
        try:
            code, out, err = run_cli([command] + args)
        finally:
            os.chdir(cwd)
    if "-h" in args and code == 0:
        return  # help printed
    check(command, (code, out, err))


def test_a_closed_pipe_ends_only_the_output(tmp_path):
    """`teatally flash --dry-run | head -1`: the reader has gone before the
    first line; no BrokenPipeError, exit 0, and a report still writes its
    files (a real subprocess with its stdout a pipe already closed)."""
    import subprocess

    for argv, made in ((["flash", "--dry-run"], None), (["report", str(tmp_path)], tmp_path / "season.json")):
        (tmp_path / "g.jsonl").write_bytes(FULL)
        r, w = os.pipe()
        os.close(r)
        try:
            res = subprocess.run([sys.executable, "-m", "teatally_host.cli"] + argv, stdout=w,
                                 stderr=subprocess.PIPE, text=True, timeout=120)
        finally:
            os.close(w)
        assert (res.returncode, res.stderr) == (0, ""), argv
        assert made is None or made.exists()


DEVICE_LOAD = r"""
from teatally import record
from teatally.journal import RecordError
for name in sorted(__import__('os').listdir(FLASH)):
    try:
        record.load(open(FLASH + '/' + name, 'rb').read())
        print(name, 'ok')
    except RecordError as e:
        print(name, 'line', e.line)
"""


def test_hostile_records_refused_at_the_same_line_on_the_device(mp, tmp_path):
    """The device (MicroPython's record.load, the resume path) refuses the
    hostile records at the same line as `teatally replay` (its JSON parser
    nests without recursion, so its reason may differ: "not a JSON object"
    where the host says "nested too deeply"; T42-INPUT-4 for the stars)."""
    host = []
    for i, data in enumerate(HOSTILE):
        (tmp_path / ("h%d.jsonl" % i)).write_bytes(data)
        code, _, err = run_cli(["replay", str(tmp_path / ("h%d.jsonl" % i))])
        host.append("h%d.jsonl %s" % (i, "ok" if code == 0 else "line " + err.split("line ")[1].split(":")[0]))
    device = mp(DEVICE_LOAD, flash_dir=str(tmp_path)).stdout.split("\n")
    assert [line for line in device if line] == host


def test_a_bug_is_one_line_too(monkeypatch):
    """Should a command still hit a bug, it is one line with exit 3 (not a
    traceback, not the exit status of bad input); TEATALLY_DEBUG=1 lets the
    traceback through for the one who fixes it."""
    import pytest

    from teatally_host import cmd_replay

    def broken(args):
        return 1 // 0

    monkeypatch.setattr(cmd_replay, "run", broken)
    monkeypatch.delenv("TEATALLY_DEBUG", raising=False)
    code, out, err = run_cli(["replay", "x"])
    assert (code, out) == (3, "") and err.count("\n") == 1
    assert err.startswith("teatally replay: internal error, please report it") and "ZeroDivisionError" in err
    monkeypatch.setenv("TEATALLY_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        run_cli(["replay", "x"])
