"""`teatally bench` (`make bench`): memory, CPU, flash and effort budgets of
the real firmware on the MicroPython VM.

Plays the records in bench/ (*.jsonl, with their key scripts *.keys) on the
firmware compiled as it goes to the Pico, prints a table, writes
bench/results.json and the README's Performance section (bench/README.md),
and exits 1 when a budget is exceeded (goals only count with --strict).
See teatally_host.bench for what is measured and how.
"""

import json
import sys
from pathlib import Path

from teatally.journal import RecordError
from teatally_host import bench, gen
from teatally_host.errors import BadInput, load_record, read_bytes


def add_arguments(p):
    p.add_argument("--records", type=Path, default=bench.BENCH_DIR,
                   help="folder of *.jsonl records and *.keys scripts (default: bench/)")
    p.add_argument("--json", type=Path, default=None, help="results file (default: <records>/results.json)")
    p.add_argument("--readme", type=Path, default=None,
                   help="Performance section to write (default: <records>/README.md)")
    p.add_argument("--regen", action="store_true", help="regenerate the shipped records from their seeds first")
    p.add_argument("--strict", action="store_true", help="a missed goal (effort ratio) fails too")
    p.add_argument("--no-write", action="store_true", help="print only; write no files")


def regenerate(folder):
    folder.mkdir(parents=True, exist_ok=True)
    for stem, spec in bench.SHIPPED:
        objs = bench.generate_record(spec)
        gen.write_record(objs, folder / (stem + ".jsonl"))
        print("wrote %s (%d rounds)" % (folder / (stem + ".jsonl"), bench.rounds_of(objs)))


def check_records(folder):
    """Bad input said before the long run: a folder without records, a record
    that does not replay."""
    if not folder.is_dir():
        raise BadInput("%s is not a folder of records" % folder)
    paths = bench.record_paths(folder)
    if not paths:
        raise BadInput("no records in %s (teatally bench --regen writes them)" % folder)
    for path in paths:
        try:
            load_record(read_bytes(str(path)))
        except RecordError as exc:
            raise BadInput("%s line %d: %s" % (path, exc.line, exc.reason))


def _fmt(v, unit):
    if isinstance(v, bool):
        return "yes" if v else "NO"
    if v is None:
        return "-"
    if unit == "B":
        return "%d B" % v
    if unit == "ms":
        return "%.1f ms" % v
    if unit == "x":
        return "%.2f" % v
    return str(v)


def table(r):
    """The results as a Markdown table (stdout and the README section)."""
    per_us = r["fuel_per_pico_us"]
    rows = [
        ("Heap after boot, 60-round game loaded", "%d B used, %d B free of %d KB" % (
            r["heap_alloc_boot_bytes"] or 0, r["heap_free_boot_bytes"] or 0, r["heap_boot_cap_bytes"] // 1024), ""),
        ("Heap peak over a game (upper bound)", "%d B" % r["heap_peak_bytes"], "<= 64 KB"),
        ("Heap live max (after collection)", "%d B" % r["heap_live_max_bytes"], ""),
        ("Game completes with a 96 KB heap", _fmt(r["completes_at_96k"], ""), "yes"),
        ("Key press, median (Pico-like %d KB heap)" % (r.get("press_heap_bytes", 0) // 1024),
         "%.1f ms (%d fuel)" % (r["press_median_ms_est"], r["press_median_fuel"]), ""),
        ("Key press, 95th percentile", "%.1f ms (%d fuel)" % (r["press_p95_ms_est"], r["press_p95_fuel"]), ""),
        ("Key press, worst", "%.1f ms (%d fuel)" % (r["press_worst_ms_est"], r["press_worst_fuel"]), "<= 6 ms"),
        ("  worst press was", r["press_worst"], ""),
    ]
    if "press_worst_cap96_ms_est" in r:
        rows.append(("Key press median / p95 / worst, 96 KB heap", "%.1f / %.1f / %.1f ms" % (
            r["press_median_cap96_ms_est"], r["press_p95_cap96_ms_est"], r["press_worst_cap96_ms_est"]), ""))
    rows += [
        ("Idle work between presses, worst", "%.1f ms" % r["idle_worst_ms_est"], ""),
        ("Resume to game screen, 60 rounds", "%.0f ms (imports %.0f, engine replay %.0f)" % (
            r["resume_ms_est"], r["resume_imports_ms_est"], r["resume_engine_ms_est"]), "<= 500 ms"),
        ("Undo one round, 60-round game", "%.1f ms" % r["undo_ms_est"], "<= 50 ms"),
        ("Flash per committed round (mean)", "%s B (median %s, max %d)" % (
            r["bytes_per_round"], r["bytes_per_round_median"], r["bytes_per_round_max"]), "<= 128 B"),
        ("Firmware .mpy total (armv6m)", "%d B" % r["mpy_total_bytes"], "<= 80 KB"),
        ("Finished game archive", _fmt(r["archive_bytes_max"], "B"), ""),
        ("Presses per round (median / p95)", "%s / %s" % (r["presses_per_round_median"], r["presses_per_round_p95"]),
         ""),
        ("Counter baseline per round (median / p95)", "%s / %s" % (
            r["baseline_presses_per_round_median"], r["baseline_presses_per_round_p95"]), ""),
        ("Presses per round incl. setup/end (mean)", "%.2f vs baseline %.2f" % (
            r["presses_per_round_mean"], r["baseline_presses_per_round_mean"]), ""),
        ("Effort ratio device / baseline", _fmt(r["effort_ratio"], "x"), "goal <= 0.5"),
    ]
    if "ja_heap_bytes" in r:
        rows.extend(japanese_rows(r))
    if "heap_peak_romfs_bytes" in r:
        rows.extend(romfs_rows(r))
    out = ["| Measure | Result | Budget |", "|---|---|---|"]
    for name, val, budget in rows:
        out.append("| %s | %s | %s |" % (name, val, budget))
    out.append("")
    out.append("%s; %s fuel per Pico-µs (calibration: %d fuel for %d iterations, %.0f ms on a Pico)." % (
        r["micropython"].split("; ")[-1], "%.1f" % per_us, r["calibration"]["fuel_loop"],
        r["calibration"]["iterations"], r["calibration"]["pico_ms"]))
    return "\n".join(out)


def japanese_rows(r):
    """What 日本語 costs (issue 18): nothing while English is on (its modules
    are never imported); these figures while Japanese is on."""
    return [
        ("日本語: flash (.mpy: glyph subset, drawing, string tables; in the total above)",
         "%d B (%d glyphs: %d B)" % (r["ja_flash_bytes"], r["ja_glyphs"], r["ja_font_flash_bytes"]), ""),
        ("日本語: heap while on, during a round (English: 0, never loaded)", "%d B (glyph subset %d B)" % (
            r["ja_heap_bytes"], r["ja_font_heap_bytes"]), ""),
        ("日本語: heap of the other screens' words (with words_more)", "%d B" % r["ja_more_heap_bytes"], ""),
        ("日本語: heap left after switching back to English", "%d B" % max(0, r["ja_heap_left_bytes"]), ""),
    ]


def romfs_rows(r):
    """The firmware-in-ROMFS figures: informational, no budget applies."""
    note = "info (needs ROMFS firmware)"
    return [
        ("**Firmware in ROMFS** (`teatally flash --romfs`; needs a MicroPython build with a ROMFS partition)",
         "image %d B in flash, not counted below" % r["romfs_image_bytes"], ""),
        ("ROMFS: heap after boot, 60-round game loaded", "%d B used, %d B free of %d KB" % (
            r["heap_alloc_boot_romfs_bytes"] or 0, r["heap_free_boot_romfs_bytes"] or 0,
            r["heap_boot_cap_bytes"] // 1024), note),
        ("ROMFS: heap peak over a game (upper bound)", "%d B" % r["heap_peak_romfs_bytes"], note),
        ("ROMFS: heap live max (after collection)", "%d B" % r["heap_live_max_romfs_bytes"], note),
        ("ROMFS: game completes with a 96 KB heap", _fmt(r["completes_at_96k_romfs"], ""), note),
        ("ROMFS: key press median / p95 / worst", "%.1f / %.1f / %.1f ms" % (
            r["press_median_romfs_ms_est"], r["press_p95_romfs_ms_est"], r["press_worst_romfs_ms_est"]), note),
        ("ROMFS: resume to game screen, 60 rounds", "%.0f ms (imports %.0f)" % (
            r["resume_romfs_ms_est"], r["resume_imports_romfs_ms_est"]), note),
    ]


def verdicts(r, strict):
    lines = []
    failed = False
    for c in r["checks"]:
        counts = c["kind"] == "budget" or strict
        state = "ok" if c["ok"] else ("FAIL" if counts else "missed (goal)")
        if not c["ok"] and counts:
            failed = True
        lines.append("%-22s %-14s limit %-8s %s" % (c["name"], _fmt(c["value"], c["unit"]),
                                                  _fmt(c["limit"], c["unit"]), state))
    return lines, failed


README = """\
## Performance

`make bench` (or `teatally bench`) plays the games in `bench/` on the real
firmware under the MicroPython VM and checks the budgets; it exits non-zero
when one is exceeded. The table below is its latest output ({records}).

{table}

{verdict}

How it is measured:

- The firmware runs as it goes to the Pico: the package compiled with
  `mpy-cross -O3 -march=armv6m` (no line-number tables), on the WASI build of MicroPython ({mpver}) under
  wasmtime, with the flash as a host folder and the virtual board
  (`hw_virtual`). Each game is entered from the home menu with the key
  presses in `bench/*.keys` (one token per press in the simulator's format,
  grouped under `# line N` per record line; `teatally bench` rewrites them
  when the screens change) and must leave exactly the record
  `bench/*.jsonl` in the journal, then archive it.
- CPU is wasmtime *fuel*, a deterministic count of executed instructions,
  read around each key press (logic and drawing into the frame buffer). It
  becomes an **estimate** of RP2040 time (125 MHz) through one published
  figure: `def f(n): p = [1, 2]; for i in range(n): C = p[0] + p[1]` takes
  about 799 ms for 100 000 iterations on a Pico with MicroPython 1.23
  (github.com/shaoziyang/micropython_benchmarks); the same function costs
  {fuel_iter:.0f} fuel per iteration here, so {per_us:.1f} fuel is about one
  Pico microsecond. Drawing runs in framebuf's C code, which the Pico runs at
  a different ratio than bytecode; flash program/erase time is not counted.
  The presses are measured in a run with the Pico-like 128 KB heap (the
  stock RPI_PICO firmware has about 190 KB); the same presses in the
  96 KB run are shown on their own row.
- What makes a press dear on MicroPython (measured here, and the same
  allocator runs on the Pico): a function whose frame needs more than 11
  words (arguments, locals, value stack, two per `try`/`with` level) gets
  it from the heap at every call, and a generator always lives there; after
  the collection between presses every such allocation scans the heap's
  allocation table from its first free block for a free run, through the
  holes between the loaded modules. A call then costs 15-25K fuel instead of
  about 2.7K. `tests/test_frames.py` keeps every function a key press runs
  within 11 words (`teatally_host.mpyinfo` reads the frame sizes from the
  `.mpy` files). A new str costs a search of the interned strings (~19K
  fuel); the drawing code formats bytes. After its collection the idle
  work plugs the holes at the bottom of the heap with throwaway one-block
  objects (`app._plug`, while more than 24 KB stay free), so that a press
  allocates from the free run above them; the plugs are garbage, taken
  back by the next collection, and left out of the heap figures.
- Work made ahead: the bench runs the idle work to its end between presses,
  as a player's pause allows (the "idle work" row is its worst total, done
  in short steps; a key that comes meanwhile goes first). On a round's
  question it plays the answer selected on screen ahead (with more than
  24 KB of heap free), so the press on it neither probes the round nor, on
  the last answer, writes the line's JSON: both were done while the players
  looked. A press that comes before that work is done costs what the 96 KB
  row shows, where the heap leaves no room for it.
- Heap: the game runs with the heap capped at 96 KB. Between presses the
  bench does what the firmware's main loop does while the players think
  (`App.idle_work()`: a garbage collection, modules loaded or dropped for the
  screen at hand); its cost is the "idle work" row, not a press's. The peak
  is the heap in use after a press counting all it allocated as live (an
  upper bound). The collection stays out of the presses on purpose: the WASI
  VM loses heap-allocated frames when a collection runs deep inside a call.
  `micropython.mem_peak()` is not used: on this VM it counts every
  allocation since start.
- Firmware in ROMFS (the rows marked ROMFS; no budget uses them): the same
  games again with the package imported from a ROMFS image, as `teatally
  flash --romfs` installs it on a MicroPython build with a ROMFS partition
  (MicroPython then runs the bytecode in place instead of copying it into
  the heap). On the VM the image is read into a bytearray near the top of
  the heap and mounted with `vfs.VfsRom` at `/rom`; on a Pico it is in
  flash, so its bytes are left out of those heap figures and the heap cap
  is raised by them.
- Resume: boot with a 60-round journal on flash (imports, reading and
  replaying the journal, the first screen), 128 KB heap. Undo: LONG BACK on
  the final screen of a 60-round game, twice (the first has the previous
  state at hand, the second rebuilds from a checkpoint); the worse counts.
- Effort: presses per round from the key scripts, next to a generic +/-
  score counter recording the same changes (per changed counter: select,
  one press per step, confirm; stars, tarts and hourglasses of both players,
  flamingo, watch) plus counting both decks by hand at the end (one press
  per card). The ratio is all device presses over all baseline presses.
- Flash: the bytes a game appends to the journal (line, tab, CRC, newline)
  divided by its committed rounds; median and longest line are shown too
  (a round line has no fixed maximum: copy chains nest).

Records: `long60-*` are games of the generator's hoarding players
(`gen.random_game(seed, style="long")`, seeds chosen so that the game ends in
exactly 60 rounds); `random-s1` is a full game of random players (45 rounds,
hourglasses and watch spaces used). `teatally bench --regen` rewrites them.
Reproduce: `make bench`; results in `bench/results.json`.
"""


def verdict_text(r):
    over = [c["name"] for c in r["checks"] if not c["ok"] and c["kind"] == "budget"]
    missed = [c["name"] for c in r["checks"] if not c["ok"] and c["kind"] == "goal"]
    out = "Budgets exceeded: %s." % (", ".join(over) if over else "none")
    if missed:
        out += " Goals missed: %s." % ", ".join(missed)
    if r["problems"]:
        out += "\n\n" + "\n".join("- " + x for x in r["problems"])
    return out


def readme(r):
    return README.format(
        verdict=verdict_text(r),
        records=", ".join(r["records"]), table=table(r), mpver=r["micropython"].split("; ")[-1].split(" on ")[0],
        fuel_iter=r["calibration"]["fuel_per_iteration"], per_us=r["fuel_per_pico_us"])


def _jsonable(r):
    return json.loads(json.dumps(r, default=str))


def run(args):
    folder = args.records
    if args.regen:
        regenerate(folder)
    check_records(folder)
    r = bench.run_bench(folder, log=lambda s: print(s, file=sys.stderr))
    print(table(r))
    print()
    lines, failed = verdicts(r, args.strict)
    print("\n".join(lines))
    for p in r["problems"]:
        print("problem: " + p)
    for p in r.get("romfs_problems", ()):
        print("problem (firmware in ROMFS, not a budget): " + p)
    if not args.no_write:
        out = args.json or folder / "results.json"
        out.write_text(json.dumps(_jsonable(r), indent=1, sort_keys=True) + "\n")
        (args.readme or folder / "README.md").write_text(readme(r))
        print("wrote %s" % out)
    return 1 if failed else 0
