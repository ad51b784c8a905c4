# The screens of a journal being mended (teatally.recover): "Round 3 was
# damaged: enter it again", then the guided screens the players know (the
# round: ui_t42_round; an adjustment: ui_t42_more; the setup: ui_t42_new),
# prefilled with what can still be read and offering only what the intact
# lines after it allow; at the end the game with what was kept. Loaded only
# while a mend is on (app.App.boot, ui_t42.show_game).

from teatally import t42
from teatally.ui import Menu, Message, wrap


def show(ui):
    """The mend's next step: replay the intact lines up to the next lost
    one and ask for it, or (all done: the journal rewritten) the game with
    an account of what was kept."""
    app = ui.app
    m = app.mend
    lost = m.replay(app)
    if lost is None:
        from teatally.ui_t42 import show_game

        if app.game is None:
            app.home()
            ui.push(Message("Journal", wrap(m.report())))
        else:
            show_game(ui, m.report())
        return
    ui.reset(lost_menu(app, m, lost))


def title_of(app, m, lost):
    """ "Round 3 damaged", "Setup damaged", "Line 7 damaged" (an adjustment)."""
    if app.game is None:
        return "Setup damaged"
    if isinstance(lost.hint, dict) and "adjust" in lost.hint:
        return "Line %d damaged" % m.line_number()
    return "Round %d damaged" % (app.game.state.round + 1)


def lost_menu(app, m, lost):
    """What to do about the lost line: enter it again (the usual), as an
    adjustment, or set the game aside (the journal moved to the archive)."""
    items = [("Enter it again", "enter")]
    if app.game is not None:
        items.append(("An adjustment", "adjust"))
    items.append(("Set game aside", "aside"))
    kept = len(m.slots) - m.at - 1
    words = {
        "enter": "%d later kept" % kept,
        "adjust": action_words(lost.hint) or "if it was one",
        "aside": "nothing deleted",
    }
    menu = Menu(title_of(app, m, lost), items, _pick, back=_stay, hint=lambda v: words[v])
    menu.needs = ("ui_t42_round", "ui_t42_new")  # type: ignore[attr-defined]  # app.App.wanted
    return menu


def _stay(ui):
    # BACK: nowhere to go before the line is entered (or the game set aside)
    pass


def _pick(ui, what):
    app = ui.app
    if what == "aside":
        app.set_aside()
    elif app.game is None:
        from teatally import ui_t42_new

        ui_t42_new.new_game(ui)
    elif what == "adjust":
        from teatally import ui_t42_more

        ui.push(ui_t42_more.Adjust(app))
    else:
        from teatally import ui_t42_round

        ui_t42_round.start(ui)


def hint_index(values, v, sel):
    """The index of v among values (the hint's answer), else sel."""
    for i in range(len(values)):
        if values[i] == v:
            return i
    return sel


def action_words(action):
    """An adjustment in words, for the lost line's screen."""
    adj = action.get("adjust") if isinstance(action, dict) else None
    if not isinstance(adj, dict):
        return None
    for who in t42.PLAYERS:
        if isinstance(adj.get(who), dict):
            for k in adj[who]:
                return "%s %s %s" % (who, k, adj[who][k])
    for k in adj:
        return "%s %s" % (k, adj[k])
    return None
