"""A running Pico stays reachable (issue 25): boot.py's watchdog keeper,
app.main() after an interrupt, the safe boot and the boot diagnostics.

The device is played by a fake ``machine`` with a virtual clock: a
watchdog that resets the chip when it is not fed in time (the reset is an
exception nothing in the firmware catches), timers that run as the clock
advances and stop at a soft reset, the WATCHDOG CTRL register that tells
whether a watchdog runs (``mem32``), pins, the I2C buses with a display
wired to some pins at some address, SoftI2C scans and the LED. boot.py and
main.py run from firmware/ as on the Pico: boot.py at every start and soft
reset, main.py only in the friendly REPL, both in the same globals. Every
scenario runs on both interpreters (``dual``).
"""

import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

FAKE_MACHINE = r"""
import sys
import framebuf

LOG = []
CTRL = 0x40058000  # RP2040 WATCHDOG CTRL


class Reset(BaseException):
    # the chip resets: no except clause of the firmware catches this
    pass


class Forever(BaseException):
    # the test's own limit: a loop nothing resets would run for ever
    pass


class Clock:
    now = 0
    ctrl_c_at = None  # when mpremote's (or a person's) Ctrl-C arrives


class Mem32:
    ctrl = 0

    def __getitem__(self, addr):
        return self.ctrl if addr == CTRL else 0


mem32 = Mem32()


class Dog:
    deadline = None  # the virtual ms at which the chip resets; None: not running
    timeout = 0


TIMERS = []


class Timer:
    def __init__(self, id=-1, period=1000, callback=None):
        self.period = period
        self.callback = callback
        self.due = Clock.now + period
        TIMERS.append(self)

    def deinit(self):
        if self in TIMERS:
            TIMERS.remove(self)


class WDT:
    def __init__(self, timeout=5000):
        # rp2: starts the watchdog, or re-arms the running one
        Dog.timeout = timeout
        Dog.deadline = Clock.now + timeout
        mem32.ctrl |= 1 << 30
        LOG.append('WDT(%d) at %d' % (timeout, Clock.now))

    def feed(self):
        if Dog.deadline is not None:
            Dog.deadline = Clock.now + Dog.timeout


def hard_reset():
    LOG.append('RESET at %d' % Clock.now)
    Dog.deadline = None
    mem32.ctrl = 0
    del TIMERS[:]
    Pin.pulls.clear()  # the pads as after a reset


def soft_reset():
    # Ctrl-D / mpremote: the timers stop, a running watchdog runs on
    del TIMERS[:]


def advance(ms):
    end = Clock.now + ms
    while True:
        t = None
        for x in TIMERS:
            if x.due <= end and (t is None or x.due < t.due):
                t = x
        d = Dog.deadline
        if d is not None and d <= end and (t is None or d < t.due):
            Clock.now = d
            hard_reset()
            raise Reset()
        if t is None:
            break
        Clock.now = t.due
        t.due += t.period
        t.callback(t)
    Clock.now = end
    if end > 200000:
        raise Forever()


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    level = {}  # gpio -> the level a key holds it at (pressed: 0)
    # gpio -> 'up', 'down' or None: the pad's pulls as the rp2 port sets
    # them; absent: 'down', the RP2040's pads after a reset
    pulls = {}
    led = []  # the LED's values, in order

    def __init__(self, n, mode=None, pull=None, value=None):
        self.n = n
        if mode is not None or pull is not None or value is not None:
            # rp2: any argument but the id configures the pin, its pulls
            # too (pull None: none)
            Pin.pulls[n] = {1: 'up', 2: 'down'}.get(pull)

    def value(self, v=None):
        if self.n == 'LED':
            Pin.led.append(v)
            return None
        # the main loop polls every key each pass: 5 ms of virtual time a poll
        advance(5)
        ctrl_c_due()
        return line(self.n)

    def init(self, *a, **k):
        pass

    IRQ_FALLING = 4
    IRQ_RISING = 8

    def irq(self, handler, trigger):
        pass  # the loop's rests end at their time here: nobody presses a key


WIRING = {}  # (sda, scl) -> the addresses that answer there


def line(n):
    # what pin n reads: a key held, a display module's bus (its pull-ups
    # hold both lines high), else the pad's own pull (an unconnected pin
    # with the reset's pull-down, or none, reads low)
    if n in Pin.level:
        return Pin.level[n]
    for pins in WIRING:
        if n in pins and WIRING[pins]:
            return 1
    return 1 if Pin.pulls.get(n, 'down') == 'up' else 0


class micropython:
    intr = 3  # kbd_intr's character: 3 (Ctrl-C) or -1 (off)


STDIN = []  # what waits on the console: a Ctrl-C that came while Ctrl-C was off


def ctrl_c_due():
    # mpremote's (or a person's) Ctrl-C, when its time has come: a
    # KeyboardInterrupt, or a character on the console while it is off
    if Clock.ctrl_c_at is not None and Clock.now >= Clock.ctrl_c_at:
        Clock.ctrl_c_at = None
        if micropython.intr == 3:
            raise KeyboardInterrupt
        STDIN.append('\x03')


class I2C:
    def __init__(self, bus_id, sda=None, scl=None, freq=0):
        self.pins = (sda.n, scl.n)
        # rp2: the I2C block takes the pins, with their pull-ups on
        Pin.pulls[sda.n] = Pin.pulls[scl.n] = 'up'

    def writeto(self, addr, buf):
        if addr not in WIRING.get(self.pins, ()):
            raise OSError(5)  # EIO: no ACK


class SoftI2C:
    # extmod's soft I2C on the virtual clock: pins in open drain, their
    # pulls untouched; each address of a scan sends a start (whose SCL must
    # rise: clock stretching, waited for up to ``timeout`` us), the address
    # byte and reads the ACK bit (SDA low: an ACK); between addresses the
    # event poll (a Ctrl-C)
    def __init__(self, scl=None, sda=None, freq=400000, timeout=50000):
        self.pins = (sda.n, scl.n)
        self.bit_us = 1000000 // freq
        self.timeout = timeout

    def scan(self):
        sda, scl = self.pins
        found = []
        us = 0
        for addr in range(0x08, 0x78):
            if not line(scl):
                us += self.timeout + self.bit_us // 2
            else:
                us += 10 * self.bit_us
                if not line(sda) or addr in WIRING.get(self.pins, ()):
                    found.append(addr)
            advance(us // 1000)
            us %= 1000
            ctrl_c_due()
        return found


class SSD1306_I2C(framebuf.FrameBuffer):
    # micropython-lib's ssd1306, as far as the firmware uses it
    def __init__(self, w, h, i2c, addr=0x3C):
        self.buffer = bytearray(w * h // 8)
        super().__init__(self.buffer, w, h, framebuf.MONO_VLSB)
        self.i2c = i2c
        self.addr = addr
        i2c.writeto(addr, b'\x00\xae')  # display off: the first command

    def write_cmd(self, c):
        self.i2c.writeto(self.addr, bytearray((0x80, c)))

    def write_data(self, buf):
        self.i2c.writeto(self.addr, b'\x40')

    def show(self, full=False):
        pass

    def rotate(self, r):
        pass

    def contrast(self, c):
        pass

    def poweroff(self):
        pass

    def poweron(self):
        pass

    def text(self, s, x, y, c=1):
        LOG.append('text(%s)' % s)
        super().text(s, x, y, c)


class SPI:
    def __init__(self, bus_id, baudrate=0, polarity=0, phase=0, sck=None, mosi=None):
        pass


class SH1107_SPI(framebuf.FrameBuffer):
    # peter-l5's sh1107, keeping its frame to itself
    def __init__(self, w, h, spi, dc, res=None, cs=None, rotate=0):
        super().__init__(bytearray(w * h // 8), w, h, framebuf.MONO_VLSB)

    def sleep(self, v):
        pass

    def show(self, full=False):
        pass

    def flip(self, flag, update=True):
        pass

    def text(self, s, x, y, c=1):
        LOG.append('text(%s)' % s)
        super().text(s, x, y, c)


class machine:
    pass


machine.mem32 = mem32
machine.Timer = Timer
machine.WDT = WDT
machine.Pin = Pin
machine.I2C = I2C
machine.SPI = SPI
machine.SoftI2C = SoftI2C
machine.idle = lambda: None
machine.reset = lambda: LOG.append('reset')


class ssd1306:
    pass


ssd1306.SSD1306_I2C = SSD1306_I2C


class sh1107:
    pass


sh1107.SH1107_SPI = SH1107_SPI
sys.modules['machine'] = machine
sys.modules['sh1107'] = sh1107
sys.modules['ssd1306'] = ssd1306

import os
from teatally import app
from teatally.hw import pico as hw_pico



def hardware():
    hw = hw_pico.start(FLASH)
    if hw is not None:
        hw.flash_root = FLASH  # (the Pico's flash is the root)
    return hw


app.hardware = hardware
# the loop's rest (hw.wait) on the virtual clock: a sleep is virtual time,
# and a Ctrl-C ends it as it ends time.sleep_ms on the Pico


def sleep_ms(self, ms):
    advance(ms)
    ctrl_c_due()


hw_pico.PicoHardware.sleep_ms = sleep_ms


def kbd_intr(c):
    micropython.intr = c


def ctrl_c_waiting():
    # (reads the console up to a waiting Ctrl-C, as hw.pico's does)
    while STDIN:
        if STDIN.pop(0) == '\x03':
            return True
    return False


hw_pico.kbd_intr = kbd_intr
hw_pico.ctrl_c_waiting = ctrl_c_waiting
hw_pico.PicoHardware.ticks_ms = lambda self: Clock.now


def boot_py():
    # at every start and soft reset: boot.py, in fresh globals (main.py's too)
    g = {'__name__': '__main__'}
    exec(BOOT, g)
    return g


def power_up(g=None):
    # boot.py, then main.py (friendly REPL) -> how it ended
    g = g or boot_py()
    try:
        exec(MAIN, g)
        return 'main returned'
    except KeyboardInterrupt:
        return 'KeyboardInterrupt: the REPL'
    except Reset:
        return 'reset'
    except Forever:
        return 'never reset'


def choose(name):
    f = open(FLASH + '/board.txt', 'w')
    f.write(name + '\n')
    f.close()


def done():
    for m in ('machine', 'ssd1306', 'sh1107', 'pico_ssd1306', 'pico_sh1106', 'waveshare_pico_oled_1_3'):
        sys.modules.pop(m, None)
    try:
        os.chdir(CWD)
    except OSError:
        pass  # (the VM's start folder)


CWD = os.getcwd()
os.chdir(FLASH)  # boot.py works in the flash's root, as on the Pico
WIRING[(4, 5)] = [0x3C]  # the default board as wired
"""

KEEPER = r"""
try:
    # power-up: no watchdog yet, so boot.py starts no keeper; the app runs
    # until mpremote's Ctrl-C 2 s later
    g = boot_py()
    print('keeper at power-up', g['keeper'])
    Clock.ctrl_c_at = 2000
    print(power_up(g), 'at', Clock.now, LOG)
    t0 = Clock.now
    # the REPL: a person types for 20 s, then five mpremote sessions of 8 s
    # each (a soft reset each; raw REPL: boot.py runs, main.py does not)
    advance(20000)
    for i in range(5):
        soft_reset()
        g = boot_py()
        advance(8000)
    print('after the interrupt', Clock.now - t0, 'ms without a reset', len(TIMERS), 'keeper')
    # Ctrl-D in the friendly REPL: soft reset, boot.py keeps the dog fed,
    # main.py starts the app, which stops the keeper once it feeds; then its
    # loop stops feeding (a hang): the watchdog resets the chip
    soft_reset()
    g = boot_py()
    print('keeper after a soft reset', g['keeper'] is not None)
    feed = hw_pico.PicoHardware.wdt_feed
    hw_pico.PicoHardware.wdt_feed = lambda self: None
    del LOG[:]
    t1 = Clock.now
    print(power_up(g), 'after', Clock.now - t1, 'ms', LOG)
    # from a power-up too: the app feeds... until it hangs
    Clock.now = 0
    del LOG[:]
    print(power_up(), 'at', Clock.now, LOG)
    hw_pico.PicoHardware.wdt_feed = feed
    # the app feeding as it should: 30 s without a reset, then a Ctrl-C
    Clock.now = 0
    Clock.ctrl_c_at = 30000
    del LOG[:]
    print(power_up(), 'at', Clock.now, LOG)
finally:
    done()
"""


def _flash(d):
    (d / "boards").mkdir()
    for p in (ROOT / "boards").glob("*.py"):
        shutil.copy(p, d / "boards" / p.name)


def _flash_i2c(d):
    # a device flashed with the two I2C boards (teatally flash copies the
    # chosen board's file; an SPI board would come up blind: no ACK on SPI)
    (d / "boards").mkdir()
    for name in ("pico_ssd1306", "pico_sh1106"):
        shutil.copy(ROOT / "boards" / (name + ".py"), d / "boards")


def scenario(body):
    """The fakes, firmware/boot.py and main.py (as source, as the Pico runs
    them), then the scenario ``body``."""
    fw = ROOT / "firmware"
    files = "BOOT = %r\nMAIN = %r\n" % ((fw / "boot.py").read_text(), (fw / "main.py").read_text())
    return files + FAKE_MACHINE + body


def test_repl_stays_usable_after_an_interrupt_and_a_hung_loop_is_still_reset(dual):
    out = dual(scenario(KEEPER), setup_flash=_flash).splitlines()
    assert out[0] == "keeper at power-up None"
    # Ctrl-C at 2 s: the REPL comes up; the app had started the 8 s watchdog
    assert re.fullmatch(r"KeyboardInterrupt: the REPL at 2000 \['WDT\(8000\) at \d+'\]", out[1])
    # 60 s of REPL and mpremote sessions with their soft resets: no reset;
    # the keeper of the last soft reset runs
    assert out[2] == "after the interrupt 60000 ms without a reset 1 keeper"
    assert out[3] == "keeper after a soft reset True"
    # the app armed the dog again and stopped boot.py's keeper; its loop
    # stopped feeding: reset 8 s after the app's last WDT
    m = re.fullmatch(r"reset after \d+ ms \['WDT\(8000\) at (\d+)', 'RESET at (\d+)'\]", out[4])
    assert m and int(m.group(2)) - int(m.group(1)) == 8000 and int(m.group(1)) >= 62000
    m = re.fullmatch(r"reset at (\d+) \['WDT\(8000\) at (\d+)', 'RESET at (\d+)'\]", out[5])
    assert m and int(m.group(3)) - int(m.group(2)) == 8000
    # fed as it should, the app runs 30 s until the Ctrl-C
    assert re.fullmatch(r"KeyboardInterrupt: the REPL at 30000 \['WDT\(8000\) at \d+'\]", out[6])


SAFE = r"""
try:
    Pin.level = {13: 0}  # BACK held at power-up
    print(power_up(), LOG, 'watchdog', mem32.ctrl)
    Pin.level = {12: 0}  # OK held: no safe mode
    Clock.ctrl_c_at = Clock.now + 500
    del LOG[:]
    print(power_up(), [x.split(' at')[0] for x in LOG])
    hard_reset()
    # the 2-key board: both keys, or only one
    choose('waveshare_pico_oled_1_3')
    for level in ({15: 0, 17: 0}, {17: 0}):
        Pin.level = level
        Clock.ctrl_c_at = Clock.now + 500
        del LOG[:]
        print(power_up(), [x.split(' at')[0] for x in LOG])
        hard_reset()
finally:
    done()
"""


def test_safe_boot_skips_the_app_and_never_starts_the_watchdog(dual):
    out = dual(scenario(SAFE), setup_flash=_flash).splitlines()
    # main.py returns to the REPL, the display says so, no watchdog
    assert out[0] == "Tea Tally: Safe mode: REPL (a key held at start); reset without it for the game."
    assert out[1] == "main returned ['text(Safe mode: REPL)'] watchdog 0"
    assert out[2] == "KeyboardInterrupt: the REPL ['WDT(8000)']"
    assert out[3] == "Tea Tally: Safe mode: REPL (a key held at start); reset without it for the game."
    assert out[4] == "main returned ['text(Safe mode: REPL)']"
    assert out[5] == "KeyboardInterrupt: the REPL ['WDT(8000)']"


DIAG = r"""
from teatally.hw import diagnose


def dark(label, wiring):
    WIRING.clear()
    WIRING.update(wiring)
    del LOG[:]
    Pin.led = []
    print('==', label)
    print('->', power_up(), 'watchdog', mem32.ctrl)
    f = open(FLASH + '/boot.log')
    print('log', f.read() == LAST[0])
    f.close()
    Pin.led = []  # (the last report's code, blinked by boot.py, was stopped as main.py started)
    advance(diagnose.BLINK_MS * 2 * len(diagnose.blink_pattern(BLINKS)))
    print('led', ''.join([str(v) for v in Pin.led]))
    soft_reset()  # (stops the blinking)


import builtins
LAST = ['']
say = builtins.print


def capture(*a, **k):
    # the report as the console gets it, to compare with /boot.log
    if a and str(a[0]).startswith('Tea Tally: no board'):
        LAST[0] = a[0]
    say(*a, **k)


diagnose.print = capture
try:
    BLINKS = 2
    dark('address', {(4, 5): [0x3D]})
    BLINKS = 3
    dark('swapped', {(5, 4): [0x3C]})
    dark('other pins', {(0, 1): [0x3C], (4, 5): [0x68]})
    BLINKS = 4
    dark('no display', {})
    BLINKS = 5
    sys.modules.pop('ssd1306')
    dark('no driver', {(4, 5): [0x3C]})
    sys.modules['ssd1306'] = ssd1306
    # mended: the game starts, boot.log goes
    Clock.ctrl_c_at = Clock.now + 300
    print('== mended', power_up(), 'boot.log' in os.listdir(FLASH))
finally:
    done()
"""


def _sections(out):
    got = {}
    name = None
    for line in out.splitlines():
        if line.startswith("== "):
            name = line[3:]
            got[name] = []
        else:
            got[name].append(line)
    return got


def test_a_dark_screen_is_explained_on_the_console_in_boot_log_and_by_the_led(dual):
    got = _sections(dual(scenario(DIAG), setup_flash=_flash_i2c))
    for name, blinks in (("address", 2), ("swapped", 3), ("other pins", 3), ("no display", 4), ("no driver", 5)):
        lines = got[name]
        assert lines[0] == "Tea Tally: no board came up; the app did not start (the REPL is yours).", name
        assert lines[1] == "Boards tried:"
        # main.py returns to the REPL with the watchdog off; boot.log holds
        # the same report; the LED blinks n times, pauses, again
        assert lines[-3:] == ["-> main returned watchdog 0", "log True", "led " + ("10" * blinks + "000000") * 2]
        assert lines[-4].startswith("LED: %d blinks, then a pause: " % blinks)
    a = got["address"]
    # every board file on the device is tried (default first), each says why
    assert a[2:4] == ["  pico_ssd1306: OSError", "  pico_sh1106: driver sh1106 not installed"]
    assert "I2C scan for pico_ssd1306 (it expects the display at 0x3C, SDA GP4 (pin 6) / SCL GP5 (pin 7)):" in a
    assert "  SDA GP4 (pin 6) / SCL GP5 (pin 7): 0x3D" in a
    assert ("=> The display answers at 0x3D, not at 0x3C as boards/pico_ssd1306.py says: set ADDR = 0x3D in "
            "boards/pico_ssd1306.py and flash again.") in a
    s = got["swapped"]
    assert "  SDA GP4 (pin 6) / SCL GP5 (pin 7): nothing" in s and "  SDA GP5 (pin 7) / SCL GP4 (pin 6): 0x3C" in s
    assert ("=> SDA and SCL are swapped: the display answers at 0x3C with SDA on GP5 (pin 7) and SCL on GP4 (pin 6); "
            "swap the two wires.") in s
    o = got["other pins"]
    assert "  SDA GP4 (pin 6) / SCL GP5 (pin 7): 0x68" in o and "  SDA GP0 (pin 1) / SCL GP1 (pin 2): 0x3C" in o
    assert ("=> The display answers at 0x3C on SDA GP0 (pin 1) / SCL GP1 (pin 2), not on SDA GP4 (pin 6) / SCL GP5 "
            "(pin 7) as boards/pico_ssd1306.py says: move the two wires there (or set SDA, SCL and BUS_ID in "
            "boards/pico_ssd1306.py).") in o
    n = got["no display"]
    assert "  (nothing answers on the other I2C pins)" in n
    assert n[-5].startswith("=> No display answers on any I2C pins: check the display's VCC (3V3(OUT), pin 36)")
    d = got["no driver"]
    assert "  pico_ssd1306: driver ssd1306 not installed" in d
    assert d[-5] == ("=> The display answers at 0x3C on SDA GP4 (pin 6) / SCL GP5 (pin 7) as boards/pico_ssd1306.py "
                     "says; it failed otherwise: driver ssd1306 not installed.")
    # mended: the game starts, and the old boot.log goes
    assert got["mended KeyboardInterrupt: the REPL False"] == []


DARK_TIMED = r"""
try:
    # power-up with no display answering anywhere, the pads as a reset
    # leaves them (pull-downs): the report, when it is written
    WIRING.clear()
    t0 = Clock.now
    print(power_up(), 'after', Clock.now - t0, 'ms')
    f = open(FLASH + '/boot.log')
    print(f.read().splitlines()[-1])
    f.close()
    # again, a session's Ctrl-C 200 ms after power-up, in the middle of the
    # scan: the report is written whole, the LED blinks, and the Ctrl-C
    # waits on the console for the REPL (mpremote's Ctrl-A after it: the raw REPL)
    hard_reset()
    os.remove(FLASH + '/boot.log')
    Pin.led = []
    t0 = Clock.now
    Clock.ctrl_c_at = t0 + 200
    print(power_up(), 'after', Clock.now - t0, 'ms', 'Ctrl-C on:', micropython.intr == 3, 'console:', STDIN)
    f = open(FLASH + '/boot.log')
    print(f.read().splitlines()[-1])
    f.close()
    advance(2000)
    print('led', ''.join([str(v) for v in Pin.led]))
finally:
    done()
"""

# power-up to main.py's first line, as the fake machine's own set-up does it
# (boot.py is in DARK_TIMED's power_up): the baseline of the fuel measure
IDLE = "try:\n    pass\nfinally:\n    done()\n"


def test_a_dark_screen_is_explained_within_5_s_of_power_up(dual, mp, tmp_path):
    """The virtual clock counts the pins' reads, the buses' time and
    SoftI2C's waits; the computing is the VM's fuel for the power-up (boot.py,
    main.py, every board tried, the scan, the report) and for importing the
    app, at the bench's calibration times the real port's worst ratio
    (bench.PORT_RATIO_HIGH). Before: the scan waited 50 ms an address on the
    ~20 pin pairs that read low: 100.9 s of virtual time (114 s measured on
    the real port); a Ctrl-C in the middle cut the report off."""
    import json

    from teatally_host import bench

    out = dual(scenario(DARK_TIMED), setup_flash=_flash_i2c).splitlines()
    ends = [i for i, line in enumerate(out) if line.startswith("main returned")]
    m = re.fullmatch(r"main returned after (\d+) ms", out[ends[0]])
    waited = int(m.group(1))
    led = "LED: 4 blinks, then a pause: no display answers (README, \"Putting it on a Pico\")."
    assert out[ends[0] - 1] == out[ends[0] + 1] == led  # on the console, in boot.log
    # a Ctrl-C in the middle: the same report, whole, in boot.log and on the
    # console; Ctrl-C on again after it, the LED blinking
    assert out[ends[0] + 2 : ends[1]] == out[: ends[0]]
    assert re.fullmatch(r"main returned after \d+ ms Ctrl-C on: True console: \['\\x03'\]", out[ends[1]]), out
    assert out[ends[1] + 1] == led
    assert out[ends[1] + 2] == "led " + "10" * 4 + "00"
    # the computing, on the VM
    _flash_i2c(tmp_path)
    fuel = mp(scenario(DARK_TIMED.split("    # again")[0] + "finally:\n    done()\n"), flash_dir=tmp_path).fuel_used
    base = mp(scenario(IDLE), flash_dir=tmp_path).fuel_used
    imports = mp("from teatally import app\nfrom teatally.hw import pico, diagnose\n").fuel_used
    imports -= mp("pass\n").fuel_used
    per_us = json.loads((ROOT / "bench" / "results.json").read_text())["fuel_per_pico_us"]
    computing = (fuel - base + imports) / per_us / 1000 * bench.PORT_RATIO_HIGH
    print("dark screen report: %d ms waited + %.0f ms computing" % (waited, computing))
    assert waited + computing < 5000, (waited, computing)


LED_SESSION = r"""
from teatally.hw import diagnose


def leds(ms):
    Pin.led = []
    advance(ms)
    return ''.join([str(v) for v in Pin.led])


try:
    WIRING.clear()  # no display
    print(power_up(), leds(5600))
    # a session: mpremote's soft reset stops the report's timer; boot.py
    # blinks the code of /boot.log again, through the session and at the
    # REPL after it (the next soft reset: again)
    soft_reset()
    g = boot_py()
    print('session', leds(5600))
    soft_reset()
    g = boot_py()
    print('next session', leds(5600))
    # teatally flash and pull run boot.py again in the session's globals:
    # still one blinking timer (and one keeper)
    exec(BOOT, g)
    print('boot.py run again', len(TIMERS), leds(5600))
    # mended, then Ctrl-D: boot.py blinks until main.py starts the app,
    # which stops it (the LED off) and removes boot.log: no more blinking
    WIRING[(4, 5)] = [0x3C]
    soft_reset()
    g = boot_py()
    Pin.led = []
    Clock.ctrl_c_at = Clock.now + 3000
    print(power_up(g), Pin.led, 'boot.log' in os.listdir(FLASH))
    soft_reset()
    g = boot_py()
    print('then', g['blinker'], leds(5600))
finally:
    done()
"""


def test_the_dark_screens_led_code_goes_on_in_every_session(dual):
    out = dual(scenario(LED_SESSION), setup_flash=_flash_i2c).splitlines()
    code = ("10" * 4 + "000000") * 2  # 4 blinks, a pause, again: 5.6 s
    assert out[-6] == "main returned " + code
    assert out[-5] == "session " + code
    assert out[-4] == "next session " + code
    assert out[-3] == "boot.py run again 1 " + code
    assert out[-2] == "KeyboardInterrupt: the REPL [0] False"
    assert out[-1] == "then None "
