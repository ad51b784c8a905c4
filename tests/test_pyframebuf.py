"""teatally_host.pyframebuf against MicroPython's C framebuf, byte for byte.

Each scenario draws under CPython (pure-Python shim, installed as ``framebuf``
by conftest.run_cpython) and under the real MicroPython 1.27 VM, and prints the
buffers as hex after every step; ``dual`` fails on the first differing byte.
"""

import sys

from teatally_host import pyfont8x8, pyframebuf

PRELUDE = """
import framebuf
from binascii import hexlify

def hx(fb_buf):
    return hexlify(bytes(fb_buf)).decode()

def show(label, fb_buf):
    print(label, hx(fb_buf))

def err(fn):
    try:
        fn()
    except Exception as e:
        return type(e).__name__
    return 'ok'

W = 128
H = 64
scr = bytearray(W * H // 8)
fb = framebuf.FrameBuffer(scr, W, H, framebuf.MONO_VLSB)

def small(fmt, w, h, stride=None):
    bits = {framebuf.MONO_VLSB: 1, framebuf.MONO_HLSB: 1, framebuf.MONO_HMSB: 1,
            framebuf.GS2_HMSB: 2, framebuf.GS4_HMSB: 4, framebuf.GS8: 8, framebuf.RGB565: 16}[fmt]
    s = stride or w
    b = bytearray((s + 8) * (h + 8) * bits // 8)
    if stride is None:
        return b, framebuf.FrameBuffer(b, w, h, fmt)
    return b, framebuf.FrameBuffer(b, w, h, fmt, stride)

FORMATS = (('VLSB', framebuf.MONO_VLSB), ('HLSB', framebuf.MONO_HLSB), ('HMSB', framebuf.MONO_HMSB),
           ('GS2', framebuf.GS2_HMSB), ('GS4', framebuf.GS4_HMSB), ('GS8', framebuf.GS8),
           ('RGB', framebuf.RGB565))
"""


def test_font_table_is_what_the_vm_renders():
    """pyfont8x8.FONT was generated from the VM; re-render and compare every glyph."""
    assert pyfont8x8.render_from_vm() == pyfont8x8.FONT
    assert len(pyfont8x8.FONT) == 96 * 8


def test_install_provides_framebuf_module():
    mod = pyframebuf.install()
    assert sys.modules["framebuf"] is mod is pyframebuf
    assert mod.MONO_VLSB == 0 and mod.MONO_HLSB == 3 and mod.RGB565 == 1


def test_text_every_char_clipping_and_non_ascii(dual):
    out = dual(
        PRELUDE
        + """
chars = ''.join(chr(c) for c in range(32, 128))
for k in range(0, 96, 16):
    fb.fill(0)
    fb.text(chars[k:k + 16], 0, 8 * (k // 16) + 3)
    fb.text(chars[k:k + 16], -3, 40 + k // 16, 1)
    show('row%d' % k, scr)
fb.fill(0)
for i, (x, y) in enumerate(((-3, -2), (-13, 60), (125, 61), (120, 5), (5, -7), (9, 63), (0, -8),
                             (-40, 10), (128, 10), (3, 64), (-9, 20), (-8, 30), (121, 57), (60, -1))):
    fb.text('Hi%d' % i, x, y)
show('clip', scr)
fb.fill(1)
fb.text('inverse', 17, 13, 0)
fb.text('\\u00e9\\u20ac\\n\\t\\x7f~', 2, 33, 0)
fb.text('stop\\x00here', 50, 50, 0)
fb.text(b'bytes', 70, 2, 0)
fb.text('', 0, 0, 0)
show('inv', scr)
print('ret', fb.text('x', 0, 0), err(lambda: fb.text(5, 0, 0)), err(lambda: fb.text('a', 0, 0, c=1)))
print('float', err(lambda: fb.text('a', 1.5, 0)))
for name, fmt in FORMATS:
    for stride in (None, 24):
        b, f = small(fmt, 21, 13, stride)
        f.text('Ab#', -2, -1, 1)
        f.text('g~', 9, 6, 3)
        f.text('\\xff', 15, 9, 0x1234)
        show('fmt %s %s' % (name, stride), b)
b, f = small(framebuf.MONO_VLSB, 30, 13)
f.fill(1)
f.text('Tea', 1, 7, 1)
f.text('xy', 3, 2, 0)
show('short', b)
""",
    )
    assert out.count("row") == 6 and "ret None TypeError TypeError" in out and "float TypeError" in out


def test_lines_rects_pixels_ellipses_poly(dual):
    dual(
        PRELUDE
        + """
from array import array
fb.fill(0)
for (dx, dy) in ((30, 0), (30, 7), (30, 30), (7, 30), (0, 30), (-7, 30), (-30, 30), (-30, 7), (-30, 0),
                 (-30, -7), (-30, -30), (-7, -30), (0, -30), (7, -30), (30, -30), (30, -7), (0, 0), (1, 2)):
    fb.line(64, 32, 64 + dx, 32 + dy, 1)
show('octants', scr)
fb.fill(0)
for (a, b, c, d) in ((-50, -20, 200, 90), (-5, 70, 140, -9), (127, 0, 0, 63), (10, -100, 12, 300),
                     (-1, -1, -1, 40), (130, 5, -3, 5), (3, 2, 90, 41)):
    fb.line(a, b, c, d, 1)
fb.line(0, 0, 127, 63, 0)
show('clipped lines', scr)
fb.fill(0)
for (x, y, w, h) in ((3, 4, 10, 6), (-3, -4, 10, 9), (120, 60, 20, 20), (50, 20, -5, 6), (60, 20, 5, -6),
                     (70, 20, 0, 5), (80, 20, 1, 1), (90, 20, 2, 2), (100, 30, 1, 9), (5, 40, 40, 1)):
    fb.rect(x, y, w, h, 1)
    fb.rect(x + 2, y + 14, w, h, 1, True)
    fb.fill_rect(x + 1, y + 28, w - 1, h - 2, 1)
fb.fill_rect(-200, -200, 1000, 1000, 0)
fb.fill_rect(10, 3, 100, 50, 1)
fb.fill_rect(12, 5, 96, 46, 0)
fb.fill_rect(11, 7, 3, 30, 1)
show('rects', scr)
fb.fill(0)
for (x, y, n) in ((-5, 3, 20), (120, 63, 30), (5, 64, 9), (40, -1, 9), (30, 10, -4), (0, 0, 0), (60, 7, 1)):
    fb.hline(x, y, n, 1)
    fb.vline(y + 20, x, n, 1)
show('hvlines', scr)
vals = []
for (x, y) in ((-1, 0), (0, -1), (128, 0), (0, 64), (127, 63), (0, 0), (5, 7), (64, 32)):
    fb.pixel(x, y, 1)
    vals.append(fb.pixel(x, y))
print('pixels', vals, err(lambda: fb.pixel(1, 2, 3, 4)), err(lambda: fb.pixel(1, 2, c=1)))
show('px', scr)
for (xr, yr) in ((0, 0), (0, 5), (5, 0), (1, 1), (2, 7), (20, 9), (9, 20), (70, 40), (-3, 4)):
    for (x, y) in ((64, 32), (2, 3), (125, 60)):
        fb.fill(0)
        fb.ellipse(x, y, xr, yr, 1)
        fb.ellipse(x, y, xr + 3, yr + 2, 1, True, 5)
        for m in range(16):
            fb.ellipse(x - 40 + 5 * m, y - 20, xr // 2, yr // 2, 1, m & 1, m)
        show('ell %d %d %d %d' % (xr, yr, x, y), scr)
shapes = (array('h', [0, 0, 30, 5, 10, 25]), array('h', [0, 0, 20, 0, 20, 20, 10, 8, 0, 20]),
          array('h', [5, 0, 10, 20, 0, 8, 12, 8, 0, 20, 5, 0]), array('b', [-10, -10, 40, -3, 7, 50, -20, 30]),
          array('B', [0, 0, 9, 0, 9, 9]), array('h', [3, 3]), array('h', [0, 0, 10, 0, 10]), array('h'))
for i, s in enumerate(shapes):
    for (x, y) in ((10, 10), (-5, 50), (110, -3)):
        fb.fill(0)
        fb.poly(x, y, s, 1)
        fb.poly(x + 40, y, s, 1, True)
        show('poly %d %d %d' % (i, x, y), scr)
for name, fmt in FORMATS:
    b, f = small(fmt, 19, 11)
    f.fill(0xabcd)
    f.fill_rect(1, 1, 7, 9, 0)
    f.fill_rect(3, 2, 12, 5, 2)
    f.fill_rect(-3, 8, 9, 9, 0x33)
    f.rect(9, 0, 10, 11, 5)
    f.line(0, 10, 18, 0, 1)
    f.ellipse(9, 5, 6, 4, 3, True)
    f.pixel(18, 10, 0x7fff)
    print('fmtpx', name, f.pixel(18, 10), f.pixel(4, 4), f.pixel(19, 0))
    show('fmt ' + name, b)
""",
    )


def test_blit_scroll_constructor(dual):
    dual(
        PRELUDE
        + """
def pattern(f, w, h, seed):
    for y in range(h):
        for x in range(w):
            f.pixel(x, y, ((x * 7 + y * 3 + seed) % 5) < 2)

sprites = []
for name, fmt in (('VLSB', framebuf.MONO_VLSB), ('HLSB', framebuf.MONO_HLSB), ('HMSB', framebuf.MONO_HMSB)):
    b, f = small(fmt, 13, 11)
    pattern(f, 13, 11, len(sprites))
    sprites.append((name, b, f))
pal_b = bytearray(1)
pal = framebuf.FrameBuffer(pal_b, 2, 1, framebuf.MONO_HLSB)
pal.pixel(0, 0, 1)
for name, b, spr in sprites:
    for key in (-1, 0, 1, 7):
        fb.fill(0)
        fb.fill_rect(0, 20, 128, 20, 1)
        for (x, y) in ((0, 0), (-5, -4), (120, 58), (30, 17), (60, 33), (-12, 30), (127, 63), (128, 0), (0, 64),
                       (-13, 5), (5, -11)):
            fb.blit(spr, x, y, key)
        fb.blit(spr, 90, 5, key, pal)
        fb.blit((b, 13, 11, spr_fmt(name)), 100, 25, key)
        show('blit %s %d' % (name, key), scr)
    for dname, dfmt in FORMATS:
        db, df = small(dfmt, 21, 15)
        df.fill(2)
        df.blit(spr, -3, 6)
        df.blit(spr, 12, -4, 0)
        df.blit(spr, 4, 1, 1, pal)
        show('blit %s->%s' % (name, dname), db)
fb.fill(0)
pattern(fb, 128, 64, 3)
fb.blit(fb, 5, 3)
fb.blit(fb, -7, -2, 0)
show('selfblit', scr)
big = bytearray(1024)
bigfb = framebuf.FrameBuffer(big, 128, 64, framebuf.MONO_VLSB)
pattern(bigfb, 128, 64, 1)
for (x, y, key) in ((0, 0, -1), (3, 5, -1), (-9, -13, 0), (17, 30, 1)):
    fb.fill(0)
    fb.fill_rect(20, 10, 60, 30, 1)
    fb.blit(bigfb, x, y, key)
    show('bigblit %d %d %d' % (x, y, key), scr)
print('blit err', err(lambda: fb.blit(5, 0, 0)), err(lambda: fb.blit((big, 1, 2), 0, 0)))
for (w, h, fmt) in ((128, 64, framebuf.MONO_VLSB), (30, 13, framebuf.MONO_VLSB), (21, 10, framebuf.MONO_HLSB),
                    (9, 7, framebuf.GS4_HMSB)):
    b, f = small(fmt, w, h)
    for (xs, ys) in ((1, 0), (-1, 0), (0, 1), (0, -1), (3, -5), (-4, 9), (0, 8), (5, 16), (-w, 0), (w - 1, 0),
                     (0, h), (0, 1 - h), (200, 3), (0, 0)):
        pattern(f, w, h, xs + ys)
        f.scroll(xs, ys)
        show('scroll %dx%d/%d %d %d' % (w, h, fmt, xs, ys), b)
print('ctor', err(lambda: framebuf.FrameBuffer(bytearray(1023), 128, 64, framebuf.MONO_VLSB)),
      err(lambda: framebuf.FrameBuffer(bytearray(1024), 128, 64, 9)),
      err(lambda: framebuf.FrameBuffer(bytearray(1024), 0, 64, 0)),
      err(lambda: framebuf.FrameBuffer(bytearray(1024), 64, 8, 0, 32)),
      err(lambda: framebuf.FrameBuffer(bytes(1024), 128, 64, 0)),
      err(lambda: framebuf.FrameBuffer(bytearray(16), 16, 8, 0)),
      err(lambda: framebuf.FrameBuffer(bytearray(17), 9, 15, framebuf.MONO_HLSB, 12)),
      err(lambda: framebuf.FrameBuffer(bytearray(60), 10, 3, framebuf.RGB565)),
      err(lambda: framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB, stride=128)))
legacy_b = bytearray(32)
legacy = framebuf.FrameBuffer1(legacy_b, 16, 16)
legacy.text('Q', 3, 5)
show('legacy', legacy_b)

class Screen(framebuf.FrameBuffer):
    def __init__(self):
        self.width = 40
        self.buffer = bytearray(40 * 2)
        super().__init__(self.buffer, self.width, 16, framebuf.MONO_VLSB)

    def show(self):
        print('show', hx(self.buffer))

s = Screen()
s.text('sub', 1, 4)
s.line(0, 15, 39, 0, 1)
s.show()
fb.fill(0)
fb.blit(s, 10, 10)
print('sub blit', fb.pixel(12, 24), hx(scr[128:256]))
mv = memoryview(bytearray(40))
mfb = framebuf.FrameBuffer(mv, 20, 16, framebuf.MONO_VLSB)
mfb.text('mv', 2, 3)
mfb.scroll(1, 2)
mfb.blit(mfb, -3, -1)
show('memoryview', mv)
"""
        .replace(
            "def pattern(",
            "def spr_fmt(name):\n    return {'VLSB': 0, 'HLSB': 3, 'HMSB': 4}[name]\n\ndef pattern(",
        ),
    )


def test_random_primitives_against_vm(dual):
    """A few hundred LCG-driven primitives; the buffer is compared every 20 steps."""
    out = dual(
        PRELUDE
        + """
seed = 12345
def rnd(n):
    global seed
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return (seed >> 8) % n

spr_b = bytearray(2 * 16)
spr = framebuf.FrameBuffer(spr_b, 16, 12, framebuf.MONO_VLSB)
spr.text('ok', 0, 2)
spr.ellipse(8, 6, 7, 5, 1)
hl_b = bytearray(2 * 12)
hl = framebuf.FrameBuffer(hl_b, 11, 12, framebuf.MONO_HLSB)
hl.line(0, 0, 10, 11, 1)
hl.rect(1, 1, 9, 10, 1)
WORDS = ('Tea', 'for 2', 'Sc0re!', 'x', '\\u00e9t\\u00e9', 'Flamingo', 'Pile: 12', '~|{}')

def step(f, w, h):
    op = rnd(12)
    x = rnd(w + 40) - 20
    y = rnd(h + 40) - 20
    a = rnd(w + 40) - 20
    b = rnd(h + 40) - 20
    c = rnd(3) % 2
    if op == 0:
        f.pixel(x, y, c)
    elif op == 1:
        f.hline(x, y, a - 20, c)
    elif op == 2:
        f.vline(x, y, b - 20, c)
    elif op == 3:
        f.line(x, y, a, b, c)
    elif op == 4:
        f.rect(x, y, a - x, b - y, c, rnd(2))
    elif op == 5:
        f.fill_rect(x, y, rnd(50) - 5, rnd(30) - 5, c)
    elif op == 6:
        f.ellipse(x, y, rnd(30), rnd(20), c, rnd(2), rnd(16))
    elif op == 7 or op == 8:
        f.text(WORDS[rnd(len(WORDS))], x, y, 1 if op == 7 else c)
    elif op == 9:
        f.scroll(rnd(21) - 10, rnd(21) - 10)
    elif op == 10:
        f.blit(spr, x, y, rnd(3) - 1)
    else:
        f.blit(hl, x, y, rnd(3) - 1)

for i in range(300):
    step(fb, W, H)
    if i % 20 == 19:
        show('r%d' % i, scr)
for name, fmt in FORMATS:
    b, f = small(fmt, 37, 21)
    for i in range(60):
        step(f, 37, 21)
    show('rnd ' + name, b)
""",
    )
    screens = [line.split()[1] for line in out.splitlines() if line.startswith("r") and not line.startswith("rnd")]
    assert len(screens) == 15 and len(set(screens)) > 10 and all(len(s) == 2048 for s in screens)
