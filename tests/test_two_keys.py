"""The 2-key board speaks its own keys (issue 30, item 5).

- Key names come from one place: words.k() fills a text's named fields
  ({ok}, {back}, ...) with the board's names, one text "key.<layout>" a
  layout; no other text spells a key.
- A hold of B shows that it counts and what it will do (ui.hold), the
  undo it reaches is asked, never done by the hold; "Undone" says how to
  redo, in the board's keys (both boards).
- Every screen's text still fits on the 2-key board, in both languages.
- `teatally sim` plays the board's real gestures: a, b, chord,
  hold:KEY:MS, hold:b:MS+a (key scripts, the terminal's letters).

Scenarios run on CPython and the MicroPython VM (the `dual` fixture).
"""

import re
from pathlib import Path

import pytest
from ja_support import LANGS, english_again, fresh_modules

from teatally import words
from teatally_host import cli, gen, sim, wordpack

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware" / "teatally"
TWO = "waveshare_pico_oled_1_3"


@pytest.fixture(autouse=True)
def four_keys_after():
    # a CPython scenario names this process's keys for its board: back to
    # the 4-key names the other tests' screens expect
    yield
    english_again()
    words.board_keys("4key")


def set_lang(flash, lang):
    import ja_support

    ja_support.set_lang(flash, lang)
    if lang != "en":
        fresh_modules()


# -- one place for the keys' names ---------------------------------------------------
NAMES = r"""
from teatally import words
for lang in ('en', 'ja'):
    words.use(lang)
    for layout in ('4key', '2key', 'keypad-to-come'):
        words.board_keys(layout)
        print(lang, layout, '/'.join(words.k('legend.keys').split('|')[1:]))
        print(' ', words.k('board.hint'), '|', words.k('undo.redo'), '|', words.k('pad.entry.keys'))
        print(' ', words.k('board.next', 'Blue', 'king'))
words.use('en')
words.board_keys('4key')
"""


def test_key_names_come_from_one_place(dual):
    """The same texts name each board's keys: the 4-key board's as before
    (UP DOWN OK BACK), the 2-key board's as A, B, their holds and chord; a
    layout with no names of its own gets the 4-key names."""
    out = dual(NAMES)
    assert "en 4key DOWN: next/UP: previous/OK: choose/BACK: back, menu/long BACK: undo/long OK: redo" in out
    assert "en 2key A: next/A+B: previous/B: choose/hold B: back, menu/hold B 1.5s: undo/hold B, A: redo" in out
    assert "  BACK: game menu | long OK: redo | OK: next  BACK: back" in out
    assert "  hold B: game menu | hold B, A: redo | B: next  hold B: back" in out
    assert "  Blue: king? B" in out and "  Blue: king? OK" in out
    assert "en keypad-to-come DOWN: next/UP: previous/OK: choose/BACK: back, menu/long BACK: undo/long OK: redo" in out
    assert "ja 2key A: 次/A+B: 前/B: 決定/B長押し: 戻る, メニュー/B長押し1.5秒: 取り消し/B長押し+A: やり直し" in out
    assert "  B長押し: ゲームメニュー | B長押し+A: やり直し | B: 次  B長押し: 戻る" in out


KEY_WORDS = re.compile(r"\b(UP|DOWN|OK|BACK)\b")


def test_no_text_spells_a_key_itself():
    """Outside the key names ("key.<layout>"), no text of either language
    spells UP, DOWN, OK or BACK: a text that names a key says it by its
    field, and the firmware reads such a text through words.k() only."""
    for code in ("en", "ja"):
        table = wordpack.source(code)
        spelled = [k for k, v in table.items() if not k.startswith("key.") and type(v) is str and KEY_WORDS.search(v)]
        assert spelled == [], (code, spelled)
    english = wordpack.source("en")
    named = {k for k, v in english.items() if wordpack._named(v)}
    assert {"board.hint", "board.next", "undo.redo", "legend.keys", "pad.entry.keys"} <= named
    call = re.compile(r"""words\.([tfnk])\(\s*"([^"]+)\"""")
    for path in FIRMWARE.rglob("*.py"):
        for fn, key in call.findall(path.read_text()):
            assert (fn == "k") == (key in named), "%s: words.%s(%r)" % (path.name, fn, key)
    for layout in ("key.4key", "key.2key"):
        for code in ("en", "ja"):
            assert len(wordpack.source(code)[layout].split("|")) == len(wordpack.GESTURES)


def test_a_translation_names_the_same_keys(tmp_path):
    """The packer refuses a translation that names other keys than
    English's, and a field that is no key."""
    (tmp_path / "en.py").write_text('WORDS = {"a.b": "{ok}: go", "key.4key": "U|D|O|B|LO|LB"}\n')
    (tmp_path / "xx.py").write_text('WORDS = {"a.b": "{back}: go"}\n')
    en = wordpack.source("en", tmp_path)
    with pytest.raises(wordpack.WordsError, match="must name the keys"):
        wordpack._check("xx", wordpack.source("xx", tmp_path), en)
    with pytest.raises(wordpack.WordsError, match="a key's field is one of"):
        wordpack._check("en", {"a.b": "{okay}: go"}, {"a.b": "{okay}: go"})
    with pytest.raises(wordpack.WordsError, match=r"its numbered fields are \{0\}..\{3\}"):
        wordpack._check("en", {"a.b": "{4} {ok}"}, {"a.b": "{4} {ok}"})


# -- a hold on the 2-key board -------------------------------------------------------
GAME = [
    {"game": "tea-for-2", "flamingo": "blue", "watch": "stars",
     "objectives": {"4": "tarts", "5": "most:king", "6": "deck", "7": "destroyed", "8": "hourglasses"}},
    {"blue": "king", "pink": "cat", "buy": 6},
    {"blue": "queen", "pink": "guards", "effect": {"pile": 8, "stars": 2}},
]


def game_on_flash(lang="en"):
    def setup(d):
        gen.write_record(GAME, d / "game.jsonl", crc=True)
        if lang != "en":
            set_lang(d, lang)

    return setup


HOLD = r"""
from teatally.app import App
from teatally.hw.virtual import VirtualHardware
from teatally import words
from teatally.ui import core
hw = VirtualHardware(FLASH, LAYOUT)
app = App(hw)
app.boot()
del core.OVERFLOWS[:]
A = 0
B = 1

def run(ms):
    # the main loop's passes, 1 ms apart (App.step: poll, handle, show, the hold)
    end = hw.now + ms
    while hw.now < end:
        app.step()
        hw.now += 1

def tap(pin, ms=80):
    hw.pins[pin] = True
    run(ms)
    hw.pins[pin] = False
    run(200)

def top():
    return type(app.ui.top()).__name__

def rounds():
    return len(app.game.actions)

def band(y):
    # lit pixels in the 8-pixel band at y
    n = 0
    for yy in range(y, y + 8):
        for x in range(128):
            n += app.fb.pixel(x, yy)
    return n

run(50)
before = bytes(app.fb.buffer)
print('board', top(), rounds(), app.hold is not None)
if app.hold is not None:
    hw.pins[B] = True
    run(200)
    print('200 ms', app.hold.px, bytes(app.fb.buffer) == before)
    run(150)
    print('350 ms', app.hold.words.decode(), app.hold.px > 0, band(48) > 400)
    px = app.hold.px
    run(400)
    print('750 ms', app.hold.words.decode(), app.hold.px > px)
    app.keys.swallow()  # (as a key that only wakes the screen does)
    run(5)
    print('swallowed', app.hold.px, bytes(app.fb.buffer) == before)
    hw.pins[B] = False
    run(200)
    # B held to 0.9 s: BACK, the game menu; on it, 1.6 s is BACK all the same
    tap(B, 900)
    print('hold 0.9 s', top(), app.ui.top().title)
    hw.pins[B] = True
    run(700)
    print('menu 0.7 s', app.hold.words.decode())
    run(900)
    print('menu 1.6 s', top())
    hw.pins[B] = False
    run(200)
    # 1.6 s on the board: the undo asked, not done; A keeps the round
    hw.pins[B] = True
    run(1490)
    print('1.49 s', app.hold.words.decode(), top())
    run(110)
    print('1.6 s', top(), rounds(), app.ui.top().title, ' / '.join(app.ui.top().lines))
    hw.pins[B] = False
    run(200)
    print('let go', top(), rounds())
    tap(A)
    print('A', top(), rounds())
    tap(B, 1600)
    tap(B)
    print('B', top(), rounds(), app.ui.top().toast[0], '/', app.ui.top().note)
    # the redo: B held, then A
    hw.pins[B] = True
    run(700)
    hw.pins[A] = True
    run(80)
    hw.pins[A] = False
    hw.pins[B] = False
    run(200)
    print('redo', top(), rounds(), app.ui.top().toast[0])
else:
    from teatally.buttons import E_LONG, K_BACK
    app.key(E_LONG | K_BACK)
    print('long back', top(), rounds(), app.ui.top().toast[0], '/', app.ui.top().note)
print('overflows', len(core.OVERFLOWS))
"""


def test_a_hold_shows_what_it_will_do_and_the_undo_is_asked(dual):
    """B held on the status board: from 0.25 s the bottom lines say what
    the hold gives (the game menu) and a bar counts towards the undo;
    after 0.6 s, what letting go does. At 1.5 s the undo is asked, naming
    the round: A keeps it, B undoes, and "Undone" says the redo's keys (B
    held, then A). Elsewhere a hold past 1.5 s is BACK. A tap draws nothing
    of it (first light as before); a hold that ends with no redraw
    leaves the screen as it was."""
    out = dual("LAYOUT = '2key'\n" + HOLD, setup_flash=game_on_flash())
    lines = out.splitlines()
    assert lines[0] == "board Status 2 True"
    assert "200 ms -1 True" in lines  # nothing drawn before SHOW_MS
    assert "350 ms hold: game menu True True" in lines
    assert "750 ms let go: game menu True" in lines
    assert "swallowed -1 True" in lines  # the frame as before the hold
    assert "hold 0.9 s Menu Game" in lines
    assert "menu 0.7 s let go: back" in lines and "menu 1.6 s Status" in lines
    assert "1.49 s let go: game menu Status" in lines
    assert "1.6 s Ask 2 Undo? R2 Blue queen / B: undo  A: keep" in lines
    assert "let go Ask 2" in lines  # letting go answers nothing
    assert "A Status 2" in lines
    assert "B Status 1 Undone / hold B, A: redo" in lines
    assert "redo Status 2 Redone" in lines
    assert lines[-1] == "overflows 0"


def test_the_four_key_board_undoes_at_once_and_says_the_redo(dual):
    """LONG BACK on the 4-key board is its own key's hold: no hold drawn
    (ui.hold is never loaded), the undo at once, its redo said."""
    out = dual("LAYOUT = '4key'\n" + HOLD, setup_flash=game_on_flash())
    assert "board Status 2 False" in out
    assert "long back Status 1 Undone / long OK: redo" in out


def test_a_hold_in_japanese(dual):
    """The same hold in Japanese: its words fit, the key names are the
    board's (B長押し...)."""
    out = dual("LAYOUT = '2key'\n" + HOLD, setup_flash=game_on_flash("ja"))
    assert "350 ms 押し続けると: ゲームメニュー True True" in out
    assert "B Status 1 取り消しました / B長押し+A: やり直し" in out
    assert out.splitlines()[-1] == "overflows 0"


# -- every screen fits on the 2-key board ------------------------------------------------
def _two_key(prelude):
    made = "App(VirtualHardware(FLASH, LAYOUT, board_name=BOARD))"
    assert made in prelude
    return prelude.replace(made, "App(VirtualHardware(FLASH, '2key', board_name=BOARD))")


@pytest.mark.parametrize("lang", LANGS)
def test_two_key_screens_fit(lang, tmp_path):
    """tests/test_text_fit.py's walks on the 2-key board (its names in the
    hints, footers, the legend, the undo asked by random LONG BACKs): a
    bench game by its key script, the finished game's tour, random presses."""
    import test_text_fit as fit
    from conftest import run_cpython

    prelude = _two_key(fit.PRELUDE)
    path = fit.BENCH / "random-s1.jsonl"
    d = tmp_path / "play"
    d.mkdir()
    set_lang(d, lang)
    out = run_cpython("EVENTS = %r\n" % fit._events(path) + prelude + fit.PLAY, d)
    assert fit._clean(out, "played") >= 15, out
    d = tmp_path / "tour"
    d.mkdir()
    fit._finished_flash(path)(d)
    set_lang(d, lang)
    out = run_cpython(prelude + fit.TOUR, d)
    assert fit._clean(out, "toured") >= 15, out
    d = tmp_path / "fuzz"
    d.mkdir()
    set_lang(d, lang)
    out = run_cpython(prelude + fit.FUZZ.replace("SEED", "5").replace("range(N)", "range(1000)"), d)
    assert fit._clean(out, "fuzzed") >= 10, out


def test_two_key_screens_fit_on_micropython(dual):
    """Random presses on the 2-key board at the Pico's heap, both interpreters."""
    import test_text_fit as fit

    out = dual(_two_key(fit.PRELUDE) + fit.FUZZ.replace("SEED", "11").replace("range(N)", "range(300)"))
    assert fit._clean(out, "fuzzed") >= 5
    assert "no error.log" in out


# -- the simulator plays the real gestures ------------------------------------------------
def test_key_script_gesture_tokens():
    text = "a b chord hold:a:700 hold:b:900 hold:chord:1200 hold:b:700+a 2*a"
    assert sim.parse_keys(text, "2key") == [
        ("tap", "a"), ("tap", "b"), ("tap", "chord"), ("hold", "a", 700), ("hold", "b", 900),
        ("hold", "chord", 1200), ("hold", "b", 700, "a"), ("tap", "a"), ("tap", "a"),
    ]
    assert sim.gesture("2key", "hold", "b", 700, "a") == [[0, 2], [700, 3], [780, 2], [860, 0]]
    assert sim.gesture("2key", "tap", "chord") == [[0, 3], [sim.SHORT_MS, 0]]


@pytest.mark.parametrize("bad", ["A", "hold:b", "hold:b:", "hold:c:100", "hold:a:100+a", "hold:b:0",
                                 "hold:b:99999999", "hold:b:700+b", "chord:5"])
def test_gesture_tokens_refuse_typos(bad):
    with pytest.raises(sim.ScriptError):
        sim.parse_keys("ok\n" + bad)


def test_gestures_are_refused_on_a_board_without_keys_a_and_b(tmp_path, capsys):
    with pytest.raises(sim.ScriptError, match="line 2: hold:b:900: the board has no keys A and B"):
        sim.parse_keys("ok\nhold:b:900", "4key")
    keys = tmp_path / "k.keys"
    keys.write_text("down\na\n")
    assert cli.main(["sim", "--board", "pico_ssd1306", "--keys", str(keys), "--flash", str(tmp_path / "f")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["teatally sim: line 2: a: the board has no keys A and B (layout 4key: up down ok back)"]
    with pytest.raises(sim.ScriptError):
        sim.Sim("pico_ssd1306", tmp_path, sim.ScriptInput([("tap", "a")]))


GESTURE_EVENTS = [
    ("a", ["PRESS DOWN"]),
    ("b", ["PRESS OK"]),
    ("chord", ["PRESS UP"]),
    ("hold:a:700", ["LONG DOWN"]),
    ("hold:a:1200", ["LONG DOWN", "REPEAT DOWN", "REPEAT DOWN", "REPEAT DOWN"]),  # 850, 1000, 1150 ms
    ("hold:chord:700", ["PRESS UP", "LONG UP"]),
    ("hold:b:300", ["PRESS OK"]),
    ("hold:b:900", ["PRESS BACK"]),
    ("hold:b:1600", ["LONG BACK"]),
    ("hold:b:700+a", ["LONG OK"]),
]


def test_each_gesture_gives_the_board_s_events(tmp_path):
    """hw_sim's clock and the host's pins: each real gesture gives the
    events teatally.buttons documents for it, in the firmware's Keys
    under the VM."""
    from test_sim import EVENTS_GUEST

    script = " wait:300 ".join(tok for tok, _ in GESTURE_EVENTS)
    s = sim.Sim(TWO, tmp_path, sim.ScriptInput(sim.parse_keys(script, "2key")))
    res = s.run(guest=EVENTS_GUEST)
    assert res.code == 0, res.stderr
    got = [ln for ln in res.stdout.split("\n") if ln and not ln.startswith("t ")]
    assert got == [ev for _, evs in GESTURE_EVENTS for ev in evs]


def test_a_game_by_real_gestures_is_the_game_by_logical_keys(tmp_path):
    """The demo's first round entered by the board's gestures (a, b,
    chord, holds) leaves the state its logical key script leaves; a hold
    to 1.6 s on the board asks, B undoes, hold:b:700+a redoes."""
    logical = "ok ok down ok ok down ok 2*down ok 3*down ok 4*down ok ok   4*down ok down ok ok"
    real = "b b a b b a b 2*a b 3*a b 4*a b b   4*a b a b b"
    one = sim.Sim(TWO, tmp_path / "1", sim.ScriptInput(sim.parse_keys(logical, "2key")))
    two = sim.Sim(TWO, tmp_path / "2", sim.ScriptInput(sim.parse_keys(real + " hold:b:1600 b hold:b:700+a", "2key")),
                  png_dir=tmp_path / "png")
    for s in (one, two):
        assert s.run().code == 0
    assert one.state is not None and one.state == two.state and one.state["round"] == 1
    assert len(list((tmp_path / "png").glob("*.png"))) > 20  # the holds' frames among them


def test_the_terminal_plays_the_two_key_gestures():
    """On the 2-key board the terminal's letters are its keys: a b taps,
    c the chord, A B C holds of the length digits set, x hold B then A;
    the arrows and Enter stay the logical keys."""
    t = sim.TerminalInput(fd=-1, layout="2key")
    t.buf = "abcAB3Cx\r\x1b[A"
    got = []
    while t.buf:
        tok = t._take()
        if tok is not None:
            got.append(tok)
    assert got == [("tap", "a"), ("tap", "b"), ("tap", "chord"), ("hold", "a", 1000), ("hold", "b", 1000),
                   ("hold", "chord", 600), ("hold", "b", 700, "a"), ("press", "ok"), ("press", "up")]
    four = sim.TerminalInput(fd=-1)
    four.buf = "b"
    assert four._take() == ("press", "back")
    assert "a b = tap A/B" in sim.help_line("2key") and "hold 0.6 s" in sim.help_line("2key", 600)
    assert "Backspace/b = BACK" in sim.help_line("4key")


def test_sim_help_names_the_gestures(capsys):
    with pytest.raises(SystemExit):
        cli.main(["sim", "--help"])
    out = capsys.readouterr().out
    for token in ("hold:b:MS+a", "hold:a:MS hold:b:MS hold:chord:MS", "a b chord", "x  hold B, then tap A"):
        assert token in out


# -- golden screenshots of the 2-key board ------------------------------------------------
GOLDEN = ROOT / "tests" / "golden"
DEMO = sim.DEMO_KEYS.read_text()
# name: (language, key script after the demo, which frame: -1 the last, -2 the
# one before: a hold's last frame before its release)
TWO_KEY_GOLDENS = {
    "status": ("en", "", -1),
    "hold": ("en", "hold:b:1000", -2),
    "ask": ("en", "hold:b:1600", -1),
    "undone": ("en", "hold:b:1600 b", -1),
    "legend_keys": ("en", "hold:b:900 2*a b 9*a", -1),
    "ja_hold": ("ja", "hold:b:1000", -2),
    "ja_undone": ("ja", "hold:b:1600 b", -1),
}


@pytest.mark.parametrize("name", sorted(TWO_KEY_GOLDENS))
def test_two_key_golden_screens(name, tmp_path, check_golden):
    """The demo on the 2-key board, then: its status board (the hint and
    the question in its keys), a hold counting, the undo asked, "Undone"
    with the redo's keys, the legend's keys; and in Japanese. Frames from
    the firmware under the VM (teatally sim)."""
    lang, more, which = TWO_KEY_GOLDENS[name]
    flash = tmp_path / "flash"
    flash.mkdir()
    sim.set_language(flash, lang)
    s = sim.Sim(TWO, flash, sim.ScriptInput(sim.parse_keys(DEMO + "\n" + more, "2key")), keep_frames=True)
    assert s.run().code == 0
    frame, on, flipped = s.frames[which]
    shot = tmp_path / "shot.png"
    sim.to_image(sim.to_rows(frame, on, flipped)).save(shot)
    check_golden(shot, GOLDEN / ("sim_2key_%s.png" % name))


def test_the_readme_s_two_key_script_plays(tmp_path):
    """The README's key script for the 2-key board (a game begun by taps and
    chords, the menu by holds, the undo asked and answered, the redo)
    plays as it says: one round on the record at the end, after an undo
    and its redo."""
    readme = (ROOT / "README.md").read_text()
    m = re.search(r"printf '([^']+)\\n' > try\.keys", readme)
    assert m, "the README's 2-key script"
    script = m.group(1)
    assert script.endswith(" hold:b:1600 b hold:b:700+a")
    states = []
    for i, cut in enumerate((" b hold:b:700+a", " hold:b:700+a", "")):
        text = script[: len(script) - len(cut)]
        s = sim.Sim(TWO, tmp_path / str(i), sim.ScriptInput(sim.parse_keys(text, "2key")))
        assert s.run().code == 0
        states.append(s.state)
    # the hold to 1.6 s only asked; B undid the round; B held, then A, redid it
    assert [st["round"] for st in states] == [1, 0, 1]
    assert states[0] == states[2] and states[2]["blue"]["discard"] == ["knave"]
    logical = sim.Sim(TWO, tmp_path / "l", sim.ScriptInput(sim.parse_keys(
        "ok ok down ok ok down ok 2*down ok 3*down ok 4*down ok ok 4*down ok down ok ok")))
    assert logical.run().code == 0 and logical.state == states[2]
