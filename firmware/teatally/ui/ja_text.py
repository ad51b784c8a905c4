"""Mixed ASCII + Japanese text on the 128x64 frame (issue 18).

    x = ja_text.text(fb, "青 5点", x, y, c)   # -> the x after the text
    ja_text.width("青 5点")                   # -> pixels (8 + 6 + 6 + 8 here)
    ja_text.wrap("...")                       # -> lines that fit the screen

While the language is Japanese, teatally.font draws and measures all
screen text through these (font.EXT) and ui.wrap breaks lines with wrap
(ui.WRAP): ui.lang.use_language sets them.

ASCII runs are drawn with the device's font (teatally.font, 6x8, one call
a run); any other character is a glyph of teatally.ja_font (Misaki Gothic,
8x8, one byte a column): ``c=1`` lit pixels on whatever is there, ``c=0``
dark pixels (on a highlighted line), unset pixels stay transparent, like
gfx.icon. A character the subset lacks (a test keeps every Japanese text
inside it) is drawn as an empty box. Two ways, the same pixels, as
teatally.ui.font draws: the glyph's bytes copied straight into a
MONO_VLSB frame (on the 8-pixel grid, on blank or full cells), or blitted
from an 8x8 scratch image with its unset pixels transparent.

Imported only when the language is Japanese: the glyph table then costs
heap (bench: "ja font"); English-only play never loads it.

MicroPython only at run time like gfx (CPython tests install the
pure-Python framebuf, teatally_host.pyframebuf). The functions keep their
frames within 11 words (tests/test_frames.py): the text's progress is in
``_pos`` instead of locals, and each step is a call of four arguments.
"""

import framebuf
from array import array

from teatally.ui import ja_font
from teatally.compat import const
from teatally.ui.font import CELL as ASCII_W  # the device font's advance (6)
from teatally.ui.font import DARK, draw_ascii, frame_row

CELL = const(8)  # a Japanese glyph's advance
ROOM = const(128)  # a line's pixels (ui.W)
# no line starts with these (they close what comes before)
_NO_START = "、。)」ー・:!?"

_GLYPH = bytearray(CELL)
# the scratch image: 7x7, every glyph's 8th column and row are blank
# (teatally_host.jafont checks): 49 pixels blitted a glyph, not 64
# (first_light_p95_ms in Japanese on the SH1107: ~X K less a glyph)
_FB = framebuf.FrameBuffer(_GLYPH, CELL - 1, CELL - 1, framebuf.MONO_VLSB)
# The glyph table seen as a GS8 image (glyph i = row i, a "pixel" a column
# byte; a tuple: blit reads the bytes where they are, no copy in the heap):
# a glyph is copied in C into the frame's bytes (the fast path) or into
# _GLYPH seen as one GS8 row (_LOAD), as teatally.ui.font does
_ROWS = (ja_font.GLYPHS, CELL, ja_font.COUNT, framebuf.GS8)
_LOAD = framebuf.FrameBuffer(_GLYPH, CELL, 1, framebuf.GS8).blit
# what a character the subset lacks draws: a 7x7 box (the same layout)
_BOX = (b"\x7f\x41\x41\x41\x41\x41\x7f\x00", CELL, 1, framebuf.GS8)
# blit palette for dark drawing: source 1 -> 0, source 0 -> 1 (= key, skipped)
_INV = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
_INV.pixel(0, 0, 1)
_INV.pixel(1, 0, 0)
_EMPTY = const(255)  # a free slot of ja_font.SLOTS
_SLOTS = ja_font.SLOTS
_MUL = ja_font.MUL
# glyph i's code point (ja_font.CODES as 16-bit numbers: one look-up a
# glyph instead of two bytes, first_light_p95_ms in Japanese; +500 B heap)
_CODE = array("H", [ja_font.CODES[2 * i] << 8 | ja_font.CODES[2 * i + 1] for i in range(ja_font.COUNT)])
RUN = const(16)  # glyphs looked up at a time (a line's worth)
_RUN = bytearray(RUN)  # their numbers
# the text being drawn: next byte, next x
_pos = [0, 0]


def find(code):
    """The glyph number of code point ``code`` in ja_font, or -1: its slot
    in the hash table ja_font.SLOTS, or the first after it that holds it."""
    t = _SLOTS
    h = code * _MUL % len(t)
    g = t[h]
    while g != _EMPTY:
        if _CODE[g] == code:
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
    if not s or max(s) < 128:  # all ASCII: no loop here (first_light_p95_ms in Japanese)
        return len(s) * ASCII_W
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
    if not s or max(s) < 128:
        # all ASCII (numbers, scores): the device font in one call, no scan
        # of the bytes here (first_light_p95_ms in Japanese)
        return x + draw_ascii(fb, s, x, y, c)
    _pos[0] = 0
    _pos[1] = x
    while _pos[0] < len(s):
        if s[_pos[0]] < 128:
            _ascii(fb, s, y, c)
        else:
            _wide(fb, s, y, c)
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


def _run_end(b, i):
    # the end of the run of 3-byte UTF-8 characters starting at b[i], at
    # most RUN of them (every glyph of the subset is one: U+0800 .. U+FFFF,
    # teatally_host.jafont checks; a character cut short at the end is left
    # out)
    e = min(len(b) - 2, i + 3 * RUN)
    while i < e and b[i] & 0xF0 == 0xE0:
        i += 3
    return i


def _wide(fb, b, y, c):
    # the characters from byte _pos[0] on up to the next ASCII one: a run
    # of 3-byte ones drawn in one go, or one other character (a box)
    e = _run_end(b, _pos[0])
    if e == _pos[0]:
        _LOAD(_BOX, 0, 0)
        _key(fb, _pos[1], y, c)
        _pos[0] += _utf8_len(b[e])
        _pos[1] += CELL
        return
    n = _look(b, _pos[0], e)
    if not _fast(getattr(fb, "vlsb", None), n, y, c):
        _slow(fb, n, y, c)
    _pos[1] += n * CELL
    _pos[0] = e


def _look(b, i, e):
    # the glyph numbers of the 3-byte characters b[i:e] into _RUN (_EMPTY:
    # not in the subset): ja_font's hash table as in find(), inlined, one
    # loop a run (first_light_p95_ms in Japanese: ~X K wasm fuel a glyph
    # against ~12K for a call of find a glyph). -> how many
    n = 0
    t = _SLOTS
    codes = _CODE
    mul = _MUL
    size = len(t)
    run = _RUN
    for i in range(i, e, 3):
        # the code point: the three bytes' bits less their UTF-8 marks
        # (1110xxxx 10xxxxxx 10xxxxxx: 0xE0 << 12 + 0x80 << 6 + 0x80)
        code = (b[i] << 12) + (b[i + 1] << 6) + b[i + 2] - 0xE2080
        h = code * mul % size
        g = t[h]
        while g != _EMPTY and codes[g] != code:
            h = (h + 1) % size
            g = t[h]
        run[n] = g
        n += 1
    return n


def _fast(f, n, y, c):
    # As teatally.ui.font's fast path: a MONO_VLSB frame (its bytes f), y
    # on the 8-pixel grid, the run's n cells inside the frame and all their
    # bytes 0x00 (lit text) or 0xFF (dark text): then a glyph's 8 column
    # bytes (or their inverse) are exactly the frame's bytes, one C copy a
    # glyph (first_light_p95_ms in Japanese: ~X K wasm fuel a glyph
    # against ~Y K for the keyed blit). -> False where it does not draw.
    x = _pos[1]
    w = n * CELL
    if f is None or y & -57 or x < 0 or x + w > ROOM:
        return False
    x += y << 4  # the first cell's byte: band y // 8 starts at 128 * (y // 8)
    if f[x] != (0 if c else 255) or f[x : x + w - 1] != f[x + 1 : x + w]:  # (all alike)
        return False
    (_lit if c else _dark)(frame_row(f), n, x)
    return True


def _lit(put, n, a):
    # the run's glyphs' column bytes into the frame's bytes from byte a on
    rows = _ROWS
    for g in _RUN[:n]:
        if g == _EMPTY:
            put(_BOX, a, 0)
        else:
            put(rows, a, -g)
        a += CELL


def _dark(put, n, a):
    # the same, each byte inverted (through the palette DARK)
    rows = _ROWS
    for g in _RUN[:n]:
        if g == _EMPTY:
            put(_BOX, a, 0, -1, DARK)
        else:
            put(rows, a, -g, -1, DARK)
        a += CELL


def _slow(fb, n, y, c):
    # any frame, anywhere: each glyph of the run copied into the scratch
    # image (a C copy from its row of the table), then blitted with its
    # unset pixels transparent
    x = _pos[1]
    blit = fb.blit
    for g in _RUN[:n]:
        if g == _EMPTY:
            _LOAD(_BOX, 0, 0)
        else:
            _LOAD(_ROWS, 0, -g)
        if c:
            blit(_FB, x, y, 0)
        else:
            blit(_FB, x, y, 1, _INV)
        x += CELL


def _key(fb, x, y, c):
    # the scratch glyph at x, y: lit pixels (c=1) or dark ones (c=0)
    if c:
        fb.blit(_FB, x, y, 0)
    else:
        fb.blit(_FB, x, y, 1, _INV)


def _utf8_len(v):
    # bytes of the character whose UTF-8 lead byte is v (a stray
    # continuation byte: 1)
    return 1 if v < 0xC0 else 2 if v < 0xE0 else 3 if v < 0xF0 else 4


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
