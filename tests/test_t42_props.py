"""Property tests of the Tea for 2 engine on random legal games.

The games come from teatally_host.gen (seed drawn by Hypothesis); every
state along each game must keep the conservation laws of the components
(T42-SETUP-2 tokens, T42-SHUF-6 rabbits, T42-SETUP-3 piles, decks), undo and
redo must be exact, replay deterministic, and a refused line must leave the
state byte-identical (T42-INPUT-3).
"""

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from t42_support import DECLINE_SEEDS, decline_depths, dump

from teatally import record, t42
from teatally_host import gen

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PROPS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def states(objs):
    """(line, state before, state after) for each line after the setup."""
    game = t42.Game(objs[0])
    for line in objs[1:]:
        before = game.state
        game.apply(line)
        yield line, before, game.state


def deck_counts(player):
    return player.deck()


def check_components(s):
    # T42-SETUP-2: 9 tarts and 5 hourglasses in all, none created or lost
    assert s.supply_tarts + s.players[0].tarts + s.players[1].tarts == t42.TOTAL_TARTS
    assert s.supply_hourglasses + s.players[0].hourglasses + s.players[1].hourglasses == t42.TOTAL_HOURGLASSES
    assert min(s.supply_tarts, s.supply_hourglasses, s.supply_rabbits) >= 0
    for p in s.players:
        assert p.tarts >= 0 and p.hourglasses >= 0 and p.stars >= 0
        assert all(n > 0 for n in p.draw.values())
    # T42-SHUF-6: supply rabbits + rabbits in decks + destroyed rabbits = 7
    rabbits = s.supply_rabbits
    for p in s.players:
        rabbits += p.deck().get("rabbit", 0) + p.destroyed.count("rabbit")
    assert rabbits == t42.TOTAL_RABBITS
    # T42-SETUP-3: piles hold 0..5 cards
    assert all(0 <= n <= t42.PILE_SIZE for n in s.piles)
    # T42-DESTROY-2: the queen stays in every deck
    for p in s.players:
        assert p.deck().get("queen") == 1 and "queen" not in p.destroyed
    # every card of the game is somewhere: decks, destroyed piles, score board
    for c in t42.CARDS:
        if c == "rabbit":
            continue
        total = 2 * t42.START_DECK.count(c) + (t42.PILE_SIZE if c in t42.PILE_CARD.values() else 0)
        where = sum(p.deck().get(c, 0) + p.destroyed.count(c) for p in s.players)
        for v, pc in t42.PILE_CARD.items():
            if pc == c:
                where += s.pile(v)
        assert where == total, c
    # deck = draw + discard, as shown
    j = t42.to_json(s)
    for name in t42.PLAYERS:
        shown = {}
        for c in j[name]["draw"] + j[name]["discard"]:
            shown[c] = shown.get(c, 0) + 1
        assert shown == j[name]["deck"]
        assert j[name]["destroyed"] == len(j[name]["destroyed_cards"])


def check_round_cards(line, s0, s1):
    """A player's deck changes only by the cards bought, the rabbits of its
    reshuffles and the cards destroyed out of it (T42-BUY-3, T42-SHUF-1,
    T42-DESTROY-1)."""
    if "adjust" in line:
        for p in (0, 1):
            assert s1.players[p].deck() == s0.players[p].deck()
        assert s1.piles == s0.piles and s1.supply_rabbits == s0.supply_rabbits
        return
    w = s1.last[2]
    loser = 1 - w
    assert s1.players[loser].destroyed == s0.players[loser].destroyed  # only the winner acts
    new = s1.players[w].destroyed[len(s0.players[w].destroyed) :]
    assert s1.players[w].destroyed[: len(s0.players[w].destroyed)] == s0.players[w].destroyed
    bought = t42.PILE_CARD[line["buy"]] if "buy" in line else None
    rabbits_added = s0.supply_rabbits - s1.supply_rabbits
    d0 = [s0.players[p].deck() for p in (0, 1)]
    d1 = [s1.players[p].deck() for p in (0, 1)]
    for c in t42.CARDS:
        delta = [d1[p].get(c, 0) - d0[p].get(c, 0) for p in (0, 1)]
        destroyed = new.count(c)
        if c == "rabbit":
            # decks gain exactly the rabbits added, less those destroyed
            assert delta[0] + delta[1] == rabbits_added - destroyed
            continue
        from_board = 0
        for v, pc in t42.PILE_CARD.items():
            if pc == c:
                from_board = s0.pile(v) - s1.pile(v) - (1 if bought == c else 0)
        from_loser = -delta[loser]
        from_winner = (1 if bought == c else 0) - delta[w]
        assert from_board >= 0 and from_loser >= 0 and from_winner >= 0, c
        assert from_board + from_loser + from_winner == destroyed, c


@PROPS
@given(SEEDS)
def test_random_games_keep_the_components(seed):
    """T42-SETUP-2 T42-SHUF-6 T42-SETUP-3 T42-BUY-3 T42-DESTROY-1: along any
    random legal game the tokens, rabbits, piles and cards are conserved."""
    objs = gen.random_game(seed, adjust_rate=0.1)
    check_components(t42.Game(objs[0]).state)
    last = None
    for line, s0, s1 in states(objs):
        check_components(s1)
        check_round_cards(line, s0, s1)
        last = s1
    assert last.over or len(objs) == 1
    assert last.end in ("piles", "rabbits")


@PROPS
@given(SEEDS)
def test_undo_all_redo_all(seed):
    """T42-INPUT-3: undoing every line walks back through exactly the states
    of the game, redoing them all returns the same final state."""
    objs = gen.random_game(seed, adjust_rate=0.05)
    game = t42.Game(objs[0])
    seen = [dump(game.state)]
    for line in objs[1:]:
        game.apply(line)
        seen.append(dump(game.state))
    for k in range(len(objs) - 2, -1, -1):
        game.undo()
        assert dump(game.state) == seen[k]
    for k in range(1, len(objs)):
        game.redo()
        assert dump(game.state) == seen[k]
    assert not game.can_redo()


@PROPS
@given(SEEDS, st.booleans())
def test_replay_is_deterministic(seed, crc):
    """T42-ROUND-1: the record (with or without CRCs) replays to the state the
    generator reached, every time; the same seed gives the same record."""
    objs = gen.random_game(seed)
    assert gen.random_game(seed) == objs
    text = gen.record_text(objs, crc)
    played = t42.Game(objs[0])
    for line in objs[1:]:
        played.apply(line)
    assert dump(record.load(text).state) == dump(played.state) == dump(record.load(text.encode()).state)


@PROPS
@given(SEEDS)
def test_games_declining_copied_effects(seed):
    """T42-COPY-4 T42-COPY-3 T42-SETUP-2 T42-INPUT-3: random games of players
    who send the hand to copy and decline a third of the copied effects
    keep the components, undo and redo exactly through the compact action
    list, and replay to the same state from their text."""
    objs = gen.random_game(seed, adjust_rate=0.05, style="copies", decline_rate=0.35)
    game = t42.Game(objs[0])
    seen = [dump(game.state)]
    for line, s0, s1 in states(objs):
        check_components(s1)
        check_round_cards(line, s0, s1)
    for line in objs[1:]:
        game.apply(line)
        seen.append(dump(game.state))
    assert list(game.actions) == objs[1:]  # {"decline": true} survives the compact storage
    for k in range(len(objs) - 2, -1, -1):
        game.undo()
        assert dump(game.state) == seen[k]
    for _ in range(1, len(objs)):
        game.redo()
    assert dump(game.state) == seen[-1] == dump(record.load(gen.record_text(objs, True)).state)


def test_declines_reach_every_depth():
    """T42-COPY-4 T42-COPY-3: the generator's copy-loving players decline
    copied effects at every depth of a chain, 1 to 4 (the seeds the
    MicroPython comparison replays, tests/test_replay_cli.py)."""
    depths = set()
    for seed in DECLINE_SEEDS:
        for line in gen.random_game(seed, style="copies", decline_rate=0.35)[1:]:
            depths.update(decline_depths(line))
    assert depths == {1, 2, 3, 4}
    # without a decline_rate the generator never declines (the bench's records)
    assert not any(decline_depths(line) for line in gen.random_game(DECLINE_SEEDS[0], style="copies")[1:])


VALUES = st.sampled_from(
    [None, True, False, 0, 1, -1, 4, 5.0, 9, 10, 99, "", "cat", "queen", "copy", "blue", [], ["cat"], {}, {"x": 1}]
)


def _paths(o, pre=()):
    yield pre
    if isinstance(o, dict):
        for k in o:
            yield from _paths(o[k], pre + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from _paths(v, pre + (i,))


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.data())
def test_refused_line_leaves_state_identical(seed, data):
    """T42-INPUT-3: a line mutated at random is either legal or refused
    (never another exception); a refused line leaves the game byte-identical
    (state and line list), in strict mode and when probing."""
    objs = gen.random_game(seed, rounds=data.draw(st.integers(0, 40)), adjust_rate=0.1)
    game = t42.Game(objs[0])
    k = data.draw(st.integers(1, len(objs) - 1)) if len(objs) > 1 else None
    for line in objs[1:k]:
        game.apply(line)
    base = copy.deepcopy(objs[k]) if k else {"blue": "cat", "pink": "cat"}
    paths = list(_paths(base))[1:]
    path = data.draw(st.sampled_from(paths))
    parent = base
    for key in path[:-1]:
        parent = parent[key]
    how = data.draw(st.sampled_from(("set", "delete", "add")))
    if how == "delete" and isinstance(parent, dict):
        del parent[path[-1]]
    elif how == "add" and isinstance(parent, dict):
        parent["extra"] = data.draw(VALUES)
    else:
        parent[path[-1]] = data.draw(VALUES)
    before = dump(game.state)
    n_actions = len(game.actions)
    try:
        game.apply(base)
    except t42.Refused:
        assert dump(game.state) == before and len(game.actions) == n_actions
    try:
        game.probe(copy.deepcopy(base))
    except t42.Refused:
        pass
    assert len(game.actions) in (n_actions, n_actions + 1)


@settings(max_examples=15, deadline=None)
@given(SEEDS)
def test_probe_answers_complete_every_generated_line(seed):
    """T42-INPUT-1: every line of a generated game is complete for the probe
    (no Need left), and removing its hourglasses brings the question back,
    unless the winner holds none: then the probe writes the 0 itself."""
    objs = gen.random_game(seed)
    game = t42.Game(objs[0])
    for line in objs[1:]:
        assert game.probe(copy.deepcopy(line)) is None
        partial = {k: v for k, v in line.items() if k not in ("hourglasses", "watch")}
        need = game.probe(partial)
        if need is None:
            assert partial["hourglasses"] == 0 == line.get("hourglasses", 0) and "watch" not in line
        else:
            assert need.kind == t42.ASK_HOURGLASSES and need.key == "hourglasses" and need.options[1] > 0
        game.apply(line)


def test_long_style_reaches_sixty_rounds():
    """T42-END-2: hoarding players (style "long") delay the rabbit end; the
    benchmark's 60-round record exists and is cut at exactly 60 rounds."""
    seed, objs = gen.long_game(60)
    assert len(objs) == 61 and objs == gen.random_game(seed, 60, style="long")
    game = record.load(gen.record_text(objs))
    assert game.state.round == 60
