"""The keypad board's keys (issue 31): the 4x4 matrix scan (hw.keypad) over
wires without diodes (hw.wires.MatrixWires: ghosts included) and the
"keypad" layout of teatally.buttons, on both interpreters (``dual``).

Each case is a timeline of key contacts (1 ms a poll, a virtual clock):
bounce, a held key, two keys, ghosting; then a poll under
micropython.heap_lock() (nothing allocated while scanning)."""

HARNESS = r"""
from teatally import buttons as B
from teatally.hw import keypad
from teatally.hw.wires import MatrixWires

def key(c):
    return keypad.KEYPAD.index(c)

def run(name, script, end, step=1):
    # script: (t, key char, level); the columns' interrupts come as the
    # contacts change (MatrixWires.settle), then Keys polls (and scans)
    script = [s[1] for s in sorted([((e[0], n), e) for n, e in enumerate(script)])]
    contacts = [False] * 16
    w = MatrixWires(contacts)
    m = keypad.Matrix(w.rows, w.cols)
    for c in w.cols:
        c.irq(m.edge)
    keys = keypad.KeypadKeys(tuple([m.predicate(i) for i in range(16)]), m.scan, now_ms=0)
    out = []
    j = 0
    t = 0
    scans0 = 0
    while t <= end:
        while j < len(script) and script[j][0] <= t:
            _, c, level = script[j]
            contacts[key(c)] = level
            j += 1
        w.settle()
        ev = keys.poll(t)
        while ev != B.NO_EVENT:
            out.append('%d:%s' % (t, B.event_name(ev)))
            ev = keys.poll(t)
        t += step
    print(name + ' | ' + ', '.join(out) + ' | ghosts=%d scans=%d' % (m.ghosts, m.scans))

def tap(c, a, b):
    return [(a, c, True), (b, c, False)]

def bouncy(c, t, level):
    return [(t, c, level), (t + 1, c, not level), (t + 2, c, level), (t + 4, c, not level), (t + 6, c, level)]
"""

CASES = r"""
run('digit', tap('7', 10, 90), 200)
B5 = bouncy('5', 10, True) + bouncy('5', 120, False) + bouncy('5', 200, True) + bouncy('5', 260, False)
run('bouncy_digit', B5, 400)
run('held_digit', tap('0', 10, 2000), 2100)
run('star_hash', tap('*', 10, 60) + tap('#', 100, 150), 200)
run('letters', tap('A', 10, 60) + tap('B', 100, 150) + tap('C', 200, 250) + tap('D', 300, 350), 400)
run('held_a', tap('A', 10, 1200), 1300)
run('held_c', tap('C', 10, 800), 900)
run('held_d', tap('D', 10, 800), 900)
run('second_while_held', tap('3', 10, 300) + tap('9', 100, 200) + tap('9', 400, 450), 500)
run('digit_during_up', tap('A', 10, 1000) + tap('2', 700, 750), 1100)
run('two_at_once', tap('1', 10, 100) + tap('6', 10, 120) + tap('6', 300, 350), 400)
# 1, 2 and 4 down: rows 1-2 and columns 1-2 make a rectangle, so 5 reads down too
run('ghost', tap('1', 10, 500) + tap('2', 100, 400) + tap('4', 200, 300) + tap('8', 600, 650), 700)
run('ghost_together', tap('1', 10, 100) + tap('2', 10, 100) + tap('4', 10, 100) + tap('D', 200, 250), 300)
run('rest', [], 500)

print('ghostly', keypad.ghostly(0b0000000000110011), keypad.ghostly(0b0000000000010011),
      keypad.ghostly(0b1001000000001001), keypad.ghostly(0b0000000100010001), keypad.ghostly(0))
for make in (lambda: B.Keys(tuple([lambda: False] * 16), 'keypad', now_ms=0),
             lambda: keypad.KeypadKeys(tuple([lambda: False] * 4), lambda: None, now_ms=0)):
    try:
        make()
        print('accepted')
    except ValueError:
        print('rejected')
P = B.E_PRESS
print(B.event_name(P | (B.K_D0 + 7)), B.event_name(P | keypad.K_STAR), B.event_name(P | keypad.K_HASH))
print(' '.join(B.event_name(B.E_PRESS | k)[6:] for k in keypad.KEYPAD_LOGICAL))
"""


def _parse(out):
    res = {}
    for line in out.splitlines():
        if " | " in line:
            name, evs, extra = line.split(" | ")
            res[name] = (evs, extra)
    return res


def test_keypad_timelines(dual):
    out = dual(HARNESS + CASES)
    r = _parse(out)
    # a digit: its PRESS at the press (its first edge), once; bounce hidden
    assert r["digit"][0] == "10:PRESS 7"
    assert r["bouncy_digit"][0] == "10:PRESS 5, 200:PRESS 5"
    # a held digit: one press, nothing more however long
    assert r["held_digit"][0] == "10:PRESS 0"
    assert r["star_hash"][0] == "10:PRESS *, 100:PRESS #"
    # the letters are the 4-key board's keys: A/B at the press, C/D at the release
    assert r["letters"][0] == "10:PRESS UP, 100:PRESS DOWN, 250:PRESS OK, 350:PRESS BACK"
    assert r["held_a"][0] == "10:PRESS UP, 610:LONG UP, 860:REPEAT UP, 1010:REPEAT UP, 1160:REPEAT UP"
    assert r["held_c"][0] == "610:LONG OK"
    assert r["held_d"][0] == "610:LONG BACK"
    # two keys: a key pressed while another is held is ignored (until released)
    assert r["second_while_held"][0] == "10:PRESS 3, 400:PRESS 9"
    assert r["digit_during_up"][0] == "10:PRESS UP, 610:LONG UP, 860:REPEAT UP"
    # two keys going down at the same poll: neither counts
    assert r["two_at_once"][0] == "300:PRESS 6"
    # ghosting: 1, 2, 4 down show 5 too; those scans are not believed (ghosts
    # counted), only the first key counted, and the keypad works afterwards
    assert r["ghost"][0] == "10:PRESS 1, 600:PRESS 8"
    assert r["ghost"][1].startswith("ghosts=") and int(r["ghost"][1].split()[0][7:]) > 50
    assert r["ghost_together"][0] == "250:PRESS BACK"
    # at rest: no interrupt, no key down: not a single scan after the first
    assert r["rest"] == ("", "ghosts=0 scans=1")
    assert "ghostly True False True False False" in out
    assert out.count("rejected") == 2  # plain Keys has no keypad steps; a keypad has 16 keys
    assert "PRESS 7 PRESS * PRESS #" in out
    assert "1 2 3 UP 4 5 6 DOWN 7 8 9 OK * 0 # BACK" in out


def test_scan_allocates_nothing(mp):
    """Scanning and polling the keypad (presses, a held A with its REPEATs,
    two keys, a ghost rectangle) touches no heap on MicroPython."""
    out = mp(
        "import gc, micropython\n"
        "from teatally import buttons as B\n"
        "from teatally.hw import keypad\n"
        "DOWN = bytearray(16)\n"
        "DRIVE = bytearray(4)\n"
        "class Row:\n"
        "    def __init__(self, i):\n"
        "        self.i = i\n"
        "    def value(self, v):\n"
        "        DRIVE[self.i] = 0 if v else 1\n"
        "class Col:\n"
        "    def __init__(self, j):\n"
        "        self.j = j\n"
        "    def value(self):\n"
        "        j = self.j\n"
        "        for i in range(4):\n"  # (a ghost path needs more: a direct contact is enough here)
        "            if DRIVE[i] and DOWN[4 * i + j]:\n"
        "                return 0\n"
        "        return 1\n"
        "m = keypad.Matrix(tuple([Row(i) for i in range(4)]), tuple([Col(j) for j in range(4)]))\n"
        "keys = keypad.KeypadKeys(tuple([m.predicate(i) for i in range(16)]), m.scan, now_ms=0)\n"
        "evs = 0\n"
        "gc.collect()\n"
        "a = gc.mem_alloc()\n"
        "micropython.heap_lock()\n"
        "try:\n"
        "    for t in range(3000):\n"
        "        DOWN[3] = 100 <= t < 1500\n"  # A held: PRESS, LONG, REPEATs
        "        DOWN[5] = 200 <= t < 300\n"  # 5 while A is held: ignored
        "        DOWN[9] = 1600 <= t < 1700\n"  # 8
        "        DOWN[0] = 1800 <= t < 1900\n"  # 1, 2, 5, 6: a rectangle
        "        DOWN[1] = 1800 <= t < 1900\n"
        "        DOWN[4] = 1800 <= t < 1900\n"
        "        DOWN[5] = DOWN[5] or 1800 <= t < 1900\n"
        "        DOWN[11] = 2000 <= t < 2100\n"  # C: OK at the release
        "        if t in (100, 200, 300, 1500, 1600, 1700, 1800, 1900, 2000, 2100):\n"
        "            m.edge()\n"  # the columns' interrupts
        "        if keys.poll(t) >= 0:\n"
        "            evs += 1\n"
        "        keys.busy(t)\n"
        "finally:\n"
        "    micropython.heap_unlock()\n"
        "b = gc.mem_alloc()\n"
        "print(evs, b - a, m.ghosts > 0)\n"
    ).stdout
    # PRESS UP, LONG UP, 4 REPEAT UP (950..1400), PRESS 8, PRESS OK
    assert out == "8 0 True\n"
