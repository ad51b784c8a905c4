"""`teatally sim`: the real firmware under the MicroPython VM, simulated board.

    teatally sim [--board B] [--flash DIR] [--keys FILE|-] [--png DIR] [--shot FILE] [--demo] [--heap KB]
                 [--lang en|ja]

In a terminal: the 128x64 screen drawn with half blocks, live. Keys: arrows
Up/Down, Enter = OK, Backspace = BACK; u/d/o/b short, U/D/O/B long presses
(or l then a key); q quits. On the 2-key board (keys A and B) the letters
are its own gestures: a/b taps, c the chord, A/B/C holds, x hold B then A
(the line under the screen says them). The game is kept in the flash folder (default
./sim-flash), so quitting and starting again resumes it like a power cycle.

Non-interactive (``--keys``, ``--demo``, or stdin is not a terminal): plays
the key script (format: teatally_host.sim), then prints the last screen and
the game state as the firmware serialises it, and exits. ``--demo`` (the
default when stdin is not a terminal) plays the built-in demo from an empty
flash (a temporary folder unless --flash is given). ``--png DIR`` saves every
frame, ``--shot FILE`` the last one.

The firmware runs as on a Pico: compiled with mpy-cross, the stock RPI_PICO
heap of 192 KB with collections on (``--heap KB`` tries another heap).
"""

import argparse
import os
import sys
from pathlib import Path

from teatally_host import mpvm, sim
from teatally_host.errors import BadInput, folder, read_text

HEAP_KB_RANGE = (16, 1024)
MAX_SCALE = 16  # a 2048x1024 PNG per frame


EPILOG = """\
keys in the terminal:
  Up/Down arrows, u/d   UP / DOWN            U D O B     long presses
  Enter, o              OK                   l then key  long press of that key
  Backspace, b          BACK                 q, Ctrl-C   quit (the game stays on the flash folder)

key scripts (--keys): words separated by spaces or lines, '#' comments:
  up down ok back       short presses        UP DOWN OK BACK, long:ok   long presses
  wait:MS               let MS ms pass       3*down                     repetition
  0..9 star hash        the keypad's own keys (--board pico_keypad; there up/down/ok/back are its A B C D)

on the keypad board (--board pico_keypad) the computer's digit keys, * and # are the keypad's.

the 2-key board (--board waveshare_pico_oled_1_3, keys A and B): the words above
become its gestures, and its own gestures play as they are:
  in the terminal       a b  tap A, tap B    c  chord (A and B together)
                        A B C  hold A, B, the chord (1..9 set the hold: 0.2..1.8 s)
                        x  hold B, then tap A
  in key scripts        a b chord            taps (80 ms)
                        hold:a:MS hold:b:MS hold:chord:MS   held MS ms, let go
                        hold:b:MS+a          B held MS ms, A tapped, both let go
  what they give:       tap A = down, chord = up, tap B = OK, hold B 0.6-1.5 s = back
                        (the game menu), hold B 1.5 s = undo (asked first),
                        hold B then A = redo; the screen shows a hold while it counts
"""


def add_arguments(parser):
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG
    parser.add_argument(
        "--board",
        help="board file under boards/ (default: the flash folder's board.txt, as on the Pico, else %s)"
        % sim.DEFAULT_BOARD,
    )
    parser.add_argument("--flash", metavar="DIR", help="folder playing the Pico's flash (default ./sim-flash)")
    parser.add_argument("--keys", metavar="FILE", help="key script to play ('-' = stdin; at most 1 MiB), then exit")
    parser.add_argument("--demo", action="store_true", help="play the built-in demo (fresh flash) and exit")
    parser.add_argument("--png", metavar="DIR", help="save every frame as DIR/frame-NNNNN.png")
    parser.add_argument("--shot", metavar="FILE", help="save the last frame as a PNG")
    parser.add_argument("--scale", type=int, default=4, help="PNG pixels per OLED pixel (default 4)")
    parser.add_argument("--plain", action="store_true", help="PNG in black and white instead of the OLED look")
    parser.add_argument(
        "--lang",
        choices=sim.LANGUAGES,
        help="the device's language, saved in the flash folder's settings as the Settings menu does "
        "(default: the flash folder's choice, else en); the game record is the same in every language",
    )
    parser.add_argument("--seed", type=int, default=42, help="seed of the simulated dice (default 42)")
    parser.add_argument("--quiet", action="store_true", help="non-interactive: print nothing but errors")
    parser.add_argument(
        "--heap",
        metavar="KB",
        type=int,
        default=mpvm.PICO_HEAP // 1024,
        help="the VM's heap in KB, collections on (default %d: the stock RPI_PICO firmware's)"
        % (mpvm.PICO_HEAP // 1024),
    )


def run(args):
    interactive = args.keys is None and not args.demo and sys.stdin.isatty() and sys.stdout.isatty()
    if not HEAP_KB_RANGE[0] <= args.heap <= HEAP_KB_RANGE[1]:
        raise BadInput("--heap must be %d..%d (KB)" % HEAP_KB_RANGE)
    if not 1 <= args.scale <= MAX_SCALE:
        raise BadInput("--scale must be 1..%d" % MAX_SCALE)
    try:
        script = read_text(args.keys, "key script") if args.keys is not None else None
        tmp = None
        if args.flash:
            flash = Path(args.flash)
        elif script is None and not interactive:  # the demo starts from an empty flash
            tmp = sim.fresh_flash()
            flash = Path(tmp.name)
        else:
            flash = Path("sim-flash")
        folder(flash, "--flash (the folder playing the Pico's flash)")
        args.board = args.board or sim.board_of(flash)
        layout = sim.load_board(args.board)["layout"]
        if script is not None:
            source = sim.ScriptInput(sim.parse_keys(script, layout))
        elif interactive:
            source = None
        else:
            source = sim.ScriptInput(sim.demo_tokens())
        if args.png:  # (written at every frame: a folder that cannot be is said now)
            folder(args.png, "--png (the folder for the frames)")
        if args.shot:
            folder(Path(args.shot).parent, "--shot (the last frame's file)")
            if Path(args.shot).is_dir():
                raise BadInput("--shot %s is a folder; give a file name" % args.shot)
        if args.lang:
            sim.set_language(flash, args.lang)
        if interactive:
            return _interactive(args, flash)
        s = sim.Sim(
            args.board,
            flash,
            source,
            png_dir=args.png,
            shot=args.shot,
            seed=args.seed,
            scale=args.scale,
            plain=args.plain,
        )
    except sim.ScriptError as exc:
        raise BadInput(str(exc))
    except OSError as exc:
        raise BadInput("%s: %s" % (exc.filename, exc.strerror) if exc.filename else str(exc))
    try:
        return _report(s, s.run(heap=args.heap * 1024), flash, args.quiet)
    finally:
        if tmp is not None:
            tmp.cleanup()


def _report(s, res, flash, quiet):
    if res.code != 0:
        print(res.stdout, end="")
        print(res.stderr, end="", file=sys.stderr)
        print("teatally sim: the firmware stopped (exit %s)" % res.code, file=sys.stderr)
        return 1
    log = flash / "error.log"
    if log.exists():
        print("teatally sim: the firmware logged errors (%s):\n%s" % (log, log.read_text()), file=sys.stderr)
    if not quiet:
        if s.guest_out:
            print(s.guest_out)
        print(sim.framed(s.rows()))
        print("state: %s" % (s.state_text or "null"))
    return 0


def _interactive(args, flash):
    import termios

    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    new = termios.tcgetattr(fd)
    # no echo, no line buffering, no signals: Ctrl-C arrives as a key (quit)
    new[3] &= ~(termios.ECHO | termios.ICANON | termios.ISIG | termios.IEXTEN)
    new[6][termios.VMIN] = 1
    new[6][termios.VTIME] = 0
    out = sys.stdout
    layout = sim.load_board(args.board)["layout"]
    source = sim.TerminalInput(fd, layout)
    last = [None]

    def screen(rows):
        last[0] = rows
        out.write("\x1b[H" + sim.framed(rows).replace("\n", "\x1b[K\r\n") + "\x1b[K\r\n")
        out.write("%s  board %s  flash %s\x1b[K\r\n\x1b[J" % (sim.help_line(layout, source.hold_ms), args.board, flash))
        out.flush()

    source.said = lambda: last[0] is not None and screen(last[0])  # (a digit changed the hold's length)

    cols = os.get_terminal_size(fd).columns
    if cols < sim.W + 2:
        print("teatally sim: the screen needs %d columns (this terminal has %d)" % (sim.W + 2, cols), file=sys.stderr)
    s = sim.Sim(
        args.board,
        flash,
        source,
        png_dir=args.png,
        shot=args.shot,
        seed=args.seed,
        scale=args.scale,
        plain=args.plain,
        screen=screen,
    )
    out.write("\x1b[2J\x1b[?25l")
    out.flush()
    termios.tcsetattr(fd, termios.TCSADRAIN, new)
    try:
        res = s.run(fuel=10**15, heap=args.heap * 1024)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        out.write("\x1b[?25h\n")
        out.flush()
    if res.code != 0:
        print(res.stdout + res.stderr, file=sys.stderr)
        return 1
    print("game kept in %s; `teatally sim` resumes it" % flash)
    return 0
