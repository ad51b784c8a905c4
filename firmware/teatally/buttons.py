"""Buttons: raw pins -> debounced levels -> logical key events.

Pins are read through injectable zero-argument predicates (True = pressed),
and time is always passed in (``now_ms``, Pico ``ticks_ms`` units, compared
with ``ticks_diff`` so the 30-bit wrap-around is harmless). Nothing here
sleeps, allocates per poll or touches ``machine``: the same code runs on the
Pico, in the simulator and under pytest with a virtual clock.

Events are small ints: ``kind | key``.

- keys:  K_UP=0, K_DOWN=1, K_OK=2, K_BACK=3; on the keypad also the digit
  keys K_D0=4 .. K_D0+9=13 (``K_D0 + d``), hw.keypad.K_STAR=14 ("*") and
  K_HASH=15 ("#")
- kinds: E_PRESS=0x10 (a press: UP and DOWN sent at the press, OK and BACK
  at the release when no LONG fired), E_LONG=0x20 (held >= long_ms, sent
  once while still held), E_REPEAT=0x30 (auto-repeat of UP/DOWN while held
  after LONG, for value pickers: first one repeat_delay_ms after the LONG,
  then every repeat_ms). OK and BACK never repeat. Times count from the
  debounced press, which is the contact's first edge (see Debouncer).
- ``poll(now_ms)`` returns one event or NO_EVENT (-1); events produced in the
  same poll wait in a fixed 8-slot ring and come out on the next polls.

An event goes out at the first edge its meaning allows (issue 23: the wait
a player feels). UP and DOWN mean one step whatever follows (the UI takes
PRESS, LONG and REPEAT of them alike, ``ui.core.STEP_KINDS``), so their
PRESS goes at the press, and a hold adds LONG then REPEATs, each one more
step. OK and BACK mean something else when held (LONG BACK undo, LONG OK
redo), so their PRESS waits for the release.

Layouts
-------
"4key": four buttons, predicates in the order UP, DOWN, OK, BACK; each
button is its logical key::

    gesture                     event(s)
    press UP (DOWN)             PRESS UP (DOWN) at the press
    ... held >= long_ms         LONG UP (DOWN), then REPEAT UP (DOWN)
    tap OK (BACK)               PRESS OK (BACK) at the release
    hold OK (BACK) >= long_ms   LONG OK (BACK) while held, nothing at the release

"2key" (Waveshare Pico-OLED-1.3: keys A and B), predicates in the order A, B.
Every logical event stays reachable; B works as a "shift" for A::

    gesture                                         event(s)
    tap A                                           PRESS DOWN (at the release)
    hold A                                          LONG DOWN, then REPEAT DOWN
    tap B                                           PRESS OK (at the release)
    hold B >= long_ms, let go before very_long_ms   PRESS BACK (at the release)
    hold B >= very_long_ms (1.5 s)                  LONG BACK (while held: the undo, asked)
    A and B down together                           PRESS UP (when the second goes down)
    ... held together >= long_ms                    LONG UP, then REPEAT UP
    hold B >= long_ms, then press A                 LONG OK (at A's press)

"keypad" (a 4x4 membrane matrix: teatally.hw.keypad scans it, and its
KeypadKeys, a Keys of this layout, steps its keys), 16 predicates in the
order of the keypad's legend row by row ("123A456B789C*0#D"). The letters are the 4-key board's keys (A UP, B DOWN,
C OK, D BACK, with their LONG and REPEAT as above); a digit, ``*`` and ``#``
send their PRESS at the press and nothing more however long they are held::

    gesture                     event(s)
    press 0..9, * or #          PRESS of that key at the press (held: nothing more)
    A, B, C, D                  as UP, DOWN, OK, BACK on the 4-key board
    a key while another is held ignored (until released); the held one goes on
    two keys down at one poll   neither counts (both ignored until released)

One key at a time: a membrane without diodes cannot tell every pair of
keys, and a second key is far more often a slip than a meaning.

"Together" means the second key goes down before the first one has fired
anything (before long_ms); the chord's own long timer starts when the second
key joins. Once a gesture has fired its final event, the keys are ignored
until both are released, so letting go never adds a stray event.

Where the 2-key events go out: A alone may still become the chord (UP) until
long_ms, so a tap of A (DOWN) waits for its release, and a held A sends
nothing before its LONG (no PRESS DOWN first, unlike the 4-key DOWN). B alone
is OK, BACK, LONG BACK or, with A, LONG OK or UP: its tap waits for the
release too. The chord is UP whatever follows (a step, like the 4-key UP),
so its PRESS goes as soon as both keys are down.

What a hold will do (issue 30): on the 2-key board one key's hold has
stages (B: OK until long_ms, BACK until very_long_ms, then LONG BACK: the
undo), so the screen shows a hold while it counts (``hold_ms``, drawn by
``teatally.ui.hold``) and a layout in ``STAGED`` asks before the undo its
longest stage gives (the 4-key BACK's hold has one stage: its own key).

A key already held when Keys is created (e.g. held through boot) is ignored
until it is released. ``swallow()`` does the same for keys held right now and
empties the queue: the UI calls it when a press only wakes the screen.
``end_hold()`` ignores the keys held now but keeps the queue: the UI calls it
when an UP/DOWN press opened another screen, which that hold's LONG and
REPEATs must not step. The main loop keeps polling (every 1 ms) while
``busy(now)``: a key held, an event queued, or a lockout still to be read
again (a press made during it raises no new edge to wake the loop): an
event is then out within one poll of its edge.
"""

from teatally.compat import const, ticks_add, ticks_diff, ticks_ms

K_UP = const(0)
K_DOWN = const(1)
K_OK = const(2)
K_BACK = const(3)
K_D0 = const(4)  # the keypad's digit d is K_D0 + d, then "*" and "#" (hw.keypad)

E_PRESS = const(0x10)
E_LONG = const(0x20)
E_REPEAT = const(0x30)
NO_EVENT = const(-1)

KEY_NAMES = ("UP", "DOWN", "OK", "BACK")  # the keypad's K_D0.. are "0123456789*#" (event_name)
KIND_NAMES = ("", "PRESS", "LONG", "REPEAT")

LAYOUT_4KEY = "4key"
LAYOUT_2KEY = "2key"
# The layouts whose undo (LONG BACK) is a later stage of BACK's own hold:
# the hold is shown while it counts and the undo is asked (teatally.ui.hold).
STAGED = (LAYOUT_2KEY,)


# 4-key per-button stages
_IDLE = const(0)
_HELD = const(1)  # down, nothing fired yet
_REPEATING = const(2)  # LONG fired, auto-repeat running
_SPENT = const(3)  # fired (or swallowed): ignore until released

# 2-key gesture states
_G_IDLE = const(0)
_G_A = const(1)  # A alone, nothing fired yet
_G_A_REP = const(2)  # A alone, LONG DOWN fired, repeating DOWN
_G_B = const(3)  # B alone, short so far
_G_B_BACK = const(4)  # B alone past long_ms: release = BACK
_G_CHORD = const(5)  # A+B, PRESS UP sent, short so far
_G_CHORD_REP = const(6)  # A+B, LONG UP fired, repeating UP
_G_SPENT = const(7)  # gesture done: wait until both keys are up

_QSIZE = const(8)


def key_of(ev):
    return ev & 0x0F


def kind_of(ev):
    return ev & 0xF0


def event_name(ev):
    """'PRESS UP', 'LONG BACK', ... ('-' for NO_EVENT): for logs and tests."""
    if ev < 0:
        return "-"
    k = ev & 0x0F
    return KIND_NAMES[ev >> 4] + " " + (KEY_NAMES[k] if k < K_D0 else "0123456789*#"[k - K_D0])


class Debouncer:
    """A debounced view of one predicate (True = pressed).

    ``update(now_ms)`` samples the predicate; ``value`` is the debounced level;
    ``rose`` / ``fell`` are True only for the update on which ``value``
    changed. Leading edge with a lockout: a raw level that differs from the
    settled one counts at once (the contact's first edge, nothing waits),
    then the predicate is not read for ``interval_ms`` (the lockout: contact
    bounce lasts up to 5 ms, the default lockout is 20 ms, so the bounce is
    over before the level is read again). At the end of the lockout the
    level is read again, so a tap shorter than the lockout still gives its
    release then, and every change counts exactly once.
    """

    __slots__ = ("_fn", "_lockout", "_since", "_locked", "value", "rose", "fell")

    def __init__(self, predicate, interval_ms=20, now_ms=0):
        self._fn = predicate
        self._lockout = interval_ms
        self._since = now_ms
        self._locked = False
        self.value = bool(predicate())  # a key held at start-up is not a fresh press
        self.rose = False
        self.fell = False

    def update(self, now_ms):
        self.rose = False
        self.fell = False
        if self._locked:
            dt = ticks_diff(now_ms, self._since)
            if 0 <= dt < self._lockout:  # (< 0: polls stopped for days, the lockout is long over)
                return False
            self._locked = False  # for good: an old _since never wraps round into a lockout
        raw = bool(self._fn())
        if raw == self.value:
            return False
        self.value = raw
        self._since = now_ms
        self._locked = True
        if raw:
            self.rose = True
        else:
            self.fell = True
        return True


class Keys:
    """Poll debounced buttons and turn them into logical key events."""

    __slots__ = (
        "layout",
        "long_ms",
        "very_long_ms",
        "repeat_delay_ms",
        "repeat_ms",
        "last_activity",
        "_db",
        "_stage",
        "_down_at",
        "_next",
        "_g",
        "_q",
        "_qh",
        "_qn",
    )

    def __init__(
        self,
        predicates,
        layout=LAYOUT_4KEY,
        long_ms=600,
        repeat_delay_ms=250,
        repeat_ms=150,
        very_long_ms=1500,
        debounce_ms=20,
        now_ms=None,
    ):
        if layout == LAYOUT_4KEY:
            need = 4
        elif layout == LAYOUT_2KEY:
            need = 2
        elif layout == "keypad" and hasattr(self, "_stepk"):
            need = 16  # (its keys step in hw.keypad.KeypadKeys)
        else:
            raise ValueError("layout must be '4key' or '2key'")
        if len(predicates) != need:
            raise ValueError("%s layout needs %d buttons" % (layout, need))
        if now_ms is None:
            now_ms = ticks_ms()
        self.layout = layout
        self.long_ms = long_ms
        self.very_long_ms = very_long_ms
        self.repeat_delay_ms = repeat_delay_ms
        self.repeat_ms = repeat_ms
        self.last_activity = now_ms
        self._db = tuple([Debouncer(p, debounce_ms, now_ms) for p in predicates])
        # 4-key: one stage per button; keys held at start count as spent.
        self._stage = [_SPENT if d.value else _IDLE for d in self._db]
        self._down_at = [now_ms] * need
        self._next = [now_ms] * need  # next REPEAT due (4-key per button; 2-key uses [0])
        self._g = _G_SPENT if self.held() else _G_IDLE
        self._q = bytearray(_QSIZE)
        self._qh = 0
        self._qn = 0

    # -- queue -------------------------------------------------------------
    def _push(self, ev):
        if self._qn < _QSIZE:  # a full queue drops the newest: the UI is far behind anyway
            self._q[(self._qh + self._qn) % _QSIZE] = ev
            self._qn += 1

    def _pop(self):
        if not self._qn:
            return NO_EVENT
        ev = self._q[self._qh]
        self._qh = (self._qh + 1) % _QSIZE
        self._qn -= 1
        return ev

    def pending(self):
        return self._qn

    # -- public ------------------------------------------------------------
    def poll(self, now_ms=None):
        """Sample the buttons at ``now_ms``; return one event or NO_EVENT."""
        if now_ms is None:
            now_ms = ticks_ms()
        edge = False
        for d in self._db:
            if d.update(now_ms):
                edge = True
        if edge:
            self.last_activity = now_ms
        if self.layout == LAYOUT_4KEY:
            self._step4(now_ms)
        elif self.layout == LAYOUT_2KEY:
            self._step2(now_ms)
        else:
            self._stepk(now_ms)  # type: ignore[attr-defined]  # hw.keypad.KeypadKeys
        return self._pop()

    def held(self):
        """True while any button is (debounced) down: keep the screen on."""
        for d in self._db:
            if d.value:
                return True
        return False

    def busy(self, now_ms):
        """True while the keys need the loop's polls (every 1 ms): an event
        queued, a button down (its long-press and repeat timers run) or a
        lockout still to be read again (a press made during it raises no
        edge to wake the loop)."""
        for d in self._db:
            if d._locked:
                return True
        return self._qn > 0 or self.held()

    def hold_ms(self, now_ms):
        """How long a hold still open has lasted: the 2-key B held alone
        (its release gives OK before long_ms, BACK after; LONG BACK comes at
        very_long_ms). -1 when no such hold is on (and always on 4 keys).
        Allocates nothing: the main loop asks at every poll while a key is
        down (teatally.ui.hold)."""
        g = self._g
        if g != _G_B and g != _G_B_BACK:  # (4 keys: never either)
            return -1
        return ticks_diff(now_ms, self._down_at[0])

    def idle_ms(self, now_ms):
        """Milliseconds since the last debounced press or release."""
        return ticks_diff(now_ms, self.last_activity)

    def swallow(self):
        """Drop queued events and ignore the keys held now until released."""
        self._qn = 0
        self._qh = 0
        self.end_hold()

    def end_hold(self):
        """Ignore the keys held now until released (no LONG, REPEAT or
        release PRESS from them); queued events stay."""
        held = False
        for i in range(len(self._db)):
            if self._db[i].value:
                self._stage[i] = _SPENT
                held = True
            else:
                self._stage[i] = _IDLE
        self._g = _G_SPENT if held else _G_IDLE

    # -- 4 buttons ---------------------------------------------------------
    def _step4(self, now):
        # runs at every poll: allocates nothing (tests/test_buttons.py)
        k = 0
        while k < 4:
            d = self._db[k]
            s = self._stage[k]
            if d.rose:
                self._stage[k] = _HELD
                self._down_at[k] = now
                if k <= K_DOWN:  # a step whatever follows: at the press
                    self._push(E_PRESS | k)
            elif d.fell:
                if s == _HELD and k > K_DOWN:  # OK, BACK: a tap, no LONG
                    self._push(E_PRESS | k)
                self._stage[k] = _IDLE
            elif s == _HELD:
                if ticks_diff(now, self._down_at[k]) >= self.long_ms:
                    self._long(k, k)
            elif s == _REPEATING:
                self._repeat(k, k, now)
            k += 1

    def _long(self, slot, k):
        # button slot (logical key k) held for long_ms: LONG, then UP/DOWN
        # auto-repeat
        self._push(E_LONG | k)
        if k <= K_DOWN:
            self._stage[slot] = _REPEATING
            self._next[slot] = ticks_add(self._down_at[slot], self.long_ms + self.repeat_delay_ms)
        else:
            self._stage[slot] = _SPENT

    def _repeat(self, slot, key, now):
        nxt = self._next[slot]
        if ticks_diff(now, nxt) >= 0:
            self._push(E_REPEAT | key)
            nxt = ticks_add(nxt, self.repeat_ms)
            if ticks_diff(now, nxt) >= 0:  # polls came late: skip, never burst
                nxt = ticks_add(now, self.repeat_ms)
            self._next[slot] = nxt

    # -- 2 buttons (A, B) --------------------------------------------------
    def _step2(self, now):
        a = self._db[0]
        b = self._db[1]
        g = self._g
        if g == _G_SPENT:
            if a.value or b.value:
                return
            g = self._g = _G_IDLE
        if g == _G_IDLE:
            if a.rose and b.rose:
                self._chord(now)
            elif a.rose:
                self._start(_G_A, now)
            elif b.rose:
                self._start(_G_B, now)
            return
        held = ticks_diff(now, self._down_at[0])
        if g == _G_A:
            if b.rose:
                self._chord(now)
            elif not a.value:
                self._fire(E_PRESS | K_DOWN, b.value)
            elif held >= self.long_ms:
                self._push(E_LONG | K_DOWN)
                self._g = _G_A_REP
                self._next[0] = ticks_add(self._down_at[0], self.long_ms + self.repeat_delay_ms)
        elif g == _G_A_REP:
            if not a.value:
                self._g = _G_SPENT if b.value else _G_IDLE
            else:
                self._repeat(0, K_DOWN, now)
        elif g == _G_B:
            if a.rose:
                self._chord(now)
            elif not b.value:
                self._fire(E_PRESS | K_OK, a.value)
            elif held >= self.long_ms:
                self._g = _G_B_BACK
        elif g == _G_B_BACK:
            if a.rose:
                self._fire(E_LONG | K_OK, True)
            elif not b.value:
                self._fire(E_PRESS | K_BACK, a.value)
            elif held >= self.very_long_ms:
                self._fire(E_LONG | K_BACK, True)
        elif g == _G_CHORD:
            if not (a.value and b.value):
                self._g = _G_SPENT  # PRESS UP went at the join
            elif held >= self.long_ms:
                self._push(E_LONG | K_UP)
                self._g = _G_CHORD_REP
                self._next[0] = ticks_add(self._down_at[0], self.long_ms + self.repeat_delay_ms)
        elif g == _G_CHORD_REP:
            if not (a.value and b.value):
                self._g = _G_SPENT
            else:
                self._repeat(0, K_UP, now)

    def _chord(self, now):
        # both keys down: UP whatever follows, so its PRESS goes now
        self._push(E_PRESS | K_UP)
        self._start(_G_CHORD, now)

    def _start(self, g, now):
        self._g = g
        self._down_at[0] = now

    def _fire(self, ev, wait_release):
        self._push(ev)
        self._g = _G_SPENT if wait_release else _G_IDLE
