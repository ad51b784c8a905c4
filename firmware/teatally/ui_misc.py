# The home menu and the small screens around it: settings, about, the
# archive of finished Tea for 2 games. The Tea for 2 screens (ui_t42) and the
# score pads (ui_pads) are imported only when picked: a cold boot into the
# home menu keeps the heap small.

import json

from teatally.app import TIMEOUTS, about_lines
from teatally.ui import Menu, Message

# The boards/ folder: the hardware layer reads the choice from
# hw_base.BOARD_FILE (/board.txt) on the next reset (pins and the display
# driver are set up once).
BOARDS = ("pico_ssd1306", "pico_sh1106", "waveshare_pico_oled_1_3")
BOARD_LABELS = ("SSD1306", "SH1106", "Waveshare")
# A score pad in progress (ui_pads saves it after every entry).
PAD_FILE = "pad.json"
CONTRAST_LEVELS = (16, 64, 128, 200, 255)
# The archive list reads only the tail of each file, where '# final' sits.
_TAIL = 1024


def _exists(path):
    import os

    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _playing(app):
    return app.game is not None and not app.game.state.over


def home(ui):
    """Reset the stack to the home menu."""
    app = ui.app
    items = []
    if _playing(app):
        items.append(("Resume game", "resume"))
    elif app.game is not None:
        # over but not archived yet: its final screen offers the archive
        items.append(("Last game", "resume"))
    if _exists(app.hw.flash_root + "/" + PAD_FILE):
        items.append(("Resume pad", "pad"))
    items.append(("New Tea for 2", "new"))
    items.append(("Tea Time", "teatime"))
    items.append(("Tea Witches", "witches"))
    items.append(("Archive", "archive"))
    items.append(("Settings", "settings"))
    items.append(("About", "about"))
    ui.reset(Menu("Tea Tally", items, _home_pick, back=_stay))


def _stay(ui):
    # BACK on the home menu has nowhere to go
    pass


def _home_pick(ui, what):
    app = ui.app
    if what == "resume":
        from teatally import ui_t42

        ui_t42.show_game(ui, None)
    elif what == "new":
        if app.game is not None:
            ui.push(_replace_menu(app))
        else:
            _new_t42(ui)
    elif what == "pad":
        from teatally import ui_pads

        ui_pads.resume(ui)
    elif what == "teatime":
        from teatally import ui_pads

        ui_pads.start_teatime(ui)
    elif what == "witches":
        from teatally import ui_pads

        ui_pads.start_witches(ui)
    elif what == "archive":
        show_archive(ui)
    elif what == "settings":
        ui.push(Settings(app))
    elif what == "about":
        ui.push(Message("About", about_lines(app)))


def _new_t42(ui):
    from teatally import ui_t42

    ui_t42.new_game(ui)


def _replace_menu(app):
    """A game is on the journal: starting a new one replaces it. Archiving
    first keeps it (scored as if it ended now, for an unfinished one)."""
    if _playing(app):
        title = "Game unfinished"
        hint = "round %d so far" % app.game.state.round
    else:
        title = "Not archived"
        hint = "last game is over"
    items = [("Archive, new", "archive"), ("Replace it", "replace"), ("Cancel", "cancel")]
    return Menu(title, items, _replace_pick, hint=lambda v: hint)


def _replace_pick(ui, what):
    if what == "cancel":
        ui.pop()
        return
    if what == "archive":
        ui.app.archive()
        home(ui)  # rebuilt: no game to resume any more
    else:
        # "replace": the new game's setup overwrites the journal when it
        # starts; backing out of the setup keeps the old game
        ui.pop()
    _new_t42(ui)


# -- settings ------------------------------------------------------------------
def _timeout_label(t):
    if t == 0:
        return "never"
    if t < 60:
        return "%d s" % t
    return "%d min" % (t // 60)


def _board_label(name):
    for i in range(len(BOARDS)):
        if BOARDS[i] == name:
            return BOARD_LABELS[i]
    return name


class Settings(Menu):
    """Every change is saved at once (settings.json) and applied."""

    def __init__(self, app):
        Menu.__init__(self, "Settings", [], self._pick)
        self.refresh(app)

    def refresh(self, app):
        s = app.settings
        self.items = [
            ("Contrast %d" % s["contrast"], "contrast"),
            ("Off: " + _timeout_label(s["timeout_s"]), "timeout"),
            ("Flip: " + ("on" if s["flip"] else "off"), "flip"),
            ("Board " + _board_label(_board(app)), "board"),
        ]

    def shown(self, ui):
        self.refresh(ui.app)

    def _pick(self, ui, what):
        app = ui.app
        s = app.settings
        if what == "contrast":
            items = [("%d" % v, v) for v in CONTRAST_LEVELS]
            ui.push(Menu("Contrast", items, _set_contrast, sel=_index(CONTRAST_LEVELS, s["contrast"])))
        elif what == "timeout":
            items = [(_timeout_label(t), t) for t in TIMEOUTS]
            ui.push(Menu("Screen off", items, _set_timeout, sel=_index(TIMEOUTS, s["timeout_s"])))
        elif what == "flip":
            s["flip"] = not s["flip"]
            app.save_settings()
            self.refresh(app)
        elif what == "board":
            boards = [(BOARD_LABELS[i], BOARDS[i]) for i in range(len(BOARDS))]
            ui.push(Menu("Board", boards, _set_board, sel=_index(BOARDS, _board(app)), hint=lambda v: v[:16]))


def _board(app):
    # no choice made on the device yet: the board it booted with
    return app.settings["board"] or app.hw.board_name


def _index(seq, v):
    for i in range(len(seq)):
        if seq[i] == v:
            return i
    return 0


def _set_contrast(ui, v):
    ui.app.settings["contrast"] = v
    ui.app.save_settings()
    ui.pop()


def _set_timeout(ui, t):
    ui.app.settings["timeout_s"] = t
    ui.app.save_settings()
    ui.pop()


def _set_board(ui, name):
    app = ui.app
    app.settings["board"] = name
    app.save_settings()
    write_board(app, name)
    ui.replace(Message("Board", [name[:16], name[16:], "", "Takes effect", "after a reset."]))


def write_board(app, name):
    """Write the board choice where the hardware layer reads it at boot
    (atomic: a power cut leaves the old or the new name)."""
    import os

    from teatally.hw_base import BOARD_FILE

    path = app.hw.flash_root + BOARD_FILE
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(name + "\n")
    os.rename(tmp, path)


# -- the archive ---------------------------------------------------------------
def final_of(path):
    """The '# final {...}' summary an archived game ends with, or None."""
    import os

    try:
        size = os.stat(path)[6]
        with open(path, "rb") as f:
            if size > _TAIL:
                f.seek(size - _TAIL)
            tail = f.read()
    except OSError:
        return None
    at = tail.rfind(b"# final ")
    if at < 0:
        return None
    end = tail.find(b"\n", at)
    line = tail[at + 8 :] if end < 0 else tail[at + 8 : end]
    try:
        obj = json.loads(line)
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None


def _number(name):
    # "g0012.jsonl" -> "12"
    digits = name[1:-6]
    while len(digits) > 1 and digits[0] == "0":
        digits = digits[1:]
    return digits


def archive_label(name, final):
    """One menu line: game number, blue and pink totals, the winner starred."""
    num = "#" + _number(name)
    if final is None:
        return num + " no score"
    try:
        b = final["blue"]
        p = final["pink"]
        w = final["winner"]
        return "%s B%d%s P%d%s" % (num, b, "*" if w == "blue" else "", p, "*" if w == "pink" else "")
    except (KeyError, TypeError):
        return num + " no score"


def archive_lines(final):
    if final is None:
        return ["No final score", "(replay it on", "the host)"]
    lines = ["Blue %s  Pink %s" % (final.get("blue"), final.get("pink")), "Winner: %s" % final.get("winner")]
    objs = final.get("objectives")
    if isinstance(objs, dict):
        for v in sorted(objs):
            o = objs[v]
            if isinstance(o, dict):
                lines.append("%s: B+%s P+%s" % (v, o.get("blue"), o.get("pink")))
    return lines


def show_archive(ui):
    j = ui.app.journal
    names = j.list_archives()
    if not names:
        ui.push(Message("Archive", ["No games yet."]))
        return
    items = []
    # newest first: the game just played is the one people look for
    for i in range(len(names) - 1, -1, -1):
        name = names[i]
        items.append((archive_label(name, final_of(j.archive_path(name))), name))
    ui.push(Menu("Archive %d" % len(names), items, _archive_pick))


def _archive_pick(ui, name):
    final = final_of(ui.app.journal.archive_path(name))
    ui.push(Message("Game " + _number(name), archive_lines(final)))
