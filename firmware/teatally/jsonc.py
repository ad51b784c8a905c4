# Canonical JSON: sorted keys, ", " and ": " separators, non-ASCII kept as UTF-8.
# MicroPython's json.dumps has no sort_keys and dicts keep no order, so every
# record line and every state dump goes through here; the bytes are then the
# same on the Pico, the MicroPython VM and CPython.

_ESC = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _str(s, out):
    out.append('"')
    for ch in s:
        e = _ESC.get(ch)
        if e is not None:
            out.append(e)
        elif ord(ch) < 0x20:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')


def _dump(o, out):
    if o is None:
        out.append("null")
    elif o is True:
        out.append("true")
    elif o is False:
        out.append("false")
    elif isinstance(o, int):
        out.append(str(o))
    elif isinstance(o, str):
        _str(o, out)
    elif isinstance(o, dict):
        out.append("{")
        first = True
        for k in sorted(o):
            if not first:
                out.append(", ")
            first = False
            _str(str(k), out)
            out.append(": ")
            _dump(o[k], out)
        out.append("}")
    elif isinstance(o, (list, tuple)):
        out.append("[")
        for i, v in enumerate(o):
            if i:
                out.append(", ")
            _dump(v, out)
        out.append("]")
    elif isinstance(o, float):
        out.append(repr(o))
    else:
        raise TypeError("not JSON: %r" % (o,))


def dumps(o):
    out = []
    _dump(o, out)
    return "".join(out)
