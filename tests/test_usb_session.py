"""Every USB session ends with the game running again (issue 33).

The device is tests/test_boot_rescue.py's fake machine (a virtual clock, a
watchdog that resets, timers that stop at a soft reset, boot.py and main.py
run as the rp2 port runs them), with a game in progress on its flash. A
session is what mpremote does: Ctrl-C (KeyboardInterrupt in the running
app), a soft reset in the raw REPL (boot.py only), the session's commands
(here teatally pull's dump), then its end: teatally's tools end with
mpremote's `reset` (cmd_flash.RESTART: machine.reset(), the chip starts
again), a person's session leaves the board at the friendly REPL, where
Ctrl-D soft-resets it (boot.py and main.py). Both interpreters (``dual``).
"""

import json

from test_boot_rescue import ROOT, _flash, scenario

from teatally_host import cmd_flash, cmd_pull, gen

# what mpremote 1.27 runs for its `reset` command (mpremote.main's expansion)
MPREMOTE_RESET = "import time, machine; time.sleep_ms(100); machine.reset()"

SESSION = r"""
import binascii
HWS = []  # the hardware of every start
FRAMES = []  # the frame on the panel when each Ctrl-C came


def started():
    hw = hardware()
    HWS.append(hw)
    return hw


app.hardware = started


def ctrl_c_due():
    # (the fake machine's, noting the frame on the panel first)
    if Clock.ctrl_c_at is not None and Clock.now >= Clock.ctrl_c_at:
        Clock.ctrl_c_at = None
        if micropython.intr != 3:
            STDIN.append('\x03')
            return
        FRAMES.append(bytes(HWS[-1].display.buffer))
        raise KeyboardInterrupt


def machine_reset():
    hard_reset()
    raise Reset()


machine.reset = machine_reset


class FakeTime:
    pass


FakeTime.sleep_ms = advance


def mpremote_exec(code, g):
    # one exec of a session, in the raw REPL's globals (boot.py's); its
    # printed lines counted
    out = []
    g['print'] = lambda *a, **k: out.append(a)
    real = sys.modules.get('time')
    sys.modules['time'] = FakeTime
    try:
        exec(code, g)
    finally:
        sys.modules['time'] = real
        del g['print']
    return len(out)


def panel():
    return bytes(HWS[-1].display.buffer)


try:
    # power-up: the game resumes from its journal; 3 s later a session's Ctrl-C
    Clock.ctrl_c_at = 3000
    print('power-up:', power_up(), [x.split(' at')[0] for x in LOG if not x.startswith('text')])
    game = FRAMES[-1]
    connected = panel()
    print('the game on screen before:', binascii.crc32(game) == GAME_CRC)
    print('then the connected screen:', binascii.crc32(connected) == CONNECTED_CRC)
    # the tools' session: mpremote's soft reset in the raw REPL (boot.py,
    # not main.py), teatally pull's dump, 30 s in all; the keeper feeds the
    # app's watchdog, the panel keeps the connected screen
    soft_reset()
    g = boot_py()
    t0 = Clock.now
    print('pull dump lines:', mpremote_exec(DUMP, g))
    advance(30000)
    print('session:', Clock.now - t0, 'ms, no reset:', 'RESET' not in str(LOG), 'panel:', panel() == connected)
    # its end: mpremote's reset; the chip starts again, the app resumes
    try:
        mpremote_exec(RESET, g)
        print('no reset?')
    except Reset:
        print('reset at the end of the session')
    del LOG[:]
    Clock.ctrl_c_at = Clock.now + 3000
    print('power-up:', power_up(), [x.split(' at')[0] for x in LOG if not x.startswith('text')])
    print('the game back at the same screen:', FRAMES[-1] == game, 'then connected again:', panel() == connected)
    # a person's session: the raw REPL, an exec, its end at the friendly
    # REPL (mpremote exits the raw REPL: no reset); the panel says how to
    # get back; 20 s later Ctrl-D: a soft reset, boot.py, main.py
    soft_reset()
    g = boot_py()
    print('own exec lines:', mpremote_exec("print(len(os.listdir()))", g))
    advance(20000)
    print('at the REPL, no reset:', 'RESET' not in str(LOG), 'panel:', panel() == connected)
    soft_reset()
    g = boot_py()
    del LOG[:]
    Clock.ctrl_c_at = Clock.now + 3000
    print('Ctrl-D:', power_up(g), [x.split(' at')[0] for x in LOG if not x.startswith('text')])
    print('the game back at the same screen:', FRAMES[-1] == game)
    # a session opened while the board comes up at power-up (Ctrl-C off
    # then): the Ctrl-C waits on the console and is raised as the app
    # starts: the REPL, the connected screen, no watchdog started
    hard_reset()
    del LOG[:]
    Clock.ctrl_c_at = Clock.now
    print('at power-up:', power_up(), [x for x in LOG if not x.startswith('text')], 'panel:',
          binascii.crc32(panel()) == CONNECTED_CRC, 'console:', STDIN, 'Ctrl-C on:', micropython.intr == 3)
finally:
    done()
"""


def _game(d):
    """A device flashed with every board, a game of Tea for 2 in progress."""
    _flash(d)
    lines = (ROOT / "examples" / "demo-game.jsonl").read_text().splitlines()
    objs = [json.loads(x) for x in lines if x and not x.startswith("#")]
    gen.write_record(objs, d / "game.jsonl", crc=True)


def _frames():
    """The CRC-32 of the game's status board (resumed from the demo game's
    journal) and of the connected screen, drawn on the host's virtual
    board."""
    import binascii
    import tempfile
    from pathlib import Path

    from teatally_host import pyframebuf

    pyframebuf.install()  # (CPython has no framebuf)
    from teatally import app
    from teatally.hw import virtual as hw_virtual

    with tempfile.TemporaryDirectory() as d:
        _game(Path(d))
        hw = hw_virtual.VirtualHardware(d)
        a = app.App(hw)
        a.boot()
        a.show()
        game = binascii.crc32(bytes(hw.display.buffer))
        app.connected(hw.display)
        return game, binascii.crc32(bytes(hw.display.buffer))


def test_a_session_ends_with_the_game_back_at_the_same_screen(dual):
    game, connected = _frames()
    assert game != connected
    body = "GAME_CRC = %d\nCONNECTED_CRC = %d\nDUMP = %r\nRESET = %r\n" % (game, connected, cmd_pull.DUMP,
                                                                            MPREMOTE_RESET)
    out = dual(scenario(body + SESSION), setup_flash=_game).splitlines()
    assert out[0] == "power-up: KeyboardInterrupt: the REPL ['WDT(8000)']"
    # the Ctrl-C came at the game's status board; the panel then says a
    # computer holds the board, and how the game comes back
    assert out[1:3] == ["the game on screen before: True", "then the connected screen: True"]
    # pull's dump: a header, the journal's hex lines, the end
    assert out[3].startswith("pull dump lines: ") and int(out[3].split()[-1]) >= 3
    assert out[4] == "session: 30000 ms, no reset: True panel: True"
    # mpremote's reset ends the tools' sessions: the app starts as at
    # power-up and resumes the game from its journal, at the same screen
    assert out[5:8] == ["reset at the end of the session", "power-up: KeyboardInterrupt: the REPL ['WDT(8000)']",
                        "the game back at the same screen: True then connected again: True"]
    # a person's own session: the board waits at the REPL with the
    # connected screen (no reset: the keeper feeds); Ctrl-D brings the game back
    assert out[8] == "own exec lines: 1"
    assert out[9] == "at the REPL, no reset: True panel: True"
    assert out[10] == "Ctrl-D: KeyboardInterrupt: the REPL ['WDT(8000)']"
    assert out[11] == "the game back at the same screen: True"
    assert out[12] == "at power-up: KeyboardInterrupt: the REPL [] panel: True console: [] Ctrl-C on: True"


def test_mpremote_reset_is_what_the_sessions_end_with():
    """The tools' last step is mpremote's `reset`, and mpremote expands it to
    the machine.reset() the test above plays."""
    from mpremote import main as mpremote_main

    assert cmd_flash.RESTART == ["reset"]
    assert mpremote_main._BUILTIN_COMMAND_EXPANSIONS["reset"]["command"] == ["exec", "--no-follow", MPREMOTE_RESET]


def test_the_readme_shows_the_connected_screen_as_drawn():
    """README, "Putting it on a Pico": the screen's English lines as the
    firmware wraps them."""
    import sys

    sys.path.insert(0, str(ROOT / "firmware"))
    from teatally import words
    from teatally.ui.core import wrap

    shown = "```\n%s\n%s\n```" % (words.t("usb.title"), "\n".join(wrap(words.t("usb.text"))))
    assert shown in (ROOT / "README.md").read_text()
