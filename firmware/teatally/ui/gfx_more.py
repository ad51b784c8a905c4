"""The cached glyphs gfx.big scales for characters outside its rectangle
font (the pads' "3/5"), kept out of gfx (which stays loaded) so they cost no
heap while a game is played. MicroPython only, like gfx.
"""

import framebuf

from teatally.compat import const

CHAR = const(8)  # the framebuf font is a fixed 8x8 cell
_HLSB = framebuf.MONO_HLSB

# -- big text ----------------------------------------------------------------
CACHE_MAX = const(24)
_cache = {}
_scratch = framebuf.FrameBuffer(bytearray(8), 8, 8, _HLSB)


def glyph(code, scale):
    """The font's character ``code`` scaled into a FrameBuffer (cached)."""
    g = _cache.get(code | (scale << 8))
    return g if g is not None else _make_glyph(code, scale)


def _make_glyph(code, scale):
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
