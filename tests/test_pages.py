"""show() sends only the pages that changed (teatally.hw.pages, wired by hw.pico).

The panels are modelled from their datasheets: the controller's display RAM,
fed by a fake bus that interprets every transaction the way the chip does
(command bytes with their arguments, the column/page window and horizontal
auto-increment of the SSD1306, the page addressing of the SH1106, the
vertical addressing of the SH1107; a segment remap applies only to data
written after it). The boards are brought up by ``hw.pico.setup`` against a
fake ``machine``, with stand-ins of the three drivers that make exactly the
bus transactions of their upstream show()/write_cmd/write_data (read from
micropython-lib's ssd1306.py, robert-hh's sh1106.py and peter-l5's sh1107.py
v317+ for a 128x64 panel at rotate 0/180; only those calls, not the whole
drivers). After random drawing, show()s and flips, the model's RAM must hold
the frame; broken variants of hw.pages (a flip that keeps the shadow, a page
left out) must be caught. Runs on both interpreters (``dual``); the
allocation check needs ``micropython.heap_lock()`` (the VM only).
"""

import shutil
from pathlib import Path

from teatally_host import bench, cmd_flash, keyscript

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
    def __init__(self, n, mode=-1, pull=-1):
        self.n = n
        self.v = 1
    def init(self, mode=-1, value=None):
        if value is not None:
            self.v = value
    def value(self):
        return 1
    def __call__(self, v=None):
        if v is None:
            return self.v
        self.v = v

def _send(ctrl, payload):
    panel = PANEL[0]
    if ctrl == 0x40:
        panel.data(payload)
    else:
        for c in payload:
            panel.command(c)

FAIL = [0]  # the next data write raises OSError (a loose wire)

class I2C:
    # a transaction: control byte (0x80: one command, 0x00: commands, 0x40: data), then bytes
    def __init__(self, bus_id, sda=None, scl=None, freq=0):
        pass
    def writeto(self, addr, buf):
        _send(buf[0], bytes(buf)[1:])
    def writevto(self, addr, bufs):
        if FAIL[0]:
            FAIL[0] = 0
            raise OSError(5)
        first = bytes(bufs[0])
        _send(first[0], first[1:] + b''.join([bytes(b) for b in bufs[1:]]))

class SPI:
    # the D/C pin says command (0) or data (1)
    def __init__(self, bus_id, baudrate=0, polarity=0, phase=0, sck=None, mosi=None):
        pass
    def write(self, buf):
        _send(0x40 if DC[0].v else 0x00, bytes(buf))
DC = []

class machine:
    pass
machine.Pin = Pin
machine.I2C = I2C
machine.SPI = SPI

# -- the drivers: the bus transactions of their upstream code ------------------------
class SSD1306_I2C(framebuf.FrameBuffer):
    # micropython-lib ssd1306.py: write_cmd is one I2C write of 0x80 + the command,
    # write_data one writevto of 0x40 and the buffer; init sets horizontal
    # addressing; show() sends the whole frame; rotate() remaps the segments
    def __init__(self, w, h, i2c, addr=0x3C):
        PANEL[:] = [Ssd1306()]
        self.i2c = i2c
        self.addr = addr
        self.temp = bytearray(2)
        self.write_list = [b'\x40', None]
        self.buffer = bytearray(w * h // 8)
        super().__init__(self.buffer, w, h, framebuf.MONO_VLSB)
        for c in (0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, h - 1, 0xC8, 0xAF):
            self.write_cmd(c)
        self.fill(0)
        self.show()
    def write_cmd(self, cmd):
        self.temp[0] = 0x80
        self.temp[1] = cmd
        self.i2c.writeto(self.addr, self.temp)
    def write_data(self, buf):
        self.write_list[1] = buf
        self.i2c.writevto(self.addr, self.write_list)
    def rotate(self, rotate):
        self.write_cmd(0xC0 | ((rotate & 1) << 3))
        self.write_cmd(0xA0 | (rotate & 1))
    def show(self):
        for c in (0x21, 0, 127, 0x22, 0, 7):
            self.write_cmd(c)
        self.write_data(self.buffer)

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
    elif k < 8:
        d.text('%d' % rnd(1000), rnd(120), rnd(60), rnd(2))
    else:
        d.fill_rect(rnd(128), rnd(64), 1 + rnd(20), 1 + rnd(12), rnd(2))

def play(name, seed, steps):
    choose(name)
    hw = hw_pico.setup(FLASH)
    d = hw.display
    panel = PANEL[0]
    frame = hw_base.frame_bytes(d)
    rnd = Lcg(seed)
    shows = pages = 0
    start = panel.data_bytes
    for step in range(steps):
        for _ in range(1 + rnd(2)):
            draw(d, rnd)
        if rnd(15) == 0:
            hw.set_flip(rnd(2))  # the panel's memory must be sent again
        else:
            m = d.show()
            shows += 1
            pages += bin(m if m is not None else 0xFF).count('1')
        panel = PANEL[0]
        if panel.frame() != bytes(frame) or panel.stale():
            return 'MISMATCH at step %d' % step
    return 'ok shows %d pages %d data %d' % (shows, pages, panel.data_bytes - start)

def mutant(name, fn, board='pico_ssd1306'):
    orig = {k: getattr(ChangedPages, k) for k in ('forget', 'changed')}
    setattr(ChangedPages, name, fn)
    try:
        return play(board, 7, 60)
    finally:
        for k, v in orig.items():
            setattr(ChangedPages, k, v)

def keep_shadow(self):
    pass  # a flip or the first show that does not send every page

def drop_lowest(self):
    m = orig_changed(self)
    return m & (m - 1)  # one changed page left out
orig_changed = ChangedPages.changed

try:
    for board in ('pico_ssd1306', 'pico_sh1106', 'waveshare_pico_oled_1_3'):
        for seed in (1, 2):
            print(board, seed, play(board, seed, 150))
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
    print('mutant forget', mutant('forget', keep_shadow))
    print('mutant changed', mutant('changed', drop_lowest))
    print('mutant sh1106 changed', mutant('changed', drop_lowest, 'pico_sh1106'))
finally:
    for m in INSTALLED + ('pico_ssd1306', 'pico_sh1106', 'waveshare_pico_oled_1_3'):
        sys.modules.pop(m, None)
"""


def _flash(d):
    (d / "boards").mkdir()
    for p in (ROOT / "boards").glob("*.py"):
        shutil.copy(p, d / "boards" / p.name)


def test_the_panels_ram_holds_the_frame_after_every_show(dual):
    out = dual(FAKES + SCENARIO, setup_flash=_flash).splitlines()
    res = {tuple(line.split()[:2]): line.split()[2:] for line in out if line.split()[0].startswith("pico_")
           or line.startswith("waveshare")}
    for board in ("pico_ssd1306", "pico_sh1106", "waveshare_pico_oled_1_3"):
        for seed in "12":
            r = res[(board, seed)]
            assert r[0] == "ok", (board, seed, r)
            shows, pages = int(r[2]), int(r[4])
            # mostly small changes: far fewer pages than a whole frame each show
            assert pages < shows * 8 // 2, (board, r)
    # the data bytes on the wire: 128 a page for the SSD1306 and SH1106, 16 a
    # pixel row for the SH1107, and nothing else
    for board in ("pico_ssd1306", "pico_sh1106", "waveshare_pico_oled_1_3"):
        assert all(int(res[(board, s)][6]) % 128 == 0 for s in "12")
    # broken variants are caught: the panel then shows something else
    # the panel missed the pages of a failed show: the next show sends them all
    assert "bus error False 0b11111111" in out and "recovered True" in out
    mutants = [x for x in out if x.startswith("mutant")]
    assert len(mutants) == 3 and all("MISMATCH" in x for x in mutants), mutants


HEAP_LOCK = r"""
import gc
import micropython
from teatally.hw import pico as hw_pico
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

def check(d, bus):
    d.show()
    n = bus.n if bus else 0
    print('same', locked(d.show), (bus.n - n) if bus else '')
    d.fill_rect(3, 20, 10, 3, 1)  # page 2
    print('one page', locked(d.show))
    d.fill_rect(0, 8, 5, 30, 1)  # pages 1..4
    print('a run', locked(d.show))
    d.fill_rect(0, 0, 9, 20, 0)
    d.fill_rect(0, 40, 9, 20, 1)  # two runs
    print('two runs', locked(d.show))
    d.fill(1)
    print('every page', locked(d.show))

    def full():
        d.show(True)

    print('full', locked(full))

choose('pico_ssd1306')
hw = hw_pico.setup(FLASH)
check(hw.display, hw.display.i2c)
check(VirtualDisplay(), None)
"""


def test_show_allocates_nothing(mp, tmp_path):
    """On the VM under micropython.heap_lock(): show() with nothing changed,
    one page, runs of pages, every page and show(True), through the
    SSD1306's write_cmd/write_data and on the virtual board."""
    _flash(tmp_path)
    script = FAKES + SCENARIO.split("try:\n    for board")[0] + HEAP_LOCK
    out = mp(script, flash_dir=str(tmp_path)).stdout.splitlines()
    assert out[0].startswith("same ok 0")  # nothing changed: nothing on the bus
    assert [x.split()[-1] for x in out[1:6]] == ["ok"] * 5, out
    assert out[6].startswith("same ok") and all(x.endswith("ok") for x in out[7:12]), out


def test_bench_reports_the_pages_each_press_sent(tmp_path):
    """The bench's guest reports, after each press, the page mask of each
    show() it made (VirtualDisplay.sent): moving the home menu's selection
    sends the lines it touches, back and forth alike; opening a screen
    sends (nearly) all. The bus time of a press is what those pages cost."""
    fw = tmp_path / "fw"
    bench.build_firmware(fw)
    events = [keyscript.event(t) for t in ("down", "up", "down", "ok")]
    run = bench.run_presses(str(fw), events, bench.HEAP_PICO, True)
    assert run["code"] == 0, run["stderr"][-2000:]
    shows = run["shows"]
    assert len(shows) == len(events) and all(len(s) == 1 for s in shows), shows
    down, up, down2, ok = (s[0] for s in shows)
    assert down == up == down2 and 1 <= bin(down).count("1") <= 3, shows
    assert bin(ok).count("1") >= 6, shows
    ssd = cmd_flash.load_board("pico_ssd1306")
    photon = bench.press_to_photon([(0, "p%d" % i) for i in range(4)], shows, 1.0)["pico_ssd1306"]
    assert photon["worst_ms_est"] == round(bench.show_bus_ms(ssd, ok), 1) and photon["worst_press"] == "p3"
    assert photon["bus_median_ms"] == round(bench.show_bus_ms(ssd, down), 2)
    per_press = bench.pages_per_press(shows)
    assert per_press["pages_sent_per_press_median"] == bin(down).count("1")
    assert per_press["full_frame_press_share"] == (0.25 if ok == bench.ALL_PAGES else 0)
