"""Shared fixtures: run the same scenario on CPython and on the MicroPython VM.

A *scenario* is MicroPython-compatible source that prints its results. The
``dual`` fixture executes it in-process under CPython and under the real
MicroPython 1.27 VM, asserts the two outputs are byte-identical and returns
that output for the test's own assertions. The global ``FLASH`` names a
writable folder (the Pico's flash).

The VM runs as the Pico does: the collector-correct build
(teatally_host.vmbuild), collections on, the stock RPI_PICO heap
(mpvm.PICO_HEAP, 192 KB) unless a test asks for mpvm.PRESSURE_HEAP, and the
package as the Pico gets it: .mpy files from mpy-cross (sim.compiled_firmware),
so imports cost no compiler RAM.
"""

import contextlib
import io
import tempfile
from pathlib import Path

import pytest

from teatally_host import mpvm, pyframebuf, sim

ROOT = Path(__file__).resolve().parents[1]


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", help="rewrite golden screenshots/outputs")


@pytest.fixture(autouse=True)
def english_after_every_test():
    """The CPython half of a scenario in Japanese (issue 18) switches this
    process's words and font to Japanese, and ui.lang imports the screens'
    modules again in it (a random walk may reach the language menu): every
    test ends in English, with this process's own modules."""
    import ja_support

    yield from ja_support.modules_put_back()
    ja_support.english_again()


@pytest.fixture
def update_golden(request):
    return request.config.getoption("--update-golden")


@pytest.fixture
def check_golden(update_golden):
    """check(shot, path): the simulator's PNG shot has the pixels of the
    golden at path (with --update-golden: becomes it)."""

    def check(shot, path):
        from PIL import Image

        from teatally_host import sim

        if update_golden:
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(shot.read_bytes())
        assert path.exists(), "no golden %s: run pytest --update-golden" % path.name
        got = sim.image_rows(Image.open(shot))
        want = sim.image_rows(Image.open(path))
        diff = sum(a != b for ra, rb in zip(got, want, strict=True) for a, b in zip(ra, rb, strict=True))
        assert diff == 0, "%d pixels differ from %s (a deliberate change: pytest --update-golden)" % (diff, path.name)

    return check


def run_cpython(script, flash_dir):
    buf = io.StringIO()
    g = {"__name__": "__main__", "FLASH": str(flash_dir)}
    pyframebuf.install()  # CPython has no framebuf: scenarios get the pure-Python one
    with contextlib.redirect_stdout(buf):
        exec(compile(script, "<scenario>", "exec"), g)
    return buf.getvalue()


_FIRMWARE = []


def firmware():
    """The package compiled once per run, as `teatally flash` puts it on a Pico."""
    if not _FIRMWARE:
        _FIRMWARE.append(str(sim.compiled_firmware()))
    return _FIRMWARE[0]


def run_micropython(script, flash_dir, heap=mpvm.PICO_HEAP, fuel=mpvm.DEFAULT_FUEL):
    res = mpvm.run("FLASH = '/flash'\n" + script, flash_dir=flash_dir, heap=heap, fuel=fuel, firmware=firmware())
    if res.code != 0:
        pytest.fail("MicroPython failed (exit %s):\n%s\n%s" % (res.code, res.stdout[-2000:], res.stderr[-3000:]))
    return res


@pytest.fixture
def mp():
    """Run a scenario under MicroPython only; returns the mpvm.Result."""

    def run(script, heap=mpvm.PICO_HEAP, flash_dir=None, fuel=mpvm.DEFAULT_FUEL):
        with tempfile.TemporaryDirectory() as d:
            return run_micropython(script, flash_dir or d, heap=heap, fuel=fuel)

    return run


@pytest.fixture
def dual():
    """Run a scenario on both interpreters; assert identical stdout; return it."""

    def run(script, heap=mpvm.PICO_HEAP, setup_flash=None):
        with tempfile.TemporaryDirectory() as d1, tempfile.TemporaryDirectory() as d2:
            if setup_flash:
                setup_flash(Path(d1))
                setup_flash(Path(d2))
            cpy = run_cpython(script, d1)
            mpy = run_micropython(script, d2, heap=heap).stdout
            assert mpy == cpy, "CPython and MicroPython disagree"
            return cpy

    return run
