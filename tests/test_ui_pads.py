"""Score-pad screens (firmware/teatally/ui/pads.py) driven through the real App.

Each scenario builds App(VirtualHardware(FLASH)), opens the home menu and
presses keys; it prints what the screens show plus a CRC of the frame buffer
after key screens, so `dual` checks CPython and MicroPython agree on every
pixel. Rules: seeds/tea-time.md (TTM-*), seeds/tea-witches.md (TWI-*).
"""

import re

from teatally.ui import core as ui


PRELUDE = r"""
import binascii
from teatally.app import App
from teatally.hw.virtual import VirtualHardware
from teatally.buttons import E_PRESS, E_LONG, E_REPEAT, K_UP, K_DOWN, K_OK, K_BACK
from teatally.ui import pads as ui_pads

UP = E_PRESS | K_UP
DOWN = E_PRESS | K_DOWN
OK = E_PRESS | K_OK
BACK = E_PRESS | K_BACK

def boot():
    hw = VirtualHardware(FLASH)
    app = App(hw)
    app.apply_settings()
    app.home()
    app.ui.draw(hw.display)
    return app

def top(app):
    return app.ui.top()

def crc(app):
    return '%08x' % (binascii.crc32(app.hw.display.buffer) & 0xFFFFFFFF)

def press(app, *evs):
    for e in evs:
        app.key(e)

def pick(app, label):
    # move the menu selection to the item labelled `label`, then OK
    m = top(app)
    labels = [it[0] for it in m.items]
    i = labels.index(label)
    while m.sel != i:
        app.key(DOWN)
    app.key(OK)

def where(app):
    s = top(app)
    name = type(s).__name__
    if name == 'Entry':
        p = s.pad
        f = p.fields()[p.field]
        return 'Entry P%d %s=%d' % (p.player + 1, f[0], p.values[p.player][p.field])
    if name == 'Rounds':
        return 'Rounds %d/%d alice=P%d' % (s.pad.round, s.pad.rounds(), s.pad.holder + 1)
    if name == 'Message':
        return 'Message %s %r' % (s.title, s.lines)
    if name == 'Totals':
        return 'Totals %r' % s.lines
    if name == 'Menu':
        return 'Menu %s %r sel=%d' % (s.title, [it[0] for it in s.items], s.sel)
    if name == 'Result':
        return 'Result %s' % s.title
    return name

def set_value(app, v):
    # reach v from the shown value: taps for small steps, a held key for long runs
    s = top(app)
    p = s.pad
    cur = p.values[p.player][p.field]
    while cur != v:
        if v - cur > 3:
            app.key(E_REPEAT | K_UP)
        elif cur - v > 3:
            app.key(E_REPEAT | K_DOWN)
        elif v > cur:
            app.key(UP)
        else:
            app.key(DOWN)
        cur = p.values[p.player][p.field]

def enter(app, values):
    for v in values:
        set_value(app, v)
        app.key(OK)

def result(app):
    s = top(app)
    print(where(app))
    for row in s.rows:
        if isinstance(row, str):
            print('  ' + row)
        else:
            print('  %-2s|%s' % (row[0], '|'.join(row[1])))
    print('  crc', crc(app))
"""


def lines_of(out, start):
    """The indented lines that follow the line starting with `start`."""
    ls = out.splitlines()
    i = next(k for k, ln in enumerate(ls) if ln.startswith(start))
    got = []
    for ln in ls[i + 1 :]:
        if not ln.startswith("  "):
            break
        got.append(ln[2:])
    return got


TEATIME = (
    PRELUDE
    + r"""
app = boot()
pick(app, 'Tea Time')
print(where(app))
pick(app, '2 players')
print(where(app))           # the setup help (TTM-SETUP-1..3)
print('crc setup', crc(app))
press(app, OK)
print(where(app))
print('crc round', crc(app))
# five rounds; Alice changes hands after rounds 2 and 4 (TTM-PLAY-1)
takers = [0, 1, 1, 0, 0]
for r in range(5):
    press(app, OK)
    if r == 0:
        print(where(app))
    pick(app, 'P%d' % (takers[r] + 1))
    print(where(app))
print('crc entry', crc(app))
# P1: the rulebook example, columns 0,0,2,1,4,6 + Alice (TTM-SCORE-3)
enter(app, [0, 0, 2, 1, 4])
set_value(app, 6)
print(where(app), top(app).describe('march_hare', 6), 'subtotal', top(app).pad.subtotal(0, 5))
print('crc field', crc(app))
press(app, OK)
print(where(app))             # Alice pre-set from the last round
enter(app, [1])
# P2: 0,0,3,5,4,0 -- a miscount: 5 white rabbits in all, odd (TTM-VALID-4)
enter(app, [0, 0, 3, 5, 4, 0, 0])
print(where(app))
print('crc totals', crc(app))
press(app, BACK)              # correct it: back on the entries (P2's Alice)
print(where(app))
press(app, BACK, BACK, BACK, BACK)
print(where(app))
set_value(app, 2)             # 0,0,2,5,4,0 = 5+5+3+15+10+5 = 43: a tie, shared (TTM-WIN-2)
press(app, OK, OK, OK, OK, OK)
result(app)
# BACK on the result goes back to the last field to fix it
press(app, BACK)
print(where(app))
set_value(app, 1)
press(app, OK)
print(where(app))             # two Alice holders: refused (TTM-VALID-3)
press(app, OK)
print(where(app))
set_value(app, 0)
press(app, OK)
print(where(app))
press(app, DOWN, DOWN, DOWN, DOWN, DOWN, DOWN, DOWN, DOWN)
print('crc scrolled', crc(app))
press(app, OK)                # done: the pad is gone
print(where(app))
"""
)


def test_teatime_full_game(dual):
    """TTM-SETUP-1..3 help, TTM-PLAY-1 rounds and Alice, TTM-PAD-1 entry,
    TTM-SCORE-1..3 (the rulebook's 43), TTM-VALID-4 a miscount warned and
    corrected, TTM-WIN-1/2 a tie with the Alice holder shared, TTM-VALID-3."""
    out = dual(TEATIME)
    print(out)
    assert "Menu Tea Time ['2 players', '3 players', '4 players'] sel=0" in out
    assert "Message Setup, 2 players ['5 rounds', 'Grid 3 x 4', 'All 60 cards'," in out
    # the first holder is drawn by the hardware's random source
    first = re.search(r"Rounds 1/5 alice=P(\d)", out)
    assert first
    assert "Menu Who took Alice? ['P1', 'P2'] sel=%d" % (int(first.group(1)) - 1) in out
    assert "Rounds 2/5 alice=P1" in out
    assert "Rounds 3/5 alice=P2" in out
    assert "Rounds 5/5 alice=P1" in out
    assert "Entry P1 hatter=0" in out
    assert "Entry P1 march_hare=6 = 15 points subtotal 39" in out
    assert "Entry P1 alice=1" in out
    warning = [
        "white_rabbit: the",
        "players hold 5 in",
        "all, an odd number; a",
        "finished game leaves",
        "the box's 10 less",
        "cancelled pairs",
        "OK: score anyway",
        "BACK: correct",
    ]
    assert "Totals %r" % warning in out
    assert "Entry P2 alice=0\nEntry P2 white_rabbit=3\n" in out
    got = lines_of(out, "Result Tea Time result")
    assert re.fullmatch("crc [0-9a-f]{8}", got.pop())
    assert got == [
        "1. P1  43 * A",
        "1. P2  43 *",
        "Winners: P1 P2",
        "a tie: shared",
        "*: winner, A: Alice",
        "  |P1|P2",
        "Ha|5|5",
        "Ch|5|5",
        "WR|3|3",
        "Ca|1|15",
        "Qu|10|10",
        "MH|15|5",
        "Al|4|0",
        "= |43|43",
        "Ha hatter, Qu queen",
        "Ch cheshire cat",
        "WR white rabbit",
        "Ca caterpillar",
        "MH march hare",
        "Al alice, = total",
        "OK: done  BACK: fix",
    ]
    assert "Entry P2 alice=0" in out
    assert "Message Check ['more than one player', 'holds Alice (players', '1, 2)']" in out
    assert "Entry P2 alice=1" in out
    assert out.count("Result Tea Time result") == 2
    assert "Menu Tea Tally ['New Tea for 2', 'Tea Time'" in out.splitlines()[-1]


SHARED = (
    PRELUDE
    + r"""
app = boot()
pick(app, 'Tea Time')
pick(app, '3 players')
print(where(app))
press(app, OK)
press(app, DOWN)            # score now, skipping the round counter
print(where(app))
holder = top(app).pad.holder
# P1 and P2 all zero: 30 each; P3 one of each and Alice: 10 (TTM-WIN-2).
# Scored early: one card of each character in all, odd (TTM-VALID-4)
for p in range(3):
    enter(app, [0, 0, 0, 0, 0, 0] if p < 2 else [1, 1, 1, 1, 1, 1])
    set_value(app, 1 if p == 2 else 0)
    press(app, OK)
print(where(app))
press(app, OK)                # score anyway
result(app)
"""
)


def test_teatime_shared_win_three_players(dual):
    """TTM-SETUP-3 (3 players: 2 of each back in the box, limit 8),
    TTM-VALID-4 totals of a game scored early, accepted, TTM-WIN-2 shared win."""
    out = dual(SHARED)
    warning = "hatter: the players hold 1 in all, an odd number; a finished game leaves the box's 8 less"
    warning += " cancelled pairs"
    assert "Totals %r" % (ui.wrap(warning) + ["OK: score anyway", "BACK: correct"]) in out
    assert "Message Setup, 3 players ['3 rounds', 'Grid 4 x 4', 'Put back 2 of each', 'character.'," in out
    assert "Entry P1 hatter=0" in out
    got = lines_of(out, "Result Tea Time result")
    assert got[:3] == ["1. P1  30 *", "1. P2  30 *", "3. P3  10 A"]
    assert got[3:6] == ["Winners: P1 P2", "a tie: shared", "*: winner, A: Alice"]
    assert "= |30|30|10" in got


WITCHES = (
    PRELUDE
    + r"""
app = boot()
pick(app, 'Tea Witches')
print(where(app))
pick(app, '3 players')
print(where(app))
# P1: the rulebook example A2 B1 C10 D3 E20 F18 G12 H8 I2 = 76, track 7 (TWI-TOTAL-1)
P1 = [5, 3, 10, 3, 5, 3, 3, 2, 1, 1, 7]
P2 = [6, 2, 10, 2, 5, 3, 3, 2, 1, 1, 20]  # 76 too, one coupon fewer
P3 = [4, 2, 10, 3, 5, 3, 3, 0, 2, 1, 9]   # 76, same coupons, further on the track
set_value(app, 5)
print(where(app), top(app).describe('coins', 5))
print('crc coins', crc(app))
press(app, OK)
for k in range(1, 11):
    set_value(app, P1[k])
    key = top(app).pad.fields()[k][0]
    print(key, top(app).describe(key, P1[k]), 'total', top(app).pad.subtotal(0, k))
    press(app, OK)
enter(app, P2)
enter(app, P3)
result(app)
"""
)


def test_witches_tie_breaks(dual):
    """TWI-A-1..TWI-I-1 per field, TWI-TOTAL-1 (the rulebook's 76), TWI-PAD-1,
    TWI-WIN-1, TWI-TIE-1 (coupons) then TWI-TIE-2 (track) decide."""
    out = dual(WITCHES)
    assert "Menu Tea Witches ['1 player', '2 players', '3 players', '4 players'] sel=1" in out
    assert "Entry P1 coins=0" in out
    assert "Entry P1 coins=5 A: 2 prestige" in out
    assert "teas B: 1 prestige total 3" in out
    assert "togo2 H: 4 prestige total 70" in out
    assert "togo4 H: 8 prestige total 74" in out
    assert "special_teas I: 2 prestige total 77" not in out
    assert "special_teas I: 2 prestige total 76" in out
    assert "loyal_track breaks ties only total 76" in out
    got = lines_of(out, "Result Tea Witches result")
    # the tie broken on the track: P3 first, alone (issue 30), the rest share 2.
    assert got[:6] == ["1. P3  76 *", "2. P1  76", "2. P2  76", "Winner: P3", "tie broken: track", "*: winner"]
    assert got[6:18] == [
        "  |P1|P2|P3",
        "A |2|3|2",
        "B |1|1|1",
        "C |10|10|10",
        "D |3|2|3",
        "E |20|20|20",
        "F |18|18|18",
        "G |12|12|12",
        "H |8|8|8",
        "I |2|2|2",
        "= |76|76|76",
        "Tr|7|20|9",
    ]


COUPONS = (
    PRELUDE
    + r"""
app = boot()
pick(app, 'Tea Witches')
pick(app, '2 players')
enter(app, [5, 3, 10, 3, 5, 3, 3, 2, 1, 1, 7])
enter(app, [6, 2, 10, 2, 5, 3, 3, 2, 1, 1, 20])
result(app)
press(app, OK)
app = boot()
pick(app, 'Tea Witches')
pick(app, '1 player')
press(app, E_LONG | K_OK)     # LONG OK: the rest of the player's fields stay 0
result(app)
"""
)


def test_witches_coupons_and_solo(dual):
    """TWI-TIE-1: equal prestige, more coupons wins even with a shorter track;
    TWI-SETUP-1: a solo pad is scored and its player wins."""
    out = dual(COUPONS)
    parts = out.split("Result Tea Witches result")
    first = lines_of("Result" + parts[1], "Result")
    assert first[:4] == ["1. P1  76 *", "2. P2  76", "Winner: P1", "tie broken: coupons"]
    solo = lines_of("Result" + parts[2], "Result")
    assert solo[:2] == ["1. P1   0 *", "Winner: P1"]


PERSIST = (
    PRELUDE
    + r"""
import os
app = boot()
pick(app, 'Tea Witches')
pick(app, '2 players')
enter(app, [5, 3, 10, 3, 5, 3, 3, 2, 1, 1, 7])
enter(app, [6, 2])
set_value(app, 9)            # not confirmed: lost with the power
print(where(app))
print('crc before', crc(app))
# power cut: a new App on the same flash
app = boot()
print(where(app))
pick(app, 'Resume pad')
print(where(app))
print('crc after', crc(app))
press(app, BACK, BACK)
print(where(app))
press(app, BACK)
print(where(app))            # back into the previous player's last field
for i in range(11):
    press(app, BACK)
print(where(app))            # BACK past the first field: home, pad kept
print(sorted([n for n in os.listdir(FLASH) if n.startswith('pad')]))
# a damaged pad file is dropped with a notice
f = open(FLASH + '/pad.json', 'w')
f.write('{"kind": "witches", "n": 9}')
f.close()
app = boot()
pick(app, 'Resume pad')
print(where(app))
press(app, OK)
print(where(app))
print(sorted([n for n in os.listdir(FLASH) if n.startswith('pad')]))
# Tea Time rounds survive too
app = boot()
pick(app, 'Tea Time')
pick(app, '4 players')
press(app, OK, OK)
pick(app, 'P3')
app = boot()
pick(app, 'Resume pad')
print(where(app))
"""
)


def test_pad_survives_power_cut(dual):
    """The pad in progress is saved after each confirmed entry (TWI-PAD-1,
    TTM-PLAY-1 rounds too) and a damaged pad file is dropped."""
    out = dual(PERSIST)
    lines = out.splitlines()
    assert lines[0] == "Entry P2 upgrades=9"
    assert lines[2].startswith("Menu Tea Tally ['Resume pad', 'New Tea for 2'")
    assert lines[3] == "Entry P2 upgrades=0"
    assert lines[5] == "Entry P2 coins=6"
    assert lines[6] == "Entry P1 loyal_track=7"
    assert lines[7].startswith("Menu Tea Tally ['Resume pad',")
    assert lines[8] == "['pad.json']"
    assert lines[9].startswith("Message Pad ['The saved pad was', 'unreadable.']")
    assert lines[10].startswith("Menu Tea Tally ['New Tea for 2'")
    assert lines[11] == "[]"
    assert lines[12] == "Rounds 2/3 alice=P3"
