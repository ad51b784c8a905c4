"""Helpers shared by the Tea for 2 engine tests (not a test module).

Records are lists of JSON-able objects, setup first, exactly as the record
file holds them; the helpers apply them through the public engine API.
"""

from teatally import jsonc, t42

OBJECTIVES = {"4": "tarts", "5": "most:king", "6": "deck", "7": "destroyed", "8": "hourglasses"}

# A scenario for the MicroPython comparison: replays every *.jsonl file of
# FLASH line by line (state JSON or the refusal after each line), then loads
# it again with teatally.record.load (the path of `teatally replay`).

# Guest helpers for heap figures on MicroPython: heap() is the live heap after
# a collection. scrub() overwrites stale stack slots first: the collector is
# conservative and a stale pointer keeps garbage alive (kilobytes of noise).
GUEST_HEAP = """
import gc
def scrub(n):
    a = b = c = d = e = f = g = h = i = j = k = m = 0
    if n:
        scrub(n - 1)
def heap():
    scrub(30)
    gc.collect()
    return gc.mem_alloc()
"""
REPLAY_SCRIPT = """
import os
from teatally import jsonc, record, t42
from teatally.journal import RecordError, parse_record_lines

for name in sorted(os.listdir(FLASH)):
    if not name.endswith('.jsonl'):
        continue
    f = open(FLASH + '/' + name, 'rb')
    text = f.read()
    f.close()
    print('== ' + name)
    game = None
    for n, obj in parse_record_lines(text):
        try:
            if game is None:
                game = t42.Game(obj)
            else:
                game.apply(obj)
            print(n, jsonc.dumps(t42.to_json(game.state)))
        except t42.Refused as exc:
            print(n, 'refused:', str(exc))
    game = None
    try:
        print('load', jsonc.dumps(t42.to_json(record.load(text).state)))
    except RecordError as exc:
        print('load line', exc.line, exc.reason)
"""


def setup(flamingo="blue", watch="stars", objectives=None):
    return {"game": "tea-for-2", "flamingo": flamingo, "watch": watch, "objectives": dict(objectives or OBJECTIVES)}


def play(record):
    """The Game after every line of record (each must be legal)."""
    game = t42.Game(record[0])
    for line in record[1:]:
        game.apply(line)
    return game


def dump(state):
    return jsonc.dumps(t42.to_json(state))


def refusal(record):
    """Apply all lines but the last, check the last is refused without
    touching the state (T42-INPUT-3); return the reason."""
    game = play(record[:-1])
    before = dump(game.state)
    try:
        game.apply(record[-1])
    except t42.Refused as exc:
        assert dump(game.state) == before
        return str(exc)
    raise AssertionError("line was accepted: %r" % (record[-1],))


def cards_of(draw):
    """The draw multiset as a list in CARDS order."""
    out = []
    for c in t42.CARDS:
        out.extend([c] * draw.get(c, 0))
    return out


def drain(game, last_blue=None, last_pink=None):
    """Rounds revealing every card of both (equal-sized) draw piles, in CARDS
    order, with the given cards kept for the last round; no actions. The
    rounds are applied to game and returned."""
    order = []
    for p, last in ((0, last_blue), (1, last_pink)):
        cards = cards_of(game.state.players[p].draw)
        if last is not None:
            cards.remove(last)
            cards.append(last)
        order.append(cards)
    assert len(order[0]) == len(order[1])
    lines = []
    for b, k in zip(order[0], order[1], strict=True):
        line = {"blue": b, "pink": k}
        game.apply(line)
        lines.append(line)
    return lines


def buy_round(game, v, extra=None):
    """A round in which the winner buys from pile v: blue reveals its lowest
    card, pink its highest; an adjustment hands the winner the missing tarts
    first. `extra` adds keys to the round (and an adjustment gives the
    hourglasses it spends). Applied to game; returns the lines."""
    s = game.state
    b = cards_of(s.players[0].draw)[0]
    k = cards_of(s.players[1].draw)[-1]
    w = t42.round_winner(s.flamingo, b, k)
    cost = t42.buy_cost(v, t42.VALUE[(b, k)[w]] - t42.VALUE[(b, k)[1 - w]])
    give = {}
    if cost > s.players[w].tarts:
        give["tarts"] = cost - s.players[w].tarts
    line = {"blue": b, "pink": k, "buy": v}
    if extra:
        line.update(extra)
        if extra.get("hourglasses"):
            give["hourglasses"] = extra["hourglasses"]
    lines = [{"adjust": {t42.PLAYERS[w]: give}}] if give else []
    lines.append(line)
    for obj in lines:
        game.apply(obj)
    return lines


def buy_out(game, piles, leave=0):
    """Buying rounds (buy_round) from the first non-empty pile of `piles`
    until they hold `leave` cards in all. Applied to game and returned."""
    lines = []
    while True:
        todo = [v for v in piles if game.state.pile(v) > 0]
        if sum(game.state.pile(v) for v in piles) <= leave:
            return lines
        lines += buy_round(game, todo[0])


# games of gen.random_game(seed, style="copies", decline_rate=0.35) that
# decline copies at depths 1..4 between them (tests/test_t42_props.py
# test_declines_reach_every_depth)
DECLINE_SEEDS = (2, 115, 152)


def decline_depths(line):
    """The copy depths (1: the first copy of a chain) at which a round line
    declines a copied effect (T42-COPY-4): a cat's effect nests the copied
    cats under "then"; the watch's copy of a cat shares the cat's own
    parameters, so a decline next to a "space" is that of the next copy."""
    out = []

    def walk(params, depth):
        if params.get("decline") is True:
            out.append(depth)
        if isinstance(params.get("then"), dict):
            walk(params["then"], depth + 1)

    effect = line.get("effect")
    if isinstance(effect, dict) and effect.get("space") == "copy":
        walk(effect, 1)
    watch = line.get("watch")
    if isinstance(watch, dict) and "space" in watch:
        if watch["space"] == "copy":
            walk(watch, 2)
    elif isinstance(watch, dict) and watch.get("decline") is True:
        out.append(1)
    return out
