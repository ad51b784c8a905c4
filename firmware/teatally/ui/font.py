"""The device's text font: 5x8 glyphs in 6x8 cells, 21 columns a line
(the built-in framebuf font is 8x8: 16). MicroPython only, like gfx.

The glyph table (glyphs()) is generated from the pixel art in host_tools/teatally_host/font6x8.py
(``python -m teatally_host.font6x8``; tests/test_render_fast.py checks they agree):
ASCII 32..126, 5 bytes a character, one byte a column, bit 0 the top row
(MONO_VLSB). Two ways to draw it, the same pixels (tests/test_render_fast.py):

- the fast path, for the usual case: a MONO_VLSB frame (the display's
  ``vlsb`` bytes, hw.base), the text on the 8-pixel grid, inside the frame,
  and its cells blank (lit text) or full (dark text on a bar), which
  draw_ascii checks. A glyph's 5 column bytes are then exactly the frame's
  5 bytes, so a character is one small C copy: the table seen as a GS8
  image (glyph i = row i, a "pixel" a column byte) blitted onto the frame's
  bytes seen as one GS8 row (dark text through a palette that inverts a
  byte). Measured on the VM: ~4.9K wasm fuel a character (dark ~6K) and
  ~30K a call, against ~12K (dark ~16.5K) a character before; every key
  press draws ~80 characters in ~7 calls. Like ``bands``, it writes the
  bytes behind the driver's back: fine inside ui.draw, which starts every
  frame with clear() (all pages marked for the partial-update drivers).
- otherwise (another frame format such as the SH1107's MONO_HMSB, text off
  the grid or past an edge, something drawn in the cells): each glyph
  copied into a 5x8 scratch image and blitted with its unlit pixels
  transparent, as framebuf.text draws.

The fast path costs ~750 B of heap (the module after drawing: 3152 B
against 2400 B for the one-path font; mostly the 256-byte inverting
palette, the 256-byte byte-to-row table and the code). It stays for first
light (issue 24: without it computing p95 +0.9 ms, first light proxy
25.8 ms > 25, full frame worst proxy 56 -> 60.5 ms).

Text comes as bytes (str is encoded once by ui.text). A byte outside
32..126 draws as "?". A language with other glyphs (issue 18) adds them
here: ``width`` and ``draw`` are the two entry points ui.py calls.
"""

import framebuf
from array import array

from teatally.compat import const

CELL = const(6)  # pixels a character takes across (5 glyph + 1 space)
HEIGHT = const(8)
_FIRST = const(32)
_LAST = const(126)
_Q = const(31)  # "?" (63) - 32: what a byte outside the font draws

_GLYPHS = (
    b"\x00\x00\x00\x00\x00\x00\x00\x5f\x00\x00\x00\x07\x00\x07\x00\x14\x7f\x14\x7f\x14\x24\x2a\x7f\x2a\x12"
    b"\x23\x13\x08\x64\x62\x36\x49\x55\x22\x50\x00\x04\x03\x00\x00\x00\x1c\x22\x41\x00\x00\x41\x22\x1c\x00"
    b"\x14\x08\x3e\x08\x14\x08\x08\x3e\x08\x08\x00\x50\x30\x00\x00\x08\x08\x08\x08\x08\x00\x60\x60\x00\x00"
    b"\x20\x10\x08\x04\x02\x3e\x51\x49\x45\x3e\x00\x42\x7f\x40\x00\x42\x61\x51\x49\x46\x21\x41\x45\x4b\x31"
    b"\x18\x14\x12\x7f\x10\x27\x45\x45\x45\x39\x3c\x4a\x49\x49\x30\x01\x71\x09\x05\x03\x36\x49\x49\x49\x36"
    b"\x06\x49\x49\x29\x1e\x00\x36\x36\x00\x00\x00\x56\x36\x00\x00\x08\x14\x22\x41\x00\x14\x14\x14\x14\x14"
    b"\x00\x41\x22\x14\x08\x02\x01\x51\x09\x06\x32\x49\x79\x41\x3e\x7e\x09\x09\x09\x7e\x7f\x49\x49\x49\x36"
    b"\x3e\x41\x41\x41\x22\x7f\x41\x41\x41\x3e\x7f\x49\x49\x49\x41\x7f\x09\x09\x09\x01\x3e\x41\x49\x49\x7a"
    b"\x7f\x08\x08\x08\x7f\x00\x41\x7f\x41\x00\x20\x40\x41\x3f\x01\x7f\x08\x14\x22\x41\x7f\x40\x40\x40\x40"
    b"\x7f\x02\x0c\x02\x7f\x7f\x04\x08\x10\x7f\x3e\x41\x41\x41\x3e\x7f\x09\x09\x09\x06\x3e\x41\x51\x21\x5e"
    b"\x7f\x09\x19\x29\x46\x46\x49\x49\x49\x31\x01\x01\x7f\x01\x01\x3f\x40\x40\x40\x3f\x1f\x20\x40\x20\x1f"
    b"\x3f\x40\x38\x40\x3f\x63\x14\x08\x14\x63\x03\x04\x78\x04\x03\x61\x51\x49\x45\x43\x00\x7f\x41\x41\x00"
    b"\x02\x04\x08\x10\x20\x00\x41\x41\x7f\x00\x04\x02\x01\x02\x04\x80\x80\x80\x80\x80\x00\x01\x02\x04\x00"
    b"\x20\x54\x54\x54\x78\x7f\x48\x44\x44\x38\x38\x44\x44\x44\x20\x38\x44\x44\x48\x7f\x38\x54\x54\x54\x18"
    b"\x08\x7e\x09\x01\x02\x18\xa4\xa4\xa4\x7c\x7f\x08\x04\x04\x78\x00\x44\x7d\x40\x00\x40\x80\x84\x7d\x00"
    b"\x7f\x10\x28\x44\x00\x00\x41\x7f\x40\x00\x7c\x04\x18\x04\x78\x7c\x08\x04\x04\x78\x38\x44\x44\x44\x38"
    b"\xfc\x24\x24\x24\x18\x18\x24\x24\x28\xfc\x7c\x08\x04\x04\x08\x48\x54\x54\x54\x20\x04\x3f\x44\x40\x20"
    b"\x3c\x40\x40\x20\x7c\x1c\x20\x40\x20\x1c\x3c\x40\x30\x40\x3c\x44\x28\x10\x28\x44\x1c\xa0\xa0\xa0\x7c"
    b"\x44\x64\x54\x4c\x44\x00\x08\x36\x41\x00\x00\x00\x7f\x00\x00\x00\x41\x36\x08\x00\x08\x04\x08\x10\x08"
)

_BUF = bytearray(_GLYPHS)  # (the bytes constant is let go after the import)
del _GLYPHS
# glyph i as row i of a GS8 image, one byte a column: what both paths copy
# from (ja_text's fast path too, for the ASCII in Japanese text)
ROWS = framebuf.FrameBuffer(_BUF, 5, _LAST - _FIRST + 1, framebuf.GS8)
# per byte: minus its glyph's row (blit's y that puts that row on a
# one-row image), "?"'s for a byte outside the font (UTF-8 in the ASCII
# font: all 256, so that the fast path draws it too)
ROW_Y = array("b", [_FIRST - v if _FIRST <= v <= _LAST else -_Q for v in range(256)])
# the slow path: the character at hand as a 5x8 MONO_VLSB image
_GB = bytearray(5)
_G = framebuf.FrameBuffer(_GB, 5, HEIGHT, framebuf.MONO_VLSB)
_G8 = framebuf.FrameBuffer(_GB, 5, 1, framebuf.GS8)  # the same 5 bytes as a GS8 row
# its blit palette for dark text: source 1 -> 0, source 0 -> 1 (the key: skipped)
_INV = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
_INV.pixel(0, 0, 1)
# the fast path's palette for dark text: a byte to its inverse (ja_text's
# fast path uses it too)
DARK = framebuf.FrameBuffer(bytearray(range(255, -1, -1)), 256, 1, framebuf.GS8)


def glyphs():
    """The glyph table: ASCII 32..126, 5 column bytes each (bit 0 the top row)."""
    return bytes(_BUF)


# Another language's glyphs while it is on (issue 18: teatally.ui.ja_text,
# set by ui.lang.use_language): its (draw, width) functions for UTF-8 text
# (its draw returns the x after the text);
# None: ASCII only, as above.
EXT = [None, None]


def width(s):
    """Pixels the text s (bytes or ASCII str) takes across."""
    if EXT[1] is not None:
        return EXT[1](s)
    return len(s) * CELL


def draw(fb, s, x, y, c):
    """Draw the bytes s at x, y: lit (c=1) or dark (c=0) pixels, the rest
    of each cell left as it is (like framebuf.text). -> width(s) (ui.text
    checks the fit after drawing: one call a text)."""
    if EXT[0] is not None:
        return EXT[0](fb, s, x, y, c) - x  # (its draw returns the x after s)
    return draw_ascii(fb, s, x, y, c)


def draw_ascii(fb, s, x, y, c):
    """draw() in this font only (another language's drawing calls it for
    its ASCII runs). -> the pixels s takes across."""
    if not _fast(getattr(fb, "vlsb", None), s, x, y, c):
        _slow(fb, s, x, y, c)
    return CELL * len(s)


def _fast(f, s, x, y, c):
    # The fast path (see the top) where it draws exactly what _slow would:
    # a MONO_VLSB frame (its bytes f), y one of 0, 8, ... 56 (y & -57 is 0
    # for those only), the cells inside the frame and each of their bytes
    # (the last character's space column is not drawn) 0x00 for lit text or
    # 0xFF for dark text: then a glyph's column bytes (or their inverse) are
    # exactly its lit pixels. -> False where it does not draw.
    n = CELL * len(s) - 1
    if f is None or y & -57 or x < 0 or x + n > 128 or n < 1:
        return False
    x += y << 4  # the first cell's byte: band y // 8 starts at 128 * (y // 8)
    if f[x] != (0 if c else 255) or f[x : x + n - 1] != f[x + 1 : x + n]:  # (all alike)
        return False
    (_lit if c else _dark)(_LINE[1] if _LINE[0] is f else frame_row(f), s, x)
    return True


def _lit(put, s, a):
    # each glyph's column bytes into the frame's bytes from byte a on
    rows = ROWS
    row_y = ROW_Y
    for ch in s:
        put(rows, a, row_y[ch])
        a += CELL


def _dark(put, s, a):
    # the same, each byte inverted (through the palette DARK)
    rows = ROWS
    row_y = ROW_Y
    for ch in s:
        put(rows, a, row_y[ch], -1, DARK)
        a += CELL


# the fast path's view of the frame (the display's vlsb bytes) as one GS8
# row of 1024 "pixels" (a glyph's row blitted at x lands in bytes x .. x +
# 4): [those bytes, the view's blit]
_LINE = [None, None]  # type: list


def frame_row(f):
    """The blit of the display's frame bytes f (its ``vlsb``) seen as one
    GS8 row (made once a display): teatally.ui.font's and ja_text's fast
    paths copy glyph bytes into the frame with it."""
    if _LINE[0] is not f:
        _LINE[0] = f
        _LINE[1] = framebuf.FrameBuffer(f, len(f), 1, framebuf.GS8).blit
    return _LINE[1]


def _slow(fb, s, x, y, c):
    # Any frame, anywhere: per character its 5 column bytes copied into the
    # scratch image (a C copy from the table's row), blitted with its unlit
    # pixels transparent (dark text: palette 1 -> 0, the unlit pixels mapped
    # to the key and skipped).
    load = _G8.blit
    rows = ROWS
    row_y = ROW_Y
    out = fb.blit
    if c:
        for ch in s:
            load(rows, 0, row_y[ch])
            out(_G, x, y, 0)
            x += CELL
    else:
        for ch in s:
            load(rows, 0, row_y[ch])
            out(_G, x, y, 1, _INV)
            x += CELL
