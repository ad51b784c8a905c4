# Canonical JSON: sorted keys, non-ASCII kept as UTF-8, the same bytes on the
# Pico, the MicroPython VM and CPython. Two layouts:
# - dumps(o): ", " and ": " separators (state dumps, host tool output);
# - dumps(o, True): compact "," and ":" (the game record's lines: every byte
#   of a round line is flash, ROUND_LINE_BUDGET in journal.py).
#
# Both interpreters write with their json module's C code (a writer in
# Python costs several times more, and a round line is written on every
# commit). MicroPython's json has no sort_keys and its dicts keep no order,
# but it writes an OrderedDict in insertion order: the tree is rebuilt with
# sorted OrderedDicts. CPython's json writes \b and \f where MicroPython's
# writes \u0008 and \u000c; that is mended after. NaN and infinities are not
# JSON: refused on both (ValueError). Keys are str (others are str()-ed).

import json
import sys

_MP = sys.implementation.name == "micropython"
if _MP:
    from collections import OrderedDict
_SCALAR = (str, int, bool, type(None))
_WIDE = (", ", ": ")
_COMPACT = (",", ":")


# The tree is rebuilt by small functions, one per kind of node.
def _sorted(o):
    # MicroPython: the same tree with every dict an OrderedDict in key order
    t = type(o)
    if t is dict:
        return _sorted_dict(o) if o else o  # {} (an effect without answers) as it is
    if t is list or t is tuple:
        return _sorted_list(o)
    if t in _SCALAR:
        return o
    return _other(o)


def _sorted_dict(o):
    d = OrderedDict()
    keys = sorted(o)
    for i in range(len(keys)):
        k = keys[i]
        v = o[k]
        if type(v) not in _SCALAR:
            v = _sorted(v)
        if type(k) is not str:
            k = str(k)
        d[k] = v
    return d


def _sorted_list(o):
    out = list(o)
    for i in range(len(out)):
        if type(out[i]) not in _SCALAR:
            out[i] = _sorted(out[i])
    return out


def _other(o):
    # floats (finite only) and subclasses of dict, list, tuple, int, str
    if type(o) is float:
        if o != o or o - o != 0:
            raise ValueError("not JSON: %r" % o)
        return o
    if isinstance(o, dict):
        return _sorted_dict(dict(o))
    if isinstance(o, (list, tuple)):
        return _sorted_list(o)
    if isinstance(o, (int, str)):
        return o
    raise TypeError("not JSON: %r" % (o,))


def _escape(m):
    # one backslash escape of CPython's text, as MicroPython writes it
    c = m.group(1)
    return "\\u0008" if c == "b" else "\\u000c" if c == "f" else m.group(0)


def dumps(o, compact=False):
    """Canonical JSON text of o (dicts, lists, tuples, str, int, float, bool,
    None); compact: no spaces after "," and ":"."""
    if _MP:
        return json.dumps(_sorted(o), separators=_COMPACT if compact else _WIDE)
    return _host(o, _COMPACT if compact else _WIDE)


def _host(o, sep):
    text = json.dumps(o, sort_keys=True, separators=sep, ensure_ascii=False, allow_nan=False)
    if "\\b" in text or "\\f" in text:
        import re

        text = re.sub(r"\\(.)", _escape, text)  # escapes read left to right, in pairs
    return text
