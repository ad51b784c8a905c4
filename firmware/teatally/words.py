"""Every word the device shows, in one place (issue 17); issue 18 adds a
Japanese table beside the English one.

Screens never spell screen text themselves; they ask here:

    from teatally import words
    words.t("menu.history")            # "History"
    words.f("act.buy", 6, "knave")     # "Buy 6: knave"
    words.n("n.tarts", 2)              # "2 tarts"
    words.card("caterpillar")          # "caterpillar" (t42's names in, words out)
    words.space("reveal"), words.player(0), words.objective("most:king")

Keys are ASCII, "<screen or topic>.<what>". A value is a str; a template
for f() uses str.format's numbered fields ("{0} {1}"), so a translation may
put the values in another order; a count word for n() is a pair
(one, many) of templates with {0}, e.g. ("{0} tart", "{0} tarts") -- a
language without plurals repeats the same template. f() fills plain values
only (numbers, words already looked up); a value that is itself a count
word goes through n() first.

Languages: English is the reference: EN (below: the words of the status
board, a round and the game menu, loaded all through a game) and
words_more.EN (the other screens' words, loaded only with those screens'
modules, which import it). Every key the firmware uses is in one of them
(tests/test_words.py checks each literal t/f/n key in firmware/ and the
names built from t42's, teatime's and witches' names). Another language is
a module teatally/words_<code>.py holding one dict TABLE with the keys of
both (a key it lacks falls back to English). use(code)
switches (importing that module: its words cost no heap while English is
on); use("en") drops it. LANG names the language in use. The game record
(journal) never holds these words: records keep t42's names ("blue",
"caterpillar", "reveal"), and screens look them up here (card(), space(),
player()).

Width: the screens draw text with ui.text in the 6x8 font (teatally.font:
ASCII, 21 columns a line, 20 in a menu); ui.wrap splits text at spaces
into lines that fit. A language with other glyphs extends teatally.font
(width, draw) and ui.wrap; tests/test_text_fit.py walks every screen and
fails on any text wider than its place.

Cost on the Pico: t() is a dict lookup returning the table's own str (no
new string); f() and n() make one new str (a format), so the screens that
redraw on every press keep what they made (see ui.py on new strings).
"""

import sys

LANGS = ("en", "ja")  # the screens' languages (the setting "lang", ui.lang)
LANG = ["en"]  # the language in use (a list: use() changes it in place)
_TABLE = [None]  # the other language's table while one is on, else None


def use(code):
    """Switch the screens' language: "en", or a code with a module
    teatally.words_<code> (its TABLE). Unknown codes keep English."""
    if code == "en":
        _TABLE[0] = None
        LANG[0] = "en"
        return
    try:
        mod = __import__("teatally.words_" + code, None, None, ("TABLE",))
    except ImportError:
        return
    _TABLE[0] = mod.TABLE
    LANG[0] = code


def t(key):
    """The text for key in the language in use (English if it lacks it)."""
    tab = _TABLE[0]
    if tab is not None:
        v = tab.get(key)
        if v is not None:
            return v
    v = EN.get(key)
    if v is None:
        v = _more(key)
    return v


def _more(key):
    # the words of the screens away from a round (words_more: loaded with
    # the modules of those screens, which import it); another language's
    # own table of them (words_<code>_more) comes and goes with it
    from teatally import words_more

    other = words_more.OTHER[0]
    if LANG[0] != words_more.OTHER_LANG[0]:
        other = words_more.OTHER[0] = words_more.other_table(LANG[0])
        words_more.OTHER_LANG[0] = LANG[0]
    if other is not None:
        v = other.get(key)
        if v is not None:
            return v
    return words_more.EN[key]


def f(key, *args):
    """The template key filled with args: t(key).format(*args)."""
    return t(key).format(*args)


def n(key, count):
    """A count in words: key's (one, many) pair filled with count."""
    pair = t(key)
    return pair[0 if count == 1 else 1].format(count)


def card(name):
    """A card's name on screen, from t42's name ("caterpillar")."""
    return t("card." + name)


def space(name):
    """A watch space's name on screen, from t42's name ("reveal")."""
    return t("space." + name)


def player(i):
    """Player i's name (0 blue, 1 pink), capitalised: "Blue"."""
    return t("player.blue") if i == 0 else t("player.pink")


def label(what, room=21):
    """An engine label (t42.Need.what: "blue guards 2/3", "watch reveal
    1/2") in words: each name in it looked up (who., card., space.,
    label.<word>), the rest kept, the first letter capitalised. A label
    longer than room columns (a chain of copies: "watch copy cat ...")
    keeps its last words that fit: the step asked about."""
    parts = what.split(" ")
    for i in range(len(parts)):
        parts[i] = _name(parts[i])
    s = " ".join(parts)
    while _cols(s) > room and " " in s:
        s = s[s.find(" ") + 1 :]
    return s[:1].upper() + s[1:]


def _cols(s):
    # s's width in columns of the 6x8 font: its length in English; another
    # language's glyphs may be wider (issue 18: teatally.ui.font measures
    # them; ui.lang loaded it with the language)
    font = sys.modules.get("teatally.ui.font") if LANG[0] != "en" else None
    if font is None:
        return len(s)
    return (font.width(s) + 5) // 6


def _name(w):
    for group in ("who.", "card.", "space.", "label."):
        v = _get(group + w)
        if v is not None:
            return v
    return w


def _get(key):
    tab = _TABLE[0]
    if tab is not None and key in tab:
        return tab[key]
    return EN.get(key)  # (labels name cards, spaces and players: all here)


def objective(o):
    """An objective's name from the setup's ("most:king", "tarts")."""
    if o[:5] == "most:":
        return f("obj.most", card(o[5:]))
    return t("obj." + o)


# The English table: the words of the status board, a round and the game
# menu (loaded all through a game); the other screens' words are in
# words_more.EN (loaded only with those screens: the heap is tightest while a
# game is played). Width limits (6x8 font): a title 21 characters, a menu
# line 20, a text line 21 (ui.wrap wraps longer text).
EN = {
    # the status board
    # the status board (rows 6 and 7) and its legend (game menu)
    "board.hint": "BACK: game menu",
    "board.next": "{0}: {1}? OK",
    "board.play": "OK: play the round",
    # the game menu
    "menu.title": "Game",
    "menu.history": "History",
    "menu.score": "Score now",
    "menu.legend": "Board legend",
    "menu.adjust": "Adjust",
    "menu.undo": "Undo",
    "menu.redo": "Redo",
    "menu.home": "Home",
    "journal.title": "Journal",
    "undo.none": "Nothing to undo",
    "undo.done": "Undone",
    "redo.none": "Nothing to redo",
    "redo.done": "Redone",
    "redo.refused": "Cannot redo",
    "refused.title": "Refused",
    # history (a line's label: 20 columns)
    "hist.won": "R{0} {1} {2}",
    "hist.tie": "R{0} tie: {1}",
    "hist.adjust": "R{0} adjusted",
    # the home menu, settings, the archive, the error screen
    "journal.refused": "Line {0} refused: dropped from it (copy: {1})",
    "error.title": "Error",
    "error.ok": "OK: resume the game",
    # a round's questions
    "ask.reveals": "{0} reveals",
    "ask.hourglasses": "{0}: use hourglasses",
    "ask.pile": "{0}: pile?",
    "pile.hint": "destroys its top card",
    "ask.space": "Move the hand to",
    "ask.take": "{0} king: take",
    "ask.stars": "Stars on the card",
    "card.item": "{0} {1}",
    "card.hint": "{0} of {1} in draw pile",
    "card.whose": "{0}'s card",
    "note.only": "{0}'s only card: {1}.",
    "pile.item": "Pile {0}: {1}",
    "take.flamingo": "The flamingo",
    "take.tarts": "2 tarts",
    "stars.on": "How many stars are printed on the {0}?",
    "stars.revealed": "How many stars are printed on the revealed cards?",
    "hand.stays": "stays on {0}",
    "hand.moves": "moves to {0}",
    # the winner's action (T42-ROUND-3) and the purchase (T42-BUY-1, -2)
    "win.by": "{0} wins by {1}",
    "win.tie": "{0} wins: flamingo",
    "act.effect": "Effect: {0}",
    "act.buy": "Buy {0}: {1}",
    "act.none": "Nothing",
    "act.none.hint": "no effect, no buy",
    "ask.copies": "{0} copies",
    "copy.apply": "Apply: {0}",
    "copy.decline": "Decline",
    "copy.decline.hint": "nothing happens",
    "buy.cost": "costs {0} - {1} = {2}",
    "buy.free": "free: won by {0}",
    "effect.cat": "hand to any space",
    "effect.rabbit": "destroy a pile's top",
    "effect.dormouse": "take 2 tarts",
    "effect.guards": "foe reveals 3 cards",
    "effect.executioner": "destroy foe's card",
    "effect.knave": "take 3 tarts",
    "effect.caterpillar": "take 2 hourglasses",
    "effect.king": "flamingo or 2 tarts",
    "effect.alice": "take 1 hourglass",
    "effect.queen": "destroy a pile's top",
    "space.does.stars": "gain 2 stars",
    "space.does.destroy": "destroy own card",
    "space.does.reveal": "reveal 2 for stars",
    "space.does.flamingo": "take the flamingo",
    "space.does.copy": "copy foe's top card",
    # after a round (the board says a reshuffle until the next key)
    "notice.title": "After round {0}",
    "shuffle.rabbit": "{0}: add a rabbit",
    "shuffle.rabbit2": "and shuffle the deck",
    "shuffle.norabbit": "{0}: shuffle deck",
    "shuffle.norabbit2": "(no rabbit left)",
    "end.rabbits": "No rabbit left: the game ends.",
    "end.piles": "4 piles are empty: the game ends.",
    # the two players and the game's names (t42's names -> words)
    "player.blue": "Blue",
    "player.pink": "Pink",
    "who.blue": "blue",
    "who.pink": "pink",
    "card.cat": "cat",
    "card.rabbit": "rabbit",
    "card.dormouse": "dormouse",
    "card.guards": "guards",
    "card.executioner": "executioner",
    "card.knave": "knave",
    "card.caterpillar": "caterpillar",
    "card.king": "king",
    "card.alice": "alice",
    "card.queen": "queen",
    "space.stars": "stars",
    "space.destroy": "destroy",
    "space.reveal": "reveal",
    "space.flamingo": "flamingo",
    "space.copy": "copy",
    "label.watch": "watch",
    "label.reveals": "reveals",
    "n.tarts": ("{0} tart", "{0} tarts"),
    "n.stars": ("{0} star", "{0} stars"),
    "n.hourglasses": ("{0} hourglass", "{0} hourglasses"),
    "n.cards": ("{0} card", "{0} cards"),
    "n.rounds": ("{0} round", "{0} rounds"),
}
