"""hw_pico.setup() against a fake `machine` and fake display drivers.

The real layer can only run on a Pico, but its wiring logic can be checked:
which bus and driver it builds for each board, with which arguments, that
the key predicates honour ACTIVE_LOW, that set_flip drives each driver's own
180-degree switch, and that a bad /board.txt falls back to the default
board instead of bricking the device. Runs on both interpreters (`dual`);
the Hardware base defaults are checked the same way.
"""

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

FAKES = r"""
import sys
LOG = []

def pn(p):
    return None if p is None else p.n

class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 2
    OPEN_DRAIN = 3
    level = {}  # gpio -> electrical level; default 1 (pulled up, not pressed)
    low = {}  # open-drain gpio -> True while driven low
    keys = []  # (row gpio, column gpio) of the keypad's keys held down
    def __init__(self, n, mode=-1, pull=-1, value=None):
        self.n = n
        if mode != -1:
            LOG.append('Pin(%d,%d,%s)' % (n, mode, pull) if value is None else 'Pin(%d,%d,value=%d)' % (n, mode, value))
        if value is not None:
            Pin.low[n] = not value
    def value(self, v=None):
        if v is not None:
            Pin.low[self.n] = not v
            return None
        for r, c in Pin.keys:
            if c == self.n and Pin.low.get(r):
                return 0
        return Pin.level.get(self.n, 1)
    def init(self, *a, **k):
        pass
    IRQ_FALLING = 4
    IRQ_RISING = 8
    irqs = []  # (pin, handler) of every Pin.irq, in order
    def irq(self, handler, trigger):
        Pin.irqs.append((self, handler, trigger))
    def __call__(self, v=None):
        return self.value()

class I2C:
    def __init__(self, bus_id, sda=None, scl=None, freq=0):
        LOG.append('I2C(%d,sda=%d,scl=%d,freq=%d)' % (bus_id, sda.n, scl.n, freq))
    def writeto(self, addr, buf):
        LOG.append('w%x:' % addr + '.'.join(['%x' % b for b in buf]))

class SPI:
    def __init__(self, bus_id, baudrate=0, polarity=0, phase=0, sck=None, mosi=None):
        LOG.append('SPI(%d,%d,sck=%d,mosi=%d)' % (bus_id, baudrate, sck.n, mosi.n))

class WDT:
    def __init__(self, timeout=0):
        LOG.append('WDT(%d)' % timeout)
    def feed(self):
        LOG.append('feed')

class machine:
    pass
machine.Pin = Pin
machine.I2C = I2C
machine.SPI = SPI
machine.WDT = WDT
machine.idle = lambda: LOG.append('idle')
machine.reset = lambda: LOG.append('reset')

class Display:
    def fill(self, c):
        LOG.append('fill(%d)' % c)
    def show(self, full=False):
        LOG.append('show(full)' if full else 'show')
    def sleep(self, v):
        LOG.append('sleep(%s)' % v)

class SSD1306_I2C(Display):
    def __init__(self, w, h, i2c, addr=0x3C):
        LOG.append('SSD1306_I2C(%d,%d,addr=%s)' % (w, h, hex(addr)))
        self.buffer = bytearray(w * h // 8)  # micropython-lib exposes its frame
        self.i2c = i2c  # ... and its bus
        self.addr = addr
    def rotate(self, r):
        LOG.append('rotate(%d)' % r)
    # what hw.pages sends through (besides the bus): one command / one data write
    def write_cmd(self, c):
        LOG.append('c%x' % c)
    def write_data(self, buf):
        LOG.append('d%d' % len(buf))

class SH1106_I2C(Display):
    def __init__(self, w, h, i2c, res=None, addr=0x3C, rotate=0):
        LOG.append('SH1106_I2C(%d,%d,res=%s,addr=%s,rotate=%d)' % (w, h, pn(res), hex(addr), rotate))
        self.renderbuf = bytearray(w * h // 8)  # robert-hh: the frame drawn into
        self.pages_to_update = 0  # the pages show() sends
    def flip(self, flag, update=True):
        LOG.append('flip(%s)' % flag)
    def show(self, full=False):
        m = self.pages_to_update
        LOG.append('show(%x)' % m if m else 'show')
        self.pages_to_update = 0

class SH1107_SPI(Display):
    def __init__(self, w, h, spi, dc, res=None, cs=None, rotate=0):
        LOG.append('SH1107_SPI(%d,%d,dc=%d,res=%s,cs=%s,rotate=%d)' % (w, h, dc.n, pn(res), pn(cs), rotate))
    def flip(self, flag, update=True):
        LOG.append('flip(%s)' % flag)

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
sys.modules['machine'] = machine
sys.modules['ssd1306'] = ssd1306
sys.modules['sh1106'] = sh1106
sys.modules['sh1107'] = sh1107
"""

SCENARIO = r"""
from teatally.hw import base as hw_base
from teatally.hw import pico as hw_pico

def choose(name):
    f = open(FLASH + '/board.txt', 'w')
    f.write(name + '\n')
    f.close()

try:
    for name in ('pico_ssd1306', 'pico_sh1106', 'waveshare_pico_oled_1_3', 'no_such_board',
                 'broken_layout', 'broken_syntax'):
        choose(name)
        del LOG[:]
        Pin.level = {}
        hw = hw_pico.setup(FLASH)
        print('==', name, hw.board_name, hw.layout, hw.flash_root == '', hw.board_error)
        print('setup', ' '.join(LOG))
        d = hw.display
        fast = hasattr(d, 'clear') and hasattr(d, 'bands')
        if fast:
            d.clear()
        print('fast', fast, getattr(d, 'pages_to_update', None))
        # show(): every page first, then only a changed one, then nothing
        del LOG[:]
        buf = hw_base.frame_bytes(d)
        d.show()
        if buf is not None:
            buf[3 * 128 + 5] = 1
        d.show()
        d.show()
        print('pages', ' '.join(LOG))
        gpios = [g for _, g in hw.board.BUTTONS]
        # nothing pressed: all pins high
        print('idle', [p() for p in hw.predicates])
        # press the second key: its pin is pulled to ground
        Pin.level = {gpios[1]: 0}
        print('press2', [p() for p in hw.predicates])
        del LOG[:]
        hw.set_flip(True)
        hw.set_flip(False)
        print('flip', ' '.join(LOG), hw.flipped)
        del LOG[:]
        hw.wdt_feed()
        hw.start_watchdog(20000)
        hw.start_watchdog(500)
        hw.wdt_feed()
        hw.wait(0)
        # a key edge (the pin's interrupt) ends a rest after its first sleep
        pin, edge, trigger = Pin.irqs[-1]
        hw.sleep_ms = lambda ms: (LOG.append('sleep%d' % ms), edge(pin))
        hw.wait(5000)
        print('irqs', len(Pin.irqs), trigger, hw.woken)
        hw.reset()
        print('misc', ' '.join(LOG), hw.watchdog_ms)
        keys = hw.make_keys()
        print('keys', keys.layout, len(keys._db))
    # the settings menu picked a board whose driver was never installed
    sys.modules.pop('sh1106')
    choose('pico_sh1106')
    hw = hw_pico.setup(FLASH)
    print('== nodriver', hw.board_name, hw.board_error)
    # ... and the default board's file is not on the device either
    import os
    os.remove(FLASH + '/boards/pico_ssd1306.py')
    sys.modules.pop('pico_ssd1306', None)
    hw = hw_pico.setup(FLASH)
    print('== nodefault', hw.board_name, hw.board_error)
    # nothing usable at all: a clear error
    for f in os.listdir(FLASH + '/boards'):
        os.remove(FLASH + '/boards/' + f)
    for m in ('waveshare_pico_oled_1_3', 'broken_layout', 'pico_sh1106'):
        sys.modules.pop(m, None)
    try:
        hw_pico.setup(FLASH)
    except RuntimeError as e:
        print('== nothing', e)
finally:
    for m in INSTALLED + ('pico_ssd1306', 'pico_sh1106', 'waveshare_pico_oled_1_3', 'broken_layout'):
        sys.modules.pop(m, None)
"""

BASE = r"""
from teatally.hw.base import Hardware
hw = Hardware()
print(hw.display, hw.predicates, hw.layout, repr(hw.flash_root), hw.board_name, hw.board_error)
hw.seed(1234)
a = [hw.rand(6) for _ in range(20)]
hw.seed(1234)
b = [hw.rand(6) for _ in range(20)]
print(a == b, min(a) >= 0, max(a) <= 5, len(set(a)) > 3)
print(all(0 <= hw.rand(1000003) < 1000003 for _ in range(50)))
try:
    hw.rand(0)
except ValueError:
    print('rand0 refused')
hw.start_watchdog(3000)
hw.wdt_feed()
hw.wait(0)
hw.set_flip(1)
hw.reset()
print(hw.watchdog_ms, hw.flipped, hw.reset_requested, type(hw.mem_free()) is int)
t = hw.ticks_ms()
print(type(t) is int and t >= 0)
try:
    hw.make_keys()
except ValueError:
    print('headless: no keys')
hw.predicates = (lambda: False, lambda: True)
hw.layout = '2key'
keys = hw.make_keys()
print(keys.layout, keys.held(), keys.poll(t))
"""


KEYPAD = r"""
from teatally.hw import pico as hw_pico
f = open(FLASH + '/board.txt', 'w')
f.write('pico_keypad\n')
f.close()
try:
    hw = hw_pico.setup(FLASH)
    print('head', hw.board_name, hw.layout, hw.board_error)
    print('setup', ' '.join(LOG[:8]))
    keys = hw.make_keys()
    print('keys', keys.layout, len(keys._db), len(Pin.irqs))
    print('rest', [Pin.low.get(g) for g in (10, 11, 12, 13)])
    # '6' (row 2, column 3) down: its column's interrupt, then a scan
    Pin.keys = [(11, 16)]
    pin, edge, trigger = Pin.irqs[-1]
    edge(pin)
    hw.scan()
    print('six', ''.join('1' if p() else '.' for p in hw.predicates), hw.woken, trigger)
    print('rest', [Pin.low.get(g) for g in (10, 11, 12, 13)])
    Pin.keys = []
    hw.scan()
    n = hw._matrix.scans
    hw.scan()
    hw.scan()
    print('idle', ''.join('1' if p() else '.' for p in hw.predicates), hw._matrix.scans - n)
    # D (BACK) held at start: safe mode
    Pin.keys = [(13, 17)]
    hw._matrix.edge()
    hw.display.text = lambda s, x, y, c: LOG.append('text ' + s)
    del LOG[:]
    print('safe', hw.safe_boot(), LOG[1])
    Pin.keys = []
finally:
    for m in INSTALLED + ('pico_keypad',):
        sys.modules.pop(m, None)
"""


def test_setup_builds_the_keypad_board(dual):
    """The keypad board: rows open-drain (driven low at rest), columns
    pulled up with an interrupt each; a key is read by the matrix scan only
    after an interrupt or while one is down; D held at start is the safe
    mode."""
    out = dual(FAKES + KEYPAD, setup_flash=_flash).splitlines()
    assert out[0] == "head pico_keypad keypad None"
    assert out[1] == (
        "setup Pin(10,3,value=0) Pin(11,3,value=0) Pin(12,3,value=0) Pin(13,3,value=0) "
        "Pin(14,0,2) Pin(15,0,2) Pin(16,0,2) Pin(17,0,2)"
    )
    assert out[2] == "keys keypad 16 4"
    assert out[3] == "rest [True, True, True, True]"
    assert out[4] == "six ......1......... True 12"
    assert out[5] == "rest [True, True, True, True]"
    assert out[6] == "idle ................ 0"  # no interrupt, no key down: no scan
    assert out[8] == "safe True text Safe mode: REPL"  # (after the console's line)


def _flash(d):
    (d / "boards").mkdir()
    for p in (ROOT / "boards").glob("*.py"):
        shutil.copy(p, d / "boards" / p.name)
    good = (ROOT / "boards" / "pico_ssd1306.py").read_text()
    (d / "boards" / "broken_layout.py").write_text(good.replace('LAYOUT = "4key"', 'LAYOUT = "3key"'))
    (d / "boards" / "broken_syntax.py").write_text("NAME = (\n")


def _sections(out):
    blocks = {}
    cur = None
    for line in out.splitlines():
        if line.startswith("== "):
            cur = line.split()[1]
            blocks[cur] = {"head": line}
        else:
            tag, _, rest = line.partition(" ")
            blocks[cur][tag] = rest
    return blocks


def test_setup_builds_each_board(dual):
    out = dual(FAKES + SCENARIO, setup_flash=_flash)
    b = _sections(out)

    s = b["pico_ssd1306"]
    assert s["head"] == "== pico_ssd1306 pico_ssd1306 4key True None"
    # four inputs with pull-ups, then the I2C0 bus on GP4/GP5 at 400 kHz and the 128x64 driver
    assert s["setup"] == (
        "Pin(10,0,2) Pin(11,0,2) Pin(12,0,2) Pin(13,0,2) "
        "I2C(0,sda=4,scl=5,freq=400000) SSD1306_I2C(128,64,addr=0x3c) fill(0) show"
    )
    assert s["idle"] == "[False, False, False, False]"
    assert s["press2"] == "[False, True, False, False]"  # active low: level 0 = pressed
    # micropython-lib's ssd1306 goes through hw.pages: every page at first,
    # then the window of the one changed byte (one I2C write of 0x00 and
    # SET_COL_ADDR 5 5, SET_PAGE_ADDR 3 3) and its byte, then nothing
    assert s["pages"] == "w3c:0.21.0.7f.22.0.7 d1024 w3c:0.21.5.5.22.3.3 d1"
    # after a rotate the panel's memory is unknown (the remap applies to data
    # written after it): the whole frame again
    assert s["flip"] == "rotate(1) w3c:0.21.0.7f.22.0.7 d1024 rotate(0) w3c:0.21.0.7f.22.0.7 d1024 False"
    # the watchdog starts once, clamped to the RP2040's 8 s limit; feeding before start is a no-op
    assert s["misc"] == "WDT(8000) feed sleep1 reset 8000"
    # every key's pin wakes the loop's rest on both edges; the wake is consumed
    assert s["irqs"].endswith(" 12 False")
    assert s["keys"] == "4key 4"
    # the driver exposes its frame: the display gets the cheap clear (hw_base.add_bands)
    assert s["fast"] == "True None"

    s = b["pico_sh1106"]
    assert s["setup"].endswith(
        "I2C(0,sda=4,scl=5,freq=400000) SH1106_I2C(128,64,res=None,addr=0x3c,rotate=0) sleep(False) fill(0) show"
    )
    # flip() without its own show, then every page marked for the driver's show()
    assert s["flip"] == "flip(True) show(ff) flip(False) show(ff) False"
    # its clear() marks all eight pages (hw.base); show() marks the pages that changed
    assert s["fast"] == "True 255"
    assert s["pages"] == "show(ff) show(8)"

    s = b["waveshare_pico_oled_1_3"]
    assert s["head"] == "== waveshare_pico_oled_1_3 waveshare_pico_oled_1_3 2key True None"
    assert s["setup"] == (
        "Pin(15,0,2) Pin(17,0,2) SPI(1,10000000,sck=10,mosi=11) "
        "SH1107_SPI(128,64,dc=8,res=12,cs=9,rotate=180) sleep(False) fill(0) show"
    )
    assert s["press2"] == "[False, True]"
    # peter-l5's flip() is relative to the rotate given at construction; this
    # fake keeps its frame to itself, so its own show() stays, asked for all pages
    assert s["flip"] == "flip(True) show(full) flip(False) show(full) False"
    assert s["pages"] == "show show show"
    assert s["keys"] == "2key 2"
    assert s["fast"] == "False None"  # (this fake keeps its frame to itself)

    # a typo in /board.txt: the default board, and the reason kept for the about screen
    s = b["no_such_board"]
    assert s["head"] == "== no_such_board pico_ssd1306 4key True no_such_board: no /boards/no_such_board.py"
    assert "SSD1306_I2C(128,64,addr=0x3c)" in s["setup"]
    assert b["broken_layout"]["head"] == "== broken_layout pico_ssd1306 4key True broken_layout: bad LAYOUT"
    assert b["nodriver"]["head"] == "== nodriver pico_ssd1306 pico_sh1106: driver sh1106 not installed"
    # broken_layout.py sorts before the Waveshare file but is skipped: its LAYOUT is bad
    # (... and so is broken_syntax.py; pico_keypad.py is the first that comes up)
    assert b["nodefault"]["head"] == "== nodefault pico_keypad pico_sh1106: driver sh1106 not installed"
    assert b["nothing"]["head"] == "== nothing pico_sh1106: no /boards/pico_sh1106.py"
    assert b["broken_syntax"]["head"] == "== broken_syntax pico_ssd1306 4key True broken_syntax: SyntaxError"


def test_hardware_base_defaults(dual):
    out = dual(BASE).splitlines()
    assert out[0] == "None () 4key '' none None"
    assert out[1] == "True True True True"  # seeded rand repeats, stays in range, varies
    assert out[2] == "True"
    assert out[3] == "rand0 refused"
    assert out[4].startswith("3000 True True True")
    assert out[5] == "True"
    assert out[6] == "headless: no keys"
    assert out[7] == "2key True -1"  # B held at start: held, but no event
