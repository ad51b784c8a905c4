"""What the main loop does between key presses (App.idle_work: one garbage
collection after each key, none while a key is on its way) and the rare
screens' modules (teatally.ui.core.RARE): imported by the press that opens
them, released when their screens are closed (MicroPython: out of
sys.modules and the package, so their bytecode leaves the heap; CPython
keeps them). Scenarios drive the real App on VirtualHardware; module and
heap figures come from MicroPython alone (`mp`).
"""

from pathlib import Path

from teatally.ui.core import RARE
from teatally_host import keyscript

BENCH = Path(__file__).resolve().parents[1] / "bench"

PRELUDE = r"""
import sys
import teatally
import teatally.app
from teatally.app import App
from teatally.hw.virtual import VirtualHardware
from teatally.ui.core import RARE

UP, DOWN, OK, BACK = 0x10, 0x11, 0x12, 0x13
G = []

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
    idle()

def rare():
    # the rare screens' modules loaded now
    return ' '.join(sorted(n[12:] for n in sys.modules if n[:12] == 'teatally.ui.' and n[12:] in RARE)) or '-'

def top():
    s = G[0].ui.top()
    return type(s).__name__ + ' ' + s.title

def pick(label):
    # the menu's item label: DOWN until it is selected, then OK
    m = G[0].ui.top()
    labels = [it[0] for it in m.items]
    i = labels.index(label)
    while m.sel != i:
        key(DOWN)
    key(OK)

def show(what):
    print(what, '|', top(), '|', rare())

def answer_setup():
    # the flamingo, the watch, the objectives above piles 4..8: a face each
    # (each list starts on the first); the summary ("New game?") is next
    key(OK)
    key(OK)
    for i in range(5):
        for k in range(i):
            key(DOWN)
        key(OK)
"""

TOUR = (
    PRELUDE
    + r"""
boot()
show('boot')
pick('New Tea for 2')
show('setup')
answer_setup()
show('summary')
key(OK)
show('game')
key(BACK)  # the status board's BACK: the game menu
pick('History')
show('history')
key(BACK)
show('menu')
pick('Score now')
show('score')
key(BACK)
pick('Adjust')
show('adjust')
key(BACK)
pick('Home')
show('home')
pick('Settings')
pick('Contrast 200')
show('contrast')
key(BACK)
show('settings')
key(BACK)
show('home')
pick('Archive')
show('archive')
key(OK)
pick('Tea Time')
show('pads')
key(BACK)
show('home')
print('package', hasattr(teatally.ui.t42, 'setup'), hasattr(teatally.ui.t42, 'history'), hasattr(teatally.ui, 'pads'))
"""
)


def test_rare_modules_come_with_their_screens_and_go_with_them(mp):
    """MicroPython: the home menu's module is loaded while the home menu is
    on the stack (not during a game); the setup's module while the setup is
    asked, released when the game starts; the history, the score table, the
    settings (through its sub-menu), the archive list and the score pads
    each while their screens are on the stack, released by the BACK that
    closes them (gone from the package too). The adjustment has a module
    of its own; the history imports it (an adjustment's words), so the game
    menu opens both for the history."""
    out = mp(TOUR).stdout.splitlines()
    assert out == [
        "boot | Menu Tea Tally | home",
        "setup | Menu Who has the flamingo? | home t42.setup",
        "summary | Lines New game? | home t42.setup",
        "game | Status  | -",
        "history | Menu History | t42.adjust t42.history",
        "menu | Menu Game | -",
        "score | Lines If it ended now | t42.end",
        "adjust | Adjust Adjust | t42.adjust",
        "home | Menu Tea Tally | home",
        "contrast | Menu Contrast | home settings",
        "settings | Settings Settings | home settings",
        "home | Menu Tea Tally | home",
        "archive | Message Archive | archive home",
        "pads | Menu Tea Time | home pads",
        "home | Menu Tea Tally | home",
        "package False False False",
    ]


# the tour again, showing what the stack has open instead of what is loaded
OPENED_RARE = "def rare():\n    return ' '.join(o[0][12:] for o in G[0].ui.opened) or '-'\n\n"
OPENED = TOUR.replace("def show(what):", OPENED_RARE + "def show(what):").split("print('package'")[0]


def test_the_stack_knows_which_rare_modules_are_open(dual):
    """The bookkeeping behind it, the same on both interpreters (CPython
    keeps the modules but closes them all the same): each rare module is
    open exactly while the screens it was opened for are on the stack."""
    out = dual(OPENED).splitlines()
    assert [line.split(" | ")[2] for line in out] == [
        "home", "home t42.setup", "home t42.setup", "-", "t42.adjust t42.history", "-", "t42.end", "t42.adjust", "home",
        "home settings", "home settings", "home", "home archive", "home pads", "home",
    ]


def test_the_rare_list_names_real_modules():
    from teatally.ui import core

    folder = Path(core.__file__).parent
    for name in RARE:
        assert (folder / (name.replace(".", "/") + ".py")).is_file(), name


GAME = (
    PRELUDE
    + r"""
def loaded():
    return [n for n in sys.modules if n[:9] == 'teatally.']

def play():
    for i in range(len(KEYS)):
        before = loaded()
        key(KEYS[i])
        new = sorted(n for n in loaded() if n not in before)
        if new:
            print('press', i, top(), ' '.join(new))
    print('end', top(), rare(), len(G[0].journal.list_archives()), G[0].game is None)

boot()
play()
"""
)


def test_a_bench_game_imports_only_rare_screens(mp):
    """The bench game long60-s7 by its key script (home menu, setup, 60
    rounds, the final scoring, archive), a collection after every press:
    the only presses that import a module open a rare screen (the setup,
    the final scoring), and once archived only the next game's setup is
    loaded beside the home menu's own (imported ahead by the home menu)."""
    keys = keyscript.parse((BENCH / "long60-s7.keys").read_text())
    events = [keyscript.event(t) for t, _ in keys]
    out = mp("KEYS = %r\n" % events + GAME).stdout.splitlines()
    imports = [line.split(" ", 2)[2] for line in out if line.startswith("press ")]
    # (the words of the screens away from a round come with them)
    rare = [[t for t in i.split() if t.startswith("teatally.ui.")] for i in imports]
    # (the archive's press goes home, where the next game's setup is
    # imported ahead, between presses: UI.ahead)
    assert [r[-1] for r in rare if r] == ["teatally.ui.t42.setup", "teatally.ui.t42.end", "teatally.ui.t42.setup"]
    assert all(r for r in rare), imports
    assert out[-1] == "end Menu Tea Tally home t42.setup 1 True"


AHEAD = (
    PRELUDE
    + r"""
boot()
G[0].show()  # (the loop's first pass draws it: the font comes in)
show('boot')
idle()
show('rest')
before = [n for n in sys.modules]
pick('New Tea for 2')
show('setup')
print('imported', [n for n in sys.modules if n not in before and n[:12] == 'teatally.ui.'])
answer_setup()
key(OK)  # New game?
show('game')
key(BACK)
pick('Home')
show('home, a game loaded')
"""
)


def test_the_home_menu_imports_the_setup_ahead(mp):
    """With no game to resume, the rest after the home menu is shown
    imports the new-game setup's module (ui.core.UI.ahead): the press that
    opens the setup imports nothing (issue 32: the first press from home
    within the first-light budget). With a game loaded the home menu asks
    for nothing ahead (the heap keeps its room)."""
    out = mp(AHEAD).stdout.splitlines()
    assert out == [
        "boot | Menu Tea Tally | home",
        "rest | Menu Tea Tally | home t42.setup",
        "setup | Menu Who has the flamingo? | home t42.setup",
        "imported []",
        "game | Status  | -",
        "home, a game loaded | Menu Tea Tally | home",
    ]


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
print('released', G[0].keys.held(), idle(), G[0].idle_work(), G[0].idle_todo)
"""
)


def test_one_collection_after_a_key_and_none_while_it_is_down(dual):
    """While a button is held (a press or a long press on its way) the idle
    work waits; once released it collects once, then has nothing to do."""
    out = dual(KEY_HELD).splitlines()
    assert out == ["held True False True", "released False 1 False False"]


HEAP = (
    PRELUDE
    + r"""
import gc

def heap():
    gc.collect()
    return gc.mem_alloc()

def trip():
    key(BACK)  # the status board's BACK: the game menu
    pick('History')
    key(BACK)
    pick('Score now')
    key(BACK)
    key(BACK)

boot()
pick('New Tea for 2')
answer_setup()
key(OK)  # the summary: start
h0 = heap()
trip()
h1 = heap()
trip()
h2 = heap()
print(h1 - h0, h2 - h1, rare())
"""
)


def test_closed_rare_screens_give_their_heap_back(mp):
    """MicroPython: opening and closing the history and the score table
    leaves the heap as it was (their modules' bytecode is garbage once
    closed); the first trip may keep a little (sys.modules and the
    package's dict grow and do not shrink: 912 B, 1,040 B since the
    history opens the adjustment's module too), the second costs nothing."""
    first, second, loaded = mp(HEAP).stdout.split()
    assert 0 <= int(first) < 1152 and abs(int(second)) < 256 and loaded == "-"
