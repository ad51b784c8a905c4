"""Buttons: debouncing, PRESS/LONG/REPEAT timing and the 2-key mapping.

Every case is a scripted pin timeline played against a virtual clock (1 ms
per step unless told), identical on CPython and MicroPython (`dual`). Times
printed are relative to the case's start, so the wrap-around case (ticks
crossing zero mid-hold) must print exactly what the plain case prints.
"""

HARNESS = r"""
from teatally import buttons as B
from teatally.compat import ticks_add, ticks_diff

PINS = [False, False, False, False]

def preds(n):
    return tuple((lambda i=i: PINS[i]) for i in range(n))

def run(name, layout, script, end, t0=0, step=1, pre=(), probe=(), **kw):
    # script: (t, pin, level); pin -1 = call swallow(). pre: pins held before Keys exists.
    # Order by time, keeping the given order within one ms (MicroPython's sort is not stable).
    script = [s[1] for s in sorted([((e[0], n), e) for n, e in enumerate(script)])]
    for i in range(4):
        PINS[i] = i in pre
    n = 4 if layout == '4key' else 2
    keys = B.Keys(preds(n), layout, now_ms=t0, **kw)
    out = []
    j = 0
    t = 0
    while t <= end:
        while j < len(script) and script[j][0] <= t:
            _, pin, level = script[j]
            if pin < 0:
                keys.swallow()
            else:
                PINS[pin] = level
            j += 1
        now = ticks_add(t0, t)
        ev = keys.poll(now)
        per_poll = 0
        while ev != B.NO_EVENT:
            per_poll += 1
            out.append('%d:%s' % (t, B.event_name(ev)))
            ev = keys.poll(now)
        if per_poll > 1 and step > 1:
            out.append('BURST')
        if t in probe:
            out.append('%d:held=%d,idle=%d' % (t, keys.held(), keys.idle_ms(now)))
        t += step
    print(name + ' | ' + ', '.join(out))

def tap(pin, t_down, t_up):
    return [(t_down, pin, True), (t_up, pin, False)]

def bouncy(pin, t, level):
    # contact chatter: a few fast toggles, then the real level from t+6 on
    return [(t, pin, level), (t + 1, pin, not level), (t + 2, pin, level),
            (t + 4, pin, not level), (t + 6, pin, level)]
"""

CASES = r"""
UP, DOWN, OK, BACK = 0, 1, 2, 3
A, Bk = 0, 1
NEAR_WRAP = ticks_add(0, -700)  # the tick counter wraps 700 ms after the start

run('short', '4key', tap(UP, 10, 110), 300, probe=(50, 300))
run('bouncy', '4key', bouncy(OK, 10, True) + bouncy(OK, 200, False), 400)
run('glitch', '4key', tap(DOWN, 10, 15) + tap(DOWN, 50, 69) + tap(DOWN, 100, 121), 200)
run('long_up', '4key', tap(UP, 10, 1500), 1700)
run('long_up_wrap', '4key', tap(UP, 10, 1500), 1700, t0=NEAR_WRAP)
run('long_down', '4key', tap(DOWN, 10, 900), 1000)
run('long_ok', '4key', tap(OK, 10, 2000), 2100)
run('long_back', '4key', tap(BACK, 10, 700), 800)
run('same_ms', '4key', tap(UP, 10, 100) + tap(BACK, 10, 100), 200)
run('boot_held', '4key', tap(UP, 100, 100) + tap(UP, 300, 400), 500, pre=(UP,))
run('swallow', '4key', [(10, UP, True), (100, -1, None), (200, UP, False)] + tap(UP, 300, 350), 400)
run('late_polls', '4key', tap(UP, 0, 2500), 2800, step=400)
run('custom_times', '4key', tap(DOWN, 0, 500), 600, long_ms=200, repeat_delay_ms=100, repeat_ms=50, debounce_ms=5)

run('2k_tap_a', '2key', tap(A, 10, 110), 200)
run('2k_hold_a', '2key', tap(A, 10, 1200), 1300)
run('2k_tap_b', '2key', tap(Bk, 10, 110), 200)
run('2k_back', '2key', tap(Bk, 10, 1000), 1100)
run('2k_long_back', '2key', tap(Bk, 10, 2000), 2100)
run('2k_chord_tap', '2key', [(10, A, True), (50, Bk, True), (200, A, False), (300, Bk, False)], 400)
run('2k_chord_same', '2key', tap(A, 10, 100) + tap(Bk, 10, 100), 200)
run('2k_chord_hold', '2key', tap(A, 10, 1100) + tap(Bk, 12, 1100), 1200)
run('2k_chord_hold_wrap', '2key', tap(A, 10, 1100) + tap(Bk, 12, 1100), 1200, t0=NEAR_WRAP)
run('2k_long_ok', '2key', tap(Bk, 10, 900) + tap(A, 800, 1000), 1100)
run('2k_b_joins_late', '2key', tap(A, 10, 900) + tap(Bk, 700, 1000) + tap(Bk, 1100, 1200), 1300)
run('2k_bouncy_a', '2key', bouncy(A, 10, True) + bouncy(A, 150, False), 300)
run('2k_boot_held', '2key', tap(Bk, 50, 50) + tap(A, 100, 150) + tap(A, 300, 350), 400, pre=(Bk,))

d = B.Debouncer(lambda: PINS[0], 20, 0)
PINS[0] = False
seq = []
STEPS = ((0, True), (5, True), (19, True), (20, True), (21, True),
         (30, False), (49, False), (50, False), (51, False))
for t, level in STEPS:
    PINS[0] = level
    changed = d.update(t)
    seq.append('%d:%d%d%d%d' % (t, changed, d.value, d.rose, d.fell))
print('debouncer | ' + ' '.join(seq))

for preds_n, layout in ((3, '4key'), (4, '2key'), (2, 'oops')):
    try:
        B.Keys(preds(preds_n), layout, now_ms=0)
        print('accepted', layout)
    except ValueError:
        print('rejected', preds_n, layout)
print(B.key_of(B.E_LONG | B.K_BACK), B.kind_of(B.E_REPEAT | B.K_DOWN) == B.E_REPEAT, B.event_name(B.NO_EVENT))
"""


_OUT = []


def _output(dual):
    # one scenario (both interpreters) serves all three tests
    if not _OUT:
        _OUT.append(dual(HARNESS + CASES))
    return _OUT[0]


def _parse(out):
    res = {}
    for line in out.splitlines():
        if " | " in line:
            name, evs = line.split(" | ", 1)
            res[name] = evs
    return res


def test_button_timelines(dual):
    r = _parse(_output(dual))
    # debounced press lands at 30 (10 + 20 ms); the PRESS comes on the debounced release
    assert r["short"] == "50:held=1,idle=20, 130:PRESS UP, 300:held=0,idle=170"
    # chatter on press and release counts once
    assert r["bouncy"] == "226:PRESS OK"
    # 5 ms and 19 ms spikes are no press; 21 ms (>= the 20 ms debounce) is one
    assert r["glitch"] == "141:PRESS DOWN"
    # LONG at press+600 (630), first REPEAT 250 later, then every 150; no PRESS on release
    up = "630:LONG UP, 880:REPEAT UP, 1030:REPEAT UP, 1180:REPEAT UP, 1330:REPEAT UP, 1480:REPEAT UP"
    assert r["long_up"] == up
    assert r["long_up_wrap"] == up  # ticks wrapped at 700 ms, mid-hold
    assert r["long_down"] == "630:LONG DOWN, 880:REPEAT DOWN"
    # OK and BACK never repeat
    assert r["long_ok"] == "630:LONG OK"
    assert r["long_back"] == "630:LONG BACK"
    # two events in one poll both come out, in key order
    assert r["same_ms"] == "120:PRESS UP, 120:PRESS BACK"
    # a key held since boot is ignored until released
    assert r["boot_held"] == "420:PRESS UP"
    assert r["swallow"] == "370:PRESS UP"
    # slow polls: at most one REPEAT per poll (no burst); the release at 2500 is
    # first sampled at 2800 and not yet debounced, so that poll still repeats
    assert r["late_polls"] == "1200:LONG UP, 1600:REPEAT UP, 2000:REPEAT UP, 2400:REPEAT UP, 2800:REPEAT UP"
    assert r["custom_times"] == "205:LONG DOWN, 305:REPEAT DOWN, 355:REPEAT DOWN, 405:REPEAT DOWN, 455:REPEAT DOWN"


def test_two_key_mapping_reaches_every_event(dual):
    r = _parse(_output(dual))
    assert r["2k_tap_a"] == "130:PRESS DOWN"
    assert r["2k_hold_a"] == "630:LONG DOWN, 880:REPEAT DOWN, 1030:REPEAT DOWN, 1180:REPEAT DOWN"
    assert r["2k_tap_b"] == "130:PRESS OK"
    assert r["2k_back"] == "1020:PRESS BACK"
    assert r["2k_long_back"] == "1530:LONG BACK"
    # chord: second key joins at 70 -> release of either key = PRESS UP; the other key's release is silent
    assert r["2k_chord_tap"] == "220:PRESS UP"
    assert r["2k_chord_same"] == "120:PRESS UP"
    # chord timer starts when the second key joined (32)
    assert r["2k_chord_hold"] == "632:LONG UP, 882:REPEAT UP, 1032:REPEAT UP"
    assert r["2k_chord_hold_wrap"] == r["2k_chord_hold"]
    assert r["2k_long_ok"] == "820:LONG OK"
    # B joining after A's LONG is ignored; the next gesture works normally
    assert r["2k_b_joins_late"] == "630:LONG DOWN, 880:REPEAT DOWN, 1220:PRESS OK"
    assert r["2k_bouncy_a"] == "176:PRESS DOWN"
    # B held through boot: ignored until released, then A works normally
    assert r["2k_boot_held"] == "170:PRESS DOWN, 370:PRESS DOWN"
    for kind in ("PRESS", "LONG"):
        for key in ("UP", "DOWN", "OK", "BACK"):
            assert any(k.startswith("2k") and "%s %s" % (kind, key) in v for k, v in r.items()), (kind, key)


def test_debouncer_and_api(dual):
    out = _output(dual)
    line = [x for x in out.splitlines() if x.startswith("debouncer | ")][0]
    # t:changed,value,rose,fell -- rose/fell last exactly one update
    assert line == "debouncer | 0:0000 5:0000 19:0000 20:1110 21:0100 30:0100 49:0100 50:1001 51:0000"
    assert "rejected 3 4key" in out and "rejected 4 2key" in out and "rejected 2 oops" in out
    assert out.rstrip().endswith("3 True -")


def test_polling_allocates_nothing(mp):
    """The main loop polls every wake-up: on MicroPython a poll (presses,
    releases, LONG, REPEAT, 2-key chords included) must not touch the heap."""
    out = mp(
        "import gc, micropython\n"
        "from teatally import buttons as B\n"
        "PINS = [False, False, False, False]\n"
        "def run(layout, n):\n"
        "    keys = B.Keys(tuple((lambda i=i: PINS[i]) for i in range(n)), layout, now_ms=0)\n"
        "    evs = 0\n"
        "    gc.collect()\n"
        "    a = gc.mem_alloc()\n"
        "    micropython.heap_lock()\n"  # any allocation now raises MemoryError
        "    try:\n"
        "        for t in range(3000):\n"
        "            PINS[0] = 100 <= t < 2000\n"
        "            PINS[1] = 2200 <= t < 2300 or 2400 <= t < 2900\n"
        "            if keys.poll(t) >= 0:\n"
        "                evs += 1\n"
        "    finally:\n"
        "        micropython.heap_unlock()\n"
        "    b = gc.mem_alloc()\n"
        "    print(layout, evs, b - a)\n"
        "run('4key', 4)\n"
        "run('2key', 2)\n"
    ).stdout
    # 4key: LONG UP + 7 REPEAT UP, then two DOWN taps; 2key: LONG DOWN + 7 REPEAT DOWN, two OK taps
    assert out == "4key 10 0\n2key 10 0\n"
