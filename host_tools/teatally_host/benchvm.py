"""The bench's runs on the MicroPython VM: the firmware compiled as it goes
to the Pico (``build_firmware``), the guest that plays a game press by press
(PRESS_GUEST: the app on ``teatally.hw.virtual``'s board, its ``show()``s
and flash work marked) and the host side that reads the marks' fuel
(``Marks``, ``run_presses``, ``press_timeline``).

CPU is wasmtime *fuel* (a deterministic count of executed wasm
instructions): the guest calls ``host.call(...)`` and the host reads the
store's fuel (``mpvm.FuelMeter``); ``teatally_host.cpumodel`` turns it into
RP2040 time. This module models nothing itself: it is the plumbing the
models (busmodel, cpumodel, flashmodel) read from."""

import json
import subprocess
import tempfile
from pathlib import Path

from teatally import jsonc
from teatally_host import cmd_flash, mpvm

ROOT = Path(__file__).resolve().parents[2]
BENCH_DIR = ROOT / "bench"

# The stock RPI_PICO firmware has about 192 KB of heap; a game must complete
# with three quarters of it (room for what the real port holds that the VM
# does not: the C stack's objects, the USB and file system buffers).
HEAP_PICO = 192 * 1024  # the CPU run: the presses as a player meets them
HEAP_CAP = 144 * 1024  # the heap run: the game must complete here
HEAP_ROOMY = 512 * 1024  # only to measure a game that failed at HEAP_CAP

MARK_CAP = 32  # host replies are short; the guest allocates this per call


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


def run_guest(script, fw, flash, heap, marks, fuel=mpvm.DEFAULT_FUEL):
    res = mpvm.run(
        script, flash_dir=str(flash), heap=heap, fuel=fuel, host=marks.host(), firmware=fw, result_cap=MARK_CAP,
        meter=marks.meter,
    )
    return res



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
        res = run_guest(prelude + guest, fw, flash, heap, marks)
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
