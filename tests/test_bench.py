"""The bench's arithmetic and plumbing (teatally_host.bench, keyscript).

No timing and no budget asserts here: `make bench` checks the budgets. These
tests pin what the figures mean: the fuel -> Pico-time calibration, the
percentiles, the +/- counter baseline, the grouping of presses per record
line, and that a key script translated from a record enters exactly that
record on the device (CPython; the bench replays it on the MicroPython VM).
"""

import json

import pytest

from teatally import journal, jsonc
from teatally.rules import t42
from teatally_host import (bench, benchvm, budgets, busmodel, cmd_flash, cpumodel, effort, gen, inputmodel, keyscript,
                           mpvm, pyframebuf, stats)

SETUP = {
    "game": "tea-for-2",
    "flamingo": "blue",
    "watch": "stars",
    "objectives": {"4": "tarts", "5": "deck", "6": "most:alice", "7": "hourglasses", "8": "destroyed"},
}


def test_calibration_math():
    # 100 000 iterations took 799 ms on the Pico: 1 344 fuel per iteration is
    # 1 344 fuel per 7.99 us
    per_us = cpumodel.fuel_per_pico_us(134_400_000)
    assert per_us == pytest.approx(134_400_000 / 799_000)
    assert cpumodel.fuel_per_pico_us(13_440_000, iterations=10_000) == pytest.approx(per_us)
    assert cpumodel.ms_est(per_us * 6000, per_us) == pytest.approx(6.0)


def test_calibration_on_the_vm_reads_fuel_inside_one_run(tmp_path):
    """mpvm.FuelMeter: the host reads the guest's fuel between marks; the
    loop's fuel is deterministic and the round trip of a mark is small."""
    fw = tmp_path / "fw"
    fw.mkdir()
    cal = cpumodel.calibrate(str(fw))
    again = cpumodel.calibrate(str(fw))
    assert cal["fuel_loop"] == again["fuel_loop"]
    assert 500 < cal["fuel_per_iteration"] < 5000
    assert 0 < cal["mark_overhead_fuel"] < cal["fuel_loop"] / 1000
    assert "MicroPython" in cal["micropython"]


def test_percentile_nearest_rank():
    v = list(range(1, 101))
    assert stats.percentile(v, 95) == 95
    assert stats.percentile(v, 100) == 100
    assert stats.percentile([7], 95) == 7
    assert stats.percentile([3, 1, 2], 50) == 2


def test_baseline_counts_select_steps_confirm():
    before = t42.new_state(SETUP)
    after = before.copy()
    after.players[0].stars += 3
    after.players[1].tarts -= 1
    after.flamingo = 1
    after.watch = 4  # stars -> copy: one step back round the 5 spaces
    changes = dict(effort.counter_changes(before, after))
    assert changes == {"blue stars": 3, "pink tarts": 1, "flamingo": 1, "watch": 1}
    assert effort.counter_changes(before, before.copy()) == []


def test_baseline_on_a_tiny_record():
    # T42-ROUND-2: the knave (5) beats the dormouse (3); T42-CARD-5: the
    # knave's effect takes 3 tarts from the supply
    objs = [SETUP, {"blue": "knave", "pink": "dormouse", "effect": {}, "hourglasses": 0}]
    per_round, count = effort.baseline_presses(objs)
    g = bench.replay(objs)
    assert g.state.players[0].tarts - t42.new_state(SETUP).players[0].tarts == 3
    assert per_round == [2 + 3]  # select blue tarts, +3, confirm
    # then both decks counted by hand, a press per card
    assert count == g.state.players[0].deck_size() + g.state.players[1].deck_size()
    assert count == 2 * len(t42.START_DECK)


def test_effort_groups_presses_by_record_line():
    objs = [SETUP, {"blue": "knave", "pink": "dormouse", "effect": {}, "hourglasses": 0}]
    keys = [("ok", 0)] * 4 + [("down", 1), ("ok", 1)] + [("ok", keyscript.END)]
    e = effort.effort(objs, keys)
    assert e["per_round"] == [2]
    assert (e["presses_setup"], e["presses_end"], e["presses_total"]) == (4, 1, 7)
    assert e["baseline_total"] == 5 + 2 * len(t42.START_DECK)
    assert e["presses_per_round_mean"] == 7


def test_round_line_bytes_skip_setup_and_comments():
    text = gen.record_text([SETUP, {"blue": "cat", "pink": "cat"}], crc=True) + "# final {}\n"
    sizes = bench.round_line_bytes(text.encode())
    # the journal's own layout: compact JSON, TAB, CRC, newline
    assert sizes == [len(journal.protect(jsonc.dumps({"blue": "cat", "pink": "cat"}, True)))] == [37]


def test_key_tokens():
    assert keyscript.event("ok") == 0x12
    assert keyscript.event("BACK") == 0x23
    text = "# setup\n2*down ok # two downs\n# line 1: x\nOK\n# end\nback\n"
    assert keyscript.parse(text) == [("down", 0), ("down", 0), ("ok", 0), ("OK", 1), ("back", -1)]
    with pytest.raises(ValueError):
        keyscript.parse("Ok")


def _replay_keys(presses, flash):
    """Enter the presses on a fresh CPython App on flash (an empty folder);
    -> (app, the recorded objects)."""
    pyframebuf.install()
    from teatally.app import App
    from teatally.hw.virtual import VirtualHardware

    app = App(VirtualHardware(str(flash)))
    app.boot()
    for tok, _ in presses:
        app.key(keyscript.event(tok))
    assert app.errors == 0
    objs, _ = app.journal.load() if app.journal.exists() else ([], None)
    return app, objs


def test_keyscript_reproduces_a_small_game(tmp_path):
    """The translated presses, parsed back from the key-script text and
    replayed on a fresh App, leave exactly the record in the journal; the
    rounds' presses are grouped under their record line."""
    objs = gen.random_game(5, rounds=6)
    presses = keyscript.presses_for(objs, archive=False)
    text = keyscript.to_text(presses, objs, "test")
    assert keyscript.parse(text) == presses
    assert {line for _, line in presses} == set(range(len(objs)))
    app, got = _replay_keys(presses, tmp_path)
    assert got == objs
    assert app.game.state.round == 6


def test_keyscript_full_game_ends_archived(tmp_path):
    """A whole game: the last press (the end block) archives it from the
    final scoring screen (T42-END-3), and the archive holds the record."""
    objs = gen.random_game(2)
    presses = keyscript.presses_for(objs)
    assert presses[-1] == ("ok", keyscript.END)
    app, got = _replay_keys(presses, tmp_path)
    assert app.game is None
    names = app.journal.list_archives()
    with open(app.journal.archive_path(names[-1]), "rb") as f:
        assert [o for _, o in journal.parse_record_lines(f.read())] == objs


def test_fuel_meter_keeps_run_api():
    # run() without a meter still works and reports the fuel used
    res = mpvm.run("print(1 + 1)")
    assert res.code == 0 and res.stdout.strip() == "2" and res.fuel_used > 0


# -- firmware in ROMFS ----------------------------------------------------------------

ROMFS_IMPORT = """\
def imp():
    gc.collect()
    m0 = gc.mem_alloc()
    from teatally.rules import t42
    gc.collect()
    print("%s %d" % (t42.__file__, gc.mem_alloc() - m0))
imp()
def usable():
    gc.collect()
    print("usable %d" % (gc.mem_alloc() + gc.mem_free()))
usable()
"""


def test_romfs_runs_bytecode_in_place_and_keeps_the_heap(tmp_path):
    """The bench's ROMFS run: the package imported from a VfsRom image takes
    far less heap than from the flash folder (the bytecode stays in the
    image); the guest reports the image's heap, which the host's formula
    predicts, and the raised cap leaves the firmware at least the usable
    heap of HEAP_CAP."""
    fw, romfw = tmp_path / "fw", tmp_path / "rom"
    romfw.mkdir()
    benchvm.build_firmware(fw)
    vm_bytes, device_bytes = bench.build_romfs_firmware(fw, romfw)
    assert 0 < device_bytes < vm_bytes  # the virtual board is not for the Pico
    guest = "import gc\n" + ROMFS_IMPORT
    plain = mpvm.run(guest, firmware=str(fw), heap=benchvm.HEAP_CAP).check().stdout.split()
    cap = benchvm.HEAP_CAP + bench.romfs_extra_heap(bench.romfs_image_heap(vm_bytes))
    rom = mpvm.run(bench.ROMFS_PRELUDE + guest, firmware=str(romfw), heap=cap).check().stdout.split()
    assert plain[0] == "/fw/teatally/rules/t42.mpy" and rom[3] == "/rom/teatally/rules/t42.mpy"
    assert rom[:2] == ["ROMFS", str(bench.romfs_image_heap(vm_bytes))]
    assert int(rom[4]) < int(plain[1]) * 0.6
    assert int(rom[6]) - int(rom[1]) >= int(plain[3])


def test_summarize_romfs_leaves_the_image_out():
    keys = [("ok", 0), ("ok", 1)]
    run = {"fuel": [100, 300], "heap": [(70_000, 80_000), (71_000, 90_000)], "romfs_heap": 60_000,
           "heap_total": 156_000, "completes_at_cap": True, "problem": None}
    r = bench.summarize_romfs([{"name": "g", "keys": keys, "run_romfs": run}], 1.0, 61_000, 59_000)
    assert (r["heap_peak_romfs_bytes"], r["heap_live_max_romfs_bytes"]) == (30_000, 11_000)
    assert r["heap_cap_romfs_effective_bytes"] == 96_000
    assert r["press_worst_romfs_fuel"] == 300 and r["press_worst_romfs"] == "g press 2 (line 1, ok)"
    assert r["completes_at_144k_romfs"] and r["romfs_image_bytes"] == 59_000 and not r["romfs_problems"]
    run["completes_at_cap"], run["problem"] = False, "x"
    r = bench.summarize_romfs([{"name": "g", "keys": keys, "run_romfs": run}], 1.0, 61_000, 59_000)
    assert not r["completes_at_144k_romfs"] and len(r["romfs_problems"]) == 2


def _game(name, keys, cap_fuel, cpu_fuel, cpu_problem=None, shows=None):
    # what run_bench gathers for one game, as summarize reads it (shows: per
    # press the windows of each show() it made; by default one whole frame each)
    shows = shows or [[list(busmodel.WHOLE)]] * len(cpu_fuel)
    run = {"fuel": cap_fuel, "heap": [(70_000, 80_000)] * len(cap_fuel), "gc_fuel": 10, "files": {},
           "problem": None, "completes_at_cap": True, "shows": shows}
    # each press: its shows at the end of its computing, no flash work
    timeline = [{"shows": [f] * len(w), "finish": f, "fuel": f} for f, w in zip(cpu_fuel, shows, strict=True)]
    cpu = {"fuel": cpu_fuel, "heap": [], "gc_fuel": 20, "files": {}, "problem": cpu_problem, "shows": shows,
           "timeline": timeline, "idle_fuel": [0] * len(cpu_fuel)}
    effort = {"per_round": [8], "baseline_per_round": [2], "presses_per_round_mean": 8.0,
              "baseline_presses_per_round_mean": 2.0, "baseline_deck_count": 0, "presses_total": 8,
              "baseline_total": 2, "rounds": 1}
    return {"name": name, "rounds": 1, "presses": len(keys), "keys": keys, "run": run, "cpu": cpu,
            "effort": effort}


def test_summarize_takes_the_presses_from_the_pico_like_run(monkeypatch):
    """Key presses count in the run with the stock Pico's heap (cpu_run);
    the 144 KB run gives the heap figures and its presses as *_cap."""
    monkeypatch.setattr(inputmodel, "input_delay_ms", lambda token, layout: 1.0)
    keys = [("ok", 0), ("down", 1), ("ok", 1)]
    cal = {"micropython": "MicroPython x", "fuel_loop": 1, "fuel_per_iteration": 1, "pico_ms": 1, "iterations": 1,
           "source": "", "mark_overhead_fuel": 0}
    # press 1 sent the whole frame, press 2 page 3, press 3 nothing
    g = _game("g", keys, [500, 100, 900], [300, 50, 400], shows=[[list(busmodel.WHOLE)], [[(3, 3, 0, 127)]], []])
    r = bench.summarize({"a.mpy": 10}, cal, [g], 1.0)
    assert r["press_worst_fuel"] == 400 and r["press_worst"] == "g press 3 (line 1, ok)"
    assert r["press_worst_cap_fuel"] == 900 and r["press_median_cap_fuel"] == 500
    assert r["press_heap_bytes"] == benchvm.HEAP_PICO == 192 * 1024 and r["heap_cap_bytes"] == 144 * 1024
    assert r["heap_live_peak_bytes"] == 70_000 and r["heap_peak_bytes"] == 80_000
    assert r["idle_worst_ms_est"] == round(0.02 * cpumodel.PORT_RATIO, 2)  # the dearer idle work of both runs
    # the waits: the loop pass it rides on (the port's, cpumodel.LOOP), the
    # press's computing (fuel at 1 fuel a µs, times the real port's ratio)
    # plus the bus time of what its show()s sent, the worse
    # board counting: the cheaper press that sent the whole frame is the
    # worst, not the dearest computing that sent nothing
    ssd = r["waits"]["pico_ssd1306/en"]
    whole = busmodel.show_bus_ms(cmd_flash.load_board("pico_ssd1306"))
    loop = cpumodel.LOOP["pass_ms"]
    assert ssd["full_frame_worst_ms"] == round(1.0 + loop + 0.3 * cpumodel.PORT_RATIO + whole, 1)
    assert ssd["full_frame_worst_press"] == "g press 1 (setup, ok)"
    first = busmodel.show_bus_ms(cmd_flash.load_board("pico_ssd1306"), [(0, 0, 0, 127)])
    assert ssd["first_light_worst_ms"] == round(1.0 + loop + 0.3 * cpumodel.PORT_RATIO + first, 1)
    assert r["flash_before_first_light"] == 0  # no flash work at all here
    assert r["full_frame_worst_ms"] == max(w["full_frame_worst_ms"] for w in r["waits"].values())
    assert set(r["waits"]) == {"pico_ssd1306/en"}  # no run of the whole pages, none in Japanese: not measured
    assert (r["pages_sent_per_press_median"], r["pages_sent_per_press_p95"]) == (1, 8)
    assert r["full_frame_press_share"] == 0.333 and r["no_show_press_share"] == 0.333
    assert {c["name"] for c in r["checks"]} >= {"first_light_p95_ms", "full_frame_worst_ms", "idle_cpu_share",
                                                "games_that_fit", "heap_live_peak_bytes", "completes_at_144k"}
    assert "effort_ratio" not in {c["name"] for c in r["checks"]} and r["effort_ratio"] == 4.0
    # the corpus's budgets only when its figures are there (not with --no-corpus)
    assert not {c["name"] for c in r["checks"]} & set(budgets.OPTIONAL)
    fig = dict(r, corpus_gap_median_pct=-5.0, corpus_habit_pct=0.0)
    got = {c["name"]: c["ok"] for c in budgets.checks(fig) if c["name"] in budgets.OPTIONAL}
    assert got == {"corpus_gap_median_pct": True, "corpus_habit_pct": True}
    fig = dict(r, corpus_gap_median_pct=15.1, corpus_habit_pct=0.02)
    got = {c["name"]: c["ok"] for c in budgets.checks(fig) if c["name"] in budgets.OPTIONAL}
    assert got == {"corpus_gap_median_pct": False, "corpus_habit_pct": False}
    assert not r["not_reproduced"]
    # the boards whose show() sends whole pages (SH1106, SH1107) take the
    # presses of the run without the column scan (cpu_pages)
    g["cpu_pages"] = dict(g["cpu"], fuel=[300, 50, 2000], timeline=[
        {"shows": [f] * len(w), "finish": f, "fuel": f}
        for f, w in zip([300, 50, 2000], g["cpu"]["shows"], strict=True)])
    r = bench.summarize({"a.mpy": 10}, cal, [g], 1.0)
    wave = r["waits"]["waveshare_pico_oled_1_3/en"]
    assert wave["busy_worst_press"] == "g press 3 (line 1, ok)"
    assert wave["busy_worst_ms"] == round(1.0 + loop + 2.0 * cpumodel.PORT_RATIO, 1)
    assert r["waits"]["pico_ssd1306/en"] == ssd and r["press_worst_fuel"] == 400
    g["cpu_pages"]["problem"] = "line 1 differs"
    r = bench.summarize({"a.mpy": 10}, cal, [g], 1.0)
    assert r["not_reproduced"] == ["g"] and "whole pages" in r["problems"][0]
    # the game must come out right in that run too
    r = bench.summarize({"a.mpy": 10}, cal, [_game("g", keys, [1, 1, 1], [1, 1, 1], "line 1 differs")], 1.0)
    assert r["not_reproduced"] == ["g"] and "192 KB heap" in r["problems"][0]


def test_bus_time_of_a_frame_per_board():
    """What a whole-frame show() sends, at the board file's bus speed: the
    SSD1306's frame over I2C at 400 kHz is about 23.3 ms (9 clocks a byte),
    the SH1106's eight pages a little more (a transaction a page), the
    Waveshare SH1107 on SPI at 10 MHz under a millisecond (64 rows of 2
    command and 16 data bytes)."""
    ms = {b: busmodel.show_bus_ms(cmd_flash.load_board(b)) for b in cmd_flash.board_names()}
    assert round(ms["pico_ssd1306"], 1) == 23.3
    assert ms["pico_ssd1306"] < ms["pico_sh1106"] < 26
    assert ms["waveshare_pico_oled_1_3"] == pytest.approx(64 * (2 + 16) * 8 / 10_000)


def test_bus_time_of_the_windows_a_show_sent():
    """The SSD1306 through hw.pages: per window one command transaction (the
    address, 0x00 and six commands: 74 clocks) and per page of it one data
    write of its columns (address, 0x40, the bytes: (2 + w) * 9 + 2 clocks);
    the whole frame one window and one write of 1024 bytes; on SPI six
    one-byte commands a window. SH1106 and SH1107 are charged the pages of
    the windows, whole, as their show() sends them; nothing sent costs
    nothing."""
    ssd = cmd_flash.load_board("pico_ssd1306")
    assert busmodel.show_bus_ms(ssd, []) == 0
    assert busmodel.show_bus_ms(ssd, [(1, 2, 0, 127)]) == pytest.approx((74 + 2 * 1172) / 400)  # two whole pages
    assert busmodel.show_bus_ms(ssd, [(3, 5, 10, 19)]) == pytest.approx((74 + 3 * (12 * 9 + 2)) / 400)
    assert busmodel.show_bus_ms(ssd, [(0, 0, 5, 5), (7, 7, 0, 0)]) == pytest.approx(2 * (74 + 3 * 9 + 2) / 400)
    assert busmodel.show_bus_ms(ssd) == pytest.approx((74 + (1 + 1 + 1024) * 9 + 2) / 400)  # one write of 1024
    assert busmodel.show_bus_ms(ssd, [(0, 7, 0, 127)]) == busmodel.show_bus_ms(ssd)
    spi = dict(ssd, BUS="spi", FREQ=10_000_000)
    assert busmodel.show_bus_ms(spi, [(3, 5, 10, 19)]) == pytest.approx((6 + 3 * 10) * 8 / 10_000)
    sh1106 = cmd_flash.load_board("pico_sh1106")
    assert busmodel.show_bus_ms(sh1106, [(0, 0, 5, 9), (2, 2, 0, 127)]) == pytest.approx(2 * (3 * 29 + 1172) / 400)
    wave = cmd_flash.load_board("waveshare_pico_oled_1_3")
    assert busmodel.show_bus_ms(wave, [(3, 3, 40, 41)]) == pytest.approx(8 * (2 + 16) * 8 / 10_000)
    assert busmodel.show_mask([(0, 0, 5, 9), (2, 4, 0, 127)]) == 0b11101 and busmodel.show_mask([]) == 0
    assert busmodel.pages_sent([list(busmodel.WHOLE), [(0, 0, 1, 1), (2, 2, 0, 3)]]) == 10
    assert busmodel.pages_sent([]) == 0


def test_press_shows_reads_the_guests_windows():
    """VirtualDisplay.sent as the guest hands it over: per show how many
    windows, then 4 bytes each, in slots of 33 bytes."""
    log = bytearray(4 * benchvm.SHOW_BYTES)
    log[0], log[1:9] = 2, bytes([0, 1, 5, 9, 3, 3, 0, 127])
    log[33] = 0
    assert benchvm.press_shows(2, log.hex()) == [[(0, 1, 5, 9), (3, 3, 0, 127)], []]
    assert benchvm.press_shows(0, log.hex()) == []
    with pytest.raises(SystemExit):
        benchvm.press_shows(5, log.hex())


def test_a_record_without_the_default_hourglasses_plays(tmp_path):
    """Any valid record plays: a round line may leave out "hourglasses" (0,
    the engine's default); the device records 0 and that is the same game."""
    objs = bench.load_record(benchvm.BENCH_DIR / "random-s1.jsonl")[:12]
    bare = [objs[0]] + [{k: v for k, v in o.items() if (k, v) != ("hourglasses", 0)} for o in objs[1:]]
    assert bare != objs
    keys = keyscript.presses_for(bare, archive=False)
    assert keys == keyscript.presses_for(objs, archive=False)
    assert keyscript.first_difference(objs, bare) is None
    assert "line 3" in keyscript.first_difference(objs[:2] + [objs[3]] + objs[3:], objs)


def test_bench_json_keys_and_where_results_go(tmp_path, monkeypatch):
    """`teatally bench --json FILE` writes the budget figures (numbers, the
    completion a boolean); a plain run writes its results to build/bench/
    (untracked), --update to the records' folder (the committed ones)."""
    import argparse

    monkeypatch.setattr(inputmodel, "input_delay_ms", lambda token, layout: 1.0)

    from teatally_host import cmd_bench

    cal = {"micropython": "MicroPython x", "fuel_loop": 1, "fuel_per_iteration": 1, "pico_ms": 1, "iterations": 1,
           "source": "", "mark_overhead_fuel": 0}
    r = bench.summarize({"a.mpy": 10}, cal, [_game("g", [("ok", 0)], [500], [300])], 1.0)
    r.update({"idle_cpu_share": 0.05, "idle_passes_per_s": 1.0, "idle_sleeps_per_s": 1000.0, "games_that_fit": 139,
              "flash_erases_per_round": 1.05, "flash_programs_per_round": 10.0})
    monkeypatch.setattr(bench, "run_bench", lambda folder, log=print, write_keys=False, corpus_waits=True: r)
    monkeypatch.setattr(cmd_bench, "OUT", tmp_path / "out")
    monkeypatch.setattr(cmd_bench, "check_records", lambda folder: None)
    records = tmp_path / "records"
    records.mkdir()
    args = argparse.Namespace(records=records, json=tmp_path / "r.json", update=False, regen=False, no_write=False)
    cmd_bench.run(args)
    data = json.loads((tmp_path / "r.json").read_text())
    for key in ("first_light_p95_ms", "full_frame_worst_ms", "idle_cpu_share", "games_that_fit", "heap_live_peak_bytes",
                "resume_ms_est", "undo_ms_est", "bytes_per_round", "mpy_total_bytes", "presses_per_round_median"):
        assert type(data[key]) in (int, float), key
    assert data["completes_at_144k"] is True
    assert (tmp_path / "out" / "results.json").exists() and (tmp_path / "out" / "README.md").exists()
    assert list(records.iterdir()) == []
    args.update, args.json = True, None
    cmd_bench.run(args)
    assert sorted(p.name for p in records.iterdir()) == ["README.md", "results.json"]


def test_a_write_before_the_screen_counts_in_its_first_light():
    """Issue 32: the flash work is charged where the firmware's own trace
    puts it against the press's show()s; a write before the first light
    delays it (and the full frame) by the write, one after the screen only
    the busy time, and the summary counts the presses that wrote first."""
    from teatally_host import flashmodel, waits

    assert flashmodel.press_segments("o:1,a,wb;w:1,5;s;s;F;f:1;c:1") == [
        ("s", "o:1,a,wb;w:1,5"), ("s", ""), ("F", ""), ("", "f:1;c:1")]
    board = cmd_flash.load_board("pico_ssd1306")
    press = {"shows": [100.0], "finish": 200.0, "fuel": 300.0}

    def seg(at, ms):
        return {"at": at, "typ_ms": ms, "max_ms": 8 * ms, "erases": 1 if ms else 0, "programs": 2 if ms else 0}

    first = waits.press_waits(press, [list(busmodel.WHOLE)], board, 1.0,
                              flash={"segments": [seg("s", 50.0), seg("F", 0.0), seg("", 0.0)]})
    after = waits.press_waits(press, [list(busmodel.WHOLE)], board, 1.0,
                              flash={"segments": [seg("s", 0.0), seg("F", 0.0), seg("", 50.0)]})
    assert first["first_light"] == pytest.approx(after["first_light"] + 50.0)
    assert first["full_frame"] == pytest.approx(after["full_frame"] + 50.0)
    assert first["busy"] == pytest.approx(after["busy"]) and first["busy_max"] == pytest.approx(after["busy_max"])
    # the loop pass a press rides on comes before its first light
    assert waits.press_waits(press, [list(busmodel.WHOLE)], board, 1.0, pass_ms=0.7)["first_light"] == \
        pytest.approx(waits.press_waits(press, [list(busmodel.WHOLE)], board, 1.0)["first_light"] + 0.7)
    s = waits.summary([dict(first, label="a"), dict(after, label="b")])
    assert (s["flash_before_first_light"], s["flash_before_full_frame"]) == (1, 1)
    assert s["flash_before_screen_presses"] == ["a"]


def test_the_loop_costs_follow_the_firmware_from_the_ports_figures():
    """The port measured a pass and a nap on d436b82's firmware; the bench
    moves them by what the VM measures of the firmware now (cpumodel.LOOP)."""
    loop = dict(cpumodel.LOOP, vm_pass_fuel=1000, vm_nap_fuel=100)
    assert cpumodel.loop_costs(1000, 100, 1.0, loop) == (pytest.approx(0.68), pytest.approx(80.0))
    pass_ms, nap_us = cpumodel.loop_costs(500, 50, 1.0, loop)
    assert pass_ms == pytest.approx(0.34)
    assert nap_us == pytest.approx(80.0 - 50 * cpumodel.PORT_RATIO)  # 50 fuel less at 1 fuel a µs


def test_keypad_effort_against_its_floor():
    """The keypad board's effort (issue 31): presses per round from the
    keypad's key script, an adjustment's carried into the next round, the
    floor one press per question with more than one answer; its budgets
    are checked when the run has its figures."""
    from teatally_host import bench_keypad

    objs = bench.load_record(bench.BENCH_DIR / "random-s1.jsonl")
    rows = bench_keypad.measure_game(objs)
    assert len(rows) == bench.rounds_of(objs)
    assert all(p >= f >= 1 for p, f in rows)  # the action at least (a reveal may be settled)
    assert sorted(p for p, _ in rows)[len(rows) // 2] == 3
    assert sum(p for p, _ in rows) >= sum(f for _, f in rows)
    adj = [{"flamingo": "blue", "watch": "stars", "objectives": {}}, {"adjust": {"blue": {"tarts": 1}}},
           {"blue": "cat", "pink": "king"}]
    assert bench_keypad.per_round(adj, [("ok", 0), ("back", 1), ("ok", 1), ("1", 2), ("7", 2)],
                                  [0, 3, 2]) == [(4, 5)]
    names = {c["name"] for c in bench.checks({"not_reproduced": [], "completes_at_144k": True})}
    assert not names & set(bench_keypad.OPTIONAL)
    fig = {"not_reproduced": [], "completes_at_144k": True, "keypad_corpus_presses_per_round_median": 3,
           "keypad_corpus_presses_per_round_p95": 8, "keypad_full_frame_p95_ms": 49.0}
    got = {c["name"]: c["ok"] for c in bench.checks(fig) if c["name"].startswith("keypad_")}
    assert got == {"keypad_corpus_presses_per_round_median": True, "keypad_corpus_presses_per_round_p95": False,
                   "keypad_full_frame_p95_ms": True}
    lines = bench_keypad.table_lines({"keypad_corpus_games": 1, "keypad_corpus_rounds": 2,
                                      "keypad_corpus_presses_per_round_median": 3,
                                      "keypad_corpus_presses_per_round_p95": 4,
                                      "keypad_corpus_presses_per_round_mean": 3.5,
                                      "keypad_corpus_floor_per_round_median": 3,
                                      "keypad_corpus_floor_per_round_p95": 3,
                                      "keypad_corpus_floor_per_round_mean": 3, "keypad_corpus_gap_mean_pct": 16.7,
                                      "keypad_corpus_styles": {}})
    assert lines[-1] == "| **all** | 1 | 2 | 3 / 4 / 3.5 | 3 / 3 / 3 | +17 % |"
