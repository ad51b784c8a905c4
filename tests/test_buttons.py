"""Buttons: debouncing, PRESS/LONG/REPEAT timing and the 2-key mapping.

Every case is a scripted pin timeline played against a virtual clock (1 ms
per step unless told), identical on CPython and MicroPython (`dual`). Times
printed are relative to the case's start, so the wrap-around case (ticks
crossing zero mid-hold) must print exactly what the plain case prints.

The debounce is a leading edge with a 20 ms lockout (issue 23): the first
edge counts, UP/DOWN step at the press, OK/BACK at the release; the bounce
model (BOUNCE) checks it against contacts that chatter for up to 5 ms.
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
run('short_ok', '4key', tap(OK, 10, 110), 300, probe=(50, 300))
run('bouncy', '4key', bouncy(OK, 10, True) + bouncy(OK, 200, False), 400)
run('bouncy_up', '4key', bouncy(UP, 10, True) + bouncy(UP, 200, False), 400, probe=(25, 205))
run('glitch', '4key', tap(DOWN, 10, 15) + tap(DOWN, 50, 69) + tap(DOWN, 100, 121), 200, probe=(29, 30, 69, 70))
run('glitch_ok', '4key', tap(OK, 10, 15) + tap(OK, 50, 52), 100)
run('long_up', '4key', tap(UP, 10, 1500), 1700)
run('long_up_wrap', '4key', tap(UP, 10, 1500), 1700, t0=NEAR_WRAP)
run('long_down', '4key', tap(DOWN, 10, 900), 1000)
run('long_ok', '4key', tap(OK, 10, 2000), 2100)
run('long_back', '4key', tap(BACK, 10, 700), 800)
run('same_ms', '4key', tap(UP, 10, 100) + tap(BACK, 10, 100), 200)
run('same_ms_press', '4key', tap(UP, 10, 100) + tap(DOWN, 10, 100), 200)
run('same_ms_release', '4key', tap(OK, 10, 100) + tap(BACK, 10, 100), 200)
run('boot_held', '4key', tap(UP, 100, 100) + tap(UP, 300, 400), 500, pre=(UP,))
run('swallow', '4key', [(10, OK, True), (100, -1, None), (200, OK, False)] + tap(OK, 300, 350), 400)
run('swallow_up', '4key', [(10, UP, True), (100, -1, None), (900, UP, False)] + tap(UP, 1000, 1050), 1100)
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
STEPS = ((0, True), (3, False), (5, True), (19, False), (20, False), (21, False),
         (40, False), (41, True), (50, False), (61, False))
for t, level in STEPS:
    PINS[0] = level
    changed = d.update(t)
    seq.append('%d:%d%d%d%d' % (t, changed, d.value, d.rose, d.fell))
print('debouncer | ' + ' '.join(seq))

# a key held when the Debouncer is made is its settled level, not an edge;
# an update long after the last one (ticks far on, wrapped) is no lockout
PINS[0] = True
d = B.Debouncer(lambda: PINS[0], 20, 0)
seq = ['%d' % d.value]
T1 = ticks_add(0, 1 << 28)
T2 = ticks_add(ticks_add(T1, 1 << 28), 1 << 28)  # half the tick period after T1: ticks_diff < 0
for t, level in ((0, True), (1, False), (2, False), (T1, True), (T2, False)):
    PINS[0] = level
    seq.append('%d%d%d%d' % (d.update(t), d.value, d.rose, d.fell))
print('debouncer_start | ' + ' '.join(seq))

# a press during the release's lockout (40) shows only when it ends (50):
# idle_ms() <= 20 tells the loop to poll on although no key is held
keys = B.Keys(preds(4), '4key', now_ms=0)
seq = []
for t in range(80):
    PINS[0] = t < 30 or t >= 40
    ev = keys.poll(t)
    if ev >= 0 or t in (19, 20, 21, 45, 50, 70, 71):
        seq.append('%d:%s,%d%d' % (t, B.event_name(ev), keys.held(), keys.busy(t)))
PINS[0] = False
print('settling | ' + ' '.join(seq))

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
    # UP steps at the press (its first edge, 10); the release sends nothing
    assert r["short"] == "10:PRESS UP, 50:held=1,idle=40, 300:held=0,idle=190"
    # OK waits for the release, and goes at its first edge (110)
    assert r["short_ok"] == "50:held=1,idle=40, 110:PRESS OK, 300:held=0,idle=190"
    # chatter on press and release counts once, at the first edge of the release
    assert r["bouncy"] == "200:PRESS OK"
    assert r["bouncy_up"] == "10:PRESS UP, 25:held=1,idle=15, 205:held=0,idle=5"
    # taps shorter than the 20 ms lockout count once; their release is read when the lockout ends (30, 70)
    assert r["glitch"] == (
        "10:PRESS DOWN, 29:held=1,idle=19, 30:held=0,idle=0, 50:PRESS DOWN, 69:held=1,idle=19, 70:held=0,idle=0, "
        "100:PRESS DOWN"
    )
    assert r["glitch_ok"] == "30:PRESS OK, 70:PRESS OK"
    # PRESS at the press, LONG at press+600 (610), first REPEAT 250 later, then every 150
    up = "10:PRESS UP, 610:LONG UP, 860:REPEAT UP, 1010:REPEAT UP, 1160:REPEAT UP, 1310:REPEAT UP, 1460:REPEAT UP"
    assert r["long_up"] == up
    assert r["long_up_wrap"] == up  # ticks wrapped at 700 ms, mid-hold
    assert r["long_down"] == "10:PRESS DOWN, 610:LONG DOWN, 860:REPEAT DOWN"
    # OK and BACK never repeat, and a LONG leaves no PRESS at the release
    assert r["long_ok"] == "610:LONG OK"
    assert r["long_back"] == "610:LONG BACK"
    assert r["same_ms"] == "10:PRESS UP, 100:PRESS BACK"
    # two events in one poll both come out, in key order
    assert r["same_ms_press"] == "10:PRESS UP, 10:PRESS DOWN"
    assert r["same_ms_release"] == "100:PRESS OK, 100:PRESS BACK"
    # a key held since boot is ignored until released
    assert r["boot_held"] == "300:PRESS UP"
    assert r["swallow"] == "350:PRESS OK"
    # swallowed after its PRESS: no LONG, no REPEAT from that hold
    assert r["swallow_up"] == "10:PRESS UP, 1000:PRESS UP"
    # slow polls: at most one REPEAT per poll (no burst); the release at 2500
    # is first sampled at 2800, and counts there (no more REPEAT)
    assert r["late_polls"] == "0:PRESS UP, 800:LONG UP, 1200:REPEAT UP, 1600:REPEAT UP, 2000:REPEAT UP, 2400:REPEAT UP"
    assert r["custom_times"] == (
        "0:PRESS DOWN, 200:LONG DOWN, 300:REPEAT DOWN, 350:REPEAT DOWN, 400:REPEAT DOWN, 450:REPEAT DOWN"
    )


def test_two_key_mapping_reaches_every_event(dual):
    r = _parse(_output(dual))
    # A alone may still become the chord: its tap goes at the release
    assert r["2k_tap_a"] == "110:PRESS DOWN"
    assert r["2k_hold_a"] == "610:LONG DOWN, 860:REPEAT DOWN, 1010:REPEAT DOWN, 1160:REPEAT DOWN"
    assert r["2k_tap_b"] == "110:PRESS OK"
    assert r["2k_back"] == "1000:PRESS BACK"
    assert r["2k_long_back"] == "1510:LONG BACK"
    # chord: PRESS UP when the second key joins (50); the releases are silent
    assert r["2k_chord_tap"] == "50:PRESS UP"
    assert r["2k_chord_same"] == "10:PRESS UP"
    # chord timer starts when the second key joined (12)
    assert r["2k_chord_hold"] == "12:PRESS UP, 612:LONG UP, 862:REPEAT UP, 1012:REPEAT UP"
    assert r["2k_chord_hold_wrap"] == r["2k_chord_hold"]
    assert r["2k_long_ok"] == "800:LONG OK"  # at A's press
    # B joining after A's LONG is ignored; the next gesture works normally
    assert r["2k_b_joins_late"] == "610:LONG DOWN, 860:REPEAT DOWN, 1200:PRESS OK"
    assert r["2k_bouncy_a"] == "150:PRESS DOWN"
    # B held through boot: ignored until released, then A works normally
    assert r["2k_boot_held"] == "150:PRESS DOWN, 350:PRESS DOWN"
    for kind in ("PRESS", "LONG"):
        for key in ("UP", "DOWN", "OK", "BACK"):
            assert any(k.startswith("2k") and "%s %s" % (kind, key) in v for k, v in r.items()), (kind, key)


def test_debouncer_and_api(dual):
    out = _output(dual)
    line = [x for x in out.splitlines() if x.startswith("debouncer | ")][0]
    # t:changed,value,rose,fell -- rose/fell last exactly one update; the
    # first edge counts at once (0), the lockout hides the bounce (3, 5, 19),
    # its end reads the level again (20: the short press's release)
    assert line == "debouncer | 0:1110 3:0100 5:0100 19:0100 20:1001 21:0000 40:0000 41:1110 50:0100 61:1001"
    line = [x for x in out.splitlines() if x.startswith("debouncer_start | ")][0]
    assert line == "debouncer_start | 1 0100 1001 0000 1110 1001"
    line = [x for x in out.splitlines() if x.startswith("settling | ")][0]
    # t:event,held,busy -- at 45 nothing is held, yet a poll is due at 50
    assert line == "settling | 0:PRESS UP,11 19:-,11 20:-,11 21:-,11 45:-,01 50:PRESS UP,11 70:-,11 71:-,11"
    assert "rejected 3 4key" in out and "rejected 4 2key" in out and "rejected 2 oops" in out
    assert out.rstrip().endswith("3 True -")


# -- the bounce model ------------------------------------------------------------
# Contacts bounce at both edges for up to 5 ms (a seeded LCG picks the
# pattern: no `random` on MicroPython's side); Keys is polled every 1 ms.
# For each gesture the harness computes what the events must be from the
# clean edges (UP/DOWN at the press, OK/BACK at the release, LONG at
# press + 600, REPEAT at + 850, + 1000, ...) and prints both.
BOUNCE = r"""
SEED = [0]

def rnd(n):
    # 0 <= k < n, a 31-bit LCG (the same numbers on both interpreters)
    SEED[0] = (SEED[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (SEED[0] >> 16) % n

def chatter(pin, t, level, out):
    # the edge at t, then 0, 1 or 2 bounces back, all over by t + 5
    out.append((t, pin, level))
    n = 2 * rnd(3)
    room = 5
    cur = t
    for i in range(n):
        step = 1 + rnd(room - (n - i - 1))
        room -= step
        cur += step
        out.append((cur, pin, level if i % 2 else not level))

def hold_events(key, down, up, evs):
    # what a clean press of key from down to up must give (4-key timings)
    held = up - down
    if key <= 1:
        evs.append('%d:PRESS %s' % (down, B.KEY_NAMES[key]))
    if held > 600:
        evs.append('%d:LONG %s' % (down + 600, B.KEY_NAMES[key]))
        if key <= 1:
            t = down + 850
            while t < up:
                evs.append('%d:REPEAT %s' % (t, B.KEY_NAMES[key]))
                t += 150
    elif key > 1:
        evs.append('%d:PRESS %s' % (up, B.KEY_NAMES[key]))

def bounce4(seed, n):
    SEED[0] = seed
    script = []
    want = []
    t = 10
    for i in range(n):
        key = rnd(4)
        held = (25, 80, 200, 700, 1100)[rnd(5)] + rnd(20)
        chatter(key, t, True, script)
        chatter(key, t + held, False, script)
        hold_events(key, t, t + held, want)
        t += held + 30 + rnd(150)  # the next press after the release's lockout
    run('b4 %d' % seed, '4key', script, t + 50)
    print('b4 %d want | %s' % (seed, ', '.join(want)))

def bounce2(seed):
    SEED[0] = seed
    s = []
    w = []
    t = 10
    # tap A: PRESS DOWN at its release; tap B: PRESS OK at its release
    for pin, name in ((0, 'DOWN'), (1, 'OK')):
        held = 60 + rnd(100)
        chatter(pin, t, True, s)
        chatter(pin, t + held, False, s)
        w.append('%d:PRESS %s' % (t + held, name))
        t += held + 100
    # chord: B joins 0..80 ms after A; PRESS UP at B's first edge; let go in any order
    j = rnd(80)
    chatter(0, t, True, s)
    chatter(1, t + j, True, s)
    chatter(0, t + j + 100 + rnd(50), False, s)
    chatter(1, t + j + 100 + rnd(50), False, s)
    w.append('%d:PRESS UP' % (t + j))
    t += j + 300
    # chord held: LONG UP 600 after the join, then REPEAT UP
    j = rnd(80)
    chatter(1, t, True, s)
    chatter(0, t + j, True, s)
    chatter(0, t + j + 900, False, s)
    chatter(1, t + j + 900, False, s)
    w.append('%d:PRESS UP' % (t + j))
    w.append('%d:LONG UP' % (t + j + 600))
    w.append('%d:REPEAT UP' % (t + j + 850))
    t += j + 1000
    # hold A: LONG DOWN, REPEAT DOWN
    held = 900 + rnd(100)
    chatter(0, t, True, s)
    chatter(0, t + held, False, s)
    w.append('%d:LONG DOWN' % (t + 600))
    w.append('%d:REPEAT DOWN' % (t + 850))
    t += held + 100
    # hold B 0.6..1.5 s: PRESS BACK at the release; past 1.5 s: LONG BACK
    held = 700 + rnd(700)
    chatter(1, t, True, s)
    chatter(1, t + held, False, s)
    w.append('%d:PRESS BACK' % (t + held))
    t += held + 100
    chatter(1, t, True, s)
    chatter(1, t + 1600 + rnd(300), False, s)
    w.append('%d:LONG BACK' % (t + 1500))
    t += 2000
    # hold B past long_ms, then A: LONG OK at A's first edge
    a = 650 + rnd(300)
    chatter(1, t, True, s)
    chatter(0, t + a, True, s)
    chatter(0, t + a + 80, False, s)
    chatter(1, t + a + 160, False, s)
    w.append('%d:LONG OK' % (t + a))
    t += a + 300
    run('b2 %d' % seed, '2key', s, t)
    print('b2 %d want | %s' % (seed, ', '.join(w)))

for seed in (1, 2, 3, 7, 42, 1234, 99991):
    bounce4(seed, 12)
    bounce2(seed)
"""


def test_bounce_model_one_event_at_the_first_edge(dual):
    """Contacts bouncing up to 5 ms at both edges, polled every 1 ms: every
    press gives exactly its events, at the first edge its meaning allows
    (UP/DOWN: the press; OK/BACK: the release; a chord: the second key's
    press), never twice, and LONG/REPEAT at the same times from the press."""
    r = _parse(dual(HARNESS + BOUNCE))
    runs = [k for k in r if not k.endswith(" want")]
    assert len(runs) == 14
    for name in runs:
        assert r[name] == r[name + " want"], name
    everything = " ".join(r[k] for k in runs)
    for ev in ("PRESS UP", "PRESS DOWN", "PRESS OK", "PRESS BACK", "LONG UP", "LONG OK", "LONG BACK", "REPEAT DOWN"):
        assert ev in everything, ev


def test_polling_allocates_nothing(mp):
    """The main loop polls every wake-up: on MicroPython a poll (presses,
    releases, LONG, REPEAT, 2-key chords included) must not touch the heap,
    nor may held() and idle_ms()."""
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
        "        for t in range(3300):\n"
        "            PINS[0] = 100 <= t < 2000 or 3000 <= t < 3100\n"
        "            PINS[1] = 2200 <= t < 2300 or 2400 <= t < 2900 or 3010 <= t < 3100\n"
        "            if keys.poll(t) >= 0:\n"
        "                evs += 1\n"
        "            keys.busy(t)\n"  # what the loop asks to know how soon to poll again
        "    finally:\n"
        "        micropython.heap_unlock()\n"
        "    b = gc.mem_alloc()\n"
        "    print(layout, evs, b - a)\n"
        "run('4key', 4)\n"
        "run('2key', 2)\n"
    ).stdout
    # 4key: PRESS UP, LONG UP + 7 REPEAT UP, two DOWN taps, UP and DOWN together;
    # 2key: LONG DOWN + 7 REPEAT DOWN, two OK taps, a chord (PRESS UP)
    assert out == "4key 13 0\n2key 11 0\n"
