"""日本語 (issue 18): the glyph subset, its generator and the text drawing.

- Every Japanese text the device can show is drawable: each character is
  ASCII or in the committed glyph subset teatally.ja_font (this fails the
  moment a text gains a glyph the subset lacks: regenerate with `python -m
  teatally_host.jafont`).
- The generator regenerates the committed module byte-identical (skipped,
  saying why, when Misaki Gothic is not installed: `apt-get install
  fonts-misaki`; the committed module is tested all the same).
- ja_text draws mixed ASCII + Japanese text with the same pixels on
  MicroPython's framebuf and the host's pure-Python copy (dual), in the
  display layouts the boards use, lit and dark.
"""

import pytest

from teatally import ja_font, ja_words
from teatally_host import jafont

MISAKI = jafont.font_path()
NO_FONT = "Misaki Gothic not installed (%s); %s" % (jafont.DEFAULT_FONT, jafont.INSTALL_HINT)


def subset():
    codes = ja_font.CODES
    return [codes[i] << 8 | codes[i + 1] for i in range(0, len(codes), 2)]


def test_subset_is_a_sorted_index_with_8_bytes_a_glyph():
    codes = subset()
    assert codes == sorted(set(codes)) and len(codes) == ja_font.COUNT
    assert len(ja_font.GLYPHS) == 8 * ja_font.COUNT
    assert all(c > 127 for c in codes)


def test_every_japanese_text_has_its_glyphs():
    have = set(subset())
    lost = sorted({ch for s in jafont.texts() for ch in s if ord(ch) > 127 and ord(ch) not in have})
    assert not lost, "glyphs missing from ja_font (run python -m teatally_host.jafont): %s" % "".join(lost)


def test_subset_holds_no_glyph_nothing_uses():
    # the flash and heap cost stays what the texts need
    assert subset() == jafont.codepoints(jafont.texts())


def test_the_sheets_words():
    # the sheet's vocabulary, not a dictionary's (issue 18)
    assert ja_words.PLAYERS == {"blue": "青", "pink": "赤"}
    assert [ja_words.CARDS[c] for c in ("cat", "dormouse", "guards", "executioner", "knave")] == [
        "チェシャ猫", "ヤマネ", "兵隊", "処刑人", "ハートのジャック"]
    assert [ja_words.CARDS[c] for c in ("caterpillar", "king", "alice", "queen", "rabbit")] == [
        "イモムシ", "王様", "アリス", "女王", "ウサギ"]
    t = ja_words.TERMS
    assert (t["star"], t["teacup"], t["tart"], t["hourglass"], t["flamingo"], t["watch"]) == (
        "星", "ティー・カップ", "タルト", "砂時計", "フラミンゴ", "懐中時計")
    assert (t["draw pile"], t["discard pile"], t["destroy"], t["game over"], t["objective"]) == (
        "山札", "捨て札", "破壊", "ゲーム終了", "目的タイル")
    assert ja_words.objective("most:king") == "+王様"
    # one word for every name the engine and the records use
    from teatally import t42, teatime, witches

    assert set(ja_words.CARDS) == set(t42.CARDS) | {"rabbit"} or set(t42.CARDS) <= set(ja_words.CARDS)
    assert set(ja_words.SPACES) == set(t42.SPACES)
    assert set(ja_words.TEATIME_CHARACTERS) >= set(teatime.CHARACTERS)
    assert set(ja_words.WITCHES_FIELDS) == set(witches.KEYS)


@pytest.mark.skipif(MISAKI is None, reason=NO_FONT)
def test_generator_regenerates_the_committed_module_byte_identical():
    committed = jafont.OUT.read_text(encoding="utf-8")
    assert jafont.generate(MISAKI, jafont.texts()) == committed


@pytest.mark.skipif(MISAKI is None, reason=NO_FONT)
def test_generator_renders_misaki_pixel_exact():
    from PIL import ImageFont

    font = ImageFont.truetype(MISAKI, 8)
    # 星 as Misaki Gothic draws it at 8 px
    assert jafont.render(font, ord("星")) == bytes(
        [0b01111100, 0b01000100, 0b01111110, 0b01010000, 0b10111100, 0b00010000, 0b11111110, 0]
    )
    i = subset().index(ord("星"))
    assert ja_font.GLYPHS[8 * i : 8 * i + 8] == jafont.render(font, ord("星"))


@pytest.mark.skipif(MISAKI is None, reason=NO_FONT)
def test_generator_refuses_a_character_the_font_lacks():
    with pytest.raises(ValueError, match="no glyph for U\\+1F375"):
        jafont.generate(MISAKI, ["お茶\U0001f375"])


def test_generator_check_says_when_the_module_is_stale(tmp_path, capsys):
    if MISAKI is None:
        assert jafont.main(["--check"]) == 2  # one clear line: how to install the font
        assert "apt-get install fonts-misaki" in capsys.readouterr().err
        return
    stale = tmp_path / "ja_font.py"
    stale.write_text("COUNT = 0\n")
    assert jafont.main(["--check", "--out", str(stale)]) == 1
    assert jafont.main(["--check"]) == 0


DRAW = r"""
import framebuf
from teatally import ja_text, ja_words

def new(fmt, w=128, h=16):
    buf = bytearray(w * h // 8)
    return framebuf.FrameBuffer(buf, w, h, fmt), buf

def rows(fb, w, h):
    out = []
    for y in range(h):
        out.append("".join(["#" if fb.pixel(x, y) else "." for x in range(w)]))
    return out

line = "R3 " + ja_words.PLAYERS["blue"] + ":" + ja_words.CARDS["cat"] + " 5"
print("width", ja_text.width(line), ja_text.width("abc"), ja_text.width(ja_words.TERMS["teacup"]))
print("find", ja_text.find(ord("星")) >= 0, ja_text.find(0x4E02), ja_text.find(1), ja_text.has_glyph("A"))
for fmt in (framebuf.MONO_VLSB, framebuf.MONO_HLSB, framebuf.MONO_HMSB):
    fb, buf = new(fmt)
    x = ja_text.text(fb, line, 1, 0)
    fb.fill_rect(0, 8, 128, 8, 1)
    ja_text.text(fb, "x" + ja_words.SPACES["destroy"] + "\u00d7\u4e02", 0, 8, 0)
    print("fmt", fmt, "x", x)
    for r in rows(fb, 128, 16):
        print(r)
"""


def test_mixed_text_same_pixels_on_both_interpreters(dual):
    out = dual(DRAW)
    lines = out.splitlines()
    assert lines[0] == "width %d 24 %d" % (8 * 3 + 8 + 8 + 8 * 5 + 8 * 2, 8 * 7)
    assert lines[1] == "find True -1 -1 True"
    # the three display layouts give the same picture
    pics = [lines[i + 1 : i + 17] for i, ln in enumerate(lines) if ln.startswith("fmt ")]
    assert len(pics) == 3 and pics[0] == pics[1] == pics[2]
    pic = pics[0]
    # 星-free line: 青 drawn at x = 1 + 3 * 8 from its glyph's rows
    glyph = ja_font.GLYPHS[8 * subset().index(ord("青")) :][:8]
    for y in range(8):
        want = "".join("#" if glyph[y] & (0x80 >> k) else "." for k in range(8))
        assert pic[y][25:33] == want
    # dark text on the bar: the glyph's pixels are holes in the lit line,
    # and 丂 (not in the subset) is a box
    glyph = ja_font.GLYPHS[8 * subset().index(ord("捨")) :][:8]
    for y in range(8):
        want = "".join("." if glyph[y] & (0x80 >> k) else "#" for k in range(8))
        assert pic[8 + y][8:16] == want
    x_box = 8 + 8 * len(ja_words.SPACES["destroy"]) + 8
    assert pic[8][x_box : x_box + 7] == "......." and pic[8][x_box + 7] == "#"
