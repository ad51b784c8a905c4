"""The one function a budget needs within MicroPython's 11 frame words.

MicroPython on the Pico allocates a function's frame on the heap, and frees
it, at every call when it needs more than 11 words (teatally_host.frames
says how they are counted); in a key press's fragmented heap that costs more
than the small call itself. ui.core.text runs a dozen times a press: with
its frame on the heap the bench's computing p95 is ~0.8 ms more, which the
first-light budget cannot spare (issue 24 measured every other function
that used to be held here: none needed it). One more local in it would
silently cost the budget again: this test names it. A function renamed or
moved fails here too: update its entry.
"""

import functools

import pytest

from teatally_host import cmd_flash, frames, mpvm

# (module, function): the press it is on (the bench profile's press types)
HOT = {
    ("ui/core", "text"): "every text on every screen (first light: computing p95 +0.8 ms on the heap)",
    # a Japanese text's drawing: its frames on the heap cost the long60-s12
    # game's text drawing 661M fuel against 551M (first_light_p95_ms in Japanese)
    ("ui/ja_text", "text"): "every text in Japanese",
    ("ui/ja_text", "_scan"): "every text in Japanese",
    ("ui/ja_text", "_fast"): "every text in Japanese on a VLSB frame",
    ("ui/ja_text", "_lit"): "every text in Japanese on a VLSB frame",
    ("ui/ja_text", "_dark"): "every dark text in Japanese on a VLSB frame",
}


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
