"""`teatally replay FILE [--upto N]`: the reference for a record's state.

Bad records: each kind of invalid line is refused with its 1-based line
number (comments and blank lines count), exit status 2, one stderr line and
nothing on stdout. Random full games replay to the same bytes under
MicroPython as under CPython and the CLI, after every line.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from t42_support import DECLINE_SEEDS, REPLAY_SCRIPT, decline_depths, drain, dump, setup

from teatally import journal, jsonc, record
from teatally.rules import t42
from teatally_host import cli, gen

ROOT = Path(__file__).resolve().parents[1]
SETUP = json.dumps(setup())


def replay(capsys, tmp_path, text, *args):
    path = tmp_path / "game.jsonl"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    code = cli.main(["replay", str(path)] + [str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def lines(*objs):
    return "".join((o if isinstance(o, str) else json.dumps(o)) + "\n" for o in objs)


def _over_game():
    game = t42.Game(setup())
    out = []
    while not game.state.over:
        out += drain(game)
    return out


OVER = _over_game()
EMPTY_PILE_4 = [
    {"blue": "queen", "pink": "knave", "effect": {"pile": 4, "stars": 1}},
    {"blue": "alice", "pink": "cat", "buy": 4},
    {"blue": "king", "pink": "dormouse", "buy": 4},
    {"blue": "caterpillar", "pink": "guards", "buy": 4},
    {"adjust": {"blue": {"tarts": 1}}},
    {"blue": "knave", "pink": "executioner", "buy": 4},
]
CRC_LINE = journal.protect(jsonc.dumps({"blue": "cat", "pink": "cat"}))

BAD = [
    # (record text, line number, reason)
    pytest.param(lines("# a comment", "", SETUP, "{nope"), 4, "not valid JSON", id="bad-json"),
    pytest.param(lines(SETUP, "[1, 2]"), 2, "not a JSON object", id="not-object"),
    pytest.param(lines('"tea"'), 1, "not a JSON object", id="setup-not-object"),
    pytest.param(lines(dict(setup(), game="chess")), 1, 'setup: "game" must be "tea-for-2"', id="setup-game"),
    pytest.param(lines(dict(setup(), flamingo="red")), 1, "setup: flamingo must be blue or pink", id="setup-flamingo"),
    pytest.param(
        lines(dict(setup(), watch="noon")),
        1,
        "setup: watch must be one of stars, destroy, reveal, flamingo, copy",
        id="setup-watch",
    ),
    pytest.param(
        lines(setup(objectives={"4": "tarts", "5": "most:teapot", "6": "deck", "7": "destroyed", "8": "tarts"})),
        1,
        "setup: objective above pile 5 is missing or unknown",
        id="setup-objective",
    ),
    pytest.param(lines(), 1, "empty record: the first line must be the setup", id="empty"),
    pytest.param(
        lines(SETUP, {"blue": "cat", "pink": "cat"}, {"blue": "cat", "pink": "dormouse"}),
        3,
        "blue has no cat in the draw pile",
        id="not-in-draw",
    ),
    pytest.param(
        lines(SETUP, {"blue": "teapot", "pink": "cat"}), 2, "unknown card 'teapot' for blue", id="unknown-card"
    ),
    pytest.param(
        lines(SETUP, {"blue": "queen", "pink": "cat", "effect": {"pile": 4, "stars": 0}, "buy": 4}),
        2,
        "a round has one action: effect or buy, not both",
        id="effect-and-buy",
    ),
    pytest.param(
        lines(setup(flamingo="pink"), *EMPTY_PILE_4, {"blue": "executioner", "pink": "caterpillar", "buy": 4}),
        8,
        "pile 4 is empty",
        id="empty-pile",
    ),
    pytest.param(
        lines(dict(setup(), flamingo="pink"), {"blue": "dormouse", "pink": "king", "buy": 7}),
        2,
        "pile 7 costs 2 tarts, pink has 1",
        id="too-expensive",
    ),
    pytest.param(
        lines(SETUP, {"blue": "alice", "pink": "cat", "effect": {}, "hourglasses": 2}),
        2,
        "hourglasses: blue wins the round and has 1 to spend, not 2",
        id="too-many-hourglasses",
    ),
    pytest.param(
        lines(
            SETUP,
            {"blue": "cat", "pink": "dormouse"},
            {"adjust": {"blue": {"hourglasses": 1}}},
            {"blue": "queen", "pink": "guards", "hourglasses": 1, "watch": {"card": "queen", "stars": 0}},
        ),
        4,
        "watch destroy: queen is not possible here",
        id="destroy-space-queen",
    ),
    pytest.param(
        lines(SETUP, {"blue": "queen", "pink": "cat", "effect": {"card": "king", "stars": 1}}),
        2,
        "blue queen: unexpected parameter card",
        id="wrong-params",
    ),
    pytest.param(
        lines(SETUP, *OVER, {"blue": "cat", "pink": "cat"}),
        len(OVER) + 2,
        "the game is over",
        id="after-game-over",
    ),
    pytest.param(
        lines(SETUP, {"adjust": {"pink": {"tarts": -4}}}),
        2,
        "adjust: pink has only 3 tarts",
        id="adjust-more-than-held",
    ),
    pytest.param(lines(SETUP) + CRC_LINE.replace('"cat"}', '"dog"}', 1), 2, "CRC mismatch", id="crc-mismatch"),
]


@pytest.mark.parametrize("text, line, reason", BAD)
def test_bad_record_refused_with_line_number(capsys, tmp_path, text, line, reason):
    """T42-INPUT-3 T42-ROUND-1 T42-BUY-2 T42-WATCH-1 T42-DESTROY-2
    T42-END-3 T42-INPUT-2: a bad line stops the replay with "teatally replay: line N:
    reason" on stderr, exit status 2 and nothing on stdout."""
    code, out, err = replay(capsys, tmp_path, text)
    assert (code, out, err) == (2, "", "teatally replay: line %d: %s\n" % (line, reason))


def test_good_record_with_crc_and_comments(capsys, tmp_path):
    """T42-ROUND-2: CRC-protected lines, comments and blank lines replay; the
    output is the canonical state JSON plus a newline."""
    text = "# demo\n\n" + journal.protect(jsonc.dumps(setup())) + CRC_LINE
    code, out, err = replay(capsys, tmp_path, text)
    assert code == 0 and err == ""
    state = json.loads(out)
    assert state["round"] == 1 and state["blue"]["discard"] == ["cat"]
    assert out == dump(record.load(text).state) + "\n"


def test_repeated_objective_face_warns(capsys, tmp_path):
    """T42-OBJ-2: a face above two piles replays (exit 0, the state on
    stdout) with one warning line on stderr naming the face and the piles;
    a record without a repeat replays without a word on stderr."""
    objectives = dict(setup()["objectives"], **{"6": "tarts", "8": "tarts"})
    text = lines(dict(setup(), objectives=objectives), {"blue": "cat", "pink": "cat"})
    code, out, err = replay(capsys, tmp_path, text)
    assert code == 0 and json.loads(out)["objectives"] == {
        "4": "tarts",
        "5": "most:king",
        "6": "tarts",
        "7": "destroyed",
        "8": "tarts",
    }
    assert err == (
        "teatally replay: warning: setup: tarts is already above pile 4 (pile 6 repeats it; each tile is placed once)\n"
    )
    code, out, err = replay(capsys, tmp_path, lines(SETUP, {"blue": "cat", "pink": "cat"}))
    assert (code, err) == (0, "")


def test_upto(capsys, tmp_path):
    """T42-ROUND-1: --upto N prints the state after line N (comments count as
    lines); N before the setup line is an empty record; a bad line after N
    is still reported when no --upto is given."""
    rounds = [{"blue": "cat", "pink": "queen"}, {"blue": "dormouse", "pink": "alice", "effect": {}}]
    text = lines("# header", SETUP, *rounds, {"blue": "cat", "pink": "cat"})
    full = t42.Game(setup())
    expect = [dump(full.state)]
    for r in rounds:
        full.apply(r)
        expect.append(dump(full.state))
    for n, want in ((2, expect[0]), (3, expect[1]), (4, expect[2])):
        assert replay(capsys, tmp_path, text, "--upto", n) == (0, want + "\n", "")
    assert replay(capsys, tmp_path, text, "--upto", 1) == (
        2,
        "",
        "teatally replay: line 1: empty record: the first line must be the setup\n",
    )
    assert replay(capsys, tmp_path, text) == (2, "", "teatally replay: line 5: blue has no cat in the draw pile\n")


def test_upto_ignores_an_unreadable_later_line(capsys, tmp_path):
    """T42-INPUT-3: --upto N should not depend on lines after N (a record
    whose line 5 is not JSON still has a state after line 4)."""
    text = lines(SETUP, {"blue": "cat", "pink": "queen"}, "{broken")
    code, out, err = replay(capsys, tmp_path, text, "--upto", 2)
    assert (code, err) == (0, "") and json.loads(out)["round"] == 1


def test_missing_file_and_console_script(tmp_path):
    """T42-INPUT-3: the installed command reads stdin ('-'), and a missing file
    is one stderr line with exit status 2."""
    cmd = [sys.executable, "-m", "teatally_host.cli", "replay"]
    res = subprocess.run(cmd + [str(tmp_path / "nope.jsonl")], capture_output=True, text=True)
    assert res.returncode == 2 and res.stdout == "" and res.stderr.count("\n") == 1
    text = lines(SETUP, {"blue": "cat", "pink": "cat"}, {"blue": "cat", "pink": "cat"})
    res = subprocess.run(cmd + ["-"], input=text, capture_output=True, text=True)
    expect = "teatally replay: line 3: blue has no cat in the draw pile\n"
    assert (res.returncode, res.stdout, res.stderr) == (2, "", expect)


def test_random_games_same_on_micropython_and_cli(dual, capsys, tmp_path):
    """T42-END-3 T42-INPUT-2 T42-COPY-1: several complete random games (with
    adjustments, CRCs, a 60-round one) replay under MicroPython to the same
    bytes as under CPython after every line, and each line's state equals
    `teatally replay --upto N`; record.load's final state equals the CLI's."""
    games = {
        "g1.jsonl": gen.record_text(gen.random_game(101)),
        "g2.jsonl": gen.record_text(gen.random_game(202, adjust_rate=0.15)),
        "g3.jsonl": gen.record_text(gen.random_game(303), crc=True),
        "g4.jsonl": gen.record_text(gen.long_game(60)[1], crc=True),
    }
    finals = same_on_micropython_and_cli(dual, capsys, tmp_path, games)
    assert [f["over"] for f in finals] == [True, True, True, False]


def test_declined_copies_same_on_micropython_and_cli(dual, capsys, tmp_path):
    """T42-COPY-4 T42-COPY-3: random games that decline a share of their
    copied effects, at every depth of a cat/copy chain between them (seeds:
    t42_support.DECLINE_SEEDS), replay to the same bytes under MicroPython,
    CPython and `teatally replay`, line by line."""
    games = {}
    for i, seed in enumerate(DECLINE_SEEDS):
        objs = gen.random_game(seed, adjust_rate=0.05 * i, style="copies", decline_rate=0.35)
        assert any(decline_depths(line) for line in objs[1:])
        games["d%d.jsonl" % seed] = gen.record_text(objs, crc=i % 2 == 1)
    finals = same_on_micropython_and_cli(dual, capsys, tmp_path, games)
    assert all(f["over"] for f in finals)


def same_on_micropython_and_cli(dual, capsys, tmp_path, games):
    """Replay games ({name: record text}) under MicroPython and CPython
    (identical, checked by dual) and check every line's state against
    `teatally replay --upto N` and the final one against `teatally replay`;
    -> the final states, in name order."""

    def put(folder):
        for name, text in games.items():
            (folder / name).write_text(text)

    out = dual(REPLAY_SCRIPT, setup_flash=put)
    blocks = out.split("== ")[1:]
    assert [b.split("\n", 1)[0] for b in blocks] == sorted(games)
    finals = []
    for block in blocks:
        name, body = block.split("\n", 1)
        rows = body.strip("\n").split("\n")
        path = tmp_path / name
        path.write_text(games[name])
        assert len(rows) == games[name].count("\n") + 1
        for row in rows[:-1]:
            n, state = row.split(" ", 1)
            assert cli.main(["replay", str(path), "--upto", n]) == 0
            assert capsys.readouterr().out == state + "\n"
        assert rows[-1].startswith("load ")
        assert cli.main(["replay", str(path)]) == 0
        final = capsys.readouterr().out
        assert final == rows[-1][5:] + "\n"
        finals.append(json.loads(final))
    return finals


def test_full_game_example(capsys):
    """T42-END-1 T42-SCORE-1: examples/full-game.jsonl (the README's full game)
    is generator seed 603 verbatim after its comments, and replays to a game
    over by empty piles, blue winning 25 to 20."""
    path = ROOT / "examples" / "full-game.jsonl"
    text = path.read_text()
    body = "".join(line + "\n" for line in text.splitlines() if not line.startswith("#"))
    assert body == gen.record_text(gen.random_game(603))
    assert cli.main(["replay", str(path)]) == 0
    state = json.loads(capsys.readouterr().out)
    assert (state["over"], state["end"], state["round"]) == (True, "piles", 43)
    assert (state["final"]["blue"], state["final"]["pink"], state["final"]["winner"]) == (25, 20, "blue")
