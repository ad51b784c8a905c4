"""A 4x4 membrane matrix keypad (no diodes): its scan, for the keypad board
(boards/pico_keypad.py) and the virtual ones (hw.wires.MatrixWires).

Wiring: four row lines and four column lines; a key joins its row to its
column. The rows are open-drain outputs (driven low, or let float), the
columns inputs with pull-ups, each with an interrupt on both edges.

At rest every row is driven low: a key going down pulls its column low,
the column's interrupt sets ``armed`` (and wakes the main loop, hw.base
``wait``), so the CPU rests between presses and nothing is scanned. A scan
runs only when ``armed`` or while a key is down (``state``): each row in
turn is driven low alone while the others float, and the columns read low
are that row's keys. Then every row is driven low again (the next press
raises an interrupt).

Ghosting: without diodes, three keys at three corners of a rectangle pull
the fourth corner's column low too (row 1 low -> key (1, a) -> column a ->
key (2, a) -> row 2 -> key (2, b) -> column b reads low: a fourth key that
is not down). Every scan that shows two rows sharing two columns may hold
such a ghost: it is not believed, ``state`` keeps the scan before it
(``ghosts`` counts them). One key at a time is all the firmware uses
(teatally.buttons, layout "keypad"), so nothing is lost.

``state``: bit 4 * row + column is set while that key is down, the order
of the keypad's legend (buttons.KEYPAD), which the predicates read. A scan
allocates nothing (tests/test_keypad.py, under micropython.heap_lock).
"""

from teatally.buttons import E_PRESS, K_BACK, K_D0, K_DOWN, K_OK, Keys
from teatally.compat import const, ticks_diff

N = const(4)  # rows, and columns
K_STAR = const(14)  # the "*" key's event key (teatally.buttons: K_D0 + 10)
K_HASH = const(15)  # "#"
# The keypad's legend, row by row (the predicates' order, and state's bits),
# and each key's logical key (teatally.buttons: A-D are UP, DOWN, OK, BACK,
# "0123456789*#" K_D0 on)
KEYPAD = "123A456B789C*0#D"
KEYPAD_LOGICAL = bytes([K_D0 + "0123456789*#".index(c) if c in "0123456789*#" else "ABCD".index(c) for c in KEYPAD])
# a key's stage, as teatally.buttons counts them (its 4-key stages)
_IDLE = const(0)
_HELD = const(1)  # down, nothing fired yet
_REPEATING = const(2)  # LONG fired, auto-repeat running
_SPENT = const(3)  # fired (or ignored): nothing more until released


class Matrix:
    """The scan of ``rows`` (4 pins, open-drain: ``value(0)`` drives low,
    ``value(1)`` floats) over ``cols`` (4 input pins with pull-ups)."""

    __slots__ = ("rows", "cols", "state", "armed", "ghosts", "scans")

    def __init__(self, rows, cols):
        self.rows = rows
        self.cols = cols
        self.state = 0
        self.armed = True  # read once at start
        self.ghosts = 0
        self.scans = 0
        self.rest()

    def rest(self):
        # every row low: a key going down pulls its column low (an interrupt)
        for r in self.rows:
            r.value(0)

    def edge(self, pin=None):
        """A column's interrupt: a key went down (or up)."""
        self.armed = True

    def scan(self):
        """Read the keys if a column's interrupt came or a key is down;
        update ``state`` unless the reading may hold a ghost."""
        if not self.armed and not self.state:
            return  # no key down and none since: the CPU rests
        self.armed = False  # (the scan's own row changes may arm it again: one more scan)
        self.scans += 1
        rows = self.rows
        cols = self.cols
        for r in rows:
            r.value(1)
        m = 0
        i = 0
        while i < N:
            rows[i].value(0)
            j = 0
            while j < N:
                if not cols[j].value():
                    m |= 1 << (N * i + j)
                j += 1
            rows[i].value(1)
            i += 1
        for r in rows:
            r.value(0)
        if ghostly(m):
            self.ghosts += 1
            return
        self.state = m

    def predicate(self, k):
        """Key k (its bit in ``state``) as a zero-argument predicate."""
        bit = 1 << k
        return lambda: (self.state & bit) != 0


def ghostly(m):
    """Does the 16-bit reading m show two rows sharing two columns (where a
    ghost may stand)?"""
    i = 0
    while i < N - 1:
        a = (m >> (N * i)) & 0xF
        if a & (a - 1):  # two or more keys on this row
            j = i + 1
            while j < N:
                x = a & (m >> (N * j)) & 0xF
                if x & (x - 1):
                    return True
                j += 1
        i += 1
    return False


class KeypadKeys(Keys):
    """teatally.buttons.Keys of the layout "keypad" (see its Layouts): the
    matrix's ``scan`` first at every poll, then its 16 keys stepped one at a
    time. Here, not in teatally.buttons: the other boards never load it."""

    __slots__ = ("scan",)

    def __init__(self, predicates, scan, **kw):
        Keys.__init__(self, predicates, "keypad", **kw)
        self.scan = scan

    def poll(self, now_ms=None):
        self.scan()
        return Keys.poll(self, now_ms)

    def _stepk(self, now):
        # one key at a time (see Layouts); runs at every poll: allocates
        # nothing (tests/test_keypad.py)
        stage = self._stage
        active = -1  # the key held and counting, if any
        other = False  # a key held from before this poll (counting or not)
        rose = 0
        k = 0
        while k < 16:
            d = self._db[k]
            if d.fell:
                lk = KEYPAD_LOGICAL[k]
                if stage[k] == _HELD and (lk == K_OK or lk == K_BACK):  # a tap, no LONG
                    self._push(E_PRESS | lk)
                stage[k] = _IDLE
            elif d.rose:
                rose += 1
            elif d.value:
                other = True
                if stage[k] == _HELD or stage[k] == _REPEATING:
                    active = k
            k += 1
        if rose:
            k = 0
            while k < 16:
                if self._db[k].rose:
                    if other or rose > 1:
                        stage[k] = _SPENT  # a second key, or two at once: ignored
                    else:
                        self._startk(k, now)
                k += 1
        if active >= 0:
            lk = KEYPAD_LOGICAL[active]
            if stage[active] == _HELD:
                if ticks_diff(now, self._down_at[active]) >= self.long_ms:
                    self._long(active, lk)
            else:
                self._repeat(active, lk, now)

    def _startk(self, k, now):
        # keypad key k goes down alone
        lk = KEYPAD_LOGICAL[k]
        self._down_at[k] = now
        if lk >= K_D0:  # a digit, * or #: at the press, and that is all
            self._push(E_PRESS | lk)
            self._stage[k] = _SPENT
            return
        self._stage[k] = _HELD
        if lk <= K_DOWN:  # a step whatever follows: at the press
            self._push(E_PRESS | lk)
