"""Issue 30: a screen says what will happen and nothing that will not,
naming the card; the winner first; nothing cut. Each scenario runs on both
interpreters (``dual``): the same words, the same pixels.

The text-fit walks (tests/test_text_fit.py) read what these checks note:
ui.core.OVERFLOWS (a text past an edge, dark text at the left edge, a line
of a screen that cannot scroll left below the bottom), teatally.words.CUT
(a label that lost the start of its step), and the frame itself (the title
bar merging with a bar right below it; numbers on a line of their own)."""

from test_ui_t42 import PRELUDE

SAY = r"""
SETUP = {"game": "tea-for-2", "flamingo": "blue", "watch": "reveal",
         "objectives": {"4": "tarts", "5": "most:king", "6": "deck", "7": "destroyed", "8": "hourglasses"}}
start(SETUP)
# R1: cat and cat, the holder (blue) wins: the cat's rows say what copy
# would copy (pink's cat, on top of pink's discard pile)
board('cat')
pick('cat')
t = top()
for i in range(len(t.items)):
    if t.items[i][1] == ('space', 'copy'):
        print('cat copy hint', t.hint(t.items[i][1]))
pick('none')
# R2: blue's king beats pink's executioner: blue holds the flamingo, so the
# king's take of it is not offered
board('king')
pick('executioner')
show('king')
pick('none')
# R3: blue's executioner beats pink's guards: the effect names pink, the
# next question asks for pink's top draw card, the stars name the card
board('executioner')
pick('guards')
show('exe')
print('exe hint', top().hint('effect'))
pick('effect')
show('exe card')
pick('dormouse')
show('exe stars')
pick(2)
# R4: blue's caterpillar beats pink's knave: 2 hourglasses; 0 says the hand
# does not move and nothing happens, 2 lands on copy and names the knave
board('caterpillar')
pick('knave')
pick('effect')
show('hg0')
keys('u')
show('hg1')
keys('u')
show('hg2')
"""


def test_screens_say_what_will_happen_and_name_the_card(dual):
    out = dual(PRELUDE + SAY)
    lines = {}
    for line in out.splitlines():
        for tag in ("cat copy hint", "king", "exe hint", "exe card", "exe stars", "exe", "hg0", "hg1", "hg2"):
            if line.startswith(tag + " "):
                lines.setdefault(tag, line)
    assert lines["cat copy hint"] == "cat copy hint copy the cat"
    # the holder's king: only the tarts
    assert "King: 2 tarts" in lines["king"] and "flamingo" not in lines["king"].split("[")[1]
    assert lines["exe hint"] == "exe hint Pink loses top card"
    assert lines["exe card"].startswith("exe card Menu|Blue executioner")
    assert "hint=Pink's top draw card?" in lines["exe card"]
    assert lines["exe stars"].startswith("exe stars Picker|Stars on dormouse")
    assert lines["hg0"].endswith("value=0 0..2 / Hand does not move: / no effect")
    assert lines["hg1"].endswith("value=1 0..2 / moves to flamingo / take the flamingo")
    assert lines["hg2"].endswith("value=2 0..2 / moves to copy / copy the knave")


CHECKS = r"""
from teatally import words
from teatally.rules import t42
from teatally.ui import core as ui
from teatally.ui.t42 import board, end
from teatally.hw.virtual import VirtualDisplay
fb = VirtualDisplay()
del ui.OVERFLOWS[:]
del words.CUT[:]

# a label too long for its room keeps its last step whole, never a ">" first
print('label', words.label('blue cat > copy cat > copy rabbit', 14), len(words.CUT))
words.label('watch copy executioner', 10)
print('cut noted', len(words.CUT))
del words.CUT[:]

# dark text on a bar at the left edge merges with the glass's border
ui.text(fb, 'Title', 0, 0, 0)
print('dark at edge', len(ui.OVERFLOWS))
del ui.OVERFLOWS[:]
ui.header(fb, 'Blue wins by 3')
print('header', len(ui.OVERFLOWS))

# a picker's lines left below the bottom: cut
p = ui.Picker('Stars on alice', 0, 9, 0, None, lambda v: ['one', 'two', 'three', 'four'])
ui.clear(fb)
class U:
    pass
u = U()
from teatally.ui import gfx
u.gfx = gfx
p.draw(u, fb)
print('picker cut', len(ui.OVERFLOWS), ui.OVERFLOWS[-1][0] if ui.OVERFLOWS else '')
del ui.OVERFLOWS[:]

# a selected first row under the title: a dark line parts the two bars
m = ui.Menu('Game', [('Resume', 1), ('History', 2)], None)
ui.clear(fb)
m.draw(u, fb)
print('row 7', sum([fb.pixel(x, 7) for x in range(128)]), 'row 8', sum([fb.pixel(x, 8) for x in range(128)]) > 100)

# a board name in lines that fit, every character kept
print('name', ui.name_lines('board waveshare_pico_oled_1_3'))

# the score table: a long label keeps its numbers with its last words
OBJ = {"4": "most:caterpillar", "5": "most:executioner", "6": "deck", "7": "destroyed", "8": "hourglasses"}
g = t42.Game({"game": "tea-for-2", "flamingo": "blue", "watch": "stars", "objectives": OBJ})
for line in end.score_lines(g.state):
    print('score |%s|' % line)

# teacups with the stars in all: 54 stars = track 4, 2 teacups
g.apply({"adjust": {"blue": {"stars": 54}}})
print('cups', board.board_rows(g.state)[2])
"""


def test_nothing_cut_checks_and_fixes(dual):
    out = dual(CHECKS)
    assert "label Copy rabbit 0" in out
    assert "cut noted 1" in out
    assert "dark at edge 1" in out and "header 0" in out
    assert "picker cut 1 four" in out or "picker cut 1 b'four'" in out
    assert "row 7 0 row 8 True" in out
    assert "name ['board waveshare_pico_', 'oled_1_3']" in out
    rows = [line[7:-1] for line in out.splitlines() if line.startswith("score |")]
    for r in rows:
        assert r.strip().strip("0123456789- ") != "" or not r.startswith(" "), r  # no numbers alone
    assert "4 most" in rows and "caterpillar    -    -" in rows
    assert "8 hourglasses  -    -" in rows
    assert "cups [26, b'2', b'=54']" in out
