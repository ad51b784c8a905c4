"""The keypad board's bench rows (issue 31): its own module, beside
teatally_host.bench and teatally_host.corpus, so it reads their figures
and adds its own.

- **Effort**: every game entered by the keypad's keys (keyscript.
  KeypadDriver: each answer with a key by that key, the rest by cursor), on
  the bench's games and on the 210-game effort corpus (corpus.specs), as
  presses per round (an adjustment's added to the round after it, setup and
  the end left out; effort.effort and corpus.round_figures count so) against
  this board's floor: one press per question with more than one answer
  (the questions the engine asks for the round line, corpus.question_walk,
  the winner's action with its first choice folded in as the cursor boards
  offer it; an adjustment: three, the game menu's Adjust, what, how much).
  Presses that answer no question (a notice read, the board's OK that only
  opens the round) count in the presses, not in the floor.
- **Latency**: the bench's games entered on the keypad, played on the VM as
  the other boards' (benchvm.run_presses on the keypad's virtual board: its
  screens, with the key beside each answer), each press's waits
  (waits.press_waits, the loop pass charged as bench.py does) with the
  keypad's input delay (inputmodel: its matrix scan) over the keypad
  board's bus (the default OLED's).
- **Idle CPU**: the loop at rest (cpumodel.IDLE_GUEST) on the keypad's board,
  its Keys calling the Pico's matrix scan at every poll (hw.keypad: it
  scans nothing with no column interrupt and no key down).
"""

import statistics
import sys
import time
from pathlib import Path

from teatally.rules import t42
from teatally_host import cmd_flash, corpus, keyscript

BOARD = "pico_keypad"
LAYOUT = "keypad"
# (name in results, limit, unit): budgets.checks reads them with its own
BUDGETS = (
    ("keypad_first_light_p95_ms", 25.0, "ms"),
    ("keypad_first_light_worst_ms", 50.0, "ms"),
    ("keypad_full_frame_p95_ms", 50.0, "ms"),
    ("keypad_full_frame_worst_ms", 85.0, "ms"),
    ("keypad_idle_cpu_share", 0.10, "x"),
    ("keypad_corpus_presses_per_round_median", 3, "presses"),
    ("keypad_corpus_presses_per_round_p95", 7, "presses"),
)
# checked when the run has them (bench.run_bench measures the keypad, --corpus its corpus)
OPTIONAL = tuple(name for name, _, _ in BUDGETS)
ADJUST_FLOOR = 3  # an adjustment's questions: the game menu's Adjust, what, how much

KEYPAD_BOOT = """\
G = []
def boot():
    a = _app.App(hw_virtual.VirtualHardware("/flash", "keypad"))
    G.append(a)
    a.boot()
    a.ui.draw(a.fb)
    a.fb.show()
boot()
"""


# -- effort ---------------------------------------------------------------------
def per_round(objs, presses, floors=None):
    """[(presses, floor)] per round: a record line's presses (an adjustment's
    carried into the round after it); floors: per record line (1..), or
    None (0)."""
    n = len(objs) - 1
    per_line = [0] * (n + 1)
    for _, line in presses:
        if 0 < line <= n:
            per_line[line] += 1
    out = []
    carry = [0, 0]
    for i in range(1, n + 1):
        row = [per_line[i] + carry[0], (floors[i] if floors else 0) + carry[1]]
        if "adjust" in objs[i]:
            carry = row
            continue
        carry = [0, 0]
        out.append(tuple(row))
    return out


def floors_of(objs):
    """Per record line (index 1..): this board's floor, one press per
    question with more than one answer."""
    g = t42.Game(objs[0])
    out = [0] * len(objs)
    for i in range(1, len(objs)):
        rec = objs[i]
        if "adjust" in rec:
            out[i] = ADJUST_FLOOR
        else:
            out[i] = sum(1 for q in corpus.question_walk(g, rec) if len(q["options"]) > 1)
        g.apply(rec)
    return out


def measure_game(objs):
    """[(presses, floor)] per round of the game entered on the keypad
    (raises unless the device records objs)."""
    return per_round(objs, keyscript.presses_for(objs, keypad=True), floors_of(objs))


def _measure_spec(spec):
    return spec[1], measure_game(corpus.generate(spec))


def _summary(rows, prefix):
    p = [r[0] for r in rows]
    f = [r[1] for r in rows]
    out = {"rounds": len(rows)}
    for name, v in (("presses", p), ("floor", f)):
        out["%s%s_per_round_median" % (prefix, name)] = _num(statistics.median(v))
        out["%s%s_per_round_p95" % (prefix, name)] = _num(corpus.percentile(v, 95))
        out["%s%s_per_round_mean" % (prefix, name)] = _num(statistics.mean(v))
    fm = statistics.mean(f)
    out[prefix + "gap_mean_pct"] = round(100.0 * (statistics.mean(p) / fm - 1), 1) if fm else None
    return out


def _num(v):
    v = round(v, 3)
    return int(v) if v == int(v) else v


def corpus_figures(games_per_style=corpus.GAMES_PER_STYLE, jobs=2, log=None):
    """The effort corpus entered on the keypad: keypad_corpus_* overall and
    keypad_corpus_styles per style (presses and floor per round: median,
    p95, mean; the gap at the mean)."""
    todo = corpus.specs(games_per_style)
    t0 = time.time()
    done = corpus.drive(_measure_spec, todo, jobs)
    if log is not None:
        log("keypad corpus: %d games entered in %.1f s" % (len(done), time.time() - t0))
    rows = []
    styles = {}
    for style, r in done:
        rows.extend(r)
        st = styles.setdefault(style, {"games": 0, "rows": []})
        st["games"] += 1
        st["rows"].extend(r)
    out = {"keypad_corpus_games": len(done)}
    for k, v in _summary(rows, "").items():
        out["keypad_corpus_" + k] = v
    out["keypad_corpus_styles"] = {}
    for name, st in styles.items():
        d = {"games": st["games"]}
        d.update(_summary(st["rows"], ""))
        out["keypad_corpus_styles"][name] = d
    return out


# -- the VM: latency and idle CPU ---------------------------------------------------
def measure(fw, games, per_us, log=print):
    """The keypad board's bench figures for the bench's games (bench.
    run_bench's, with their objs): effort, the waits (first light, full
    frame, busy) of every press entered on the keypad, and the idle CPU."""
    from teatally_host import bench, benchvm, waits as wait_model

    board = cmd_flash.load_board(BOARD)
    log("the keypad's loop at rest ...")
    rest = idle(fw, games[0]["objs"], per_us)
    pass_ms = rest["keypad_loop_pass_ms"]  # the loop pass a press rides on (the scan in it)
    delays = {}
    waits = {lang: [] for lang in wait_model.WAIT_LANGS}
    effort = []
    for g in games:
        objs = g["objs"]
        keys = keyscript.presses_for(objs, keypad=True)
        effort.extend(per_round(objs, keys, floors_of(objs)))
        for lang in wait_model.WAIT_LANGS:
            log("%s: entered on the keypad (%s), %d presses ..." % (g["name"], lang, len(keys)))
            run = benchvm.run_presses(fw, [keyscript.event(t) for t, _ in keys], benchvm.HEAP_PICO, True,
                                      lang=lang, boot=KEYPAD_BOOT)
            problem = bench.check_reproduced(objs, run)
            if problem is not None:
                raise SystemExit("%s on the keypad: %s" % (g["name"], problem))
            for i, t in enumerate(run["timeline"]):
                tok = keys[i][0]
                if tok not in delays:
                    delays[tok] = inputmodel_delay(tok)
                # (no flash work: it comes after the frame, in busy only)
                w = wait_model.press_waits(t, run["shows"][i], board, per_us, delays[tok], None, run["idle_fuel"][i],
                                           pass_ms)
                w["label"] = "%s press %d (%s, %s)" % (g["name"], i + 1, tok, lang)
                waits[lang].append(w)
    # the worst of the languages, as the other boards' budgets are
    out = {}
    for lang in wait_model.WAIT_LANGS:
        s = wait_model.summary(waits[lang])
        out["keypad_waits_" + lang] = s
        for k, v in s.items():
            out["keypad_" + k] = max(out.get("keypad_" + k, v), v)
    every = [w for lang in wait_model.WAIT_LANGS for w in waits[lang]]
    for k in ("first_light", "full_frame"):
        out["keypad_%s_worst_press" % k] = max(every, key=lambda w, k=k: w[k] or 0)["label"]
    out["keypad_presses_per_round_median"] = _num(statistics.median([p for p, _ in effort]))
    out["keypad_presses_per_round_p95"] = _num(corpus.percentile([p for p, _ in effort], 95))
    out["keypad_presses_per_round_mean"] = _num(statistics.mean([p for p, _ in effort]))
    out["keypad_floor_per_round_mean"] = _num(statistics.mean([f for _, f in effort]))
    out["keypad_input_ms"] = {tok: delays[tok] for tok in sorted(delays)}
    out.update(rest)
    return out


def inputmodel_delay(token):
    """A keypad token's typical input delay (the scan included): a long
    press's token as its short one's (the deciding edge is the threshold)."""
    from teatally_host import inputmodel

    tok = token if token in inputmodel.tokens(LAYOUT) else token.lower()
    return inputmodel.event_delay_ms(tok, LAYOUT, 1)[0]


def idle_guest():
    """cpumodel.IDLE_GUEST on the keypad's virtual board: Keys calls the Pico's
    matrix scan at every poll (no wires to settle: at rest nothing moves)."""
    from teatally_host import cpumodel

    old = 'a = _app.App(Rest("/flash"))'
    if old not in cpumodel.IDLE_GUEST:
        raise SystemExit("cpumodel.IDLE_GUEST changed: bench_keypad.idle_guest needs its boot line")
    new = 'r = Rest("/flash", "keypad")\n    r.scan = r.matrix.scan\n    a = _app.App(r)'
    return cpumodel.IDLE_GUEST.replace(old, new)


def idle(fw, objs, per_us):
    from teatally_host import cpumodel

    r = cpumodel.idle_cpu(fw, objs, per_us, idle_guest())
    return {"keypad_idle_cpu_share": r["idle_cpu_share"], "keypad_idle_passes_per_s": r["idle_passes_per_s"],
            "keypad_loop_pass_ms": r["loop_pass_ms"]}


# -- the report -----------------------------------------------------------------------
def rows(r):
    """(measure, result, budget) rows of the keypad board for cmd_bench's table."""
    out = []
    if "keypad_first_light_p95_ms" in r:
        out += [
            ("Keypad board (%s): first light, p95 / worst" % BOARD, "%.1f / %.1f ms" % (
                r["keypad_first_light_p95_ms"], r["keypad_first_light_worst_ms"]), "<= 25 / 50 ms"),
            ("  keypad: full frame, p95 / worst", "%.1f / %.1f ms" % (
                r["keypad_full_frame_p95_ms"], r["keypad_full_frame_worst_ms"]), "<= 50 / 85 ms"),
            ("  keypad: CPU busy with no key pressed (the scan at every poll)",
             "%.1f %%" % (100 * r["keypad_idle_cpu_share"]), "<= 10 %"),
            ("  keypad: bench games, presses per round median / p95 / mean (floor mean)", "%s / %s / %s (%s)" % (
                r["keypad_presses_per_round_median"], r["keypad_presses_per_round_p95"],
                r["keypad_presses_per_round_mean"], r["keypad_floor_per_round_mean"]), "reported"),
        ]
    if "keypad_corpus_presses_per_round_median" in r:
        out.append(("  keypad: effort corpus, presses per round median / p95 / mean (floor median / mean)",
                    "%s / %s / %s (%s / %s)" % (
                        r["keypad_corpus_presses_per_round_median"], r["keypad_corpus_presses_per_round_p95"],
                        r["keypad_corpus_presses_per_round_mean"], r["keypad_corpus_floor_per_round_median"],
                        r["keypad_corpus_floor_per_round_mean"]), "<= 3 / 7"))
    return out


def table_lines(fig):
    """The keypad corpus per style, as Markdown lines."""
    out = ["| corpus style (keypad) | games | rounds | presses/round median / p95 / mean "
           "| floor median / p95 / mean | gap (mean) |", "|---|---|---|---|---|---|"]
    styles = fig["keypad_corpus_styles"]
    known = [s for s, _, _ in corpus.STYLES]
    for name in [s for s in known if s in styles] + [None]:
        if name is None:
            d = {k[len("keypad_corpus_"):]: v for k, v in fig.items() if k.startswith("keypad_corpus_")}
            d["games"] = fig["keypad_corpus_games"]
            label = "**all**"
        else:
            d = styles[name]
            label = name
        out.append("| %s | %d | %d | %s / %s / %s | %s / %s / %s | %s |" % (
            label, d["games"], d["rounds"], d["presses_per_round_median"], d["presses_per_round_p95"],
            d["presses_per_round_mean"], d["floor_per_round_median"], d["floor_per_round_p95"],
            d["floor_per_round_mean"], "-" if d["gap_mean_pct"] is None else "%+.0f %%" % d["gap_mean_pct"]))
    return out


def main(argv=None):
    import argparse
    import json

    p = argparse.ArgumentParser(prog="python -m teatally_host.bench_keypad",
                                description="the keypad board's effort on the corpus (issue 31)")
    p.add_argument("--games", type=int, default=corpus.GAMES_PER_STYLE, help="games per style")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--json", type=Path, default=None)
    a = p.parse_args(argv)
    fig = corpus_figures(a.games, max(1, a.jobs), log=lambda s: print(s, file=sys.stderr))
    print("\n".join(table_lines(fig)))
    if a.json is not None:
        a.json.write_text(json.dumps(fig, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
