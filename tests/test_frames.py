"""The code a key press runs keeps its frames off the heap.

MicroPython without pystack (the Pico's build) allocates a function's frame
on the heap at every call once it needs more than 11 words, and a generator
always lives there; on the device's fragmented heap each such call costs
several times the call itself (teatally_host.mpyinfo explains the rule,
`make bench` measures the presses). Functions listed in COLD run outside key
presses (boot, resume, setup, the end of a game, error paths, host-only code)
and may keep a big frame; any other function with a heap frame fails here.
"""

import pytest

from teatally_host import cmd_flash, mpyinfo

# Per module: functions that may allocate their frame on the heap, and why.
COLD = {
    # errors, boot, the loop (the idle work keeps small frames: it can need
    # a collection when the heap is nearly full, see App.idle_work)
    "app": {
        "App.crash",
        "App.load_settings",
        "main",
    },
    # at import; big is on presses (one call per big number drawn): its six
    # arguments leave no room in 11 words, and a split version was no faster
    "gfx": {"<listcomp>", "big"},
    # loading, scanning and the undo's copy (undo has its own budget)
    "journal": {"Journal._walk", "_copying", "_line_ends", "parse_record_lines"},
    # CPython's writer (the host tools)
    "jsonc": {"_host"},
    # the key layout, made once at boot
    "buttons": {"Keys.__init__", "Keys.__init__.<listcomp>"},
    # the board files, read and checked at boot
    "board": {"board_problems", "board_problems.<genexpr>", "load_board", "read_board_name"},
    # t42: packing the game between presses (idle work), undo (it has its
    # own budget) and resume, a new game's setup (made ahead while the
    # summary is read), an adjustment line (game menu), the final scoring
    # and the host tools
    "t42": {
        "Actions.append",
        "_enc",
        "_pack",
        "_unpack",
        "Game._rebuild",
        "check_setup",
        "new_state",
        "_adjust",
        "score",
        "to_json",
        "State.empty_piles.<genexpr>",
    },
    # the warnings for an objective face picked twice at setup (T42-OBJ-2):
    # its screen and the summary's line, presses once a game at most
    "ui_t42_new": {"NewGame._repeated", "_repeat_lines", "NewGame._summary_lines"},
    # a guided round's answer played ahead between presses (idle work:
    # Round.prepare): the copy's question found, its probe
    "ui_t42_ahead": {"_twin", "_probe"},
    # the buy labels, made at import
    "ui_t42_round": {"<listcomp>"},
    # the history and adjustment screens, opened from the game menu (not a
    # round's presses; see the bench notes)
    "ui_t42_more": {"Adjust._pick", "Adjust.refresh", "_adjust", "_adjust_hint", "describe", "_effect", "_params"},
    # a character gfx.big has no rectangles for, scaled once then cached
    "gfx_more": {"_make_glyph"},
    # board setup at boot
    "hw_pico": {"PicoHardware.__init__", "_candidates", "make_display", "setup"},
    "hw_virtual": {"VirtualHardware.__init__.<genexpr>"},
    # the host simulator's terminal prompt (never on the Pico)
    "hw_sim": {"SimHardware._ask"},
    # reading a record (host tools, archive)
    "record": {"load"},
    # a pad's end: checked and scored once, when the last entry is confirmed
    "teatime": {"fields.<listcomp>", "validate_counts", "totals_problem"},
    "witches": {"<genexpr>", "score", "validate", "winners"},
    "ui_pads": {
        "<module>",
        "Pad.players",
        "finish",
        "ranking",
        "teatime_result",
        "teatime_result.<listcomp>",
        "witches_result",
        "load",  # resuming a saved pad
        # a pad's setup, players and result screens: once each
        "setup_lines",
        "Rounds._ask_alice.<listcomp>",
        "_names.<listcomp>",
        "witches_result.<listcomp>",
        "_from_obj",
    },
    # opening the archive reads the finished games from flash
    "ui_archive": {"archive_label", "archive_lines", "final_of", "show_archive"},
    # the home menu's pick: it opens another part of the device, once per
    # visit (in a smaller frame the forgotten home modules lingered longer
    # on the C stack: tests/test_idle_work.py)
    "ui_misc": {"_home_pick"},
    # a board change: written to flash, takes effect after a reset; the
    # settings menu's labels, made when it opens or a setting changes
    "ui_settings": {"_set_board", "Settings.refresh"},
    # a language switch (Settings): the screens' modules unloaded, once
    "ui_lang": {"_unload_screens"},
    # the score table: made once when "Score now" or the final scoring opens
    "ui_t42_end": {"final_screen", "score_lines"},

}


def heap_frames(path):
    return {f.qualname for f in mpyinfo.functions(path) if f.heap_frame}


@pytest.mark.parametrize("path", sorted((cmd_flash.FIRMWARE / "teatally").glob("*.py")), ids=lambda p: p.stem)
def test_press_code_has_no_heap_frames(path):
    allowed = COLD.get(path.stem, set())
    hot = sorted(heap_frames(path) - allowed)
    assert not hot, "frames on the heap at every call (split them or list them in COLD with a reason): %s" % hot


def test_cold_lists_name_real_heap_frames():
    # an entry that no longer needs its place is dropped, so COLD stays true
    for stem, names in COLD.items():
        path = cmd_flash.FIRMWARE / "teatally" / (stem + ".py")
        stale = sorted(names - heap_frames(path))
        assert not stale, "%s: no longer heap frames, drop from COLD: %s" % (stem, stale)


def test_frame_rule_read_from_the_mpy(tmp_path):
    src = tmp_path / "probe.py"
    src.write_text(
        "def small(a):\n"
        "    return a\n"
        "def big(a, b, c, d, e, f, g, h, i, j, k, m):\n"
        "    return a\n"
        "def guarded(a, b, c, d, e, f, g):\n"
        "    try:\n"
        "        return a\n"
        "    except ValueError:\n"
        "        return b\n"
        "def gen():\n"
        "    yield 1\n"
        "class Board:\n"
        "    def draw(self, fb):\n"
        "        return [x for x in fb]\n"
    )
    f = {x.qualname: x for x in mpyinfo.functions(src)}
    assert not f["small"].heap_frame and f["small"].n_state == 2  # the argument and one stack slot
    assert f["big"].heap_frame and f["big"].n_state == 13
    assert f["guarded"].n_exc == 1 and f["guarded"].heap_frame
    assert f["gen"].generator and f["gen"].heap_frame
    assert "Board.draw" in f and "Board.draw.<listcomp>" in f  # draw is a static qstr: named all the same
