"""Static checks: ruff on the whole tree, mypy on firmware/ as the Pico sees it.

How the Pico view is built (and why a plain ``mypy`` is not enough):
the rp2 board stubs (micropython-rp2-rpi-pico-stubs) install loose ``.pyi``
modules (machine, framebuf, micropython, time, ...) at the top of
site-packages, where mypy never looks (it only finds PEP 561 packages there),
and micropython-stdlib-stubs is a reduced *typeshed* whose builtins and os are
still CPython's: ``"x".ljust(3)``, ``(5).bit_length()`` and ``os.replace`` all
type-check against it. So this module assembles a custom typeshed under
``.mypy_cache/pico-typeshed`` (gitignored): the stdlib stubs, with the board
stubs laid over them as stdlib modules (so ``time`` is the rp2 ``time``: no
``monotonic``), and with the members MicroPython 1.27 lacks cut out of
``builtins`` (str, bytes, bytearray, int, float) and ``os``. mypy then runs
with ``--custom-typeshed-dir`` and the rest of ``[tool.mypy]`` in
pyproject.toml. ``python tests/test_static.py`` does the same by hand.

What it can catch: undefined names, imports the Pico has not got
(dataclasses, functools, ...: they are not in the stubs), module attributes
and methods MicroPython lacks -- wherever mypy knows the type. The firmware
is untyped, so a value that comes in as a parameter is ``Any`` and is not
checked; literals, locals built from them, and module attributes are.
"""

import ast
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
TYPESHED = ROOT / ".mypy_cache" / "pico-typeshed"
RP2_STUBS_DIST = "micropython_rp2_rpi_pico_stubs-"

# What MicroPython 1.27 has, per builtin type (non-dunder names only). Taken
# from dir() in the MicroPython VM the tests run (the same py/ core as the
# Pico); test_pico_builtins_match_the_vm keeps this honest.
PICO_BUILTINS = {
    "str": (
        "center count encode endswith find format index isalpha isdigit islower isspace isupper join lower "
        "lstrip partition replace rfind rindex rpartition rsplit rstrip split splitlines startswith strip upper"
    ),
    "bytes": (
        "center count decode endswith find format fromhex hex index isalpha isdigit islower isspace isupper join "
        "lower lstrip partition replace rfind rindex rpartition rsplit rstrip split splitlines startswith strip upper"
    ),
    "bytearray": (
        "append center count decode endswith extend find format fromhex hex index isalpha isdigit islower isspace "
        "isupper join lower lstrip partition replace rfind rindex rpartition rsplit rstrip split splitlines "
        "startswith strip upper"
    ),
    "int": "from_bytes to_bytes",
    "float": "",
}
# Kept in the stubs though the Pico lacks them: abstract in a base class
# (MutableSequence), so cutting them would make the type uninstantiable.
STUB_NEEDS = {"bytearray": "insert"}
# The rp2 port's os module (extmod/modos.c with the rp2 options: VFS with
# LittleFS2 and FAT, uname, urandom, dupterm). The WASI VM's os differs
# (getenv, VfsPosix), so this one is not taken from the VM.
PICO_OS = (
    "sep chdir getcwd listdir ilistdir mkdir remove rename rmdir unlink stat statvfs sync uname urandom "
    "dupterm dupterm_notify mount umount VfsFat VfsLfs2"
).split()


def _site_packages():
    return Path(sysconfig.get_paths()["purelib"])


def _board_stub_files(site):
    """The files the rp2 board-stub wheel installed, from its RECORD."""
    (dist,) = [p for p in site.iterdir() if p.name.startswith(RP2_STUBS_DIST) and p.name.endswith(".dist-info")]
    names = []
    for line in (dist / "RECORD").read_text().splitlines():
        name = line.split(",")[0]
        if name.endswith(".pyi") and name != "__builtins__.pyi":
            names.append(name)
    return names


def _drop_lines(src, nodes, keep):
    """Delete the public defs/assignments among ``nodes`` not named in ``keep``.

    Works on line ranges (decorators included) so the rest of the stub, with
    its comments and ``# type: ignore``s, is left exactly as it was.
    """
    cut = []

    def visit(body):
        for node in body:
            if isinstance(node, ast.If):
                visit(node.body)
                visit(node.orelse)
                continue
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = node.name
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                name = node.target.id
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                name = node.targets[0].id
            else:
                continue
            if name.startswith("_") or name in keep:
                continue
            first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            cut.append((first, node.end_lineno))

    visit(nodes)
    lines = src.splitlines(keepends=True)
    for first, last in sorted(cut, reverse=True):
        # A block left empty would be a syntax error: leave a placeholder.
        lines[first - 1 : last] = ["\n"] * (last - first) + [_indent(lines[first - 1]) + "...\n"]
    return "".join(lines)


def _indent(line):
    return line[: len(line) - len(line.lstrip())]


def _prune_builtins(src):
    tree = ast.parse(src)
    for node in reversed(tree.body):  # bottom-up, so earlier line numbers stay valid
        if isinstance(node, ast.ClassDef) and node.name in PICO_BUILTINS:
            keep = set(PICO_BUILTINS[node.name].split()) | set(STUB_NEEDS.get(node.name, "").split())
            body = [n for n in node.body if not (isinstance(n, ast.FunctionDef) and n.name.startswith("__"))]
            src = _drop_lines(src, body, keep)
    return src


def _prune_os(src):
    return _drop_lines(src, ast.parse(src).body, set(PICO_OS))


def _write_if_changed(path, text):
    # Unchanged files keep their mtime, so mypy's cache stays warm.
    if path.exists() and path.read_text() == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def build_pico_typeshed(dest=TYPESHED):
    site = _site_packages()
    src_stdlib = site / "stdlib"
    assert (src_stdlib / "VERSIONS").exists(), "micropython-stdlib-stubs is not installed in this venv"
    files = {}
    for path in src_stdlib.rglob("*.pyi"):
        files[path.relative_to(src_stdlib).as_posix()] = path.read_text()
    board = _board_stub_files(site)
    for name in board:
        files[name] = (site / name).read_text()
    files["builtins.pyi"] = _prune_builtins(files["builtins.pyi"])
    files["os/__init__.pyi"] = _prune_os(files["os/__init__.pyi"])

    versions = (src_stdlib / "VERSIONS").read_text()
    listed = set(re.findall(r"^([\w.]+):", versions, re.M))
    tops = sorted({n.split("/")[0].removesuffix(".pyi") for n in board} - listed)
    versions += "# MicroPython rp2 board modules (added by tests/test_static.py)\n"
    versions += "".join("%s: 3.0-\n" % t for t in tops)
    files["VERSIONS"] = versions

    for rel, text in files.items():
        _write_if_changed(dest / "stdlib" / rel, text)
    for path in (dest / "stdlib").rglob("*"):  # left over from other stub versions
        if path.is_file() and path.relative_to(dest / "stdlib").as_posix() not in files:
            path.unlink()
    # mypy wants typeshed's stubs/mypy-extensions next to stdlib/.
    ext = site / "stubs" / "mypy-extensions" / "mypy_extensions.pyi"
    _write_if_changed(dest / "stubs" / "mypy-extensions" / "mypy_extensions.pyi", ext.read_text())
    return dest


def run_mypy(*targets):
    typeshed = build_pico_typeshed()
    cmd = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml")]
    cmd += ["--custom-typeshed-dir", str(typeshed), *map(str, targets)]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)


def test_ruff():
    res = subprocess.run([str(BIN / "ruff"), "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr


def test_mypy_firmware():
    # No targets: `files` in [tool.mypy] names firmware/.
    res = run_mypy()
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Success" in res.stdout


# A probe module, checked with the same config and typeshed: each line marked
# BAD must be reported, and nothing else. The good lines are the Pico
# spellings of the same things, so the typeshed is not simply missing them.
PROBE = """\
import os
import time
import framebuf
import machine
from micropython import const
from teatally.compat import ticks_ms, ticks_diff

_N = const(3)
os.rename("a", "b")
os.replace("a", "b")  # BAD attr-defined
os.stat("a")
os.makedirs("a")  # BAD attr-defined
t = time.ticks_ms()
time.monotonic()  # BAD attr-defined
ticks_diff(ticks_ms(), t)
s = "x"
s = "%-3s" % s
s.ljust(3)  # BAD attr-defined
"x".zfill(3)  # BAD attr-defined
"x".isalnum()  # BAD attr-defined
n = 5
n.to_bytes(2, "big")
n.bit_length()  # BAD attr-defined
buf = bytearray(128 * 8)
fb = framebuf.FrameBuffer(buf, 128, 8, framebuf.MONO_VLSB)
fb.text("hi", 0, 0, 1)
fb.ellipse(4, 4, 2, 2, 1)
fb.textwidth("hi")  # BAD attr-defined
machine.Pin(25, machine.Pin.OUT).value(1)
machine.Pin(25).toggle()
machine.Pin(25).blink()  # BAD attr-defined
print(undefined_flamingo)  # BAD name-defined
import dataclasses  # BAD import-not-found


class Pile:
    __slots__ = ("tarts", "rabbits")


p = Pile()
p.tarts = 3
print(p.rabbits + 1)
p.rabbit = 1  # BAD attr-defined
try:
    from time import ticks_us
except ImportError:  # fallbacks belong in teatally.compat; anywhere else they are checked
    ticks_us = time.perf_counter_ns  # BAD attr-defined
"""


def test_mypy_flags_what_the_pico_lacks(tmp_path):
    probe = tmp_path / "pico_probe.py"
    probe.write_text(PROBE)
    res = run_mypy(probe)
    assert res.returncode == 1, res.stdout + res.stderr
    got = set()
    for line in res.stdout.splitlines():
        m = re.match(r".*pico_probe\.py:(\d+): error: .*\[([\w-]+)\]$", line)
        if m:
            got.add((int(m.group(1)), m.group(2)))
    want = set()
    for i, line in enumerate(PROBE.splitlines(), 1):
        if "# BAD " in line:
            want.add((i, line.split("# BAD ")[1]))
    assert got == want, res.stdout


def _fstrings(source, name):
    return ["%s:%d" % (name, n.lineno) for n in ast.walk(ast.parse(source)) if isinstance(n, ast.JoinedStr)]


def test_firmware_has_no_fstrings():
    # The firmware rule is % formatting only (ruff has no rule for it).
    assert _fstrings('x = 1\ns = "%d" % x\nt = f"{x}"\n', "probe") == ["probe:3"]
    hits = []
    for path in sorted((ROOT / "firmware").rglob("*.py")):
        hits += _fstrings(path.read_text(), str(path.relative_to(ROOT)))
    assert hits == []


def _methods(path):
    out = {}
    for cls in ast.parse(path.read_text()).body:
        if isinstance(cls, ast.ClassDef) and cls.name in PICO_BUILTINS:
            out[cls.name] = {n.name for n in ast.walk(cls) if isinstance(n, ast.FunctionDef)}
    return out


def test_typeshed_is_pruned_exactly():
    # What the Pico has stays, what it lacks goes, the dunders are untouched.
    build_pico_typeshed()
    before = _methods(_site_packages() / "stdlib" / "builtins.pyi")
    after = _methods(TYPESHED / "stdlib" / "builtins.pyi")
    assert set(after) == set(PICO_BUILTINS)
    for name, keep in PICO_BUILTINS.items():
        keep = set(keep.split()) | set(STUB_NEEDS.get(name, "").split())
        dunders = {m for m in before[name] if m.startswith("__")}
        assert after[name] == dunders | (before[name] & keep), name
        assert "__add__" in after[name]
    os_stub = (TYPESHED / "stdlib" / "os" / "__init__.pyi").read_text()
    for name in ("rename", "remove", "stat", "listdir", "ilistdir", "mkdir", "statvfs"):
        assert re.search(r"^\s*def %s\(" % name, os_stub, re.M), name
    for name in ("replace", "makedirs", "fsync", "walk", "getpid"):
        assert not re.search(r"^\s*def %s\(" % name, os_stub, re.M), name


def test_pico_builtins_match_the_vm(mp):
    script = "".join(
        "print(%r, ' '.join(sorted(n for n in dir(%s) if not n.startswith('__'))))\n" % (name, name)
        for name in PICO_BUILTINS
    )
    res = mp(script)
    assert res.code == 0, res.stderr
    got = dict(line.split(" ", 1) if " " in line else (line, "") for line in res.stdout.splitlines())
    assert got == {k: " ".join(sorted(v.split())) for k, v in PICO_BUILTINS.items()}


if __name__ == "__main__":  # by hand: python tests/test_static.py [paths]
    r = run_mypy(*sys.argv[1:])
    sys.stdout.write(r.stdout + r.stderr)
    sys.exit(r.returncode)
