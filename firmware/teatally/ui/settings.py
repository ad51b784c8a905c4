# The settings screen (opened from the home menu; imported by that key
# press). Every change is applied at once and saved (settings.json) after
# its screen (app.later).

from teatally import words
from teatally.ui.core import Menu, Message, name_lines, wrap

TIMEOUTS = (30, 60, 120, 300, 600, 0)  # seconds of no key before the screen goes off; 0 = never

# The boards/ folder: the hardware layer reads the choice from
# board.BOARD_FILE (/board.txt) on the next reset (pins and the display
# driver are set up once).
BOARDS = ("pico_ssd1306", "pico_sh1106", "waveshare_pico_oled_1_3")
BOARD_LABELS = ("SSD1306", "SH1106", "Waveshare")
BOARD_KEYS = (4, 4, 2)  # each board's keys (its board file's LAYOUT)
CONTRAST_LEVELS = (16, 64, 128, 200, 255)


def _timeout_label(t):
    if t == 0:
        return words.t("set.never")
    if t < 60:
        return words.f("set.seconds", t)
    return words.f("set.minutes", t // 60)


def _lang_label(lang):
    # the language setting's row, in its own language (ui.lang)
    return "言語: 日本語" if lang == "ja" else "Lang: English"


def _board_label(name):
    for i in range(len(BOARDS)):
        if BOARDS[i] == name:
            return BOARD_LABELS[i]
    return name


class Settings(Menu):
    """Every change is saved at once (settings.json) and applied."""

    def __init__(self, app):
        Menu.__init__(self, words.t("home.settings"), [], self._pick)
        self.refresh(app)

    def refresh(self, app):
        s = app.settings
        self.title = words.t("home.settings")  # (the language may have changed)
        self.items = [
            (words.f("set.contrast.item", s["contrast"]), "contrast"),
            (words.f("set.off.item", _timeout_label(s["timeout_s"])), "timeout"),
            (words.f("set.flip.item", words.t("set.on" if s["flip"] else "set.no")), "flip"),
            (words.f("set.board.item", _board_label(_board(app))), "board"),
            (_lang_label(s["lang"]), "lang"),
        ]

    def shown(self, ui):
        self.refresh(ui.app)

    def _pick(self, ui, what):
        if what == "contrast":
            _contrast_menu(ui)
        elif what == "timeout":
            _timeout_menu(ui)
        elif what == "flip":
            ui.app.settings["flip"] = not ui.app.settings["flip"]
            ui.app.save_settings()
            self.refresh(ui.app)
        elif what == "board":
            _board_menu(ui)
        elif what == "lang":
            from teatally.ui import lang

            lang.language_menu(ui, _after_language)


def _after_language(ui):
    # the screens below hold their words: made again in the new language
    # (the language menu is only reached from home -> Settings)
    ui.app.home()
    ui.push(ui.open("settings").Settings(ui.app))
    ui.top().sel = len(ui.top().items) - 1  # back on the language row


def _contrast_menu(ui):
    items = [("%d" % v, v) for v in CONTRAST_LEVELS]
    sel = _index(CONTRAST_LEVELS, ui.app.settings["contrast"])
    ui.push(Menu(words.t("set.contrast"), items, _set_contrast, sel=sel))


def _timeout_menu(ui):
    items = [(_timeout_label(t), t) for t in TIMEOUTS]
    sel = _index(TIMEOUTS, ui.app.settings["timeout_s"])
    ui.push(Menu(words.t("set.off"), items, _set_timeout, sel=sel))


def _board_menu(ui):
    items = [(BOARD_LABELS[i], BOARDS[i]) for i in range(len(BOARDS))]
    m = Menu(words.t("set.board"), items, _set_board, hint=_board_hint)
    m.sel = _index(BOARDS, _board(ui.app))
    ui.push(m)


def _board_hint(v):
    return words.f("set.board.hint", BOARD_KEYS[_index(BOARDS, v)])


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
    ui.replace(Message(words.t("set.board"), name_lines(name) + [""] + wrap(words.t("set.board.reset"))))


def write_board(app, name):
    """Write the board choice where the hardware layer reads it at boot
    (atomic: a power cut leaves the old or the new name), after the key's
    screen (app.later)."""
    from teatally.hw.boards import BOARD_FILE
    from teatally.journal import write_file

    app.later(write_file, app.hw.flash_root + BOARD_FILE, name + "\n")
