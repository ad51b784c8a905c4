"""The game menu's History screen (ui_t42_more.history) and what it reads of
a game's lines (T42-INPUT-2)."""

import json

TAGS = r"""
from teatally import t42
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
