"""The home menu and the about screen. What the menu opens lives
elsewhere: the Tea for 2 game (app.show_game), and, imported when opened
(ui.core.RARE), the new-game setup (ui.t42.setup), the score pads
(ui.pads), the archive list (ui.archive) and the settings (ui.settings)."""

from teatally import VERSION, words
from teatally.journal import PAD_FILE, file_exists
from teatally.ui.core import Menu, Message, name_lines


def _playing(app):
    return app.game is not None and not app.game.state.over


def home(ui):
    """Reset the stack to the home menu."""
    app = ui.app
    items = []
    if _playing(app):
        items.append((words.t("home.resume"), "resume"))
    elif app.game is not None:
        # over but not archived yet: its final screen offers the archive
        items.append((words.t("home.last"), "resume"))
    if file_exists(app.path(PAD_FILE)):
        items.append((words.t("home.pad"), "pad"))
    items.append((words.t("home.new"), "new"))
    items.append((words.t("home.teatime"), "teatime"))
    items.append((words.t("home.witches"), "witches"))
    items.append((words.t("home.archive"), "archive"))
    items.append((words.t("home.settings"), "settings"))
    items.append((words.t("home.about"), "about"))
    m = Menu(words.t("home.title"), items, _home_pick, back=_stay)
    m.back_does = None  # (a hold shows nothing: BACK has nowhere to go)
    if app.game is None:
        # no game to resume: a new one is likely next, its setup imported
        # while the players look (ui.core.UI.ahead); with a game loaded the
        # heap keeps its room for it
        m.ahead = "t42.setup"
    ui.reset(m)


def about_lines(app):
    """The about screen: version, board, free heap (as the collection
    between key presses left it), archived games."""
    lines = [words.f("about.version", VERSION)]
    lines.extend(name_lines(words.f("about.board", app.hw.board_name)))
    lines.append(words.f("about.free", app.hw.mem_free()))
    lines.append(words.f("about.games", len(app.journal.list_archives())))
    return lines


def _stay(ui):
    # BACK on the home menu has nowhere to go
    pass


def _home_pick(ui, what):
    app = ui.app
    if what == "resume":
        app.show_game()
    elif what == "new":
        if app.game is not None:
            ui.push(_replace_menu(app))
        else:
            _new_t42(ui)
    elif what == "pad":
        ui.open("pads").resume(ui)
    elif what == "teatime":
        ui.open("pads").start_teatime(ui)
    elif what == "witches":
        ui.open("pads").start_witches(ui)
    elif what == "archive":
        ui.open("archive").show_archive(ui)
    elif what == "settings":
        ui.push(ui.open("settings").Settings(app))
    elif what == "about":
        ui.push(Message(words.t("home.about"), about_lines(app)))


def _new_t42(ui):
    ui.open("t42.setup").new_game(ui)


def _replace_menu(app):
    """A game is on the journal: starting a new one replaces it. Archiving
    first keeps it (scored as if it ended now, for an unfinished one)."""
    if _playing(app):
        title = words.t("replace.unfinished")
        hint = words.f("replace.rounds", app.game.state.round)
    else:
        title = words.t("replace.unarchived")
        hint = words.t("replace.over")
    items = [
        (words.t("replace.archive"), "archive"),
        (words.t("replace.replace"), "replace"),
        (words.t("replace.cancel"), "cancel"),
    ]
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
