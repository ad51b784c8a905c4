"""Drawing helpers for the 128x64 mono frame: icons and big digits, what the
screens draw while a game is played (this module stays loaded; the helpers
nothing draws then are in gfx_more).

MicroPython only (CPython has no ``framebuf``): shared logic must not import
this module at import time; screens import it. Everything draws through the
FrameBuffer methods (fill_rect, text, blit), so it works on any MONO format
and keeps the partial-update drivers' dirty-page tracking right.

Icons are 8x8, MONO_HLSB (one byte per row, left pixel = bit 7), built once
at import. ``c=1`` draws lit pixels on whatever is there; ``c=0`` draws dark
pixels (for icons on a highlighted line); unset icon pixels stay transparent.

Big text scales the built-in 8x8 font by 2 or 3 (16x16 / 24x24 cells).
Digits and the signs + - / are drawn as a few filled rectangles each (the
font's pixels, see ``_RECTS``): no glyph to build, nothing to cache, and
cheaper than a blit, which copies every pixel of the cell one by one. Any
other character (the screens draw none) is scaled by gfx_more.glyph.
"""

import framebuf

from teatally.compat import const

_CHAR = const(8)  # the framebuf font is a fixed 8x8 cell

_HLSB = framebuf.MONO_HLSB

# fmt: off
_ICON_BITS = (
    # 0 STAR
    b"\x10\x38\xfe\x7c\x38\x6c\xc6\x00",
    # 1 TEACUP: steam, rim with handle, saucer
    b"\x24\x48\xfe\xfd\xfd\xfe\x78\xff",
    # 2 TART: fluted ring, jam in the middle
    b"\x3c\x42\x99\xbd\xbd\x99\x42\x3c",
    # 3 HOURGLASS
    b"\xfe\x7c\x38\x10\x28\x54\x7c\xfe",
    # 4 FLAMINGO: head, beak, neck, body, one leg
    b"\x60\x50\x40\x3e\x1f\x0e\x04\x06",
    # 5 WATCH: crown, face, hands at twelve and three
    b"\x18\x3c\x52\x91\x9d\x81\x42\x3c",
    # 6 RABBIT
    b"\x24\x24\x3c\x34\x3e\x7c\xfc\x6c",
    # 7 PILE: two cards, one behind the other
    b"\x1f\x11\xf9\x89\x89\x8f\x88\xf8",
    # 8 ARROW: selection marker pointing right
    b"\x40\x60\x70\x78\x70\x60\x40\x00",
    # 9 CHECK
    b"\x00\x01\x03\x06\x8c\xd8\x70\x20",
    # 10 UP (more above)
    b"\x00\x10\x38\x7c\xfe\x00\x00\x00",
    # 11 DOWN (more below)
    b"\x00\x00\x00\xfe\x7c\x38\x10\x00",
)
# fmt: on

ICON_STAR = const(0)
ICON_TEACUP = const(1)
ICON_TART = const(2)
ICON_HOURGLASS = const(3)
ICON_FLAMINGO = const(4)
ICON_WATCH = const(5)
ICON_RABBIT = const(6)
ICON_PILE = const(7)
ICON_ARROW = const(8)
ICON_CHECK = const(9)
ICON_UP = const(10)
ICON_DOWN = const(11)

# framebuf needs a writable buffer: one bytearray + FrameBuffer per icon, once.
ICONS = tuple([framebuf.FrameBuffer(bytearray(b), 8, 8, _HLSB) for b in _ICON_BITS])

# blit palette for dark drawing: source 1 -> 0, source 0 -> 1 (=key, skipped)
_INV = framebuf.FrameBuffer(bytearray(1), 2, 1, _HLSB)
_INV.pixel(0, 0, 1)
_INV.pixel(1, 0, 0)


def _blit(fb, src, x, y, c):
    if c:
        fb.blit(src, x, y, 0)
    else:
        fb.blit(src, x, y, 1, _INV)  # src's set pixels dark: key 1 skips the (inverted) unset ones


def icon(fb, i, x, y, c=1):
    """Draw icon ``i`` (ICON_*) with its top-left at x, y."""
    _blit(fb, ICONS[i], x, y, c)


def column(ids):
    """The icons ``ids`` stacked top to bottom in one 8 x 8n image: a column
    of icons in front of text rows is one blit (draw it with key 0, like
    ``icon`` with c=1)."""
    return framebuf.FrameBuffer(bytearray(b"".join([_ICON_BITS[i] for i in ids])), 8, 8 * len(ids), _HLSB)


# The lit pixels of the font's glyphs as rectangles (a greedy cover, overlaps
# allowed; tests/test_render_fast.py checks each against the font): two bytes
# a rectangle, x << 4 | y and w << 4 | h in font pixels; character
# _BIG[i] is _RECTS[_AT[i]:_AT[i + 1]]. 1-9 fill_rects draw a scaled
# character. (One bytes object: less heap than one per character.)
_BIG = "0123456789+-/"
_AT = b"\x00\x0c\x12\x20\x30\x3a\x46\x52\x5c\x6e\x7a\x7e\x80\x8c"
# fmt: off
_RECTS = (
    b"\x11\x25\x51\x25\x20\x41\x26\x41\x13\x31\x42\x31"  # 0
    b"\x30\x27\x16\x61\x22\x31"  # 1
    b"\x16\x61\x20\x41\x51\x22\x15\x22\x11\x21\x24\x21\x43\x21"  # 2
    b"\x50\x17\x20\x41\x26\x41\x51\x22\x54\x22\x33\x31\x11\x21\x15\x21"  # 3
    b"\x50\x27\x14\x71\x41\x32\x13\x22\x32\x41"  # 4
    b"\x10\x23\x53\x23\x10\x61\x26\x41\x12\x51\x15\x21"  # 5
    b"\x11\x25\x20\x41\x26\x41\x54\x22\x13\x51\x51\x21"  # 6
    b"\x33\x24\x10\x61\x10\x22\x50\x22\x42\x21"  # 7
    b"\x20\x17\x50\x17\x11\x22\x14\x22\x20\x41\x23\x41\x26\x41\x51\x22\x54\x22"  # 8
    b"\x51\x25\x11\x22\x20\x41\x26\x41\x23\x51\x15\x21"  # 9
    b"\x31\x25\x13\x61"  # +
    b"\x13\x61"  # -
    b"\x16\x21\x25\x21\x34\x21\x43\x21\x52\x21\x61\x21"  # /
)
# fmt: on


def big(fb, s, x, y, scale=2, c=1):
    """Text from the 8x8 font scaled by 2 or 3: scores readable at arm's length."""
    step = _CHAR * scale
    fr = fb.fill_rect
    r = _RECTS
    for ch in s:
        i = _BIG.find(ch)
        if i >= 0:
            for j in range(_AT[i], _AT[i + 1], 2):
                a = r[j]
                b = r[j + 1]
                fr(x + (a >> 4) * scale, y + (a & 15) * scale, (b >> 4) * scale, (b & 15) * scale, c)
        elif ch != " ":
            from teatally.ui import gfx_more

            _blit(fb, gfx_more.glyph(ord(ch), scale), x, y, c)
        x += step


MARK_X = const(121)  # the "not yet saved" mark: 7x7 pixels in the top right corner
_UNDER = framebuf.FrameBuffer(bytearray(8), 8, 8, _HLSB)  # the pixels it covers


def unsaved_mark(fb):
    """The "not yet saved" mark (app.App.show): a lit square in a dark frame
    in the top right corner, seen on any title bar, while the journal on
    flash lags behind the screen. What it covers is kept for
    unsaved_mark_off."""
    _UNDER.blit(fb, -MARK_X, 0)
    fb.fill_rect(MARK_X, 0, 7, 7, 0)
    fb.fill_rect(MARK_X + 1, 1, 5, 5, 1)
    fb.pixel(MARK_X + 3, 3, 0)


def unsaved_mark_off(fb):
    """The pixels under the mark again: the screen as it was drawn."""
    fb.blit(_UNDER, MARK_X, 0)
