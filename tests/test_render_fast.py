"""The cheap drawing paths give exactly the pixels of the plain ones.

Drawing is most of a key press's cost on the device, so the screens take
shortcuts (issue #7): the frame is cleared and title bars are lit through the
display's ``bands`` (a byte fill instead of 8192 / 1024 pixels, see
hw_base), long lines are cut while drawing instead of cutting the string
(the font's glyphs are blitted, not set pixel by pixel), the status board's fixed lines are copied in (ui.Stamp) and
its numbers are drawn two to a text call, big digits are filled rectangles
(gfx._RECTS). None of that may change a pixel: the scenarios draw each
screen both ways -- the shortcut on a display that has the fast path, and
the straightforward drawing (the screens' code before the shortcuts, kept
below as the reference) on a plain FrameBuffer -- and compare the bytes, in
the SSD1306/SH1106 layout (MONO_VLSB) and in peter-l5's SH1107 one
(MONO_HMSB), on both interpreters (``dual``).
"""

from teatally_host import pyframebuf
from teatally_host.pyfont8x8 import FONT


PRELUDE = r"""
import framebuf
from teatally.ui import gfx
from teatally.hw import base as hw_base
from teatally.rules import t42
from teatally.ui import core as ui
from teatally.ui.t42 import board as ui_t42
from teatally.ui.t42 import end as ui_t42_end
from teatally.hw.virtual import VirtualDisplay

FORMATS = (('vlsb', framebuf.MONO_VLSB), ('hmsb', framebuf.MONO_HMSB))

class Plain(framebuf.FrameBuffer):
    # no fast path: the bytes are kept where hw_base does not look for them
    def __init__(self, fmt):
        self.raw = bytearray(1024)
        super().__init__(self.raw, 128, 64, fmt)

class Fast(Plain):
    # a driver that exposes its frame bytes (like micropython-lib ssd1306)
    def __init__(self, fmt):
        Plain.__init__(self, fmt)
        self.buffer = self.raw
        hw_base.add_bands(self)

def scribble(fb):
    # something to clear: text, a bar, an icon
    fb.fill_rect(0, 8, 128, 8, 1)
    fb.text('Tea for 2 Tally!', 0, 20, 1)
    fb.text('dark', 4, 8, 0)
    gfx.icon(fb, gfx.ICON_TEACUP, 100, 40)

def same(a, b):
    return bytes(a.raw) == bytes(b.raw)
"""


# -- the display's fast path (hw_base, ui.clear, ui.bar) -----------------------------
BANDS = (
    PRELUDE
    + r"""
def check(name, fmt):
    a = Fast(fmt)
    b = Plain(fmt)
    for fb in (a, b):
        scribble(fb)
    ui.clear(a)
    b.fill(0)
    ok = [same(a, b), bytes(a.raw) == bytes(1024)]
    for y, c in ((0, 1), (8, 1), (56, 1), (12, 1), (3, 0)):
        for fb in (a, b):
            scribble(fb)
        ui.bar(a, y, c)
        b.fill_rect(0, y, 128, 8, c)
        ok.append(same(a, b))
    a.fill(1)
    b.fill(1)
    ui.bar(a, 24, 0)
    b.fill_rect(0, 24, 128, 8, 0)
    ok.append(same(a, b))
    print('bands', name, ok)

def main():
    for name, fmt in FORMATS:
        check(name, fmt)
    # no fast path: clear and bar fall back to fill / fill_rect
    p = Plain(framebuf.MONO_VLSB)
    scribble(p)
    ui.clear(p)
    ui.bar(p, 8)
    q = Plain(framebuf.MONO_VLSB)
    q.fill_rect(0, 8, 128, 8, 1)
    print('fallback', same(p, q))
    v = VirtualDisplay()
    scribble(v)
    v.clear()
    print('virtual', bytes(v.buffer) == bytes(1024))
main()
"""
)


def test_clear_and_bars_through_bands_match_fill(dual):
    out = dual(BANDS)
    assert "bands vlsb [True, True, True, True, True, True, True, True]" in out
    assert "bands hmsb [True, True, True, True, True, True, True, True]" in out
    assert "fallback True" in out
    assert "virtual True" in out


DRIVERS = (
    PRELUDE
    + r"""
class Ssd1306(framebuf.FrameBuffer):
    # micropython-lib: .buffer, show() sends all of it
    def __init__(self):
        self.buffer = bytearray(1024)
        super().__init__(self.buffer, 128, 64, framebuf.MONO_VLSB)

class Sh1106(framebuf.FrameBuffer):
    # robert-hh: drawn into .renderbuf; show() sends the pages marked in pages_to_update
    def __init__(self):
        self.pages = 8
        self.renderbuf = bytearray(1024)
        self.displaybuf = self.renderbuf
        self.pages_to_update = 0
        super().__init__(self.renderbuf, 128, 64, framebuf.MONO_VLSB)

class Sh1107(framebuf.FrameBuffer):
    # peter-l5 v317+: .displaybuf in MONO_HMSB, pages_to_update likewise
    def __init__(self):
        self.displaybuf = bytearray(1024)
        self.pages_to_update = 0
        super().__init__(self.displaybuf, 128, 64, framebuf.MONO_HMSB)

class Odd(framebuf.FrameBuffer):
    # a frame that is not the 128x64 one: left alone
    def __init__(self):
        self.buffer = bytearray(2048)
        super().__init__(self.buffer, 128, 128, framebuf.MONO_VLSB)

class Hidden:
    # a driver that does not expose its frame
    def fill(self, c):
        pass

def main():
    for d in (Ssd1306(), Sh1106(), Sh1107(), Odd(), Hidden()):
        if hasattr(d, 'pixel'):
            d.pixel(0, 1, 1)  # drawn before: the format probe leaves it
        got = hw_base.add_bands(d)
        line = [type(d).__name__, got, hasattr(d, 'clear'), hasattr(d, 'bands'), hasattr(d, 'vlsb')]
        if got:
            line.append(d.pixel(0, 1) == 1 and len([v for v in hw_base.frame_bytes(d) if v]) == 1)
            d.fill(1)
            d.clear()
            line.append(bytes(hw_base.frame_bytes(d)) == bytes(1024))
            line.append(getattr(d, 'pages_to_update', None))
        print('driver', ' '.join([str(x) for x in line]))
main()
"""
)


def test_add_bands_knows_the_drivers_frames(dual):
    """ssd1306 (buffer), sh1106 (renderbuf) and sh1107 (displaybuf) get the
    fast clear; the two with dirty-page tracking get every page marked, so
    show() sends the cleared frame; anything else keeps fill(0). The two
    MONO_VLSB frames get ``vlsb`` (the font's fast path), found by a probe
    that leaves the frame as it was; the SH1107's MONO_HMSB does not."""
    lines = [x for x in dual(DRIVERS).splitlines() if x.startswith("driver")]
    assert lines == [
        "driver Ssd1306 True True True True True True None",
        "driver Sh1106 True True True True True True 255",
        "driver Sh1107 True True True False True True 255",
        "driver Odd False False False False",
        "driver Hidden False False False False",
    ]


# The reference text drawing both scenarios compare with: each lit pixel of
# each glyph (font.glyphs(): 5 columns a character, bit 0 the top row), one
# pixel call at a time (the font's own test checks the table against the art).
REF_TEXT = r"""
def ref_text(fb, s, x, y, c=1):
    if not isinstance(s, str):
        s = s.decode()
    for ch in s:
        code = ord(ch) if 32 <= ord(ch) <= 126 else 63
        for cx in range(5):
            col = GLYPHS[(code - 32) * 5 + cx]
            for cy in range(8):
                if col >> cy & 1:
                    fb.pixel(x + cx, y + cy, c)
        x += 6
"""

# -- ui.text (the 6x8 font) and Stamp (ui) ------------------------------------------
TEXT = (
    PRELUDE
    + r"""
from teatally.ui import font

GLYPHS = font.glyphs()
"""
    + REF_TEXT
    + r"""

ALL = ''.join([chr(i) for i in range(32, 127)])
LINES = ('', 'Tea', 'Blue: dormouse? OK', ALL[:21], ALL[21:42], ALL[42:63], ALL[63:84], ALL[84:], 'tab\x7f?')

def check(fmt):
    cases = 0
    bad = 0
    for s in LINES:
        for x in (0, 4, -3, 125):
            for c in (0, 1):
                a = Fast(fmt)
                b = Plain(fmt)
                for fb in (a, b):
                    fb.fill_rect(0, 16, 128, 8, 1 - c)  # the line's background
                    fb.pixel(1, 17, c)  # something already drawn: text leaves it be
                ui.text(a, s, x, 13 + x % 5, c)
                ref_text(b, s, x, 13 + x % 5, c)
                cases += 1
                if not same(a, b):
                    bad += 1
    return cases, bad

BLITS = [0]

def watched(fb):
    # counts the blits onto the frame: the slow path makes one a character,
    # the fast path none
    blit = fb.blit

    def counted(*args):
        BLITS[0] += 1
        blit(*args)

    fb.blit = counted
    return fb

def check_grid(fmt):
    # on the 8-pixel grid, where the fast path may copy glyph bytes in: the
    # cells blank (lit text) or full (dark text), something drawn in or
    # beside them (a pixel, a column of the cells lit: the fast path must
    # see it and leave the text to the slow path), the other colour (lit
    # text on a bar), past either edge. -> (cases, bad, fast)
    cases = 0
    bad = 0
    fast = 0
    for s in LINES[1:] + ('?' * 21, ' ' * 21, 'caf\u00e9 ok'):
        # (a character beyond ASCII is a "?" a byte of its UTF-8)
        r = s.replace('\u00e9', '??')
        for x in (0, 4, 128 - 6 * len(r) + 1, -3, 125):
            for y in (0, 16, 56):
                for c in (0, 1):
                    for bg in ('cells', 'pixel', 'column', 'other'):
                        a = watched(Fast(fmt))
                        b = Plain(fmt)
                        for fb in (a, b):
                            fb.fill_rect(0, y, 128, 8, (1 - c) if bg != 'other' else c)
                            if bg == 'pixel':
                                fb.pixel(5, y + 7, c)
                            if bg == 'column':
                                fb.vline(x + 6 * len(r) - 2, y, 8, c)
                            fb.pixel(x - 1, y + 3, c)  # beside the text: left as it is
                        BLITS[0] = 0
                        ui.text(a, s, x, y, c)
                        fast += BLITS[0] == 0
                        ref_text(b, r, x, y, c)
                        cases += 1
                        if not same(a, b):
                            bad += 1
    return cases, bad, fast

def main():
    for name, fmt in FORMATS:
        print('text', name, check(fmt))
        print('grid', name, check_grid(fmt))
    del ui.OVERFLOWS[:]
    ui.text(Plain(FORMATS[0][1]), 'x' * 21, 0, 0)
    ui.text(Plain(FORMATS[0][1]), 'x' * 21, 3, 8)
    ui.text(Plain(FORMATS[0][1]), b'y' * 22, 0, 16)
    print('over', [(bytes(s), x, y) for s, x, y in ui.OVERFLOWS], ui.width('Tea'), ui.fits('x' * 21), ui.fits('x' * 22))
main()
"""
)


def test_text_draws_the_glyphs_pixel_for_pixel_and_notes_overflow(dual):
    """ui.text (teatally.ui.font) lights exactly the glyph table's pixels,
    lit or dark, clipped at the edges, on both layouts and both interpreters
    (so MicroPython's framebuf and the host's pyframebuf agree); a character
    outside printable ASCII draws as "?"; text wider than the screen is noted in
    ui.OVERFLOWS (the text-fit test reads it), never cut.

    On the 8-pixel grid of a MONO_VLSB frame the font copies glyph bytes
    straight in where the cells are blank (lit text) or full (dark text):
    192 of the 1320 grid cases take that path (a byte beyond ASCII too: its
    "?" glyph's bytes), and where something is drawn in the cells, or the
    text is lit on a bar, or it runs past an edge, the font must see it and
    draw pixel by pixel: no case may differ from the reference. MONO_HMSB
    (the SH1107) never takes it."""
    out = dual(TEXT)
    assert "text vlsb (72, 0)" in out
    assert "text hmsb (72, 0)" in out
    assert "grid vlsb (1320, 0, 192)" in out
    assert "grid hmsb (1320, 0, 0)" in out
    assert "over [(b'xxxxxxxxxxxxxxxxxxxxx', 3, 8), (b'yyyyyyyyyyyyyyyyyyyyyy', 0, 16)] 18 True False" in out


def test_font_table_is_the_pixel_art():
    """firmware/teatally/font.py's glyph table is what teatally_host.font6x8
    makes of its pixel art (regenerate: python -m teatally_host.font6x8),
    every printable ASCII character, 5 columns, no two alike."""
    pyframebuf.install()
    from teatally.ui import font
    from teatally_host import font6x8

    table = font.glyphs()
    assert table == font6x8.glyph_bytes()
    assert len(table) == 5 * 95 and len(font6x8.ART) == 95
    glyphs = {table[i * 5 : i * 5 + 5] for i in range(95)}
    assert len(glyphs) == 95


STAMP = (
    PRELUDE
    + r"""
def band(fb):
    fb.fill_rect(16, 40, 9, 8, 1)
    fb.text('4 5', 16, 40, 0)
    gfx.icon(fb, gfx.ICON_RABBIT, 96, 40)

def main():
    for name, fmt in FORMATS:
        st = ui.Stamp()
        a = Fast(fmt)
        b = Plain(fmt)
        first = st.paste(a, 5, 'k')
        band(a)
        st.keep(a, 5, 'k')
        ui.clear(a)
        again = st.paste(a, 5, 'k')
        band(b)
        other_key = st.paste(a, 5, 'j')
        other_fb = st.paste(Fast(fmt), 5, 'k')
        print('stamp', name, first, again, same(a, b), other_key, other_fb)
    # no bands: keep does nothing, paste never claims the band
    st = ui.Stamp()
    p = Plain(framebuf.MONO_VLSB)
    band(p)
    st.keep(p, 5, 'k')
    print('stamp plain', st.paste(p, 5, 'k'))
main()
"""
)


def test_stamp_copies_a_band_back_exactly(dual):
    out = dual(STAMP)
    assert "stamp vlsb False True True False False" in out
    assert "stamp hmsb False True True False False" in out
    assert "stamp plain False" in out


# -- the screens against their plain drawing ---------------------------------------------
# The reference: how the screens were drawn before the shortcuts (fill, a
# fill_rect per bar, fit() strings, one text call and one icon call per
# number and icon, big glyphs blitted a pixel at a time).
REFERENCE = r"""
from teatally.ui import font
from teatally.ui.core import H, LINE, ROWS, W

GLYPHS = font.glyphs()
""" + REF_TEXT + r"""

def ref_header(fb, title):
    fb.fill_rect(0, 0, W, LINE, 1)
    ref_text(fb, title, 1, 0, 0)  # one lit column before it (issue 30)
    fb.fill_rect(0, LINE - 1, W, 1, 0)  # the bar's last row dark (issue 30)

def ref_menu(m, fb):
    note = getattr(m, 'note', None) or []
    rows = ROWS - 1 - (1 if m.hint else 0) - len(note)
    top = m.top
    if m.sel < top:
        top = m.sel
    elif m.sel >= top + rows:
        top = m.sel - rows + 1
    ref_header(fb, m.title)
    y = LINE
    for i in range(top, min(len(m.items), top + rows)):
        label = m.items[i][0]
        if i == m.sel:
            fb.fill_rect(0, y, W, LINE, 1)
            ref_text(fb, label, 4, y, 0)
        else:
            ref_text(fb, label, 4, y, 1)
        y += LINE
    if len(m.items) > rows:
        h = max(3, (H - LINE) * rows // len(m.items))
        span = rows * LINE - h
        yb = LINE + span * top // max(1, len(m.items) - rows)
        fb.fill_rect(W - 2, yb, 2, h, 1)
    if m.hint and m.items:
        ref_text(fb, m.hint(m.items[m.sel][1]), 0, H - LINE)
    y = H - LINE * (len(note) + (1 if m.hint else 0))
    for line in note:
        ref_text(fb, line, 0, y)
        y += LINE

def ref_big(fb, s, x, y, scale):
    # each font pixel a scale x scale square, straight from the 8x8 glyph
    g = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_HLSB)
    for ch in s:
        g.fill(0)
        g.text(ch, 0, 0, 1)
        for yy in range(8):
            for xx in range(8):
                if g.pixel(xx, yy):
                    fb.fill_rect(x + xx * scale, y + yy * scale, scale, scale, 1)
        x += 8 * scale

def ref_picker(p, fb):
    ref_header(fb, p.title)
    v = str(p.value)
    ref_big(fb, v, 4, 12, 3 if len(v) <= 2 else 2)
    ref_text(fb, '%d..%d' % (p.lo, p.hi), 64, 16)
    if p.describe is not None:
        y = 40
        for line in p.describe(p.value)[:3]:
            ref_text(fb, line, 0, y)
            y += LINE

def ref_message(m, fb):
    ref_header(fb, m.title)
    y = LINE
    for line in m.lines[m.top : m.top + ROWS - 1]:
        ref_text(fb, line, 0, y)
        y += LINE

def ref_lines(m, fb):
    ref_message(m, fb)
    if len(m.lines) > ROWS - 1:
        if m.top + ROWS - 1 < len(m.lines):
            gfx.icon(fb, gfx.ICON_DOWN, W - 8, 7 * LINE, 1)
        if m.top:
            gfx.icon(fb, gfx.ICON_UP, W - 8, 0, 0)

def ref_status(st, s, fb):
    if st.toast is not None:
        ref_header(fb, st.toast[0])
        ref_text(fb, st.toast[1], 0, LINE)
    else:
        ref_header(fb, 'R%d' % (s.round + 1))
        gfx.icon(fb, gfx.ICON_WATCH, 28, 0, 0)
        ref_text(fb, t42.SPACES[s.watch], 38, 0, 0)
        for p in (0, 1):
            x = 16 + 56 * p
            ref_text(fb, ui_t42.NAMES[p], x, LINE)
            if s.flamingo == p:
                gfx.icon(fb, gfx.ICON_FLAMINGO, x + 30, LINE, 1)
    gfx.icon(fb, gfx.ICON_STAR, 2, 2 * LINE, 1)
    gfx.icon(fb, gfx.ICON_TART, 2, 3 * LINE, 1)
    gfx.icon(fb, gfx.ICON_PILE, 2, 4 * LINE, 1)
    for p in (0, 1):
        me = s.players[p]
        x = 16 + 56 * p
        t = '%d' % t42.track(me.stars)
        fb.text(t, x, 2 * LINE, 1)
        cups = t42.teacups(me.stars)
        if cups:
            xc = x + 8 * len(t) + 2
            gfx.icon(fb, gfx.ICON_TEACUP, xc, 2 * LINE, 1)
            fb.text('%d' % cups, xc + 9, 2 * LINE, 1)
            total = ('=%d' if me.stars < 100 else '%d') % me.stars  # the stars in all (issue 30)
            ref_text(fb, total, xc + 9 + 8 * len('%d' % cups) + 1, 2 * LINE)
        fb.text('%d' % me.tarts, x, 3 * LINE, 1)
        gfx.icon(fb, gfx.ICON_HOURGLASS, x + 22, 3 * LINE, 1)
        fb.text('%d' % me.hourglasses, x + 32, 3 * LINE, 1)
        fb.text('%d' % me.draw_count(), x, 4 * LINE, 1)
    for i in range(5):
        x = 20 * i
        fb.fill_rect(x, 5 * LINE, 7, LINE, 1)
        ref_text(fb, '%d' % (i + 4), x + 1, 5 * LINE, 0)
        ref_text(fb, '%d' % s.piles[i], x + 8, 5 * LINE)
    gfx.icon(fb, gfx.ICON_RABBIT, 102, 5 * LINE, 1)
    ref_text(fb, '%d' % s.supply_rabbits, 111, 5 * LINE)
    ref_text(fb, 'BACK: game menu', 0, 6 * LINE)
    ref_text(fb, 'OK: play the round', 0, 7 * LINE)

class Stub:
    pass

def no_probe(*args):
    return None  # a round that needs nothing: the board's last line only opens it

def make_ui(state):
    u = ui.UI(Stub(), gfx)
    u.app.game = Stub()
    u.app.game.state = state
    u.app.game.probe = no_probe
    u.app.game.redo_stack = []  # nothing undone (the board's line avoids an undone card)
    u.app.mend = None
    return u

RESULTS = {}

def compare(tag, screen, ref, state=None):
    # the screen through UI.draw on a display with the fast path, twice
    # (stamps are kept on the first draw, pasted on the second), against
    # the reference on a plain frame; both start from a scribbled frame
    for name, fmt in FORMATS:
        u = make_ui(state)
        u.reset(screen)
        a = Fast(fmt)
        b = Plain(fmt)
        ok = True
        for _ in range(2):
            scribble(a)
            u.draw(a)
            scribble(b)
            b.fill(0)
            ref(screen, b) if state is None else ref(screen, state, b)
            ok = ok and same(a, b)
        RESULTS[tag + ' ' + name] = ok
"""

SCREENS = (
    PRELUDE
    + REFERENCE
    + r"""
LABELS = ('cat 1', 'rabbit 1 x2', 'executioner 4 x2', 'caterpillar 6 x4', 'knave 5 x4',
          'king 7 x2', 'nineteen columns !!', 'twenty columns, full', 'alice 8', 'queen 9')

def menus():
    items = [(LABELS[i], i) for i in range(len(LABELS))]
    hints = (None, lambda v: 'short', lambda v: 'a hint of 21 columns.', lambda v: LABELS[v])
    for h in range(len(hints)):
        for sel in (0, 3, 7, 9):
            for n in (3, 10):
                m = ui.Menu('Title %d' % h, items[:n], None, sel=sel, hint=hints[h])
                m.note = ['a note', 'of two lines'] if sel == 3 else None
                compare('menu h%d sel%d n%d' % (h, sel, n), m, ref_menu)
    m = ui.Menu('A title of 21 columns', items, None, sel=2)
    compare('menu long title', m, ref_menu)
    m = ui.Menu('Empty', [], None)
    compare('menu empty', m, ref_menu)

def pickers():
    lines = [b'moves to flamingo', 'take the flamingo', 'three', 'four']
    describes = (None, lambda v: lines, lambda v: lines[:1], lambda v: [])
    for v in (0, 7, 12, 99, -3, -12, 100):
        for i in range(len(describes)):
            p = ui.Picker('Printed stars', -99, 999, v, None, describe=describes[i])
            compare('picker %d %d' % (v, i), p, ref_picker)

def messages():
    lines = ['line %d of the message' % i if i % 3 else 'line %d' % i for i in range(12)]
    for top in (0, 3, 5):
        compare('message %d' % top, ui.Message('After round 7', lines, top=top), ref_message)
        m = ui_t42_end.Lines('Final 30:6', lines)
        m.top = top
        compare('lines %d' % top, m, ref_lines)
    compare('lines short', ui_t42_end.Lines('Score', lines[:4]), ref_lines)

def statuses():
    setup = {'game': 'tea-for-2', 'flamingo': 'blue', 'watch': 'stars',
             'objectives': {'4': 'tarts', '5': 'hourglasses', '6': 'deck', '7': 'destroyed', '8': 'most:king'}}
    base = t42.Game(setup).state
    cases = ((0, 0, 0, 0), (9, 10, 1, 3), (25, 26, 12, 1), (26, 60, 0, 4), (75, 51, 3, 0), (-5, 101, 2, 2))
    for i in range(len(cases)):
        sb, sp, tarts, watch = cases[i]
        s = base.copy()
        s.players[0].stars = sb
        s.players[1].stars = sp
        s.players[0].tarts = tarts
        s.players[1].hourglasses = tarts + 5
        s.watch = watch
        s.flamingo = i % 2
        s.round = 7 * i
        s.piles[i % 5] = 10 if i % 2 else 0
        s.supply_rabbits = i
        st = ui_t42.Status()
        compare('status %d' % i, st, ref_status, s)
        st = ui_t42.Status()
        st.toast = ('Undone', 'a line as wide as it!')
        compare('status toast %d' % i, st, ref_status, s)

def main():
    menus()
    pickers()
    messages()
    statuses()
    bad = [k for k in RESULTS if not RESULTS[k]]
    bad.sort()
    print('screens', len(RESULTS), 'differ', bad)
main()
"""
)


def test_screens_draw_the_reference_pixels(dual):
    out = dual(SCREENS)
    line = [x for x in out.splitlines() if x.startswith("screens")][0]
    n = int(line.split()[1])
    assert n == 2 * (4 * 4 * 2 + 2 + 7 * 4 + 3 * 2 + 1 + 6 * 2)
    assert line.endswith("differ []"), line


# -- big digits ------------------------------------------------------------------------
def test_big_rectangles_cover_the_font_exactly():
    """Each character gfx draws as rectangles lights exactly its glyph's
    pixels in MicroPython's 8x8 font (pyfont8x8, rendered from the VM)."""
    pyframebuf.install()
    from teatally.ui import gfx

    assert set(gfx._BIG) >= set("0123456789-")
    assert len(gfx._AT) == len(gfx._BIG) + 1 and gfx._AT[-1] == len(gfx._RECTS)
    for k, ch in enumerate(gfx._BIG):
        data = gfx._RECTS[gfx._AT[k] : gfx._AT[k + 1]]
        assert data, ch
        cols = FONT[(ord(ch) - 32) * 8 : (ord(ch) - 32) * 8 + 8]
        glyph = {(x, y) for x in range(8) for y in range(8) if cols[x] >> y & 1}
        got = set()
        for i in range(0, len(data), 2):
            x, y, w, h = data[i] >> 4, data[i] & 15, data[i + 1] >> 4, data[i + 1] & 15
            assert w and h and x + w <= 8 and y + h <= 8, ch
            got |= {(x + dx, y + dy) for dx in range(w) for dy in range(h)}
        assert got == glyph, ch
