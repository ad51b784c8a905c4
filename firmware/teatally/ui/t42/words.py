"""Tea for 2 in words, for every screen of a game: the players' names, the
cards' short names and a journal line as a label."""

NAMES = ("Blue", "Pink")
# Card names cut to 5 letters so "12 cater/alice" fits a 16-column line.
SHORT = {
    "cat": "cat",
    "rabbit": "rabbt",
    "dormouse": "dorm",
    "guards": "guard",
    "executioner": "exec",
    "knave": "knave",
    "caterpillar": "cater",
    "king": "king",
    "alice": "alice",
    "queen": "queen",
}


def action_label(action, n):
    """A journal line in words: "12 cater/alice" for round n, "adj" for an adjustment."""
    if "adjust" in action:
        return "%d adj" % n
    return "%d %s/%s" % (n, SHORT.get(action.get("blue"), "?"), SHORT.get(action.get("pink"), "?"))


def round_number(game, i):
    """The round number of game.actions[i] (adjustments keep the previous one)."""
    acts = game.actions
    if i == len(acts) - 1:
        return game.state.round  # the rounds played so far
    n = 0
    for k in range(i + 1):
        if "adjust" not in acts[k]:
            n += 1
    return n
