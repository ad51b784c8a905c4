"""Mixed ASCII + Japanese text on the 128x64 frame (issue 18).

    x = ja_text.text(fb, "青 5点", x, y, c)   # -> the x after the text
    ja_text.width("青 5点")                   # -> pixels (8 + 6 + 6 + 8 here)
    ja_text.wrap("...")                       # -> lines that fit the screen

While the language is Japanese, teatally.font draws and measures all
screen text through these (font.EXT) and ui.wrap breaks lines with wrap
(ui.WRAP): ui.lang.use_language sets them.

A text all ASCII is drawn by the device's font (teatally.font, 6x8) in
one call. Any other text is read into _RUN (_scan: each character its
glyph in teatally.ja_font, Misaki Gothic 8x8, one byte a column, or its
row in the device font's table) and drawn in one loop: ``c=1`` lit pixels
on whatever is there, ``c=0`` dark pixels (on a highlighted line), unset
pixels stay transparent, like gfx.icon. A character the subset lacks (a
test keeps every Japanese text inside it) is drawn as an empty box. Two
ways, the same pixels, as teatally.ui.font draws: each character's bytes
copied straight into a MONO_VLSB frame (on the 8-pixel grid, on blank or
full cells: _fast), or copied into a scratch image and blitted with its
unset pixels transparent (_keyed: any other frame, such as the SH1107's).

Imported only when the language is Japanese: the glyph table then costs
heap (bench: "ja font"); English-only play never loads it.

MicroPython only at run time like gfx (CPython tests install the
pure-Python framebuf, teatally_host.pyframebuf). The functions a text
runs through keep their frames within 11 words (tests/test_hot_frames.py;
_keyed, off the SSD1306's path, does not): the text's progress is in
``_pos`` instead of locals (a frame on the heap cost more in a key press's
heap than the locals saved: first_light_p95_ms in Japanese).
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
_NO_START_CODES = tuple([ord(c) for c in _NO_START])

_GLYPH = bytearray(CELL)
# the scratch image: 7x7, every glyph's 8th column and row are blank
# (teatally_host.jafont checks): 49 pixels blitted a glyph, not 64
# (first_light_p95_ms in Japanese on the SH1107: copy and blit 12.2K wasm
# fuel a glyph lit, 17.5K dark, 7x7: 10.9K, 15.1K);
# an ASCII character is its first 5 bytes seen as a 5x8 image
_FB = framebuf.FrameBuffer(_GLYPH, CELL - 1, CELL - 1, framebuf.MONO_VLSB)
_AFB = framebuf.FrameBuffer(_GLYPH, ASCII_W - 1, CELL, framebuf.MONO_VLSB)
# The glyph table seen as a GS8 image (glyph i = row i, a "pixel" a column
# byte; a tuple: blit reads the bytes where they are, no copy in the heap):
# a glyph is copied in C into the frame's bytes (the fast path) or into
# _GLYPH seen as one GS8 row (_LOAD), as teatally.ui.font does
_ROWS = (ja_font.GLYPHS, CELL, 256, framebuf.GS8)  # (255, _EMPTY: the box)
_LOAD = framebuf.FrameBuffer(_GLYPH, CELL, 1, framebuf.GS8).blit
# blit palette for dark drawing: source 1 -> 0, source 0 -> 1 (= key, skipped)
_INV = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
_INV.pixel(0, 0, 1)
_INV.pixel(1, 0, 0)
_EMPTY = const(255)  # a free slot of ja_font.SLOTS
_SLOTS = ja_font.SLOTS
_MUL = ja_font.MUL
# glyph g's code point (ja_font.CODES: two bytes each) as one item: a look-up
# compares one, not two bytes put together (full_frame_p95_ms on the keypad
# board in Japanese: _scan 16 % faster; 512 B of heap)
_CODE = array("H", [ja_font.CODES[2 * g] << 8 | ja_font.CODES[2 * g + 1] for g in range(len(ja_font.CODES) // 2)])
_SIZE = len(_SLOTS)
RUN = const(48)  # the bytes of a text drawn at once (more than a line's worth)
_ASCII = const(256)  # _RUN: a glyph number below, an ASCII byte added to it
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
        chars = len(s)
        s = s.encode()
    else:
        chars = len(s.decode())
    extra = len(s) - chars
    if not extra % 2:
        # ASCII and 3-byte characters only (every glyph of the subset is
        # one, jafont checks): counted in C, no loop over the bytes here
        # (first_light_p95_ms in Japanese)
        return chars * ASCII_W + (extra // 2) * (CELL - ASCII_W)
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
    if not s or s[0] < 128 and max(s) < 128:
        # all ASCII (numbers, scores): the device font in one call, no scan
        # of the bytes here (first_light_p95_ms in Japanese; a text that
        # starts Japanese is not looked through for it)
        draw_ascii(fb, s, x, y, c)
        return x + len(s) * ASCII_W
    _pos[0] = 0
    _pos[1] = x
    while _pos[0] < len(s):  # (once for all but the longest texts)
        _scan(s)
        if not _fast(getattr(fb, "vlsb", None), y, c):
            _keyed(fb, y, c)
    return _pos[1]


def _scan(b):
    # The characters of b from byte _pos[0] on, at most RUN bytes' worth,
    # into _RUN: glyph g as itself (the box, _EMPTY, where the subset lacks
    # one), an ASCII character as _ASCII + its row in the device font's
    # table (teatally.ui.font.ROWS); _pos[0] moves past them,
    # _pos[2] is their count and _pos[3] the pixels they take. The hash
    # look-up is find()'s, inlined (first_light_p95_ms in Japanese: the
    # texts of a 60-round game took 1140M wasm fuel drawn a glyph a call,
    # 551M this way; the tables in locals put the frame on the heap: 661M).
    i = _pos[0]
    end = min(len(b), i + RUN)
    n = 0
    _pos[3] = 0
    while i < end:
        v = b[i]
        if v < 128:
            _RUN[n] = _ASCII - ASCII_ROW_Y[v]  # (its row in the font's table)
            i += 1
        elif v & 0xF0 == 0xE0 and i + 2 < len(b):
            # the code point: the three bytes' bits less their UTF-8 marks
            # (1110xxxx 10xxxxxx 10xxxxxx: 0xE0 << 12 + 0x80 << 6 + 0x80)
            v = (v << 12) + (b[i + 1] << 6) + b[i + 2] - 0xE2080
            h = v * _MUL % _SIZE
            g = _SLOTS[h]
            while _CODE[g] != v and g != _EMPTY:
                h = (h + 1) % _SIZE
                g = _SLOTS[h]
            _RUN[n] = g  # (_EMPTY, the box, when not found)
            i += 3
        else:
            # another character (every glyph is a 3-byte one: U+0800 ..
            # U+FFFF, teatally_host.jafont checks), a stray or cut byte: a box
            _RUN[n] = _EMPTY
            i += _box_bytes(v)
        n += 1
    # 6 px a 1-byte character, 8 px a 3-byte one: 5 px a character + 1 a byte
    h = 5 * n + i - _pos[0]
    _pos[3] += h
    _pos[0] = i
    _pos[2] = n


def _box_bytes(v):
    # the bytes of the character with lead byte v drawn as a box; its 8 px
    # made up in _pos[3] (_scan counts 5 px a character + 1 a byte)
    h = _utf8_len(v)
    _pos[3] += 3 - h
    return h


def _fast(f, y, c):
    # As teatally.ui.font's fast path, for the characters in _RUN: a
    # MONO_VLSB frame (its bytes f), y on the 8-pixel grid, the characters
    # inside the frame and every byte they draw 0x00 (lit text) or 0xFF
    # (dark text): then a character's column bytes (or their inverse) are
    # exactly the frame's bytes, one C copy a character, ASCII from the
    # device font's table, Japanese from ja_font's (first_light_p95_ms in
    # Japanese: 3.5K wasm fuel a glyph lit, 5.7K dark, against 10.8K
    # copied and blitted with a key).
    # -> False where it does not draw.
    x = _pos[1]
    w = _pos[3]
    if f is None or y & -57 or x < 0 or x + w > ROOM:
        return False
    x += y << 4  # the first cell's byte: band y // 8 starts at 128 * (y // 8)
    if _RUN[_pos[2] - 1] >= _ASCII:
        w -= 1  # (the last ASCII character's space column is not drawn)
    if f[x] != (0 if c else 255) or f[x : x + w - 1] != f[x + 1 : x + w]:  # (all alike)
        return False
    (_lit if c else _dark)(frame_row(f), x, _pos[2])
    return True


def _lit(put, a, n):
    # the n characters' column bytes into the frame's bytes from byte a on
    rows = _ROWS
    j = 0
    while j < n:
        v = _RUN[j]
        if v < _ASCII:
            put(rows, a, -v)
            a += CELL
        else:
            put(ASCII_ROWS, a, _ASCII - v)
            a += ASCII_W
        j += 1
    _pos[1] += _pos[3]


def _dark(put, a, n):
    # the same, each byte inverted (through the palette DARK)
    j = 0
    while j < n:
        v = _RUN[j]
        if v < _ASCII:
            put(_ROWS, a, -v, -1, DARK)
            a += CELL
        else:
            put(ASCII_ROWS, a, _ASCII - v, -1, DARK)
            a += ASCII_W
        j += 1
    _pos[1] += _pos[3]


def _keyed(fb, y, c):
    # Any frame, anywhere: each character in _RUN copied into the scratch
    # image (a C copy from its row of a table), then blitted with its unset
    # pixels transparent (dark text: palette 1 -> 0, the unset pixels
    # mapped to the key and skipped), as teatally.ui.font's other path.
    x = _pos[1]
    blit = fb.blit
    for j in range(_pos[2]):
        v = _RUN[j]
        if v < _ASCII:
            _LOAD(_ROWS, 0, -v)
            g = _FB
            w = CELL
        else:
            _LOAD(ASCII_ROWS, 0, _ASCII - v)
            g = _AFB
            w = ASCII_W
        if c:
            blit(g, x, y, 0)
        else:
            blit(g, x, y, 1, _INV)
        x += w
    _pos[1] = x


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
    a = 0  # the line's start
    n = len(b)
    while a < n:
        e = _line_end(b, a, n)
        out.append(b[a:e].decode())
        a = e
        while a < n and b[a] == 32:
            a += 1
    return out


def _line_end(b, a, n):
    # the end of the line starting at byte a: the last break that fits
    # (the whole rest when it fits; at least one character). One pass over
    # the bytes with no call a character: a note's wrap was 5.4 ms of a
    # Japanese key press (first_light_p95_ms in Japanese)
    i = a
    w = 0
    brk = -1
    wide = False  # the character before i is not ASCII
    while i < n:
        v = b[i]
        if v < 128:
            k = 1
            w += ASCII_W
            code = v
        else:
            k = 2 if v < 0xE0 else 3 if v < 0xF0 else 4
            w += CELL
            code = (v & 15) << 12 | (b[i + 1] & 63) << 6 | (b[i + 2] & 63) if k == 3 else -1
        if w > ROOM:
            return brk if brk > a else i if i > a else i + k
        if v == 32:
            brk = i
        elif i > a and (v >= 128 or wide) and code not in _NO_START_CODES:
            brk = i
        wide = v >= 128
        i += k
    return i


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
