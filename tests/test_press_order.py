"""Every key press shows its screen before its flash work (issue 32): the
firmware's rule (app.App.press, then App.finish), for every kind of work:
a round's line, a new game's first line (the setup's last press), the
archive (the final scoring's OK, to the home menu), a setting, a score
pad's entry. While the work lasts the screen carries the "not yet saved"
mark. Both interpreters, identical output.

The scenario records, press by press, each show() and each file the
firmware opens for writing (teatally.journal's open, through which every
write of the firmware goes) and prints the writes that came before the
press's flash work began."""

from teatally_host import gen, keyscript

SCENARIO = r"""
from teatally import app as _app
from teatally import journal
from teatally.buttons import E_PRESS, K_DOWN, K_OK
from teatally.hw.virtual import VirtualHardware

LOG = []
_open = open


def traced_open(path, mode="r", *rest):
    if "w" in mode or "a" in mode:
        LOG.append("write " + path.split("/")[-1])
    return _open(path, mode, *rest)


journal.open = traced_open  # (journal's own global: every firmware write)
a = _app.App(VirtualHardware(FLASH))
show = a.fb.show


def traced_show(full=False):
    LOG.append("show marked" if a.marked else "show")
    show(full)


a.fb.show = traced_show
a.boot()
bad = []
writes = [0]
marked = [0]


def press(ev, what):
    del LOG[:]
    a.press(ev)
    before = [x for x in LOG if x.startswith("write")]
    shown = [x for x in LOG if x.startswith("show")]
    del LOG[:]
    a.finish()
    after = [x for x in LOG if x.startswith("write")]
    writes[0] += len(before) + len(after)
    if before:
        bad.append("%s: %s before its screen" % (what, ", ".join(before)))
    if after and not (shown and shown[-1] == "show marked"):
        bad.append("%s: its screen was not marked while it wrote" % what)
    if after:
        marked[0] += 1


EVENTS = %(events)r
for i, ev in enumerate(EVENTS):
    press(ev, "game press %d" % (i + 1))


def pick(value):
    m = a.ui.top()
    while m.items[m.sel][1] != value:
        press(E_PRESS | K_DOWN, "down to " + str(value))
    press(E_PRESS | K_OK, "ok on " + str(value))


pick("settings")
pick("contrast")
pick(16)  # a contrast level: saved
print("contrast", a.settings["contrast"])
a.home()
pick("teatime")
pick(3)  # a Tea Time pad for 3: saved
print("game", a.game, "archives", len(a.journal.list_archives()))
print("presses that wrote", marked[0], "writes", writes[0])
print("written before the screen:", bad or "none")
"""


def test_every_press_shows_its_screen_before_its_flash_work(dual):
    objs = gen.random_game(2)  # a whole game: its last press archives it
    events = [keyscript.event(t) for t, _ in keyscript.presses_for(objs)]
    out = dual(SCENARIO.replace("%(events)r", repr(events)))
    assert "written before the screen: none" in out, out
    assert "game None archives 1" in out  # the game played through to its archive
    assert "contrast 16" in out
    writes = int(out.split("writes ")[1].split()[0])
    assert writes >= 4 + 1 + 1 + 1  # the lines, the setup, the archive, the setting, the pad


MEND_AT_BOOT = r"""
from teatally import app as _app
from teatally import journal
from teatally.hw.virtual import VirtualHardware

LOG = []
_open = open


def traced_open(path, mode="r", *rest):
    if "w" in mode or "a" in mode:
        LOG.append("write " + path.split("/")[-1])
    return _open(path, mode, *rest)


journal.open = traced_open
a = _app.App(VirtualHardware(FLASH))
show = a.fb.show


def traced_show(full=False):
    LOG.append("show marked" if a.marked else "show")
    show(full)


a.fb.show = traced_show
a.boot()  # a glued line: the mend replays everything, nothing to enter
print("boot:", LOG)
del LOG[:]
a.step()  # the loop's first pass: the screen, then the mend's writes
print("first pass:", LOG)
print("screen:", a.ui.top().title, "| mend", a.mend)
"""


def test_a_mended_journal_is_written_after_its_screen(dual):
    """The mend's account shows first (marked "not yet saved"), then the
    journal as found is kept (games/d0001.jsonl) and the mended one written
    over it (issue 32: "a mended journal...")."""
    from test_recover import damage, forty_rounds, protected

    data = damage(protected(forty_rounds()), 7, "glue")
    out = dual(MEND_AT_BOOT, setup_flash=lambda p: (p / "game.jsonl").write_bytes(data)).splitlines()
    assert out[0] == "boot: []"
    first = out[1][len("first pass: "):]
    assert first.startswith("['show marked', 'write d0001.jsonl', 'write game.tmp'"), first
    assert first.endswith("'show']")  # the mark taken away once written
    assert out[2] == "screen: Journal | mend None"
