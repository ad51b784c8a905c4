"""`python -m teatally_host.jafont [--check]`: the Japanese glyph subset.

Renders, from Misaki Gothic (美咲ゴシック, Debian's ``fonts-misaki``, an 8x8
design: Pillow draws it pixel-exact at 8 px), only the glyphs the device's
Japanese texts use into firmware/teatally/ui/ja_font.py: a sorted index of
code points (two bytes each, big-endian), a hash table from a code point to
its glyph (slots(): one look-up instead of a binary search, for
first_light_p95_ms in Japanese) and 8 bytes a glyph (columns left to
right, MONO_VLSB: top pixel = bit 0, the layout of the SSD1306's frame, so
that ja_text copies a glyph's bytes straight into it as teatally.ui.font
does: first_light_p95_ms in Japanese). ASCII is not in it: the device draws
ASCII in its own font.

The module is committed; this script regenerates it byte-identical while
the font and the texts are unchanged (``--check`` says whether it would
change anything: exit 1 if so). The texts are every string of
the Japanese words (their source words/ja.py, packed into teatally.words_ja
by teatally_host.wordpack) and of the language setting (teatally.ui.lang),
see ``texts()``; the host's vocabulary
(teatally_host.ja_words, for the report) is drawn with the TTF itself.

The font's licence (free: "Unlimited permission is granted to use, copy,
and distribute it, with or without modification") is in
LICENSES/misaki-font.txt and quoted in the generated module.
"""

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "firmware" / "teatally" / "ui" / "ja_font.py"
# Debian's fonts-misaki; TEATALLY_MISAKI names another copy of the same file.
DEFAULT_FONT = "/usr/share/fonts/truetype/misaki/misaki_gothic.ttf"
INSTALL_HINT = "install it with: apt-get install fonts-misaki"
CELL = 8


def font_path():
    """The Misaki Gothic TTF to render from, or None when it is not installed."""
    p = os.environ.get("TEATALLY_MISAKI") or DEFAULT_FONT
    return p if Path(p).is_file() else None


def texts():
    """Every Japanese text the device can show: the words (words/ja.py, as
    the device gets them: English's where a key is missing), the language
    menu's words (teatally.ui.lang) and ja_text's 8-px space."""
    from teatally.ui import lang
    from teatally_host import wordpack

    out = ["\u3000", lang.TITLE, lang.SETTING_JA]  # (ja_text.SPACE8, the 8-px space)
    out.extend(lang.NAMES)
    for v in wordpack.tables()["ja"].values():
        out.extend(v if type(v) is tuple else (v,))
    return out


def codepoints(strings):
    """The sorted code points above ASCII that ``strings`` use."""
    return sorted({ord(ch) for s in strings for ch in s if ord(ch) > 127})


def render(font, code):
    """One glyph as 8 bytes, MONO_HLSB rows (left pixel = bit 7)."""
    from PIL import Image, ImageDraw

    im = Image.new("1", (CELL, CELL), 0)
    ImageDraw.Draw(im).text((0, 0), chr(code), font=font, fill=1)
    rows = bytearray(CELL)
    for y in range(CELL):
        for x in range(CELL):
            if im.getpixel((x, y)):
                rows[y] |= 0x80 >> x
    return bytes(rows)


def columns(rows):
    """A glyph's 8 MONO_HLSB row bytes as its 8 MONO_VLSB column bytes
    (column k: bit y set where row y has pixel k; top pixel = bit 0)."""
    return bytes(sum(1 << y for y in range(CELL) if rows[y] & (0x80 >> k)) for k in range(CELL))


# what ja_text draws for a character the subset lacks: an empty 7x7 box,
# columns as the glyphs, glyph number EMPTY (the free-slot mark of SLOTS: a
# failed look-up ends on it; the numbers between COUNT and EMPTY are blank)
BOX = bytes([0x7F, 0x41, 0x41, 0x41, 0x41, 0x41, 0x7F, 0])

EMPTY = 255  # a free slot of the hash table (so at most 255 glyphs)
MULTIPLIERS = range(1, 1024, 2)  # the hash multipliers slots() tries


def slots(codes):
    """The code -> glyph hash table: (multiplier, table) with glyph i at slot
    ``codes[i] * multiplier % len(table)`` or the first free one after it
    (wrapping), EMPTY where no glyph is; one and a half slots a glyph, the
    multiplier the one whose glyphs take the fewest probes (the smallest of
    those: the same table on every run)."""
    if len(codes) >= EMPTY:
        raise ValueError("%d glyphs do not fit the one-byte hash table (at most %d)" % (len(codes), EMPTY - 1))
    size = max(1, len(codes) + len(codes) // 2)
    best = None
    for k in MULTIPLIERS:
        table = [EMPTY] * size
        probes = 0
        for i, c in enumerate(codes):
            h = c * k % size
            while table[h] != EMPTY:
                h = (h + 1) % size
                probes += 1
            table[h] = i
        if best is None or probes < best[0]:
            best = (probes, k, bytes(table))
    return best[1], best[2]


def missing_in_font(path, codes):
    """The code points of ``codes`` the font has no glyph for (its cmap)."""
    from fontTools.ttLib import TTFont

    cmap = TTFont(path).getBestCmap()
    return [c for c in codes if c not in cmap]


def _shown(code):
    # a glyph's name in the module's comments: itself, or U+XXXX for a space
    return "U+%04X" % code if chr(code).isspace() else chr(code)


def generate(path, strings):
    """The text of ja_font.py for ``strings`` rendered from the font at path."""
    from PIL import ImageFont

    codes = codepoints(strings)
    lost = missing_in_font(path, codes)
    if lost:
        raise ValueError("Misaki Gothic has no glyph for %s" % ", ".join("U+%04X %s" % (c, chr(c)) for c in lost))
    if codes and codes[-1] > 0xFFFF:
        raise ValueError("a code point above U+FFFF does not fit the two-byte index")
    if codes and codes[0] < 0x800:
        # ja_text looks up 3-byte UTF-8 characters only (U+0800 .. U+FFFF)
        raise ValueError("U+%04X is not a 3-byte UTF-8 character: ja_text does not draw it" % codes[0])
    font = ImageFont.truetype(path, CELL)
    glyphs = [columns(render(font, c)) for c in codes]
    wide = [c for c, g in zip(codes, glyphs, strict=True) if g[CELL - 1] or any(b & 1 << (CELL - 1) for b in g)]
    if wide:
        # ja_text blits a glyph as 7x7 (49 pixels, not 64: first_light_p95_ms in Japanese)
        raise ValueError("%s would draw in the glyph's 8th column or row" % ", ".join(map(_shown, wide)))
    lines = [
        "# Generated by `python -m teatally_host.jafont` from Misaki Gothic",
        "# (美咲ゴシック, fonts-misaki, (c) 2002-2021 Num Kadoma): do not edit.",
        "# Font licence (LICENSES/misaki-font.txt): \"These fonts are free software.",
        "# Unlimited permission is granted to use, copy, and distribute it, with or",
        "# without modification, either commercially and noncommercially. THESE",
        "# FONTS ARE PROVIDED \"AS IS\" WITHOUT WARRANTY.\"",
        '"""The %d glyphs the Japanese texts use (teatally.ui.ja_text draws them).' % len(codes),
        "",
        "CODES: glyph i's code point, ascending, two bytes each (big-endian),",
        "then 0 for the numbers COUNT .. 255 (ja_text compares after a look-up).",
        "SLOTS: code point -> glyph number, a hash table: glyph i is in the",
        "slot code * MUL % len(SLOTS) or the first one after it (wrapping) that",
        "holds it; 255 ends the search (no such glyph).",
        "GLYPHS: 8 bytes a glyph in CODES order, columns left to right, MONO_VLSB",
        "(top pixel = bit 0), each within 7x7 (its last column and row blank),",
        "then blank ones up to 255, the box drawn for a character the subset",
        "lacks (the number a failed look-up in SLOTS ends on).",
        "Imported only when the language is Japanese.",
        '"""',
        "",
        "COUNT = %d" % len(codes),
        "CODES = (",
    ]
    for i in range(0, len(codes), 8):
        chunk = codes[i : i + 8]
        lines.append('    b"%s"  # %s' % ("".join("\\x%02x\\x%02x" % (c >> 8, c & 255) for c in chunk),
                                          " ".join(_shown(c) for c in chunk)))
    for k in range(len(codes), EMPTY + 1, 8):
        lines.append('    b"%s"  # %d ..: none' % ("\\x00" * 2 * min(8, EMPTY + 1 - k), k))
    lines.append(")")
    mul, table = slots(codes)
    lines.append("MUL = %d" % mul)
    lines.append("SLOTS = (")
    for i in range(0, len(table), 16):
        lines.append('    b"%s"' % "".join("\\x%02x" % b for b in table[i : i + 16]))
    lines.append(")")
    lines.append("GLYPHS = (")
    for c, g in zip(codes, glyphs, strict=True):
        lines.append('    b"%s"  # %s' % ("".join("\\x%02x" % b for b in g), _shown(c)))
    for k in range(len(codes), EMPTY):
        lines.append('    b"%s"  # %d: blank' % ("\\x00" * CELL, k))
    box = "".join("\\x%02x" % b for b in BOX)
    lines.append('    b"%s"  # %d: the box, a character the subset lacks' % (box, EMPTY))
    lines.append(")")
    return "\n".join(lines) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m teatally_host.jafont", description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="only say whether ja_font.py is up to date (exit 1 if not)")
    p.add_argument("--out", default=str(OUT), help="where to write (default: firmware/teatally/ui/ja_font.py)")
    args = p.parse_args(argv)
    path = font_path()
    if path is None:
        print("jafont: Misaki Gothic not found at %s; %s" % (DEFAULT_FONT, INSTALL_HINT), file=sys.stderr)
        return 2
    try:
        text = generate(path, texts())
    except ValueError as exc:
        print("jafont: %s" % exc, file=sys.stderr)
        return 2
    out = Path(args.out)
    old = out.read_text(encoding="utf-8") if out.exists() else None
    if args.check:
        if old != text:
            print("jafont: %s is out of date; run python -m teatally_host.jafont" % out)
            return 1
        print("jafont: %s is up to date" % out)
        return 0
    if old != text:
        out.write_text(text, encoding="utf-8")
        print("jafont: wrote %s" % out)
    else:
        print("jafont: %s unchanged" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
