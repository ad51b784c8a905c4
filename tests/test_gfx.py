"""Drawing helpers, gfx and gfx_more (MicroPython only: CPython has no framebuf, so `mp`).

Each check prints a line the host asserts on; renders go into real
framebuf FrameBuffers in both the MONO_VLSB layout (SSD1306/SH1106 drivers)
and MONO_HMSB (peter-l5's SH1107 driver), which must give the same pixels.
"""

import hashlib

import pytest

from teatally_host import mpvm

PRELUDE = r"""
import framebuf
from teatally.ui import gfx
from teatally.ui import gfx_more

def new(fmt=framebuf.MONO_VLSB, w=128, h=64):
    buf = bytearray(w * h // 8)
    return framebuf.FrameBuffer(buf, w, h, fmt), buf

def lit(fb, x0, y0, w, h):
    n = 0
    for y in range(y0, y0 + h):
        for x in range(x0, x0 + w):
            if fb.pixel(x, y):
                n += 1
    return n

def box(fb, w=128, h=64):
    # bounding box of lit pixels: x0 y0 x1 y1 (inclusive), or None
    x0 = y0 = 999
    x1 = y1 = -1
    for y in range(h):
        for x in range(w):
            if fb.pixel(x, y):
                x0 = min(x0, x)
                x1 = max(x1, x)
                y0 = min(y0, y)
                y1 = max(y1, y)
    if x1 < 0:
        return None
    return (x0, y0, x1, y1)

def same(a, b, w=128, h=64):
    for y in range(h):
        for x in range(w):
            if (a.pixel(x, y) != 0) != (b.pixel(x, y) != 0):
                return False
    return True
"""

ICONS = r"""
ICON_NAMES = ("star", "teacup", "tart", "hourglass", "flamingo", "watch",
              "rabbit", "pile", "arrow", "check", "up", "down")
print('icons', len(gfx.ICONS), len(ICON_NAMES))
arts = []
for i in range(len(gfx.ICONS)):
    fb, buf = new()
    gfx.icon(fb, i, 3, 5)
    rows = []
    for y in range(8):
        rows.append(''.join('#' if fb.pixel(3 + x, 5 + y) else '.' for x in range(8)))
    n = lit(fb, 0, 0, 128, 64)
    inside = lit(fb, 3, 5, 8, 8)
    hm, _ = new(framebuf.MONO_HMSB)
    gfx.icon(hm, i, 3, 5)
    # dark drawing on a lit band: exactly the icon's pixels go dark
    inv, _ = new()
    inv.fill_rect(0, 0, 20, 20, 1)
    gfx.icon(inv, i, 3, 5, 0)
    dark = 400 - lit(inv, 0, 0, 20, 20)
    arts.append('/'.join(rows))
    print('icon', ICON_NAMES[i], n, inside, dark, same(fb, hm), '/'.join(rows))
print('distinct', len(set(arts)) == len(arts))
"""

BIG = r"""
ok = True
for scale in (2, 3):
    for ch in '0123456789+-/A%':
        ref, _ = new()
        ref.text(ch, 0, 0, 1)
        fb, _ = new()
        gfx.big(fb, ch, 0, 0, scale)
        s8 = 8 * scale
        for y in range(s8):
            for x in range(s8):
                if (fb.pixel(x, y) != 0) != (ref.pixel(x // scale, y // scale) != 0):
                    ok = False
        if lit(fb, 0, 0, 128, 64) != scale * scale * lit(ref, 0, 0, 8, 8):
            ok = False
print('big_scaled', ok)
fb, _ = new()
gfx.big(fb, '7/', 52, 30, 3)
print('big_at', box(fb))
hm, _ = new(framebuf.MONO_HMSB)
gfx.big(hm, '7/', 52, 30, 3)
print('big_hmsb_same', same(fb, hm))
fb, _ = new()
fb.fill(1)
gfx.big(fb, '8', 0, 0, 2, 0)
ref, _ = new()
gfx.big(ref, '8', 0, 0, 2, 1)
print('big_dark', 128 * 64 - lit(fb, 0, 0, 128, 64) == lit(ref, 0, 0, 128, 64))
gfx_more.clear_cache()
for i in range(40):
    gfx.big(fb, chr(33 + i), 0, 0)
print('cache_bounded', len(gfx_more._cache) <= gfx_more.CACHE_MAX)
"""



@pytest.fixture(scope="module")
def out():
    res = mpvm.run(PRELUDE + ICONS + BIG)
    assert res.code == 0, res.stderr
    return res.stdout


def _lines(out, tag):
    return [line.split(" ", 1)[1] for line in out.splitlines() if line.split(" ", 1)[0] == tag]


def test_icons_are_8x8_distinct_and_format_independent(out):
    assert _lines(out, "icons") == ["12 12"]
    icons = _lines(out, "icon")
    assert len(icons) == 12
    for line in icons:
        name, n, inside, dark, same, art = line.split(" ")
        # every lit pixel falls inside the 8x8 cell, the icon is not blank,
        # dark drawing darkens exactly the icon's pixels, HMSB == VLSB
        assert int(n) == int(inside) > 4, name
        assert int(dark) == int(n), name
        assert same == "True", name
        assert len(art.split("/")) == 8
    assert _lines(out, "distinct") == ["True"]
    arts = {line.split(" ")[0]: line.split(" ")[5] for line in icons}
    # the selection arrow points right: its widest row is in the middle
    assert arts["arrow"].split("/")[3] == ".####..."
    assert arts["hourglass"].split("/")[0] == "#######."


def test_icon_pixels_digest(out):
    """Pins the icon art: a change to any icon must be deliberate."""
    icons = "\n".join(_lines(out, "icon"))
    digest = hashlib.sha256(icons.encode()).hexdigest()[:16]
    assert digest == ICON_DIGEST, (digest, icons)


ICON_DIGEST = "c59883536cd52bd0"


def test_big_digits(out):
    assert _lines(out, "big_scaled") == ["True"]
    x0, y0, x1, y1 = eval(_lines(out, "big_at")[0])
    assert 52 <= x0 and x1 < 52 + 48 and 30 <= y0 and y1 < 54  # a digit and a glyph, 24 px each
    assert _lines(out, "big_hmsb_same") == ["True"]
    assert _lines(out, "big_dark") == ["True"]
    assert _lines(out, "cache_bounded") == ["True"]


def test_render_cost_is_small():
    """Fuel (the VM's deterministic instruction count) of drawing: big digits
    are a few fill_rects each, with nothing to build or cache, so the first
    big number costs what any later one does (a glyph built pixel by pixel
    cost ~1.3 ms the first time); other characters still go through the
    glyph cache, where the build is paid once. A whole score screen redraw
    (big number, 8 icons, 2 text lines) is measured too."""

    def fuel(body):
        return mpvm.run(PRELUDE + "fb, _ = new()\n" + body).check().fuel_used

    def per_call(call):
        # the same compiled loop run 0, 1 and 51 times: the first call, then the average later one
        loop = "def go(n):\n    for _ in range(n):\n        %s\ngo(%%d)\n" % call
        f0, f1, f51 = fuel(loop % 0), fuel(loop % 1), fuel(loop % 51)
        return f1 - f0, (f51 - f1) / 50

    big_first, big_later = per_call("gfx.big(fb, '123', 0, 0, 3)")
    glyph_first, glyph_later = per_call("gfx.big(fb, 'ABC', 0, 0, 3)")
    screen = (
        "def draw():\n"
        "    fb.fill(0)\n"
        "    gfx.big(fb, '123', 28, 8, 3)\n"
        "    for i in range(8):\n"
        "        gfx.icon(fb, i, i * 16, 40)\n"
        "    fb.text('Round 3', 0, 0, 1)\n"
        "    fb.text('Tea 2', 88, 56, 1)\n"
    )
    one = fuel(screen + "draw()\n")
    many = fuel(screen + "for _ in range(11):\n    draw()\n")
    redraw = (many - one) / 10
    print(
        "gfx fuel: big '123' x3 first %d, later %d; 'ABC' first %d, cached %d; score screen redraw %d"
        % (big_first, big_later, glyph_first, glyph_later, redraw)
    )
    # digits: no build on first use (only the one-character strings of the
    # text are interned the first time); cheaper than the cached glyph blits
    assert big_first < 1.5 * big_later
    assert big_later < glyph_later
    # the glyph cache pays for the other characters
    assert glyph_later * 3 < glyph_first
