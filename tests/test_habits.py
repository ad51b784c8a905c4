"""A player's habits are the interface (issue 30), on both interpreters.

- A list's order never changes: every list a round shows is in its fixed
  order (cards in value order, piles in value order, the watch's spaces
  clockwise, the action menu's effect rows, its buys from the dearest
  down, then Nothing), checked on every question of a whole bench game.
- A default never spends and never repeats a mistake: number pickers start
  on 0 (the README says so), the winner's action menu on its first row
  (the effect: never a buy), every list but a drawn card's on its first
  row; an answer taken back by BACK, or the answers of a round just undone,
  are not the default when the question is asked again.
- Nothing is remembered across rounds: a power cut after every round of a
  bench game, the same keys after each resume, gives the same record as
  continuous play.
"""

from test_ui_t42 import PRELUDE, SETUP

from teatally_host import bench, keyscript

RECORD = "random-s1"


def _bench_game(name=RECORD):
    objs = bench.load_record(bench.BENCH_DIR / (name + ".jsonl"))
    keys = keyscript.parse((bench.BENCH_DIR / (name + ".keys")).read_text())
    return objs, [k for k in keys if k[1] != keyscript.END]  # (the end's OK: the scenario's own)


def _key_string(keys, cut=False):
    # the PRELUDE's key string ('u d o b', upper case long); cut: a power
    # cut ('!') after each round line's presses
    out = []
    for i, (tok, line) in enumerate(keys):
        out.append(tok[0].upper() if tok.isupper() else tok[0])
        nxt = keys[i + 1][1] if i + 1 < len(keys) else None
        if cut and line > 0 and nxt != line:
            out.append("!")
    return "".join(out)


REPLAY = r"""
boot()
keys(SCRIPT)
print('over', app.game.state.over, 'round', app.game.state.round)
print('journal', journal_objs() == json.loads(RECORD))
keys('o')  # the final screen: archive
print('archives', app.journal.list_archives())
"""


def test_a_power_cut_after_every_round_gives_the_same_record(dual):
    """The bench game's key script played without a break and with a power
    cut (the App booted again from the flash) after every round line: both
    write exactly the bench record (the screens' defaults depend on the
    journal alone, nothing remembered in RAM), on both interpreters."""
    objs, keys = _bench_game()
    assert sum(1 for o in objs[1:] if "adjust" not in o) >= 40
    outs = []
    for cut in (False, True):
        script = _key_string(keys, cut)
        assert script.count("!") == (len(objs) - 1 if cut else 0)
        outs.append(dual(PRELUDE + "RECORD = %r\nSCRIPT = %r\n" % (jsonc_dumps(objs), script) + REPLAY))
    rounds = sum(1 for o in objs[1:] if "adjust" not in o)
    for out in outs:
        assert "over True round %d" % rounds in out and "journal True" in out
        assert "archives ['g0001.jsonl']" in out
    assert outs[0] == outs[1]


def jsonc_dumps(objs):
    import json

    return json.dumps(objs)


ORDERS = r"""
CARDS = list(t42.CARDS)
def ordered(values, order):
    idx = [order.index(v) for v in values]
    return idx == sorted(idx)

def check(moved):
    # the question on screen, if it is a round's and new: its order, and its
    # start unless the key that opened it moved it (the board's UP/DOWN)
    t = top()
    if t is last[0]:
        return
    last[0] = t
    r = getattr(t, 'round', None)
    if r is None or r.guide is not None:
        return
    if hasattr(t, 'items'):
        vals = [it[1] for it in t.items]
        if r.need is None:
            kind = 'action'
            eff = [v for v in vals if type(v) is not int and v != 'none']
            buys = [v for v in vals if type(v) is int]
            ok = vals == eff + buys + ['none'] and buys == sorted(buys, reverse=True)
            ok = ok and t.sel == 0 and type(vals[t.sel]) is not int
            piles = [v[1] for v in eff if type(v) is tuple and v[0] == 'pile']
            spaces = [v[1] for v in eff if type(v) is tuple and v[0] == 'space']
            ok = ok and piles == sorted(piles) and (not spaces or spaces == list(t42.SPACES))
        else:
            kind = r.need.kind
            if kind == t42.ASK_CARD:
                ok = ordered(vals, CARDS)
                if type(r.need.pile) is dict:
                    # the likeliest drawn card: the most of it in the pile, the first of equals
                    counts = [r.need.pile.get(v, 0) for v in vals]
                    ok = ok and (moved or t.sel == counts.index(max(counts)))
                    # counts on every drawn card's row ("king 7 x2")
                    for it, n in zip(t.items, counts):
                        ok = ok and (txt(it[0]).endswith(' x%d' % n) == (n > 1))
                else:
                    ok = ok and t.sel == 0
            elif kind == t42.ASK_PILE:
                ok = vals == sorted(vals) and t.sel == 0
            elif kind == t42.ASK_SPACE:
                ok = ordered(vals, list(t42.SPACES)) and t.sel == 0
            else:
                ok = t.sel == 0
        seen[kind] = seen.get(kind, 0) + 1
    else:
        kind = r.need.kind
        ok = t.value == 0  # stars and hourglasses start on 0
        seen[kind] = seen.get(kind, 0) + 1
    if not ok:
        bad.append('%s %s sel/value %s' % (kind, name(), getattr(t, 'sel', getattr(t, 'value', None))))

seen = {}
bad = []
last = [None]
boot()
for ch in SCRIPT:
    board = isinstance(top(), ui_t42.Status)
    key(ch, 'A' <= ch <= 'Z')
    check(board and ch != 'o')
print('journal', journal_objs() == json.loads(RECORD))
print('seen', ' '.join(['%s=%d' % (k, seen[k]) for k in sorted(seen)]))
print('bad', len(bad))
for b in bad[:10]:
    print(' ', b)
"""


def test_lists_keep_their_order_and_start_by_the_stated_rule(dual):
    """Every question of a whole bench game: card lists in value order with
    the cursor on the likeliest drawn card (else the first) and the count on
    each row; piles in value order, spaces clockwise, both from the first
    row; the action menu's effect rows, buys from the dearest down, then
    Nothing, starting on its first row (never a buy); pickers from 0."""
    kinds = set()
    for name in ("random-s1", "long60-s7"):
        objs, keys = _bench_game(name)
        out = dual(PRELUDE + "RECORD = %r\nSCRIPT = %r\n" % (jsonc_dumps(objs), _key_string(keys)) + ORDERS)
        assert "journal True" in out
        assert "\nbad 0\n" in out, out
        seen = dict(kv.split("=") for kv in out.split("seen ")[1].split("\n")[0].split())
        assert int(seen["card"]) > 40 and int(seen["action"]) > 40, seen
        kinds |= set(seen)
    # the games asked hourglasses and stars too (pickers)
    assert {"hourglasses", "stars"} <= kinds


UNDO = r"""
start(SETUP)
def begin():
    global r
    ui_t42_round.start(app.ui)
    r = top().round
def step(v):
    r.answer(app.ui, v)
    app.finish()
def sel():
    t = top()
    return t.items[t.sel][1] if hasattr(t, 'items') else t.value
# a tie, cat / cat, nothing done; undone: blue's cat is not the default now
begin()
print('blue0', sel())
step(sel())
step('cat')
step('none')
keys('B')
q = ui_t42_round.first_question(app)
print('board0', q[1][q[2]])
# round 1: queen beats dormouse; the queen destroys pile 4 (the first row,
# taken with a blind OK), its printed stars 0 (the picker's start)
begin()
print('blue', sel())
step('queen')
step('dormouse')
print('act', sel())
step(sel())
print('stars', sel())
# BACK from the stars: the action asked again, not on the row taken back
r.back(app.ui)
print('back', sel())
step(('pile', 4))
step(0)
print('r1', jsonc.dumps(journal_objs()[-1]))
# undo it (LONG BACK): the round asked again starts on none of its answers
keys('B')
q = ui_t42_round.first_question(app)
print('board', q[1][q[2]])
begin()
print('blue2', sel())
step('queen')
step('dormouse')
print('act2', sel())
step(('pile', 4))
print('stars2', sel())
step(0)
print('r1again', jsonc.dumps(journal_objs()[-1]))
# round 2: nothing undone any more: the first row and 0 again
begin()
step('king')
step('guards')
print('act3', sel())
"""


def test_an_answer_taken_back_or_undone_is_not_the_default_again(dual):
    """The answer BACK took back is not where the question asked again
    starts (the next row that spends nothing); after LONG BACK the round
    undone is asked again with none of its answers as the default: its
    card on the board, the action (the next row, never a buy), the printed
    stars (1, not 0); the round after starts by the usual rules again."""
    out = dual(PRELUDE + "SETUP = %r\n" % SETUP + UNDO)
    rows = dict(line.split(" ", 1) for line in out.splitlines())
    # equally likely cards: the first (cat); the undone round's cat is not
    # the default on the board nor in the list: the next card
    assert rows["blue0"] == "cat" and rows["board0"] == "dormouse" and rows["blue"] == "dormouse"
    assert rows["act"] == "('pile', 4)" and rows["stars"] == "0"
    assert rows["back"] == "('pile', 5)"  # not the pile taken back, nor a buy
    assert rows["r1"] == '{"blue": "queen", "effect": {"pile": 4, "stars": 0}, "hourglasses": 0, "pink": "dormouse"}'
    # the undone round's card (queen) is not the first: the first again
    assert rows["board"] == "cat" and rows["blue2"] == "cat"
    assert rows["act2"] == "('pile', 5)" and rows["stars2"] == "1"
    assert rows["r1again"] == rows["r1"]
    assert rows["act3"] == "('take', 'flamingo')"


def test_the_undone_line_is_read_as_a_mend_reads_a_line():
    """The round reads the undone line's answer to each question itself (the
    mend's recover.hinted is a rare module, not loaded for an undo): the
    same answer as hinted's on every question of a whole bench game."""
    import tempfile

    from teatally import recover
    from teatally.ui.t42 import round as ui_round

    objs, _ = _bench_game("long60-s7")
    seen = []

    class Check(keyscript.Driver):
        def choose(self, value):
            r = getattr(self.top(), "round", None)
            if r is not None and self.line > 0:
                rec = objs[self.line]
                got = ui_round._answer_in(rec, r.draft, r.need)
                assert got == recover.hinted(rec, r.draft, r.need), (self.line, r.need and r.need.kind)
                seen.append(got)
            super().choose(value)

    with tempfile.TemporaryDirectory() as d:
        Check(d).play(objs, archive=False)
    assert len(seen) > 150 and None not in seen
