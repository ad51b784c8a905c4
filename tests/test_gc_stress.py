"""A whole 60-round game by key presses with collections inside the presses.

The bench's long60-s12 game is played from the home menu by its key script
on the App with the virtual board, at the pressure heap (144 KB) and, on
MicroPython, with ``gc.threshold`` so low that a collection falls inside
many presses; the idle work (which collects too) runs after every fifth
press only, as when the players press on without a pause, so garbage piles
up between collections.
The frame after every press and the record left on flash must be exactly
those of the CPython run, where no collection can disturb anything.
"""

from pathlib import Path

from conftest import run_cpython, run_micropython
from teatally.journal import parse_record_lines
from teatally_host import keyscript, mpvm

BENCH = Path(__file__).resolve().parents[1] / "bench"
# Bytes allocated between automatic collections: a key press that does any
# work allocates more, so it collects at least once.
THRESHOLD = 512
IDLE_EVERY = 5

SCENARIO = r"""
import binascii
import gc
import sys
from teatally.app import App
from teatally.hw.virtual import VirtualHardware

import teatally.app
MP = sys.implementation.name == 'micropython'
teatally.app.GC_THRESHOLD = THRESHOLD  # the firmware's one GC policy, set low
app = App(VirtualHardware(FLASH))
app.boot()
while app.idle_work():
    pass
if MP:
    gc.threshold(THRESHOLD)
inside = 0
for i in range(len(KEYS)):
    before = gc.mem_alloc() if MP else 0
    app.key(KEYS[i])
    if MP and gc.mem_alloc() < before:
        inside += 1  # less in use than before the press: it collected (a lower bound)
    print(i, '%08x' % binascii.crc32(app.fb.buffer))
    if i % IDLE_EVERY == 0:
        while app.idle_work():
            pass
f = open(app.journal.archive_path('g0001.jsonl'))
# (read in pieces: the harness asks the full heap for no 4 KB block of its own)
sys.stdout.write('record ')
while True:
    piece = f.read(256)
    if not piece:
        break
    sys.stdout.write(piece)
sys.stdout.write('\n')
f.close()
if MP:
    sys.stderr.write('collections inside presses %d\n' % inside)
"""


def test_sixty_round_game_with_collections_inside_presses(tmp_path):
    record = (BENCH / "long60-s12.jsonl").read_text()
    keys = keyscript.parse((BENCH / "long60-s12.keys").read_text())
    events = [keyscript.event(t) for t, _ in keys]
    script = "THRESHOLD = %d\nIDLE_EVERY = %d\nKEYS = %r\n" % (THRESHOLD, IDLE_EVERY, events) + SCENARIO
    (tmp_path / "cpy").mkdir()
    (tmp_path / "mpy").mkdir()
    cpy = run_cpython(script, tmp_path / "cpy")
    res = run_micropython(script, str(tmp_path / "mpy"), heap=mpvm.PRESSURE_HEAP, fuel=3 * mpvm.DEFAULT_FUEL)
    assert res.stdout == cpy, "frames or record differ between CPython and MicroPython"
    lines = cpy.split("\n", len(keys))
    assert len(lines) == len(keys) + 1
    written = [obj for _, obj in parse_record_lines(lines[-1][len("record ") :].encode())]
    assert written == [obj for _, obj in parse_record_lines(record.encode())]
    inside = int(res.stderr.split("collections inside presses ")[1].split()[0])
    # collections really fell inside presses: at least one press in five
    # ended with less heap in use than it began with (a lower bound: 118 of
    # 479 seen; a press that makes the screen it leaves behind can collect
    # and still end higher)
    assert inside > len(keys) // 5, "only %d of %d presses collected" % (inside, len(keys))
