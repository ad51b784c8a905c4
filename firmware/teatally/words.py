"""Every word the device shows, in one place (issue 17); issue 18 adds a
Japanese table beside the English one.

Screens never spell screen text themselves; they ask here:

    from teatally import words
    words.t("menu.history")            # "History"
    words.f("buy.item", 6, "knave", 1) # "Buy pile 6: knave, 1 tart"
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

Languages: EN (below) is the reference table: every key the firmware uses
is in it (tests/test_words.py checks each t/f/n key in firmware/ exists).
Another language is a module teatally/words_<code>.py holding a dict TABLE
with the same keys (a key it lacks falls back to English). use(code)
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
    return EN[key]


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


def label(what):
    """An engine label (t42.Need.what: "blue guards 2/3", "watch reveal
    1/2") in words: each name in it looked up (who., card., space.,
    label.<word>), the rest kept, the first letter capitalised."""
    parts = what.split(" ")
    for i in range(len(parts)):
        parts[i] = _name(parts[i])
    s = " ".join(parts)
    return s[:1].upper() + s[1:]


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
    return EN.get(key)


def objective(o):
    """An objective's name from the setup's ("most:king", "tarts")."""
    if o[:5] == "most:":
        return f("obj.most", card(o[5:]))
    return t("obj." + o)


# The English table. Width limits (6x8 font): a title 21 characters, a menu
# line 20, a text line 21 (ui.wrap wraps longer text).
EN = {
    # the status board
    "board.blue": "BLUE",
    "board.pink": "PINK",
    # the status board (rows 6 and 7) and its legend (game menu)
    "board.hint": "BACK: game menu",
    "board.next": "{0}: {1}? OK",
    "board.play": "OK: play the round",
    "legend.title": "What the board shows",
    "legend.stars": "stars (track space)",
    "legend.teacups": "teacups",
    "legend.tarts": "tarts",
    "legend.hourglasses": "hourglasses",
    "legend.draw": "cards in draw pile",
    "legend.flamingo": "has the flamingo",
    "legend.watch": "watch hand's space",
    "legend.piles": "pile 4..8: cards left",
    "legend.rabbits": "rabbits in supply",
    # the game menu
    "menu.title": "Game",
    "menu.history": "History",
    "menu.score": "Score now",
    "menu.legend": "Board legend",
    "menu.adjust": "Adjust",
    "menu.undo": "Undo",
    "menu.redo": "Redo",
    "menu.home": "Home",
    "score.now": "If it ended now",
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
    # history: a line's label (20 columns), its bottom line, its sentences
    "hist.title": "History",
    "hist.empty": "(no rounds yet)",
    "hist.tied": "a tie: flamingo wins",
    "hist.beat": "beat {0} {1}",
    "hist.adjusted": "R{0}: adjusted: {1}.",
    "say.beat": "R{0} {1} {2} beat {3} {4}",
    "say.tie": "R{0} blue {1} tied pink {2}",
    "say.winner": "the flamingo's holder",
    "say.loser": "the other",
    "say.effect": "{0}'s {1}: {2}",
    "say.buy": "{0} bought pile {1} ({2})",
    "say.none": "{0} took no action",
    "say.hourglasses": "{0} spent {1}",
    "say.watch": "watch space: {0}",
    "say.stars": " ({0})",
    "say.pile": "destroyed the top of pile {0}",
    "say.card": "destroyed {0}'s {1}",
    "say.own": "destroyed own {1}",
    "say.cards": "revealed {0}",
    "say.take.flamingo": "took the flamingo",
    "say.take.tarts": "took 2 tarts",
    "say.space": "hand to {0}",
    "say.then": "then {0}",
    # adjustments (T42-INPUT-2)
    "adj.title": "Adjust",
    "adj.done": "Adjusted",
    "adj.item": "{0} {1}: {2}",
    "adj.field": "{0} {1} {2}",
    "adj.flamingo": "flamingo to {0}",
    "adj.watch": "hand on {0}",
    "adj.flamingo.item": "Flamingo: {0}",
    "adj.watch.item": "Hand on: {0}",
    "adj.flamingo.title": "Flamingo holder",
    "adj.watch.title": "Watch hand on",
    "adj.picker": "{0} {1} +/-",
    "adj.now": "now {0}",
    "adj.then": "then {0}",
    "field.stars": "stars",
    "field.tarts": "tarts",
    "field.hourglasses": "hourglasses",
    # the score table (21 columns: an 11-column label, two 5-column numbers)
    "score.head": " Blue Pink",
    "score.stars": "stars",
    "score.obj": "{0} {1}",
    "score.total": "total",
    "score.wins": "{0} wins",
    "score.wins.flamingo": "{0} wins (flamingo)",
    "score.legend": "-: pile not empty yet",
    "final.title": "Final: {0} to {1}",
    "final.ok": "OK: archive the game",
    # a new Tea for 2 game (T42-SETUP-2..4)
    "new.flamingo": "Who has the flamingo?",
    "new.flamingo.hint": "holder starts: 1 tart",
    "new.watch": "Watch hand starts on",
    "new.pile": "Objective above {0}",
    "new.random": "Random",
    "new.pile.line": "{0} {1}",
    "new.title": "New game?",
    "new.sum.flamingo": "Flamingo: {0}{1}",
    "new.sum.watch": "Hand on: {0}{1}",
    "new.sum.random": "*: drawn at random",
    "new.sum.ok": "OK: start the game",
    "new.twice": "! {0} twice",
    "new.repeated": "{0} is already above pile {1}",
    "new.repeated.ask": ". Each tile is placed once: use it again?",
    "new.repeated.ok": "OK: use it",
    "new.repeated.back": "BACK: pick again",
    "new.repeated.title": "Repeated face",
    # the home menu, settings, the archive, the error screen
    "home.title": "Tea Tally",
    "home.resume": "Resume game",
    "home.last": "Last game",
    "home.pad": "Resume pad",
    "home.new": "New Tea for 2",
    "home.teatime": "Tea Time",
    "home.witches": "Tea Witches",
    "home.archive": "Archive",
    "home.settings": "Settings",
    "home.about": "About",
    "about.version": "Tea Tally {0}",
    "about.board": "board {0}",
    "about.free": "free {0} B",
    "about.games": "games {0}",
    "replace.unfinished": "Game unfinished",
    "replace.unarchived": "Not archived",
    "replace.rounds": "round {0} so far",
    "replace.over": "last game is over",
    "replace.archive": "Archive, then new",
    "replace.replace": "Replace it",
    "replace.cancel": "Cancel",
    "set.never": "never",
    "set.seconds": "{0} s",
    "set.minutes": "{0} min",
    "set.contrast.item": "Contrast {0}",
    "set.off.item": "Screen off: {0}",
    "set.flip.item": "Flip: {0}",
    "set.board.item": "Board: {0}",
    "set.on": "on",
    "set.no": "off",
    "set.off": "Screen off",
    "set.contrast": "Contrast",
    "set.board": "Board",
    "set.board.reset": "Takes effect after a reset.",
    "arch.title": "Archive: {0} games",
    "arch.item": "#{0} {1} won {2}:{3}",
    "arch.noscore": "#{0} no score",
    "arch.none": "No games yet.",
    "arch.nofinal": "No final score (replay it on the host).",
    "arch.totals": "Blue {0}, Pink {1}",
    "arch.winner": "Winner: {0}",
    "arch.objectives": "Objectives (pile):",
    "arch.obj": "{0}: blue +{1} pink +{2}",
    "arch.game": "Game {0}",
    "journal.dropped": "Dropped {0} bad line(s)",
    "error.title": "Error",
    "error.ok": "OK: resume the game",
    # the score pads: Tea Time (TTM-*) and Tea Witches (TWI-*)
    "n.players": ("{0} player", "{0} players"),
    "n.points": ("= {0} point", "= {0} points"),
    "pad.title": "Pad",
    "pad.unreadable": "The saved pad was unreadable.",
    "pad.setup": "Setup, {0} players",
    "pad.grid": "Grid {0} x {1}",
    "pad.putback": "Put back {0} of each character.",
    "pad.all": "All 60 cards",
    "pad.alice": "P{0} has Alice and starts.",
    "pad.tt.title": "Tea Time, {0} players",
    "pad.player": "P{0}",
    "pad.who.alice": "Who took Alice?",
    "pad.round": "round",
    "pad.starts": "Alice: P{0} starts",
    "pad.round.ok": "OK: round over",
    "pad.round.down": "DOWN: score now",
    "pad.entry.keys": "OK: next  BACK: back",
    "pad.total": "Total {0}",
    "pad.field": "P{0} {1}",
    "pad.of": "{0} of {1}",
    "pad.range": "{0} to {1}",
    "pad.alice.yes": "Alice: +4",
    "pad.alice.no": "no Alice",
    "pad.tiebreak": "breaks ties only",
    "pad.prestige": "{0}: {1} prestige",
    "pad.check": "Check",
    "pad.winner": "Winner: {0}",
    "pad.winners": "Winners: {0}",
    "pad.tie.alice": "Alice breaks the tie",
    "pad.tie.shared": "a tie: shared",
    "pad.tie.coupons": "tie broken: coupons",
    "pad.tie.track": "tie broken: track",
    "pad.legend.marks": "*: winner, A: Alice",
    "pad.legend.mark": "*: winner",
    "pad.tt.legend": (
        "Ha hatter, Ch cheshire cat, WR white rabbit, Ca caterpillar, Qu queen, MH march hare, Al alice, = total"
    ),
    "pad.tw.legend": "A-I the nine categories, = total, Tr loyal track",
    "pad.tt.result": "Tea Time result",
    "pad.tw.result": "Tea Witches result",
    "pad.result.keys": "OK: done  BACK: fix",
    "pad.totals.ok": "OK: score anyway",
    "pad.totals.back": "BACK: correct",
    "pad.totals.title": "Check counts",
    "tt.hatter": "Hatter",
    "tt.cheshire_cat": "Cheshire cat",
    "tt.white_rabbit": "White rabbit",
    "tt.caterpillar": "Caterpillar",
    "tt.queen": "Queen",
    "tt.march_hare": "March hare",
    "tt.alice": "Alice",
    "tw.coins": "A coins",
    "tw.teas": "B hut teas",
    "tw.upgrades": "C upgrades",
    "tw.coupons": "D coupons",
    "tw.loyal_witches": "E witches",
    "tw.loyal_celebriteas": "F celebriteas",
    "tw.hex_wards": "G hex wards",
    "tw.togo2": "H to-go 2",
    "tw.togo4": "H to-go 4",
    "tw.special_teas": "I special teas",
    "tw.loyal_track": "loyal track",
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
    "shuffle.norabbit": "{0}: shuffle the deck",
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
    "obj.most": "most {0}",
    "obj.tarts": "tarts",
    "obj.deck": "deck size",
    "obj.hourglasses": "hourglasses",
    "obj.destroyed": "destroyed",
    "n.tarts": ("{0} tart", "{0} tarts"),
    "n.stars": ("{0} star", "{0} stars"),
    "n.hourglasses": ("{0} hourglass", "{0} hourglasses"),
    "n.cards": ("{0} card", "{0} cards"),
    "n.rounds": ("{0} round", "{0} rounds"),
}
