"""The board files: which board the device runs on, read and checked at
boot (``teatally.hw.pico.setup``).

On the device the board modules live in ``/boards/<name>.py`` (or ``.mpy``);
``/board.txt`` holds the chosen board's name (first line, e.g.
``waveshare_pico_oled_1_3``). No ``/board.txt`` means ``DEFAULT_BOARD``.
``teatally flash --board X`` copies ``boards/X.py`` to ``/boards/X.py``,
installs X's MIP_PACKAGES and writes ``/board.txt``. A board picked later in
the settings menu only works if its file and driver are on the device too;
otherwise ``hw.pico.setup`` falls back (default board, then any other file in
``/boards``) and says why in ``board_error``. ``load_board`` imports from
``<root>/boards`` by putting that folder on ``sys.path`` for the duration of
the import, so it works alike on the Pico (root ""), in the simulator (root
"/flash") and on the host.
"""

from teatally.hw.base import FRAME_H, FRAME_W

DEFAULT_BOARD = "pico_ssd1306"
BOARD_FILE = "/board.txt"
BOARDS_DIR = "/boards"

# Constants every board module must define (see boards/*.py).
BOARD_KEYS = (
    "NAME",
    "DESCRIPTION",
    "DISPLAY_DRIVER",
    "MIP_PACKAGES",
    "BUS",
    "BUS_ID",
    "SDA",
    "SCL",
    "SCK",
    "MOSI",
    "CS",
    "DC",
    "RST",
    "FREQ",
    "ADDR",
    "WIDTH",
    "HEIGHT",
    "ROTATION",
    "DRIVER_ROTATE",
    "BUTTONS",
    "ACTIVE_LOW",
    "PULL_UP",
    "LAYOUT",
)
# BUTTONS' names in order; the keypad's are its matrix lines (hw.keypad):
# four rows, then four columns
KEY_ORDER = {
    "4key": ("UP", "DOWN", "OK", "BACK"),
    "2key": ("A", "B"),
    "keypad": ("ROW1", "ROW2", "ROW3", "ROW4", "COL1", "COL2", "COL3", "COL4"),
}
DRIVERS = ("ssd1306", "sh1106", "sh1107")


def valid_board_name(name):
    """Board names are plain module names: a-z, 0-9, '_' (no paths)."""
    if not name or len(name) > 40 or not ("a" <= name[0] <= "z"):
        return False
    for ch in name:
        if not ("a" <= ch <= "z" or "0" <= ch <= "9" or ch == "_"):
            return False
    return True


def read_board_name(root=""):
    """The board named in ``<root>/board.txt``, or DEFAULT_BOARD."""
    try:
        with open(root + BOARD_FILE) as f:
            name = f.readline().strip()
    except OSError:
        return DEFAULT_BOARD
    return name or DEFAULT_BOARD


def load_board(name, root=""):
    """Import the board module ``<root>/boards/<name>.py``; ImportError if absent."""
    import sys

    if not valid_board_name(name):
        raise ImportError("bad board name")
    folder = root + BOARDS_DIR
    sys.path.insert(0, folder)
    try:
        mod = __import__(name)
    finally:
        sys.path.remove(folder)
    return mod


def board_problems(b):
    """List of what is wrong with board module ``b`` (empty when usable)."""
    bad = []
    for k in BOARD_KEYS:
        if not hasattr(b, k):
            bad.append("missing " + k)
    if bad:
        return bad
    if b.DISPLAY_DRIVER not in DRIVERS:
        bad.append("unknown driver " + str(b.DISPLAY_DRIVER))
    if not b.MIP_PACKAGES:
        bad.append("no MIP_PACKAGES")
    order = KEY_ORDER.get(b.LAYOUT)
    if order is None:
        bad.append("bad LAYOUT")
    elif tuple(k for k, _ in b.BUTTONS) != order:
        bad.append("BUTTONS must be " + " ".join(order))
    gpios = [g for _, g in b.BUTTONS]
    if b.BUS == "i2c":
        bus_pins = (b.SDA, b.SCL)
        if b.ADDR is None:
            bad.append("i2c needs ADDR")
    elif b.BUS == "spi":
        bus_pins = (b.SCK, b.MOSI, b.CS, b.DC, b.RST)
    else:
        bus_pins = ()
        bad.append("bad BUS")
    for p in bus_pins:
        if p is None:
            bad.append("bus pin missing")
    used = gpios + [p for p in bus_pins if p is not None]
    for g in used:
        if not (0 <= g <= 28) or g in (23, 24, 25):  # GP23-25 are on-board (SMPS, VBUS, LED)
            bad.append("bad GPIO %d" % g)
    if len(set(used)) != len(used):
        bad.append("GPIO used twice")
    if b.ROTATION in (0, 180):
        frame = (b.WIDTH, b.HEIGHT)
    elif b.ROTATION in (90, 270):
        frame = (b.HEIGHT, b.WIDTH)
    else:
        frame = None
        bad.append("bad ROTATION")
    if frame is not None and frame != (FRAME_W, FRAME_H):
        bad.append("panel does not give a 128x64 frame")
    if b.DRIVER_ROTATE not in (0, 180):
        bad.append("bad DRIVER_ROTATE")
    return bad
