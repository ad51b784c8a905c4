"""Direct entry on the keypad board (issue 31), on both interpreters
(``dual``): each question's answers keyed by what they mean
(ui.keypad.answer_keys, ui.core.keyed), one key answering at once (no
OK), number pickers and score pads taking digits, a wrong key one BACK
away, undo and redo as on the other boards; a whole bench game entered on
the keypad records the same game, in the simulator byte for byte."""

import json
from pathlib import Path

import pytest
from teatally_host import keyscript

BENCH = Path(__file__).resolve().parents[1] / "bench"

PRELUDE = r"""
from teatally.app import App
from teatally.hw.virtual import VirtualHardware
from teatally.buttons import E_PRESS, E_LONG, K_UP, K_DOWN, K_OK, K_BACK, K_D0
from teatally.hw.keypad import K_STAR, K_HASH
from teatally.ui import core, keypad
from teatally.rules import t42
from teatally import jsonc

OK = E_PRESS | K_OK
BACK = E_PRESS | K_BACK
STAR = E_PRESS | K_STAR
HASH = E_PRESS | K_HASH

def digit(d):
    return E_PRESS | (K_D0 + d)

def boot():
    app = App(VirtualHardware(FLASH, 'keypad'))
    app.boot()
    return app

def where(app):
    t = app.ui.top()
    name = type(t).__name__
    title = getattr(t, 'title', '')
    if name in ('Menu', 'KeyMenu'):
        keys = getattr(t, 'keys', None) or [0] * len(t.items)
        shown = ' '.join(['%s=%s' % (keypad.KEYCHARS[keypad.key_shown(k)].decode() if k else '-', it[1])
                          for k, it in zip(keys, t.items)])
        return '%s [%s] sel=%s' % (title, shown, t.items[t.sel][1])
    if name in ('Picker', 'KeyPicker'):
        return '%s %d..%d value=%d' % (title, t.lo, t.hi, t.value)
    if name == 'Entry':
        p = t.pad
        f = p.fields()[p.field]
        return 'Entry P%d %s=%d' % (p.player + 1, f[0], p.values[p.player][p.field])
    return '%s %s' % (name, title)

def press(app, *evs):
    for e in evs:
        app.key(e)
    app.ui.draw(app.fb)
    print('  ' + where(app))

def lines(app):
    return [jsonc.dumps(a) for a in app.game.actions]
"""

ROUND = r"""
app = boot()
print('home')
press(app, OK)                             # home: New Tea for 2 (by cursor)
press(app, digit(1))                       # the flamingo: 1 = Blue (Pink's king may take it)
press(app, digit(4))                       # the watch: 4 = the flamingo space
press(app, digit(1), digit(2), digit(3), digit(4))
press(app, digit(5))                       # the objectives 4..8 by their keys
press(app, OK)                             # start
print('board')
press(app, HASH)                           # no card is '#': the round opens, nothing answered
press(app, digit(5))                       # Blue: the knave
press(app, BACK)                           # a wrong key is one BACK away: Blue again, on the knave
press(app, digit(3))                       # Blue: the guards
press(app, digit(7))                       # Pink: the king -> the winner's action
press(app, digit(3))                       # no buy of 3 offered: nothing happens
press(app, digit(1))                       # the king's take: 1 the flamingo
print('lines', lines(app))
press(app, E_LONG | K_BACK)                # undo (LONG D)
print('lines', lines(app))
press(app, E_LONG | K_OK)                  # redo (LONG C)
print('lines', lines(app))
press(app, digit(8), digit(2))             # Blue alice, Pink dormouse: Blue wins by 6
press(app, digit(6))                       # Buy 6
print('lines', lines(app)[-1])
press(app, digit(4), digit(9), digit(0))   # executioner, queen: Pink wins, nothing
print('lines', lines(app)[-1])
press(app, digit(9), digit(6))             # queen beats caterpillar: '#' the effect, then its pile
press(app, HASH)
press(app, digit(6))                       # pile 6: the stars printed on its card, 0..9: one key
press(app, digit(2))
print('lines', lines(app)[-1])
"""


def _out(dual):
    return dual(PRELUDE + ROUND)


def test_each_answer_by_its_key(dual):
    out = _out(dual)
    ls = out.splitlines()
    # the setup by keys: 1 Blue, 2 Pink, 0 random; the watch's spaces 1-5 clockwise; the objectives 1-9
    assert ls[1] == "  Who has the flamingo? [1=blue 2=pink 0=random] sel=blue"
    assert ls[2].endswith("[0=random 1=stars 2=destroy 3=reveal 4=flamingo 5=copy] sel=random")
    assert ls[3].startswith("  Objective above 4 [1=hourglasses 2=tarts 3=deck 4=destroyed 5=most:executioner")
    # '#' on the board: the round opens on Blue's card, nothing answered;
    # every card by its printed value
    cards = "[1=cat 2=dormouse 3=guards 4=executioner 5=knave 6=caterpillar 7=king 8=alice 9=queen]"
    i = ls.index("board")
    assert ls[i + 1] == "  Blue reveals %s sel=cat" % cards  # the first row (issue 30)
    assert ls[i + 2].startswith("  Pink reveals ")  # 5: Blue's knave, no OK
    # a wrong key is one BACK away: Blue's question again, its cursor not on
    # the answer taken back (issue 30: never the default again)
    assert ls[i + 3] == "  Blue reveals %s sel=cat" % cards
    assert ls[i + 4].startswith("  Pink reveals ")
    # the king wins: his takes 1 and 2, the buys by their pile's value, 0 nothing
    act = ("  Pink wins by 4 [1=('take', 'flamingo') 2=('take', 'tarts') 7=7 6=6 5=5 4=4 0=none]"
           " sel=('take', 'flamingo')")
    assert ls[i + 5] == act
    assert ls[i + 6] == act  # 3: no answer has it, nothing happens
    lines = [ln for ln in ls if ln.startswith("lines")]
    first = """lines ['{"blue": "guards", "effect": {"take": "flamingo"}, "hourglasses": 0, "pink": "king"}']"""
    assert lines[0] == first
    assert lines[1] == "lines []"  # LONG D: undone
    assert lines[2] == first  # LONG C: redone
    # the action menu starts on its first row, the effect (issue 30)
    assert "  Blue wins by 6 [#=effect 7=7 6=6 5=5 4=4 0=none] sel=effect" in ls
    assert lines[3] == 'lines {"blue": "alice", "buy": 6, "hourglasses": 0, "pink": "dormouse"}'
    assert lines[4] == 'lines {"blue": "executioner", "hourglasses": 0, "pink": "queen"}'
    # the queen's effect: '#', then the pile by its value (a buy's keys), then its stars by one key
    assert "  Blue queen: pile? [4=4 5=5 6=6 7=7 8=8] sel=4" in ls
    assert "  Stars on caterpillar 0..9 value=0" in ls
    queen = '{"blue": "queen", "effect": {"pile": 6, "stars": 2}, "hourglasses": 0, "pink": "caterpillar"}'
    assert lines[5] == "lines " + queen


PICKERS = r"""
class UI:
    keypad = True
    dirty = False
    def pop(self):
        print('  popped')
got = []
ui = UI()
def done(ui, v):
    got.append(v)
def show(p, *evs):
    for e in evs:
        p.key(ui, e)
    print('  %d entry=%d got=%r' % (p.value, p.entry, got))
print('one digit')
p = keypad.KeyPicker('t', 0, 5, 0, done)
show(p, digit(7))                 # out of range: nothing
show(p, digit(3))                 # answered at once
print('two digits')
del got[:]
p = keypad.KeyPicker('t', 0, 18, 0, done)
show(p, digit(1))                 # 1 may go on (10..18): waits
show(p, digit(2))                 # 12: no digit more fits: answered
del got[:]
p = keypad.KeyPicker('t', 0, 18, 0, done)
show(p, digit(4))                 # 40 > 18: 4 is the answer
del got[:]
p = keypad.KeyPicker('t', 0, 18, 0, done)
show(p, digit(1), OK)             # 1 then OK
print('signed')
del got[:]
p = keypad.KeyPicker('t', -12, 20, 0, done)
show(p, digit(1), digit(2), STAR) # -12
show(p, digit(3))                 # -123 is out: a new number, its sign kept: -3
show(p, STAR, OK)                 # 3
del got[:]
p = keypad.KeyPicker('t', -12, 20, 0, done)
show(p, digit(2), digit(5))       # 25 > 20: starts again at 5
show(p, STAR, STAR, OK)
del got[:]
p = keypad.KeyPicker('t', -12, 5, 0, done)
show(p, digit(7))                 # only -7 is in the range: -7
show(p, digit(1), digit(2), OK)   # -71 is out: -1 (the sign kept), then -12
print('typed', keypad.typed(0, -5, 5, 0, 10), keypad.typed(3, 0, 5, 1, 10), keypad.typed(0, 0, 9, 0, 11))
print('final', keypad.final(0, 0, 18), keypad.final(1, 0, 18), keypad.final(2, 0, 18), keypad.final(2, -3, 18))
print('shown', keypad.key_shown(3), keypad.key_shown(1 << keypad.KEY_HASH), keypad.key_shown(0))
r = keypad
def card_keys(cards):
    out = []
    for c, m in zip(cards, r.answer_keys(t42.ASK_CARD, [(None, c) for c in cards])):
        out.append('%s=%s' % (c, keypad.KEYCHARS[keypad.key_shown(m)].decode()) + ('+0' if m & 1 and m != 1 else ''))
    return ' '.join(out)
print('cards', card_keys(['cat', 'rabbit', 'king']))
print('cards', card_keys(['rabbit', 'king']))
print('cards', card_keys(['cat', 'queen']))
m = r.answer_keys(t42.ASK_CARD, [(None, 'rabbit'), (None, 'king')])
print('rabbit alone answers', m[0] & 1 != 0, m[0] & 2 != 0)
print('spaces', r.answer_keys(t42.ASK_SPACE, [(None, s) for s in t42.SPACES]))
print('take', r.answer_keys(t42.ASK_TAKE, [(None, 'flamingo'), (None, 'tarts')]))
print('copy', r.answer_keys(t42.ASK_COPY, [(None, False), (None, True)]))
print('pile', r.answer_keys(t42.ASK_PILE, [(None, 4), (None, 8)]))
"""


def test_pickers_and_keys_by_meaning(dual):
    out = dual(PRELUDE + PICKERS)
    print(out)
    blocks = out.split("\n")
    assert "  0 entry=0 got=[]" in blocks and "  3 entry=0 got=[3]" in blocks
    assert "  1 entry=1 got=[]" in blocks and "  12 entry=2 got=[12]" in blocks
    assert "  4 entry=1 got=[4]" in blocks
    assert "  1 entry=0 got=[1]" in blocks  # 1, then OK
    # signed: digits, then '*'; a digit that would leave the range starts a new number
    assert "  -12 entry=2 got=[]" in blocks and "  -3 entry=1 got=[]" in blocks and "  3 entry=0 got=[3]" in blocks
    assert "  5 entry=1 got=[]" in blocks and "  5 entry=0 got=[5]" in blocks
    assert "  -7 entry=1 got=[]" in blocks and "  -12 entry=0 got=[-12]" in blocks
    assert "typed (0, 0) (3, 1) (0, 0)" in out
    assert "final True False True False" in out
    assert "shown 1 11 -1" in out
    # both can be there: 1 the cat, 0 the rabbit; the rabbit alone: 1 (and 0)
    assert "cards cat=1 rabbit=0 king=7" in out
    assert "cards rabbit=1+0 king=7" in out
    assert "cards cat=1 queen=9" in out
    assert "rabbit alone answers True True" in out
    assert "spaces [2, 4, 8, 16, 32]" in out  # 1-5 clockwise from stars
    assert "take [2, 4]" in out
    assert "copy [2048, 1]" in out  # '#' apply, 0 decline
    assert "pile [16, 256]" in out


PAD = r"""
app = VirtualHardware(FLASH, 'keypad')
app = App(app)
app.apply_settings()
app.home()
def pick(label):
    m = app.ui.top()
    i = [it[0] for it in m.items].index(label)
    while m.sel != i:
        app.key(E_PRESS | K_DOWN)
    app.key(OK)
pick('Tea Time')
pick('2 players')
app.key(OK)
for r in range(5):
    app.key(OK)
    pick('P1')
print(where(app))
press(app, digit(0))
press(app, digit(0))
press(app, digit(2))
press(app, digit(1))
press(app, digit(4))
press(app, digit(6))
print('values', app.ui.top().pad.values[0])
"""


def test_score_pad_takes_digits(dual):
    out = dual(PRELUDE + PAD)
    print(out)
    ls = out.splitlines()
    # each field's number by its digit, confirmed at once where no digit more
    # could follow (0; 2 where 20 is past the field's most); 1 waits for a
    # second digit, 4 after it would pass the most: a new number, final
    assert ls[1:] == [
        "  Entry P1 cheshire_cat=0",
        "  Entry P1 white_rabbit=0",
        "  Entry P1 caterpillar=0",
        "  Entry P1 caterpillar=1",
        "  Entry P1 queen=0",
        "  Entry P1 march_hare=0",
        "values [0, 0, 2, 4, 6, 0, 1]",  # (Alice: pre-set from the last round)
    ]


def test_a_bench_game_on_the_keypad_records_the_same_game(dual):
    """random-s1 (copies, piles, spaces, hourglasses, stars over 9) entered
    by the keypad's keys on both interpreters: the same record as the
    bench's, a median of 3 presses a round."""
    objs = [json.loads(ln) for ln in (BENCH / "random-s1.jsonl").read_text().splitlines()]
    presses = keyscript.presses_for(objs, keypad=True)  # (raises unless the device recorded objs)
    events = [keyscript.event(t) for t, _ in presses]
    out = dual(
        PRELUDE
        + "app = boot()\nfor e in %r:\n    app.key(e)\n    while app.idle_work():\n        pass\n" % events
        + "print('setup', jsonc.dumps(app.game.setup) if app.game else None)\n"
        + "import os\nprint('archived', os.listdir(FLASH + '/games'))\n"
    )
    assert "archived" in out
    per_round = {}
    for _, line in presses:
        if line > 0:
            per_round[line] = per_round.get(line, 0) + 1
    counts = sorted(per_round.values())
    assert counts[len(counts) // 2] == 3
    assert all(t in keyscript.TOKENS or t.lower() in keyscript.TOKENS for t, _ in presses)


def test_the_simulator_journal_is_byte_identical(tmp_path):
    """long60-s12 entered on the keypad in the simulator (`teatally sim
    --board pico_keypad`, digit tokens) leaves the very bytes the 4-key
    board's key script leaves."""
    from teatally_host import sim

    objs = [json.loads(ln) for ln in (BENCH / "long60-s12.jsonl").read_text().splitlines()]
    text = keyscript.to_text(keyscript.presses_for(objs, keypad=True), objs)
    assert " hash" in text and "\n3 8 6\n" in text
    flashes = []
    for board, keys in (("pico_keypad", text), ("pico_ssd1306", (BENCH / "long60-s12.keys").read_text())):
        d = tmp_path / board
        s = sim.Sim(board, d, sim.ScriptInput(sim.parse_keys(keys)))
        assert s.run().code == 0
        flashes.append(sorted((p.relative_to(d).as_posix(), p.read_bytes()) for p in (d / "games").iterdir()))
    assert flashes[0] == flashes[1] and flashes[0]


# -- golden screenshots of the keypad's screens (the key beside each answer) -------
# (name, language, presses of random-s1's keypad script played first): the
# screen each kind of question shows on this board
KEYPAD_GOLDEN = (
    ("board", "en", 9),  # the status board: a digit answers Blue's card
    ("card", "en", 10),  # Pink's card: each by its value
    ("action", "en", 11),  # the winner's action: '#' the effect, buys 4-8, 0 nothing
    ("pile", "en", 12),  # the queen's pile after '#': by its value
    ("stars", "en", 13),  # stars 0..9: one digit
    ("hourglasses", "en", 43),  # hourglasses 0..n: one digit
    ("copy", "en", 104),  # a copy: '#' apply, 0 decline
    ("card", "ja", 10),
    ("action", "ja", 11),
)
_TOKENS = []


def _keypad_tokens():
    if not _TOKENS:
        objs = [json.loads(ln) for ln in (BENCH / "random-s1.jsonl").read_text().splitlines()]
        _TOKENS.extend(t for t, _ in keyscript.presses_for(objs, keypad=True))
    return _TOKENS


def test_keypad_golden_presses_reach_their_screens():
    """The golden screens' presses stop where the screen asks that question
    (the same driver on CPython: the questions it answered next)."""
    from teatally_host import sim

    toks = _keypad_tokens()
    assert toks[9] in sim.KEYPAD_TOKENS and toks[11] == "hash" and toks[12] == "8"
    assert toks[104] == "hash" and toks[43] in "0123456789"


@pytest.mark.parametrize("name,lang,n", KEYPAD_GOLDEN, ids=["%s-%s" % (g[0], g[1]) for g in KEYPAD_GOLDEN])
def test_keypad_golden_screens(name, lang, n, tmp_path, check_golden):
    from teatally_host import sim

    flash = tmp_path / "flash"
    flash.mkdir()
    if lang != "en":
        sim.set_language(flash, lang)
    shot = tmp_path / "shot.png"
    tokens = [("press", t) for t in _keypad_tokens()[:n]]
    s = sim.Sim("pico_keypad", flash, sim.ScriptInput(tokens), shot=shot)
    assert s.run().code == 0
    check_golden(shot, BENCH.parent / "tests" / "golden" / ("kp_%s%s.png" % ("" if lang == "en" else "ja_", name)))
