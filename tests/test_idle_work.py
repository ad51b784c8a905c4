"""App.idle_work (firmware/teatally/app.py): what the main loop does while
no key is pending. After a key it forgets the modules no screen needs (out of
sys.modules and the teatally package) and collects the garbage, so a key
press never has to; then it preloads what the screens will need next
(app.NEXT, a screen's `needs`). Scenarios drive the real App on
VirtualHardware under both interpreters (`dual`); the heap figures come from
MicroPython alone (`mp`).

The point of it all: the code of a screen that is not on the way costs no
heap, and no key press imports a module (an import costs ~3-4 ms of Pico
time per KB of bytecode; a press has 6 ms). The guarded scenarios play whole
games by keys and fail when a press imports anything: a missing `needs` or
NEXT entry shows up there.
"""

import json
import sys
from pathlib import Path

import pytest

import teatally
from teatally import app as app_module
from teatally import journal
from teatally_host import gen, keyscript

from t42_support import GUEST_HEAP

BENCH = Path(__file__).resolve().parents[1] / "bench"



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
import teatally.app
from teatally.app import App
from teatally.hw_virtual import VirtualHardware

UP, DOWN, OK, BACK = 0x10, 0x11, 0x12, 0x13
G = []

CORE = ('app', 'buttons', 'compat', 'font', 'gfx', 'hw_virtual', 'journal', 'jsonc', 't42', 'ui', 'words')
for n in [n for n in sys.modules if n[:9] == 'teatally.' and n[9:] not in CORE]:
    # CPython runs the scenario in the test process: start from the modules
    # a device has when the app stands (the test puts the others back)
    del sys.modules[n]
    if hasattr(teatally, n[9:]):
        delattr(teatally, n[9:])

def boot():
    app = App(VirtualHardware(FLASH))
    G.append(app)
    app.boot()

def idle():
    # the steps of idle work; the plugging step (app._plug_holes) is not
    # counted: MicroPython only, CPython has no addresses to plug with
    n = 0
    while True:
        plugs = teatally.app.HEAP[1]
        if not G[0].idle_work():
            return n
        if plugs or not teatally.app.HEAP[1]:
            n += 1

def key(ev):
    G[0].key(ev)

def mods():
    core = G[0].core
    return ' '.join(sorted(n[9:] for n in sys.modules if n[:9] == 'teatally.' and n not in core))

def attrs():
    return ' '.join(sorted(n for n in ('ui_misc', 'ui_t42', 'ui_t42_round', 'ui_t42_new', 'ui_t42_end',
                                       'ui_t42_more') if hasattr(teatally, n)))

def pick(label, press=None):
    # the menu's item label: DOWN until it is selected, then OK
    press = press or key
    m = G[0].ui.top()
    labels = [it[0] for it in m.items]
    i = labels.index(label)
    while m.sel != i:
        press(DOWN)
    press(OK)

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
key(OK)  # the board's card for blue; the round's next question, from the preloaded module
print('round', top(), '|', mods(), type(G[0].ui.top().round).__module__)
print('idle', idle(), mods())
key(BACK)  # blue's question
key(BACK)  # out of the round: the status board
key(BACK)  # the game menu
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
    """Home: the home menu's module and what it offers next (ui_t42 to resume,
    the setup ui_t42_new with the Lines screen of ui_t42_end). In a game: the
    status board's modules and the round module its question needs, the home menu's
    forgotten (module and package attribute). The game menu: history and
    adjustment (ui_t42_more), the score table (ui_t42_end) and the home menu
    (its Home entry). Back home: the round module forgotten; on resume it is
    loaded afresh."""
    out = dual(LIFECYCLE).splitlines()
    assert out[0] == "core app buttons compat font gfx hw_virtual journal jsonc t42 ui words"
    assert out[1] == "home Menu Tea Tally | ui_misc ui_t42 words_more"
    home = "ui_misc ui_t42 ui_t42_end ui_t42_new"  # (words_more: the words of those screens)
    assert out[2] == "idle 5 %s words_more | %s" % (home, home)  # collect, then load and collect: the setup, Lines
    assert out[3] == "again 0 False"
    assert out[4] == "game Status  | %s words_more" % home
    # forget+collect, load, collect, the board's question found (a probe), collect
    assert out[5] == "idle 5 ui_t42 ui_t42_round | ui_t42 ui_t42_round"
    assert out[6].startswith("round Menu Pink reveals | ui_t42 ui_t42_round teatally.ui_t42_round")
    # collect, the selected reveal played ahead (its module loaded: the
    # heap is roomy), collect
    assert out[7] == "idle 3 ui_t42 ui_t42_ahead ui_t42_round"
    assert out[8] == "menu Menu Game"
    assert out[9] == "idle 7 ui_misc ui_t42 ui_t42_end ui_t42_more ui_t42_round words_more"  # three loads
    assert out[10] == "home Menu Tea Tally | ui_misc ui_t42 ui_t42_end ui_t42_more ui_t42_round words_more"
    assert out[11] == "idle 3 %s words_more | %s" % (home, home)  # the score table stayed
    assert out[12] == "resumed Status  | %s words_more" % home
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
    out = dual(KEY_HELD).splitlines()
    assert out == ["held True False True", "released False True False False"]


# Guarded key presses: a press that imports a teatally module prints
# IMPORTED; after the press and the idle work that follows it, one row: the
# press number, the screen on top ("round" for the guided round's
# questions), the modules loaded beyond the core, and the modules forgotten
# but still reachable as an attribute of the package (must be none).
GUARD = (
    PRELUDE
    + r"""
P = [0]

def loaded():
    out = []
    for n in sys.modules:
        if n[:9] == 'teatally.':
            out.append(n)
    return out

def stale():
    out = []
    for n in dir(teatally):
        if type(getattr(teatally, n)) is type(sys) and 'teatally.' + n not in sys.modules:
            out.append(n)
    return ' '.join(sorted(out))

def screen():
    s = G[0].ui.top()
    if hasattr(s, 'round'):
        return 'round'
    return type(s).__name__

def guarded(ev):
    before = loaded()
    key(ev)
    new = [n[9:] for n in loaded() if n not in before]
    if new:
        print('IMPORTED %d %s' % (P[0], ' '.join(sorted(new))))
    idle()
    if G[0].game is not None and G[0].game.pack():
        print('UNPACKED %d' % P[0])  # the idle work left the last action as it was
    print('%d %s | %s | %s' % (P[0], screen(), mods(), stale()))
    P[0] += 1

def play():
    while P[0] < len(KEYS):
        guarded(KEYS[P[0]])

def gpick(label):
    pick(label, guarded)
"""
)

# the modules beyond the core (app.App.core) on the way through a game
# words_more: the words of the screens away from a round, with their modules
HOME = "ui_misc ui_t42 ui_t42_end ui_t42_new words_more"  # the home menu, the setup
PLAY = "ui_t42 ui_t42_round"  # the status board, a round
PLAY_END = "ui_t42 ui_t42_end ui_t42_round words_more"  # ... when the round may end the game
FINAL = "ui_misc ui_t42 ui_t42_end words_more"  # the final scoring (OK: home)
MENU = "ui_misc ui_t42 ui_t42_end ui_t42_more ui_t42_round words_more"  # the game menu and its screens
MENU_OVER = "ui_misc ui_t42 ui_t42_end ui_t42_more words_more"  # ... on the final scoring: no round to come
NOTICE_END = "ui_t42 ui_t42_end words_more"  # the last round's notices (OK: the final scoring)


def _rows(out):
    """-> (imports, [(screen, modules, stale)]) from a guarded scenario."""
    imports = [line for line in out.splitlines() if line.startswith("IMPORTED")]
    rows = []
    for line in out.splitlines():
        if line[:1].isdigit():
            head, mods, stale = line.split(" | ")
            rows.append((head.split()[1], mods, stale))
    return imports, rows


def test_a_bench_game_imports_nothing_in_a_press(dual):
    """The bench game long60-s7 played by its key script (home menu, setup,
    60 rounds, the final scoring, archive), idle work to completion between
    presses: no press imports a module (each module a press needs was
    loaded before it), and what no screen needs is gone: during the rounds
    only the status board's and the round's modules (not the score table's:
    the heap is fullest then); the round that ends the game shows its
    notices, and while they are read the round's module goes and the score
    table's comes."""
    keys = keyscript.parse((BENCH / "long60-s7.keys").read_text())
    events = [keyscript.event(t) for t, _ in keys]
    script = (
        "KEYS = %r\n" % events
        + GUARD
        + "\nboot()\nidle()\nplay()\nprint('archived', len(G[0].journal.list_archives()), G[0].game is None)\n"
    )
    out = dual(script)
    imports, rows = _rows(out)
    assert imports == []
    assert "UNPACKED" not in out  # each committed round stored compactly before the next press
    assert len(rows) == len(keys) and "archived 1 True" in out
    assert all(stale == "" for _, _, stale in rows)
    phases = {}
    ahead = 0
    for (_, line), (scr, mods, _) in zip(keys, rows, strict=True):
        # the module of the answers played ahead (roomy heap) comes and goes
        # with the round's questions: it is left out of the sets below
        ahead += " ui_t42_ahead" in mods
        phases.setdefault(line, []).append((scr, mods.replace(" ui_t42_ahead", "")))
    assert ahead > len(keys) // 2
    setup = phases.pop(keyscript.SETUP)
    assert [m for _, m in setup[:-1]] == [HOME] * (len(setup) - 1)
    assert setup[-1] == ("Status", PLAY)
    assert phases.pop(keyscript.END) == [("Menu", HOME)]
    last = max(phases)
    for line in range(1, last):
        assert {m for _, m in phases[line]} == {PLAY}, line
    assert {m for _, m in phases[last][:-2]} == {PLAY}
    # the last round's commit shows its notices: the score table loaded and
    # the round's module gone while they are read; reading them shows the
    # final scoring (built on that press, not the commit's)
    assert phases[last][-2:] == [("Message", NOTICE_END), ("Lines", FINAL)]


def test_a_game_with_adjustments_imports_nothing_in_a_press(dual):
    """A generated game with adjustment lines entered key by key (the
    adjustments through the game menu's Adjust screen) with idle work after
    every key (collections, unloads and preloads all along) ends with the
    journal holding exactly the record, on both interpreters; no press
    imports a module: the game menu loads its screens' modules first (the
    adjustments, then score now, the history and a line's detail, redo)."""
    objs = gen.random_game(11, rounds=14, adjust_rate=0.1)
    events = [keyscript.event(t) for t, _ in keyscript.presses_for(objs, archive=False)]
    script = (
        "RECORD = %r\nKEYS = %r\n" % (json.dumps(objs), events)
        + GUARD
        + r"""
import json
from teatally import journal

def tour():
    # the game menu's other entries, far from the game's end
    guarded(BACK)
    gpick('Score now')
    guarded(BACK)
    gpick('History')
    guarded(OK)  # the last line in detail
    guarded(BACK)
    guarded(BACK)
    gpick('Redo')  # nothing to redo: the status board says so

boot()
idle()
play()
objs, notice = journal.Journal(FLASH).load()
print('journal', objs == json.loads(RECORD), notice)
tour()
"""
    )
    out = dual(script)
    imports, rows = _rows(out)
    assert imports == [] and "journal True None" in out
    assert all(stale == "" for _, _, stale in rows)
    adjust = [mods for scr, mods, _ in rows if scr == "Adjust"]
    assert adjust and set(adjust) == {MENU}
    # the status board did not need the score table: the game menu did
    assert rows[len(events) - 1] == ("Status", PLAY, "")
    assert [scr for scr, _, _ in rows[len(events) :]][-3:] == ["Menu", "Menu", "Status"]
    assert {m for scr, m, _ in rows[len(events) :] if scr != "Status"} == {MENU}


DETOUR = r"""
LONG_OK, LONG_BACK = 0x22, 0x23

def detour():
    guarded(BACK)  # the final scoring's BACK: the game menu
    gpick('History')
    guarded(OK)  # the last line in detail
    guarded(BACK)
    guarded(BACK)
    gpick('Score now')
    guarded(BACK)
    gpick('Undo')  # the status board: the game goes on, a redo may end it
    guarded(BACK)
    gpick('Home')
    gpick('Resume game')
    guarded(LONG_OK)  # redo: the final scoring
    guarded(LONG_BACK)  # undo
    guarded(LONG_OK)
    guarded(BACK)
    gpick('Home')
    gpick('Last game')
    guarded(OK)  # archive: the home menu
    gpick('Archive')
    guarded(OK)  # the archived game
    guarded(BACK)
    guarded(BACK)
    gpick('Settings')
    guarded(BACK)
    gpick('New Tea for 2')
    guarded(BACK)

boot()  # a finished game on flash: its final scoring
idle()
print('boot', screen(), '|', mods())
detour()
"""


def test_every_way_around_a_game_imports_only_rare_screens(dual):
    """From the final scoring of a finished game: the game menu and each of
    its entries (history and a line's detail, score now, undo, home and
    resume), redo and undo by LONG OK / LONG BACK, home, the last game, the
    archive by OK, the new-game setup: no press imports a module but those
    opening the rare screens from the home menu (the archive list, the
    settings: that press pays for the import)."""
    objs = gen.random_game(3)

    def flash(d):
        gen.write_record(objs, d / journal.GAME, crc=True)

    out = dual("KEYS = []\n" + GUARD + DETOUR, setup_flash=flash)
    imports, rows = _rows(out)
    assert [i.split()[2:] for i in imports] == [["ui_archive"], ["ui_settings"]]
    assert all(stale == "" for _, _, stale in rows)
    assert "boot Lines | " + FINAL in out
    assert {m for scr, m, _ in rows if scr == "Status"} == {PLAY_END}  # a redo may end the game
    assert rows[0] == ("Menu", MENU_OVER, "") and rows[-1] == ("Menu", HOME, "")


HEAP = (
    PRELUDE
    + GUEST_HEAP
    + r"""
def scrub_c(n):
    # GUEST_HEAP's scrub has 12 locals: MicroPython puts its frames on the
    # heap. This one's fit the C stack, where the screens' frames were: it
    # overwrites their stale pointers, which the collector (scanning the C
    # stack conservatively) would take for live ones to forgotten modules.
    a = b = c = d = e = f = 0
    if n:
        scrub_c(n - 1)

def heap():
    scrub(30)
    scrub_c(30)
    gc.collect()
    return gc.mem_alloc()

def one():
    G[0].idle_work()

def trip():
    key(BACK)
    idle()  # the game menu's modules
    pick('Home')
    idle()  # the home menu's modules, the round module and the game menu's forgotten
    pick('Resume game')
    idle()  # the round module again, the home menu's forgotten

boot()
new_game()
m0 = heap()
one()  # forget the home menu's modules, collect
m1 = heap()
idle()  # preload the round module
m2 = gc.mem_alloc() - teatally.app.HEAP[1]  # the plugs are garbage on purpose (app._plug)
print(m0 - m1, m2 - m1, m2 - heap(), mods())
trip()
h1 = heap()
trip()
h2 = heap()
print(h1 - m2, h2 - h1, mods())
"""
)


def test_forgotten_modules_give_their_heap_back(mp):
    """MicroPython: forgetting the home menu's modules (menu, setup, score
    table) frees their ~4.5 KB, preloading the round module takes ~7 KB; idle
    work leaves no garbage but its plugs (a collection right after finds
    next to nothing else).
    Going to the game menu, home and back leaves the heap as it was: no
    forgotten module lingers. (The first trip may keep a little: sys.modules and
    the package's dict grow to hold the most modules loaded at once, and do
    not shrink; the second trip must cost nothing.)"""
    res = mp(HEAP)
    lines = res.stdout.splitlines()
    print(lines)
    freed, loaded, garbage, *mods = lines[0].split()
    assert int(freed) > 4000 and int(loaded) > 4500 and abs(int(garbage)) < 512
    assert mods == ["ui_t42", "ui_t42_round"]
    first, second, *mods = lines[1].split()
    assert 0 <= int(first) < 1024 and abs(int(second)) < 256 and mods == ["ui_t42", "ui_t42_round"]



PREPARED = (
    PRELUDE
    + r"""
from teatally import t42
Game = t42.Game
def no_game(setup):
    raise RuntimeError('a game made on the press')
def summary():
    pick('New Tea for 2')
    for i in range(7):  # flamingo, watch, 5 objectives: the summary
        key(OK)
def first_line():
    with open(G[0].journal.path) as f:
        return f.readline().split('\t')[0]
boot()
idle()
summary()
"""
)
AHEAD = r"""
print('summary', top(), idle() > 0)
t42.Game = no_game  # the OK press must not make the game
key(OK)
t42.Game = Game
print('started', top(), G[0].game.state.round, first_line())
"""
CHANGED = r"""
idle()
key(BACK)  # the last objective again: what was made ahead is dropped
key(DOWN)
key(OK)
print('changed', top())
key(OK)  # no idle work between: the OK press makes the game itself
print('started', top(), G[0].game.state.round, first_line())
"""


def test_the_summary_makes_the_game_ahead(dual):
    """While the new-game summary is read, idle work makes the game and its
    setup line (the summary's prepare), so the OK press that starts the game
    only installs them; an answer changed afterwards drops them, and without
    idle work the press makes them itself."""
    ahead = dual(PREPARED + AHEAD).splitlines()
    assert ahead[0] == "summary Lines New game? True"
    assert ahead[1].startswith('started Status  0 {"flamingo":')
    changed = dual(PREPARED + CHANGED).splitlines()
    assert changed[0] == "changed Lines New game?"
    assert changed[1].startswith('started Status  0 {"flamingo":')
    assert ahead[1] != changed[1]  # another objective above pile 8


FINISHED = (
    PRELUDE
    + r"""
from teatally import t42, jsonc
score = t42.score
def no_score(s):
    raise RuntimeError('scored on the press')
def last_line(path):
    with open(path) as f:
        return f.read().splitlines()[-1]
boot()
print('final', top())
"""
)
ARCHIVE_AHEAD = r"""
expect = '# final ' + jsonc.dumps(score(G[0].game.state), True)
print('idle', idle() > 0)
key(0x23)  # LONG BACK: the last round undone...
key(0x22)  # LONG OK: ...and redone, another final state: made again
print('redone', top()[:11], idle() > 0, G[0].summary[0] is G[0].game.state)
t42.score = no_score  # the OK press must not score the game again
key(OK)
t42.score = score
print('home', top())
print('same', last_line(G[0].journal.archive_path('g0001.jsonl')) == expect)
"""
ARCHIVE_NOW = r"""
expect = '# final ' + jsonc.dumps(score(G[0].game.state), True)
key(OK)  # no idle work before: the press scores the game itself
print('home', top())
print('same', last_line(G[0].journal.archive_path('g0001.jsonl')) == expect)
"""


def _finished_game(folder):
    bench = Path(__file__).resolve().parent.parent / "bench"
    objs = [json.loads(x) for x in (bench / "long60-s7.jsonl").read_text().splitlines()]
    gen.write_record(objs, folder / journal.GAME, crc=True)


def test_the_final_screen_makes_the_archive_line_ahead(dual):
    """While the final scoring is read, idle work makes the archive's final
    summary line (the screen's prepare), so the OK press that archives the
    game only moves it and writes that line (T42-SCORE-1..8 scored once);
    without idle work the press scores the game itself, to the same line."""
    ahead = dual(FINISHED + ARCHIVE_AHEAD, setup_flash=_finished_game).splitlines()
    assert ahead[0].startswith("final Lines Final: ")
    assert ahead[1:] == ["idle True", "redone Lines Final True True", "home Menu Tea Tally", "same True"]
    now = dual(FINISHED + ARCHIVE_NOW, setup_flash=_finished_game).splitlines()
    assert now[1:] == ["home Menu Tea Tally", "same True"]


# The guided round's answers played ahead (ui_t42_ahead, the question
# screens' prepare): probes counted on presses made on a round's question.
AHEAD_ROUND = (
    PRELUDE
    + r"""
from teatally import t42
probe = t42.Game.probe
N = [0, False]

def counted(self, *a, **kw):
    # (CPython runs the scenario in the test process: the patch stays, and
    # later tests probe with keywords, copies=)
    if N[1]:
        N[0] += 1
    return probe(self, *a, **kw)

t42.Game.probe = counted

def press(ev):
    # a press on a round's question counts the probes it makes
    N[1] = hasattr(G[0].ui.top(), 'round')
    key(ev)
    N[1] = False

def journal(path=None):
    with open(path or G[0].journal.path) as f:
        return [line.split('\t')[0] for line in f.read().splitlines() if line[:1] != '#']

def ready():
    a = G[0].ui.top().round.ready
    return a is not None and a.trial is not None
"""
)
AHEAD_GAME = r"""
boot()
idle()
for ev in KEYS:
    press(ev)
    idle()
print('probes on round presses', N[0])
import json
print('record', [json.loads(x) for x in journal(G[0].journal.archive_path('g0001.jsonl'))] == RECORD)
"""
AHEAD_STALE = r"""
boot()
idle()
new_game()
idle()
key(DOWN)  # the round's first question, the card below the likeliest: Blue reveals
idle()
print('ready', top(), ready())
key(DOWN)  # no idle work: what was made is for the other card
second = G[0].ui.top().items[G[0].ui.top().sel][1]
press(OK)
r = G[0].ui.top().round
print('answered', top(), r.draft.get('blue') == second, N[0])
idle()
press(OK)  # made ahead: no probe on the press
print('made', top(), N[0], sorted(r.draft))
key(BACK)  # back to the question before, its draft as it was
print('back', top(), sorted(r.draft), r.answers)
"""


def test_a_game_answered_ahead_makes_no_probe_on_its_presses(dual):
    """random-s1 (45 rounds, watch spaces, copy chains) by its bench key
    script with the idle work between presses: every answer to a round's
    question was played ahead on a copy of the draft (T42-INPUT-1: the
    probe that fills in single answers included), so the presses on the
    questions make no probe, and the journal is the record, line for line."""
    record = [json.loads(line) for line in (BENCH / "random-s1.jsonl").read_text().splitlines()]
    keys = keyscript.parse((BENCH / "random-s1.keys").read_text())
    script = "KEYS = %r\nRECORD = %r\n" % ([keyscript.event(t) for t, _ in keys], record)
    out = dual(script + AHEAD_ROUND + AHEAD_GAME).splitlines()
    assert out[-2:] == ["probes on round presses 0", "record True"]


def test_an_answer_made_ahead_is_used_only_for_its_question(dual):
    """What the idle work made is for the card selected then: a selection
    changed without idle work since is answered the usual way (one probe on
    the press); made ahead, the press probes nothing; BACK steps back to the
    question before with its draft as it was."""
    out = dual(AHEAD_ROUND + AHEAD_STALE).splitlines()
    assert out[0] == "ready Menu Blue reveals True"
    assert out[1] == "answered Menu Pink reveals True 1"
    assert out[2] == "made Menu Blue wins by 2 1 ['blue', 'pink']"  # the action asked next
    assert out[3] == "back Menu Pink reveals ['blue'] ['king']"


TIGHT_UNDO = r"""
from teatally import app, jsonc, t42
boot()
idle()
app.HEAP[0] = TIGHT  # what the idle work measured after its collection
G[0].idle_todo = True  # as after a key
print('kept', G[0].game._prev is not None, idle() > 0, G[0].game._prev is None)
key(0x23)  # LONG BACK: undo the last round
print('undone', G[0].game.state.round, jsonc.dumps(t42.to_json(G[0].game.state)))
app.HEAP[0] = -1
"""


def test_a_tight_heap_lets_the_quick_undo_state_go(dual):
    """With little heap free (PLUG_KEEP or less after the idle collection)
    the idle work drops the state kept for a quick undo (t42.Game._prev):
    an undo then rebuilds it from a checkpoint, to the same
    state as with a roomy heap, where it is kept."""

    def flash(d):
        objs = [json.loads(x) for x in (BENCH / "random-s1.jsonl").read_text().splitlines()[:14]]
        gen.write_record(objs, d / journal.GAME, crc=True)

    tight = dual("TIGHT = 1000\n" + PRELUDE + TIGHT_UNDO, setup_flash=flash).splitlines()
    roomy = dual("TIGHT = -1\n" + PRELUDE + TIGHT_UNDO, setup_flash=flash).splitlines()
    assert tight[0] == "kept True True True"
    assert roomy[0] == "kept True False False"
    assert tight[1].startswith("undone 12 {") and tight[1] == roomy[1]


NO_ROOM_AHEAD = r"""
from teatally.ui import Screen
boot()
idle()
class Tight(Screen):
    title = 'tight'
    def prepare(self, app):
        raise MemoryError
class Buggy(Screen):
    title = 'buggy'
    def prepare(self, app):
        raise ValueError('a bug shows')
G[0].ui.push(Tight())
G[0].idle_todo = True
print('tight', idle(), G[0].idle_todo, top())
G[0].ui.push(Buggy())
G[0].idle_todo = True
try:
    idle()
except ValueError as exc:
    print('buggy', exc)
"""


def test_work_made_ahead_out_of_memory_is_only_a_speed_up_missed(dual):
    """A screen's prepare that runs out of heap in the idle work leaves
    nothing half made and no error: the press does the work itself. Any
    other exception is a bug and reaches the main loop (its error screen)."""
    out = dual(PRELUDE + NO_ROOM_AHEAD).splitlines()
    assert out == ["tight 0 False Tight tight", "buggy a bug shows"]
