# The home menu. What it opens lives in other modules: the Tea for 2 game
# (ui_t42, ui_t42_new, ui_t42_end: loaded between key presses while the home
# menu shows, app.NEXT and the menu's `needs`), and, imported by the key
# press that opens them (rare screens, that press pays for the import), the
# score pads (ui_pads), the settings (ui_settings) and the archive list
# (ui_archive). A small module: it is loaded whenever the home menu can come
# next (the game menu's Home, the final scoring's OK).

from teatally import words
from teatally import words_more  # noqa: F401  (their words: loaded with this module, app.App.wanted)
from teatally.app import about_lines
from teatally.journal import file_exists
from teatally.ui import Menu, Message

# A score pad in progress (ui_pads saves it after every entry).
PAD_FILE = "pad.json"


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
    if file_exists(app.hw.flash_root + "/" + PAD_FILE):
        items.append((words.t("home.pad"), "pad"))
    items.append((words.t("home.new"), "new"))
    items.append((words.t("home.teatime"), "teatime"))
    items.append((words.t("home.witches"), "witches"))
    items.append((words.t("home.archive"), "archive"))
    items.append((words.t("home.settings"), "settings"))
    items.append((words.t("home.about"), "about"))
    m = Menu(words.t("home.title"), items, _home_pick, back=_stay)
    m.needs = HOME_NEEDS  # type: ignore[attr-defined]  # read by app.App.wanted, any screen may have it
    ui.reset(m)


# "New Tea for 2" asks the setup; "Last game" shows the final scoring
# ("Resume game": ui_t42, app.NEXT)
HOME_NEEDS = ("ui_t42_new", "ui_t42_end")


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
        from teatally import ui_archive

        ui_archive.show_archive(ui)
    elif what == "settings":
        from teatally import ui_settings

        ui.push(ui_settings.Settings(app))
    elif what == "about":
        ui.push(Message(words.t("home.about"), about_lines(app)))


def _new_t42(ui):
    from teatally import ui_t42_new

    ui_t42_new.new_game(ui)


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
