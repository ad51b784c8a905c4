# Canonical JSON: sorted keys, non-ASCII kept as UTF-8, the same bytes on the
# Pico, the MicroPython VM and CPython. Two layouts:
# - dumps(o): ", " and ": " separators (state dumps, host tool output);
# - dumps(o, True): compact "," and ":" (the game record's lines: every byte
#   of a round line is flash, ROUND_LINE_BUDGET in journal.py).
#
# MicroPython's json.dumps has no sort_keys and its dicts keep no order, but
# it writes an OrderedDict in insertion order: the device rebuilds the tree
# with sorted OrderedDicts and lets the C writer do the rest (a round line
# is written on every commit; a writer in Python costs several times more).
# CPython's json escapes \b and \f and writes NaN and infinities its own
# way, so there its C writer is used when it gives the same bytes and _dump
# (the reference layout, byte for byte what MicroPython's writer gives)
# otherwise.

import json
import sys

_MP = sys.implementation.name == "micropython"
if _MP:
    from collections import OrderedDict
_SCALAR = (str, int, bool, type(None), float)
_WIDE = (", ", ": ")
_COMPACT = (",", ":")
_DIGITS = "0123456789"
_ESC = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_OUT = []  # the pieces of the text being written (reused: no growth each time)


def _str(s, out):
    out.append('"')
    if s.isalpha() or s.isdigit():
        out.append(s)  # nothing to escape
    else:
        for ch in s:
            e = _ESC.get(ch)
            if e is not None:
                out.append(e)
            elif ch < " ":
                out.append("\\u%04x" % ord(ch))
            else:
                out.append(ch)
    out.append('"')


def _dump(o, out, comma, colon):
    # The reference writer (CPython when its json differs): pieces into out,
    # joined once. Names of letters only and one-digit numbers are written
    # inline without a call.
    t = type(o)
    if t is dict:
        out.append("{")
        first = True
        for k in sorted(o) if len(o) > 1 else o:
            if first:
                first = False
            else:
                out.append(comma)
            if type(k) is str and k.isalpha():
                out.append('"')
                out.append(k)
                out.append('"')
            else:
                _str(k if type(k) is str else str(k), out)
            out.append(colon)
            v = o[k]
            t = type(v)
            if t is str and v.isalpha():
                out.append('"')
                out.append(v)
                out.append('"')
            elif t is int and 0 <= v <= 9:
                out.append(_DIGITS[v])
            else:
                _dump(v, out, comma, colon)
        out.append("}")
    elif t is list or t is tuple:
        out.append("[")
        first = True
        for v in o:
            if first:
                first = False
            else:
                out.append(comma)
            if type(v) is str and v.isalpha():
                out.append('"')
                out.append(v)
                out.append('"')
            else:
                _dump(v, out, comma, colon)
        out.append("]")
    elif t is str:
        _str(o, out)
    elif t is int:
        out.append(_DIGITS[o] if 0 <= o <= 9 else str(o))
    elif o is None:
        out.append("null")
    elif o is True:
        out.append("true")
    elif o is False:
        out.append("false")
    elif t is float:
        out.append(repr(o))
    elif isinstance(o, dict):
        _dump(dict(o), out, comma, colon)
    elif isinstance(o, (list, tuple)):
        _dump(list(o), out, comma, colon)
    elif isinstance(o, str):
        _str(str(o), out)
    elif isinstance(o, int):
        out.append(str(int(o)))
    else:
        raise TypeError("not JSON: %r" % (o,))


def _sorted(o):
    # MicroPython: the same tree with every dict an OrderedDict in key order
    t = type(o)
    if t is dict:
        d = OrderedDict()
        for k in sorted(o):
            v = o[k]
            d[k if type(k) is str else str(k)] = v if type(v) in _SCALAR else _sorted(v)
        return d
    if t is list or t is tuple:
        return [v if type(v) in _SCALAR else _sorted(v) for v in o]
    if t in _SCALAR:
        return o
    if isinstance(o, dict):
        return _sorted(dict(o))
    if isinstance(o, (list, tuple)):
        return _sorted(list(o))
    if isinstance(o, (int, str, float)):
        return o
    raise TypeError("not JSON: %r" % (o,))


def _cpython(o, sep):
    try:
        text = json.dumps(o, sort_keys=True, separators=sep, ensure_ascii=False, allow_nan=False)
    except ValueError:
        return None  # NaN or an infinity: repr() as MicroPython writes them
    if "\\b" in text or "\\f" in text:
        return None  # written \u0008 and \u000c here
    return text


def dumps(o, compact=False):
    """Canonical JSON text of o (dicts, lists, tuples, str, int, float, bool,
    None); compact: no spaces after "," and ":"."""
    sep = _COMPACT if compact else _WIDE
    if _MP:
        return json.dumps(_sorted(o), separators=sep)
    text = _cpython(o, sep)
    if text is not None:
        return text
    out = _OUT
    try:
        _dump(o, out, sep[0], sep[1])
        return "".join(out)
    finally:
        del out[:]
