"""Tea Witches score pad (seeds/tea-witches.md): categories A..I, tie-breaks, checks, entry fields.

The logic runs through `dual` (CPython and MicroPython, one batched script);
Hypothesis properties run on CPython only.
"""

from hypothesis import given
from hypothesis import strategies as st

from teatally import jsonc
from teatally.rules import witches

SCRIPT = r"""
from teatally.rules import witches as W
from teatally.jsonc import dumps

def show(label, fn):
    try:
        r = fn()
    except ValueError as e:
        r = 'ValueError: ' + str(e)
    print('%s: %s' % (label, dumps(r) if not isinstance(r, str) else r))

def pl(**kw):
    p = {}
    for k in W.KEYS:
        p[k] = 0
    for k in kw:
        p[k] = kw[k]
    return p

def only(key, value):
    return W.score(pl(**{key: value}))

# The rulebook example: raw counts that convert to A2 B1 C10 D3 E20 F18 G12 H8 I2.
JOEY = pl(coins=5, teas=2, upgrades=10, coupons=3, loyal_witches=5, loyal_celebriteas=3,
          hex_wards=3, togo2=2, togo4=1, special_teas=1, loyal_track=4)
show('joey', lambda: W.score(JOEY))
show('zero', lambda: W.score(pl()))
show('A', lambda: [only('coins', n)['A'] for n in range(6)])
show('B', lambda: [only('teas', n)['B'] for n in range(6)])
show('C', lambda: [only('upgrades', n)['C'] for n in (0, 1, 7, 23)])
show('D', lambda: [only('coupons', n)['D'] for n in (0, 1, 35)])
show('E', lambda: [only('loyal_witches', n)['E'] for n in (0, 1, 5)])
show('F', lambda: [only('loyal_celebriteas', n)['F'] for n in (0, 1, 3)])
show('G', lambda: [only('hex_wards', n)['G'] for n in range(4)])
show('H', lambda: [W.score(pl(togo2=a, togo4=b))['H'] for a, b in ((0, 0), (1, 0), (0, 1), (2, 1), (3, 2))])
show('I', lambda: [only('special_teas', n)['I'] for n in (0, 1, 4)])
show('track_scores_nothing', lambda: only('loyal_track', 40)['total'])
show('G4', lambda: only('hex_wards', 4))

def winners(players):
    return W.winners(players, [W.score(p) for p in players])
show('solo', lambda: winners([pl()]))
show('most', lambda: winners([pl(coins=4), pl(coins=6), pl(coins=2)]))
# all tied on 3 prestige; coupons decide
show('tie_coupons', lambda: winners([pl(upgrades=3), pl(upgrades=1, coupons=2), pl(coins=2, upgrades=2)]))
# tied on prestige and coupons; the track decides
show('tie_track', lambda: winners([pl(coupons=1, upgrades=2, loyal_track=3), pl(coupons=1, upgrades=2, loyal_track=5),
                                   pl(upgrades=3, loyal_track=9)]))
# tied on everything: shared (the lower player is out)
show('tie_shared', lambda: winners([pl(coupons=2, loyal_track=4), pl(coins=1), pl(coupons=2, loyal_track=4)]))
# coupons only count once prestige is tied: more coupons but fewer points loses
show('coupons_not_first', lambda: winners([pl(coupons=5), pl(loyal_witches=2)]))
# the track only counts once coupons are tied
show('track_not_before_coupons', lambda: winners([pl(coupons=2, loyal_track=1),
                                                  pl(coupons=1, upgrades=1, loyal_track=9)]))

show('v_ok', lambda: W.validate([JOEY, pl(), pl(), pl()]))
show('v_0p', lambda: W.validate([]))
show('v_5p', lambda: W.validate([pl()] * 5))
show('v_notlist', lambda: W.validate(pl()))
show('v_notdict', lambda: W.validate([pl(), [1, 2]]))
def missing(key):
    p = pl()
    del p[key]
    return p
show('v_missing', lambda: W.validate([pl(), missing('loyal_track')]))
show('v_missing_coins', lambda: W.validate([missing('coins')]))
show('v_neg', lambda: W.validate([pl(teas=-1)]))
show('v_hex4', lambda: W.validate([pl(hex_wards=4)]))
show('v_hex3', lambda: W.validate([pl(hex_wards=3)]))
show('v_coupons36', lambda: W.validate([pl(coupons=36)]))
show('v_coins1000', lambda: W.validate([pl(coins=1000)]))
show('v_coins999', lambda: W.validate([pl(coins=999)]))
show('v_teas100', lambda: W.validate([pl(teas=100)]))
show('v_str', lambda: W.validate([pl(togo4='2')]))
show('v_bool', lambda: W.validate([pl(special_teas=True)]))
show('v_none', lambda: W.validate([pl(loyal_track=None)]))
show('v_extra', lambda: W.validate([pl(hexwards=1)]))

show('fields', lambda: [list(f) for f in W.FIELDS])
show('labels_fit', lambda: max([len(f[1]) for f in W.FIELDS]) <= 12)
show('field_points', lambda: [W.field_points(f[0], 3) for f in W.FIELDS])
show('field_sum', lambda: sum([W.field_points(k, JOEY[k]) for k in W.KEYS]))
show('fp_bad', lambda: W.field_points('tarts', 1))
"""


def _parse(out):
    res = {}
    for line in out.splitlines():
        label, _, value = line.partition(": ")
        assert label not in res
        res[label] = value
    return res


def test_witches_logic_on_both_interpreters(dual):
    r = _parse(dual(SCRIPT))

    # TWI-TOTAL-1 the rulebook example: A2 B1 C10 D3 E20 F18 G12 H8 I2 = 76.
    assert r["joey"] == '{"A": 2, "B": 1, "C": 10, "D": 3, "E": 20, "F": 18, "G": 12, "H": 8, "I": 2, "total": 76}'
    assert r["zero"] == '{"A": 0, "B": 0, "C": 0, "D": 0, "E": 0, "F": 0, "G": 0, "H": 0, "I": 0, "total": 0}'
    assert r["A"] == "[0, 0, 1, 1, 2, 2]"  # TWI-A-1 one per full pair of coins
    assert r["B"] == "[0, 0, 1, 1, 2, 2]"  # TWI-B-1 one per full pair of Hut teas
    assert r["C"] == "[0, 1, 7, 23]"  # TWI-C-1 entered as the printed sum
    assert r["D"] == "[0, 1, 35]"  # TWI-D-1 one per unused coupon
    assert r["E"] == "[0, 4, 20]"  # TWI-E-1 four per loyal basic witch
    assert r["F"] == "[0, 6, 18]"  # TWI-F-1 six per loyal Celebri-Tea
    assert r["G"] == "[0, 3, 6, 12]"  # TWI-G-1 bought wards 0/1/2/3
    assert r["H"] == "[0, 2, 4, 8, 14]"  # TWI-H-1 two per small order, four per large
    assert r["I"] == "[0, 2, 8]"  # TWI-I-1 two per unused special-tea
    assert r["track_scores_nothing"] == "0"  # TWI-TIE-2 the track is a tie-break only
    assert r["G4"] == "ValueError: hex_wards must be 0 to 3, got 4"

    # TWI-SETUP-1 a single player is the winner.
    assert r["solo"] == "[0]"
    # TWI-WIN-1 most prestige wins.
    assert r["most"] == "[1]"
    assert r["coupons_not_first"] == "[1]"
    # TWI-TIE-1 most unused coupons among the tied.
    assert r["tie_coupons"] == "[1]"
    # TWI-TIE-2 then the furthest Loyal-Tea token, and only after coupons.
    assert r["tie_track"] == "[1]"
    assert r["track_not_before_coupons"] == "[0]"
    # TWI-TIE-3 then a shared win.
    assert r["tie_shared"] == "[0, 2]"

    # TWI-VALID-1 all eleven whole numbers >= 0, nothing unknown; TWI-SETUP-1 one to four players.
    assert r["v_ok"] == "null"
    assert r["v_0p"] == "ValueError: tea-witches needs 1 to 4 players, got 0"
    assert r["v_5p"] == "ValueError: tea-witches needs 1 to 4 players, got 5"
    assert r["v_notlist"] == "ValueError: players must be a list"
    assert r["v_notdict"] == "ValueError: player 2: expected an object with the score-pad counts"
    assert r["v_missing"] == "ValueError: player 2: missing loyal_track"
    assert r["v_missing_coins"] == "ValueError: player 1: missing coins"
    assert r["v_neg"] == "ValueError: player 1: teas -1 is negative"
    assert r["v_str"] == "ValueError: player 1: togo4 must be an integer, got '2'"
    assert r["v_bool"] == "ValueError: player 1: special_teas must be an integer, got True"
    assert r["v_none"] == "ValueError: player 1: loyal_track must be an integer, got None"
    assert r["v_extra"] == "ValueError: player 1: unknown field hexwards"
    # TWI-VALID-2 three bought hex wards at most.
    assert r["v_hex4"] == "ValueError: player 1: hex_wards is 4, at most 3"
    assert r["v_hex3"] == "null"
    # TWI-VALID-3 upper limits.
    assert r["v_coupons36"] == "ValueError: player 1: coupons is 36, at most 35"
    assert r["v_coins1000"] == "ValueError: player 1: coins is 1000, at most 999"
    assert r["v_coins999"] == "null"
    assert r["v_teas100"] == "ValueError: player 1: teas is 100, at most 99"

    # TWI-PAD-1 entry fields A..I then the track, labels fit, per-field prestige.
    assert r["fields"] == (
        '[["coins", "A Coins", 0, 999], ["teas", "B Hut teas", 0, 99], ["upgrades", "C Upgrades", 0, 999], '
        '["coupons", "D Coupons", 0, 35], ["loyal_witches", "E Witches", 0, 99], '
        '["loyal_celebriteas", "F Celebri", 0, 99], ["hex_wards", "G Hex wards", 0, 3], ["togo2", "H To-go 2", 0, 99], '
        '["togo4", "H To-go 4", 0, 99], ["special_teas", "I Spec.teas", 0, 99], ["loyal_track", "Loyal track", 0, 99]]'
    )
    assert r["labels_fit"] == "true"
    assert r["field_points"] == "[1, 1, 3, 3, 12, 18, 12, 6, 12, 6, 0]"
    assert r["field_sum"] == "76"
    assert r["fp_bad"] == "ValueError: unknown tea-witches field 'tarts'"


def _player_strategy():
    return st.fixed_dictionaries({key: st.integers(lo, hi) for key, _label, lo, hi in witches.FIELDS})


@given(_player_strategy())
def test_total_is_the_sum_of_categories(p):
    """TWI-TOTAL-1: the total is A+...+I, and each category is the sum of its fields' points."""
    witches.validate([p])
    s = witches.score(p)
    assert sorted(s) == sorted(witches.CATEGORIES + ("total",))
    assert s["total"] == sum(s[c] for c in witches.CATEGORIES)
    for cat in witches.CATEGORIES:
        keys = [k for k in witches.KEYS if witches.FIELD_CATEGORY[k] == cat]
        assert s[cat] == sum(witches.field_points(k, p[k]) for k in keys)


@given(_player_strategy(), st.sampled_from([k for k in witches.KEYS if k != "hex_wards"]))
def test_one_more_item_never_lowers_prestige(p, key):
    """TWI-A-1..TWI-I-1: every count is worth a non-decreasing amount of prestige."""
    more = dict(p, **{key: p[key] + 1})
    assert witches.score(more)["total"] >= witches.score(p)["total"]


@given(st.lists(_player_strategy(), min_size=1, max_size=4), st.randoms())
def test_winners_follow_players_not_seats(players, rnd):
    """TWI-WIN-1 / TWI-TIE-1..3: against a brute-force key (total, coupons, track); seat order is irrelevant."""
    scores = [witches.score(p) for p in players]
    key = [(s["total"], p["coupons"], p["loyal_track"]) for s, p in zip(scores, players, strict=True)]
    assert witches.winners(players, scores) == [i for i, k in enumerate(key) if k == max(key)]
    order = list(range(len(players)))
    rnd.shuffle(order)
    seated = [players[i] for i in order]
    won = witches.winners(seated, [witches.score(p) for p in seated])
    assert sorted(order[i] for i in won) == witches.winners(players, scores)
    assert jsonc.dumps(witches.score(players[0])).startswith('{"A": ')
