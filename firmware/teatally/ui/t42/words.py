"""Tea for 2 in words, for every screen of a game: the players' names and a
journal line as a label ("R12 Blue queen"). The words themselves come from
teatally.words (all screen text in one place)."""

from teatally import words
from teatally.rules import t42

NAMES = (words.player(0), words.player(1))


def action_label(action, n):
    """A journal line in a few words: "R12 Blue queen" (the winner and the
    card that won; "R12 tie: queen" on a tie), "R12 adjusted" for an
    adjustment."""
    if "adjust" in action:
        return words.f("hist.adjust", n)
    return round_label(action.get("blue"), action.get("pink"), n)


def round_label(b, p, n):
    """Round n's label from the cards blue and pink revealed (names)."""
    vb = t42.VALUE.get(b, 0) - t42.VALUE.get(p, 0)
    if vb == 0:
        return words.f("hist.tie", n, card_word(b))
    if vb > 0:
        return words.f("hist.won", n, NAMES[0], card_word(b))
    return words.f("hist.won", n, NAMES[1], card_word(p))


def card_word(c):
    """A card's name on screen ("?" for what is not a card)."""
    return words.card(c) if c in t42.VALUE else "?"


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
