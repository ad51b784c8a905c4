"""Canonical JSON (teatally.jsonc): the same bytes from CPython's json and from
MicroPython's (through sorted OrderedDicts), in both layouts.

The escapes are where the two writers differ (CPython writes \\b and \\f
where MicroPython writes \\u0008 and \\u000c), so the cases below carry every
control character, quotes, backslashes next to letters b and f, and text
beyond ASCII, which stays UTF-8."""

import json

from teatally import jsonc

SCRIPT = r"""
from teatally import jsonc
CASES = [
    {},
    [],
    {'pink': 'queen', 'blue': 'cat', 'buy': 4, 'hourglasses': 0},
    {'blue': 'executioner', 'effect': {'stars': 2, 'card': 'cat'}, 'pink': 'guards',
     'watch': {'cards': ['knave', 'caterpillar'], 'stars': 4}, 'hourglasses': 1},
    {'b': [1, -2, 12345678901, True, False, None, (3, 'x')], 'a': {'z': {}, 'y': []}},
    {'ctl': ''.join([chr(i) for i in range(32)]) + '\x7f', 'q': 'say "hi" \\ there'},
    {'tricky': '\\b\\f\\\\b\\\\\\f end', 'uni': 'Zo\u00eb caf\u00e9 \u2603 \U0001f375'},
    {10: 'ten', 9: 'nine'},
    ['\b', '\f', '\\', '"', '/', '\u0000'],
    {'game': 'tea-for-2', 'objectives': {'4': 'tarts', '8': 'most:alice'}, 'flamingo': 'blue'},
    {'f': 1.5, 'g': -0.25},
]
for c in CASES:
    print(jsonc.dumps(c))
    print(jsonc.dumps(c, True))
# subclasses and nesting: an OrderedDict in unsorted order, bools and a float
# in a list, an empty tuple, dicts in lists in tuples
from collections import OrderedDict
od = OrderedDict()
od['z'] = 1
od['a'] = [True, None, 2.5]
print(jsonc.dumps({'b': od, 'a': (), 'c': ({}, [[]], {'y': {}, 'x': [{'q': 0, 'p': -7}]}, 10, 9)}, True))
for bad in (float('nan'), float('inf'), [float('-inf')]):
    try:
        jsonc.dumps(bad)
        print('written', bad)
    except ValueError:
        print('refused')
"""


def test_same_bytes_on_both_interpreters_and_valid_json(dual):
    out = dual(SCRIPT).splitlines()
    assert out[-3:] == ["refused"] * 3
    assert out[-4] == '{"a":[],"b":{"a":[true,null,2.5],"z":1},"c":[{},[[]],{"x":[{"p":-7,"q":0}],"y":{}},10,9]}'
    lines = out[:-4]
    assert len(lines) == 22
    for wide, compact in zip(lines[0::2], lines[1::2], strict=True):
        assert json.loads(wide) == json.loads(compact)
        # compact: no space outside strings; wide: ", " and ": " between items
        assert len(compact) < len(wide) or wide in ("{}", "[]")
    assert lines[7] == (
        '{"blue":"executioner","effect":{"card":"cat","stars":2},"hourglasses":1,"pink":"guards",'
        '"watch":{"cards":["knave","caterpillar"],"stars":4}}'
    )
    assert lines[6] == (
        '{"blue": "executioner", "effect": {"card": "cat", "stars": 2}, "hourglasses": 1, "pink": "guards", '
        '"watch": {"cards": ["knave", "caterpillar"], "stars": 4}}'
    )
    # control characters: \n \r \t by name, the others (\b and \f too) as \u00XX
    assert "\\u0008\\t\\n\\u000b\\u000c\\r\\u000e" in lines[10]
    assert lines[17] == '["\\u0008","\\u000c","\\\\","\\"","/","\\u0000"]'
    assert lines[15] == '{"9":"nine","10":"ten"}'  # int keys sort as numbers, then become text
    assert "Zoë café ☃ 🍵" in lines[12]


def test_host_matches_the_json_module_up_to_escapes():
    """On CPython dumps is json.dumps with sorted keys, its own separators and
    UTF-8 kept; only \\b and \\f are spelled out."""
    obj = {"z": ["\bb\\b\\\\b", "\f"], "a": {"é": 1}}
    text = jsonc.dumps(obj, True)
    assert json.loads(text) == obj
    assert text == '{"a":{"é":1},"z":["\\u0008b\\\\b\\\\\\\\b","\\u000c"]}'
