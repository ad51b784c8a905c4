"""The idle work's last step plugs the holes its collection left
(app._plug_holes / app._plug): MicroPython's allocator starts each search
at the bottom of the heap after a collection, so the press to come would
walk past every hole below the free run. The plugs are throwaway one-block
objects: they must fill the holes, be garbage (the next collection takes
them back), be counted in app.HEAP for the bench, and never leave less
than PLUG_KEEP bytes free.

MicroPython only (id() is an address there): the scenarios run on the VM;
on CPython the step does nothing.
"""

from teatally import app


# Small functions, results kept in R: a frame of its own per step keeps
# stale stack slots from holding garbage across the figures.
SCENARIO = r"""
import gc
from teatally import app

LIVE = []
R = []

def ballast():
    # one-block floats kept until 64 land side by side: every hole below the
    # free run is filled for good, so the holes made next are the lowest
    b = [None] * 4000
    LIVE.append(b)
    run = last = i = 0
    while run < 64:
        b[i] = 0.5 + i
        run = run + 1 if id(b[i]) - last == 16 else 0
        last = id(b[i])
        i += 1

def holes(n):
    # 2n floats side by side, every other one dropped: n one-block holes
    fl = [0.5 + i for i in range(2 * n)]
    for i in range(0, 2 * n, 2):
        fl[i] = None
    LIVE.append(fl)
    R.append(max([id(f) for f in fl if f is not None]))

def below():
    # the next one-block object goes below the top of the holed floats
    return id(R[0] + 0.25) < R[0]

def control():
    gc.collect()
    print("control", below())

def plug():
    app._collect()
    R.append(gc.mem_alloc())
    R.append(app._plug_holes())
    R.append(gc.mem_alloc() - R[1])

def check():
    print("plugged", R[2], R[3] == app.HEAP[1] and R[3] > 0, not below(), app._plug_holes())

def back():
    gc.collect()
    print("back", gc.mem_alloc() - R[1] <= 0, app.HEAP[0] > app.PLUG_KEEP)

gc.collect()
ballast()
holes(200)
control()
plug()
check()
back()
"""

# Little free heap: the step leaves the holes as they are.
TIGHT = r"""
import gc
from teatally import app

EAT = [None] * 3000
N = [0]

def grab(n):
    # a try of its own: a small frame (see SCENARIO)
    try:
        EAT[N[0]] = bytearray(n)
    except MemoryError:
        return False
    N[0] += 1
    return True

def eat():
    # the free heap down to about 2 KB less than PLUG_KEEP, in pieces as
    # big as the free runs take
    size = 16384
    while size >= 16:
        if gc.mem_free() - size < app.PLUG_KEEP - 2048 or not grab(size):
            size //= 4

def main():
    app._collect()
    before = gc.mem_alloc()
    print(app._plug_holes(), app.HEAP[1], gc.mem_alloc() - before, app.HEAP[0] <= app.PLUG_KEEP)

gc.collect()
eat()
main()
"""


def test_plugs_fill_the_holes_and_are_garbage(mp):
    out = mp(SCENARIO).stdout.split("\n")
    # without plugs the next object goes into a hole
    assert out[0] == "control True"
    # plugged (counted exactly in HEAP[1]): the next object lands above the
    # holes; once per collection
    assert out[1] == "plugged True True True False"
    # a collection takes every plug back (no more in use than before them;
    # less where it also took garbage a stale stack slot had kept);
    # PLUG_KEEP bytes were free beside them
    assert out[2] == "back True True"


def test_no_plugs_when_the_heap_is_tight(mp):
    assert mp(TIGHT).stdout.split() == ["False", "0", "0", "True"]


def test_cpython_plugs_nothing():
    app._collect()
    assert app._plug_holes() is False
    assert app.HEAP[1] == 0
