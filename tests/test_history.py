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
