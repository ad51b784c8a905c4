"""The effort corpus (teatally_host.corpus, issue 26): its games are legal
and end, its styles play differently, the floor is what its definition
says, and the figures come out the same on every run."""

import json

import pytest

from teatally.rules import t42
from teatally_host import bench, benchvm, corpus, effort, keyscript


def _replayed(objs):
    g = t42.Game(objs[0])
    for o in objs[1:]:
        g.apply(o)
    return g


def _spec(style, seed=corpus.SEED_BASE):
    args = dict((s, a) for s, a, _ in corpus.STYLES)[style]
    return ("%s-s%d" % (style, seed), style, seed, args)


@pytest.mark.parametrize("style", [s for s, _, _ in corpus.STYLES])
def test_corpus_games_replay_and_end(style):
    for seed in (corpus.SEED_BASE, corpus.SEED_BASE + 7):
        objs = corpus.generate(_spec(style, seed))
        g = _replayed(objs)
        assert g.state.over, (style, seed)
        assert g.state.round == bench.rounds_of(objs)


def test_the_corpus_is_big_enough_and_seeded():
    specs = corpus.specs()
    assert len(specs) >= 200
    assert len({s[0] for s in specs}) == len(specs)
    assert {s[1] for s in specs} == {"random", "buyer", "effects", "watch", "long", "chains", "adjust"}
    # never the bench's own games
    assert not {s[2] for s in specs} & {spec["seed"] for _, spec in bench.SHIPPED}
    a = corpus.generate(specs[40])
    assert corpus.generate(specs[40]) == a


def _tally(style, seeds=range(corpus.SEED_BASE, corpus.SEED_BASE + 6)):
    t = {"rounds": 0, "buy": 0, "effect": 0, "spent": 0, "spends": 0, "declines": 0, "adjust": 0}
    for seed in seeds:
        for o in corpus.generate(_spec(style, seed))[1:]:
            if "adjust" in o:
                t["adjust"] += 1
                continue
            t["rounds"] += 1
            t["buy"] += "buy" in o
            t["effect"] += "effect" in o
            h = o.get("hourglasses", 0)
            t["spent"] += h
            t["spends"] += h > 0
            t["declines"] += '"decline"' in json.dumps(o)
    return t


def test_the_styles_play_differently():
    t = {s: _tally(s) for s, _, _ in corpus.STYLES}
    share = {s: {k: v / t[s]["rounds"] for k, v in t[s].items()} for s in t}
    assert share["buyer"]["buy"] > 1.5 * share["random"]["buy"] > 1.5 * share["effects"]["buy"]
    # every round an effect, but the flamingo's holder's king taking the
    # flamingo: no effect (the action menu does not offer it, issue 30)
    assert share["effects"]["buy"] == 0 and 0.9 < share["effects"]["effect"] < 1
    assert share["effects"]["effect"] > 1.5 * share["buyer"]["effect"]
    # the hoarder spends several hourglasses at once
    assert t["watch"]["spent"] / t["watch"]["spends"] > 1.3 * t["random"]["spent"] / t["random"]["spends"]
    assert t["long"]["spends"] == 0 and t["long"]["rounds"] > 1.25 * t["random"]["rounds"]
    assert t["chains"]["declines"] > 0 and t["random"]["declines"] == 0
    assert t["adjust"]["adjust"] > 0.1 * t["adjust"]["rounds"] and t["random"]["adjust"] == 0


def test_no_change_adjustments_are_left_out():
    # the device cannot record an adjustment by 0; the game is the same without it
    assert corpus.no_change({"adjust": {"blue": {"stars": 0}}})
    assert not corpus.no_change({"adjust": {"blue": {"stars": 1}}})
    assert not corpus.no_change({"adjust": {"watch": "copy"}})
    assert not corpus.no_change({"blue": "cat", "pink": "cat"})


def test_gen_styles_of_the_bench_are_unchanged():
    # the bench's records are the games they were (the new styles draw
    # nothing the old ones did not)
    for stem, spec in bench.SHIPPED:
        assert bench.generate_record(spec) == bench.load_record(benchvm.BENCH_DIR / (stem + ".jsonl"))


def test_floor_of_hand_made_questions():
    assert corpus.floor_presses([0.2] * 5) == pytest.approx(1 + (0 + 1 + 1 + 2 + 2) / 5)  # 2.2
    assert corpus.floor_presses([1.0, 0.0, 0.0]) == pytest.approx(1.0)  # certain: only the OK
    assert corpus.floor_presses([1.0]) == 0  # one option: nothing to ask
    assert corpus.floor_presses([]) == 0
    # the likeliest at the start, the next ones either side (wrap-around)
    assert corpus.floor_presses([0.1, 0.6, 0.3]) == pytest.approx(0.6 * 1 + 0.3 * 2 + 0.1 * 2)
    assert corpus.floor_presses([0.25] * 4) == pytest.approx(1 + (0 + 1 + 1 + 2) / 4)
    # 2-key board: a DOWN step is one key down, an UP step (the chord) two
    assert corpus.step_costs(3, corpus.TWO_KEY) == [0, 1, 2]
    assert corpus.floor_presses([1 / 3] * 3, corpus.TWO_KEY) == pytest.approx(2.0)
    assert corpus.floor_presses([1 / 3] * 3) == pytest.approx(5 / 3)


def test_reveals_are_weighed_by_the_draw_pile():
    objs = corpus.generate(_spec("random"))
    g = t42.Game(objs[0])
    qs = corpus.question_walk(g, objs[1])
    blue = qs[0]
    assert blue["kind"] == "reveal" and blue["exact"]
    draw = g.state.players[0].draw
    total = sum(draw.values())
    assert blue["probs"] == [draw[c] / total for c in blue["options"]]
    assert blue["answer"] == objs[1]["blue"]
    assert qs[2]["kind"] == "action" and qs[2]["options"][0] == "effect" and qs[2]["options"][-1] == "none"


@pytest.mark.parametrize("style", ["chains", "adjust", "watch"])
def test_noted_presses_are_the_key_scripts(style):
    # every press of a round line is a noted question's or a notice's
    objs = corpus.generate(_spec(style))
    m = corpus.measure_game(objs, style, style)
    keys = keyscript.presses_for(objs)
    per_line = {}
    for _, line in keys:
        per_line[line] = per_line.get(line, 0) + 1
    for i, ln in enumerate(m["lines"], 1):
        assert sum(q["presses"] for q in ln["questions"]) + len(ln["extra"]) == per_line.get(i, 0)
    rows = corpus.round_figures(m, corpus.frequencies([m]))
    assert [r[0] for r in rows] == effort.effort(objs, keys)["per_round"]


def test_corpus_figures_are_deterministic():
    a = corpus.measure(games_per_style=1, jobs=1)
    b = corpus.measure(games_per_style=1, jobs=2)
    assert a == b
    assert json.loads(json.dumps(a)) == a
    assert set(a["corpus_styles"]) == {s for s, _, _ in corpus.STYLES}
    for k in ("corpus_presses_per_round_median", "corpus_presses_per_round_p95", "corpus_floor_per_round_median",
              "corpus_gap_median_pct", "corpus_presses_2key_per_round_median"):
        assert isinstance(a[k], (int, float)), k
    kinds = {q["kind"] for q in a["corpus_gap_by_question"]}
    assert {"reveal", "action"} <= kinds
    # issue 30: the same keys give the same answer to the same question
    assert a["corpus_habit_asked"] > 50 and a["corpus_habit_pct"] == 0.0
    lines = corpus.table_lines(a)
    assert lines[0].startswith("| corpus style") and any(ln.startswith("| **all** | 7 |") for ln in lines)


def test_build_writes_the_same_records(tmp_path):
    corpus.build(tmp_path / "a", games_per_style=1, log=lambda s: None)
    corpus.build(tmp_path / "b", games_per_style=1, log=lambda s: None)
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert len(files) == len(corpus.STYLES) + 1
    for name in files:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    objs = bench.load_record(tmp_path / "a" / "chains-s1001.jsonl")
    assert _replayed(objs).state.over


def _q(kind, options, answer, down, context=None):
    return {"kind": kind, "options": options, "answer": answer, "context": context, "down": down}


def test_habit_figure_of_hand_made_questions():
    """issue 30: for each question not about a drawn card, the keys (net
    DOWN steps) that gave the same answer to the same question (kind, card,
    options) last time in the game, pressed again: another answer?"""
    acts = ["effect", 8, "none"]
    lines = [
        {"questions": [_q("reveal", ["cat", "king"], "king", 1), _q("action", acts, "none", 2, "king")]},
        {"questions": [_q("reveal", ["cat", "king"], "king", 0), _q("action", acts, "none", 1, "king")]},
        {"questions": [_q("action", acts, "none", 1, "king"), _q("action", acts, "none", 1, "knave")]},
        {"questions": [_q("stars", [0, 1, 2], 1, 2, "king"), _q("action", acts, 8, 0, "king")]},
    ]
    h = corpus.habit([{"lines": lines}])
    # the reveals (drawn cards) do not count; the king's "none" asked three
    # times: once with other keys; the knave's, the stars and the buy: no last time
    assert (h["asked"], h["missed"], h["pct"]) == (2, 1, 50.0)
    assert h["by_kind"] == {"action": [2, 1]}
    assert corpus.habit([{"lines": lines[:1]}]) == {"asked": 0, "missed": 0, "pct": 0.0, "by_kind": {}}
