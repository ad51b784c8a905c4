"""The bench's flash model (teatally_host.flashmodel): the guest's trace of
file operations, its replay on littlefs at the rp2 geometry, checked
against the real port's counts."""

import json
from pathlib import Path

import pytest

from teatally import journal
from teatally_host import bench, benchvm, effort, flashmodel, keyscript, mpvm

RECORD = benchvm.BENCH_DIR / "long60-s12.jsonl"


@pytest.fixture(scope="module")
def fw(tmp_path_factory):
    out = tmp_path_factory.mktemp("fw")
    benchvm.build_firmware(out)
    return out


@pytest.fixture(scope="module")
def image(fw):
    return flashmodel.firmware_files(fw)


def _flat(steps):
    return [op for step in steps for op in step]


def test_parse_trace_reads_every_operation():
    text = "o:1,game.tmp,wb;w:1,152;f:1;c:1;r:game.tmp,game.jsonl;x:pad.json;m:games;d:old;o:2,board.txt,r"
    assert flashmodel.parse_trace(text) == [
        ("o", 1, "game.tmp", "wb"), ("w", 1, 152), ("f", 1), ("c", 1), ("r", "game.tmp", "game.jsonl"),
        ("x", "pad.json"), ("m", "games"), ("d", "old"), ("o", 2, "board.txt", "r"),
    ]
    assert flashmodel.parse_trace("") == []
    with pytest.raises(ValueError):
        flashmodel.parse_trace("q:1")


def test_split_press_separates_idle_work_from_the_press():
    assert flashmodel.split_press("x:a;p;o:1,b,ab;c:1") == ("x:a", "o:1,b,ab;c:1")
    assert flashmodel.split_press("p") == ("", "")
    assert flashmodel.split_press("p;f:1") == ("", "f:1")


def test_the_rp2_configuration():
    # _boot.py's progsize=256, vfs_lfs.c's readsize/lookahead defaults,
    # vfs_lfsx.c's cache and block_cycles, RPI_PICO's 1408 KB
    c = flashmodel.LFS_CONFIG
    assert (c["block_size"], c["prog_size"], c["read_size"], c["lookahead_size"]) == (4096, 256, 32, 32)
    assert c["cache_size"] == min(c["block_size"], 4 * max(c["read_size"], c["prog_size"]))
    assert c["block_count"] * c["block_size"] == 1408 * 1024


def test_a_written_file_costs_pages_and_its_sync_a_commit():
    m = flashmodel.FlashModel()
    one = m.play("o:1,a.txt,wb;w:1,1000;f:1;c:1")
    assert one["syncs"] == 2 and one["bytes_written"] == 1000 and one["appends"] == 0
    assert one["programs"] >= 1000 // 256
    assert m.play("") == {"erases": 0, "programs": 0, "prog_calls": 0, "syncs": 0, "bytes_written": 0,
                          "appends": 0}
    # a read is no flash work
    assert m.play("o:2,a.txt,rb")["programs"] == 0


def test_long60_s12_gives_the_real_ports_counts(image):
    # The real port (MicroPython 1.28 rp2, eed9b5f) measured 64 sector
    # erases and 220 programs for the game, 58 presses erasing. Its
    # "programs" are littlefs's prog calls (one flash_range_program each, up
    # to the 1 KB cache): 256-byte pages would be ~600 (every sync copies the
    # file's last block). Same littlefs code and configuration: the counts
    # agree exactly here; the tolerance (2 erases, 5 % of calls) leaves room
    # for the real image's layout (mpremote's copy order, mip's driver size)
    # without hiding a wrong pattern (no relocation: ~2 erases; an extra
    # commit per sync: 70+ erases, 330+ calls).
    m = flashmodel.FlashModel(image)
    per = [m.play(step) for step in flashmodel.journal_ops(bench.load_record(RECORD))]
    erases = sum(c["erases"] for c in per)
    calls = sum(c["prog_calls"] for c in per)
    assert abs(erases - 64) <= 2
    assert abs(calls - 220) <= 11
    assert abs(sum(1 for c in per if c["erases"]) - 58) <= 2
    assert sum(c["programs"] for c in per) > 2 * calls  # pages: what the flash's time is charged on


def test_sixty_synced_appends_relocate_the_last_block(image):
    # the littlefs-python check: 60 short lines appended with a sync
    # each cost 62 erases and 558 pages. Here the record's 60 round lines
    # after its setup line, beside the firmware. The check's exact lines and
    # starting image are not known, and they move the counts (a fresh
    # filesystem and 70-byte lines: 58 erases, 571 pages): 3 erases and 10 %
    # of the pages; without the relocation an append would cost no erase.
    setup, *steps = flashmodel.journal_ops(bench.load_record(RECORD), archive=False)
    assert len(steps) == 60
    m = flashmodel.FlashModel(image)
    m.play(setup)
    c = m.play(_flat(steps))
    assert abs(c["erases"] - 62) <= 3
    assert abs(c["programs"] - 558) <= 56
    assert c["appends"] == 60


def test_flash_time_at_the_datasheets_times():
    counts = {"erases": 2, "programs": 10, "syncs": 2}
    assert flashmodel.flash_ms(counts) == pytest.approx(2 * 45 + 10 * 0.4)
    assert flashmodel.flash_ms(counts, "max") == pytest.approx(2 * 400 + 10 * 3)
    assert flashmodel.busy_ms(counts) == pytest.approx(flashmodel.flash_ms(counts) + 10 * 0.58)


def test_games_that_fit_beside_the_firmware(image):
    objs = bench.load_record(RECORD)
    archive = sum(c["bytes_written"] for c in map(flashmodel.FlashModel().play, flashmodel.journal_ops(objs)))
    n = flashmodel.games_that_fit(archive, image)
    assert n >= 100
    assert flashmodel.games_that_fit(3 * archive, image) < n
    # the firmware's blocks are counted: an empty filesystem keeps more
    assert flashmodel.games_that_fit(archive, {}) > n


# -- on the VM ---------------------------------------------------------------------

JOURNAL_GUEST = """\
import json
from teatally import journal
from teatally.rules import t42
objs = json.loads(%r)
j = journal.Journal("/flash")
j.start(objs[0])
g = t42.Game(objs[0])
for o in objs[1:]:
    j.append(o)
    g.apply(o)
j.archive(t42.score(g.state))
print("TRACE " + (flash_trace() if "flash_trace" in globals() else ""))
print("AGAIN " + (flash_trace() if "flash_trace" in globals() else ""))
"""


def _journal_run(objs, prelude):
    import tempfile

    with tempfile.TemporaryDirectory() as flash:
        res = mpvm.run(prelude + JOURNAL_GUEST % json.dumps(objs), flash_dir=flash).check()
        files = {p.relative_to(flash).as_posix(): p.read_bytes() for p in Path(flash).rglob("*") if p.is_file()}
    out = res.stdout.splitlines()
    assert "AGAIN " in out  # taking the log clears it
    return [x[6:] for x in out if x.startswith("TRACE ")][0], files


def test_the_trace_lists_the_journals_operations_in_order():
    objs = bench.load_record(RECORD)[:4]
    trace, files = _journal_run(objs, flashmodel.TRACE_PRELUDE)
    ops = flashmodel.parse_trace(trace)
    # what journal.py does, as journal_ops plays it host-side
    assert ops == _flat(flashmodel.journal_ops(objs))
    assert ops[:6] == [("o", 1, "game.tmp", "wb"), ("w", 1, ops[1][2]), ("w", 1, 10), ("f", 1), ("c", 1),
                       ("r", "game.tmp", journal.GAME)]
    assert ("m", journal.ARCHIVE_DIR) in ops
    # the trace changes nothing on flash
    plain, plain_files = _journal_run(objs, "")
    assert plain == "" and files == plain_files


def test_the_bench_game_traced_on_the_vm(fw, image):
    # the bench's game with the trace: the same presses write as the record
    # says (62: the setup, 60 rounds, the archive), each after its screen
    keys = keyscript.parse(keyscript_path().read_text())
    run = flashmodel.trace_presses(fw, [keyscript.event(t) for t, _ in keys])
    assert run["code"] == 0, run["stderr"]
    assert run["boot"] == "" and all(before == "" for before, _ in run["traces"])
    m = flashmodel.FlashModel(image)
    counts = [m.play(during) for _, during in run["traces"]]
    assert sum(c["erases"] for c in counts) == sum(
        c["erases"] for c in map(flashmodel.FlashModel(image).play, flashmodel.journal_ops(bench.load_record(RECORD))))
    writes = [i for i, c in enumerate(counts) if c["syncs"]]
    assert len(writes) == 62
    # every press shows its screen before its flash work (issue 32): its
    # trace has no program or erase before its "F" mark (App.finish)
    m = flashmodel.FlashModel(image)
    for i, (_, during) in enumerate(run["traces"]):
        segments = flashmodel.press_flash(m, during)["segments"]
        at = [s["at"] for s in segments]
        assert "F" in at and at.count("s") >= 1, (i, at)
        assert not flashmodel.writes_before(segments, at.index("F")), (i, segments)


def keyscript_path():
    return effort.keys_path(RECORD)
