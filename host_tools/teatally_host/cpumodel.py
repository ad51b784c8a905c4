"""Computing, modelled for the bench: wasmtime fuel on the VM turned into
RP2040 milliseconds, and the main loop's own cost.

- **Calibration** (CALIBRATION, calibrate): one published loop timed on a
  Pico gives fuel per Pico microsecond (fuel_per_pico_us, ms_est).
- **The port's ratio** (PORT_RATIO, cpu_ms): the firmware's mix runs
  1.28x that loop's estimate on the real rp2 port (-9 % / +19 % per press).
- **The loop** (LOOP, idle_cpu): a main-loop pass with no key event and a
  1 ms nap of the rest, at the real port's figures (0.68 ms a pass, about
  80 us a nap, measured on d436b82's firmware), scaled by what the VM
  measures of the firmware now against what it measured of d436b82's.
"""

import tempfile
from pathlib import Path

from teatally import journal
from teatally_host import gen
from teatally_host.benchvm import HEAP_PICO, Marks, run_guest

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


def fuel_per_pico_us(cal_fuel, iterations=CAL_ITERATIONS, pico_ms=CAL_PICO_MS):
    """Fuel per Pico microsecond from the calibration loop's fuel on the VM
    for `iterations` iterations (the Pico ran CAL_ITERATIONS in pico_ms)."""
    pico_us = pico_ms * 1000.0 * iterations / CAL_ITERATIONS
    return cal_fuel / pico_us


def ms_est(fuel, per_us):
    """Fuel -> estimated RP2040 milliseconds."""
    return fuel / per_us / 1000.0


PORT_RATIO = 1.28
PORT_RATIO_LOW = 1.16
PORT_RATIO_HIGH = 1.52
PORT_NOTE = ("computing = calibration-loop estimate x %.2f (real rp2 port, median of 334 presses without flash "
             "work; %.2f-%.2f over the 5th-95th percentile: about -9 %% / +19 %% per press)"
             % (PORT_RATIO, PORT_RATIO_LOW, PORT_RATIO_HIGH))


def cpu_ms(fuel, per_us):
    """Fuel -> estimated milliseconds of the real rp2 port."""
    return ms_est(fuel, per_us) * PORT_RATIO


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
        res = run_guest(CAL_GUEST, fw, flash, HEAP_PICO, marks).check()
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


# -- the loop ---------------------------------------------------------------------
# The main loop (app.run: App.step, App.idle_work, hw.wait(App.rest_ms()))
# costs the CPU twice: each pass (the keys polled, the screen timeout, the
# watchdog fed, the rest computed) and each 1 ms nap of the rest
# (hw.base.Hardware.wait: the Python loop around time.sleep_ms(1), and the
# SDK's timer work behind it, which the VM does not run).
#
# The real rp2 port measured both on d436b82's firmware (MicroPython v1.28.0
# RPI_PICO in an RP2040 emulator at 125 MHz, MICROPYTHON-ON-HOST.md
# "measured again"): a pass with no key event 0.68 ms, a nap about 80 us,
# idle CPU 7.95 %. The VM measured the same firmware's pass and nap in fuel
# (vm_pass_fuel, vm_nap_fuel, this module's IDLE_GUEST). The bench charges
# the firmware of now:
#
# - a pass: 0.68 ms x (its pass fuel now / d436b82's): the port's figure,
#   scaled by what changed; error as any computing, -9 % / +19 %
#   (PORT_RATIO_LOW / HIGH);
# - a nap: the SDK's part (80 us less d436b82's Python part at the port's
#   ratio) plus the Python part of now; error about +-10 % (the port gave
#   "about 80 us");
#
# and a key press one pass more than its own computing (waits.press_waits).
LOOP = {
    "pass_ms": 0.68,
    "nap_us": 80.0,
    "nap_error": 0.10,
    "idle_share": 0.0795,
    # the VM's fuel for d436b82's firmware (this module's IDLE_GUEST)
    "vm_pass_fuel": 235197,
    "vm_nap_fuel": 9841,
}
IDLE_S = 20
SLEEP_US = 5.0  # the bench's old guess at time.sleep_ms's C cost (model check only)
IDLE_GUEST = (
    """\
import host
import gc
import micropython
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
R = [0, 0, 0]
def boot():
    a = _app.App(Rest("/flash"))
    G.append(a)
    a.boot()
boot()
def one():
    a = G[0]
    a.step()
    a.idle_work()
    a.hw.wait(a.rest_ms())
def allocated():
    # bytes one pass asks of the heap (micropython.mem_total: frames
    # freed at once count too; they bring the next collection nearer), and
    # whether it runs with the heap locked
    one()
    R[0] = micropython.mem_total()
    one()
    R[1] = micropython.mem_total()
    R[2] = 1
    micropython.heap_lock()
    try:
        one()
    except MemoryError:
        R[2] = 0
    micropython.heap_unlock()
    return "%%d %%d" %% (R[1] - R[0], R[2])
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
    n = hw.sleeps
    host.call("m", "w0")
    hw.wait(1000)
    host.call("m", "w1")
    print("REST %%d %%d %%d" %% (passes, n, hw.sleeps - n))
def settle():
    # the boot's own work first (its drawing, its collection)
    a = G[0]
    for i in range(5):
        a.step()
        a.idle_work()
settle()
rest(%d)
print("ALLOC idle " + allocated())
G[0].hw.pins[0] = True
for i in range(30):
    G[0].hw.now += 1
    one()
print("ALLOC held " + allocated())
G[0].hw.pins[0] = False
"""
    % IDLE_S
)


def loop_costs(vm_pass_fuel, vm_nap_fuel, per_us, loop=LOOP):
    """The port-anchored cost of a pass (ms) and a nap (us) for the VM's
    fuel of the firmware now (see LOOP); without d436b82's fuel in LOOP,
    the port's figures as they are."""
    pass_ms, nap_us = loop["pass_ms"], loop["nap_us"]
    if loop["vm_pass_fuel"]:
        pass_ms = loop["pass_ms"] * vm_pass_fuel / loop["vm_pass_fuel"]
    if loop["vm_nap_fuel"]:
        nap_us = loop["nap_us"] + (cpu_ms(vm_nap_fuel, per_us) - cpu_ms(loop["vm_nap_fuel"], per_us)) * 1000.0
    return pass_ms, nap_us


def idle_cpu(fw, objs, per_us, guest=None):
    """The main loop with no key pressed for IDLE_S virtual seconds after a
    game's boot (objs on the flash): passes and naps a second, the CPU's
    busy share at the port-anchored costs (loop_costs), the VM's own
    estimate beside it, and the bytes a pass asks of the heap (idle, and
    with a key held) -> dict of idle_* and loop_* figures. ``guest``:
    IDLE_GUEST on another board (bench_keypad)."""
    marks = Marks()
    with tempfile.TemporaryDirectory() as flash:
        gen.write_record(objs, Path(flash) / journal.GAME, crc=True)
        res = run_guest(guest or IDLE_GUEST, fw, flash, HEAP_PICO, marks).check()
    m = marks.labelled()
    lines = res.stdout.splitlines()
    passes, sleeps, naps = (int(x) for x in [ln for ln in lines if ln.startswith("REST ")][0].split()[1:])
    alloc = {ln.split()[1]: [int(x) for x in ln.split()[2:]] for ln in lines if ln.startswith("ALLOC ")}
    nap_fuel = (m["w1"] - m["w0"]) / max(1, naps)
    pass_fuel = (m["r1"] - m["r0"] - sleeps * nap_fuel) / max(1, passes)
    pass_ms, nap_us = loop_costs(pass_fuel, nap_fuel, per_us)
    busy_ms = passes * pass_ms + sleeps * nap_us / 1000.0
    vm_ms = cpu_ms(m["r1"] - m["r0"], per_us) + sleeps * SLEEP_US / 1000.0
    return {"idle_cpu_share": round(busy_ms / (IDLE_S * 1000.0), 4), "idle_passes_per_s": passes / IDLE_S,
            "idle_sleeps_per_s": sleeps / IDLE_S,
            "idle_cpu_share_vm": round(vm_ms / (IDLE_S * 1000.0), 4),
            "idle_cpu_share_port": LOOP["idle_share"],
            "loop_pass_ms": round(pass_ms, 3), "loop_nap_us": round(nap_us, 1),
            "loop_pass_fuel": round(pass_fuel), "loop_nap_fuel": round(nap_fuel),
            "loop_pass_vm_ms": round(cpu_ms(pass_fuel, per_us), 3),
            "loop_nap_vm_us": round(cpu_ms(nap_fuel, per_us) * 1000.0 + SLEEP_US, 1),
            "loop_pass_port_ms": LOOP["pass_ms"], "loop_nap_port_us": LOOP["nap_us"],
            "loop_alloc_idle_bytes": alloc["idle"][0], "loop_alloc_held_bytes": alloc["held"][0],
            "loop_heap_locked_ok": bool(alloc["idle"][1] and alloc["held"][1])}
