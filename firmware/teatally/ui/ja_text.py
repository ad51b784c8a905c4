"""Mixed ASCII + Japanese text on the 128x64 frame (issue 18).

    x = ja_text.text(fb, "青 5点", x, y, c)   # -> the x after the text
    ja_text.width("青 5点")                   # -> pixels (8 + 6 + 6 + 8 here)
    ja_text.wrap("...")                       # -> lines that fit the screen

While the language is Japanese, teatally.font draws and measures all
screen text through these (font.EXT) and ui.wrap breaks lines with wrap
(ui.WRAP): ui.lang.use_language sets them.

ASCII runs are drawn with the device's font (teatally.font, 6x8, one call
a run); any other character is a glyph of teatally.ja_font (Misaki Gothic,
8x8) blitted from an 8x8 MONO_HLSB buffer: ``c=1`` lit pixels on whatever
is there, ``c=0`` dark pixels (on a highlighted line), unset pixels stay
transparent, like gfx.icon. A character the subset lacks (a test keeps
every Japanese text inside it) is drawn as an empty box.

Imported only when the language is Japanese: the glyph table then costs
heap (bench: "ja font"); English-only play never loads it.

MicroPython only at run time like gfx (CPython tests install the
pure-Python framebuf, teatally_host.pyframebuf). The functions keep their
frames within 11 words (tests/test_frames.py): the text's progress is in
``_pos`` instead of locals, and each step is a call of four arguments.
"""

import framebuf

from teatally.ui import ja_font
from teatally.compat import const
from teatally.ui.font import CELL as ASCII_W  # the device font's advance (6)
from teatally.ui.font import draw_ascii

CELL = const(8)  # a Japanese glyph's advance
ROOM = const(128)  # a line's pixels (ui.W)
# no line starts with these (they close what comes before)
_NO_START = "、。)」ー・:!?"

_HLSB = framebuf.MONO_HLSB
_GLYPH = bytearray(CELL)
_FB = framebuf.FrameBuffer(_GLYPH, CELL, CELL, _HLSB)
# first_light_p95_ms in Japanese (49 -> 33 ms with SLOTS): a glyph is copied into _GLYPH
# in C, the table seen as a GS8 image (glyph i = row i, a "pixel" a row byte)
# blitted onto _GLYPH seen as one GS8 row, as teatally.ui.font does (a
# tuple: blit reads the bytes where they are, no copy in the heap)
_ROWS = (ja_font.GLYPHS, CELL, ja_font.COUNT, framebuf.GS8)
_LOAD = framebuf.FrameBuffer(_GLYPH, CELL, 1, framebuf.GS8).blit
# blit palette for dark drawing: source 1 -> 0, source 0 -> 1 (= key, skipped)
_INV = framebuf.FrameBuffer(bytearray(1), 2, 1, _HLSB)
_INV.pixel(0, 0, 1)
_INV.pixel(1, 0, 0)
_EMPTY = const(255)  # a free slot of ja_font.SLOTS
_SLOTS = ja_font.SLOTS
_MUL = ja_font.MUL
_CODES = ja_font.CODES
# the text being drawn: next byte, next x
_pos = [0, 0]


def find(code):
    """The glyph number of code point ``code`` in ja_font, or -1: its slot
    in the hash table ja_font.SLOTS, or the first after it that holds it."""
    t = _SLOTS
    h = code * _MUL % len(t)
    g = t[h]
    while g != _EMPTY:
        if _CODES[2 * g] << 8 | _CODES[2 * g + 1] == code:
            return g
        h = (h + 1) % len(t)
        g = t[h]
    return -1


def has_glyph(ch):
    """True when ``ch`` can be drawn: ASCII, or in the glyph subset."""
    return ord(ch) < 128 or find(ord(ch)) >= 0


def width(s):
    """Pixels ``s`` takes: ASCII_W an ASCII character, CELL any other."""
    if type(s) is str:
        s = s.encode()
    n = 0
    for v in s:
        if v < 128:
            n += ASCII_W
        elif v >= 0xC0:  # a UTF-8 lead byte: one character
            n += CELL
    return n


def text(fb, s, x, y, c=1):
    """Draw ``s`` (str or UTF-8 bytes) with its top-left at x, y; return
    the x after it."""
    if type(s) is str:
        s = s.encode()
    _pos[0] = 0
    _pos[1] = x
    while _pos[0] < len(s):
        if s[_pos[0]] < 128:
            _ascii(fb, s, y, c)
        else:
            _glyph(fb, s, y, c)
    return _pos[1]


def _ascii_end(b, i):
    # the end of the ASCII run starting at b[i]
    while i < len(b) and b[i] < 128:
        i += 1
    return i


def _ascii(fb, b, y, c):
    e = _ascii_end(b, _pos[0])
    b = b[_pos[0] : e]
    _pos[0] = e
    draw_ascii(fb, b, _pos[1], y, c)
    _pos[1] += len(b) * ASCII_W


def _glyph(fb, b, y, c):
    # the character at byte _pos[0]: its glyph, or a box
    i = _index(b, _pos[0])
    if i < 0:
        _box(fb, y, c)
    else:
        _LOAD(_ROWS, 0, -i)
        if c:
            fb.blit(_FB, _pos[1], y, 0)
        else:
            fb.blit(_FB, _pos[1], y, 1, _INV)
    _pos[1] += CELL


def _index(b, i):
    # the glyph number of the character at byte i, or -1; _pos[0] moves past
    # it. Every glyph of the subset is a 3-byte UTF-8 character (U+0800 ..
    # U+FFFF: teatally_host.jafont checks).
    v = b[i]
    if v & 0xF0 != 0xE0:
        _pos[0] = i + _utf8_len(v)
        return -1
    _pos[0] = i + 3
    return find((v & 15) << 12 | (b[i + 1] & 63) << 6 | b[i + 2] & 63)


def _utf8_len(v):
    # bytes of the character whose UTF-8 lead byte is v (a stray
    # continuation byte: 1)
    return 1 if v < 0xC0 else 2 if v < 0xE0 else 3 if v < 0xF0 else 4


def _box(fb, y, c):
    # a character the subset lacks
    fb.rect(_pos[1], y, CELL - 1, CELL - 1, c)


def wrap(text):
    """Split text into lines of at most ROOM pixels: at a space (dropped),
    or between two characters where one is Japanese (Japanese has no
    spaces between words), never before a closing mark (_NO_START)."""
    out = []
    b = text.encode() if type(text) is str else text
    _pos[0] = 0  # the line's start
    while _pos[0] < len(b):
        e = _line_end(b, _pos[0])
        out.append(b[_pos[0] : e].decode())
        _pos[0] = _skip_spaces(b, e)
    return out


def _skip_spaces(b, i):
    while i < len(b) and b[i] == 32:
        i += 1
    return i


def _line_end(b, a):
    # the end of the line starting at byte a: the last break that fits
    # (the whole rest when it fits; at least one character)
    i = a
    w = 0
    brk = -1
    while i < len(b):
        n = _utf8_len(b[i])
        w += ASCII_W if b[i] < 128 else CELL
        if w > ROOM:
            return brk if brk > a else i if i > a else i + n
        if b[i] == 32:
            brk = i
        elif i > a and (b[i] >= 128 or b[i - 1] >= 128) and _may_start(b, i):
            brk = i
        i += n
    return i


def _may_start(b, i):
    # can a line start with the character at byte i?
    return b[i : i + _utf8_len(b[i])].decode() not in _NO_START


SPACE8 = "\u3000"  # the ideographic space: 8 px of nothing (in the subset)


def pad(s, cols):
    """ui.pad for mixed text: s followed by spaces (6 px) and ideographic
    spaces (8 px) up to exactly cols columns of the 6x8 font (the next
    column of a table starts there); None when s is wider or no mix of the
    two fills the gap exactly (2, 4 or 10 px: the caller breaks the line)."""
    room = cols * ASCII_W - width(s)
    wide = 0
    while wide < 3 and room >= 0:
        if room % ASCII_W == 0:
            return s + SPACE8 * wide + " " * (room // ASCII_W)
        room -= CELL
        wide += 1
    return None
