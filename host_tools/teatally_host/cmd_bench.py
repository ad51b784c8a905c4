"""`teatally bench` (`make bench`): the budgets a player feels (press to
photon, heap, resume, undo, flash) of the real firmware on the MicroPython VM.

Plays the records in bench/ (*.jsonl, with their key scripts *.keys) on the
firmware compiled as it goes to the Pico, prints a table and exits 1 when a
budget is exceeded. The results (results.json and the performance notes,
README.md) go to build/bench/, which git ignores; --update writes the
committed ones in bench/ instead (and the key scripts that changed).
See teatally_host.bench for what is measured and how.
"""

import argparse
import json
import sys
from pathlib import Path

from teatally.journal import RecordError
from teatally_host import bench, bench_keypad, benchvm, corpus, flashmodel, gen
from teatally_host.errors import BadInput, load_record, read_bytes

OUT = benchvm.ROOT / "build" / "bench"  # where a plain run writes its results


def add_arguments(p):
    p.add_argument("--records", type=Path, default=bench.BENCH_DIR,
                   help="folder of *.jsonl records and *.keys scripts (default: bench/)")
    p.add_argument("--json", type=Path, default=None,
                   help="also write the results (JSON: numbers, true/false) to this file")
    p.add_argument("--update", action="store_true",
                   help="write the committed results: <records>/results.json, <records>/README.md and the "
                        ".keys scripts that changed (default: results to build/bench/, nothing in bench/)")
    p.add_argument("--regen", action="store_true", help="regenerate the shipped records from their seeds first")
    p.add_argument("--no-write", action="store_true", help="print only; write no files (but --json)")
    p.add_argument("--corpus", action=argparse.BooleanOptionalAction, default=True,
                   help="also drive the effort corpus (teatally_host.corpus: %d generated games, CPython, 2 processes, "
                        "and its first game of each style on the VM for the waits' budgets; "
                        "about a minute) and report presses per round against the floor (default: on)"
                   % (len(corpus.STYLES) * corpus.GAMES_PER_STYLE))


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
            load_record(read_bytes(str(path), "game record"))
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
        return "%.3f" % v
    return str(v)


def _span(figures):
    # a port figure, or the two of its two games
    if not figures:
        return "-"
    return "-".join("%.1f" % x for x in figures)


def table(r):
    """The results as a Markdown table (stdout and bench/README.md)."""
    per_us = r["fuel_per_pico_us"]
    rows = [
        ("First light, p95 / worst (key edge to the first new pixels)", "%.1f / %.1f ms" % (
            r["first_light_p95_ms"], r["first_light_worst_ms"]), "<= 25 / 50 ms"),
        ("Full frame, p95 / worst (key edge to the last transfer)", "%.1f / %.1f ms" % (
            r["full_frame_p95_ms"], r["full_frame_worst_ms"]), "<= 50 / 85 ms"),
        ("Busy, p95 / worst (until the next key is taken; flash at typical times)", "%.1f / %.1f ms" % (
            r["busy_p95_ms"], r["busy_worst_ms"]), "reported"),
        ("  busy, worst at the flash's maximum times", "%.1f ms" % r["busy_max_worst_ms"], "reported"),
    ]
    for name, w in sorted(r["waits"].items()):
        rows.append(("  %s: first light / full frame / busy, p95" % name, "%.1f / %.1f / %.1f ms" % (
            w["first_light_p95_ms"], w["full_frame_p95_ms"], w["busy_p95_ms"]), ""))
    for key, what in (("first_light", "first light"), ("full_frame", "full frame"), ("busy", "busy")):
        worst = max(r["waits"].values(), key=lambda w, k=key: w[k + "_worst_ms"])
        rows.append(("  worst %s was" % what, worst[key + "_worst_press"], ""))
    if "flash_before_first_light" in r:
        rows.append(("Presses writing flash before their first light (all boards and languages; before the "
                     "full frame)", "%d (%d)%s" % (r["flash_before_first_light"], r["flash_before_full_frame"],
                                                   ": " + ", ".join(r["flash_before_screen_presses"][:3])
                                                   if r["flash_before_screen_presses"] else ""), "0"))
    for kind, c in sorted((r.get("press_checks") or {}).items()):
        b, p = c["bench"], c["port"]
        rows.append(("  %s (%s): first light / full frame now; on d436b82's firmware, bench vs real port"
                     % (kind, c["press"]),
                     "%s / %.1f; %.1f / %.1f vs %s / %s ms" % (
                         "-" if b[0] is None else "%.1f" % b[0], b[1], c["then"][0], c["then"][1], _span(p[0]),
                         _span(p[1])), "model check"))
    if "flash_erases_per_round" in r:
        rows.append(("Flash work per round: sector erases / page programs (littlefs at the rp2 geometry)",
                     "%.2f / %.2f" % (r["flash_erases_per_round"], r["flash_programs_per_round"]), "reported"))
        rows.append(("  littlefs's computing per page programmed (the real port's, d436b82)", "%.2f ms (%.2f-%.2f)" % (
            flashmodel.LFS_COMPUTE["per_page_ms"], flashmodel.LFS_COMPUTE["per_page_low_ms"],
            flashmodel.LFS_COMPUTE["per_page_high_ms"]), "model check"))
    if "games_that_fit" in r:
        rows.append(("Finished games the flash keeps beside the firmware", "%d" % r["games_that_fit"], ">= 100"))
    check = r.get("port_check")
    if check:
        for k, what in (("all", "all presses"), ("no_flash", "no flash work"), ("appends", "appending a line")):
            if k in check:
                b, p = check[k]["bench"], check[k]["port"]
                rows.append(("  long60-s12 computing, %s (%d): median / p95 / worst, bench vs real port" % (
                    what, check[k]["presses"]), "%.1f / %.1f / %.1f vs %s" % (
                    b[0], b[1], b[2], " / ".join("-" if x is None else "%.1f" % x for x in p)), "model check"))
    rows.append(("CPU busy with no key pressed (loop %.0f passes/s, %.0f naps/s)" % (
        r["idle_passes_per_s"], r["idle_sleeps_per_s"]), "%.1f %%" % (100 * r["idle_cpu_share"]), "<= 10 %"))
    if "loop_pass_ms" in r:
        rows += [
            ("  a loop pass, no key event: charged (each press pays one) / bench's own estimate vs real port",
             "%.2f / %.2f vs %.2f ms" % (r["loop_pass_ms"], r["loop_pass_vm_ms"], r["loop_pass_port_ms"]),
             "model check"),
            ("  a 1 ms nap: charged / bench's own estimate (Python loop + 5 us) vs real port",
             "%.0f / %.0f vs %.0f us" % (r["loop_nap_us"], r["loop_nap_vm_us"], r["loop_nap_port_us"]),
             "model check"),
            ("  idle CPU: charged / bench's own estimate vs real port (d436b82)",
             "%.2f / %.2f vs %.2f %%" % (100 * r["idle_cpu_share"], 100 * r["idle_cpu_share_vm"],
                                         100 * r["idle_cpu_share_port"]), "model check"),
            ("  heap a loop pass asks for (frames too), idle / a key held; runs with the heap locked",
             "%d / %d B; %s" % (r["loop_alloc_idle_bytes"], r["loop_alloc_held_bytes"],
                                "yes" if r["loop_heap_locked_ok"] else "NO"), "0 / 0 B"),
        ]
    rows.append(("  pages sent per press, median / p95 (of 8); whole frame", "%s / %s; %.0f%% of presses" % (
        r["pages_sent_per_press_median"], r["pages_sent_per_press_p95"], 100 * r["full_frame_press_share"]), ""))
    rows += [
        ("Key press computing, median / p95 / worst (%d KB heap)" % (r.get("press_heap_bytes", 0) // 1024),
         "%.1f / %.1f / %.1f ms" % (r["press_median_ms_est"], r["press_p95_ms_est"], r["press_worst_ms_est"]), ""),
        ("  worst press was", r["press_worst"], ""),
        ("Key press computing median / p95 / worst, %d KB heap" % (r["heap_cap_bytes"] // 1024),
         "%.1f / %.1f / %.1f ms" % (r["press_median_cap_ms_est"], r["press_p95_cap_ms_est"],
                                    r["press_worst_cap_ms_est"]), ""),
        ("Game completes with a %d KB heap" % (r["heap_cap_bytes"] // 1024), _fmt(r["completes_at_144k"], ""),
         "yes"),
        ("Heap live peak (between presses)", "%d B" % r["heap_live_peak_bytes"], "<= 112 KB"),
        ("Heap in use after a press, garbage included (max)", "%d B" % r["heap_peak_bytes"], ""),
        ("Heap after boot, 60-round game loaded", "%d B used, %d B free of %d KB" % (
            r["heap_alloc_boot_bytes"] or 0, r["heap_free_boot_bytes"] or 0, r["heap_boot_cap_bytes"] // 1024), ""),
        ("Idle work between presses (collection), worst", "%.1f ms" % r["idle_worst_ms_est"],
         "in busy"),
        ("Resume to game screen, 60 rounds", "%.0f ms (imports %.0f, engine replay %.0f)" % (
            r["resume_ms_est"], r["resume_imports_ms_est"], r["resume_engine_ms_est"]), "<= 500 ms"),
        ("Undo one round, 60-round game", "%.1f ms" % r["undo_ms_est"], "<= 50 ms"),
        ("Flash per committed round (mean)", "%s B (median %s, max %d)" % (
            r["bytes_per_round"], r["bytes_per_round_median"], r["bytes_per_round_max"]), "<= 128 B"),
        ("Firmware .mpy total (armv6m)", "%d B" % r["mpy_total_bytes"], "reported"),
        ("Finished game archive", _fmt(r["archive_bytes_max"], "B"), ""),
        ("Presses per round (median / p95)", "%s / %s" % (r["presses_per_round_median"], r["presses_per_round_p95"]),
         ""),
        ("Counter baseline per round (median / p95)", "%s / %s" % (
            r["baseline_presses_per_round_median"], r["baseline_presses_per_round_p95"]), ""),
        ("Presses per round incl. setup/end (mean)", "%.2f vs baseline %.2f (ratio %s)" % (
            r["presses_per_round_mean"], r["baseline_presses_per_round_mean"], _fmt(r["effort_ratio"], "x")), ""),
    ]
    rows.extend(bench_keypad.rows(r))  # issue 31
    if "ja_heap_bytes" in r:
        rows.extend(japanese_rows(r))
    if "heap_peak_romfs_bytes" in r:
        rows.extend(romfs_rows(r))
    out = ["| Measure | Result | Budget |", "|---|---|---|"]
    for name, val, budget in rows:
        out.append("| %s | %s | %s |" % (name, val, budget))
    out.append("")
    out.append("%s; %s fuel per Pico-µs (calibration: %d fuel for %d iterations, %.0f ms on a Pico); %s." % (
        r["micropython"].split("; ")[-1], "%.1f" % per_us, r["calibration"]["fuel_loop"],
        r["calibration"]["iterations"], r["calibration"]["pico_ms"], r["estimate_note"]))
    if "corpus_styles" in r:
        # issue 26: the effort corpus's presses per round against the floor
        out.append("")
        out.append("Effort corpus (teatally_host.corpus; 4-key presses per round unless said):")
        out.append("")
        out.extend(corpus.table_lines(r))
    if "keypad_corpus_styles" in r:
        # issue 31: the keypad board's presses per round against its floor
        out.append("")
        out.append("Effort corpus on the keypad board (teatally_host.bench_keypad; floor: one press per question "
                   "with more than one answer):")
        out.append("")
        out.extend(bench_keypad.table_lines(r))
    return "\n".join(out)


def japanese_rows(r):
    """What 日本語 costs (issue 18): nothing while English is on (its modules
    are never imported); these figures while Japanese is on."""
    return [
        ("日本語: flash (.mpy: glyph subset, drawing, string tables; in the total above)",
         "%d B (%d glyphs: %d B)" % (r["ja_flash_bytes"], r["ja_glyphs"], r["ja_font_flash_bytes"]), ""),
        ("日本語: heap while on, every screen (English: 0, never loaded)", "%d B (glyph subset %d B)" % (
            r["ja_heap_bytes"], r["ja_font_heap_bytes"]), ""),
        ("Words (packed): heap of the keys / English / 日本語 (one language at a time); .mpy",
         "%d / %d / %d B; %d B" % (r["words_keys_heap_bytes"], r["words_en_heap_bytes"], r["words_ja_heap_bytes"],
                                   r["words_flash_bytes"]), ""),
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
        ("ROMFS: game completes with a %d KB heap" % (r["heap_cap_bytes"] // 1024),
         _fmt(r["completes_at_144k_romfs"], ""), note),
        ("ROMFS: key press median / p95 / worst", "%.1f / %.1f / %.1f ms" % (
            r["press_median_romfs_ms_est"], r["press_p95_romfs_ms_est"], r["press_worst_romfs_ms_est"]), note),
        ("ROMFS: resume to game screen, 60 rounds", "%.0f ms (imports %.0f)" % (
            r["resume_romfs_ms_est"], r["resume_imports_romfs_ms_est"]), note),
    ]


def verdicts(r):
    lines = []
    failed = False
    for c in r["checks"]:
        state = "ok" if c["ok"] else "FAIL"
        if not c["ok"]:
            failed = True
        lines.append("%-22s %-14s limit %-8s %s" % (c["name"], _fmt(c["value"], c["unit"]),
                                                  _fmt(c["limit"], c["unit"]), state))
    return lines, failed


README = """\
# Performance

`make bench` (or `teatally bench`) plays the games in `bench/` on the real
firmware under the MicroPython VM and checks the budgets; it exits non-zero
when one is exceeded. A plain run writes its results to `build/bench/`;
`teatally bench --update` writes them here (`results.json`, this file) and
rewrites the key scripts that changed. The table below is from the last
`--update` ({records}; for the waits also {wait_records}).

Where each model lives (`host_tools/teatally_host/`, one file each; none
imports `bench.py`):

| model | file |
|---|---|
| the runs on the MicroPython VM (the guest, its marks, fuel) | `benchvm.py` |
| the input (debounce under bouncing contacts) | `inputmodel.py` |
| computing (calibration, the port's ratio; the loop's pass and nap, idle CPU) | `cpumodel.py` |
| the display bus (what a `show()` sends, how long) | `busmodel.py` |
| the flash (littlefs at the rp2 geometry, the W25Q16JV, the press's order) | `flashmodel.py` |
| the waits per press, put together; the model checks against the port | `waits.py` |
| effort (presses per round, the +/- counter baseline) | `effort.py` (the corpus: `corpus.py`) |
| the budgets and their check | `budgets.py` |
| the rest (records, heap, resume, ROMFS, Japanese) and the run itself | `bench.py` |

{table}

{verdict}

## What the budgets are

- **The wait a player feels** (issue 23), per key press, from the key's
  deciding edge (the press for an event sent at the press: UP/DOWN, the
  2-key chord; the release for OK/BACK and the 2-key taps), on the default
  board (`pico_ssd1306`, I2C 400 kHz: a whole frame 23.3 ms) and the 2-key
  Waveshare board (SH1107, SPI 10 MHz), in English and in Japanese: the
  worst of the four counts. Every press counts: those of the bench's games
  and of the effort corpus's first game of each style, the first from the
  home menu, the setup's last (its board and the journal's first line) and
  the game's last (the archive) included.
  - **First light** (p95 <= 25 ms, worst <= 50 ms): until the first changed
    page is on the panel. 25 ms keeps it under the ~32 ms at which a
    visual answer is felt as simultaneous with the press (Kaaresoja,
    Brewster and Lantz, ACM TAP 2014).
  - **Full frame** (p95 <= 50 ms, worst <= 85 ms, the top of their
    recommended range): until the last transfer of the press's screen.
  - **Busy** (reported, at the flash's typical and maximum times): until the
    device takes the next key: the press's flash work after its screen
    (`App.finish`: the screen is marked "not yet saved" until the work is
    on the flash), the mark taken away, the idle work.
  - **Flash before the screen** (0 presses): the firmware's rule is that
    every press shows its screen before its flash work (`App.press`, then
    `App.finish`; a screen queues its work with `App.later`). The bench
    does not assume it: the firmware's own trace says where each write
    fell against each `show()`, a write before the first light counts in
    it, and the presses whose flash work came before their first light are
    counted (budget 0; the table adds those before the full frame).
  - **CPU busy with no key pressed** (<= 10 %): the main loop rests
    (`hw.wait`: 1 ms naps until a key edge or the next thing due: the
    screen timeout, the watchdog, fed at every pass), each pass and each
    nap at the real port's cost (below).
  - **A loop pass asks nothing of the heap** (0 B, idle and with a key
    held): on the port every pass asked 76 B (a call frame too big for the
    C stack), so a held key brought a ~19 ms collection every few hundred
    passes. Counted with `micropython.mem_total()` around a pass, which
    also runs with the heap locked.
  - **Games that fit** (>= 100): finished games the filesystem keeps beside
    the firmware, counted in littlefs blocks on a real image
    (`teatally_host.flashmodel`).
- **Heap**: the stock RPI_PICO firmware has about 192 KB of heap. A game of
  60 rounds must complete with the heap capped at 144 KB (three quarters of
  it: room for what the real port holds that the VM does not), and the
  live heap between presses (after the collection the main loop makes
  there) must stay at or under 112 KB.
- **Resume** (<= 500 ms): boot with a 60-round journal on flash (imports,
  reading and replaying the journal, the first screen). **Undo** (<= 50 ms):
  LONG BACK on the final screen of a 60-round game, twice (the first has
  the previous state at hand, the second rebuilds from a checkpoint); the
  worse counts.
- **Flash** (<= 128 B a round): the bytes a game appends to the journal
  (line, tab, CRC, newline) divided by its committed rounds; median and
  longest line are shown too (a round line has no fixed maximum: copy
  chains nest). The firmware's `.mpy` total is reported (a player never
  feels it; games that fit says what the flash must hold).
- Presses per round of the bench games are reported (with a generic +/-
  score counter's for scale), not budgeted. On the effort corpus
  (`teatally_host.corpus`, 210 generated games): the median presses per
  round within 15 % of the uniform floor's (`corpus_gap_median_pct`), and
  the habit figure at 0 % (`corpus_habit_pct`: for every question whose
  options are not cards from a draw pile, the keys that gave the same
  answer to the same question last time, pressed blind, give another).

## How it is measured

- The firmware runs as it goes to the Pico: the package compiled with
  `mpy-cross -O3 -march=armv6m` (no line-number tables), on the WASI build
  of MicroPython ({mpver}) under wasmtime, with the flash as a host folder
  and the virtual board (`teatally.hw.virtual`). Each game is entered from
  the home menu with the key presses in `bench/*.keys` (one token per press
  in the simulator's format, grouped under `# line N` per record line) and
  must leave the game of `bench/*.jsonl` in the journal, then archive it.
  Any valid record can be played: `teatally bench --records DIR` (key
  scripts are made for records that have none).
- Between presses the bench does what the firmware's main loop does while
  the players think: `App.idle_work()`: one garbage collection. Collections
  are on all the time, as on the Pico: one may fall inside a press (after
  `app.GC_THRESHOLD` bytes allocated), and then it counts in that press.
- CPU is wasmtime *fuel*, a deterministic count of executed instructions,
  read around each key press and at the end of each of its `show()`s. It
  becomes an estimate of RP2040 time (125 MHz) through one published
  figure: `def f(n): p = [1, 2]; for i in range(n): C = p[0] + p[1]` takes
  about 799 ms for 100 000 iterations on a Pico with MicroPython 1.23
  (github.com/shaoziyang/micropython_benchmarks); the same function costs
  {fuel_iter:.0f} fuel per iteration here, so {per_us:.1f} fuel is about one
  Pico microsecond by that loop. The firmware's own mix (calls,
  allocations, framebuf's C code) runs slower than that loop says: on the
  real rp2 port (v1.28.0 RPI_PICO in an RP2040 emulator at 125 MHz, the
  firmware of eed9b5f, the 396 presses of long60-s12) the 334 presses with
  no flash work took **1.28x** the loop's estimate at the median, 1.16x to
  1.52x from the 5th to the 95th percentile. Every computing figure here is
  the loop's estimate times 1.28: honest to about -9 % / +19 % a press. The
  emulator models no flash wait states or XIP cache: a real Pico is no
  faster.
- **The input** (`teatally_host.inputmodel`): the real `buttons.Keys`
  driven on the host with contacts that bounce for up to 5 ms at every
  edge, polled every millisecond (the loop polls every 1 ms while a key is
  down and a key edge ends its rest): from the deciding edge to the event,
  typically 0.5-0.6 ms (the debounce no longer waits: leading edge, a 20 ms
  lockout after it). Before: 21-24 ms, and UP/DOWN waited for the release.
- **The bus**: what each `show()` sent (only what changed, `hw.pages`),
  timed with the board file's bus and speed and the driver's transactions;
  the I2C model agrees with the emulated bus of the real port within
  0.04 ms a press.
- **The loop** (`teatally_host.cpumodel`): the real port measured, on
  d436b82's firmware, 0.68 ms a pass with no key event and about 80 us a
  1 ms nap (the Python wait loop and the SDK's timer work), idle CPU
  7.95 %. The bench measures the same pass and nap in fuel on that firmware
  and on this one, and charges the port's figures moved by the difference:
  a pass 0.68 ms x (fuel now / fuel then), error as any computing (-9 % /
  +19 %); a nap 80 us less the Python part saved, about +-10 %. Every press
  pays one pass before its first light. The rest the port allows: a nap is
  `time.sleep_ms(1)` (the CPU waits for the timer; a pin interrupt cannot
  end it early) and `machine.lightsleep(ms)` stops the clocks a key and USB
  need (no GPIO wake on rp2), so the rest stays 1 ms naps, with less
  Python around each (counted down: no clock read a nap).
- **The flash** (`teatally_host.flashmodel`): every file operation the
  firmware makes, traced in a run of its own, played on `littlefs-python`
  (the same littlefs C code as the port) at the rp2 geometry (block 4096,
  352 blocks, prog 256, read 32, lookahead 32, cache 1024), on an image
  that holds the firmware: sector erases (W25Q16JV: 45 ms typical, 400 ms
  maximum; the CPU stalls) and page programs (0.4 / 3 ms) per press. For
  long60-s12 it counts the real port's 64 erases and 220 program calls
  exactly (606 pages of 256 bytes). littlefs's own computing, which the VM
  does not run: 0.58 ms a page programmed (the real port's 0.56-0.60 on
  d436b82's firmware; before, the bench fitted 0.94). The trace carries the
  press's own marks (each `show()` ended, the flash work begun): each
  write is charged where it fell, before the shows after it.
- **Heap**: the real RPI_PICO v1.28 heap is 245,888 B (241,424 free at
  boot); the bench keeps the stock 192 KB as a conservative default (a
  Pico W has less). The real port's live heap peaks about 9.5 KB above the
  bench's for the same game (121.9 against 112.4 KB).
- What the firmware does so that a press stays cheap: what every game needs
  is imported at boot and stays; the rare screens (score pads, settings,
  archive, the new-game setup, history, the final scoring) are imported by
  the press that opens them and released when closed (`ui.core.RARE`),
  which costs that press the import, unless the screen before names it
  ahead (the home menu with no game loaded: the new-game setup, imported
  while the players look, `ui.core.UI.ahead`). A key's flash work comes
  after its screen (`App.press`, then `App.finish`), every key's.
- Firmware in ROMFS (the rows marked ROMFS; no budget uses them): the same
  games again with the package imported from a ROMFS image, as `teatally
  flash --romfs` installs it on a MicroPython build with a ROMFS partition
  (MicroPython then runs the bytecode in place instead of copying it into
  the heap). On the VM the image is read into a bytearray near the top of
  the heap and mounted with `vfs.VfsRom` at `/rom`; on a Pico it is in
  flash, so its bytes are left out of those heap figures and the heap cap
  is raised by them.

Records: `long60-*` are games of the generator's hoarding players
(`gen.random_game(seed, style="long")`, seeds chosen so that the game ends in
exactly 60 rounds); `random-s1` is a full game of random players (45 rounds,
hourglasses and watch spaces used). `teatally bench --regen` rewrites them.
"""


def verdict_text(r):
    over = [c["name"] for c in r["checks"] if not c["ok"]]
    out = "Budgets exceeded: %s." % (", ".join(over) if over else "none")
    if r["problems"]:
        out += "\n\n" + "\n".join("- " + x for x in r["problems"])
    return out


def readme(r):
    return README.format(
        verdict=verdict_text(r),
        records=", ".join(r["records"]), wait_records=", ".join(r.get("wait_records") or ["none"]),
        table=table(r), mpver=r["micropython"].split("; ")[-1].split(" on ")[0],
        fuel_iter=r["calibration"]["fuel_per_iteration"], per_us=r["fuel_per_pico_us"])


def _jsonable(r):
    return json.loads(json.dumps(r, default=str))


def run(args):
    folder = args.records
    if args.regen:
        regenerate(folder)
    check_records(folder)
    write = not args.no_write
    r = bench.run_bench(folder, log=lambda s: print(s, file=sys.stderr), write_keys=write and args.update,
                        corpus_waits=getattr(args, "corpus", False))
    if getattr(args, "corpus", False):
        # issue 26: presses per round on the effort corpus (its own module)
        r.update(corpus.measure(log=lambda s: print(s, file=sys.stderr)))
        r.update(bench_keypad.corpus_figures(log=lambda s: print(s, file=sys.stderr)))  # issue 31
        r["checks"] = bench.checks(r)  # its budgets too
    print(table(r))
    print()
    lines, failed = verdicts(r)
    print("\n".join(lines))
    for p in r["problems"]:
        print("problem: " + p)
    for p in r.get("romfs_problems", ()):
        print("problem (firmware in ROMFS, not a budget): " + p)
    text = json.dumps(_jsonable(r), indent=1, sort_keys=True) + "\n"
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text)
        print("wrote %s" % args.json)
    if write:
        out = folder if args.update else OUT
        out.mkdir(parents=True, exist_ok=True)
        (out / "results.json").write_text(text)
        (out / "README.md").write_text(readme(r))
        print("wrote %s and %s" % (out / "results.json", out / "README.md"))
    return 1 if failed else 0
