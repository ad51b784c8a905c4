# Tiny shims so the same source runs on MicroPython and CPython.
try:
    from micropython import const  # noqa: F401  (MicroPython folds these at compile time)
except ImportError:  # CPython

    def const(x):
        return x


try:
    from time import ticks_ms, ticks_diff, ticks_add  # noqa: F401
except ImportError:  # CPython: same wrap-around semantics as the Pico's 30-bit ticks
    import time as _time

    _MASK = (1 << 30) - 1

    def ticks_ms():
        return int(_time.monotonic() * 1000) & _MASK

    def ticks_add(t, d):
        return (t + d) & _MASK

    def ticks_diff(a, b):
        d = (a - b) & _MASK
        if d >= 1 << 29:
            d -= 1 << 30
        return d


try:
    from sys import print_exception  # noqa: F401  (MicroPython)
except ImportError:  # CPython

    def print_exception(exc, f):
        import traceback  # type: ignore[import-not-found]  # CPython only: never reached on the Pico

        traceback.print_exception(type(exc), exc, exc.__traceback__, file=f)
