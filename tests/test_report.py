"""`teatally report`: chart, CSV and HTML for one record; season statistics for a folder."""

import json
from pathlib import Path

from PIL import Image

from teatally.rules import t42
from teatally_host import cli, gen

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "demo-game.jsonl"


def test_report_on_a_known_record(tmp_path, capsys):
    """The demo game is not over: no winner anywhere, "not finished" in the
    text, the HTML and the CSV; the report names the files it wrote."""
    assert cli.main(["report", "--html", "--out", str(tmp_path), str(DEMO)]) == 0
    out = capsys.readouterr().out
    files = ", ".join(str(tmp_path.resolve() / n) for n in ("demo-game.png", "demo-game.csv", "demo-game.html"))
    assert out == "demo-game.jsonl: not finished (blue 2, pink 3 if it ended now); wrote %s\n" % files
    img = Image.open(tmp_path / "demo-game.png")
    img.verify()
    assert img.size == (800, 450)
    rows = (tmp_path / "demo-game.csv").read_text().splitlines()
    assert rows[0].startswith("line,round,kind,blue_card,pink_card,round_winner,blue_stars")
    assert rows[0].endswith(",rabbits,result")
    # setup + 4 rounds, each row the state after its line
    assert rows[1] == "2,0,setup,,,,0,1,0,0,9,9,0,3,0,0,9,9,blue,stars,5,5,5,5,5,7,not finished"
    assert rows[2] == "3,1,round,king,cat,blue,0,1,0,0,10,8,0,3,0,0,9,8,blue,stars,5,5,4,5,5,7,not finished"
    assert rows[-1].split(",")[:7] == ["6", "4", "round", "dormouse", "knave", "pink", "2"]
    assert rows[-1].endswith(",not finished") and len(rows) == 6
    page = (tmp_path / "demo-game.html").read_text()
    # the history: one numbering (the rounds'), every step said in the
    # device's words (issue 30)
    assert "<ul><li>Setup: Blue holds the flamingo; the hand on stars.</li>" in page and "<ol>" not in page
    assert (
        "<li>Round 4: Pink's knave beat Blue's dormouse. Pink's knave: took 3 tarts. Pink spent 1 hourglass: "
        "the hand on destroy; destroyed Pink's alice (3 stars).</li></ul>"
    ) in page
    round2 = "Round 2: Blue's queen beat Pink's guards. Blue's queen: destroyed an alice from pile 8 (2 stars)."
    assert "<li>%s</li>" % round2 in page
    assert "data:image/png;base64," in page and "game not finished" in page
    assert "<b>Not finished</b>" in page and "Winner" not in page


def test_report_of_a_finished_game_names_the_winner(tmp_path, capsys):
    """T42-SCORE-8: over, the report names the winner after objectives in
    the text, the HTML and the CSV's last row; the files go beside the
    record when no --out is given, and the report says so."""
    objs = gen.random_game(3)
    path = tmp_path / "g3.jsonl"
    gen.write_record(objs, path)
    g = t42.Game(objs[0])
    for a in objs[1:]:
        g.apply(a)
    fin = t42.score(g.state)
    assert cli.main(["report", "--html", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("g3.jsonl: winner %s (blue %d, pink %d); wrote %s" % (
        fin["winner"], fin["blue"], fin["pink"], tmp_path.resolve() / "g3.png"))
    rows = (tmp_path / "g3.csv").read_text().splitlines()
    assert rows[-1].endswith(",winner " + fin["winner"]) and rows[-2].endswith(",not finished")
    page = (tmp_path / "g3.html").read_text()
    assert "<b>Winner: %s</b>" % fin["winner"].capitalize() in page and "not finished" not in page


def test_the_chart_is_over_rounds():
    """Issue 30: the chart's x axis counts rounds, not record lines: the
    setup at 0, round n at n, an adjustment at the round before it."""
    from teatally_host import cmd_report

    objs = gen.random_game(3, rounds=12, adjust_rate=0.3)
    lines = [json.dumps(o) for o in objs]
    tl = cmd_report.Timeline(("\n".join(lines) + "\n").encode())
    xs = cmd_report.rounds_axis(tl)
    want = [0]
    for a in objs[1:]:
        want.append(want[-1] + ("adjust" not in a))
    assert xs == want and xs[-1] == 12 and len(xs) > 13  # adjustments share an x


def test_report_refuses_a_bad_record(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(DEMO.read_text() + '{"blue": "queen", "pink": "cat"}\n')
    assert cli.main(["report", str(bad)]) == 2
    assert capsys.readouterr().err == "teatally report: line 7: blue has no queen in the draw pile\n"


def test_season_statistics(tmp_path, capsys):
    finals = []
    for seed in range(5):
        objs = gen.random_game(seed)
        gen.write_record(objs, tmp_path / ("g%d.jsonl" % seed), crc=seed % 2 == 0)
        g = t42.Game(objs[0])
        for a in objs[1:]:
            g.apply(a)
        assert g.state.over
        finals.append((objs[0]["flamingo"], t42.score(g.state)))
    (tmp_path / "half.jsonl").write_text(DEMO.read_text())  # unfinished
    (tmp_path / "junk.jsonl").write_text("not json\n")
    assert cli.main(["report", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    stats = json.loads((tmp_path / "season.json").read_text())
    assert stats["games"] == 5 and stats["unfinished"] == 1 and stats["invalid"] == 1
    blue_wins = sum(1 for _, f in finals if f["winner"] == "blue")
    assert stats["wins"] == {"blue": blue_wins, "pink": 5 - blue_wins}
    holder = sum(1 for fl, f in finals if f["winner"] == fl)
    assert stats["wins_by_start_flamingo"] == {"holder": holder, "other": 5 - holder}
    assert stats["best"]["stars"] == max(max(f["blue"], f["pink"]) for _, f in finals)
    assert stats["average"]["blue"] == round(sum(f["blue"] for _, f in finals) / 5, 1)
    scored = sum(len(f["objectives"]) for _, f in finals)
    assert sum(d["scored"] for d in stats["objectives"].values()) == scored
    assert "games finished: 5 (unfinished 1, invalid 1)" in out
