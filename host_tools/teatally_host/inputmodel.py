"""The input's share of a press's wait (issue 23), for the bench.

How long after the key's deciding edge does the firmware's own
``teatally.buttons.Keys`` (run here on CPython) hand out the event? The
deciding edge is the press for an event sent at the press, the release for
one sent at the release, and for a LONG the moment the hold reaches its
threshold (press + long_ms; the 2-key LONG BACK press + very_long_ms; the
2-key LONG OK the press of A). Each logical event the bench plays (a
``keyscript`` token: ``up down ok back`` short, ``UP DOWN OK BACK`` long) is
played as the simulator's gesture for the layout (``sim.gesture``: the
2-key board reaches the same logical events through its chords) with
contacts that bounce, and Keys is polled on a fixed cadence:

- bounce: every contact edge chatters back 0, 1 or 2 times, all over within
  BOUNCE_MS (5 ms) of the first edge, in microseconds (a seeded LCG picks
  the patterns: the same numbers on every run);
- polls: every ``poll_ms`` at a phase that varies from trial to trial, so a
  key's first edge waits up to ``poll_ms`` for the next poll (the main loop
  polls every 1 ms while a key is held and after a key-edge wake, and a
  wake from idle takes up to ``poll_ms``).

The keypad (layout "keypad") is played through its matrix: the contacts of
a MatrixWires (hw.wires), the Pico's own scan (hw.keypad) armed by the columns'
interrupts, plus SCAN_MS for the scan's pin calls.

``event_delay_ms(token, layout, poll_ms)`` -> (typical_ms, worst_ms): the
median and the largest delay over TRIALS trials. ``buttons`` (a module with
Keys, e.g. from ``buttons_from_source``) measures another version of the
policy the same way (the one before issue 23, for comparison).
"""

import types

from teatally import buttons as firmware_buttons
from teatally_host import keyscript, sim

POLICY = (
    "leading-edge debounce with a 20 ms lockout (the first contact edge counts at the next poll, "
    "bounce <= 5 ms is hidden); UP/DOWN and the 2-key chord (UP) are sent at the press, "
    "OK/BACK and the 2-key A/B taps at the release, LONG at press + 600 ms"
)

TOKENS = ("up", "down", "ok", "back", "UP", "DOWN", "OK", "BACK")
# the keypad board's own keys (its up/down/ok/back are its letters A-D)
KEYPAD_TOKENS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "star", "hash")
LAYOUTS = ("4key", "2key", "keypad")
# The keypad's matrix scan (teatally.hw.keypad) on the Pico: 16 pin writes
# and 16 pin reads, each a method call of ~5 us on the RP2040 at 125 MHz,
# and the loop around them: an estimate (not measured: no Pico here),
# added to each keypad event's delay (the scan runs before the event).
SCAN_MS = 0.2
BOUNCE_MS = 5
TRIALS = 40
AFTER_MS = 300  # polled on after the gesture's last edge: a late or second event would show


class Lcg:
    """A seeded 31-bit linear congruential generator (no ``random``: the
    numbers are part of the bench's results and must never change)."""

    def __init__(self, seed):
        self.state = seed & 0x7FFFFFFF

    def below(self, n):
        """0 <= k < n."""
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def chatter(t_us, level, rng):
    """One contact edge at t_us to level, bouncing: [(t_us, level), ...]."""
    out = [(t_us, level)]
    n = 2 * rng.below(3)
    room = BOUNCE_MS * 1000
    cur = t_us
    for i in range(n):
        step = 1 + rng.below(room - (n - i - 1))
        room -= step
        cur += step
        out.append((cur, level if i % 2 else not level))
    return out


def timeline(token, layout, rng, keys):
    """The token's gesture as bouncing pin changes [(t_us, pin, level)]
    (sorted) and the moments an event may be decided at (clean edges, and
    each press's long_ms and very_long_ms thresholds), from t = 0."""
    kind, key = sim.parse_keys(token)[0]
    n = _pins(layout)
    level = [False] * n
    changes = []
    moments = []
    for dt, mask in sim.gesture(layout, kind, key):
        t = dt * 1000
        for pin in range(n):
            new = bool(mask & (1 << pin))
            if new != level[pin]:
                level[pin] = new
                changes.extend((at, pin, lv) for at, lv in chatter(t, new, rng))
                moments.append(t)
                if new:
                    moments.append(t + keys.long_ms * 1000)
                    moments.append(t + keys.very_long_ms * 1000)
    changes.sort()
    return changes, moments


def _pins(layout):
    return {"4key": 4, "2key": 2, "keypad": 16}[layout]


def play(token, layout, poll_ms, rng, phase_us, buttons=firmware_buttons):
    """One trial: (delay_ms of the token's event, [event names seen]). The
    keypad's contacts are a matrix's (hw.virtual.MatrixWires) read by its
    scan (hw.keypad.Matrix), armed by the columns' interrupts as the
    contacts change."""
    pins = [False] * _pins(layout)
    settle = None
    if layout == "keypad":
        from teatally.hw import keypad
        from teatally.hw.wires import MatrixWires

        wires = MatrixWires(pins)
        matrix = keypad.Matrix(wires.rows, wires.cols)
        for c in wires.cols:
            c.irq(matrix.edge)
        settle = wires.settle
        keys = keypad.KeypadKeys(tuple(matrix.predicate(i) for i in range(16)), matrix.scan, now_ms=0)
    else:
        preds = tuple((lambda i=i: pins[i]) for i in range(len(pins)))
        keys = buttons.Keys(preds, layout, now_ms=0)
    changes, moments = timeline(token, layout, rng, keys)
    want = keyscript.event(token)
    end = changes[-1][0] + AFTER_MS * 1000
    step = poll_ms * 1000
    t = phase_us
    j = 0
    seen = []
    at = None
    while t <= end:
        while j < len(changes) and changes[j][0] <= t:
            pins[changes[j][1]] = changes[j][2]
            j += 1
            if settle is not None:
                settle()  # the columns' interrupts, at the change
        ev = keys.poll(t // 1000)
        while ev != buttons.NO_EVENT:
            seen.append(buttons.event_name(ev))
            if ev == want and at is None:
                at = t
            ev = keys.poll(t // 1000)
        t += step
    if at is None or seen.count(buttons.event_name(want)) != 1:
        raise AssertionError("%s on %s gave %s, not one %s" % (token, layout, seen, buttons.event_name(want)))
    decided = max(m for m in moments if m <= at)
    return (at - decided) / 1000.0 + (SCAN_MS if layout == "keypad" else 0.0), seen


def event_delay_ms(token, layout="4key", poll_ms=1, trials=TRIALS, buttons=None):
    """(typical_ms, worst_ms): the median and the largest delay from the
    deciding edge to the event keyscript.event(token), over ``trials``
    bouncing gestures polled every ``poll_ms`` at phases spread over the
    poll interval. Raises ValueError for an unknown token, layout or poll."""
    if layout not in LAYOUTS:
        raise ValueError("layout must be '4key', '2key' or 'keypad'")
    if token not in tokens(layout):
        raise ValueError("token must be one of %s" % " ".join(tokens(layout)))
    if not (isinstance(poll_ms, int) and poll_ms >= 1) or trials < 1:
        raise ValueError("poll_ms and trials must be whole numbers >= 1")
    rng = Lcg(1 + tokens(layout).index(token) + 16 * LAYOUTS.index(layout))
    got = []
    for i in range(trials):
        phase = (i * poll_ms * 1000) // trials + rng.below(poll_ms * 1000 // trials + 1)
        got.append(play(token, layout, poll_ms, rng, min(phase, poll_ms * 1000 - 1), buttons or firmware_buttons)[0])
    got.sort()
    return round(got[len(got) // 2], 2), round(got[-1], 2)


def tokens(layout):
    """The tokens measured on layout: TOKENS, and on the keypad its own keys too."""
    return TOKENS + KEYPAD_TOKENS if layout == "keypad" else TOKENS


def delays(layout="4key", poll_ms=1, trials=TRIALS, buttons=None):
    """{token: (typical_ms, worst_ms)} for every token of ``tokens(layout)``."""
    return {tok: event_delay_ms(tok, layout, poll_ms, trials, buttons) for tok in tokens(layout)}


def buttons_from_source(text, name="buttons_under_test"):
    """Another version of teatally/buttons.py (its source text) as a module
    event_delay_ms can measure, e.g. the one before issue 23 from git."""
    mod = types.ModuleType(name)
    exec(compile(text, name + ".py", "exec"), mod.__dict__)
    return mod


_DELAYS = {}  # layout -> {token: (typical, worst)}, measured once a run


def input_delay_ms(token, layout):
    """From the key's deciding edge to the event the app gets (the
    firmware's debounce under the bounce model, polled every app.POLL_MS):
    the typical delay, as the bench charges every press."""
    if layout not in _DELAYS:
        _DELAYS[layout] = delays(layout, poll_ms=1)
    return _DELAYS[layout][token][0]
