"""Tea for 2 rules engine (firmware/teatally/t42.py), rule by rule.

Each test names the rule IDs of seeds/tea-for-2.md it checks. The records
are registered in RECORDS (rec()) and replayed once more, all together,
under CPython and MicroPython by test_rule_records_same_on_micropython.
"""

import json

import pytest
from t42_support import REPLAY_SCRIPT, buy_out, buy_round, drain, dump, play, refusal, setup

from teatally.rules import t42
from teatally.record import repeated_objective, repeated_text

RECORDS = {}


def rec(name, *lines, **setup_kw):
    """Register a record (setup from setup_kw, then lines) and return it."""
    record = [setup(**setup_kw)] + list(lines)
    assert name not in RECORDS
    RECORDS[name] = record
    return record


def st(game):
    return t42.to_json(game.state)


# ---------------------------------------------------------------- setup


def test_setup_decks_tokens_piles_watch_objectives():
    """T42-SETUP-1 T42-SETUP-2 T42-SETUP-3 T42-SETUP-4: nine-card decks all
    in the draw pile, 1 tart for the flamingo holder and 3 for the other,
    5 tarts / 5 hourglasses / 7 rabbits in the supply, five piles of five,
    the chosen watch space and objectives."""
    for fl, other in (("blue", "pink"), ("pink", "blue")):
        s = st(play(rec("setup " + fl, flamingo=fl, watch="reveal")))
        for p in ("blue", "pink"):
            assert s[p]["draw"] == sorted(t42.START_DECK, key=t42.CARDS.index)
            assert s[p]["discard"] == [] and s[p]["stars"] == 0 and s[p]["hourglasses"] == 0
            assert "rabbit" not in s[p]["deck"] and len(s[p]["draw"]) == 9
        assert s[fl]["tarts"] == 1 and s[other]["tarts"] == 3
        assert s["flamingo"] == fl
        assert s["supply"] == {"tarts": 5, "hourglasses": 5, "rabbits": 7}
        assert s["piles"] == {"4": 5, "5": 5, "6": 5, "7": 5, "8": 5}
        assert s["watch"] == "reveal"
        assert s["objectives"] == {"4": "tarts", "5": "most:king", "6": "deck", "7": "destroyed", "8": "hourglasses"}
        assert s["round"] == 0 and s["over"] is False and s["end"] is None and s["final"] is None


@pytest.mark.parametrize(
    "change, reason",
    [
        ({"game": "tea-for-3"}, '"game" must be "tea-for-2"'),
        ({"flamingo": "red"}, "flamingo must be blue or pink"),
        ({"watch": "noon"}, "watch must be one of"),
        ({"objectives": {"4": "tarts"}}, "objective above pile 5 is missing"),
        ({"objectives": dict(setup()["objectives"], **{"6": "most:teapot"})}, "above pile 6 is missing or unknown"),
        ({"objectives": dict(setup()["objectives"], **{"9": "tarts"})}, "exactly the piles 4..8"),
        ({"colour": "blue"}, "unknown key colour"),
    ],
)
def test_bad_setup_refused(change, reason):
    """T42-SETUP-4 T42-OBJ-1: a setup line must name the game, a player, a
    watch space and one known objective for each pile 4..8."""
    with pytest.raises(t42.Refused, match=reason):
        t42.Game(dict(setup(), **change))


def test_objective_faces():
    """T42-OBJ-1: the known faces and any most:<real card> are accepted."""
    for face in t42.OBJECTIVES + ("most:queen", "most:rabbit", "most:cat"):
        assert t42.valid_objective(face)
    for face in ("most:", "most:teapot", "Tarts", "", None, 5, "least:king"):
        assert not t42.valid_objective(face)


REPEATED_FACE = rec(
    "repeated objective face",
    {"blue": "cat", "pink": "cat"},
    objectives={"4": "tarts", "5": "most:king", "6": "tarts", "7": "destroyed", "8": "most:king"},
)


def test_repeated_objective_face_is_accepted_and_found():
    """T42-OBJ-2: the rulebook does not list which faces share a tile, so a
    face above two piles is accepted; repeated_objective finds the first
    repeat (face, pile it is above first, pile repeating it) for the
    warnings of the screens and of `teatally replay`."""
    s = st(play(REPEATED_FACE))
    assert s["objectives"]["6"] == "tarts" and s["round"] == 1
    faces = [REPEATED_FACE[0]["objectives"][str(v)] for v in t42.PILES]
    assert repeated_objective(faces) == ("tarts", 4, 6)
    assert repeated_text(repeated_objective(faces)) == "tarts is already above pile 4"
    assert repeated_objective(["deck", "tarts", "most:king", "most:alice", "most:king"]) == ("most:king", 6, 8)
    assert repeated_objective(list(t42.OBJECTIVES[:5])) is None
    assert repeated_objective(["deck"]) is None


# ---------------------------------------------------------------- a round

REVEAL = rec("reveal", {"blue": "cat", "pink": "queen"}, {"blue": "cat", "pink": "king"})


def test_reveal_moves_top_card_and_must_be_in_draw():
    """T42-ROUND-1: the revealed card goes from the draw multiset onto the
    discard pile; a card no longer in the draw pile cannot be revealed."""
    s = st(play(REVEAL[:2]))
    assert s["blue"]["discard"] == ["cat"] and "cat" not in s["blue"]["draw"]
    assert s["pink"]["discard"] == ["queen"] and len(s["pink"]["draw"]) == 8
    assert s["round"] == 1
    assert refusal(REVEAL) == "blue has no cat in the draw pile"


TIES = rec("tie pink", {"blue": "cat", "pink": "cat", "effect": {"space": "stars"}}, flamingo="pink")
TIES_BLUE = rec("tie blue", {"blue": "cat", "pink": "cat", "effect": {"space": "stars"}}, flamingo="blue")


def test_higher_value_wins_tie_goes_to_flamingo():
    """T42-ROUND-2: higher value wins; equal values: the flamingo holder."""
    assert t42.round_winner(0, "dormouse", "guards") == 1
    assert t42.round_winner(1, "queen", "alice") == 0
    assert t42.round_winner(0, "rabbit", "cat") == 0
    assert t42.round_winner(1, "rabbit", "cat") == 1
    assert st(play(TIES))["pink"]["stars"] == 2 and st(play(TIES))["blue"]["stars"] == 0
    assert st(play(TIES_BLUE))["blue"]["stars"] == 2 and st(play(TIES_BLUE))["pink"]["stars"] == 0


ONLY_WINNER = rec("only winner", {"blue": "knave", "pink": "alice", "effect": {}})
BOTH = rec("effect and buy", {"blue": "queen", "pink": "cat", "effect": {"pile": 4, "stars": 1}, "buy": 4})
NOTHING = rec("nothing", {"blue": "queen", "pink": "cat"})


def test_only_the_winner_acts_once():
    """T42-ROUND-3: the winner applies its own card (the loser's knave gives
    nothing), one action at most, and may do nothing."""
    s = st(play(ONLY_WINNER))
    assert s["pink"]["hourglasses"] == 1 and s["blue"]["tarts"] == 1 and s["supply"]["tarts"] == 5
    assert refusal(BOTH) == "a round has one action: effect or buy, not both"
    s = st(play(NOTHING))
    assert s["piles"]["4"] == 5 and s["blue"]["stars"] == 0 and s["round"] == 1


# ---------------------------------------------------------------- watch

WATCH = rec(
    "watch spend",
    {"adjust": {"blue": {"hourglasses": 2}}},
    {
        "blue": "alice",
        "pink": "cat",
        "effect": {},
        "hourglasses": 2,
        "watch": {"cards": ["cat", "dormouse"], "stars": 3},
    },
)
WATCH_TOO_MANY = rec("watch too many", {"blue": "alice", "pink": "cat", "effect": {}, "hourglasses": 2})
WATCH_NO_SPEND = rec("watch params without spending", {"blue": "alice", "pink": "cat", "watch": {"card": "alice"}})


def test_spend_hourglasses_moves_hand_and_applies_space():
    """T42-WATCH-1 T42-SPACE-3: the winner spends held hourglasses (here 2,
    one of them just taken with alice) back to the supply, the hand moves
    stars -> reveal, and the reveal space turns two cards and adds their
    stars."""
    s = st(play(WATCH))
    assert s["watch"] == "reveal"
    assert s["blue"]["hourglasses"] == 1 and s["supply"]["hourglasses"] == 4
    assert s["blue"]["discard"] == ["alice", "cat", "dormouse"] and s["blue"]["stars"] == 3
    assert "cat" not in s["blue"]["draw"] and "dormouse" not in s["blue"]["draw"]
    assert refusal(WATCH_TOO_MANY) == "hourglasses: blue wins the round and has 1 to spend, not 2"
    assert refusal(WATCH_NO_SPEND) == "watch parameters given but no hourglass spent"


WRAP = rec(
    "watch wraps",
    {"adjust": {"blue": {"hourglasses": 2}}},
    {"blue": "queen", "pink": "cat", "hourglasses": 2, "watch": {}},
    watch="copy",
)


def test_watch_ring_wraps():
    """T42-WATCH-2 T42-SPACE-2: copy + 2 lands on destroy; with only the queen
    in the discard pile the destroy space does nothing."""
    assert [t42.landing(4, n) for n in range(6)] == [4, 0, 1, 2, 3, 4]
    assert t42.landing(2, 3) == 0
    s = st(play(WRAP))
    assert s["watch"] == "destroy" and s["blue"]["destroyed"] == 0 and s["blue"]["discard"] == ["queen"]


# ---------------------------------------------------------------- buying

BUY_FREE = rec("buy executioner free", {"blue": "dormouse", "pink": "king", "buy": 4}, flamingo="pink")
BUY_FREE5 = rec("buy knave free", {"blue": "dormouse", "pink": "king", "buy": 5}, flamingo="pink")
BUY_ONE = rec("buy caterpillar 1 tart", {"blue": "dormouse", "pink": "king", "buy": 6}, flamingo="pink")
BUY_DEAR = rec("buy king too dear", {"blue": "dormouse", "pink": "king", "buy": 7}, flamingo="pink")


def test_rulebook_buying_example():
    """T42-BUY-1 T42-BUY-2 T42-BUY-3: pink shows 7 against 2, so 5 purchase
    points: the executioner or the knave is free (unused points are lost),
    the caterpillar costs 1 tart (paid to the supply) and lands on top of
    pink's discard pile; with 1 tart the king (cost 2) is refused."""
    for record, v in ((BUY_FREE, "4"), (BUY_FREE5, "5")):
        s = st(play(record))
        assert s["pink"]["tarts"] == 1 and s["supply"]["tarts"] == 5 and s["piles"][v] == 4
        assert s["pink"]["discard"][-1] == t42.PILE_CARD[int(v)]
    s = st(play(BUY_ONE))
    assert s["pink"]["tarts"] == 0 and s["supply"]["tarts"] == 6
    assert s["piles"]["6"] == 4 and s["pink"]["discard"] == ["king", "caterpillar"]
    assert s["pink"]["deck"]["caterpillar"] == 2 and s["blue"]["deck"]["caterpillar"] == 1
    assert refusal(BUY_DEAR) == "pile 7 costs 2 tarts, pink has 1"
    assert [t42.buy_cost(v, 5) for v in t42.PILES] == [0, 0, 1, 2, 3]
    assert t42.buy_options(play(BUY_ONE).state, 0) == [(4, 4), (5, 5), (6, 6), (7, 7), (8, 8)]


EMPTY_PILE = rec(
    "buy from empty pile",
    {"blue": "queen", "pink": "knave", "effect": {"pile": 4, "stars": 1}},
    {"blue": "alice", "pink": "cat", "buy": 4},
    {"blue": "king", "pink": "dormouse", "buy": 4},
    {"blue": "caterpillar", "pink": "guards", "buy": 4},
    {"adjust": {"blue": {"tarts": 1}}},
    {"blue": "knave", "pink": "executioner", "buy": 4},
    {"blue": "executioner", "pink": "caterpillar", "buy": 4},
    flamingo="pink",
)
RABBIT_BUY = rec("buy a rabbit", {"blue": "queen", "pink": "cat", "buy": 1})


def test_empty_pile_and_rabbits_cannot_be_bought():
    """T42-BUY-2 T42-BUY-3: an empty pile cannot be bought from; rabbits are
    never for sale."""
    s = st(play(EMPTY_PILE[:-1]))
    assert s["piles"]["4"] == 0 and s["blue"]["tarts"] == 0 and s["blue"]["deck"]["executioner"] == 5
    assert refusal(EMPTY_PILE) == "pile 4 is empty"
    assert refusal(RABBIT_BUY) == "buy must name a pile 4..8 (rabbits cannot be bought)"


# ---------------------------------------------------------------- tokens

STEAL_PART = rec("steal part", {"adjust": {"pink": {"tarts": 4}}}, {"blue": "knave", "pink": "cat", "effect": {}})
STEAL_SHORT = rec(
    "steal short", {"adjust": {"blue": {"tarts": 5}}}, {"blue": "knave", "pink": "cat", "effect": {}}, flamingo="pink"
)
STEAL_HG = rec(
    "steal hourglasses", {"adjust": {"pink": {"hourglasses": 4}}}, {"blue": "caterpillar", "pink": "cat", "effect": {}}
)


def test_take_from_supply_then_from_opponent():
    """T42-TAKE-1 T42-CARD-5 T42-CARD-6: the knave takes 1 tart from the
    supply and steals the other 2 from pink; with an empty supply it steals
    only what pink has (1); hourglasses work alike."""
    s = st(play(STEAL_PART))
    assert (s["blue"]["tarts"], s["pink"]["tarts"], s["supply"]["tarts"]) == (4, 5, 0)
    s = st(play(STEAL_SHORT))
    assert (s["blue"]["tarts"], s["pink"]["tarts"], s["supply"]["tarts"]) == (9, 0, 0)
    s = st(play(STEAL_HG))
    assert (s["blue"]["hourglasses"], s["pink"]["hourglasses"], s["supply"]["hourglasses"]) == (2, 3, 0)


STARS = rec("stars", {"adjust": {"blue": {"stars": 26}}}, {"adjust": {"blue": {"stars": 24}, "pink": {"stars": 25}}})


def test_stars_teacups_and_track():
    """T42-STAR-1: teacups = (total - 1) // 25, track = total - 25 x teacups;
    25 is space 25, 26 one teacup and space 1; teacups are not capped."""
    assert [(t42.teacups(n), t42.track(n)) for n in (0, 1, 24, 25, 26, 50, 51, 76, 101)] == [
        (0, 0),
        (0, 1),
        (0, 24),
        (0, 25),
        (1, 1),
        (1, 25),
        (2, 1),
        (3, 1),
        (4, 1),
    ]
    s = st(play(STARS[:2]))
    assert (s["blue"]["stars"], s["blue"]["teacups"], s["blue"]["track"]) == (26, 1, 1)
    s = st(play(STARS))
    assert (s["blue"]["teacups"], s["blue"]["track"], s["pink"]["teacups"], s["pink"]["track"]) == (1, 25, 0, 25)


# ---------------------------------------------------------------- card effects

CAT = rec("cat stars", {"blue": "cat", "pink": "cat", "effect": {"space": "stars"}}, watch="copy")
CAT_DESTROY = rec(
    "cat destroy", {"blue": "cat", "pink": "cat", "effect": {"space": "destroy", "card": "cat", "stars": 1}}
)
CAT_BAD = rec("cat bad space", {"blue": "cat", "pink": "cat", "effect": {"space": "noon"}})


def test_cat_moves_hand_anywhere_and_applies_it():
    """T42-CARD-1 T42-SPACE-1 T42-DESTROY-1: the cat puts the hand on any
    space (copy -> stars: +2 stars; destroy: the cat itself, 1 star, one
    destroyed card, the deck is one card smaller)."""
    s = st(play(CAT))
    assert s["watch"] == "stars" and s["blue"]["stars"] == 2
    s = st(play(CAT_DESTROY))
    assert s["watch"] == "destroy" and s["blue"]["stars"] == 1 and s["blue"]["destroyed_cards"] == ["cat"]
    assert s["blue"]["discard"] == [] and sum(s["blue"]["deck"].values()) == 8
    assert "unknown space" in refusal(CAT_BAD)


DORMOUSE = rec("dormouse", {"blue": "dormouse", "pink": "cat", "effect": {}})
KNAVE = rec("knave", {"blue": "knave", "pink": "cat", "effect": {}})
CATERPILLAR = rec("caterpillar", {"blue": "caterpillar", "pink": "cat", "effect": {}})
ALICE = rec("alice", {"blue": "alice", "pink": "cat", "effect": {}})


def test_token_cards():
    """T42-CARD-2 T42-CARD-5 T42-CARD-6 T42-CARD-8: dormouse 2 tarts, knave 3
    tarts, caterpillar 2 hourglasses, alice 1 hourglass, from the supply."""
    assert (st(play(DORMOUSE))["blue"]["tarts"], st(play(DORMOUSE))["supply"]["tarts"]) == (3, 3)
    assert (st(play(KNAVE))["blue"]["tarts"], st(play(KNAVE))["supply"]["tarts"]) == (4, 2)
    s = st(play(CATERPILLAR))
    assert (s["blue"]["hourglasses"], s["supply"]["hourglasses"]) == (2, 3)
    s = st(play(ALICE))
    assert (s["blue"]["hourglasses"], s["supply"]["hourglasses"]) == (1, 4)


KING_FLAMINGO = rec("king flamingo", {"blue": "king", "pink": "cat", "effect": {"take": "flamingo"}}, flamingo="pink")
KING_TARTS = rec("king tarts", {"blue": "king", "pink": "cat", "effect": {"take": "tarts"}}, flamingo="pink")
KING_BAD = rec("king bad", {"blue": "king", "pink": "cat", "effect": {"take": "hourglasses"}})


def test_king_takes_flamingo_or_tarts():
    """T42-CARD-7: the king takes the flamingo, or 2 tarts."""
    s = st(play(KING_FLAMINGO))
    assert s["flamingo"] == "blue" and s["blue"]["tarts"] == 3
    s = st(play(KING_TARTS))
    assert s["flamingo"] == "pink" and s["blue"]["tarts"] == 5 and s["supply"]["tarts"] == 3
    assert refusal(KING_BAD) == 'blue king: take must be "flamingo" or "tarts"'


GUARDS = rec("guards", {"blue": "guards", "pink": "cat", "effect": {"cards": ["dormouse", "knave", "alice"]}})
GUARDS_SHORT = rec("guards short", {"blue": "guards", "pink": "cat", "effect": {"cards": ["dormouse"]}})
GUARDS_LONG = rec(
    "guards long", {"blue": "guards", "pink": "cat", "effect": {"cards": ["dormouse", "knave", "alice", "king"]}}
)
GUARDS_ABSENT = rec(
    "guards absent", {"blue": "guards", "pink": "cat", "effect": {"cards": ["dormouse", "cat", "alice"]}}
)


def test_guards_reveal_three_without_effects():
    """T42-CARD-3: pink turns its top three cards onto its discard pile, one
    at a time; their effects (dormouse, knave, alice) do nothing."""
    s = st(play(GUARDS))
    assert s["pink"]["discard"] == ["cat", "dormouse", "knave", "alice"]
    assert s["pink"]["tarts"] == 3 and s["pink"]["hourglasses"] == 0 and s["supply"]["tarts"] == 5
    assert len(s["pink"]["draw"]) == 5
    assert refusal(GUARDS_SHORT) == "blue guards: 3 cards needed"
    assert refusal(GUARDS_LONG) == "blue guards: only 3 cards could be revealed"
    assert refusal(GUARDS_ABSENT) == "blue guards 2/3: cat is not in pink's draw pile"


EXECUTIONER = rec("executioner", {"blue": "executioner", "pink": "cat", "effect": {"card": "king", "stars": 3}})
EXEC_QUEEN = rec("executioner queen", {"blue": "executioner", "pink": "cat", "effect": {"card": "queen"}})
EXEC_QUEEN_STARS = rec(
    "executioner queen stars", {"blue": "executioner", "pink": "cat", "effect": {"card": "queen", "stars": 9}}
)
EXEC_GONE = rec("executioner gone", {"blue": "executioner", "pink": "cat", "effect": {"card": "cat", "stars": 1}})


def test_executioner_destroys_top_of_opponent_draw():
    """T42-CARD-4 T42-DESTROY-1: the named top card of pink's draw pile is
    destroyed for good: blue gains its printed stars and one destroyed card."""
    s = st(play(EXECUTIONER))
    assert s["blue"]["stars"] == 3 and s["blue"]["destroyed_cards"] == ["king"]
    assert "king" not in s["pink"]["deck"] and sum(s["pink"]["deck"].values()) == 8
    assert s["pink"]["discard"] == ["cat"] and s["pink"]["destroyed"] == 0
    assert refusal(EXEC_GONE) == "blue executioner: cat is not possible here"


def test_queen_is_immune():
    """T42-DESTROY-2: the executioner only moves the queen to its owner's
    discard pile (no stars, not counted, and no stars may be entered)."""
    s = st(play(EXEC_QUEEN))
    assert s["pink"]["discard"] == ["cat", "queen"] and s["pink"]["deck"]["queen"] == 1
    assert s["blue"]["stars"] == 0 and s["blue"]["destroyed"] == 0
    assert refusal(EXEC_QUEEN_STARS) == "blue executioner: the queen is not destroyed, no stars"


QUEEN = rec("queen", {"blue": "queen", "pink": "cat", "effect": {"pile": 8, "stars": 2}})
QUEEN_STARS = rec("queen stars 10", {"blue": "queen", "pink": "cat", "effect": {"pile": 8, "stars": 10}})
QUEEN_PILE = rec("queen pile 9", {"blue": "queen", "pink": "cat", "effect": {"pile": 9, "stars": 1}})
QUEEN_EXECUTIONER_STARS = rec(
    "queen executioner stars 10", {"blue": "queen", "pink": "cat", "effect": {"pile": 4, "stars": 10}}
)
EXECUTIONER_STARS = rec(
    "executioner king stars true", {"blue": "executioner", "pink": "cat", "effect": {"card": "king", "stars": True}}
)
NO_HOURGLASS = rec(
    "hourglasses none held", {"blue": "queen", "pink": "cat", "effect": {"pile": 4, "stars": 1}, "hourglasses": 2}
)


def test_refusals_of_numbers_name_what_the_number_is():
    """T42-INPUT-3: a refused number names what it counts and why, in words
    (never "blue queen executioner stars ..." or "0..0"); the same on both
    interpreters (RECORDS, test_rule_records_same_on_micropython)."""
    assert refusal(QUEEN_EXECUTIONER_STARS) == (
        "blue queen: the stars printed on the destroyed executioner must be a whole number 0..9, not 10")
    assert refusal(EXECUTIONER_STARS) == (
        "blue executioner: the stars printed on the destroyed king must be a whole number 0..9, not true")
    assert refusal(NO_HOURGLASS) == "hourglasses: blue wins the round and has no hourglass to spend"


def test_queen_destroys_top_of_a_pile():
    """T42-CARD-9 T42-DESTROY-1: the queen destroys the top card of a chosen
    non-empty pile: printed stars (0..9) and one destroyed card."""
    s = st(play(QUEEN))
    assert s["piles"]["8"] == 4 and s["blue"]["stars"] == 2 and s["blue"]["destroyed_cards"] == ["alice"]
    assert s["blue"]["deck"] == {c: 1 for c in t42.START_DECK}
    assert refusal(QUEEN_STARS) == (
        "blue queen: the stars printed on the destroyed alice must be a whole number 0..9, not 10")
    assert refusal(QUEEN_PILE) == "blue queen: pile 9 is empty or unknown"


# ---------------------------------------------------------------- watch spaces

FLAMINGO_SPACE = rec(
    "flamingo space", {"blue": "alice", "pink": "cat", "effect": {}, "hourglasses": 1}, flamingo="pink", watch="reveal"
)
STARS_SPACE = rec("stars space", {"blue": "alice", "pink": "cat", "effect": {}, "hourglasses": 1}, watch="copy")


def test_flamingo_and_stars_spaces():
    """T42-SPACE-4 T42-SPACE-1: reveal + 1 is the flamingo space (blue takes
    it); copy + 1 is the stars space (+2)."""
    s = st(play(FLAMINGO_SPACE))
    assert s["watch"] == "flamingo" and s["flamingo"] == "blue"
    s = st(play(STARS_SPACE))
    assert s["watch"] == "stars" and s["blue"]["stars"] == 2 and s["blue"]["hourglasses"] == 0


DESTROY_SPACE = rec(
    "destroy space",
    {"blue": "cat", "pink": "dormouse"},
    {"adjust": {"blue": {"hourglasses": 1}}},
    {"blue": "queen", "pink": "guards", "hourglasses": 1, "watch": {"card": "cat", "stars": 1}},
)
DESTROY_QUEEN = rec(
    "destroy space queen",
    {"blue": "cat", "pink": "dormouse"},
    {"adjust": {"blue": {"hourglasses": 1}}},
    {"blue": "queen", "pink": "guards", "hourglasses": 1, "watch": {"card": "queen", "stars": 9}},
)
DESTROY_NOTHING = rec(
    "destroy space nothing chosen",
    {"blue": "cat", "pink": "dormouse"},
    {"adjust": {"blue": {"hourglasses": 1}}},
    {"blue": "queen", "pink": "guards", "hourglasses": 1, "watch": {}},
)
DESTROY_NONE_LEFT = rec(
    "destroy space empty",
    {"adjust": {"blue": {"hourglasses": 1}}},
    {"blue": "queen", "pink": "guards", "hourglasses": 1, "watch": {"card": "queen", "stars": 0}},
)


def test_destroy_space_own_discard_never_the_queen():
    """T42-SPACE-2 T42-DESTROY-2: the destroy space takes one card of the
    player's own discard pile (not the queen); when a card can be destroyed
    one must be chosen; when only the queen is there, nothing happens and
    naming it is refused."""
    s = st(play(DESTROY_SPACE))
    assert s["watch"] == "destroy" and s["blue"]["discard"] == ["queen"]
    assert s["blue"]["destroyed_cards"] == ["cat"] and s["blue"]["stars"] == 1
    assert refusal(DESTROY_QUEEN) == "watch destroy: queen is not possible here"
    assert refusal(DESTROY_NOTHING) == "watch destroy: missing card"
    assert refusal(DESTROY_NONE_LEFT) == "watch destroy: nothing in the discard pile can be destroyed"
    game = play(DESTROY_SPACE[:3])
    assert t42.destroyable(game.state.players[0]) == ("cat",)
    need = game.probe({"blue": "queen", "pink": "guards", "hourglasses": 1})
    assert (need.kind, need.key, need.options, need.who) == (t42.ASK_CARD, "card", ("cat",), 0)


REVEAL_SPACE_STARS = rec(
    "reveal space too many stars",
    {"adjust": {"blue": {"hourglasses": 2}}},
    {"blue": "queen", "pink": "cat", "hourglasses": 2, "watch": {"cards": ["cat", "dormouse"], "stars": 19}},
)


def test_reveal_space_stars_bounded():
    """T42-SPACE-3: the reveal space's stars are those printed on two cards
    (0..18)."""
    assert refusal(REVEAL_SPACE_STARS) == (
        "watch reveal: the stars printed on the 2 cards revealed (together) must be a whole number 0..18, not 19")


# ---------------------------------------------------------------- copy

COPY_KNAVE = rec("copy knave", {"blue": "alice", "pink": "knave", "effect": {}, "hourglasses": 1}, watch="flamingo")
COPY_CAT = rec(
    "copy cat",
    {"blue": "alice", "pink": "cat", "effect": {}, "hourglasses": 1, "watch": {"space": "stars"}},
    watch="flamingo",
)
COPY_EXEC = rec(
    "copy executioner",
    {"blue": "alice", "pink": "executioner", "effect": {}, "hourglasses": 1, "watch": {"card": "king", "stars": 2}},
    watch="flamingo",
)
CAT_COPY_CAT = rec(
    "cat copy cat", {"blue": "cat", "pink": "cat", "effect": {"space": "copy", "then": {"space": "stars"}}}
)
CAT_COPY_BAD = rec("cat copy cat flat", {"blue": "cat", "pink": "cat", "effect": {"space": "copy", "then": {}}})


def test_copy_applies_opponent_top_card():
    """T42-SPACE-5 T42-COPY-1: copy applies the effect of the card on top of
    pink's discard pile for blue: the knave's 3 tarts, the executioner on
    pink's draw pile, a copied cat moving the hand again (from the watch its
    params are the cat's own; from a cat's params they nest under "then")."""
    s = st(play(COPY_KNAVE))
    assert s["watch"] == "copy" and s["blue"]["tarts"] == 4 and s["pink"]["tarts"] == 3
    s = st(play(COPY_CAT))
    assert s["watch"] == "stars" and s["blue"]["stars"] == 2
    s = st(play(COPY_EXEC))
    assert s["blue"]["destroyed_cards"] == ["king"] and s["blue"]["stars"] == 2 and "king" not in s["pink"]["deck"]
    s = st(play(CAT_COPY_CAT))
    assert s["watch"] == "stars" and s["blue"]["stars"] == 2
    assert refusal(CAT_COPY_BAD) == "blue cat > copy cat: space: missing space"


def chain(copies, last):
    """Cat params: `copies` nested copies of an opponent's cat, then `last`."""
    d = dict(last)
    for _ in range(copies):
        d = {"space": "copy", "then": d}
    return d


CHAIN4 = rec("chain 4", {"blue": "cat", "pink": "cat", "effect": chain(4, {"space": "stars"})})
CHAIN5 = rec("chain 5", {"blue": "cat", "pink": "cat", "effect": chain(5, {"space": "stars"})})
CHAIN_3_AND_2 = rec(
    "chain 3 + watch 2",
    {"adjust": {"blue": {"hourglasses": 1}}},
    {
        "blue": "cat",
        "pink": "cat",
        "effect": chain(3, {"space": "flamingo"}),
        "hourglasses": 1,
        "watch": chain(1, {"space": "stars"}),
    },
)


def test_copy_chain_limit():
    """T42-COPY-3: a chain of copies is followed 4 levels deep and refused
    deeper; the limit is per chain (an effect chain of 3 and a watch chain of
    2 in the same round are fine); at the limit the probe no longer offers
    copy to the cat."""
    s = st(play(CHAIN4))
    assert s["blue"]["stars"] == 2 and s["watch"] == "stars"
    assert "copy chain deeper than 4" in refusal(CHAIN5)
    s = st(play(CHAIN_3_AND_2))
    assert s["blue"]["stars"] == 2 and s["flamingo"] == "blue" and s["watch"] == "stars"
    game = t42.Game(setup())
    action = {"blue": "cat", "pink": "cat", "effect": chain(4, {})}
    need = game.probe(action)
    assert need.kind == t42.ASK_SPACE and need.options == ("stars", "destroy", "reveal", "flamingo")
    need = game.probe({"blue": "cat", "pink": "cat", "effect": chain(3, {})})
    assert need.options == t42.SPACES


# ---------------------------------------------------------------- declining a copied effect


def _issue_example(pink, watch):
    """The issue's record: blue wins a round against pink's `pink` card and
    spends 4 hourglasses, stars -> copy, with `watch` as the copy's params."""
    return [{"adjust": {"blue": {"hourglasses": 5}}}, {"blue": "queen", "pink": pink, "hourglasses": 4, "watch": watch}]


DECLINE = {
    pink: rec("decline copied " + pink, *_issue_example(pink, {"decline": True}))
    for pink in ("queen", "executioner", "guards", "knave")
}
DECLINE_MISSING = {
    pink: rec("copied %s without params" % pink, *_issue_example(pink, {}))
    for pink in ("queen", "executioner", "guards", "knave")
}
DECLINE_FALSE = rec("decline false", *_issue_example("queen", {"decline": False}))
DECLINE_AND_PILE = rec("decline and pile", *_issue_example("queen", {"decline": True, "pile": 4, "stars": 1}))


def test_copied_effect_may_be_declined():
    """T42-COPY-4 T42-COPY-1: the copied effect is optional like every card
    effect: {"decline": true} in the copy space's parameters applies
    nothing (the issue's record: pink's queen, executioner or guards on top,
    no pile top destroyed, pink's draw pile untouched); the hourglasses are
    spent and the hand stays on copy. {} keeps its meaning: a copied knave
    gives its 3 tarts, a copied queen without a pile is refused as before."""
    for pink, record in DECLINE.items():
        s = st(play(record))
        assert s["watch"] == "copy" and s["blue"]["hourglasses"] == 1 and s["supply"]["hourglasses"] == 4
        assert s["piles"] == {"4": 5, "5": 5, "6": 5, "7": 5, "8": 5} and s["blue"]["stars"] == 0
        assert s["blue"]["destroyed"] == 0 and s["blue"]["tarts"] == 1
        assert s["pink"]["discard"] == [pink] and len(s["pink"]["draw"]) == 8
    assert refusal(DECLINE_MISSING["queen"]) == "watch copy queen: missing pile"
    assert refusal(DECLINE_MISSING["executioner"]) == "watch copy executioner: missing card"
    assert refusal(DECLINE_MISSING["guards"]) == "watch copy guards: missing cards"
    s = st(play(DECLINE_MISSING["knave"]))
    assert s["blue"]["tarts"] == 4 and s["supply"]["tarts"] == 2
    assert refusal(DECLINE_FALSE) == "watch copy queen: decline must be true"
    assert refusal(DECLINE_AND_PILE) == "watch copy queen: unexpected parameter pile"


DECLINE_DEPTH = {
    k: rec(
        "decline at depth %d" % (k + 1),
        {"blue": "cat", "pink": "cat", "effect": chain(k, {"space": "copy", "decline": True})},
    )
    for k in range(4)
}
DECLINE_TOO_DEEP = rec(
    "decline at depth 5", {"blue": "cat", "pink": "cat", "effect": chain(4, {"space": "copy", "decline": True})}
)
WATCH_DECLINE_DEPTH = {
    k: rec(
        "watch decline at depth %d" % (k + 1),
        {"adjust": {"blue": {"hourglasses": 4}}},
        {
            "blue": "cat",
            "pink": "cat",
            "effect": {"space": "stars"},
            "hourglasses": 4,
            "watch": {"decline": True} if k == 0 else chain(k - 1, {"space": "copy", "decline": True}),
        },
    )
    for k in range(4)
}


def test_declined_copy_at_any_depth_of_a_chain():
    """T42-COPY-4 T42-COPY-3: in a chain of copied cats, the copy at any
    level may be declined, from a cat's effect (levels 1..4) and from the
    watch (levels 1..4): the hand stays on copy, nothing else happens; the
    chain limit still holds for a declined copy."""
    for k, record in DECLINE_DEPTH.items():
        s = st(play(record))
        assert s["watch"] == "copy" and s["blue"]["stars"] == 0 and s["flamingo"] == "blue", k
    assert "copy chain deeper than 4" in refusal(DECLINE_TOO_DEEP)
    for k, record in WATCH_DECLINE_DEPTH.items():
        s = st(play(record))
        assert s["watch"] == "copy" and s["blue"]["stars"] == 2 and s["blue"]["hourglasses"] == 0, k


def test_probe_asks_whether_to_apply_each_copy():
    """T42-COPY-4 T42-INPUT-1: given the number of copies the players chose
    to apply, the probe asks about the next one (ASK_COPY, key "decline",
    options False/True, the copied card ending the label), in the order the
    line plays them (the effect's chain, then the watch's); a decline in the
    parameters answers it. Without that number nothing is asked (the
    records, the generator's default)."""
    game = t42.Game(setup())
    game.apply({"adjust": {"blue": {"hourglasses": 5}}})
    line = {"blue": "cat", "pink": "cat", "effect": {"space": "copy"}, "hourglasses": 5}
    need = game.probe(line, copies=0)
    assert (need.kind, need.key, need.who, need.options) == (t42.ASK_COPY, "decline", 0, (False, True))
    assert need.what == "blue cat > copy cat" and need.params is line["effect"]
    need = game.probe(line, copies=1)  # applied: the copied cat's space
    assert need.kind == t42.ASK_SPACE and need.params is line["effect"]["then"]
    line["effect"]["then"]["space"] = "copy"
    need = game.probe(line, copies=1)
    assert need.kind == t42.ASK_COPY and need.what == "blue cat > copy cat > copy cat"
    need.params["decline"] = True
    need = game.probe(line, copies=1)  # the watch: copy + 5 = copy of pink's cat
    assert need.kind == t42.ASK_COPY and need.what == "watch copy cat" and need.params is line["watch"]
    assert game.probe(dict(line, watch={"decline": True}), copies=1) is None
    need = game.probe(line, copies=2)
    assert need.kind == t42.ASK_SPACE and need.params is line["watch"]
    assert game.probe({"blue": "cat", "pink": "cat", "effect": {"space": "copy"}}).kind == t42.ASK_SPACE


# ---------------------------------------------------------------- reshuffles and the end


def nine_rounds_game():
    game = t42.Game(setup())
    lines = drain(game)
    return game, lines


NINE = rec("nine rounds", *nine_rounds_game()[1])
RABBIT_QUEEN = rec(
    "rabbit effect", *(NINE[1:] + [{"blue": "rabbit", "pink": "cat", "effect": {"pile": 5, "stars": 1}}])
)


def test_end_of_round_reshuffle_adds_a_rabbit():
    """T42-SHUF-1 T42-SHUF-4 T42-CARD-9: after the ninth round both draw
    piles are empty: each player adds a supply rabbit and the discard pile
    becomes the draw pile; the rabbit then destroys a pile's top card."""
    s = st(play(NINE))
    assert s["supply"]["rabbits"] == 5
    for p in ("blue", "pink"):
        assert s[p]["discard"] == [] and len(s[p]["draw"]) == 10 and s[p]["deck"]["rabbit"] == 1
    s = st(play(RABBIT_QUEEN))
    assert s["piles"]["5"] == 4 and s["blue"]["destroyed_cards"] == ["knave"] and s["blue"]["stars"] == 1


CAT_RABBIT = rec(
    "cat copies rabbit",
    *(NINE[1:] + [{"blue": "cat", "pink": "rabbit", "effect": {"space": "copy", "pile": 5, "stars": 1}}]),
)
CAT_RABBIT_DECLINED = rec(
    "cat copies rabbit, declined",
    *(NINE[1:] + [{"blue": "cat", "pink": "rabbit", "effect": {"space": "copy", "decline": True}}]),
)
CAT_RABBIT_BOTH = rec(
    "cat copies rabbit, declined and applied",
    *(NINE[1:] + [{"blue": "cat", "pink": "rabbit", "effect": {"space": "copy", "decline": True, "pile": 5}}]),
)


def test_copy_a_cat_moved_to_may_be_declined():
    """T42-COPY-4 T42-CARD-1 T42-CARD-9: a cat moves the hand to copy (that
    move stands) and the copied rabbit's destroy may be declined:
    {"space": "copy", "decline": true}."""
    s = st(play(CAT_RABBIT))
    assert s["piles"]["5"] == 4 and s["blue"]["stars"] == 1
    s = st(play(CAT_RABBIT_DECLINED))
    assert s["watch"] == "copy" and s["piles"]["5"] == 5 and s["blue"]["stars"] == 0 and s["blue"]["destroyed"] == 0
    assert refusal(CAT_RABBIT_BOTH) == "blue cat > copy rabbit: unexpected parameter pile"


def _ninth(blue_last, pink_last):
    game = t42.Game(setup())
    lines = drain(game, blue_last, pink_last)
    return lines[:-1], lines[-1]


_EIGHT_G, _LAST_G = _ninth("guards", "cat")
GUARDS_EMPTY = rec("guards on empty draw", *(_EIGHT_G + [dict(_LAST_G, effect={"cards": ["rabbit", "queen", "cat"]})]))
_EIGHT_E, _LAST_E = _ninth("executioner", "cat")
EXEC_EMPTY = rec(
    "executioner on empty draw, copy of empty discard",
    *(
        _EIGHT_E
        + [
            {"adjust": {"blue": {"hourglasses": 1}}},
            dict(_LAST_E, effect={"card": "king", "stars": 3}, hourglasses=1, watch={}),
        ]
    ),
    watch="flamingo",
)
EXEC_EMPTY_COPY_PARAMS = rec(
    "copy of empty discard with params",
    *(
        _EIGHT_E
        + [
            {"adjust": {"blue": {"hourglasses": 1}}},
            dict(_LAST_E, effect={"card": "king", "stars": 3}, hourglasses=1, watch={"space": "stars"}),
        ]
    ),
    watch="flamingo",
)
EXEC_EMPTY_DECLINE = rec(
    "decline with nothing to copy",
    *(
        _EIGHT_E
        + [
            {"adjust": {"blue": {"hourglasses": 1}}},
            dict(_LAST_E, effect={"card": "king", "stars": 3}, hourglasses=1, watch={"decline": True}),
        ]
    ),
    watch="flamingo",
)
_EIGHT_C, _LAST_C = _ninth("cat", "cat")
REVEAL_EMPTY = rec(
    "reveal on empty draw",
    *(_EIGHT_C + [dict(_LAST_C, effect={"space": "reveal", "cards": ["rabbit", "queen"], "stars": 4})]),
)


def test_reshuffle_before_an_effect_that_needs_a_card():
    """T42-SHUF-2 T42-COPY-2: guards, executioner and reveal on an empty draw
    pile reshuffle that player first (rabbit added); afterwards copy finds
    pink's discard pile empty and does nothing (and takes no params)."""
    s = st(play(GUARDS_EMPTY))
    assert s["pink"]["discard"] == ["rabbit", "queen", "cat"] and len(s["pink"]["draw"]) == 7
    assert s["blue"]["discard"] == [] and len(s["blue"]["draw"]) == 10  # blue at the end of the round
    assert s["supply"]["rabbits"] == 5
    s = st(play(EXEC_EMPTY))
    assert s["pink"]["discard"] == [] and len(s["pink"]["draw"]) == 9 and "king" not in s["pink"]["deck"]
    assert s["pink"]["deck"]["rabbit"] == 1 and s["blue"]["destroyed_cards"] == ["king"]
    assert s["watch"] == "copy" and s["blue"]["stars"] == 3 and s["blue"]["tarts"] == 1
    assert refusal(EXEC_EMPTY_COPY_PARAMS) == "watch copy: unexpected parameter space"
    assert refusal(EXEC_EMPTY_DECLINE) == "watch copy: unexpected parameter decline"  # T42-COPY-4
    s = st(play(REVEAL_EMPTY))
    assert s["blue"]["discard"] == ["rabbit", "queen"] and s["blue"]["stars"] == 4 and len(s["blue"]["draw"]) == 8
    assert s["pink"]["discard"] == [] and s["supply"]["rabbits"] == 5


def test_executioner_options_after_reshuffle():
    """T42-INPUT-1 T42-SHUF-2: the executioner's question lists pink's draw
    pile after the reshuffle (rabbit and the cat just revealed included),
    asks about pink, then asks blue for the printed stars."""
    game = play(EXEC_EMPTY[:-1])
    action = dict(_LAST_E, effect={})
    need = game.probe(action)
    assert (need.kind, need.key, need.who) == (t42.ASK_CARD, "card", 1)
    assert need.options == t42.CARDS
    need.params["card"] = "rabbit"
    need = game.probe(action)
    assert (need.kind, need.key, need.who, need.options) == (t42.ASK_STARS, "stars", 0, (0, 9))


_FIVE = [
    {"blue": b, "pink": p}
    for b, p in zip(
        ("cat", "dormouse", "executioner", "knave", "caterpillar"),
        ("dormouse", "guards", "executioner", "knave", "caterpillar"),
        strict=True,
    )
]
GUARDS_THIRD = rec(
    "guards empties after the third card",
    *(_FIVE + [{"blue": "guards", "pink": "cat", "effect": {"cards": ["king", "alice", "queen"]}}]),
)
_SEVEN = _FIVE + [{"blue": "king", "pink": "king"}, {"blue": "alice", "pink": "alice"}]
GUARDS_FIRST = rec(
    "guards empties after the first card",
    *(_SEVEN + [{"blue": "guards", "pink": "cat", "effect": {"cards": ["queen", "rabbit", "queen"]}}]),
)


def test_guards_reshuffle_at_once_even_after_third():
    """T42-SHUF-3: when guards empties pink's draw pile pink reshuffles at
    once: after the third card (so pink's discard pile is empty at the end
    of the round), and after the first card (the other two come from the
    new draw pile)."""
    s = st(play(GUARDS_THIRD))
    assert s["pink"]["discard"] == [] and len(s["pink"]["draw"]) == 10 and s["supply"]["rabbits"] == 6
    assert s["blue"]["draw"] == ["king", "alice", "queen"]
    s = st(play(GUARDS_FIRST))
    assert s["pink"]["discard"] == ["rabbit", "queen"] and len(s["pink"]["draw"]) == 8
    assert s["supply"]["rabbits"] == 6


def shuffle_game():
    """Cycles of tied rounds (blue holds the flamingo) until one rabbit is
    left, then a last cycle whose final round pink wins (queen vs cat)."""
    game = t42.Game(setup())
    lines = []
    while game.state.supply_rabbits > 1:
        lines += drain(game)
    lines += drain(game, "cat", "queen")
    return lines


LAST_RABBIT = rec("last rabbit", *shuffle_game())
AFTER_END = rec("round after the end", *(LAST_RABBIT[1:] + [{"blue": "cat", "pink": "cat"}]))
ADJUST_AFTER_END = rec("adjust after the end", *(LAST_RABBIT[1:] + [{"adjust": {"flamingo": "pink", "watch": "copy"}}]))


def test_winner_reshuffles_first_and_no_rabbit_ends_the_game():
    """T42-SHUF-4 T42-END-2 T42-END-3 T42-SHUF-1: with one rabbit left and
    both draw piles empty, the round's winner (pink) reshuffles first and
    gets it; blue still reshuffles, without a rabbit, which triggers the
    end; the game is over after that round and no round follows."""
    s = st(play(LAST_RABBIT))
    assert s["supply"]["rabbits"] == 0 and s["end"] == "rabbits" and s["over"] is True
    assert s["pink"]["deck"]["rabbit"] == 4 and s["blue"]["deck"]["rabbit"] == 3
    assert s["blue"]["discard"] == [] and len(s["blue"]["draw"]) == 12
    assert s["final"] == {"blue": 0, "pink": 0, "winner": "blue", "objectives": {}}
    assert refusal(AFTER_END) == "the game is over"
    game = play(LAST_RABBIT)
    with pytest.raises(t42.Refused, match="the game is over"):
        game.probe({"blue": "cat", "pink": "cat"})


def test_adjust_after_end_changes_final_score():
    """T42-INPUT-2 T42-SCORE-8: adjustments are allowed after the end and the
    final result follows them (the tie now goes to pink)."""
    s = st(play(ADJUST_AFTER_END))
    assert s["over"] is True and s["flamingo"] == "pink" and s["watch"] == "copy"
    assert s["final"]["winner"] == "pink"


def test_no_card_left_takes_nothing():
    """T42-SHUF-5: a player with no card at all (unreachable in play, since
    the queen cannot be destroyed) makes guards and executioner take
    nothing, without error."""
    s = t42.new_state(setup())
    pink = s.players[1]
    pink.draw = {}
    s.supply_rabbits = 0
    r = t42._Round(s, False)
    params = {"cards": []}
    r.what = "guards"
    r.effect(0, "guards", params)
    r.what = "executioner"
    r.effect(0, "executioner", {})
    assert pink.draw == {} and pink.discard == [] and s.players[0].destroyed == []
    assert s.end == "rabbits"


RABBIT_DESTROYED = rec(
    "rabbit destroyed",
    *(
        NINE[1:]
        + [
            {"adjust": {"blue": {"hourglasses": 1}}},
            {"blue": "rabbit", "pink": "cat", "hourglasses": 1, "watch": {"card": "rabbit", "stars": 0}},
        ]
    ),
)


def test_destroyed_rabbit_leaves_the_game():
    """T42-SHUF-6: a destroyed rabbit goes back neither to the supply nor to a
    deck: supply + decks + destroyed rabbits stay 7."""
    s = st(play(RABBIT_DESTROYED))
    assert s["supply"]["rabbits"] == 5 and s["blue"]["destroyed_cards"] == ["rabbit"]
    assert "rabbit" not in s["blue"]["deck"] and s["pink"]["deck"]["rabbit"] == 1
    assert s["watch"] == "destroy" and s["blue"]["discard"] == []


def piles_game():
    """Buy out piles 4, 5, 6 and 7; the round that empties the fourth also
    spends an hourglass (copy + 1 lands on stars)."""
    game = t42.Game(setup(watch="copy"))
    lines = buy_out(game, (4, 5, 6, 7), leave=1)
    before = game.state
    lines += buy_round(game, 7, {"hourglasses": 1})
    return lines, game.state.last[2], before


_PILES_LINES, _PILES_WINNER, _PILES_BEFORE = piles_game()
PILES_END = rec("four piles", *_PILES_LINES, watch="copy")
PILES_AFTER = rec("round after four piles", *(_PILES_LINES + [{"blue": "cat", "pink": "cat"}]), watch="copy")


def test_four_empty_piles_end_after_the_round():
    """T42-END-1 T42-END-3 T42-SCORE-1: emptying the fourth pile triggers the
    end; the round is completed (the hourglass is still spent and its space
    applied), then the game is over, scored, and no round follows."""
    assert _PILES_BEFORE.over is False and _PILES_BEFORE.end is None and _PILES_BEFORE.piles[:4] == [0, 0, 0, 1]
    s = st(play(PILES_END))
    w = t42.PLAYERS[_PILES_WINNER]
    assert s["end"] == "piles" and s["over"] is True
    assert [s["piles"][v] for v in "45678"] == [0, 0, 0, 0, 5]
    assert s["watch"] == "stars" and s[w]["stars"] == _PILES_BEFORE.players[_PILES_WINNER].stars + 2
    assert s["final"] == t42.score(play(PILES_END).state)
    assert set(s["final"]["objectives"]) == {"4", "5", "6", "7"}
    assert refusal(PILES_AFTER) == "the game is over"


# ---------------------------------------------------------------- scoring


def scoring_state(empty, flamingo="blue", objectives=None):
    s = t42.new_state(setup(flamingo, objectives=objectives))
    s.piles = [0 if v in empty else 5 for v in t42.PILES]
    return s


def test_only_objectives_above_empty_piles_score():
    """T42-SCORE-1 T42-SCORE-6: with only pile 4 empty, only its objective
    (tarts: 1 star per tart, for each player) scores."""
    s = scoring_state({4})
    s.players[0].hourglasses = 3  # the hourglasses objective is above a full pile
    res = t42.score(s)
    assert res == {
        "blue": 1,
        "pink": 3,
        "winner": "pink",
        "objectives": {"4": {"blue": 1, "pink": 3, "objective": "tarts"}},
    }


def test_majorities_and_counts():
    """T42-SCORE-2 T42-SCORE-3 T42-SCORE-4 T42-SCORE-5: most:king (deck =
    draw + discard), deck size, destroyed cards go to the majority holder for
    the pile's value; hourglasses give 2 stars each to both players."""
    s = scoring_state({5, 6, 7, 8})
    blue, pink = s.players
    blue.discard = ["king"]  # blue: 2 kings, one of them in the discard pile
    pink.destroyed = ["alice", "cat"]
    pink.draw["cat"] = 3  # pink's deck: 11 cards
    blue.hourglasses, pink.hourglasses = 1, 2
    blue.stars, pink.stars = 10, 4
    res = t42.score(s)
    assert res["objectives"] == {
        "5": {"blue": 5, "pink": 0, "objective": "most:king"},
        "6": {"blue": 0, "pink": 6, "objective": "deck"},
        "7": {"blue": 0, "pink": 7, "objective": "destroyed"},
        "8": {"blue": 2, "pink": 4, "objective": "hourglasses"},
    }
    assert (res["blue"], res["pink"], res["winner"]) == (17, 21, "pink")


def test_tied_majority_goes_to_flamingo_holder():
    """T42-SCORE-7: a tied majority (0-0 included) goes to whoever holds the
    flamingo at scoring time."""
    for fl in ("blue", "pink"):
        s = scoring_state({5, 6, 7}, fl)
        res = t42.score(s)
        other = "pink" if fl == "blue" else "blue"
        for v in ("5", "6", "7"):
            assert res["objectives"][v][fl] == int(v) and res["objectives"][v][other] == 0


def test_final_tie_goes_to_flamingo_holder():
    """T42-SCORE-8: most stars wins; equal totals go to the flamingo holder."""
    s = scoring_state(set(), "pink")
    s.players[0].stars = s.players[1].stars = 12
    assert t42.score(s)["winner"] == "pink"
    s.players[0].stars = 13
    assert t42.score(s)["winner"] == "blue"
    s.flamingo = 0
    s.players[0].stars = 12
    assert t42.score(s)["winner"] == "blue"


# ---------------------------------------------------------------- input, adjustments, refusals

ADJUST = rec(
    "adjust",
    {
        "adjust": {
            "blue": {"stars": 5, "tarts": 2, "hourglasses": 3},
            "pink": {"tarts": -3},
            "flamingo": "pink",
            "watch": "copy",
        }
    },
)
ADJ_MORE = rec("adjust more than held", {"adjust": {"blue": {"tarts": -2}}})
ADJ_SUPPLY = rec("adjust more than the supply", {"adjust": {"blue": {"hourglasses": 6}}})
ADJ_STARS = rec("adjust stars below 0", {"adjust": {"pink": {"stars": -1}}})
ADJ_KEY = rec("adjust unknown key", {"adjust": {"blue": {"rabbits": 1}}})
ADJ_EXTRA = rec("adjust with a round", {"adjust": {"flamingo": "pink"}, "blue": "cat"})
ADJ_MOST = rec(
    "adjust stars to the most",
    {"adjust": {"blue": {"stars": 999}}},
    {"adjust": {"blue": {"stars": -999}, "pink": {"stars": 999}}},
)
ADJ_OVER = rec("adjust stars above the most", {"adjust": {"pink": {"stars": 998}}}, {"adjust": {"pink": {"stars": 2}}})
ADJ_HUGE = rec("adjust stars by a huge number", {"adjust": {"blue": {"stars": 99999999999999999999999999}}})
ADJ_HUGE_TARTS = rec("adjust tarts by a huge number", {"adjust": {"blue": {"tarts": 10**30}}})
ADJ_HUGE_LOSS = rec("adjust hourglasses by a huge loss", {"adjust": {"pink": {"hourglasses": -(10**30)}}})


def test_adjustments():
    """T42-INPUT-2: adjustments move tarts and hourglasses between a player
    and the supply, add or remove stars, set the flamingo and the watch; they
    are refused when the giver lacks the tokens."""
    s = st(play(ADJUST))
    assert (s["blue"]["stars"], s["blue"]["tarts"], s["blue"]["hourglasses"]) == (5, 3, 3)
    assert s["pink"]["tarts"] == 0 and s["supply"] == {"tarts": 6, "hourglasses": 2, "rabbits": 7}
    assert s["flamingo"] == "pink" and s["watch"] == "copy" and s["round"] == 0
    assert refusal(ADJ_MORE) == "adjust: blue has only 1 tarts"
    assert refusal(ADJ_SUPPLY) == "adjust: the supply has only 5 hourglasses"
    assert refusal(ADJ_STARS) == "adjust: pink has only 0 stars"
    assert refusal(ADJ_KEY) == "adjust: blue: unknown key rabbits"
    assert refusal(ADJ_EXTRA) == "an adjustment line holds only adjust"


def test_adjustments_have_bounds():
    """T42-INPUT-4: an adjustment leaves a player at most 999 stars (0..999
    is what it can give); tarts and hourglasses are bounded by the tokens
    there are (T42-INPUT-2), however large the number in the record. Stars
    won by the rules are not capped, and a player above 999 can still be
    adjusted down."""
    s = st(play(ADJ_MOST))
    assert (s["blue"]["stars"], s["pink"]["stars"]) == (0, 999)
    assert refusal(ADJ_OVER) == "adjust: pink can have at most 999 stars"
    assert refusal(ADJ_HUGE) == "adjust: blue can have at most 999 stars"
    assert refusal(ADJ_HUGE_TARTS) == "adjust: the supply has only 5 tarts"
    assert refusal(ADJ_HUGE_LOSS) == "adjust: pink has only 0 hourglasses"
    game = t42.Game(setup())
    game.state.players[0].stars = 1005  # (as if won by the rules)
    game.apply({"adjust": {"blue": {"stars": -1}}})
    assert game.state.players[0].stars == 1004
    with pytest.raises(t42.Refused):
        game.apply({"adjust": {"blue": {"stars": 1}}})
    assert game.state.players[0].stars == 1004


@pytest.mark.parametrize(
    "line, reason",
    [
        ({"blue": "teapot", "pink": "cat"}, "unknown card 'teapot' for blue"),
        ({"blue": ["cat"], "pink": "cat"}, "unknown card ['cat'] for blue"),
        ({"blue": "cat"}, "missing the card pink revealed"),
        ({"blue": "cat", "pink": "cat", "effekt": {}}, "unknown key effekt"),
        ({"blue": "queen", "pink": "cat", "buy": 5.0}, "buy must name a pile 4..8 (rabbits cannot be bought)"),
        ({"blue": "queen", "pink": "cat", "buy": True}, "buy must name a pile 4..8 (rabbits cannot be bought)"),
        (
            {"blue": "queen", "pink": "cat", "effect": {"pile": 5.0, "stars": 1}},
            "blue queen: pile 5.0 is empty or unknown",
        ),
        ({"blue": "queen", "pink": "cat", "effect": []}, "blue queen: parameters must be an object"),
        (
            {"blue": "queen", "pink": "cat", "effect": {"pile": 5}},
            "blue queen: missing the stars printed on the destroyed knave",
        ),
        (
            {"blue": "queen", "pink": "cat", "effect": {"pile": 5, "stars": 1, "card": "cat"}},
            "blue queen: unexpected parameter card",
        ),
        ({"blue": "knave", "pink": "cat", "effect": {"take": "tarts"}}, "blue knave: unexpected parameter take"),
        ({"blue": "executioner", "pink": "cat", "effect": {"card": {}}}, "blue executioner: unknown card {}"),
        ({"blue": "guards", "pink": "cat", "effect": {"cards": "dormouse"}}, "blue guards: cards must be a list"),
        (
            {"blue": "queen", "pink": "cat", "hourglasses": -1},
            "hourglasses (what the winner spends) must be a whole number 0 or more, not -1",
        ),
        (
            {"blue": "queen", "pink": "cat", "hourglasses": 0.0},
            "hourglasses (what the winner spends) must be a whole number 0 or more, not 0.0",
        ),
        (
            {"blue": "queen", "pink": "cat", "effect": {"pile": 8, "stars": 1}, "hourglasses": 1},
            "hourglasses: blue wins the round and has no hourglass to spend",
        ),
        ([1, 2], "a line must be a JSON object"),
    ],
)
def test_impossible_lines_refused_state_unchanged(line, reason):
    """T42-INPUT-3: an impossible or malformed line is refused with its
    reason (never another exception) and the state is exactly as before."""
    assert refusal([setup(), {"blue": "dormouse", "pink": "dormouse"}, line]) == reason


def test_probe_asks_only_what_the_device_cannot_know():
    """T42-INPUT-1: the probe asks for the revealed cards (options: the kinds
    in the draw pile), then per effect: king's choice, cat's space, queen's
    pile and stars, guards' cards one at a time, and the hourglasses (when
    the winner holds none the probe writes the 0 itself: one possible
    answer, nothing to ask); a draw pile holding one kind offers just that
    card."""
    game = t42.Game(setup())
    action = {}
    need = game.probe(action)
    assert (need.kind, need.key, need.who, need.what) == (t42.ASK_CARD, "blue", 0, "blue reveals")
    assert need.options == tuple(c for c in t42.CARDS if c != "rabbit")
    need.params["blue"] = "king"
    need = game.probe(action)
    assert (need.key, need.who) == ("pink", 1)
    need.params["pink"] = "cat"
    assert game.probe(action) is None and action["hourglasses"] == 0  # blue holds no hourglass
    del action["hourglasses"]
    action["effect"] = {}
    need = game.probe(action)
    assert (need.kind, need.key, need.options) == (t42.ASK_TAKE, "take", ("flamingo", "tarts"))
    action["effect"]["take"] = "tarts"
    action["hourglasses"] = 0
    assert game.probe(action) is None

    lost = {"blue": "cat", "pink": "dormouse", "effect": {}}
    # pink won: the dormouse needs nothing, and pink has no hourglass to spend
    assert game.probe(lost) is None and lost["hourglasses"] == 0
    rich = t42.Game(setup())
    rich.apply({"adjust": {"pink": {"hourglasses": 2}}})
    need = rich.probe({"blue": "cat", "pink": "dormouse", "effect": {}})
    assert (need.kind, need.key, need.who, need.options) == (t42.ASK_HOURGLASSES, "hourglasses", 1, (0, 2))
    queen = {"blue": "queen", "pink": "cat", "effect": {}, "hourglasses": 0}
    need = game.probe(queen)
    assert (need.kind, need.key, need.options) == (t42.ASK_PILE, "pile", (4, 5, 6, 7, 8))
    queen["effect"]["pile"] = 7
    need = game.probe(queen)
    assert (need.kind, need.key, need.options, need.what) == (t42.ASK_STARS, "stars", (0, 9), "blue queen king stars")

    guards = {"blue": "guards", "pink": "cat", "effect": {}, "hourglasses": 0}
    need = game.probe(guards)
    assert (need.kind, need.key, need.who, need.what) == (t42.ASK_CARD, "cards", 1, "blue guards 1/3")
    assert need.params["cards"] == []
    need.params["cards"].append("alice")
    need = game.probe(guards)
    assert need.what == "blue guards 2/3" and "alice" not in need.options and "cat" not in need.options

    tie = {"blue": "cat", "pink": "cat", "effect": {}, "hourglasses": 0}
    need = game.probe(tie)
    assert (need.kind, need.key, need.options) == (t42.ASK_SPACE, "space", t42.SPACES)
    tie["effect"]["space"] = "reveal"
    need = game.probe(tie)
    assert (need.kind, need.key, need.who) == (t42.ASK_CARD, "cards", 0)
    need.params["cards"] += ["dormouse", "guards"]
    need = game.probe(tie)
    assert (need.kind, need.options) == (t42.ASK_STARS, (0, 18))

    game.apply(action)
    with pytest.raises(t42.Refused, match="blue has no king in the draw pile"):
        game.probe({"blue": "king", "pink": "queen"})

    # one kind left in the draw pile: a single option
    game = t42.Game(setup())
    for b in t42.START_DECK[:-1]:
        game.apply({"blue": b, "pink": b})
    need = game.probe({})
    assert need.options == ("queen",)


# ---------------------------------------------------------------- undo / redo


def test_undo_redo_across_checkpoints():
    """T42-INPUT-3: undo walks back through every earlier state (also across
    the snapshots kept every CHECKPOINT actions), redo walks forward again,
    and a new action clears the redo stack."""
    record = LAST_RABBIT
    states = [dump(play(record[: k + 1]).state) for k in range(len(record))]
    game = play(record)
    assert len(record) - 1 > 3 * t42.CHECKPOINT
    for k in range(len(record) - 1, 0, -1):
        assert dump(game.state) == states[k]
        game.undo()
    assert dump(game.state) == states[0] and not game.can_undo() and game.can_redo()
    with pytest.raises(t42.Refused, match="nothing to undo"):
        game.undo()
    for k in range(1, len(record)):
        game.redo()
        assert dump(game.state) == states[k]
    with pytest.raises(t42.Refused, match="nothing to redo"):
        game.redo()
    for _ in range(10):
        game.undo()
    game.redo()
    assert dump(game.state) == states[-10]
    game.apply({"adjust": {"blue": {"stars": 1}}})
    assert not game.can_redo()
    game.undo()
    assert dump(game.state) == states[-10]
    game.undo()
    game.undo()
    assert dump(game.state) == states[-12]


# ---------------------------------------------------------------- MicroPython


def test_rule_records_same_on_micropython(dual):
    """T42-INPUT-3: every record above replays line by line to the same
    states and refusals under MicroPython (128 KB heap) as under CPython."""

    def put(folder):
        for i, (_name, record) in enumerate(sorted(RECORDS.items())):
            text = "".join(json.dumps(o) + "\n" for o in record)
            (folder / ("r%03d.jsonl" % i)).write_text(text)

    out = dual(REPLAY_SCRIPT, setup_flash=put)
    assert out.count("== ") == len(RECORDS)
    assert out.count(" refused: ") == sum(1 for r in RECORDS.values() if _is_refused_last(r))


def _is_refused_last(record):
    try:
        play(record)
    except t42.Refused:
        return True
    return False


def test_probe_fills_single_answers_itself_when_asked():
    """T42-INPUT-1: with a fills list the probe writes an answer with one
    possibility into the line itself and records it (kind, who, value), in
    the order the round needs it, within one probe; with ask_action it stops
    once both cards are known and no action is in the line (T42-ROUND-3:
    only the device asks for the action). Without fills it asks as before."""
    game = t42.Game(setup())
    for b, q in zip(
        ("cat", "dormouse", "executioner", "knave", "caterpillar", "king", "alice"),
        ("queen", "dormouse", "executioner", "knave", "caterpillar", "king", "alice"),
        strict=True,
    ):
        game.apply({"blue": b, "pink": q})
    # blue holds guards and queen, pink cat and guards
    need = game.probe({})
    assert need.options == ("guards", "queen")
    line = {"blue": "guards"}
    fills = []
    need = game.probe(line, fills, True)
    assert need.kind == t42.ASK_CARD and need.key == "pink" and fills == []
    line["pink"] = "cat"
    need = game.probe(line, fills, True)
    assert (need.kind, need.who) == (t42.ASK_ACTION, 0) and fills == []  # guards beats cat
    line["effect"] = {}
    # pink's draw pile holds only guards: the first of three reveals is
    # certain; then pink reshuffles (T42-SHUF-3) and the second is a question
    need = game.probe(line, fills, True)
    assert fills == [(t42.ASK_CARD, 1, "guards")]
    assert line["effect"]["cards"] == ["guards"]
    assert (need.kind, need.key, need.who, need.what) == (t42.ASK_CARD, "cards", 1, "blue guards 2/3")
    # the same line, asked without fills: the single option is a question
    plain = {"blue": "guards", "pink": "cat", "effect": {}}
    need = game.probe(plain)
    assert (need.what, need.options) == ("blue guards 1/3", ("guards",))

    # both draw piles down to the queen: both cards filled, then the action
    game = t42.Game(setup())
    for b in t42.START_DECK[:-1]:
        game.apply({"blue": b, "pink": b})
    line = {}
    fills = []
    need = game.probe(line, fills, True)
    assert fills == [(t42.ASK_CARD, 0, "queen"), (t42.ASK_CARD, 1, "queen")]
    assert line == {"blue": "queen", "pink": "queen"} and need.kind == t42.ASK_ACTION
    assert need.who == game.state.flamingo  # a tie: the flamingo holder wins
    # the action chosen (nothing): the round completes
    del fills[:]
    assert game.probe(line, fills, False) is None and fills == []
