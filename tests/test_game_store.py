"""How t42.Game keeps a long game in little RAM (issue #7): the action list
as compact bytes (t42.Actions), the state snapshots as packed bytes
(t42._pack/_unpack), the state before the last action whole. Undo and redo
must behave exactly as with whole copies (T42-INPUT-3), on both interpreters.
"""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from t42_support import GUEST_HEAP, dump

from teatally.rules import t42
from teatally_host import gen

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PROPS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_same_state(a, b):
    # every slot, so a field added to State or Player later must be packed too
    for k in t42.State.__slots__:
        if k != "players":
            va, vb = getattr(a, k), getattr(b, k)
            assert type(va) is type(vb) and va == vb, k
    for pa, pb in zip(a.players, b.players, strict=True):
        for k in t42.Player.__slots__:
            va, vb = getattr(pa, k), getattr(pb, k)
            assert type(va) is type(vb) and va == vb, k
    assert a.objectives is b.objectives


@PROPS
@given(SEEDS)
def test_snapshot_unpacks_to_the_same_state(seed):
    """Every state of a game (adjustments included) packs into a small
    snapshot and unpacks to a state equal in every field, with fresh lists
    and dicts (a later apply must not reach into the snapshot)."""
    objs = gen.random_game(seed, adjust_rate=0.1)
    game = t42.Game(objs[0])
    for line in objs[1:]:
        s = game.apply(line)
        snap = t42._pack(s)
        assert len(snap[3]) < 100
        u = t42._unpack(snap, s.objectives)
        assert_same_state(s, u)
        assert u.players[0].draw is not s.players[0].draw
        assert dump(t42._unpack(snap, s.objectives)) == dump(s)
        u.players[0].discard.append("cat")
        assert_same_state(s, t42._unpack(snap, s.objectives))


def test_snapshot_keeps_huge_stars_and_every_end():
    """Stars won by the rules are not capped (only adjustments are,
    T42-INPUT-4): any count is kept exactly."""
    game = t42.Game(gen.random_setup(random.Random(1)))
    game.apply({"adjust": {"pink": {"stars": 999}, "flamingo": "pink", "watch": "copy"}})
    s = game.state
    s.players[1].stars = 10**12
    for end, over in ((None, False), ("piles", False), ("rabbits", True)):
        s.end, s.over = end, over
        assert_same_state(s, t42._unpack(t42._pack(s), s.objectives))


def reference_check(game, ref):
    states, actions, redo = ref
    assert dump(game.state) == states[-1]
    assert list(game.actions) == actions and len(game.actions) == len(actions)
    assert game.redo_stack == redo
    assert game.can_undo() == bool(actions) and game.can_redo() == bool(redo)


@PROPS
@given(SEEDS)
def test_undo_redo_match_a_game_of_whole_copies(seed):
    """T42-INPUT-3: any mix of new lines, undos (one or many in a row, across
    the snapshots) and redos gives the states, line list and redo stack a
    plain list of whole states would."""
    rng = random.Random(seed)
    setup = gen.random_setup(rng)
    game = t42.Game(setup)
    states, actions, redo = [dump(game.state)], [], []
    ref = (states, actions, redo)
    for _ in range(220):
        roll = rng.random()
        if roll < 0.55 and not game.state.over:
            line = gen.random_adjustment(rng, game.state) if rng.random() < 0.1 else gen.random_round(rng, game)
            game.apply(json.loads(json.dumps(line)))
            states.append(dump(game.state))
            actions.append(line)
            redo.clear()
        elif roll < 0.8:
            for _ in range(rng.choice((1, 1, 2, 3, 9))):
                if not actions:
                    try:
                        game.undo()
                        raise AssertionError("undo with nothing to undo")
                    except t42.Refused:
                        break
                game.undo()
                states.pop()
                redo.append(actions.pop())
                reference_check(game, ref)
        elif redo and not game.state.over:
            line = redo.pop()
            game.redo()
            states.append(dump(game.state))
            actions.append(line)
        elif not redo:
            try:
                game.redo()
                raise AssertionError("redo with nothing to redo")
            except t42.Refused:
                pass
        reference_check(game, ref)


def test_action_list_reads_like_a_list():
    """Actions: len, [i], [-1], iteration, IndexError past the end, fresh
    dicts (changing one read does not change the list)."""
    objs = gen.random_game(5, adjust_rate=0.2)
    game = t42.Game(objs[0])
    for line in objs[1:]:
        game.apply(line)
    acts = game.actions
    assert len(acts) == len(objs) - 1 and list(acts) == objs[1:]
    assert acts[-1] == objs[-1] and acts[0] == objs[1]
    for bad in (len(acts), -len(acts) - 1):
        try:
            acts[bad]
            raise AssertionError("no IndexError")
        except IndexError:
            pass
    acts[0]["blue"] = "nobody"
    assert acts[0] == objs[1]
    assert len(acts.buf) < 14 * len(acts)  # ~10 bytes a line


# Lines the engine accepts although they are not plain names and small ints:
# a falsy watch next to no hourglass (T42-WATCH-1), zero stars written 0.0
# when reveal turned no card, adjustments by large or negative amounts; and
# odd shapes the store must give back exactly all the same.
ODD_SCRIPT = r"""
import json
from teatally.rules import t42
ODD = json.loads(ODD_JSON)
def check(acts, want):
    got = [acts[i] for i in range(len(acts))]
    print('check', len(acts), got == want and list(acts) == want and (not want or acts[-1] == want[-1]))
def run():
    acts = t42.Actions()
    want = []
    for a in ODD:
        acts.append(a)
        want.append(a)
        check(acts, want)
    print('odd', json.dumps(sorted(acts.odd)))
    while want:
        print('pop', acts.pop() == want.pop())
        check(acts, want)
    print('left', len(acts.buf), len(acts.odd))
    try:
        acts[0]
    except IndexError:
        print('empty')
    acts.append(ODD[1])
    print('again', acts[0] == ODD[1], len(acts.odd))
run()
"""
ODD = [
    {"blue": "cat", "pink": "king", "effect": {"take": "tarts"}, "hourglasses": 0},
    {"blue": "cat", "pink": "dormouse", "watch": ""},
    {"blue": "cat", "pink": "dormouse", "watch": 0},
    {"blue": "cat", "pink": "dormouse", "watch": None},
    {"blue": "cat", "pink": "dormouse", "watch": False},
    {"blue": "cat", "pink": "dormouse", "watch": []},
    {"blue": "cat", "pink": "dormouse", "watch": {}},
    {"blue": "queen", "pink": "cat", "hourglasses": 1, "watch": {"cards": [], "stars": 0.0}},
    {"adjust": {"blue": {"stars": -3, "tarts": 2}}},
    {"adjust": {"pink": {"stars": 10**15}}},
    {"adjust": {"pink": {"stars": -41}}},
    {"adjust": {"blue": {"stars": 135}, "pink": {"stars": 136}}},
    {
        "blue": "cat",
        "pink": "cat",
        "effect": {"space": "copy", "then": {"space": "reveal", "cards": ["rabbit", "alice"], "stars": 9}},
    },
    {"blue": "king", "pink": "queen", "x-unknown": "words not known", "effect": {"pile": 8, "stars": 9}},
    {"blue": "guards", "pink": "rabbit", "effect": {"cards": ["queen", "cat", "rabbit"]}, "buy": [1, 2]},
    {"adjust": {"watch": "flamingo"}},
    {},
    {"blue": True},
    {"blue": "queen", "pink": "queen", "hourglasses": 4, "watch": {"decline": True}},
]


def test_odd_lines_come_back_exactly(dual):
    """Every line goes in and comes back equal, on both interpreters, the
    odd ones kept aside (Actions.odd) and dropped again by pop."""
    out = dual("ODD_JSON = %r\n" % json.dumps(ODD) + ODD_SCRIPT)
    lines = out.splitlines()
    checks = [line.split() for line in lines if line.startswith("check ")]
    assert [int(c[1]) for c in checks] == list(range(1, len(ODD) + 1)) + list(range(len(ODD) - 1, -1, -1))
    assert all(c[2] == "True" for c in checks)
    # true is a byte of its own (a declined copy, T42-COPY-4): {"blue": true}
    # and the decline line are not odd
    assert json.loads(lines[len(ODD)][4:]) == [1, 3, 4, 7, 9, 10, 11, 13, 14]
    assert [line for line in lines if line.startswith("pop ")] == ["pop True"] * len(ODD)
    assert lines[-3:] == ["left 0 0", "empty", "again True 1"]


# Every reader (len, .actions, undo, redo, a checkpoint's snapshot) sees the
# actions applied, the last one too.
PENDING_SCRIPT = r"""
import json
from teatally.rules import t42
OBJS = json.loads(OBJS_JSON)
def run():
    g = t42.Game(OBJS[0])
    out = []
    for i in range(1, 10):
        g.apply(OBJS[i])
        out.append('%d' % len(g))
    print(' '.join(out), list(g.actions) == OBJS[1:10])
    g.apply(OBJS[10])
    print(len(g.actions))
    g.apply(OBJS[11])
    g.undo()
    print(len(g), g.can_undo(), list(g.actions) == OBJS[1:11], g.redo_stack == [OBJS[11]])
    g.redo()
    print(list(g.actions) == OBJS[1:12])
    g.apply(OBJS[12])
    while g.can_undo():
        g.undo()
    print(len(g), g.redo_stack[::-1] == OBJS[1:13])
    # a checkpoint's snapshot: undo to before it and back replays from it
    # exactly
    g = t42.Game(OBJS[0])
    for i in range(1, 9):
        g.apply(OBJS[i])
    print('snap', len(g._snaps))
    g.apply(OBJS[9])
    want = t42.to_json(g.state)
    g.undo()
    g.undo()
    g.redo()
    g.redo()
    print('rebuilt', t42.to_json(g.state) == want, len(g._snaps))
run()
"""


def test_the_last_action_reads_the_same_everywhere(dual):
    """t42.Game: the action applied last, and the snapshot made at a
    checkpoint: len, .actions, undo and redo see it all the same
    (T42-INPUT-3)."""
    _, objs = gen.long_game(20)
    out = dual("OBJS_JSON = %r\n" % json.dumps(objs) + PENDING_SCRIPT).splitlines()
    assert out == [
        "1 2 3 4 5 6 7 8 9 True",
        "10",
        "10 True True True",
        "True",
        "0 True",
        "snap 2",
        "rebuilt True 2",
    ]


# A 60-round game on MicroPython: undo to the start and redo it all, states
# printed as CRCs so CPython must agree line by line.
LONG_SCRIPT = r"""
import json, binascii
from teatally import jsonc
from teatally.rules import t42
OBJS = json.loads(OBJS_JSON)
def crc(g):
    return '%08x' % (binascii.crc32(jsonc.dumps(t42.to_json(g.state)).encode()) & 0xffffffff)
def run():
    g = t42.Game(OBJS[0])
    for o in OBJS[1:]:
        g.apply(o)
    out = [crc(g)]
    while g.can_undo():
        g.undo()
        out.append(crc(g))
    print(' '.join(out))
    out = []
    while g.can_redo():
        g.redo()
        out.append(crc(g))
    print(' '.join(out))
    print(list(g.actions) == OBJS[1:], len(g.actions.buf))
run()
"""


def test_long_game_undo_redo_on_both_interpreters(dual):
    """T42-INPUT-3: a 60-round game undone to its start and redone walks the
    same states under MicroPython as under CPython."""
    _, objs = gen.long_game(60)
    out = dual("OBJS_JSON = %r\n" % json.dumps(objs) + LONG_SCRIPT).splitlines()
    back, forth = out[0].split(), out[1].split()
    assert len(back) == 61 and len(set(back)) > 50
    assert forth == back[::-1][1:]
    assert out[2].split()[0] == "True"


# The heap a 60-round game holds on MicroPython (a whole-copy Game held
# ~12 KB: a State per 8 lines, the state before the last, ~75 bytes a line).
# (heap() and scrub(): t42_support.GUEST_HEAP)
HEAP_SCRIPT = (
    GUEST_HEAP
    + r"""
import gc, json
from teatally.rules import t42
G = []
def load():
    f = open(FLASH + '/game.json')
    G.append(json.loads(f.read()))
    f.close()
def play():
    objs = G[0]
    g = t42.Game(objs[0])
    for o in objs[1:]:
        g.apply(o)
    G.append(g)
def undo():
    G[1].undo()
    G[1].undo()
load()
m0 = heap()
play()
m1 = heap()
undo()
m2 = heap()
print(m1 - m0, m2 - m0, len(G[1].actions), G[1].state.round)
"""
)


def test_sixty_round_game_heap(mp, tmp_path):
    """A 60-round game costs < 4.5 KB of heap on MicroPython, after undos too."""
    _, objs = gen.long_game(60)
    (tmp_path / "game.json").write_text(json.dumps(objs))
    res = mp("FLASH = '/flash'\n" + HEAP_SCRIPT, flash_dir=str(tmp_path))
    held, after_undo, n, rounds = (int(x) for x in res.stdout.split())
    assert (n, rounds) == (58, 58)
    print("60-round game: %d bytes, %d after two undos" % (held, after_undo))
    assert held < 4500 and after_undo < 4500
