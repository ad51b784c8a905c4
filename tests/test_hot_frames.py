"""The few hottest functions the bench names keep their frames on the C stack.

MicroPython on the Pico allocates a function's frame on the heap, and frees
it, at every call when it needs more than 11 words (teatally_host.frames
says how they are counted); in a key press's fragmented heap that costs more
than the small call itself. The functions below run on the presses that
decide the bench's press-to-photon p95 (texts, question menus, the status
board after a round; issue 14's work made them fit). One more local in any of them
would silently cost the budget again: this test names it. A function renamed
or moved fails here too: update its entry.
"""

import functools

import pytest

from teatally_host import cmd_flash, frames, mpvm

# (module, function): the press it is on (the bench profile's press types)
HOT = {
    ("ui/font", "draw"): "every text drawn (one call a text, ui.text)",
    ("ui/font", "draw_ascii"): "every text drawn in the ASCII font",
    ("ui/font", "_fast"): "every text drawn on the grid (its fast path)",
    ("ui/core", "text"): "every text on every screen",
    ("ui/core", "_item"): "every menu item drawn: question menus",
    ("ui/core", "Menu._scrollbar"): "every menu drawn with more items than lines: question menus",
    ("ui/core", "Picker.draw"): "every step of a picker: hourglasses, stars",
    ("ui/core", "_value"): "a picker's big value, on every step",
    ("ui/gfx", "_blit"): "every icon and big digit drawn: board, pickers",
    ("ui/gfx", "_dark"): "every icon or big digit drawn dark",
    ("words", "_find"): "every word looked up for a text",
    ("journal", "_write_line"): "a round's commit: the status board after a round",
    ("journal", "_written"): "a round's commit: the status board after a round",
    ("ui/t42/round", "Round.question"): "every question menu of a round",
    ("ui/t42/round", "Round._ask_take"): "the take question (flamingo or tarts)",
    ("ui/t42/round", "Round._ask_copy"): "the copy question",
    ("ui/t42/round", "Round._ask_card"): "every card question: round start, reveals",
    ("ui/t42/round", "_card_rows"): "every card question's items",
    ("ui/t42/round", "notices"): "the status board after every round",
    ("ui/t42/round", "_reshuffled"): "the status board after a round: a reshuffle",
    ("ui/t42/round", "_said"): "the status board after a round: what is said on the table",
    ("ui/t42/round", "_ended"): "the status board after a round: the game's end",
}
# Not listed: Round._ask_pile (15 words, its listcomp 15) and
# Round._ask_stars (12) are over today, left on the heap when the question
# methods were split.


@functools.cache
def module_frames(module):
    return frames.frames(cmd_flash.PACKAGE / (module + ".py"))


@pytest.mark.parametrize("module, name", sorted(HOT), ids=lambda x: x)
def test_hot_function_frame_on_the_c_stack(module, name):
    found = module_frames(module)
    assert name in found, "%s.%s is on the HOT list but not in the module: renamed? update HOT" % (module, name)
    n_state, n_exc = found[name]
    w = frames.words(n_state, n_exc)
    assert w <= frames.ON_STACK_WORDS, (
        "%s.%s needs %d words (n_state %d, %d exception-stack entries): over 11, its frame goes on "
        "the heap at every call (%s)" % (module, name, w, n_state, n_exc, HOT[module, name])
    )


# A source whose frames are known: arguments count, a try adds 3 words.
PROBE = """\
import gc


def three(a, b, c):
    return gc.mem_alloc()


def twelve(a, b, c, d, e, f, g, h, i, j, k, m):
    return gc.mem_alloc()


def guarded(a, b):
    try:
        return gc.mem_alloc()
    except ValueError:
        return b


def guarded3(a, b, c):
    try:
        return gc.mem_alloc()
    except ValueError:
        return b


class Board:
    def draw(self, fb):
        return [x for x in fb]
"""


def test_the_reader_counts_known_frames(tmp_path):
    src = tmp_path / "probe.py"
    src.write_text(PROBE)
    f = frames.frames(src)
    assert f["three"] == (5, 0)  # 3 arguments, 2 of value stack: within
    assert f["twelve"] == (14, 0)  # over
    assert f["guarded"] == (8, 1) and frames.words(8, 1) == 11  # a try: 3 words more, just within
    assert f["guarded3"] == (9, 1) and frames.words(9, 1) == 12  # one argument more: over
    assert "Board.draw" in f and "Board.draw.<listcomp>" in f  # draw: a static qstr, named all the same
    assert list(f)[0] == "<module>"


def test_the_vm_puts_exactly_those_frames_on_the_heap(tmp_path):
    # the rule itself, on the MicroPython VM the tests run (1.27, no pystack
    # like the Pico): a call allocates iff its frame is over 11 words
    src = tmp_path / "probe.py"
    src.write_text(PROBE)
    calls = {
        "three": "(1, 2, 3)",
        "twelve": "(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)",
        "guarded": "(1, 2)",
        "guarded3": "(1, 2, 3)",
    }
    script = PROBE + "".join(
        "m = gc.mem_alloc()\nprint('%s', %s%s > m)\n" % (name, name, args) for name, args in calls.items()
    )
    out = mpvm.run(script).check().stdout.split("\n")
    f = frames.frames(src)
    want = ["%s %s" % (name, frames.words(*f[name]) > frames.ON_STACK_WORDS) for name in calls]
    assert out[: len(want)] == want


def test_an_unknown_mpy_version_is_refused():
    with pytest.raises(ValueError, match="knows version 6 only"):
        frames.read_mpy(b"M\x07\x00\x1f\x00\x00")
    with pytest.raises(ValueError, match="no .mpy header"):
        frames.read_mpy(b"def f(): pass\n")
