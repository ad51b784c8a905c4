"""The bench's budgets: the limits `make bench` checks (BUDGETS) and the
check itself. What each figure measures: bench/README.md ("What the budgets
are"); the models behind them: busmodel, cpumodel, flashmodel, inputmodel,
effort, put together per press by waits."""

from teatally import journal

# -- budgets (name in results, limit, unit) -----------------------------------
# Exceeding one fails `make bench`. Presses per round and the effort ratio
# are reported, not budgets.
BUDGETS = (
    # the wait a player feels (issue 23), on the default and the Waveshare
    # board, in English and Japanese: the worst of the four counts. 25 ms
    # keeps the first new pixels under the ~32 ms at which a visual answer
    # is felt as simultaneous with the press; 85 ms is the top of the
    # recommended range (Kaaresoja, Brewster and Lantz, ACM TAP 2014)
    ("first_light_p95_ms", 25.0, "ms"),
    ("first_light_worst_ms", 50.0, "ms"),
    ("full_frame_p95_ms", 50.0, "ms"),
    ("full_frame_worst_ms", 85.0, "ms"),
    # the firmware's rule (App.press, App.finish): every press shows its
    # screen before its flash work; presses whose flash work came before
    # their first light, over every board and language (waits.summary)
    ("flash_before_first_light", 0, "presses"),
    ("idle_cpu_share", 0.10, "x"),
    # a main-loop pass asks nothing of the heap (not even a call frame too
    # big for the C stack): else a key held brings a collection (~19 ms on
    # the port) every few hundred passes (cpumodel.idle_cpu)
    ("loop_alloc_idle_bytes", 0, "B"),
    ("loop_alloc_held_bytes", 0, "B"),
    ("games_that_fit", 100, "games"),  # at least
    ("heap_live_peak_bytes", 112 * 1024, "B"),
    ("resume_ms_est", 500.0, "ms"),
    ("undo_ms_est", 50.0, "ms"),
    # flash use is a rate: all bytes a game appends / its committed rounds
    # (a round line has no hard maximum: copy chains nest); median and max
    # are reported next to it
    ("bytes_per_round", journal.ROUND_LINE_BUDGET, "B"),
    # the effort corpus (teatally_host.corpus; 4-key presses): presses per
    # round at the median within 15 % of the uniform floor's (issue 30: the
    # absolute 6 / 12 of issue 26 sat below that floor); the habit figure
    # (the same keys, the same answer to the same question) at 0 %
    ("corpus_gap_median_pct", 15, "%"),
    ("corpus_habit_pct", 0, "%"),
)
AT_LEAST = ("games_that_fit",)  # budgets that are a floor, not a ceiling
# budgets whose figure a run may leave out (--no-corpus): then not checked
OPTIONAL = ("corpus_gap_median_pct", "corpus_habit_pct")


def checks(r):
    """[{name, value, limit, unit, ok}] for BUDGETS, plus the runs themselves."""
    from teatally_host import bench_keypad  # (issue 31: the keypad board's budgets)

    out = []
    for name, limit, unit in BUDGETS + bench_keypad.BUDGETS:
        v = r.get(name)
        if v is None and (name in OPTIONAL or name in bench_keypad.OPTIONAL):
            continue
        ok = v is not None and (v >= limit if name in AT_LEAST else v <= limit)
        out.append({"name": name, "value": v, "limit": limit, "unit": unit, "ok": ok})
    out.append({"name": "games_reproduced", "value": not r["not_reproduced"], "limit": True, "unit": "",
                "ok": not r["not_reproduced"]})
    out.append({"name": "completes_at_144k", "value": r["completes_at_144k"], "limit": True, "unit": "",
                "ok": bool(r["completes_at_144k"])})
    return out


