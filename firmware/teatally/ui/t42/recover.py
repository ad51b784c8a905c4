"""The screens of a journal being mended (teatally.recover): "Round 3 was
damaged: enter it again", then the guided screens the players know (the
round: ui.t42.round; an adjustment: ui.t42.adjust; the setup:
ui.t42.setup), prefilled with what can still be read and offering only what
the intact lines after it allow; at the end the game with what was kept.
And the error screen's ways out when the same error comes twice in a row
(app.App.crash): the home menu, or the game set aside. A rare module
(ui.core.RARE): opened while a mend is on or for the error screen, nothing
here is loaded in a game that goes well."""

from teatally import words
from teatally.journal import MIN_FREE
from teatally.ui.core import Menu, Message, wrap
from teatally.ui.t42.round import start as start_round


def show(ui):
    """The mend's next step: replay the intact lines up to the next lost
    one and ask for it, or (all done: the journal rewritten) the game with
    an account of what was kept."""
    app = ui.app
    m = app.mend
    lost = m.replay(app)
    if lost is None:
        app.show_game(m.report())
        return
    ui.reset(lost_menu(app, m, lost))


def lost_menu(app, m, lost):
    """What to do about the lost line ("Round 3 damaged": the round it
    would be; "Setup damaged"): enter it again (the usual), as an
    adjustment (if it was one), or set the game aside (the journal moved
    to the archive)."""
    items = [(words.t("mend.enter"), "enter"), (words.t("mend.adjust"), "adjust"), (words.t("mend.aside"), "aside")]
    if app.game is None:
        title = words.t("mend.setup")
        del items[1]
    else:
        title = words.f("mend.round", app.game.state.round + 1)
    kept = words.f("mend.kept", len(m.slots) - m.at - 1)
    nothing = words.t("mend.nothing")
    return Menu(title, items, _pick, back=_stay, hint=lambda v: kept if v == "enter" else nothing)


def _stay(ui):
    # BACK: nowhere to go before the line is entered (or the game set aside);
    # on the error screen, one of its ways out is meant
    pass


def _pick(ui, what):
    # the lost line's menu and the error screen's ways out
    app = ui.app
    if what == "aside":
        set_aside(app)
    elif what == "resume":
        app.boot()
    elif what == "home":
        app.game = None
        app.mend = None
        app.home()
    elif app.game is None:
        ui.open("t42.setup").new_game(ui)
    elif what == "adjust":
        ui.push(ui.open("t42.adjust").Adjust(app))
    else:
        start_round(ui)


# -- the error screen's ways out ---------------------------------------------------
def ways_out(app, exc):
    """The same error twice in a row (app.App.crash): resume (try again),
    the home menu, or set the game aside. The bottom line is the error's
    own words ("[Errno 8] EBADF")."""
    said = str(exc) or type(exc).__name__
    items = [(words.t("home.resume"), "resume"), (words.t("mend.home"), "home"), (words.t("mend.aside"), "aside")]
    app.ui.reset(Menu(words.t("mend.again"), items, _pick, back=_stay, hint=lambda v: said))


def set_aside(app):
    """Move the current game's journal (even a damaged one, even a folder)
    to games/dNNNN.jsonl, never deleted; the home menu says so."""
    try:
        said = words.f("mend.moved", app.journal.set_aside())
        app.journal.prune(MIN_FREE)  # a full flash: the oldest archives go
    except OSError as exc:
        said = words.f("mend.unmoved", exc)
    app.game = None
    app.mend = None
    app.last_error = None
    app.home()
    app.ui.push(Message(words.t("mend.aside.title"), wrap(said)))
