"""Every text on every screen fits its place: nothing is ever cut (issue 17),
in English and in Japanese (issue 18: the same walks with the language
setting on 日本語; the score pads' scenarios pick English labels, so
Japanese pads are walked by the random presses and tests/test_ja.py).

The screens draw their text with ui.text in the 6x8 font (21 columns a
line, 20 in a menu beside its scrollbar); a text wider than its place is
noted in ui.OVERFLOWS instead of being cut with a "~". Each screen is also
drawn twice, with the font's fast path (teatally.ui.font: glyph bytes
copied into blank or full cells) and without it: the pixels must be the
same on every screen (the fast path's promise). These scenarios walk
every screen the device reaches -- the bench games by their key scripts
with the idle work between presses (so the status board shows the next
round's question), the history of each bench game line by line with every
line's sentences scrolled through, score now, the board's legend, the
adjustments, the home menu's screens, the score pads, and thousands of
random key presses -- and fail on any such text, naming the screen.
MicroPython walks the same screens where a scenario fits its fuel.
"""

import json
from pathlib import Path

import pytest
from ja_support import LANGS, english_again, fresh_modules
from teatally_host import keyscript


@pytest.fixture(autouse=True)
def english_after():
    yield
    english_again()


def set_lang(flash, lang):
    # the device's language on the flash; a Japanese run in this process
    # imports its own screen modules (ja_support.fresh_modules)
    import ja_support

    ja_support.set_lang(flash, lang)
    if lang != "en":
        fresh_modules()

BENCH = Path(__file__).resolve().parents[1] / "bench"
RECORDS = sorted(BENCH.glob("*.jsonl"))
BOARDS = tuple(sorted(p.stem for p in (BENCH.parent / "boards").glob("*.py")))

PRELUDE = r"""
from teatally.ui import core as ui
from teatally.app import App
from teatally.hw.virtual import VirtualHardware
from teatally import words

UP, DOWN, OK, BACK = 0x10, 0x11, 0x12, 0x13
LAYOUT = globals().get('LAYOUT', '4key')  # the board's keys: '4key', or 'keypad' (keys shown beside answers)
del ui.OVERFLOWS[:]  # (CPython: what other tests drew in this process)
del words.CUT[:]
SEEN = {}
BAD = []
G = []

if 'BOARD' not in globals():
    BOARD = 'virtual'

def boot():
    app = App(VirtualHardware(FLASH, LAYOUT, board_name=BOARD))
    G[:] = [app]
    app.boot()
    look()
    return app

def look():
    # the screen on top, drawn: any text wider than its place is a fault;
    # drawn first with the font's fast path off (every text by its slow
    # path), it must have the same pixels
    app = G[0]
    fb = app.fb
    fast = fb.vlsb
    fb.vlsb = None
    app.ui.draw(fb)
    slow = bytes(fb.buffer)
    fb.vlsb = fast
    app.ui.draw(fb)
    t = app.ui.top()
    title = getattr(t, 'title', '')
    SEEN[type(t).__name__ + '|' + (title if isinstance(title, str) else title.decode())] = 1
    if bytes(fb.buffer) != slow:
        said = '%s %r: the fast text path drew other pixels' % (type(t).__name__, title)
        if len(BAD) < 20 and said not in BAD:
            BAD.append(said)
    for said in tidy(t, fb):
        if len(BAD) < 20 and said not in BAD:
            BAD.append(said)
    if ui.OVERFLOWS:
        for s, x, y in ui.OVERFLOWS:
            said = '%s %r: %r at x=%d' % (type(t).__name__, title, bytes(s), x)
            if len(BAD) < 20 and said not in BAD:
                BAD.append(said)
        del ui.OVERFLOWS[:]

def merged(fb):
    # the title bar (rows 0..7) and a bar right below it (row 8 on): read
    # as one block when no dark line parts them
    n = 0
    for x in range(ui.W):
        if fb.pixel(x, 7) and fb.pixel(x, 8):
            n += 1
    return n > ui.W // 2

def numbers_alone(line):
    # a table row's numbers pushed onto a line of their own
    if type(line) is not str or not line.startswith(' '):
        return False
    s = line.strip()
    if not s:
        return False
    for ch in s:
        if ch not in '0123456789- ':
            return False
    return True

def tidy(t, fb):
    # what no screen may show besides a cut text: the title bar merging
    # with a bar below it, numbers on a line of their own, a label that
    # lost its start (teatally.words.CUT)
    out = []
    title = getattr(t, 'title', '')
    name = '%s %r' % (type(t).__name__, title)
    if merged(fb):
        out.append(name + ': the title bar merges with the bar below it')
    for line in getattr(t, 'lines', None) or ():
        if numbers_alone(line):
            out.append(name + ': numbers on a line of their own: %r' % line)
    if words.CUT:
        for c in words.CUT:
            out.append(name + ': a label lost its start: %r' % c)
        del words.CUT[:]
    return out

def idle():
    while G[0].idle_work():
        pass
    look()

def key(ev, rest=True):
    G[0].key(ev)
    look()
    if rest:
        idle()

def pick(value):
    # a menu's item by its value: DOWN until selected, then OK
    m = G[0].ui.top()
    values = [it[1] for it in m.items]
    i = values.index(value)
    while m.sel != i:
        key(DOWN, False)
    key(OK)

def scroll():
    # DOWN to the end of a scrolling screen, then UP once
    t = G[0].ui.top()
    n = len(getattr(t, 'lines', None) or getattr(t, 'rows', None) or getattr(t, 'items', None) or 'legend....')
    for _ in range(n):
        key(DOWN, False)
    key(UP, False)

def report(tag):
    print(tag, len(SEEN), 'screens', 'BAD' if BAD else 'ok')
    for b in BAD:
        print('  ' + b)
"""

# A bench game by its key script, idle work between the presses.
PLAY = r"""
boot()
idle()
for ev in EVENTS:
    key(ev)
report('played')
"""

# The finished game on flash: its final scoring, the game menu, every line
# of the history in sentences (scrolled), score now, the legend, the
# adjustments and their pickers, home and its screens.
TOUR = r"""
boot()
idle()
key(BACK)  # the final scoring's BACK: the game menu
pick('history')
n = len(G[0].ui.top().items)
for i in range(n):
    key(OK)  # the line in sentences
    scroll()
    key(BACK)
    key(UP, False)
key(BACK)
pick('score')
scroll()
key(BACK)
pick('legend')
scroll()
key(BACK)
pick('adjust')
adj = G[0].ui.top()
for v in [it[1] for it in adj.items]:
    pick(v)
    key(UP, False)
    key(DOWN, False)
    key(DOWN, False)
    key(BACK)
key(BACK)
pick('home')
home = [it[1] for it in G[0].ui.top().items]
for v in home:
    if v in ('resume', 'settings', 'about', 'archive'):
        pick(v)
        t = G[0].ui.top()
        for w in [it[1] for it in getattr(t, 'items', [])][:6]:
            if v == 'archive' or w in ('contrast', 'timeout', 'board'):
                pick(w)
                key(BACK)
        key(BACK)
        if type(G[0].ui.top()).__name__ != 'Menu' or G[0].ui.top().title != 'Tea Tally':
            G[0].home()
report('toured')
"""


def _events(path):
    return [keyscript.event(t) for t, _ in keyscript.parse(path.with_suffix(".keys").read_text())]


def _record(path):
    return [json.loads(line.split("\t")[0]) for line in path.read_text().splitlines() if line.strip()]


def _finished_flash(path):
    from teatally_host import gen

    def flash(d):
        gen.write_record(_record(path), d / "game.jsonl", crc=True)

    return flash


def _clean(out, tag):
    line = [x for x in out.splitlines() if x.startswith(tag)][0]
    assert line.endswith("screens ok"), out
    return int(line.split()[1])


@pytest.mark.parametrize("lang", LANGS)
def test_bench_games_fit_every_screen(lang, tmp_path):
    """Every bench game by its key script, setup to archive, on CPython."""
    from conftest import run_cpython

    for path in RECORDS:
        d = tmp_path / path.stem
        d.mkdir()
        set_lang(d, lang)
        out = run_cpython("EVENTS = %r\n" % _events(path) + PRELUDE + PLAY, d)
        assert _clean(out, "played") >= 15, out


@pytest.mark.parametrize("lang", LANGS)
def test_history_score_legend_adjust_and_home_fit(lang, tmp_path):
    """Each bench game finished on flash: every history line's sentences,
    score now, the legend, the adjustments, the home menu's screens."""
    from conftest import run_cpython

    for i, board in enumerate(BOARDS):  # every board's name once, the games in turn
        path = RECORDS[i % len(RECORDS)]
        d = tmp_path / ("%s-%s" % (path.stem, board))
        d.mkdir()
        _finished_flash(path)(d)
        set_lang(d, lang)
        # every board's name on About and in the board chooser (issue 30:
        # "board waveshare_pico_o")
        out = run_cpython("BOARD = %r\n" % board + PRELUDE + TOUR, d)
        assert _clean(out, "toured") >= 15, out


@pytest.mark.parametrize("lang", LANGS)
def test_a_bench_game_and_its_tour_fit_on_micropython(lang, dual):
    """random-s1 (watch spaces, copies, hourglasses) and its tour (on the
    longest board name): the same screens, the same verdict on the
    MicroPython VM."""
    path = BENCH / "random-s1.jsonl"
    out = dual("EVENTS = %r\n" % _events(path) + PRELUDE + PLAY, setup_flash=lambda d: set_lang(d, lang))
    assert _clean(out, "played") >= 15
    english_again()

    def finished(d):
        _finished_flash(path)(d)
        set_lang(d, lang)

    out = dual("BOARD = 'waveshare_pico_oled_1_3'\n" + PRELUDE + TOUR, setup_flash=finished)
    assert _clean(out, "toured") >= 15


def _pad_scenarios():
    import test_ui_pads

    return [getattr(test_ui_pads, n) for n in ("TEATIME", "SHARED", "WITCHES", "COUPONS", "PERSIST")]


def test_score_pads_fit(dual):
    """The score pads' scenarios (tests/test_ui_pads.py): setup help, rounds,
    every entry field, the count checks, the results with their legends."""
    from teatally.ui import core as ui

    for scenario in _pad_scenarios():
        out = dual(scenario + "\nfrom teatally.ui import core as _ui\nprint('overflows', len(_ui.OVERFLOWS))\n")
        assert "overflows 0" in out, out
    assert ui.COLS == 21


FUZZ = r"""
seed = [SEED]

def rnd(n):
    seed[0] = (seed[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (seed[0] >> 8) % n

EVENTS = []
for kind in (0x10, 0x20, 0x30):
    for k in range(4):
        EVENTS.append(kind | k)
EVENTS = EVENTS + [0x12, 0x12, 0x11, 0x10]
if LAYOUT == 'keypad':
    EVENTS = EVENTS + [0x10 | k for k in range(4, 16)] * 2  # its digits, * and #
PADS = ('Rounds', 'Entry', 'Totals', 'Result')
pads_with_game = 0
boot()
for i in range(N):
    if rnd(200) == 0:
        boot()
        continue
    G[0].hw.advance(50)
    key(EVENTS[rnd(len(EVENTS))], rnd(3) == 0)
    if G[0].game is not None and type(G[0].ui.top()).__name__ in PADS:
        pads_with_game += 1
report('fuzzed')
try:
    open(FLASH + '/error.log').close()
    print('error.log written')
except OSError:
    print('no error.log')
print('pads with a game loaded', pads_with_game > 0)
"""


@pytest.mark.parametrize("lang", LANGS)
def test_random_keys_fit_every_screen(lang, tmp_path):
    """Random presses of every key (short, long, repeat), power cuts, idle
    work now and then: 3 walks of 1000 presses on CPython."""
    from conftest import run_cpython

    for seed in (1, 2, 3):
        d = tmp_path / str(seed)
        d.mkdir()
        set_lang(d, lang)
        out = run_cpython(PRELUDE + FUZZ.replace("SEED", str(seed)).replace("range(N)", "range(1000)"), d)
        assert _clean(out, "fuzzed") >= 10, out


@pytest.mark.parametrize("lang", LANGS)
def test_random_keys_fit_on_micropython(lang, dual):
    """400 random presses at the Pico's heap in either language; the walk
    opens the score pads with a game loaded, where the Japanese words as
    dicts of str once left the heap too tight (a MemoryError, the error
    screen): packed (teatally_host.wordpack), they fit."""
    out = dual(PRELUDE + FUZZ.replace("SEED", "7").replace("range(N)", "range(400)"),
               setup_flash=lambda d: set_lang(d, lang))
    assert _clean(out, "fuzzed") >= 5
    assert "no error.log" in out and "pads with a game loaded True" in out, out


# -- the keypad board (issue 31): the keys beside the answers, the pickers' keys
def _keypad_events(path):
    presses = keyscript.presses_for(_record(path), keypad=True)
    return [keyscript.event(t) for t, _ in presses]


@pytest.mark.parametrize("lang", LANGS)
def test_keypad_bench_games_and_random_keys_fit(lang, tmp_path):
    """Every bench game entered on the keypad board (each answer by its
    key, shown beside it), its tour, and 1000 random presses of every key
    (digits, * and # too), on CPython."""
    from conftest import run_cpython

    for path in RECORDS:
        d = tmp_path / path.stem
        d.mkdir()
        set_lang(d, lang)
        out = run_cpython("LAYOUT = 'keypad'\nEVENTS = %r\n" % _keypad_events(path) + PRELUDE + PLAY, d)
        assert _clean(out, "played") >= 15, out
        t = tmp_path / (path.stem + "-tour")
        t.mkdir()
        _finished_flash(path)(t)
        set_lang(t, lang)
        out = run_cpython("LAYOUT = 'keypad'\n" + PRELUDE + TOUR, t)
        assert _clean(out, "toured") >= 15, out
    d = tmp_path / "fuzz"
    d.mkdir()
    set_lang(d, lang)
    out = run_cpython("LAYOUT = 'keypad'\n" + PRELUDE + FUZZ.replace("SEED", "5").replace("range(N)", "range(1000)"), d)
    assert _clean(out, "fuzzed") >= 10, out


@pytest.mark.parametrize("lang", LANGS)
def test_keypad_game_fits_on_micropython(lang, dual):
    """random-s1 entered on the keypad: the same screens, the same verdict
    on the MicroPython VM."""
    path = BENCH / "random-s1.jsonl"
    events = _keypad_events(path)
    english_again()
    out = dual("LAYOUT = 'keypad'\nEVENTS = %r\n" % events + PRELUDE + PLAY, setup_flash=lambda d: set_lang(d, lang))
    assert _clean(out, "played") >= 15
