"""The game menu's History screen (ui_t42_more.history) on games with rounds
and adjustment lines (T42-INPUT-2).

The history makes its rows lazily (only those drawn, from the lines' tags in
t42.Actions, labels as bytes). What the player sees must be what the history showed when it
made every row at once with str labels: the scenarios draw that eager menu
(rebuilt from labels and hints the host computes with the old rules) next to
the real screen after every key and compare the frame buffers' CRCs, on both
interpreters (``dual``)."""

import json
import random
from pathlib import Path

from teatally.rules import t42
from teatally.ui import core as ui
from teatally.ui.t42 import words
from teatally.ui.t42 import history as ui_t42_more
from teatally_host import gen


def expected(objs):
    """(labels, hints, details) of the history rows, line by line: the
    round number counts the round lines so far; the details are the line
    played on the state before it."""
    labels = []
    hints = []
    details = []
    n = 0
    game = t42.Game(objs[0])
    for a in objs[1:]:
        if "adjust" not in a:
            n += 1
        labels.append(words.action_label(a, n))
        hints.append(ui_t42_more.action_hint(a))
        details.append(ui_t42_more.describe(game.state, a))
        game.apply(a)
    return labels, hints, details


def game_with_adjustments():
    """A game cut after 24 rounds whose first line is an adjustment, with
    two adjustments in a row at its end (the newest line adjusts)."""
    objs = gen.random_game(12, rounds=24, adjust_rate=0.3)
    game = t42.Game(objs[0])
    for a in objs[1:]:
        game.apply(a)
    rng = random.Random(3)
    for _ in range(2):
        adj = gen.random_adjustment(rng, game.state)
        game.apply(adj)
        objs.append(adj)
    return objs


GUEST = r"""
import binascii
from teatally.ui import core as ui
from teatally.ui.t42 import history as ui_t42_more
import teatally.app
from teatally.app import App
from teatally.buttons import E_PRESS, K_BACK, K_DOWN, K_OK, K_UP
from teatally.hw.virtual import VirtualHardware

A = []
REF = []

def boot():
    a = App(VirtualHardware(FLASH))
    A.append(a)
    a.boot()
    a.ui.draw(a.fb)

def idle():
    while A[0].idle_work():
        pass

def press(k, rest=True):
    # a key; rest: then the idle work (the detail made ahead)
    A[0].key(E_PRESS | k)
    if rest:
        idle()

def crc():
    return '%08x' % (binascii.crc32(A[0].fb.buffer) & 0xffffffff)

def txt(x):
    return x if isinstance(x, str) else x.decode()

def top():
    return A[0].ui.top()

def eager():
    # the history as it was made before: every row at once, str labels
    items = [(LABELS[i], i) for i in range(len(LABELS))]
    REF.append(ui.Menu('History', items, None, sel=len(items) - 1, hint=lambda i: HINTS[i]))

def same(ref):
    # the screen on top drawn as ref draws it
    a = A[0]
    shown = crc()
    ui.clear(a.fb)
    ref.draw(a.ui, a.fb)
    drawn = crc()
    a.ui.draw(a.fb)
    return shown == drawn

def row(tag):
    m = top()
    REF[0].sel = m.sel
    label, i = m.items[m.sel]
    print(tag, m.title, m.sel, len(m.items), txt(label), i, '|', txt(m.hint(m.sel)), same(REF[0]))

def detail(tag):
    d = top()
    lines = [txt(x) for x in d.lines]
    ref = ui.Lines(TITLES[0], lines)
    print(tag, type(d).__name__, d.title, d.top, '|', ' / '.join(lines), same(ref))
"""

SCENARIO = r"""
def open_history():
    press(K_BACK)  # the status board's game menu
    press(K_OK)  # its first entry: History

def browse():
    open_history()
    row('open')
    print('all', [txt(it[0]) for it in top().items] == LABELS)
    for i in range(len(LABELS) + 1):  # every row, UP, and round to the newest
        press(K_UP)
        row('up')
    press(K_DOWN)
    row('down')
    press(K_DOWN)  # the newest -> the first
    row('down')

def details():
    # OK on the first line, then on the next one
    TITLES[0] = LABELS[0]
    press(K_OK)
    detail('ok0')
    press(K_BACK)
    row('back')
    press(K_DOWN, False)
    TITLES[0] = LABELS[1]
    press(K_OK, False)
    detail('ok1')
    press(K_BACK)
    # the longest line: scrolled, left, opened again: from its first line
    for i in range(LONGEST - 1):
        press(K_DOWN, False)
    TITLES[0] = LABELS[LONGEST]
    press(K_OK)
    detail('long')
    press(K_DOWN)
    print('scrolled', top().top)
    press(K_BACK)
    press(K_OK)
    detail('again')
    press(K_BACK)

def leave():
    press(K_BACK)
    print('left', type(top()).__name__, top().title, top().sel)
    press(K_OK)
    row('reopen')

TITLES = [None]
boot()
eager()
browse()
details()
leave()
"""


def test_history_rows_hints_and_details_look_as_before(dual):
    """T42-INPUT-2: on a game with rounds and adjustment lines (the first and
    the two newest), the history opens on the newest line; every row (UP
    through all of them and round to the newest, DOWN round to the first)
    reads "R12 Blue queen" (the winner and the card that won) or "R12
    adjusted" with the round number of the rounds so far and the bottom line
    says whom the winner beat or what was adjusted, and the screen is pixel
    for pixel the one the eager history drew. OK shows the line in
    sentences (ui.t42.history.describe), titled with its label,
    from its first line when opened again; BACK leaves for the game menu,
    and History opens on the newest line again."""
    objs = game_with_adjustments()
    lines = objs[1:]
    labels, hints, details = expected(objs)
    longest = max(range(len(lines)), key=lambda i: len(details[i]))
    script = "LABELS = %r\nHINTS = %r\nLONGEST = %d\n" % (labels, hints, longest) + GUEST + SCENARIO

    def flash(d):
        gen.write_record(objs, d / "game.jsonl", crc=True)

    out = dual(script, setup_flash=flash)
    rows = [line.split(" ") for line in out.splitlines()]
    n = len(lines)
    assert sum(1 for a in lines if "adjust" in a) >= 4 and "adjust" in lines[0] and "adjust" in lines[-1]
    assert labels[0] == "R0 adjusted" and labels[-1] == labels[-2] == "R%d adjusted" % 24
    opened = out.splitlines()[0]
    assert opened == "open History %d %d %s %d | %s True" % (n - 1, n, labels[-1], n - 1, hints[-1])
    assert "all True" in out
    # UP from the newest: every line once, then round to the newest
    ups = [line for line in out.splitlines() if line.startswith("up ")]
    want = [n - 2 - k for k in range(n - 1)] + [n - 1, n - 2]
    assert [int(r.split(" ")[2]) for r in ups] == want
    for line, i in zip(ups, want, strict=True):
        assert line == "up History %d %d %s %d | %s True" % (i, n, labels[i], i, hints[i])
    downs = [line for line in out.splitlines() if line.startswith("down ")]
    assert downs == ["down History %d %d %s %d | %s True" % (i, n, labels[i], i, hints[i]) for i in (n - 1, 0)]
    # the details: the line in words, then its JSON
    for tag, i in (("ok0", 0), ("ok1", 1), ("long", longest), ("again", longest)):
        text = " / ".join(ui.wrap(details[i]))
        assert "%s Lines %s 0 | %s True" % (tag, labels[i], text) in out, tag
    assert len(ui.wrap(details[longest])) > ui.ROWS - 1 and "scrolled 1" in out
    assert "back History 0 %d %s 0 | %s True" % (n, labels[0], hints[0]) in out
    assert "left Menu Game 0" in out
    assert out.splitlines()[-1] == "reopen History %d %d %s %d | %s True" % (n - 1, n, labels[-1], n - 1, hints[-1])
    assert all(r[-1] == "True" for r in rows if r[0] not in ("all", "left", "scrolled"))


EMPTY = r"""
boot()
A[0].new_game(SETUP)
A[0].show_game()
idle()
press(K_BACK)
press(K_OK)
m = top()
print('empty', m.title, m.sel, [txt(it[0]) for it in m.items], m.hint, crc())
press(K_DOWN)
press(K_OK)  # OK: back to the game menu
print('ok', top().title, top().sel)
press(K_OK)
press(K_BACK)
print('back', top().title, top().sel)
"""


def test_history_of_a_game_without_lines(dual):
    """A game with no line yet: the history says so, without a bottom line;
    OK and BACK both go back to the game menu."""
    setup = gen.random_game(1, rounds=0)[0]
    out = dual("SETUP = %r\nLABELS = []\nHINTS = []\n" % json.loads(json.dumps(setup)) + GUEST + EMPTY)
    assert "empty History 0 ['(no rounds yet)'] None" in out
    assert "ok Game 0" in out and "back Game 0" in out


TAGS = r"""
from teatally.rules import t42
def show(acts):
    print('tags', list(acts.tags), len(acts))
acts = t42.Actions()
for a in LINES:
    acts.append(a)
show(acts)
acts.pop()
acts.pop()
show(acts)
acts.append(LINES[-1])
show(acts)
"""


def test_a_line_tag_tells_cards_and_adjustments(dual):
    """t42.Actions keeps one byte a line for the history: an adjustment's
    tag, or blue's and pink's card (their index in t42.CARDS, 14 for no
    card); pop drops it with the line."""
    lines = [
        {"blue": "cat", "pink": "queen", "hourglasses": 0},
        {"adjust": {"blue": {"tarts": 2}}},
        {"blue": "queen", "pink": "cat", "effect": {"take": "tarts"}, "hourglasses": 1.0},  # kept as it is
        {"blue": True},
        {},
        {"adjust": {"watch": "flamingo"}},
    ]
    out = dual("LINES = %s\n" % json.dumps(lines).replace("true", "True") + TAGS)
    tags = [0x09, 0xFF, 0x90, 0xEE, 0xEE, 0xFF]
    assert out.splitlines() == ["tags %s 6" % tags, "tags %s 4" % tags[:4], "tags %s 5" % (tags[:4] + tags[-1:])]


# -- the sentences (describe): every step said, in both languages -------------------------
SETUP = {
    "game": "tea-for-2",
    "flamingo": "blue",
    "watch": "flamingo",
    "objectives": {
        "4": "most:knave",
        "5": "most:caterpillar",
        "6": "most:king",
        "7": "most:executioner",
        "8": "destroyed",
    },
}
# a game made to meet every kind of step once: a copy -> cat -> stars chain
# on the watch, a declined copy, a pile destroyed, the executioner on the
# queen, the destroy space, a buy, the king's flamingo and tarts, tokens
# taken from the foe, a tie, no action, adjustments
STEPS = [
    {"adjust": {"blue": {"hourglasses": 2, "stars": 1}, "pink": {"hourglasses": 2}}},
    {"blue": "king", "pink": "cat", "effect": {"take": "tarts"}, "hourglasses": 1, "watch": {"space": "stars"}},
    {"adjust": {"watch": "flamingo", "flamingo": "pink"}},
    {"blue": "queen", "pink": "executioner", "effect": {"pile": 8, "stars": 2}, "hourglasses": 1,
     "watch": {"decline": True}},
    {"blue": "executioner", "pink": "guards", "effect": {"card": "queen"}, "hourglasses": 0},
    {"blue": "dormouse", "pink": "knave", "effect": {}, "hourglasses": 2, "watch": {"card": "knave", "stars": 0}},
    {"blue": "cat", "pink": "alice", "buy": 4, "hourglasses": 0},
    {"blue": "guards", "pink": "king", "effect": {"take": "flamingo"}, "hourglasses": 0},
    {"blue": "caterpillar", "pink": "caterpillar", "hourglasses": 0},
    {"blue": "alice", "pink": "dormouse", "effect": {}, "hourglasses": 0},
    {"blue": "knave", "pink": "rabbit", "effect": {}, "hourglasses": 0},
]
SAY = r"""
from teatally import words
from teatally.rules import t42
from teatally.ui.t42 import history
for lang in ('en', 'ja'):
    words.use(lang)
    g = t42.Game(SETUP)
    for a in LINES:
        print(history.describe(g.state, a))
        g.apply(a)
words.use('en')
"""
EN = [
    "Adjusted: Blue stars +1, Blue hourglasses +2, Pink hourglasses +2.",
    "Blue's king beat Pink's cat. Blue's king: took 2 tarts. Blue spent 1 hourglass: the hand on copy; "
    "copied Pink's cat; moved the hand to stars; gained 2 stars.",
    "Adjusted: flamingo to Pink, hand on flamingo.",
    "Blue's queen beat Pink's executioner. Blue's queen: destroyed an alice from pile 8 (2 stars). "
    "Blue spent 1 hourglass: the hand on copy; did not copy Pink's executioner.",
    "Blue's executioner beat Pink's guards. Blue's executioner: hit Pink's queen, not destroyed.",
    "Pink's knave beat Blue's dormouse. Pink's knave: took 3 tarts. Pink spent 2 hourglasses: the hand on destroy; "
    "destroyed Pink's knave (0 stars).",
    "Pink's alice beat Blue's cat. Pink bought an executioner from pile 4 for 0 tarts.",
    "Pink's king beat Blue's guards. Pink's king: took the flamingo.",
    "Pink's caterpillar tied Blue's caterpillar; Pink held the flamingo. Pink took no action.",
    "Blue's alice beat Pink's dormouse. Blue's alice: took 1 hourglass. Pink shuffled a rabbit in.",
    "Blue's knave beat Pink's rabbit. Blue's knave: took 3 tarts (3 from Pink). Blue shuffled a rabbit in.",
]


def test_history_sentences_say_every_step(dual):
    """Issue 30: a history line says every step the engine played, named:
    the card a queen destroyed and its pile, the executioner's hit (the
    queen kept), the card the destroy space took, the king's take, the
    tokens taken (and how many came from the other player), the watch's
    whole path through copies (copy -> cat -> stars), a declined copy, a
    buy with its card (a/an) and cost; players capitalised, counts with
    their plurals ("1 hourglass", "2 hourglasses"). The same in Japanese,
    on both interpreters."""
    out = dual("SETUP = %r\nLINES = %r\n" % (SETUP, STEPS) + SAY).splitlines()
    n = len(STEPS)
    assert out[:n] == EN
    ja = out[n:]
    assert len(ja) == n
    assert ja[1] == (
        "青の王様が赤のチェシャ猫に勝ち。青の王様: タルト2枚をもらう。青は砂時計1枚を使う: 針は「相手の札」へ、"
        "赤のチェシャ猫の効果を使う、針を「星2つ」へ、星2を得る。"
    )
    assert ja[3] == (
        "青の女王が赤の処刑人に勝ち。青の女王: 山8のアリスを破壊(星2)。青は砂時計1枚を使う: 針は「相手の札」へ、"
        "赤の処刑人の効果は使わない。"
    )
    assert ja[6] == "赤のアリスが青のチェシャ猫に勝ち。赤は山4から処刑人を購入(タルト0枚)。"
    assert ja[7] == "赤の王様が青の兵隊に勝ち。赤の王様: フラミンゴを取る。"
    assert ja[2] == "修正: フラミンゴを赤へ、針をフラミンゴへ。"
    assert ja[10] == (
        "青のハートのジャックが赤のウサギに勝ち。青のハートのジャック: タルト3枚をもらう(うち3枚は赤から)。"
        "青はウサギを1枚加えてシャッフル。"
    )
    # no English, and no lower-case player in either language
    assert not any(w in line for line in ja for w in ("Blue", "Pink", "blue", "pink"))
    assert not any(w in line for line in EN for w in (" blue", " pink", "(s)", " a e", " a a"))


BENCH = Path(__file__).resolve().parents[1] / "bench" / "random-s1.jsonl"
WHOLE = r"""
from teatally import words
from teatally.rules import t42
from teatally.ui.t42 import history
g = t42.Game(LINES[0])
for a in LINES[1:]:
    g.apply(a)
g.undo()
g.redo()
for lang in ('en', 'ja'):
    words.use(lang)
    for i in range(len(g.actions)):
        print(history.describe(g.state_at(i), g.actions[i]))
words.use('en')
# state_at leaves the game as it was, and is the state replayed
s = t42.Game(LINES[0])
same = [t42.to_json(s.state) == t42.to_json(g.state_at(0))]
for i in range(1, len(LINES)):
    s.apply(LINES[i])
    same.append(t42.to_json(s.state) == t42.to_json(g.state_at(i)))
print(all(same), len(same), g.undo() is not None, t42.to_json(g.state) == t42.to_json(g.state_at(len(g.actions))))
"""


def test_every_line_of_a_whole_game_in_sentences(dual):
    """A whole game (bench/random-s1: 45 rounds, the watch used, to the
    last rabbit): every line in sentences on both interpreters, alike, each
    round's from the state before it (Game.state_at, which replays from a
    snapshot and leaves the game as it was); the last says the game ended
    and why, after the reshuffle that ended it; a reshuffle adds "a
    rabbit", never "rabbit(s)"."""
    lines = [json.loads(x) for x in BENCH.read_text().splitlines()]
    out = dual("LINES = %s\n" % json.dumps(lines).replace("true", "True") + WHOLE).splitlines()
    n = len(lines) - 1
    en, ja, last = out[:n], out[n : 2 * n], out[-1]
    assert last == "True %d True True" % (n + 1)
    assert en[-1].endswith("Blue reshuffled: no rabbit left. No rabbit left: the game ends.")
    assert ja[-1].endswith("青はシャッフル(ウサギなし)。ウサギがない: ゲーム終了。")
    assert sum(line.count("shuffled a rabbit in.") for line in en) == 7  # all 7 rabbits, one a reshuffle
    for line, a in zip(en, lines[1:], strict=True):
        assert "{" not in line and "(s)" not in line
        winner = "Blue" if line.startswith("Blue") else "Pink"
        if "effect" in a:
            assert "%s's %s: " % (winner, a[winner.lower()]) in line
        if a.get("hourglasses"):
            assert "%s spent %d hourglass" % (winner, a["hourglasses"]) in line


RARE = r"""
from teatally import words
from teatally.rules import t42
from teatally.ui.t42 import history
for lines in GAMES:
    g = t42.Game(lines[0])
    for a in lines[1:-1]:
        g.apply(a)
    print(history.describe(g.state, lines[-1]))
"""


def test_history_says_when_there_was_nothing_to_copy_or_destroy(dual):
    """The rare steps said too: the watch on copy after the guards made the
    other player reshuffle at once (T42-SHUF-3: no top card to copy), and
    on destroy with nothing in the discard pile that can be destroyed."""
    games = [gen.random_game(96, decline_rate=0.2)[:28], gen.random_game(296, decline_rate=0.2)[:49]]
    out = dual("GAMES = %r\n" % games + RARE).splitlines()
    assert out[0].endswith(
        "Blue spent 2 hourglasses: the hand on copy; nothing to copy. Pink shuffled a rabbit in."
    ), out[0]
    assert out[1].endswith("Blue spent 1 hourglass: the hand on destroy; nothing to destroy."), out[1]
