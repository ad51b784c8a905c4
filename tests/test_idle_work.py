"""App.idle_work (firmware/teatally/app.py): what the main loop does while
no key is pending. After a key it forgets the modules no screen needs (out of
sys.modules and the teatally package) and collects the garbage, so a key
press never has to; then it preloads what the screens will need next
(app.NEXT, a screen's `needs`). Scenarios drive the real App on
VirtualHardware under both interpreters (`dual`); the heap figures come from
MicroPython alone (`mp`).
"""

import json
import sys

import pytest

import teatally
from teatally import app as app_module
from teatally_host import gen, keyscript

# The scenarios run the source, not .mpy: compiling it needs a roomy heap.
# Under `dual` the VM's collections are no-ops (NOGC), so the heap must
# hold all the garbage of a scenario.
ROOMY = 1024 * 1024
NOGC_HEAP = 32 * 1024 * 1024

@pytest.fixture(autouse=True)
def modules_put_back():
    """The CPython half of a scenario runs in this process and forgets and
    loads modules: afterwards the process gets its own back."""
    mods = {n: m for n, m in sys.modules.items() if n.startswith("teatally.")}
    attrs = dict(vars(teatally))
    collect = app_module._collect
    yield
    for n in [n for n in sys.modules if n.startswith("teatally.")]:
        del sys.modules[n]
    sys.modules.update(mods)
    for n in [n for n in vars(teatally) if n not in attrs]:
        delattr(teatally, n)
    for n, v in attrs.items():
        setattr(teatally, n, v)
    app_module._collect = collect


PRELUDE = r"""
import sys
import teatally
from teatally.app import App
from teatally.hw_virtual import VirtualHardware

UP, DOWN, OK, BACK = 0x10, 0x11, 0x12, 0x13
G = []

CORE = ('app', 'buttons', 'compat', 'gfx', 'hw_virtual', 'journal', 'jsonc', 't42', 'ui')
for n in [n for n in sys.modules if n[:9] == 'teatally.' and n[9:] not in CORE]:
    # CPython runs the scenario in the test process: start from the modules
    # a device has when the app stands (the test puts the others back)
    del sys.modules[n]
    if hasattr(teatally, n[9:]):
        delattr(teatally, n[9:])

if NOGC:
    # The host VM's collector can free the running script's code (only C
    # locals point to it): collections become no-ops, the heap is roomy.
    import teatally.app
    teatally.app._collect = lambda: None

def boot():
    app = App(VirtualHardware(FLASH))
    G.append(app)
    app.boot()

def idle():
    n = 0
    while G[0].idle_work():
        n += 1
    return n

def key(ev):
    G[0].key(ev)

def mods():
    core = G[0].core
    return ' '.join(sorted(n[9:] for n in sys.modules if n[:9] == 'teatally.' and n not in core))

def attrs():
    return ' '.join(sorted(n for n in ('ui_misc', 'ui_t42', 'ui_t42_round') if hasattr(teatally, n)))

def pick(label):
    m = G[0].ui.top()
    labels = [it[0] for it in m.items]
    i = labels.index(label)
    while m.sel != i:
        key(DOWN)
    key(OK)

def new_game():
    pick('New Tea for 2')
    for i in range(8):  # flamingo, watch, 5 objectives, 'New game?'
        key(OK)

def top():
    s = G[0].ui.top()
    return type(s).__name__ + ' ' + s.title
"""

LIFECYCLE = (
    PRELUDE
    + r"""
boot()
print('core', ' '.join(sorted(n[9:] for n in G[0].core)))
print('home', top(), '|', mods())
print('idle', idle(), mods(), '|', attrs())
print('again', idle(), G[0].idle_work())
new_game()
print('game', top(), '|', mods())
print('idle', idle(), mods(), '|', attrs())
old_round = sys.modules['teatally.ui_t42_round']
key(OK)  # the round's first question, from the preloaded module
print('round', top(), '|', mods(), type(G[0].ui.top().round).__module__)
print('idle', idle(), mods())
key(BACK)
key(DOWN)  # the game menu
print('menu', top())
print('idle', idle(), mods())
pick('Home')
print('home', top(), '|', mods())
print('idle', idle(), mods(), '|', attrs())
pick('Resume game')
print('resumed', top(), '|', mods())
print('idle', idle(), mods(), '|', attrs(), sys.modules['teatally.ui_t42_round'] is old_round)
"""
)


def test_modules_follow_the_screens(dual):
    """Home: the home menu's module and what it offers next (ui_t42). In a
    game: the status board's modules and the round module it starts, the home
    menu forgotten (module and package attribute). Back home: the round
    module forgotten; on resume it is loaded afresh."""
    out = dual("NOGC = True\n" + LIFECYCLE, heap=NOGC_HEAP).splitlines()
    assert out[0] == "core app buttons compat gfx hw_virtual journal jsonc t42 ui"
    assert out[1] == "home Menu Tea Tally | ui_misc ui_t42"
    assert out[2] == "idle 1 ui_misc ui_t42 | ui_misc ui_t42"  # one collection, nothing to load
    assert out[3] == "again 0 False"
    assert out[4] == "game Status  | ui_misc ui_t42"
    assert out[5] == "idle 3 ui_t42 ui_t42_round | ui_t42 ui_t42_round"  # forget+collect, load, collect
    assert out[6].startswith("round Menu Blue reveals | ui_t42 ui_t42_round teatally.ui_t42_round")
    assert out[7] == "idle 1 ui_t42 ui_t42_round"
    assert out[8] == "menu Menu Game"
    assert out[9] == "idle 1 ui_t42 ui_t42_round"
    assert out[10] == "home Menu Tea Tally | ui_misc ui_t42 ui_t42_round"
    assert out[11] == "idle 1 ui_misc ui_t42 | ui_misc ui_t42"
    assert out[12] == "resumed Status  | ui_misc ui_t42"
    assert out[13] == "idle 3 ui_t42 ui_t42_round | ui_t42 ui_t42_round False"


KEY_HELD = (
    PRELUDE
    + r"""
boot()
hw = G[0].hw
def hold(on):
    hw.pins[2] = on
    for i in range(3):
        hw.advance(30)
        G[0].step()
hold(True)
print('held', G[0].keys.held(), G[0].idle_work(), G[0].idle_todo)
hold(False)
print('released', G[0].keys.held(), idle() > 0, G[0].idle_work(), G[0].idle_todo)
"""
)


def test_no_idle_work_while_a_key_is_down(dual):
    """While a button is held (a press or a long press on its way) idle work
    waits; once released it runs and then has nothing left to do."""
    out = dual("NOGC = True\n" + KEY_HELD, heap=NOGC_HEAP).splitlines()
    assert out == ["held True False True", "released False True False False"]


def test_a_game_entered_with_idle_work_between_keys(dual):
    """A generated game entered key by key with idle work after every key
    (collections, unloads and preloads all along) ends with the journal
    holding exactly the record, on both interpreters."""
    objs = gen.random_game(11, rounds=14, adjust_rate=0.1)
    events = [keyscript.event(t) for t, _ in keyscript.presses_for(objs, archive=False)]
    script = (
        PRELUDE
        + "RECORD = %r\nKEYS = %r\n" % (json.dumps(objs), events)
        + r"""
import json
from teatally import journal

P = [0, 0]  # next key, idle steps so far

def press():
    # small frames only: the host VM's collector frees large running ones
    i = P[0]
    if i >= len(KEYS):
        return False
    P[0] = i + 1
    key(KEYS[i])
    P[1] += idle()
    return True

def play():
    while press():
        pass

boot()
play()
objs, notice = journal.Journal(FLASH).load()
print(objs == json.loads(RECORD), notice, P[1] > len(KEYS), mods())
"""
    )
    out = dual("NOGC = True\n" + script, heap=NOGC_HEAP).split()
    assert out == ["True", "None", "True", "ui_t42", "ui_t42_round"]


HEAP = (
    PRELUDE
    + r"""
import gc

def scrub(n):
    a = b = c = d = e = f = g = h = i = j = k = m = 0
    if n:
        scrub(n - 1)

def heap():
    scrub(30)
    gc.collect()
    return gc.mem_alloc()

def one():
    G[0].idle_work()

boot()
new_game()
m0 = heap()
one()  # forget the home menu's module, collect
m1 = heap()
idle()  # preload the round module
m2 = gc.mem_alloc()
print(m0 - m1, m2 - m1, m2 - heap(), mods())
key(DOWN)
pick('Home')
idle()  # the home menu's module again, the round module forgotten
pick('Resume game')
idle()  # the round module again, the home menu's forgotten
print(heap() - m2, mods())
"""
)


def test_forgotten_modules_give_their_heap_back(mp):
    """MicroPython: forgetting the home menu's module frees its ~5 KB,
    preloading the round module takes ~6 KB; idle work leaves no garbage (a
    collection right after finds next to nothing); going home and back leaves the
    heap as it was (no forgotten module lingers)."""
    res = mp("NOGC = False\n" + HEAP, heap=ROOMY)
    lines = res.stdout.splitlines()
    print(lines)
    freed, loaded, garbage, *mods = lines[0].split()
    assert int(freed) > 4000 and int(loaded) > 4500 and abs(int(garbage)) < 512
    assert mods == ["ui_t42", "ui_t42_round"]
    back, *mods = lines[1].split()
    assert abs(int(back)) < 1000 and mods == ["ui_t42", "ui_t42_round"]
