"""Tea Time score pad (seeds/tea-time.md): scoring, winners, checks, entry fields.

The logic runs through `dual` (CPython and MicroPython, one batched script);
Hypothesis properties run on CPython only.
"""

import itertools

from hypothesis import given
from hypothesis import strategies as st

from teatally import teatime

# One MicroPython run covers every case below; each line is "label: value".
SCRIPT = r"""
from teatally import teatime as T

def show(label, fn):
    try:
        r = fn()
    except ValueError as e:
        r = 'ValueError: ' + str(e)
    print('%s: %r' % (label, r))

for n in (1, 2, 3, 4, 5):
    show('setup%d' % n, lambda: T.setup(n))
    show('limit%d' % n, lambda: T.box_limit(n))
show('table', lambda: [T.points_for_count(n) for n in range(11)])
show('table_neg', lambda: T.points_for_count(-1))
show('example', lambda: T.player_score([0, 0, 2, 1, 4, 6], True))
show('example_no_alice', lambda: T.player_score([0, 0, 2, 1, 4, 6], False))
show('empty', lambda: T.player_score([0] * 6, False))
show('fives', lambda: T.player_score([5] * 6, True))

P = ([0, 0, 2, 1, 4, 6], True)
Q = ([1, 1, 1, 1, 1, 1], False)
R = ([0, 0, 2, 1, 4, 6], False)
S = ([2, 2, 2, 2, 2, 2], False)
def winners(players):
    return T.winners(players, T.score(players))
show('score_pq', lambda: T.score([P, Q]))
show('win_pq', lambda: winners([P, Q]))
show('win_qp', lambda: winners([Q, P]))
# Alice holder tied with others on top: the holder alone wins.
A = ([0, 0, 2, 1, 4, 2], True)   # 5+5+3+1+10+3+4 = 31
B = ([0, 0, 2, 1, 4, 3], False)  # 5+5+3+1+10+6 = 30
C = ([0, 0, 2, 1, 4, 4], False)  # 34
D = ([0, 0, 2, 1, 3, 4], False)  # 5+5+3+1+6+10 = 30
E = ([0, 0, 3, 1, 4, 2], False)  # 5+5+6+1+10+3 = 30
F = ([0, 0, 0, 0, 0, 0], False)  # 30
show('scores_abcd', lambda: T.score([A, B, C, D, E, F]))
G = ([0, 0, 2, 1, 4, 3], True)   # 34 with Alice
show('win_alice_tie', lambda: winners([C, G, B]))   # shared: no tie-break
show('win_alice_tie2', lambda: winners([G, C]))
H = ([1, 1, 1, 1, 1, 1], True)   # 10 with Alice
show('win_shared', lambda: winners([B, D, H]))
show('win_alice_top', lambda: winners([B, D, A]))
show('win_shared3', lambda: winners([B, D, E, ([1, 1, 1, 1, 1, 1], True)]))
show('win_top_no_tie', lambda: winners([A, B]))
show('holder', lambda: T.alice_holder([B, D, A]))
show('holder_none', lambda: T.alice_holder([B, D]))

show('take', lambda: [T.take(0, 2), T.take(2, 1), T.take(-3, 1), T.take(-1, 1), T.take(1, -2), T.take(0, 0)])

V = ([0, 0, 2, 5, 4, 0], False)  # with P every total is even
Z = ([0] * 6, False)
ok = lambda: T.validate([P, V])
show('v_ok', ok)
show('v_ok4', lambda: T.validate([P, V, Z, Z]))
show('v_odd', lambda: T.validate([P, Q]))
show('v_odd3', lambda: T.validate([([1, 0, 0, 0, 0, 0], True), Z, Z]))
show('tp_ok', lambda: T.totals_problem([P, V]))
show('tp_odd', lambda: T.totals_problem([P, Q, Q]))
show('tp_early', lambda: T.validate_counts([P, Q]))
show('v_1p', lambda: T.validate([P]))
show('v_5p', lambda: T.validate([P, Q, Q, Q, Q]))
show('v_notlist', lambda: T.validate('ab'))
show('v_shape', lambda: T.validate([P, [1, 2, 3]]))
show('v_len5', lambda: T.validate([P, ([1, 1, 1, 1, 1], False)]))
show('v_len7', lambda: T.validate([P, ([1, 1, 1, 1, 1, 1, 1], False)]))
show('v_neg', lambda: T.validate([P, ([1, 1, -1, 1, 1, 1], False)]))
show('v_str', lambda: T.validate([P, ([1, 1, 1, '1', 1, 1], False)]))
show('v_bool', lambda: T.validate([P, ([1, True, 1, 1, 1, 1], False)]))
show('v_box2', lambda: T.validate([([0, 0, 0, 0, 0, 11], True), Q]))
show('v_box2_edge', lambda: T.validate([([0, 0, 0, 0, 0, 9], True), ([0, 0, 0, 0, 0, 1], False)]))
show('v_box3', lambda: T.validate([([9, 0, 0, 0, 0, 0], True), ([0] * 6, False), ([0] * 6, False)]))
show('v_box3_edge', lambda: T.validate([([8, 0, 0, 0, 0, 0], True), ([0] * 6, False), ([0] * 6, False)]))
show('v_sum', lambda: T.validate([([0, 6, 0, 0, 0, 0], True), ([0, 5, 0, 0, 0, 0], False)]))
show('v_sum3', lambda: T.validate([([0, 4, 0, 0, 0, 0], True), ([0, 4, 0, 0, 0, 0], False),
                                   ([0, 1, 0, 0, 0, 0], False)]))
show('v_two_alice', lambda: T.validate([H, Q, H]))
show('v_no_alice', lambda: T.validate([Q, Q]))
show('v_alice_int', lambda: T.validate([P, ([1] * 6, 0)]))

show('fields2', lambda: T.fields(2))
show('fields3', lambda: [f[3] for f in T.fields(3)])
show('FIELDS', lambda: T.FIELDS == T.fields(4))
show('labels', lambda: max([len(f[1]) for f in T.FIELDS]) <= 12 and max([len(s) for s in T.LABELS]) <= 10)
show('fp', lambda: [T.field_points('hatter', n) for n in range(7)]
                   + [T.field_points('alice', 0), T.field_points('alice', 1)])
show('fp_bad', lambda: T.field_points('dormouse', 1))
show('chars', lambda: T.CHARACTERS)
"""


def _parse(out):
    res = {}
    for line in out.splitlines():
        label, _, value = line.partition(": ")
        assert label not in res
        res[label] = value
    return res


def test_teatime_logic_on_both_interpreters(dual):
    r = _parse(dual(SCRIPT))

    # TTM-SETUP-1 rounds by player count; TTM-SETUP-2 grid sizes; TTM-SETUP-3 cards removed with 3 players.
    assert r["setup2"] == "(5, 3, 4, 0)"
    assert r["setup3"] == "(3, 4, 4, 2)"
    assert r["setup4"] == "(3, 4, 5, 0)"
    assert r["setup1"] == r["setup5"].replace("5", "1") == "'ValueError: tea-time needs 2 to 4 players, got 1'"
    assert (r["limit2"], r["limit3"], r["limit4"]) == ("10", "8", "10")

    # TTM-SCORE-1 the table, five or more all score 15.
    assert r["table"] == "[5, 1, 3, 6, 10, 15, 15, 15, 15, 15, 15]"
    assert r["table_neg"].startswith("'ValueError")
    # TTM-SCORE-3 rulebook example 43; TTM-SCORE-2 Alice is worth 4.
    assert r["example"] == "43"
    assert r["example_no_alice"] == "39"
    assert r["empty"] == "30"
    assert r["fives"] == "94"
    assert r["score_pq"] == "[43, 6]"

    # TTM-WIN-1 highest score wins, whatever the seat.
    assert r["win_pq"] == "[0]" and r["win_qp"] == "[1]"
    assert r["win_top_no_tie"] == "[0]"
    assert r["scores_abcd"] == "[31, 30, 34, 30, 30, 30]"
    # TTM-WIN-2 tie on top: shared, the Alice holder among them or not (no tie-break).
    assert r["win_alice_tie"] == "[0, 1]" and r["win_alice_tie2"] == "[0, 1]"
    assert r["win_shared"] == "[0, 1]"
    assert r["win_alice_top"] == "[2]"  # A (31, Alice) simply beats B and D (30)
    assert r["win_shared3"] == "[0, 1, 2]"

    # TTM-PLAY-1 the Alice holder (starts the next round).
    assert r["holder"] == "2" and r["holder_none"] == "None"
    # TTM-PLAY-2 opposite faces cancel pairwise: signed columns add.
    assert r["take"] == "[2, 3, -2, 0, -1, 0]"

    # TTM-VALID-1 shape, integers, non-negative.
    assert r["v_ok"] == r["v_ok4"] == "None"
    assert "2 to 4 players, got 1" in r["v_1p"] and "got 5" in r["v_5p"]
    assert "players must be a list" in r["v_notlist"]
    assert "player 2: expected (counts, alice)" in r["v_shape"]
    assert "player 2: counts must be a list of 6 integers" in r["v_len5"] and "6 integers" in r["v_len7"]
    assert "player 2: white_rabbit count -1 is negative" in r["v_neg"]
    assert "player 2: caterpillar count must be an integer" in r["v_str"]
    assert "player 2: cheshire_cat count must be an integer, got True" in r["v_bool"]
    assert "player 2: alice must be true or false, got 0" in r["v_alice_int"]
    # TTM-VALID-2 box limits: 10 per character, 8 with three players, also summed over players.
    assert "player 1: march_hare count 11 is more than the box holds (10 with 2 players)" in r["v_box2"]
    assert r["v_box2_edge"] == "None"
    assert "player 1: hatter count 9 is more than the box holds (8 with 3 players)" in r["v_box3"]
    assert r["v_box3_edge"] == "None"
    # TTM-VALID-4 a finished game's totals are the box less pairs: even.
    odd = "%s: the players hold %d in all, an odd number; a finished game leaves the box's %d less cancelled pairs"
    assert r["v_odd"] == repr("ValueError: " + odd % ("hatter", 1, 10))
    assert r["v_odd3"] == repr("ValueError: " + odd % ("hatter", 1, 8))
    assert r["tp_ok"] == "None" and r["tp_odd"] == repr(odd % ("caterpillar", 3, 8))  # 3 players
    assert r["tp_early"] == "None"  # the counts alone are fine: the pad may score a game early
    assert "cheshire_cat: players hold 11 cards in total, the box holds 10 with 2 players" in r["v_sum"]
    assert "cheshire_cat: players hold 9 cards in total, the box holds 8 with 3 players" in r["v_sum3"]
    # TTM-VALID-3 exactly one Alice holder.
    assert "more than one player holds Alice (players 1, 3)" in r["v_two_alice"]
    assert "no player holds Alice" in r["v_no_alice"]

    # TTM-PAD-1 entry fields: six characters up to the box limit, then Alice 0..1, with their points.
    assert r["fields2"] == (
        "(('hatter', 'Hatter', 0, 10), ('cheshire_cat', 'Cheshire', 0, 10), ('white_rabbit', 'W. Rabbit', 0, 10), "
        "('caterpillar', 'Caterpill.', 0, 10), ('queen', 'Queen', 0, 10), ('march_hare', 'March Hare', 0, 10), "
        "('alice', 'Alice', 0, 1))"
    )
    assert r["fields3"] == "[8, 8, 8, 8, 8, 8, 1]"
    assert r["FIELDS"] == "True" and r["labels"] == "True"
    assert r["fp"] == "[5, 1, 3, 6, 10, 15, 15, 0, 4]"
    assert "unknown tea-time field 'dormouse'" in r["fp_bad"]
    # TTM-SETUP-4 the six characters in their fixed order.
    assert r["chars"] == "('hatter', 'cheshire_cat', 'white_rabbit', 'caterpillar', 'queen', 'march_hare')"


@st.composite
def games(draw):
    n = draw(st.integers(2, 4))
    limit = teatime.box_limit(n)
    cols = [draw(st.lists(st.integers(0, limit), min_size=n, max_size=n)) for _ in range(6)]
    # keep each character's total within the box, and even (TTM-VALID-4)
    for c in cols:
        while sum(c) > limit or sum(c) % 2:
            c[c.index(max(c))] -= 1
    holder = draw(st.integers(0, n - 1))
    return [([cols[k][i] for k in range(6)], i == holder) for i in range(n)]


@given(games(), st.randoms())
def test_scores_follow_players_not_seats(players, rnd):
    """TTM-SCORE-3 / TTM-WIN-1: reseating the players permutes scores and winners, nothing else."""
    teatime.validate(players)
    scores = teatime.score(players)
    order = list(range(len(players)))
    rnd.shuffle(order)
    seated = [players[i] for i in order]
    assert teatime.score(seated) == [scores[i] for i in order]
    assert sorted(order[i] for i in teatime.winners(seated, teatime.score(seated))) == teatime.winners(players, scores)


@given(games())
def test_winners_are_all_the_top_scores(players):
    """TTM-WIN-1 / TTM-WIN-2 against a brute-force reading: every player
    with the top score wins, whoever holds Alice."""
    scores = teatime.score(players)
    won = teatime.winners(players, scores)
    assert won == [i for i, s in enumerate(scores) if s == max(scores)]


@given(st.lists(st.integers(0, 10), min_size=6, max_size=6), st.integers(0, 5), st.booleans())
def test_adding_a_card_changes_the_score_by_the_table_step(counts, k, alice):
    """TTM-SCORE-1: adding a card to a column changes the score by exactly the table's step."""
    base = teatime.player_score(counts, alice)
    more = list(counts)
    more[k] += 1
    step = teatime.points_for_count(more[k]) - teatime.points_for_count(counts[k])
    assert teatime.player_score(more, alice) - base == step
    assert step in (-4, 2, 3, 4, 5, 0)


def test_every_count_combination_scores_within_bounds():
    """TTM-SCORE-1 / TTM-SCORE-2: extremes over all 0..5 columns (a small exhaustive sweep)."""
    seen = {teatime.player_score(c, False) for c in itertools.product(range(6), repeat=3)}
    assert min(seen) == 3 and max(seen) == 45
