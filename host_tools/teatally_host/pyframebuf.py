"""Pure-Python ``framebuf`` for CPython, pixel-exact with MicroPython 1.27's C module.

The firmware draws into ``framebuf.FrameBuffer`` and the same UI flow runs under
CPython in tests and host tools, where the C module does not exist. Every method
follows extmod/modframebuf.c step by step where the result depends on it (the
Bresenham variant of ``line``, the midpoint ``ellipse``, ``poly``'s integer
scan-line fill, clipping, ``blit`` keys and palettes, ``scroll`` leaving the
uncovered strip as it was, ``text`` drawing every byte outside 32..127 -- each
byte of a UTF-8 sequence -- as glyph 127 and stopping at a NUL byte). Drawing
works in place on the caller's buffer, so drivers and tests read the same bytes
the Pico would hold. tests/test_pyframebuf.py compares it with the real VM.

The hot paths for the 128x64 MONO_VLSB screen (fill_rect, text, scroll, blit
between two MONO_VLSB buffers) work on whole bytes or whole columns; everything
else goes pixel by pixel exactly like the C code.

Not emulated: 32-bit overflow of huge coordinates or radii (above ~10 000), and
the buffer protocol on the FrameBuffer object itself (CPython 3.11 classes
cannot export one; keep a reference to the bytearray you passed in, as the
usual drivers do).
"""

import sys
from operator import index as _int

from teatally_host.pyfont8x8 import FONT as _FONT

MONO_VLSB = MVLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6

_GET = object()  # pixel() called without a colour reads the pixel

# glyph bytes for every possible string byte: outside 32..127 draws as 127
_GLYPHS = []
for _c in range(256):
    _g = _c if 32 <= _c <= 127 else 127
    _GLYPHS.append(_FONT[(_g - 32) * 8 : (_g - 32) * 8 + 8])
del _c, _g


# --- per-format pixel access (the C setpixel/getpixel, x and y already in range)


def _set_mvlsb(buf, stride, x, y, col):
    i = (y >> 3) * stride + x
    if col:
        buf[i] |= 1 << (y & 7)
    else:
        buf[i] &= ~(1 << (y & 7)) & 0xFF


def _get_mvlsb(buf, stride, x, y):
    return (buf[(y >> 3) * stride + x] >> (y & 7)) & 1


def _set_mhlsb(buf, stride, x, y, col):
    i = (x + y * stride) >> 3
    bit = 0x80 >> (x & 7)
    if col:
        buf[i] |= bit
    else:
        buf[i] &= ~bit & 0xFF


def _get_mhlsb(buf, stride, x, y):
    return (buf[(x + y * stride) >> 3] >> (7 - (x & 7))) & 1


def _set_mhmsb(buf, stride, x, y, col):
    i = (x + y * stride) >> 3
    bit = 1 << (x & 7)
    if col:
        buf[i] |= bit
    else:
        buf[i] &= ~bit & 0xFF


def _get_mhmsb(buf, stride, x, y):
    return (buf[(x + y * stride) >> 3] >> (x & 7)) & 1


def _set_rgb565(buf, stride, x, y, col):
    # little-endian uint16, as on the Pico (and the wasm32 VM)
    i = (x + y * stride) * 2
    buf[i] = col & 0xFF
    buf[i + 1] = (col >> 8) & 0xFF


def _get_rgb565(buf, stride, x, y):
    i = (x + y * stride) * 2
    return buf[i] | (buf[i + 1] << 8)


def _set_gs2(buf, stride, x, y, col):
    i = (x + y * stride) >> 2
    shift = (x & 3) << 1
    buf[i] = ((col & 3) << shift) | (buf[i] & ~(3 << shift) & 0xFF)


def _get_gs2(buf, stride, x, y):
    return (buf[(x + y * stride) >> 2] >> ((x & 3) << 1)) & 3


def _set_gs4(buf, stride, x, y, col):
    i = (x + y * stride) >> 1
    if x & 1:
        buf[i] = (col & 0x0F) | (buf[i] & 0xF0)
    else:
        buf[i] = ((col & 0x0F) << 4) | (buf[i] & 0x0F)


def _get_gs4(buf, stride, x, y):
    if x & 1:
        return buf[(x + y * stride) >> 1] & 0x0F
    return buf[(x + y * stride) >> 1] >> 4


def _set_gs8(buf, stride, x, y, col):
    buf[x + y * stride] = col & 0xFF


def _get_gs8(buf, stride, x, y):
    return buf[x + y * stride]


_SETPIXEL = {
    MONO_VLSB: _set_mvlsb,
    RGB565: _set_rgb565,
    GS4_HMSB: _set_gs4,
    MONO_HLSB: _set_mhlsb,
    MONO_HMSB: _set_mhmsb,
    GS2_HMSB: _set_gs2,
    GS8: _set_gs8,
}
_GETPIXEL = {
    MONO_VLSB: _get_mvlsb,
    RGB565: _get_rgb565,
    GS4_HMSB: _get_gs4,
    MONO_HLSB: _get_mhlsb,
    MONO_HMSB: _get_mhmsb,
    GS2_HMSB: _get_gs2,
    GS8: _get_gs8,
}

# bytes.translate tables, built on first use: OR a mask in, AND a mask out,
# or shift a glyph column into a page and keep only the rows that exist
_TABLES = {}


def _table(kind, a, b=0xFF):
    key = (kind, a, b)
    t = _TABLES.get(key)
    if t is None:
        if kind == "or":
            t = bytes([v | a for v in range(256)])
        elif kind == "andnot":
            t = bytes([v & ~a & 0xFF for v in range(256)])
        elif kind == "lo":  # column shifted down by a rows, top page part
            t = bytes([(v << a) & b for v in range(256)])
        else:  # "hi": the part that spills into the next page
            t = bytes([(v >> (8 - a)) & b for v in range(256)])
        _TABLES[key] = t
    return t


def _cdiv(a, b):
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _source(obj):
    """A blit source or palette: a FrameBuffer, or (buffer, width, height, format[, stride]).

    The tuple form is built like a FrameBuffer (same checks, same stride
    rounding) except that a read-only buffer such as bytes is accepted.
    """
    if not isinstance(obj, FrameBuffer):
        if not isinstance(obj, (tuple, list)):
            raise TypeError("object with buffer protocol required")
        if len(obj) < 4 or len(obj) > 5:
            raise ValueError()
        tmp = FrameBuffer.__new__(FrameBuffer)
        tmp._fb_setup(*obj, readonly_ok=True)
        obj = tmp
    return obj._fb_buf, obj._fb_w, obj._fb_h, obj._fb_fmt, obj._fb_stride


class FrameBuffer:
    """framebuf.FrameBuffer(buffer, width, height, format, stride=width)."""

    __slots__ = ("_fb_obj", "_fb_buf", "_fb_w", "_fb_h", "_fb_fmt", "_fb_stride", "_fb_set", "_fb_get")

    def __init__(self, buffer, width, height, format, stride=None, /):
        self._fb_setup(buffer, width, height, format, stride)

    def _fb_setup(self, buffer, width, height, format, stride=None, readonly_ok=False):
        width = _int(width)
        height = _int(height)
        format = _int(format)
        stride = width if stride is None else _int(stride)
        if width < 1 or height < 1 or width > 0xFFFF or height > 0xFFFF or stride > 0xFFFF or stride < width:
            raise ValueError()
        bpp = 1
        height_required = height
        width_required = width
        strides_required = height - 1
        if format == MONO_VLSB:
            height_required = (height + 7) & ~7
            strides_required = height_required - 8
        elif format in (MONO_HLSB, MONO_HMSB):
            stride = (stride + 7) & ~7
            width_required = (width + 7) & ~7
        elif format == GS2_HMSB:
            stride = (stride + 3) & ~3
            width_required = (width + 3) & ~3
            bpp = 2
        elif format == GS4_HMSB:
            stride = (stride + 1) & ~1
            width_required = (width + 1) & ~1
            bpp = 4
        elif format == GS8:
            bpp = 8
        elif format == RGB565:
            bpp = 16
        else:
            raise ValueError("invalid format")
        if isinstance(buffer, bytearray):
            buf = buffer
        else:
            try:
                view = memoryview(buffer)
            except TypeError:
                raise TypeError("object with buffer protocol required")
            if view.readonly and not readonly_ok:
                raise TypeError("object with buffer protocol required")
            buf = view if view.format == "B" and view.ndim == 1 else view.cast("B")
        if (strides_required * stride + (height_required - strides_required) * width_required) * bpp // 8 > len(buf):
            raise ValueError()
        self._fb_obj = buffer  # keeps the caller's object alive, like buf_obj in C
        self._fb_buf = buf
        self._fb_w = width
        self._fb_h = height
        self._fb_fmt = format
        self._fb_stride = stride
        self._fb_set = _SETPIXEL[format]
        self._fb_get = _GETPIXEL[format]

    # --- filling

    def _fill_rect(self, x, y, w, h, col):
        """The per-format fill_rect on an already clipped, non-empty rectangle."""
        fmt = self._fb_fmt
        buf = self._fb_buf
        stride = self._fb_stride
        if fmt == MONO_VLSB:
            yend = y + h
            page = y >> 3
            while y < yend:
                pend = min((page + 1) << 3, yend)
                mask = ((1 << (pend - y)) - 1) << (y & 7)
                base = page * stride + x
                if mask == 0xFF:
                    buf[base : base + w] = (b"\xff" if col else b"\x00") * w
                else:
                    table = _table("or", mask) if col else _table("andnot", mask)
                    buf[base : base + w] = bytes(buf[base : base + w]).translate(table)
                y = pend
                page += 1
        elif fmt == GS8:
            row = bytes([col & 0xFF]) * w
            for yy in range(y, y + h):
                base = x + yy * stride
                buf[base : base + w] = row
        else:
            setp = self._fb_set
            for yy in range(y, y + h):
                for xx in range(x, x + w):
                    setp(buf, stride, xx, yy, col)

    def _clip_fill(self, x, y, w, h, col):
        width = self._fb_w
        height = self._fb_h
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= height or x >= width:
            return
        xend = min(width, x + w)
        yend = min(height, y + h)
        x = max(x, 0)
        y = max(y, 0)
        self._fill_rect(x, y, xend - x, yend - y, col)

    def fill(self, c, /):
        self._fill_rect(0, 0, self._fb_w, self._fb_h, _int(c))

    def fill_rect(self, x, y, w, h, c, /):
        self._clip_fill(_int(x), _int(y), _int(w), _int(h), _int(c))

    def hline(self, x, y, w, c, /):
        self._clip_fill(_int(x), _int(y), _int(w), 1, _int(c))

    def vline(self, x, y, h, c, /):
        self._clip_fill(_int(x), _int(y), 1, _int(h), _int(c))

    def rect(self, x, y, w, h, c, f=False, /):
        x, y, w, h, c = _int(x), _int(y), _int(w), _int(h), _int(c)
        if f:
            self._clip_fill(x, y, w, h, c)
        else:
            self._clip_fill(x, y, w, 1, c)
            self._clip_fill(x, y + h - 1, w, 1, c)
            self._clip_fill(x, y, 1, h, c)
            self._clip_fill(x + w - 1, y, 1, h, c)

    # --- pixels and shapes

    def pixel(self, x, y, c=_GET, /):
        x = _int(x)
        y = _int(y)
        if 0 <= x < self._fb_w and 0 <= y < self._fb_h:
            if c is _GET:
                return self._fb_get(self._fb_buf, self._fb_stride, x, y)
            self._fb_set(self._fb_buf, self._fb_stride, x, y, _int(c))
        return None

    def _checked(self, x, y, col):
        if 0 <= x < self._fb_w and 0 <= y < self._fb_h:
            self._fb_set(self._fb_buf, self._fb_stride, x, y, col)

    def _line(self, x1, y1, x2, y2, col):
        # modframebuf.c line(): this Bresenham variant always draws the end
        # point last and may step y more than once per x
        width = self._fb_w
        height = self._fb_h
        buf = self._fb_buf
        stride = self._fb_stride
        setp = self._fb_set
        dx = x2 - x1
        if dx > 0:
            sx = 1
        else:
            dx = -dx
            sx = -1
        dy = y2 - y1
        if dy > 0:
            sy = 1
        else:
            dy = -dy
            sy = -1
        steep = dy > dx
        if steep:
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
        e = 2 * dy - dx
        for _ in range(dx):
            if steep:
                if 0 <= y1 < width and 0 <= x1 < height:
                    setp(buf, stride, y1, x1, col)
            elif 0 <= x1 < width and 0 <= y1 < height:
                setp(buf, stride, x1, y1, col)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        if 0 <= x2 < width and 0 <= y2 < height:
            setp(buf, stride, x2, y2, col)

    def line(self, x1, y1, x2, y2, c, /):
        self._line(_int(x1), _int(y1), _int(x2), _int(y2), _int(c))

    def _ellipse_points(self, cx, cy, x, y, col, mask):
        if mask & 0x10:
            if mask & 1:
                self._clip_fill(cx, cy - y, x + 1, 1, col)
            if mask & 2:
                self._clip_fill(cx - x, cy - y, x + 1, 1, col)
            if mask & 4:
                self._clip_fill(cx - x, cy + y, x + 1, 1, col)
            if mask & 8:
                self._clip_fill(cx, cy + y, x + 1, 1, col)
        else:
            if mask & 1:
                self._checked(cx + x, cy - y, col)
            if mask & 2:
                self._checked(cx - x, cy - y, col)
            if mask & 4:
                self._checked(cx - x, cy + y, col)
            if mask & 8:
                self._checked(cx + x, cy + y, col)

    def ellipse(self, x, y, xr, yr, c, f=False, m=15, /):
        # quadrant mask m: Q1 top right 1, Q2 top left 2, Q3 bottom left 4, Q4 bottom right 8
        cx, cy, a, b, col = _int(x), _int(y), _int(xr), _int(yr), _int(c)
        mask = (0x10 if f else 0) | (_int(m) & 0x0F)
        if a == 0 and b == 0:
            if mask & 0x0F:
                self._checked(cx, cy, col)
            return
        two_asquare = 2 * a * a
        two_bsquare = 2 * b * b
        px = a
        py = 0
        xchange = b * b * (1 - 2 * a)
        ychange = a * a
        err = 0
        stoppingx = two_bsquare * a
        stoppingy = 0
        while stoppingx >= stoppingy:
            self._ellipse_points(cx, cy, px, py, col, mask)
            py += 1
            stoppingy += two_asquare
            err += ychange
            ychange += two_asquare
            if 2 * err + xchange > 0:
                px -= 1
                stoppingx -= two_bsquare
                err += xchange
                xchange += two_bsquare
        px = 0
        py = b
        xchange = b * b
        ychange = a * a * (1 - 2 * b)
        err = 0
        stoppingx = 0
        stoppingy = two_asquare * b
        while stoppingx <= stoppingy:
            self._ellipse_points(cx, cy, px, py, col, mask)
            px += 1
            stoppingx += two_bsquare
            err += xchange
            xchange += two_bsquare
            if 2 * err + ychange > 0:
                py -= 1
                stoppingy -= two_asquare
                err += ychange
                ychange += two_asquare

    def poly(self, x, y, coords, c, f=False, /):
        x = _int(x)
        y = _int(y)
        pts = memoryview(coords).tolist()
        n_poly = len(pts) // 2
        if n_poly == 0:
            return
        col = _int(c)
        if not f:
            px1, py1 = pts[0], pts[1]
            i = n_poly * 2 - 1
            while True:
                py2 = pts[i]
                px2 = pts[i - 1]
                i -= 2
                self._line(x + px1, y + py1, x + px2, y + py2, col)
                px1, py1 = px2, py2
                if i < 0:
                    break
            return
        # integer version of alienryderflex.com/polygon_fill, as in the C code
        ys = pts[1 : n_poly * 2 : 2]
        for row in range(min(ys), max(ys) + 1):
            nodes = []
            px1, py1 = pts[0], pts[1]
            i = n_poly * 2 - 1
            while True:
                py2 = pts[i]
                px2 = pts[i - 1]
                i -= 2
                if py1 != py2 and ((py1 > row >= py2) or (py1 <= row < py2)):
                    node = _cdiv(32 * px1 + _cdiv(32 * (px2 - px1) * (row - py1), py2 - py1) + 16, 32)
                    nodes.append(node)
                elif row == max(py1, py2):
                    # local minimum or horizontal edge: the C code patches these pixels in
                    if py1 < py2:
                        self._checked(x + px2, y + py2, col)
                    elif py2 < py1:
                        self._checked(x + px1, y + py1, col)
                    else:
                        self._line(x + px1, y + py1, x + px2, y + py2, col)
                px1, py1 = px2, py2
                if i < 0:
                    break
            if not nodes:
                continue
            nodes.sort()
            for k in range(0, len(nodes) - 1, 2):
                self._clip_fill(x + nodes[k], y + row, nodes[k + 1] - nodes[k] + 1, 1, col)

    # --- text

    def text(self, s, x, y, c=1, /):
        if isinstance(s, str):
            data = s.encode("utf-8", "surrogatepass")
        elif isinstance(s, bytes):
            data = s
        else:
            raise TypeError("can't convert '%s' object to str implicitly" % type(s).__name__)
        x0 = _int(x)
        y0 = _int(y)
        col = _int(c)
        nul = data.find(b"\x00")  # the C loop stops at the string's terminator
        if nul >= 0:
            data = data[:nul]
        if not data:
            return
        width = self._fb_w
        height = self._fb_h
        # columns of the whole string, clipped to the screen in x
        first = max(0, -x0)
        last = min(len(data) * 8, width - x0)
        if first >= last or y0 >= height or y0 <= -8:
            return
        cols = b"".join([_GLYPHS[b] for b in data[first >> 3 : ((last - 1) >> 3) + 1]])
        cols = cols[first & 7 : (first & 7) + last - first]
        xs = x0 + first
        buf = self._fb_buf
        stride = self._fb_stride
        if self._fb_fmt == MONO_VLSB:
            # whole columns per page: the glyph column shifted into page y0>>3
            # and the rest into the next one, rows past the height masked off
            n = len(cols)
            shift = y0 & 7
            page = y0 >> 3
            for p, kind in ((page, "lo"), (page + 1, "hi")):
                if p < 0 or (p << 3) >= height or (kind == "hi" and shift == 0):
                    continue
                rows = height - (p << 3)
                keep = 0xFF if rows >= 8 else (1 << rows) - 1
                bits = cols.translate(_table(kind, shift, keep))
                base = p * stride + xs
                old = int.from_bytes(buf[base : base + n], "little")
                bits_int = int.from_bytes(bits, "little")
                if col:
                    new = old | bits_int
                else:
                    new = old & ~bits_int
                buf[base : base + n] = new.to_bytes(n, "little")
            return
        setp = self._fb_set
        for j, v in enumerate(cols):
            xx = xs + j
            yy = y0
            while v:
                if v & 1 and 0 <= yy < height:
                    setp(buf, stride, xx, yy, col)
                v >>= 1
                yy += 1

    # --- scroll and blit

    def _column_ints(self, buf, stride, width, height):
        pages = (height + 7) >> 3
        span = (pages - 1) * stride + 1
        return [int.from_bytes(buf[x : x + span : stride], "little") for x in range(width)], pages, span

    def scroll(self, xstep, ystep, /):
        xstep = _int(xstep)
        ystep = _int(ystep)
        width = self._fb_w
        height = self._fb_h
        if xstep < 0:
            sx, xend, dx = 0, width + xstep, 1
            if xend <= 0:
                return
        else:
            sx, xend, dx = width - 1, xstep - 1, -1
            if xend >= sx:
                return
        if ystep < 0:
            y, yend, dy = 0, height + ystep, 1
            if yend <= 0:
                return
        else:
            y, yend, dy = height - 1, ystep - 1, -1
            if yend >= y:
                return
        buf = self._fb_buf
        stride = self._fb_stride
        if self._fb_fmt == MONO_VLSB:
            # The C loop runs against the direction of travel, so it equals a
            # simultaneous move: shift whole columns (one int each) at once.
            cols, pages, span = self._column_ints(buf, stride, width, height)
            if ystep >= 0:
                ymask = ((1 << (height - ystep)) - 1) << ystep
            else:
                ymask = (1 << (height + ystep)) - 1
            keep = ~ymask
            xs = range(xstep, width) if xstep >= 0 else range(0, width + xstep)
            for x in xs:
                src = cols[x - xstep]
                src = src << ystep if ystep >= 0 else src >> -ystep
                new = (cols[x] & keep) | (src & ymask)
                buf[x : x + span : stride] = new.to_bytes(pages, "little")
            return
        setp = self._fb_set
        getp = self._fb_get
        while y != yend:
            x = sx
            while x != xend:
                setp(buf, stride, x, y, getp(buf, stride, x - xstep, y - ystep))
                x += dx
            y += dy

    def blit(self, fbuf, x, y, key=-1, palette=None, /):
        sbuf, sw, sh, sfmt, sstride = _source(fbuf)
        x = _int(x)
        y = _int(y)
        key = _int(key) & 0xFFFFFFFF
        pal = None
        if palette is not None:
            pal = _source(palette)
        width = self._fb_w
        height = self._fb_h
        if x >= width or y >= height or -x >= sw or -y >= sh:
            return
        x0 = max(0, x)
        y0 = max(0, y)
        x1 = max(0, -x)
        y1 = max(0, -y)
        x0end = min(width, x + sw)
        y0end = min(height, y + sh)
        buf = self._fb_buf
        stride = self._fb_stride
        if (
            pal is None
            and sfmt == MONO_VLSB
            and self._fb_fmt == MONO_VLSB
            and isinstance(buf, bytearray)
            and sbuf is not buf
            and (isinstance(sbuf, bytearray) or isinstance(getattr(sbuf, "obj", None), bytes))
            and y0end > y0
        ):
            # two separate MONO_VLSB buffers: whole columns at a time
            self._blit_vlsb(sbuf, sstride, sh, x0, y0, x1, y1, x0end, y0end, key)
            return
        getp = _GETPIXEL[sfmt]
        setp = self._fb_set
        if pal is not None:
            pbuf, _pw, _ph, pfmt, pstride = pal
            pget = _GETPIXEL[pfmt]
        for yy in range(y0, y0end):
            cx1 = x1
            for cx0 in range(x0, x0end):
                col = getp(sbuf, sstride, cx1, y1)
                if pal is not None:
                    col = pget(pbuf, pstride, col, 0)
                if col != key:
                    setp(buf, stride, cx0, yy, col)
                cx1 += 1
            y1 += 1

    def _blit_vlsb(self, sbuf, sstride, sh, x0, y0, x1, y1, x0end, y0end, key):
        buf = self._fb_buf
        stride = self._fb_stride
        pages = (self._fb_h + 7) >> 3
        span = (pages - 1) * stride + 1
        spages = (sh + 7) >> 3
        sspan = (spages - 1) * sstride + 1
        region = ((1 << (y0end - y0)) - 1) << y0
        for cx0 in range(x0, x0end):
            cx1 = x1 + cx0 - x0
            src = (int.from_bytes(sbuf[cx1 : cx1 + sspan : sstride], "little") >> y1) << y0
            dst = int.from_bytes(buf[cx0 : cx0 + span : stride], "little")
            if key == 0:  # only set pixels are copied
                dst |= src & region
            elif key == 1:  # only clear pixels are copied
                dst &= ~(region & ~src)
            else:
                dst = (dst & ~region) | (src & region)
            buf[cx0 : cx0 + span : stride] = dst.to_bytes(pages, "little")


def FrameBuffer1(buffer, width, height, stride=None, /):
    """Legacy constructor: a MONO_VLSB FrameBuffer."""
    return FrameBuffer(buffer, width, height, MONO_VLSB, width if stride is None else stride)


def install():
    """Make ``import framebuf`` work on CPython; returns the module in use.

    A real ``framebuf`` (already imported or importable) is left alone.
    """
    try:
        import framebuf  # noqa: F401
    except ImportError:
        sys.modules.setdefault("framebuf", sys.modules[__name__])
    return sys.modules["framebuf"]
