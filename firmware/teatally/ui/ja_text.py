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
from teatally.ui.font import ROW_Y as ASCII_ROW_Y
from teatally.ui.font import ROWS as ASCII_ROWS

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
_ROWS = (ja_font.GLYPHS, CELL, ja_font.COUNT + 1, framebuf.GS8)
_BOX = ja_font.COUNT  # the glyph after the last: the box a lacking character draws
_LOAD = framebuf.FrameBuffer(_GLYPH, CELL, 1, framebuf.GS8).blit
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
_SIZE = len(_SLOTS)
RUN = const(48)  # the bytes of a text _fast draws whole (more than a line's worth)
_JA = const(128)  # _RUN: an ASCII byte below, a glyph number added to it
_RUN = array("H", [0] * RUN)  # the characters being drawn
# the text being drawn: next byte, next x; the characters in _RUN, the text's bytes
_pos = [0, 0, 0, 0]


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
        draw_ascii(fb, s, x, y, c)
        return x + len(s) * ASCII_W
    _pos[1] = x
    if _fast(getattr(fb, "vlsb", None), s, y, c):
        return _pos[1]
    _pos[0] = 0
    while _pos[0] < len(s):
        if s[_pos[0]] < 128:
            _ascii(fb, s, y, c)
        else:
            _wide(fb, s, y, c)
    return _pos[1]


def _fast(f, s, y, c):
    # As teatally.ui.font's fast path, for the whole mixed text at once: a
    # MONO_VLSB frame (its bytes f), y on the 8-pixel grid, the text inside
    # the frame and every byte its characters draw 0x00 (lit text) or 0xFF
    # (dark text): then a character's column bytes (or their inverse) are
    # exactly the frame's bytes, one C copy a character, ASCII from the
    # device font's table, Japanese from ja_font's (first_light_p95_ms in
    # Japanese: ~X K wasm fuel a text against ~Y K run by run). -> False
    # where it does not draw.
    x = _pos[1]
    if f is None or y & -57 or x < 0:
        return False
    w = _scan(s)
    if w < 0 or x + w > ROOM:
        return False
    x += y << 4  # the first cell's byte: band y // 8 starts at 128 * (y // 8)
    if _RUN[_pos[2] - 1] < _JA:
        w -= 1  # (the last ASCII character's space column is not drawn)
    if f[x] != (0 if c else 255) or f[x : x + w - 1] != f[x + 1 : x + w]:  # (all alike)
        return False
    (_put_lit if c else _put_dark)(frame_row(f), x)
    return True


def _scan(b):
    # the text's characters into _RUN (an ASCII byte as itself, glyph g as
    # _JA + g, the box where the subset lacks one), their count into
    # _pos[2]; -> the pixels they take, or -1 for a text of more than RUN
    # bytes or with other than 1- and 3-byte characters (drawn run by run).
    # The hash look-up is find()'s, inlined; the tables in locals (a frame
    # on the heap, once a text: first_light_p95_ms in Japanese, ~X K wasm
    # fuel less a glyph than with globals)
    end = len(b)
    if end > RUN:
        return -1
    run = _RUN
    slots = _SLOTS
    codes = _CODE
    mul = _MUL
    size = _SIZE
    i = 0
    n = 0
    while i < end:
        v = b[i]
        if v < 128:
            run[n] = v
            i += 1
        elif v & 0xF0 == 0xE0 and i + 2 < end:
            # the code point: the three bytes' bits less their UTF-8 marks
            # (1110xxxx 10xxxxxx 10xxxxxx: 0xE0 << 12 + 0x80 << 6 + 0x80)
            v = (v << 12) + (b[i + 1] << 6) + b[i + 2] - 0xE2080
            h = v * mul % size
            g = slots[h]
            while g != _EMPTY and codes[g] != v:
                h = (h + 1) % size
                g = slots[h]
            if g == _EMPTY:
                g = _BOX
            run[n] = _JA + g
            i += 3
        else:
            return -1
        n += 1
    _pos[2] = n
    _pos[3] = end
    # 6 px a 1-byte character, 8 px a 3-byte one: 5 px a character + 1 a byte
    return 5 * n + end


def _put_lit(put, a):
    # the text's characters' column bytes into the frame's bytes from byte a on
    run = _RUN
    rows = _ROWS
    ascii_rows = ASCII_ROWS
    ascii_y = ASCII_ROW_Y
    for j in range(_pos[2]):
        v = run[j]
        if v < _JA:
            put(ascii_rows, a, ascii_y[v])
            a += ASCII_W
        else:
            put(rows, a, _JA - v)
            a += CELL
    _pos[1] += 5 * _pos[2] + _pos[3]


def _put_dark(put, a):
    # the same, each byte inverted (through the palette DARK)
    run = _RUN
    rows = _ROWS
    ascii_rows = ASCII_ROWS
    ascii_y = ASCII_ROW_Y
    for j in range(_pos[2]):
        v = run[j]
        if v < _JA:
            put(ascii_rows, a, ascii_y[v], -1, DARK)
            a += ASCII_W
        else:
            put(rows, a, _JA - v, -1, DARK)
            a += CELL
    _pos[1] += 5 * _pos[2] + _pos[3]


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
    # of 3-byte ones looked up and drawn in one go, or one other character
    # (a box)
    e = _run_end(b, _pos[0])
    if e == _pos[0]:
        _RUN[0] = _BOX
        _pos[0] += _utf8_len(b[e])
        e = _pos[0]
        _pos[2] = 1
    else:
        _look(b, _pos[0], e)
    if not _fast_run(getattr(fb, "vlsb", None), y, c):
        _slow(fb, y, c)
    _pos[0] = e


def _look(b, i, e):
    # the glyph numbers of the 3-byte characters b[i:e] into _RUN (_BOX
    # where the subset lacks one), their count into _pos[2]: find()'s hash
    # table look-up inlined, one loop a run (first_light_p95_ms in Japanese:
    # ~7K wasm fuel a glyph against ~12K for a call of find)
    n = 0
    while i < e:
        # the code point: the three bytes' bits less their UTF-8 marks
        # (1110xxxx 10xxxxxx 10xxxxxx: 0xE0 << 12 + 0x80 << 6 + 0x80)
        code = (b[i] << 12) + (b[i + 1] << 6) + b[i + 2] - 0xE2080
        h = code * _MUL % _SIZE
        g = _SLOTS[h]
        while g != _EMPTY and _CODE[g] != code:
            h = (h + 1) % _SIZE
            g = _SLOTS[h]
        _RUN[n] = _BOX if g == _EMPTY else g
        n += 1
        i += 3
    _pos[2] = n


def _fast_run(f, y, c):
    # _fast for one run of glyphs (of a text _fast does not draw whole)
    x = _pos[1]
    w = _pos[2] * CELL
    if f is None or y & -57 or x < 0 or x + w > ROOM:
        return False
    x += y << 4  # the first cell's byte: band y // 8 starts at 128 * (y // 8)
    if f[x] != (0 if c else 255) or f[x : x + w - 1] != f[x + 1 : x + w]:  # (all alike)
        return False
    (_lit if c else _dark)(frame_row(f), x)
    return True


def _lit(put, a):
    # the run's glyphs' column bytes into the frame's bytes from byte a on
    j = 0
    while j < _pos[2]:
        put(_ROWS, a, -_RUN[j])
        a += CELL
        j += 1
    _pos[1] += _pos[2] * CELL


def _dark(put, a):
    # the same, each byte inverted (through the palette DARK)
    j = 0
    while j < _pos[2]:
        put(_ROWS, a, -_RUN[j], -1, DARK)
        a += CELL
        j += 1
    _pos[1] += _pos[2] * CELL


def _slow(fb, y, c):
    # any frame, anywhere: each glyph of the run copied into the scratch
    # image (a C copy from its row of the table), then blitted with its
    # unset pixels transparent (dark text: palette 1 -> 0, the unset pixels
    # mapped to the key and skipped)
    j = 0
    while j < _pos[2]:
        _LOAD(_ROWS, 0, -_RUN[j])
        if c:
            fb.blit(_FB, _pos[1], y, 0)
        else:
            fb.blit(_FB, _pos[1], y, 1, _INV)
        _pos[1] += CELL
        j += 1


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
