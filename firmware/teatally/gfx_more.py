"""Drawing helpers no screen draws while a game is played, kept out of gfx
(which stays loaded) so they cost no heap then: aligned and clipped text,
big text aligned, menu lines, a scrollbar, and the cached glyphs gfx.big
scales for characters outside its rectangle font. MicroPython only, like gfx.
"""

import framebuf

from teatally.compat import const
from teatally.gfx import big, icon

W = const(128)
H = const(64)
CHAR = const(8)  # the framebuf font is a fixed 8x8 cell
LINE_H = const(10)  # default menu line: 8 px text + 1 px above and below
_HLSB = framebuf.MONO_HLSB

ICON_NAMES = (
    "star", "teacup", "tart", "hourglass", "flamingo", "watch",
    "rabbit", "pile", "arrow", "check", "up", "down",
)  # fmt: skip


def text(fb, s, x, y, c=1):
    fb.text(s, x, y, c)


def text_right(fb, s, right, y, c=1):
    """Text ending just left of x = ``right`` (its last pixel column is right-1)."""
    fb.text(s, right - len(s) * CHAR, y, c)


def text_center(fb, s, y, c=1, x=0, w=W):
    """Text centred in the band x .. x+w (whole screen by default)."""
    fb.text(s, x + (w - len(s) * CHAR) // 2, y, c)


def clip(s, width_px):
    """``s`` cut to fit ``width_px``; a cut string ends in '>' so it shows."""
    n = width_px // CHAR
    if len(s) <= n:
        return s
    if n <= 0:
        return ""
    return s[: n - 1] + ">"


# -- big text ----------------------------------------------------------------
CACHE_MAX = const(24)
_cache = {}
_scratch = framebuf.FrameBuffer(bytearray(8), 8, 8, _HLSB)


def glyph(code, scale):
    """The font's character ``code`` scaled into a FrameBuffer (cached)."""
    k = code | (scale << 8)
    g = _cache.get(k)
    if g is None:
        sc = _scratch
        sc.fill(0)
        sc.text(chr(code), 0, 0, 1)
        side = CHAR * scale
        g = framebuf.FrameBuffer(bytearray(side * side // 8), side, side, _HLSB)
        for yy in range(8):
            for xx in range(8):
                if sc.pixel(xx, yy):
                    g.fill_rect(xx * scale, yy * scale, scale, scale, 1)
        if len(_cache) < CACHE_MAX:
            _cache[k] = g
    return g


def clear_cache():
    _cache.clear()


def big_width(s, scale=2):
    return len(s) * CHAR * scale


def big_right(fb, s, right, y, scale=2, c=1):
    big(fb, s, right - big_width(s, scale), y, scale, c)


def big_center(fb, s, y, scale=2, c=1, x=0, w=W):
    big(fb, s, x + (w - big_width(s, scale)) // 2, y, scale, c)


# -- menus -------------------------------------------------------------------
def menu_line(fb, s, y, selected=False, x=0, w=W, h=LINE_H, ic=-1):
    """One menu row: cleared band, optional icon, text; inverse when selected.

    Returns the x where the text started (after the icon).
    """
    fb.fill_rect(x, y, w, h, 1 if selected else 0)
    c = 0 if selected else 1
    ty = y + (h - CHAR) // 2
    tx = x + 2
    if ic >= 0:
        icon(fb, ic, tx, ty, c)
        tx += CHAR + 2
    fb.text(clip(s, x + w - tx), tx, ty, c)
    return tx


def scrollbar(fb, first, visible, total, x=W - 3, y=0, h=H, w=3):
    """Thin track with a thumb for a list showing ``visible`` of ``total`` rows
    from row ``first``. Draws nothing and returns None when all rows fit;
    otherwise returns (thumb_y, thumb_h)."""
    if total <= visible or visible <= 0:
        return None
    fb.fill_rect(x, y, w, h, 0)
    fb.vline(x + w // 2, y, h, 1)
    th = h * visible // total
    if th < 4:
        th = 4
    last = total - visible
    if first < 0:
        first = 0
    elif first > last:
        first = last
    ty = y + (h - th) * first // last
    fb.fill_rect(x, ty, w, th, 1)
    return (ty, th)
