"""`teatally score`: JSON in, canonical JSON out; every invalid input exits 2 with one stderr line.

Runs the CLI in-process (teatally_host.cli.main) with capsys; one subprocess
run checks the installed console script and stdin.
"""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from teatally_host import cli

ROOT = Path(__file__).resolve().parents[1]

JOEY = {
    "name": "Joey",
    "coins": 5,
    "teas": 2,
    "upgrades": 10,
    "coupons": 3,
    "loyal_witches": 5,
    "loyal_celebriteas": 3,
    "hex_wards": 3,
    "togo2": 2,
    "togo4": 1,
    "special_teas": 1,
    "loyal_track": 4,
}
ZERO = {k: 0 for k in JOEY if k != "name"}


def tt(*players):
    return {"game": "tea-time", "players": list(players)}


def tw(*players):
    return {"game": "tea-witches", "players": list(players)}


def ttp(counts, alice=False, name="X"):
    return {"name": name, "counts": counts, "alice": alice}


def run(capsys, monkeypatch, doc, raw=False):
    """Feed ``doc`` (object, or raw text with raw=True) on stdin; return (code, stdout, stderr)."""
    text = doc if raw else json.dumps(doc)
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = cli.main(["score", "-"])
    out, err = capsys.readouterr()
    return code, out, err


def ok(capsys, monkeypatch, doc):
    code, out, err = run(capsys, monkeypatch, doc)
    assert (code, err) == (0, "")
    assert out.endswith("}\n") and out.count("\n") == 1
    return out


def test_tea_time_rulebook_example(capsys, monkeypatch):
    """TTM-SCORE-1 / TTM-SCORE-2 / TTM-SCORE-3: 0,0,2,1,4,6 + Alice = 43 (the
    README's example: B's counts make every total even, TTM-VALID-4)."""
    out = ok(capsys, monkeypatch, tt(ttp([0, 0, 2, 1, 4, 6], True, "A"), ttp([4, 2, 2, 3, 0, 2], False, "B")))
    assert out == '{"scores": [43, 30], "winners": [0]}\n'


def test_tea_time_ties(capsys, monkeypatch):
    """TTM-WIN-1 / TTM-WIN-2: tied players share the win, the Alice holder
    among them or not (the rulebook names no tie-break)."""
    a = ttp([0, 0, 2, 1, 4, 6], True)  # 39 + 4
    b = ttp([0, 0, 2, 5, 4, 0])  # 5+5+3+15+10+5 = 43
    assert ok(capsys, monkeypatch, tt(a, b)) == '{"scores": [43, 43], "winners": [0, 1]}\n'
    x = ttp([0] * 6)  # 30
    y = ttp([2] * 6, True)  # 18 + 4
    assert ok(capsys, monkeypatch, tt(x, y, ttp([2] * 6), x)) == '{"scores": [30, 22, 18, 30], "winners": [0, 3]}\n'


def test_tea_time_totals_no_finished_game_has(capsys, monkeypatch):
    """TTM-VALID-4: a character whose total over all players is odd cannot
    end a game (every card is collected, cancelled cards leave in pairs):
    refused with the character and the reason; an even total within the box
    is fine (TTM-VALID-2 still refuses one over it)."""
    code, out, err = run(capsys, monkeypatch, tt(ttp([0, 0, 2, 1, 4, 6], True), ttp([1] * 6)))
    assert (code, out) == (2, "")
    assert err == (
        "teatally score: hatter: the players hold 1 in all, an odd number; "
        "a finished game leaves the box's 10 less cancelled pairs\n"
    )
    z = ttp([0] * 6)
    code, out, err = run(capsys, monkeypatch, tt(ttp([0, 0, 0, 0, 7, 0], True), z, z))
    assert (code, out) == (2, "")
    assert "queen: the players hold 7 in all, an odd number; a finished game leaves the box's 8 less" in err
    assert ok(capsys, monkeypatch, tt(ttp([0, 0, 0, 0, 6, 0], True), z, z)) == (
        '{"scores": [44, 30, 30], "winners": [0]}\n'
    )


def test_tea_time_three_players_box_of_eight(capsys, monkeypatch):
    """TTM-SETUP-3 / TTM-VALID-2: with three players a column of 8 is fine, 9 is not."""
    z = ttp([0] * 6)
    assert ok(capsys, monkeypatch, tt(ttp([8, 0, 0, 0, 0, 0], True), z, z)) == (
        '{"scores": [44, 30, 30], "winners": [0]}\n'
    )
    code, out, err = run(capsys, monkeypatch, tt(ttp([9, 0, 0, 0, 0, 0], True), z, z))
    assert (code, out) == (2, "")
    assert err == "teatally score: player 1: hatter count 9 is more than the box holds (8 with 3 players)\n"


def test_tea_witches_rulebook_example(capsys, monkeypatch):
    """TWI-TOTAL-1: A2 B1 C10 D3 E20 F18 G12 H8 I2 = 76, output keys sorted."""
    out = ok(capsys, monkeypatch, tw(JOEY, dict(ZERO, name="Zed")))
    assert out == (
        '{"scores": [{"A": 2, "B": 1, "C": 10, "D": 3, "E": 20, "F": 18, "G": 12, "H": 8, "I": 2, "total": 76}, '
        '{"A": 0, "B": 0, "C": 0, "D": 0, "E": 0, "F": 0, "G": 0, "H": 0, "I": 0, "total": 0}], "winners": [0]}\n'
    )


def test_tea_witches_tie_breaks(capsys, monkeypatch):
    """TWI-TIE-1 coupons, then TWI-TIE-2 the track, then TWI-TIE-3 shared; solo (TWI-SETUP-1) and name optional."""

    def w(**kw):
        return dict(ZERO, **kw)

    by_coupons = tw(w(upgrades=3, loyal_track=9), w(upgrades=1, coupons=2))
    assert json.loads(ok(capsys, monkeypatch, by_coupons))["winners"] == [1]
    by_track = tw(w(coupons=1, loyal_track=2), w(coupons=1, loyal_track=7), w(coupons=1, loyal_track=7, coins=1))
    assert json.loads(ok(capsys, monkeypatch, by_track))["winners"] == [1, 2]
    by_track2 = tw(w(coupons=1, loyal_track=2), w(coupons=1, loyal_track=3))
    assert json.loads(ok(capsys, monkeypatch, by_track2))["winners"] == [1]
    solo = json.loads(ok(capsys, monkeypatch, tw(ZERO)))
    assert solo["winners"] == [0] and solo["scores"][0]["total"] == 0


def test_file_argument(tmp_path, capsys):
    p = tmp_path / "g.json"
    p.write_text(json.dumps(tt(ttp([0, 0, 2, 1, 4, 6], True), ttp([0, 0, 0, 1, 0, 0]))))
    assert cli.main(["score", str(p)]) == 0
    assert capsys.readouterr() == ('{"scores": [43, 26], "winners": [0]}\n', "")


def test_console_script_reads_stdin():
    exe = ROOT / ".venv" / "bin" / "teatally"
    doc = json.dumps(tw(JOEY))
    res = subprocess.run([str(exe), "score", "-"], input=doc, capture_output=True, text=True)
    assert res.returncode == 0 and res.stderr == ""
    assert json.loads(res.stdout)["scores"][0]["total"] == 76
    bad = subprocess.run([str(exe), "score", "-"], input="{", capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stdout == "" and bad.stderr.count("\n") == 1


GOOD_TT = [ttp([0, 0, 2, 1, 4, 6], True), ttp([4, 2, 2, 3, 0, 2])]
INVALID = [
    # (id, document or raw text, expected stderr substring)
    ("malformed", '{"game": ', "malformed JSON"),
    ("empty", "", 'the file is empty: expected a JSON object with "game" and "players"'),
    ("blank", " \n\t\n", 'the file is empty: expected a JSON object with "game" and "players"'),
    ("deep", "[" * 100000, "malformed JSON: nested deeper than 8 levels (a score file nests 4"),
    ("deep-in-object", '{"game": "tea-time", "players": ' + "[" * 9 + "]" * 9 + "}", "nested deeper than 8"),
    ("bracket-in-string", '{"game": "[[[[[[[[[[[[", "players": []}', 'unknown game "[[[[[[[[[[[["'),
    ("bad-comma", '{"game": "tea-time",}', "malformed JSON at line 1, column 21: expecting property name"),
    ("nan", '{"game": "tea-witches", "players": [{"coins": NaN}]}', "NaN is not a number"),
    ("not-object", [1, 2], 'expected a JSON object with "game" and "players"'),
    ("no-game", {"players": []}, 'missing "game"'),
    ("unknown-game", {"game": "tea-for-3", "players": []}, 'unknown game "tea-for-3"'),
    ("game-not-str", {"game": 7, "players": []}, "unknown game 7"),
    ("extra-top", {"game": "tea-time", "players": GOOD_TT, "round": 3}, "unknown top-level field 'round'"),
    ("no-players", {"game": "tea-time"}, '"players" must be a list'),
    ("players-obj", {"game": "tea-time", "players": {}}, '"players" must be a list'),
    ("player-not-obj", tt(GOOD_TT[0], [1]), "player 2: expected an object"),
    ("name-not-str", tt(GOOD_TT[0], ttp([1] * 6, name=3)), "player 2: name must be a string"),
    # Tea Time: TTM-SETUP-1 / TTM-VALID-1..3
    ("tt-1-player", tt(GOOD_TT[0]), "tea-time needs 2 to 4 players, got 1"),
    ("tt-5-players", tt(GOOD_TT[0], *[ttp([0] * 6)] * 4), "tea-time needs 2 to 4 players, got 5"),
    ("tt-missing-counts", tt(GOOD_TT[0], {"alice": False}), "player 2: missing counts"),
    ("tt-missing-alice", tt(GOOD_TT[0], {"counts": [0] * 6}), "player 2: missing alice"),
    ("tt-extra-field", tt(GOOD_TT[0], dict(GOOD_TT[1], mirror=1)), "player 2: unknown field mirror"),
    ("tt-five-counts", tt(GOOD_TT[0], ttp([1] * 5)), "player 2: counts must be a list of 6 integers"),
    ("tt-counts-obj", tt(GOOD_TT[0], ttp({"hatter": 1})), "player 2: counts must be a list of 6 integers"),
    ("tt-negative", tt(GOOD_TT[0], ttp([1, 1, 1, -2, 1, 1])), "player 2: caterpillar count -2 is negative"),
    ("tt-float", tt(GOOD_TT[0], ttp([1, 1, 1, 1, 1.5, 1])), "player 2: queen count must be an integer, got 1.5"),
    ("tt-float-whole", tt(GOOD_TT[0], ttp([1.0, 1, 1, 1, 1, 1])), "player 2: hatter count must be an integer"),
    ("tt-bool", tt(GOOD_TT[0], ttp([1, 1, 1, 1, 1, True])), "player 2: march_hare count must be an integer"),
    ("tt-string", tt(GOOD_TT[0], ttp(["1", 1, 1, 1, 1, 1])), "player 2: hatter count must be an integer"),
    ("tt-over-box", tt(GOOD_TT[0], ttp([0, 11, 0, 0, 0, 0])), "cheshire_cat count 11 is more than the box holds"),
    ("tt-sum-over-box", tt(ttp([0, 0, 5, 0, 0, 0], True), ttp([0, 0, 6, 0, 0, 0])), "white_rabbit: players hold 11"),
    ("tt-two-alice", tt(GOOD_TT[0], ttp([1] * 6, True)), "more than one player holds Alice (players 1, 2)"),
    ("tt-no-alice", tt(ttp([1] * 6), ttp([1] * 6)), "no player holds Alice"),
    ("tt-alice-int", tt(GOOD_TT[0], ttp([1] * 6, 1)), "player 2: alice must be true or false, got 1"),
    ("tt-odd-total", tt(GOOD_TT[0], ttp([4, 2, 2, 2, 0, 2])), "caterpillar: the players hold 3 in all, an odd number"),
    # Tea Witches: TWI-SETUP-1 / TWI-VALID-1..3
    ("tw-0-players", tw(), "tea-witches needs 1 to 4 players, got 0"),
    ("tw-5-players", tw(*[ZERO] * 5), "tea-witches needs 1 to 4 players, got 5"),
    ("tw-missing", tw({k: v for k, v in JOEY.items() if k != "togo4"}), "player 1: missing togo4"),
    ("tw-negative", tw(JOEY, dict(ZERO, coins=-1)), "player 2: coins -1 is negative"),
    ("tw-hex-4", tw(dict(JOEY, hex_wards=4)), "player 1: hex_wards is 4, at most 3"),
    ("tw-coupons-36", tw(dict(JOEY, coupons=36)), "player 1: coupons is 36, at most 35"),
    ("tw-float", tw(dict(JOEY, upgrades=10.5)), "player 1: upgrades must be an integer, got 10.5"),
    ("tw-null", tw(dict(JOEY, loyal_track=None)), "player 1: loyal_track must be an integer, got None"),
    ("tw-extra", tw(dict(JOEY, tarts=2)), "player 1: unknown field tarts"),
]


@pytest.mark.parametrize("doc,expected", [(d, e) for _i, d, e in INVALID], ids=[i for i, _d, _e in INVALID])
def test_invalid_input_exits_2_with_one_line(capsys, monkeypatch, doc, expected):
    code, out, err = run(capsys, monkeypatch, doc, raw=isinstance(doc, str))
    assert code == 2
    assert out == ""
    assert err.startswith("teatally score: ") and err.endswith("\n") and err.count("\n") == 1
    assert expected in err


def test_unreadable_file(tmp_path, capsys):
    assert cli.main(["score", str(tmp_path / "nope.json")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == "teatally score: %s: No such file or directory\n" % (tmp_path / "nope.json")
    p = tmp_path / "latin1.json"
    p.write_bytes(b'{"game": "tea-time\xe9"}')
    assert cli.main(["score", str(p)]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", "teatally score: %s: the game file is not UTF-8 text\n" % p)


def test_readme_tea_time_example(capsys, monkeypatch):
    """TTM-SCORE-3 / TTM-VALID-4: the README's `teatally score` example is a
    possible end of game and prints what the README says."""
    text = (ROOT / "README.md").read_text()
    line = next(ln for ln in text.splitlines() if ln.startswith("echo '") and '"tea-time"' in ln)
    doc = line[len("echo '") : line.index("' | teatally score -")]
    out = ok(capsys, monkeypatch, json.loads(doc))
    assert "prints `%s`" % out.strip() in text

