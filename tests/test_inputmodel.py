"""The bench's input model (teatally_host.inputmodel): the firmware's Keys
under bouncing contacts, from a key's deciding edge to its event.

The model runs teatally.buttons on CPython only (the firmware's behaviour on
both interpreters is tests/test_buttons.py's, with its own bounce model)."""

from pathlib import Path

import pytest

from teatally import buttons
from teatally.compat import ticks_diff
from teatally_host import inputmodel


class StableFor:
    """The debounce before issue 23 (a level counts once stable for
    interval_ms), to check the model sees what it cost."""

    def __init__(self, predicate, interval_ms=20, now_ms=0):
        self._fn = predicate
        self._interval = interval_ms
        self._raw = self.value = bool(predicate())
        self._since = now_ms
        self.rose = self.fell = False

    def update(self, now_ms):
        self.rose = self.fell = False
        raw = bool(self._fn())
        if raw != self._raw:
            self._raw = raw
            self._since = now_ms
        if raw != self.value and ticks_diff(now_ms, self._since) >= self._interval:
            self.value = raw
            self.rose = raw
            self.fell = not raw
            return True
        return False


def trailing():
    mod = inputmodel.buttons_from_source(Path(buttons.__file__).read_text())
    mod.Debouncer = StableFor
    return mod


@pytest.mark.parametrize("layout", inputmodel.LAYOUTS)
def test_every_event_within_a_poll_of_its_edge_plus_the_bounce(layout):
    for poll in (1, 4):
        d = inputmodel.delays(layout, poll, trials=12)
        assert set(d) == set(inputmodel.tokens(layout))
        scan = inputmodel.SCAN_MS if layout == "keypad" else 0  # the keypad's matrix scan, before the event
        for tok, (typical, worst) in d.items():
            # the first poll after the edge, or the first after the bounce
            # when that poll lands in a bounce back
            assert 0 <= typical <= worst <= poll + inputmodel.BOUNCE_MS + scan, (tok, poll)
            if poll == 1:
                assert typical <= 1 + scan, tok


def test_the_old_debounce_cost_20_ms():
    old = trailing()
    typical, worst = inputmodel.event_delay_ms("ok", "4key", 1, trials=12, buttons=old)
    assert typical >= 20 and worst >= typical
    new = inputmodel.event_delay_ms("ok", "4key", 1, trials=12)
    assert new[0] <= 1 and new[1] < 20


def test_the_same_numbers_every_run():
    assert inputmodel.event_delay_ms("UP", "2key", 2, trials=8) == inputmodel.event_delay_ms("UP", "2key", 2, trials=8)


def test_a_trial_plays_the_gesture_the_simulator_plays():
    """One bouncing trial: the events the gesture gives, the token's once."""
    rng = inputmodel.Lcg(5)
    _, seen = inputmodel.play("UP", "4key", 1, rng, 300)
    assert seen == ["PRESS UP", "LONG UP"]  # a long UP: the step at the press, the LONG
    _, seen = inputmodel.play("DOWN", "2key", 1, rng, 300)
    assert seen == ["LONG DOWN"]  # A held: no PRESS first (it might have been a chord)
    for tok, want in (("up", "PRESS UP"), ("OK", "LONG OK"), ("back", "PRESS BACK"), ("BACK", "LONG BACK")):
        _, seen = inputmodel.play(tok, "2key", 1, rng, 700)
        assert seen == [want], tok


def test_a_keypad_trial_goes_through_the_matrix_scan():
    """The keypad's keys through its matrix wires and the Pico's scan: a
    digit once at its press, its letters as the 4-key board's keys."""
    rng = inputmodel.Lcg(3)
    cases = (("5", ["PRESS 5"]), ("hash", ["PRESS #"]), ("UP", ["PRESS UP", "LONG UP"]), ("back", ["PRESS BACK"]))
    for tok, want in cases:
        _, seen = inputmodel.play(tok, "keypad", 1, rng, 300)
        assert seen == want, tok
    with pytest.raises(ValueError):
        inputmodel.event_delay_ms("5", "4key", 1)


def test_bounce_is_over_within_5_ms_and_ends_on_the_new_level():
    rng = inputmodel.Lcg(9)
    counts = set()
    for _ in range(200):
        edges = inputmodel.chatter(1000, True, rng)
        counts.add(len(edges))
        times = [t for t, _ in edges]
        assert times == sorted(set(times)) and times[-1] - times[0] <= inputmodel.BOUNCE_MS * 1000
        assert [lv for _, lv in edges] == [True, False, True, False, True][: len(edges)]
        assert edges[-1][1] is True
    assert counts == {1, 3, 5}


@pytest.mark.parametrize(
    "args", [("left", "4key", 1), ("ok", "3key", 1), ("ok", "4key", 0), ("ok", "4key", 1.5), ("long:ok", "4key", 1)]
)
def test_bad_arguments_are_refused(args):
    with pytest.raises(ValueError):
        inputmodel.event_delay_ms(*args)


def test_the_policy_line_for_the_readme():
    line = inputmodel.POLICY
    assert "\n" not in line and "20 ms" in line and "UP/DOWN" in line
