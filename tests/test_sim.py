"""`teatally sim`: the real firmware under the MicroPython VM, simulated board.

The simulator is host tooling around the firmware, so these tests drive it as
a user would (the CLI in-process, and `teatally sim` in a subprocess with
stdin not a terminal, like `make sim` in CI) and check what comes out: one
valid PNG per frame, a game that survives a restart on the same flash
folder, the demo's screen and state, and golden screenshots (pixel-exact;
`pytest --update-golden` rewrites them after a deliberate UI change).
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from t42_support import DECLINE_SEEDS, decline_depths

from teatally import journal
from teatally_host import cli, gen, keyscript, sim

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
QUESTION_MARK = "@question"  # demo.keys line after which a round question is on screen


def run_cli(*argv):
    return cli.main(["sim", *map(str, argv)])


def demo_text():
    return sim.DEMO_KEYS.read_text()


def demo_until_question():
    lines = demo_text().splitlines()
    for i, line in enumerate(lines):
        if QUESTION_MARK in line:
            return "\n".join(lines[: i + 1])
    raise AssertionError("demo.keys has no %s marker" % QUESTION_MARK)


def play(text, flash, board=sim.DEFAULT_BOARD, heap=None, **kw):
    """The key script on the simulator; heap in KB (default: the Pico's)."""
    s = sim.Sim(board, flash, sim.ScriptInput(sim.parse_keys(text)), **kw)
    res = s.run(heap=heap * 1024) if heap else s.run()
    assert res.code == 0, res.stdout + res.stderr
    assert not (Path(flash) / "error.log").exists(), (Path(flash) / "error.log").read_text()
    return s


# -- key scripts -------------------------------------------------------------------
def test_key_script_tokens():
    text = """
        up down ok back   # short presses
        UP long:down OK long:BACK
        3*down wait:250 2*OK
    """
    assert sim.parse_keys(text) == [
        ("press", "up"),
        ("press", "down"),
        ("press", "ok"),
        ("press", "back"),
        ("long", "up"),
        ("long", "down"),
        ("long", "ok"),
        ("long", "back"),
        ("press", "down"),
        ("press", "down"),
        ("press", "down"),
        ("wait", 250),
        ("long", "ok"),
        ("long", "ok"),
    ]


@pytest.mark.parametrize("bad", ["left", "wait:x", "long:", "3*", "Ok"])
def test_key_script_refuses_unknown_tokens(bad):
    with pytest.raises(sim.ScriptError):
        sim.parse_keys("ok\n" + bad)


# The guest side for the gesture test: hw_sim's board and the firmware's Keys,
# printing each logical event; the loop ends when the script is used up.
EVENTS_GUEST = """\
from teatally.hw import sim as hw_sim
from teatally.buttons import Keys, event_name
hw = hw_sim.setup()
if hw.layout == 'keypad':
    from teatally.hw.keypad import KeypadKeys
    keys = KeypadKeys(hw.predicates, hw.scan, now_ms=hw.ticks_ms())
else:
    keys = Keys(hw.predicates, hw.layout, now_ms=hw.ticks_ms())
try:
    while True:
        ev = keys.poll(hw.ticks_ms())
        if ev >= 0:
            print(event_name(ev))
        hw.idle()
except SystemExit:
    pass
print('t', hw.ticks_ms())
"""


# A long UP/DOWN is a hold until the LONG: UP and DOWN step at the press
# (teatally.buttons), so the 4-key board and the 2-key chord (UP) send the
# PRESS, then the LONG (two steps); the 2-key A (DOWN) waits for a chord
# that may still come, so its hold is the LONG alone.
HOLD_STEPS = {
    "pico_ssd1306": (["PRESS UP", "LONG UP"], ["PRESS DOWN", "LONG DOWN"]),
    "waveshare_pico_oled_1_3": (["PRESS UP", "LONG UP"], ["LONG DOWN"]),
    "pico_keypad": (["PRESS UP", "LONG UP"], ["PRESS DOWN", "LONG DOWN"]),  # its A and B
}


@pytest.mark.parametrize("board", ["pico_ssd1306", "waveshare_pico_oled_1_3", "pico_keypad"])
def test_each_token_is_its_logical_events(board, tmp_path):
    """hw_sim's clock and queue plus the host's gestures give exactly the
    event each token names, on the 4-key board and through the 2-key
    gestures; a long UP/DOWN is the hold's PRESS and LONG (HOLD_STEPS)."""
    script = "up down ok back UP DOWN OK BACK wait:1000 down"
    s = sim.Sim(board, tmp_path, sim.ScriptInput(sim.parse_keys(script)))
    res = s.run(guest=EVENTS_GUEST)
    assert res.code == 0, res.stderr
    lines = res.stdout.split("\n")
    up, down = HOLD_STEPS[board]
    want = ["PRESS UP", "PRESS DOWN", "PRESS OK", "PRESS BACK"] + up + down + ["LONG OK", "LONG BACK", "PRESS DOWN"]
    assert lines[: len(want)] == want
    rest = lines[len(want) :]
    assert rest[0].startswith("t ") and rest[1:] == [""]
    # virtual time: the wait and every gesture really took their time
    assert int(rest[0][2:]) >= 1000 + 4 * sim.SHORT_MS + 4 * sim.LONG_MS


def test_the_keypads_own_keys_through_its_matrix(tmp_path):
    """The keypad board's digits, star and hash in a key script: each its
    PRESS, through the matrix wires and the Pico's scan on the VM; a digit
    on a cursor board is refused before the run."""
    s = sim.Sim("pico_keypad", tmp_path, sim.ScriptInput(sim.parse_keys("5 star hash 0 9 1")))
    res = s.run(guest=EVENTS_GUEST)
    assert res.code == 0, res.stderr
    assert res.stdout.split("\n")[:6] == ["PRESS 5", "PRESS *", "PRESS #", "PRESS 0", "PRESS 9", "PRESS 1"]
    with pytest.raises(sim.ScriptError):
        sim.Sim("pico_ssd1306", tmp_path, sim.ScriptInput(sim.parse_keys("ok 5")))


# -- the firmware under the simulator ----------------------------------------------------
def test_png_per_frame_and_last_shot(tmp_path):
    flash, png, shot = tmp_path / "flash", tmp_path / "png", tmp_path / "last.png"
    keys = tmp_path / "k.keys"
    keys.write_text("down down up ok back")
    assert run_cli("--keys", keys, "--flash", flash, "--png", png, "--shot", shot, "--quiet") == 0
    frames = sorted(png.glob("frame-*.png"))
    assert len(frames) >= 5  # the boot frame plus one per key that changed the screen
    assert [f.name for f in frames] == ["frame-%05d.png" % i for i in range(1, len(frames) + 1)]
    for f in frames:
        with Image.open(f) as img:
            img.verify()
        with Image.open(f) as img:
            assert img.size == (512, 256) and img.format == "PNG"
    rows = [sim.image_rows(Image.open(f)) for f in frames]
    assert any(rows[i] != rows[i + 1] for i in range(len(rows) - 1)), "the keys changed nothing on screen"
    assert sim.image_rows(Image.open(shot)) == rows[-1]
    assert not (flash / "error.log").exists()


def test_demo_game_survives_a_restart(tmp_path):
    """Quitting and starting again on the same flash folder resumes the game
    (a power cycle): same state, and the boot screen is the game's screen."""
    flash = tmp_path / "flash"
    first = play(demo_text(), flash)
    assert first.state is not None and first.state["round"] >= 2 and not first.state["over"]
    again = play("", flash)
    assert again.state == first.state
    assert again.state_text == first.state_text
    # the same status screen after the restart (the round number, the
    # players' boards), but for its last line: the next round's question,
    # found by the idle work after the boot
    rows = len(first.rows()) * 7 // 8
    assert again.rows()[:rows] == first.rows()[:rows]


def test_the_simulator_runs_as_a_pico(tmp_path):
    """The simulator's VM has the stock RPI_PICO heap (192 KB) with
    collections on, and the demo plays through collections to the same game
    at the heap a test uses for pressure (144 KB)."""
    flash = tmp_path / "flash"
    probe = "import gc\nprint('GC', gc.isenabled(), gc.mem_free() + gc.mem_alloc())\n"
    s = sim.Sim(sim.DEFAULT_BOARD, flash, sim.ScriptInput(sim.parse_keys(demo_text())))
    res = s.run(guest=probe + sim.GUEST)
    assert res.code == 0, res.stderr
    gc_on, total = s.guest_out.split()[1:3]
    assert gc_on == "True" and 184 * 1024 <= int(total) <= 192 * 1024  # less its allocation table
    tight = play(demo_text(), tmp_path / "tight", heap=144)
    assert tight.state == s.state


def test_sim_heap_option(tmp_path, capsys):
    """`teatally sim --heap KB` runs at another heap; a heap out of range is
    refused with one line and exit 2."""
    from teatally_host import cli

    assert cli.main(["sim", "--demo", "--quiet", "--heap", "8"]) == 2
    assert capsys.readouterr().err == "teatally sim: --heap must be 16..1024 (KB)\n"
    assert cli.main(["sim", "--demo", "--quiet", "--heap", "160", "--flash", str(tmp_path / "f")]) == 0


def test_a_game_declining_copies_by_its_key_script(tmp_path):
    """T42-COPY-4: the firmware on the MicroPython VM, driven by the key
    script teatally_host.keyscript writes for a generated game that declines
    copied effects (the copy question answered "Decline" or "Apply"),
    archives exactly that record."""
    objs = [o for o in gen.random_game(DECLINE_SEEDS[2], style="copies", decline_rate=0.35) if "adjust" not in o]
    assert any(decline_depths(o) for o in objs[1:])
    text = keyscript.to_text(keyscript.presses_for(objs), objs)
    flash = tmp_path / "flash"
    play(text, flash)
    archived = (flash / "games" / "g0001.jsonl").read_bytes()
    assert [o for _, o in journal.parse_record_lines(archived)] == objs


def test_two_key_board_plays_the_same_game(tmp_path):
    """The demo's logical keys become the Waveshare board's A/B gestures: the
    game ends in the same state."""
    four = play(demo_text(), tmp_path / "a")
    two = play(demo_text(), tmp_path / "b", board="waveshare_pico_oled_1_3")
    assert two.state == four.state


def test_demo_without_a_terminal_prints_screen_and_state(tmp_path):
    """`make sim` in CI: stdin is not a terminal, no --keys: the demo plays on
    a fresh flash and the last screen and the state are printed."""
    exe = Path(sys.executable).with_name("teatally")
    res = subprocess.run(
        [str(exe), "sim"], stdin=subprocess.DEVNULL, capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    assert res.returncode == 0, res.stderr
    assert res.stderr == ""
    lines = res.stdout.splitlines()
    top = lines.index("\u250c" + "\u2500" * 128 + "\u2510")
    screen = lines[top + 1 : top + 33]
    assert len(screen) == 32 and all(len(ln) == 130 for ln in screen)
    assert lines[top + 33] == "\u2514" + "\u2500" * 128 + "\u2518"
    assert any(set(ln[1:-1]) - {" "} for ln in screen), "blank screen"
    (state_line,) = [ln for ln in lines if ln.startswith("state: ")]
    state = json.loads(state_line[7:])
    assert state["round"] >= 2 and state["over"] is False
    assert not (tmp_path / "sim-flash").exists()  # the demo kept off the default flash


def test_halfblocks_pack_two_pixel_rows_per_line():
    frame = bytearray(sim.FRAME_BYTES)
    frame[0] = 0b01  # (0,0) on
    frame[1] = 0b10  # (1,1) on
    frame[2] = 0b11  # (2,0) and (2,1) on
    lines = sim.halfblocks(sim.to_rows(bytes(frame)))
    assert len(lines) == 32 and lines[0][:4] == "\u2580\u2584\u2588 "
    assert sim.halfblocks(sim.to_rows(bytes(frame), flipped=True))[31][-3:] == "\u2588\u2580\u2584"
    assert set("".join(sim.halfblocks(sim.to_rows(bytes(frame), on=False)))) == {" "}


# -- golden screenshots ----------------------------------------------------------------
GOLDEN_SCRIPTS = {
    "home": lambda: "",
    "round_question": demo_until_question,
    "status_after_demo": demo_text,
}


@pytest.mark.parametrize("name", sorted(GOLDEN_SCRIPTS))
def test_golden_screens(name, tmp_path, check_golden):
    shot = tmp_path / "shot.png"
    play(GOLDEN_SCRIPTS[name](), tmp_path / "flash", shot=shot)
    check_golden(shot, GOLDEN / ("sim_%s.png" % name))
