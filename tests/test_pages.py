"""show() sends only what changed (teatally.hw.pages, wired by hw.pico).

The panels are modelled from their datasheets: the controller's display RAM,
fed by a fake bus that interprets every transaction the way the chip does
(the I2C control byte, Co and D/C#; command bytes with their arguments; the
column/page window and horizontal auto-increment of the SSD1306, which wraps
from the window's last column to its first on the next page; the page
addressing of the SH1106, the vertical addressing of the SH1107; a segment
remap applies only to data written after it) and counts its clocks. The
boards are brought up by ``hw.pico.setup`` against a fake ``machine``, with
stand-ins of the three drivers that make exactly the bus transactions of
their upstream show()/write_cmd/write_data (read from micropython-lib's
ssd1306.py, robert-hh's sh1106.py and peter-l5's sh1107.py v317+ for a
128x64 panel at rotate 0/180; only those calls, not the whole drivers).
After random drawing, show()s and flips, the model's RAM must hold the frame,
the clocks on the wire must be what the bench charges for the show's windows,
and broken variants of hw.pages and hw.pico's SSD1306 sender (a flip that
keeps the shadow, a page left out, a column short, a window's columns not
grown, the shadow not updated...) must be caught. Runs on both interpreters
(``dual``); the allocation check needs ``micropython.heap_lock()`` (the VM
only).
"""

import shutil
from pathlib import Path

import pytest

from teatally_host import benchvm, busmodel, cmd_flash, keyscript, waits

ROOT = Path(__file__).resolve().parents[1]

FAKES = r"""
import sys
import framebuf

# -- the panels' controllers -------------------------------------------------
class Panel:
    # ARGS1 / ARGS2: the commands followed by one / two argument bytes
    # display RAM of `pages` pages x `cols` columns, a byte = 8 pixels of a column
    def __init__(self, cols, pages):
        self.cols = cols
        self.pages = pages
        self.ram = bytearray(cols * pages)
        self.remap_at = bytearray(cols * pages)  # the segment remap each byte was written under
        self.remap = 0
        self.col = 0
        self.page = 0
        self.want = 0  # argument bytes still to come
        self.cmd = []
        self.data_bytes = 0
        self.bad = False  # a byte the chip cannot have meant
    def command(self, c):
        if self.want:
            self.cmd.append(c)
            self.want -= 1
            if not self.want:
                self.apply(self.cmd)
            return
        if c in self.ARGS2:
            self.cmd, self.want = [c], 2
        elif c in self.ARGS1:
            self.cmd, self.want = [c], 1
        elif c & 0xFE == 0xA0:
            self.remap = c & 1
        else:
            self.single(c)
    def single(self, c):
        pass
    def apply(self, cmd):
        pass
    def data(self, buf):
        self.data_bytes += len(buf)
        for b in buf:
            i = self.col * self.pages + self.page if self.vertical else self.page * self.cols + self.col
            self.ram[i] = b
            self.remap_at[i] = self.remap
            self.advance()
    def frame(self):
        return self.visible(self.ram)
    def stale(self):
        # shown bytes written before the last segment remap: mirrored now
        if self.bad:
            return True
        for r in self.visible(self.remap_at):
            if r != self.remap:
                return True
        return False

class Ssd1306(Panel):
    # SSD1306 datasheet 10.1.3-10.1.5: horizontal addressing inside the column/page window
    ARGS1 = (0x20, 0x81, 0x8D, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB)
    ARGS2 = (0x21, 0x22)
    vertical = False
    def __init__(self):
        Panel.__init__(self, 128, 8)
        self.mode = 2  # page addressing after reset
        self.c0, self.c1, self.p0, self.p1 = 0, 127, 0, 7
    def apply(self, cmd):
        if cmd[0] == 0x20:
            self.mode = cmd[1]
        elif cmd[0] == 0x21:
            self.c0, self.c1 = cmd[1], cmd[2]
            self.col = self.c0
        elif cmd[0] == 0x22:
            self.p0, self.p1 = cmd[1], cmd[2]
            self.page = self.p0
    def advance(self):
        assert self.mode == 0, "not in horizontal addressing mode"
        self.col += 1
        if self.col > self.c1:
            self.col = self.c0
            self.page += 1
            if self.page > self.p1:
                self.page = self.p0
    def visible(self, ram):
        return bytes(ram)

class Sh1106(Panel):
    # SH1106: 132 columns, page addressing (page 0xB0|p, column 0x0L 0x1H), the column counts up
    ARGS1 = (0x81, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB)
    ARGS2 = ()
    vertical = False
    def __init__(self):
        Panel.__init__(self, 132, 8)
    def single(self, c):
        if c & 0xF0 == 0xB0:
            self.page = c & 7
        elif c & 0xF0 == 0x00:
            self.col = (self.col & 0xF0) | (c & 0x0F)
        elif c & 0xF0 == 0x10:
            self.col = (self.col & 0x0F) | ((c & 0x0F) << 4)
    def advance(self):
        self.col = (self.col + 1) % self.cols
    def visible(self, ram):
        # the 128 visible columns start at column 2
        return b''.join([bytes(ram[p * 132 + 2 : p * 132 + 130]) for p in range(8)])

class Sh1107(Panel):
    # SH1107 (128 columns x 16 pages): vertical addressing (0x21) counts the page up, wrapping
    ARGS1 = (0x81, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDB, 0xDC)
    ARGS2 = ()
    def __init__(self):
        Panel.__init__(self, 128, 16)
        self.vertical = False
    def single(self, c):
        if c in (0x20, 0x21):
            self.vertical = c == 0x21
        elif c & 0xF0 == 0xB0:
            self.page = c & 0x0F
        elif c & 0xF0 == 0x00:
            self.col = (self.col & 0x70) | (c & 0x0F)
        elif c & 0xF8 == 0x10:
            self.col = (self.col & 0x0F) | ((c & 0x07) << 4)
    def advance(self):
        assert self.vertical, "not in vertical addressing mode"
        self.page = (self.page + 1) % self.pages
    def visible(self, ram):
        # a 128x64 landscape frame in MONO_HMSB: pixel row r (16 bytes) is RAM column r
        return bytes(ram[: 64 * 16])

PANEL = []

# -- machine ------------------------------------------------------------------------
class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8
    def __init__(self, n, mode=-1, pull=-1):
        self.n = n
        self.v = 1
    def irq(self, handler, trigger):
        pass
    def init(self, mode=-1, value=None):
        if value is not None:
            self.v = value
    def value(self):
        return 1
    def __call__(self, v=None):
        if v is None:
            return self.v
        self.v = v

def _send(data, payload):
    panel = PANEL[0]
    if data:
        panel.data(payload)
    else:
        for c in payload:
            panel.command(c)

def _i2c_send(t):
    # SSD1306 datasheet 8.1.5.2 (the SH1106's is the same): after the address a
    # control byte, Co (0x80) and D/C# (0x40) and nothing else; Co=1: one byte
    # follows, then another control byte; Co=0: all the rest are data (D/C#=1)
    # or commands (D/C#=0)
    i = 0
    while i < len(t):
        ctrl = t[i]
        if ctrl & 0x3F:
            PANEL[0].bad = True  # not a control byte: the chip would take it for one anyway
        end = i + 2 if ctrl & 0x80 else len(t)
        _send(ctrl & 0x40, t[i + 1 : end])
        i = end

FAIL = [0]  # the next data write raises OSError (a loose wire)
CLOCKS = [0]  # bus clocks since the reader zeroed it: I2C 9 a byte, the address byte, start and stop; SPI 8 a byte

class I2C:
    def __init__(self, bus_id, sda=None, scl=None, freq=0):
        pass
    def writeto(self, addr, buf):
        t = bytes(buf)
        CLOCKS[0] += (1 + len(t)) * 9 + 2
        _i2c_send(t)
    def writevto(self, addr, bufs):
        if FAIL[0]:
            FAIL[0] = 0
            raise OSError(5)
        t = b''.join([bytes(b) for b in bufs])
        CLOCKS[0] += (1 + len(t)) * 9 + 2
        _i2c_send(t)

class SPI:
    # the D/C pin says command (0) or data (1)
    def __init__(self, bus_id, baudrate=0, polarity=0, phase=0, sck=None, mosi=None):
        pass
    def init(self, baudrate=0, polarity=0, phase=0):
        pass
    def write(self, buf):
        CLOCKS[0] += len(buf) * 8
        _send(DC[0].v, bytes(buf))
DC = []

class machine:
    pass
machine.Pin = Pin
machine.I2C = I2C
machine.SPI = SPI

# -- the drivers: the bus transactions of their upstream code ------------------------
class SSD1306(framebuf.FrameBuffer):
    # micropython-lib ssd1306.py: init sets horizontal addressing; show() sends
    # the whole frame; rotate() remaps the segments
    def __init__(self, w, h):
        PANEL[:] = [Ssd1306()]
        self.buffer = bytearray(w * h // 8)
        super().__init__(self.buffer, w, h, framebuf.MONO_VLSB)
        for c in (0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, h - 1, 0xC8, 0xAF):
            self.write_cmd(c)
        self.fill(0)
        self.show()
    def rotate(self, rotate):
        self.write_cmd(0xC0 | ((rotate & 1) << 3))
        self.write_cmd(0xA0 | (rotate & 1))
    def show(self):
        for c in (0x21, 0, 127, 0x22, 0, 7):
            self.write_cmd(c)
        self.write_data(self.buffer)

class SSD1306_I2C(SSD1306):
    # write_cmd is one I2C write of 0x80 + the command, write_data one
    # writevto of 0x40 and the buffer
    def __init__(self, w, h, i2c, addr=0x3C):
        self.i2c = i2c
        self.addr = addr
        self.temp = bytearray(2)
        self.write_list = [b'\x40', None]
        super().__init__(w, h)
    def write_cmd(self, cmd):
        self.temp[0] = 0x80
        self.temp[1] = cmd
        self.i2c.writeto(self.addr, self.temp)
    def write_data(self, buf):
        self.write_list[1] = buf
        self.i2c.writevto(self.addr, self.write_list)

class SSD1306_SPI(SSD1306):
    # write_cmd: the D/C pin low and one byte; write_data: D/C high and the buffer
    def __init__(self, w, h, spi, dc, res, cs):
        DC[:] = [dc]
        dc.init(dc.OUT, value=0)
        cs.init(cs.OUT, value=1)
        self.spi = spi
        self.dc = dc
        self.cs = cs
        super().__init__(w, h)
    def write_cmd(self, cmd):
        self.spi.init(baudrate=10 * 1024 * 1024, polarity=0, phase=0)
        self.cs(1)
        self.dc(0)
        self.cs(0)
        self.spi.write(bytearray([cmd]))
        self.cs(1)
    def write_data(self, buf):
        self.spi.init(baudrate=10 * 1024 * 1024, polarity=0, phase=0)
        self.cs(1)
        self.dc(1)
        self.cs(0)
        self.spi.write(buf)
        self.cs(1)

class SH1106_I2C(framebuf.FrameBuffer):
    # robert-hh sh1106.py: show() sends each page marked in pages_to_update (all
    # with full_update): page, column low 2, column high 0, then 0x40 + its
    # 128 bytes; flip() remaps and, with update, shows everything
    def __init__(self, w, h, i2c, res=None, addr=0x3C, rotate=0):
        PANEL[:] = [Sh1106()]
        self.i2c = i2c
        self.addr = addr
        self.temp = bytearray(2)
        self.width = w
        self.pages = h // 8
        self.renderbuf = bytearray(w * h // 8)
        self.displaybuf = self.renderbuf
        self.pages_to_update = 0
        super().__init__(self.renderbuf, w, h, framebuf.MONO_VLSB)
        self.fill(0)
        self.show(True)
        self.flip(rotate == 180)
    def write_cmd(self, cmd):
        self.temp[0] = 0x80
        self.temp[1] = cmd
        self.i2c.writeto(self.addr, self.temp)
    def write_data(self, buf):
        self.i2c.writeto(self.addr, b'\x40' + buf)
    def sleep(self, value):
        self.write_cmd(0xAE | (not value))
    def flip(self, flag=None, update=True):
        self.write_cmd(0xA0 | (1 if flag else 0))
        self.write_cmd(0xC0 | (0x08 if flag else 0))
        if update:
            self.show(True)
    def show(self, full_update=False):
        w, db = self.width, self.displaybuf
        todo = 0xFF if full_update else self.pages_to_update
        for page in range(self.pages):
            if todo & (1 << page):
                self.write_cmd(0xB0 | page)
                self.write_cmd(0x00 | 2)
                self.write_cmd(0x10 | 0)
                self.write_data(db[w * page : w * page + w])
        self.pages_to_update = 0

class SH1107_SPI(framebuf.FrameBuffer):
    # peter-l5 sh1107.py v317+, a 128x64 panel at rotate 0/180: MONO_HMSB
    # displaybuf, vertical addressing; show() sends each marked page as its 8
    # pixel rows, each a 2-byte command (column low, high) and 16 data bytes;
    # flip() remaps and, with update, shows everything
    def __init__(self, w, h, spi, dc, res=None, cs=None, rotate=0):
        PANEL[:] = [Sh1107()]
        DC[:] = [dc]
        dc.init(dc.OUT, value=0)
        self.spi = spi
        self.dc = dc
        self.cs = cs
        self.width = w
        self.pages = h // 8
        self.rotate = rotate
        self.displaybuf = bytearray(w * h // 8)
        self.displaybuf_mv = memoryview(self.displaybuf)
        self.pages_to_update = 0
        super().__init__(self.displaybuf, w, h, framebuf.MONO_HMSB)
        self.fill(0)
        self.write_command(bytes([0xA8, 0x3F]))
        self.write_command(bytes([0x21]))
        self.write_command(bytes([0xB0]))
        self.flip(False)
    def write_command(self, cmd):
        self.cs(1)
        self.dc(0)
        self.cs(0)
        self.spi.write(cmd)
        self.cs(1)
    def write_data(self, buf):
        self.cs(1)
        self.dc(1)
        self.cs(0)
        self.spi.write(buf)
        self.cs(1)
    def sleep(self, value):
        self.write_command(bytes([0xAE | (not value)]))
    def flip(self, flag=None, update=True):
        remap = 0x00 if (self.rotate in (90, 180)) ^ flag else 0x01
        self.write_command(bytes([0xA0 | remap]))
        self.write_command(bytes([0xC0 | (0x08 if (self.rotate in (180, 270)) ^ flag else 0)]))
        if update:
            self.show(True)
    def show(self, full_update=False):
        row_bytes = self.width // 8
        todo = 0xFF if full_update else self.pages_to_update
        cmd = bytearray(2)
        for page in range(self.pages):
            if todo & (1 << page):
                for row in range(page * 8, page * 8 + 8):
                    cmd[0] = row & 0x0F
                    cmd[1] = 0x10 | (row >> 4)
                    self.write_command(cmd)
                    self.write_data(self.displaybuf_mv[row * row_bytes : row * row_bytes + row_bytes])
        self.pages_to_update = 0

class ssd1306:
    pass
ssd1306.SSD1306_I2C = SSD1306_I2C
ssd1306.SSD1306_SPI = SSD1306_SPI
class sh1106:
    pass
sh1106.SH1106_I2C = SH1106_I2C
class sh1107:
    pass
sh1107.SH1107_SPI = SH1107_SPI

INSTALLED = ('machine', 'ssd1306', 'sh1106', 'sh1107')
for _n, _m in (('machine', machine), ('ssd1306', ssd1306), ('sh1106', sh1106), ('sh1107', sh1107)):
    sys.modules[_n] = _m
"""

SCENARIO = r"""
from teatally.hw import base as hw_base
from teatally.hw import pico as hw_pico
from teatally.hw.pages import ChangedPages

SHOWN = []  # the hw.pages.ChangedPages of the board being played
_send_changed_pages = hw_pico.send_changed_pages

def keep_pages(d, driver, bus):
    p = _send_changed_pages(d, driver, bus)
    SHOWN[:] = [p]
    return p

hw_pico.send_changed_pages = keep_pages

def choose(name):
    f = open(FLASH + '/board.txt', 'w')
    f.write(name + '\n')
    f.close()

class Lcg:
    def __init__(self, seed):
        self.s = seed
    def __call__(self, n):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 8) % n

def draw(d, rnd):
    # mostly small changes (a selection, a digit), sometimes a new screen
    k = rnd(20)
    if k == 0:
        d.clear()
        for y in range(0, 64, 8):
            d.text('line %d' % rnd(100), 0, y, 1)
    elif k == 1:
        d.fill_rect(0, 0, 128, 64, rnd(2))
    elif k == 2:
        pass  # the same frame again: nothing to send
    elif k == 3:
        d.bands.fill_rect(0, rnd(8), 128, 1, 255 * rnd(2))  # a bar (ui.core.bar)
    elif k == 4:
        d.fill_rect(rnd(128), rnd(16), 1 + rnd(8), 16 + rnd(48), rnd(2))  # narrow and tall: windows of pages
    elif k < 8:
        d.text('%d' % rnd(1000), rnd(120), rnd(60), rnd(2))
    else:
        d.fill_rect(rnd(128), rnd(64), 1 + rnd(20), 1 + rnd(12), rnd(2))

def spans(now, before):
    # (page, first, last) of each page where now differs from before: the
    # reference, a byte at a time
    out = []
    for p in range(8):
        cols = [c for c in range(128) if now[p * 128 + c] != before[p * 128 + c]]
        if cols:
            out.append('%d.%d.%d' % (p, cols[0], cols[-1]))
    return ','.join(out) or '-'

def play(name, seed, steps, wire=False):
    choose(name)
    hw = hw_pico.setup(FLASH)
    d = hw.display
    pages = SHOWN[0]
    frame = hw_base.frame_bytes(d)
    sent = bytearray(frame)  # what the panel was last sent, for spans()
    rnd = Lcg(seed)
    shows = npages = clocks = 0
    start = PANEL[0].data_bytes
    for step in range(steps):
        for _ in range(1 + rnd(2)):
            draw(d, rnd)
        if rnd(15) == 0:
            hw.set_flip(rnd(2))  # the panel's memory must be sent again
            sent[:] = frame
        else:
            ref = spans(frame, sent) if wire and shows else 'first'  # the first show sends everything
            sent[:] = frame
            CLOCKS[0] = 0
            m = d.show()
            shows += 1
            npages += bin(m).count('1')
            clocks += CLOCKS[0]
            if wire:
                w = pages.windows
                print('wire', name, ref, ','.join(['%d.%d.%d.%d' % tuple(w[i : i + 4])
                                                   for i in range(0, 4 * pages.count, 4)]) or '-', CLOCKS[0])
        panel = PANEL[0]
        if panel.frame() != bytes(frame) or panel.stale():
            return 'MISMATCH at step %d' % step
    return 'ok shows %d pages %d data %d clocks %d' % (shows, npages, PANEL[0].data_bytes - start, clocks)

def mutant(name, fn, board='pico_ssd1306'):
    orig = {k: getattr(ChangedPages, k) for k in ('forget', 'changed')}
    setattr(ChangedPages, name, fn)
    try:
        return play(board, 7, 60)
    finally:
        for k, v in orig.items():
            setattr(ChangedPages, k, v)

def source_mutant(what, src, board='pico_ssd1306'):
    # hw.pages or hw.pico's source with one change: its ChangedPages or
    # ssd1306_sender takes the place of the real one
    ns = {'__name__': 'mutant'}
    exec(src, ns)
    orig = getattr(hw_pico, what)
    setattr(hw_pico, what, ns[what])
    try:
        return play(board, 7, 60)
    finally:
        setattr(hw_pico, what, orig)

def keep_shadow(self):
    pass  # a flip or the first show that does not send every page

def drop_lowest(self, pages=8):
    m = orig_changed(self, pages)
    w = self.windows
    if m and w[0] == w[1]:  # its lowest page is a window of its own: left out
        for i in range(4 * self.count - 4):
            w[i] = w[i + 4]
        self.count -= 1
        return m & (m - 1)
    if m:
        w[0] += 1  # ... or the lowest page of a window
    return m & (m - 1)
orig_changed = ChangedPages.changed
"""

RUN = r"""
try:
    for board in ('pico_ssd1306', 'test_ssd1306_spi', 'pico_sh1106', 'waveshare_pico_oled_1_3'):
        for seed in (1, 2):
            print(board, seed, play(board, seed, 150, seed == 1))
    # a bus error in the middle of a show: the next show sends every page
    choose('pico_ssd1306')
    hw = hw_pico.setup(FLASH)
    d = hw.display
    d.show()
    d.fill_rect(0, 0, 128, 30, 1)
    FAIL[0] = 1
    try:
        d.show()
    except OSError:
        print('bus error', PANEL[0].frame() == bytes(hw_base.frame_bytes(d)), bin(d.show()))
    print('recovered', PANEL[0].frame() == bytes(hw_base.frame_bytes(d)))
    print('reference', play('pico_ssd1306', 7, 60))
    print('mutant forget', mutant('forget', keep_shadow))
    print('mutant changed', mutant('changed', drop_lowest))
    print('mutant sh1106 changed', mutant('changed', drop_lowest, 'pico_sh1106'))
    for kind, name, src in MUTANTS:
        print('mutant', kind, name.replace(' ', '_'), source_mutant(kind, src))
finally:
    hw_pico.send_changed_pages = _send_changed_pages
    for m in INSTALLED + ('pico_ssd1306', 'pico_sh1106', 'waveshare_pico_oled_1_3', 'test_ssd1306_spi'):
        sys.modules.pop(m, None)
"""

# Broken variants of the sources (name, file, text, its replacement): the
# panel model must show the wrong frame ("MISMATCH"), or, for the ones that
# only cost bus time ("costs"), the same frame for more bus clocks.
SOURCE_MUTANTS = (
    ("last column one short", "pages", "            w[i + 3] = b\n", "            w[i + 3] = b - 1 if b > a else b\n"),
    ("a joined page leaves the columns as they were", "pages",
     "                    w[i - 2] = lo\n                    w[i - 1] = hi\n", ""),
    ("the last page of a window left out", "pages", "                    w[i - 3] = p\n",
     "                    w[i - 3] = p - 1\n"),
    ("the shadow keeps the old columns", "pages", "            s[:] = f\n", ""),
    ("the data of a window one column short", "pico", "                n = b - a + 1\n", "                n = b - a\n"),
    ("the window's commands with Co=1", "pico", "bytearray((0x00, _SET_COL_ADDR,",
     "bytearray((0x80, _SET_COL_ADDR,"),
    ("a window's last page not sent", "pico", "range(p0 * _PAGE_BYTES + a, (p1 + 1) * _PAGE_BYTES",
     "range(p0 * _PAGE_BYTES + a, p1 * _PAGE_BYTES"),
    ("costs: pages never share a window", "pages", "<= _WINDOW_BYTES:", "< 0:"),
    ("costs: a window across an unchanged page", "pages", "            if p == p1 + 1:", "            if p1 >= 0:"),
)


def _mutants():
    src = {"pages": (ROOT / "firmware/teatally/hw/pages.py").read_text(),
           "pico": (ROOT / "firmware/teatally/hw/pico.py").read_text()}
    out = []
    for name, where, old, new in SOURCE_MUTANTS:
        assert src[where].count(old) == 1, (name, "the source changed: update SOURCE_MUTANTS")
        out.append(({"pages": "ChangedPages", "pico": "ssd1306_sender"}[where], name, src[where].replace(old, new)))
    return "MUTANTS = %r\n" % (out,)


def _flash(d):
    (d / "boards").mkdir()
    for p in (ROOT / "boards").glob("*.py"):
        shutil.copy(p, d / "boards" / p.name)
    # the SSD1306 on SPI, which no shipped board has (the Waveshare's pins)
    text = (ROOT / "boards" / "waveshare_pico_oled_1_3.py").read_text()
    for old, new in (('"waveshare_pico_oled_1_3"', '"test_ssd1306_spi"'), ('"sh1107"', '"ssd1306"')):
        assert old in text
        text = text.replace(old, new)
    (d / "boards" / "test_ssd1306_spi.py").write_text(text)


def _windows(text):
    return [tuple(int(x) for x in w.split(".")) for w in text.split(",")] if text != "-" else []


def _greedy(spans):
    # the grouping hw.pages promises, from the reference spans: a page joins
    # the window above when the columns that adds cost at most 8 bytes
    out = []
    for p, a, b in spans:
        if out and out[-1][1] == p - 1:
            p0, _, a0, b0 = out[-1]
            lo, hi, k = min(a, a0), max(b, b0), p - p0
            if (k + 1) * (hi - lo + 1) - k * (b0 - a0 + 1) - (b - a + 1) <= 8:
                out[-1] = (p0, p, lo, hi)
                continue
        out.append((p, p, a, b))
    return out


def _best(spans, clocks):
    # the fewest clocks of any grouping of adjacent pages into windows
    best = [0]
    for j in range(len(spans)):
        cands = []
        lo, hi = 128, -1
        for i in range(j, -1, -1):
            if i < j and spans[i][0] != spans[i + 1][0] - 1:
                break
            lo, hi = min(lo, spans[i][1]), max(hi, spans[i][2])
            cands.append(best[i] + clocks([(spans[i][0], spans[j][0], lo, hi)]))
        best.append(min(cands))
    return best[-1]


def test_the_panels_ram_holds_the_frame_after_every_show(dual):
    """After random drawing, show()s and flips the panel's RAM holds the
    frame, on every driver (the SSD1306 on I2C and on SPI); what each show
    put on the bus is what the bench charges for its windows; the windows
    are the promised grouping of the pages' changed columns and within 1 %
    of the best one; broken variants are caught."""
    out = dual(FAKES + SCENARIO + _mutants() + RUN, setup_flash=_flash).splitlines()
    res = {tuple(line.split()[:2]): line.split()[2:] for line in out
           if line.split()[0] in ("pico_ssd1306", "test_ssd1306_spi", "pico_sh1106", "waveshare_pico_oled_1_3")}
    for board in ("pico_ssd1306", "test_ssd1306_spi", "pico_sh1106", "waveshare_pico_oled_1_3"):
        for seed in "12":
            r = res[(board, seed)]
            assert r[0] == "ok", (board, seed, r)
            shows, pages = int(r[2]), int(r[4])
            # mostly small changes: far fewer pages than a whole frame each show
            assert pages < shows * 8 // 2, (board, r)
    # the data on the wire: whole pages for the SH1106 (128 bytes) and SH1107
    # (16 a pixel row); the SSD1306's windows send fewer bytes
    for board in ("pico_sh1106", "waveshare_pico_oled_1_3"):
        assert all(int(res[(board, s)][6]) % 128 == 0 for s in "12")
    for s in "12":
        assert int(res[("pico_ssd1306", s)][6]) < int(res[("pico_sh1106", s)][6]) * 2 // 3
    # every show: the bench's clocks for its windows are the wire's
    wire = [line.split()[1:] for line in out if line.startswith("wire ")]
    assert len(wire) > 4 * 100
    boards = {b: cmd_flash.load_board(b) for b in ("pico_ssd1306", "pico_sh1106", "waveshare_pico_oled_1_3")}
    boards["test_ssd1306_spi"] = dict(boards["waveshare_pico_oled_1_3"], DISPLAY_DRIVER="ssd1306")
    greedy = best = 0
    for board, ref, windows, clocks in wire:
        b = boards[board]
        ms = busmodel.show_bus_ms(b, _windows(windows))
        assert round(ms * b["FREQ"] / 1000) == int(clocks), (board, windows, clocks)
        if ref == "first":
            assert _windows(windows) == list(busmodel.WHOLE)
            continue
        spans = _windows(ref)
        if b["DISPLAY_DRIVER"] != "ssd1306":  # whole pages
            assert busmodel.show_mask(_windows(windows)) == sum(1 << p for p, _, _ in spans)
        else:
            assert _windows(windows) == _greedy(spans), (board, ref, windows)
            if board == "pico_ssd1306":
                greedy += int(clocks)
                best += _best(spans, lambda w, b=b: round(busmodel.show_bus_ms(b, w) * b["FREQ"] / 1000))
    assert best <= greedy <= best * 1.01, (greedy, best)
    # the panel missed the pages of a failed show: the next show sends them all
    assert "bus error False 0b11111111" in out and "recovered True" in out
    reference = [x for x in out if x.startswith("reference ok")]
    assert reference, out
    reference_clocks = int(reference[0].split()[-1])
    mutants = [x for x in out if x.startswith("mutant")]
    assert len(mutants) == 3 + len(SOURCE_MUTANTS), mutants
    for x in mutants:
        if "costs:" in x:  # the right frame for more clocks
            assert " ok " in x and int(x.split()[-1]) > reference_clocks, (x, reference_clocks)
        else:
            assert "MISMATCH" in x, x


HEAP_LOCK = r"""
import gc
import micropython
from teatally.hw.virtual import VirtualDisplay

class CountingI2C:
    # no model: just the bytes, allocating nothing
    def __init__(self, *a, **k):
        self.n = 0
    def writeto(self, addr, buf):
        self.n += len(buf)
    def writevto(self, addr, bufs):
        for b in bufs:
            self.n += len(b)
machine.I2C = CountingI2C

def locked(f):
    gc.collect()
    micropython.heap_lock()
    try:
        f()
        r = 'ok'
    except MemoryError:
        r = 'ALLOCATES'
    micropython.heap_unlock()
    return r

def allocated(f):
    # bytes f leaves allocated (no collection can fall inside: the heap is roomy)
    gc.collect()
    m0 = gc.mem_alloc()
    f()
    return gc.mem_alloc() - m0

def narrow_pages(pages):
    # pages sent in windows narrower than a page
    w = pages.windows
    return sum([w[i + 1] - w[i] + 1 for i in range(0, 4 * pages.count, 4) if w[i + 3] - w[i + 2] != 127])

CASES = (
    ('one page', lambda d: d.fill_rect(3, 20, 10, 3, 1)),
    ('a window of pages', lambda d: d.fill_rect(0, 8, 5, 30, 1)),
    ('two windows', lambda d: (d.fill_rect(0, 0, 9, 20, 1), d.fill_rect(50, 40, 9, 20, 1))),
    ('two pages apart', lambda d: (d.fill_rect(0, 0, 3, 3, 1), d.fill_rect(100, 60, 3, 3, 1))),
    ('a bar', lambda d: d.fill_rect(0, 24, 128, 8, 1)),
    ('every page', lambda d: d.fill(1)),
)

def check(d, pages, bus):
    d.show()
    n = bus.n if bus else 0
    print('same', locked(d.show), (bus.n - n) if bus else '')
    mask = [0]
    def compare():
        mask[0] = pages.changed()
    def send():
        pages.send(mask[0])
    for name, draw in CASES:
        draw(d)
        # the comparison and the windows allocate nothing; sending allocates
        # one memoryview (16 bytes) for each page of a narrow window, nothing else
        print(name.replace(' ', '_'), locked(compare), allocated(send), 16 * narrow_pages(pages))
        d.fill(0)
        d.show()
    d.fill(1)
    print('every_page_show', locked(d.show))
    d.fill_rect(0, 24, 128, 8, 0)
    print('a_bar_show', locked(d.show))
    def full():
        d.show(True)
    print('full', locked(full))

choose('pico_ssd1306')
hw = hw_pico.setup(FLASH)
check(hw.display, SHOWN[0], hw.display.i2c)
v = VirtualDisplay()
v.show()
print('virtual', [locked(v.show) for draw in [c[1] for c in CASES] if draw(v) or True], locked(lambda: v.show(True)))
"""


def test_show_allocates_nothing_but_a_view_a_page(mp, tmp_path):
    """On the VM: the comparison (ChangedPages.changed: the pages, their
    columns, the windows) allocates nothing under micropython.heap_lock();
    sending a window narrower than a page allocates exactly one memoryview
    (16 bytes) for each of its pages and nothing else; shows of whole pages
    allocate nothing at all (SSD1306 through its I2C, and the virtual
    board)."""
    _flash(tmp_path)
    script = FAKES + SCENARIO + HEAP_LOCK
    out = mp(script, flash_dir=str(tmp_path)).stdout.splitlines()
    assert out[0].startswith("same ok 0"), out  # nothing changed: nothing on the bus
    cases = {x.split()[0]: x.split()[1:] for x in out[1:7]}
    assert len(cases) == 6, out
    for name, (compare, sent, bound) in cases.items():
        assert compare == "ok" and sent == bound, (name, out)
    assert int(cases["one_page"][1]) == 16 and int(cases["two_pages_apart"][1]) == 32
    assert cases["a_bar"][1] == cases["every_page"][1] == "0"
    assert out[7:10] == ["every_page_show ok", "a_bar_show ok", "full ok"], out
    assert out[10] == "virtual %s ok" % (["ok"] * 6), out


def test_bench_reports_the_windows_each_press_sent(tmp_path):
    """The bench's guest reports, after each press, the windows of each
    show() it made (VirtualDisplay.sent): moving the home menu's selection
    sends the lines it touches (the bar is as wide as the screen), back and
    forth alike; opening a screen sends (nearly) every page, in windows. The bus time of a
    press is what those windows cost; the SH1106/SH1107 boards are charged
    the pages in them."""
    fw = tmp_path / "fw"
    benchvm.build_firmware(fw)
    events = [keyscript.event(t) for t in ("down", "up", "down", "ok")]
    run = benchvm.run_presses(str(fw), events, benchvm.HEAP_PICO, True)
    assert run["code"] == 0, run["stderr"][-2000:]
    shows = run["shows"]
    # the selection moves: one show; opening a screen: its title bar first
    # (ui.core.title_done), then the rest
    assert len(shows) == len(events) and [len(s) for s in shows] == [1, 1, 1, 2], shows
    down, up, down2 = (s[0] for s in shows[:3])
    title, rest = shows[3]
    assert [(p0, p1) for p0, p1, _, _ in title] == [(0, 0)] and all(p0 > 0 for p0, _, _, _ in rest), shows
    ok = title + rest
    assert down == up == down2 and 1 <= bin(busmodel.show_mask(down)).count("1") <= 3, shows
    assert bin(busmodel.show_mask(ok)).count("1") >= 6, shows
    assert all(0 <= p0 <= p1 <= 7 and 0 <= a <= b <= 127 for w in (down, ok) for p0, p1, a, b in w), shows
    ssd = cmd_flash.load_board("pico_ssd1306")
    # a window sends no more than its whole pages would (the selection bar is the width of the screen)
    assert busmodel.show_bus_ms(ssd, down) <= busmodel.show_bus_ms(ssd, [(p0, p1, 0, 127) for p0, p1, _, _ in down])
    assert busmodel.show_bus_ms(ssd, ok) < busmodel.show_bus_ms(ssd, [(p0, p1, 0, 127) for p0, p1, _, _ in ok])
    # a press's full frame: its computing, then the bus time of what it sent
    # (no computing here: the bus alone); its first light: the first page
    nothing = {"shows": [0, 0], "finish": 0, "fuel": 0}
    wait = [waits.press_waits(nothing, s, ssd, 1.0) for s in shows]
    assert [w["full_frame"] for w in wait] == [sum(busmodel.show_bus_ms(ssd, x) for x in s) for s in shows]
    assert wait[3]["first_light"] == busmodel.show_bus_ms(ssd, title)  # the title bar is the first light
    pages = bin(busmodel.show_mask(down)).count("1")
    wave = cmd_flash.load_board("waveshare_pico_oled_1_3")
    assert waits.press_waits(nothing, shows[0], wave, 1.0)["full_frame"] == pytest.approx(
        pages * 8 * (2 + 16) * 8 / 10_000)
    per_press = busmodel.pages_per_press(shows)
    assert per_press["pages_sent_per_press_median"] == pages
    assert per_press["full_frame_press_share"] == (0.25 if busmodel.show_mask(ok) == busmodel.ALL_PAGES else 0)
    # the same presses with whole pages (as on the SH1106/SH1107): the same pages
    run = benchvm.run_presses(str(fw), events, benchvm.HEAP_PICO, True, columns=False)
    masks = [[busmodel.show_mask(w) for w in s] for s in run["shows"]]
    assert masks == [[busmodel.show_mask(w) for w in s] for s in shows]
    assert all(a == 0 and b == 127 for s in run["shows"] for w in s for p0, p1, a, b in w), run["shows"]
