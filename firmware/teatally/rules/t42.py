"""Tea for 2 rules engine: a deterministic reducer, state + action -> state.

Actions are plain data (the JSON objects of the game record, see README
"The game record"); the action list is the truth and the state can always
be rebuilt from it. Rule IDs refer to seeds/tea-for-2.md.

Two modes share one code path:

- strict (records, journal, replay): a missing parameter is an error;
- probe (the device's guided round): a missing parameter raises Need,
  which names the question, who it is about and the possible answers,
  computed on the state as it is at that moment of the round (after any
  reshuffle, guards reveal, ...). The UI answers by filling the dict
  Need.params[Need.key] and probing again, so no rule lives in the UI.

The parts: the state (Player, State, new_state, check_setup), one round
played (_Round, apply, Game.probe), scoring (score), the game with undo and
redo (Game) and its compact storage (Actions, _pack/_unpack). A probe plays
the whole round again on every answer."""

from array import array

from teatally.compat import const

CARDS = ("cat", "rabbit", "dormouse", "guards", "executioner", "knave", "caterpillar", "king", "alice", "queen")
VALUE = {
    "cat": 1,
    "rabbit": 1,
    "dormouse": 2,
    "guards": 3,
    "executioner": 4,
    "knave": 5,
    "caterpillar": 6,
    "king": 7,
    "alice": 8,
    "queen": 9,
}
SPACES = ("stars", "destroy", "reveal", "flamingo", "copy")
PLAYERS = ("blue", "pink")
PILES = (4, 5, 6, 7, 8)
PILE_CARD = {4: "executioner", 5: "knave", 6: "caterpillar", 7: "king", 8: "alice"}
OBJECTIVES = (
    "hourglasses",
    "tarts",
    "deck",
    "destroyed",
    "most:executioner",
    "most:knave",
    "most:caterpillar",
    "most:king",
    "most:alice",
)
START_DECK = ("cat", "dormouse", "guards", "executioner", "knave", "caterpillar", "king", "alice", "queen")

TOTAL_TARTS = const(9)
TOTAL_HOURGLASSES = const(5)
TOTAL_RABBITS = const(7)
PILE_SIZE = const(5)
MAX_CHAIN = const(4)
MAX_PRINTED_STARS = const(9)
# T42-INPUT-4: the most stars a manual adjustment may leave a player with.
MAX_STARS = const(999)
_GUARDS = const(3)  # guards: the opponent reveals 3 cards (the reveal space: 2)

# Need kinds (what the UI must ask).
ASK_CARD = "card"  # a card identity; options = card names
ASK_STARS = "stars"  # printed stars; options = (lo, hi)
ASK_PILE = "pile"  # a non-empty score-board pile; options = pile values
ASK_SPACE = "space"  # a watch space (cat); options = space names
ASK_TAKE = "take"  # king: "flamingo" or "tarts"
ASK_HOURGLASSES = "hourglasses"  # options = (0, held)
# Only when the probe is given the count of copies already applied
# (Game.probe(.., copies=n)): the copied effect may be declined (T42-COPY-4);
# options (False, True), True goes into the copy space's parameters as
# "decline"; False (apply) is the caller's to count. The label ends with the
# copied card ("watch copy queen").
ASK_COPY = "copy"
# Only when the probe is asked to stop for it (Game.probe(.., ask_action=True)):
# both cards are known and the winner's action is not in the line yet. The
# engine itself treats a missing action as "nothing" (T42-ROUND-3).
ASK_ACTION = "action"


class Refused(Exception):
    """An impossible action. The message says why; the state is unchanged."""


class Need(Exception):
    """Probe mode: the round needs one more answer from the players.

    params/key: where to write the answer (params[key] = value, or append to
    the list params[key] for multi-card reveals); kind: ASK_*, from the key;
    who: 0 blue, 1 pink (whose card / pile / tokens it concerns); options:
    the legal answers (a tuple of names or values, or (lo, hi) for numbers);
    what: a short label for the screen ("guards 2/3", "executioner", ...);
    watch: for the hourglasses question, the hand's space index after the
    winner's action (else None); pile: for a card question, the pile the
    card comes from as it is at the question (a draw pile: card -> count;
    a discard pile: a list), for the counts the screen shows ("king 7 x2"),
    else None."""

    def __init__(self, params, key, who, options, what, watch=None, pile=None):
        super().__init__(params, key)
        self.params = params
        self.key = key
        self.kind = _KIND[key]
        self.who = who
        self.options = options
        self.what = what
        self.watch = watch
        self.pile = pile


# The kind of answer a Need asks for, by the key the answer goes to (None:
# the winner's action, which has no key of its own).
_KIND = {
    "blue": ASK_CARD,
    "pink": ASK_CARD,
    "card": ASK_CARD,
    "cards": ASK_CARD,
    "stars": ASK_STARS,
    "pile": ASK_PILE,
    "space": ASK_SPACE,
    "take": ASK_TAKE,
    "hourglasses": ASK_HOURGLASSES,
    "decline": ASK_COPY,
    None: ASK_ACTION,
}


def _kinds(draw):
    # the kinds of card in a draw pile (card -> count), in CARDS order
    out = []
    for c in CARDS:
        if c in draw:
            out.append(c)
    return tuple(out)


def teacups(stars):
    """The teacups (25 stars each) a star total shows on the board (T42-STAR-1)."""
    return (stars - 1) // 25 if stars > 0 else 0


def track(stars):
    """The track space a star total shows beside its teacups (T42-STAR-1: 25 is space 25, 26 a teacup and 1)."""
    return stars - 25 * teacups(stars)


class Player:
    """One player's tokens, stars and cards."""

    __slots__ = ("stars", "tarts", "hourglasses", "destroyed", "draw", "discard")

    def __init__(self, stars, tarts, hourglasses, destroyed, draw, discard):
        self.stars = stars
        self.tarts = tarts
        self.hourglasses = hourglasses
        self.destroyed = destroyed  # names of the cards this player destroyed, in order
        self.draw = draw  # card -> count (the draw pile is a known multiset)
        self.discard = discard  # bottom .. top

    def copy(self):
        """A copy sharing nothing (T42-INPUT-3: a state is never changed)."""
        return Player(
            self.stars, self.tarts, self.hourglasses, self.destroyed[:], self.draw.copy(), self.discard[:]
        )

    def draw_count(self):
        """How many cards the draw pile holds."""
        return sum(self.draw.values())

    def deck(self):
        """The whole deck, draw and discard pile, as card -> count."""
        d = dict(self.draw)
        for c in self.discard:
            d[c] = d.get(c, 0) + 1
        return d

    def count(self, card):
        """How many of card are in the deck (draw + discard pile)."""
        return self.draw.get(card, 0) + self.discard.count(card)

    def deck_size(self):
        """How many cards the deck holds (draw + discard pile)."""
        return sum(self.draw.values()) + len(self.discard)

    def in_draw(self):
        """The kinds of card in the draw pile, in CARDS order."""
        return _kinds(self.draw)

    def reshuffle(self):
        """the discard pile goes into the draw pile (card -> count)"""
        draw = self.draw
        for c in self.discard:
            draw[c] = draw.get(c, 0) + 1
        del self.discard[:]

    def take_from_draw(self, card):
        """Take one card out of the draw pile (Refused if there is none)."""
        n = self.draw.get(card, 0)
        if n <= 0:
            raise Refused("%s is not in the draw pile" % card)
        if n == 1:
            del self.draw[card]
        else:
            self.draw[card] = n - 1


class State:
    """The whole game state after some lines: both players, the flamingo, the
    watch, the piles, the supply, the round count and how the game ended."""

    __slots__ = (
        "players",
        "flamingo",
        "watch",
        "piles",
        "supply_tarts",
        "supply_hourglasses",
        "supply_rabbits",
        "round",
        "end",
        "over",
        "objectives",
        "last",
    )

    def copy(self):
        """A copy sharing nothing that changes (see Player.copy)."""
        s = State()
        s.players = [self.players[0].copy(), self.players[1].copy()]
        self._fields_into(s)
        s.piles = self.piles[:]
        return s

    def _fields_into(self, s):
        s.flamingo = self.flamingo
        s.watch = self.watch
        s.supply_tarts = self.supply_tarts
        s.supply_hourglasses = self.supply_hourglasses
        s.supply_rabbits = self.supply_rabbits
        s.round = self.round
        s.end = self.end
        s.over = self.over
        s.objectives = self.objectives  # never mutated after setup
        s.last = self.last

    def pile(self, v):
        """Cards left on the score-board pile of value v (4..8)."""
        return self.piles[v - 4]

    def empty_piles(self):
        """The values of the empty score-board piles."""
        return tuple(v for v in PILES if self.piles[v - 4] == 0)


def _player_index(name, what):
    if name == "blue":
        return 0
    if name == "pink":
        return 1
    raise Refused("%s must be blue or pink" % what)


# what a reveal space's stars are, by the cards it turned (1: the player
# had only one left)
_REVEALED_STARS = ("", "the stars printed on the card revealed", "the stars printed on the 2 cards revealed (together)")


def _shown(v):
    # a number as the record wrote it (JSON's words for the others)
    if v is True or v is False:
        return "true" if v else "false"
    if v is None:
        return "null"
    return repr(v)


def check_setup(setup):
    """Validate a setup line; return (flamingo index, watch index, objectives dict)."""
    if not isinstance(setup, dict):
        raise Refused("the first line must be the setup object")
    if setup.get("game") != "tea-for-2":
        raise Refused('setup: "game" must be "tea-for-2"')
    for k in setup:
        if k not in ("game", "flamingo", "watch", "objectives"):
            raise Refused("setup: unknown key %s" % k)
    fl = _player_index(setup.get("flamingo"), "setup: flamingo")
    w = setup.get("watch")
    if w not in SPACES:
        raise Refused("setup: watch must be one of " + ", ".join(SPACES))
    obj = setup.get("objectives")
    if not isinstance(obj, dict):
        raise Refused("setup: objectives must map piles 4..8 to objectives")
    out = {}
    for v in PILES:
        o = obj.get(str(v))
        if not valid_objective(o):
            raise Refused("setup: objective above pile %d is missing or unknown" % v)
        out[v] = o
    if len(obj) != 5:
        raise Refused("setup: objectives must name exactly the piles 4..8")
    return fl, SPACES.index(w), out


def valid_objective(o):
    """T42-OBJ-1"""
    if not isinstance(o, str):
        return False
    if o in ("hourglasses", "tarts", "deck", "destroyed"):
        return True
    return o[:5] == "most:" and o[5:] in VALUE


def new_state(setup):
    """T42-SETUP-1..4"""
    fl, w, obj = check_setup(setup)
    s = State()
    s.players = [Player(0, 0, 0, [], {}, []), Player(0, 0, 0, [], {}, [])]
    for p in s.players:
        for c in START_DECK:
            p.draw[c] = 1
    s.players[fl].tarts = 1
    s.players[1 - fl].tarts = 3
    s.flamingo = fl
    s.watch = w
    s.piles = [PILE_SIZE] * 5
    s.supply_tarts = TOTAL_TARTS - 4
    s.supply_hourglasses = TOTAL_HOURGLASSES
    s.supply_rabbits = TOTAL_RABBITS
    s.round = 0
    s.end = None
    s.over = False
    s.objectives = obj
    s.last = None
    return s


def round_winner(flamingo, blue_card, pink_card):
    """T42-ROUND-2"""
    vb = VALUE[blue_card]
    vp = VALUE[pink_card]
    if vb != vp:
        return 0 if vb > vp else 1
    return flamingo


def buy_cost(v, points):
    """T42-BUY-2"""
    return v - points if v > points else 0


def landing(watch, n):
    """T42-WATCH-2"""
    return (watch + n) % 5


class _Round:
    # One action being applied to s (a copy of the state), step by step:
    # the mode (strict or probe), where answers filled in go, and what: the
    # label of the step being played, for questions and refusals ("blue
    # guards 2/3"), set by whoever starts a step.

    __slots__ = ("s", "probe", "fills", "ask_action", "copies", "met", "depth", "what")

    def __init__(self, s, probe, fills=None, ask_action=False, copies=None):
        self.s = s
        self.probe = probe
        self.fills = fills  # probe mode: where single answers filled in are recorded (ask)
        self.ask_action = ask_action  # probe mode: stop for the winner's action (Game.probe)
        # probe mode: how many copies the players chose to apply (None: no
        # copy is asked, T42-COPY-4); met: the copies with a card to copy
        # found so far in the line, in the order they are played
        self.copies = copies
        self.met = 0
        self.depth = 0  # copy spaces in the current chain (T42-COPY-3)
        self.what = ""

    # -- asking for parameters ------------------------------------------
    def get(self, params, key, who, options, pile=None):
        # params[key]; when missing, asked (probe mode) or refused.
        if key in params:
            return params[key]
        if self.probe:
            return self.ask(params, key, who, options, pile)
        raise Refused("%s: missing %s" % (self.what, key))

    def ask(self, params, key, who, options, pile=None):
        # Probe mode: a missing answer. With fills (a list) and exactly one
        # possible answer, that answer goes into the line and is recorded in
        # fills as (kind, who, value) (T42-INPUT-1: nothing is asked); else
        # raise Need (pile: a card's pile, Need.pile).
        if self.fills is None or (options[0] != options[1] if key == "stars" else len(options) != 1):
            raise Need(params, key, who, options, self.what, None, pile)
        if type(params.get(key)) is list:  # multi-card reveals (guards, reveal space)
            params[key].append(options[0])
        else:
            params[key] = options[0]
        self.fills.append((_KIND[key], who, options[0]))
        return options[0]

    def card(self, params, who, options, pile=None):
        # The card params["card"]; options: a tuple (from pile: Need.pile),
        # or a draw pile (a dict card -> count) whose kinds, in CARDS order,
        # are the options.
        if "card" not in params:
            if type(options) is dict:
                self.get(params, "card", who, _kinds(options), options)
            else:
                self.get(params, "card", who, options, pile)
        return _checked_card(params["card"], options, self.what)

    def stars(self, params, who, hi, what, said):
        # The printed stars params["stars"], 0..hi (the question's label:
        # self.what + " stars"); a refusal says the step's label `what`
        # ("blue queen") and what the stars are, `said` ("the stars
        # printed on the destroyed king").
        self.what += " stars"
        if "stars" not in params and not self.probe:
            raise Refused("%s: missing %s" % (what, said))
        if "stars" not in params:
            self.get(params, "stars", who, (0, hi))
        v = params["stars"]
        if not isinstance(v, int) or isinstance(v, bool) or v < 0 or v > hi:
            raise Refused("%s: %s must be a whole number 0..%d, not %s" % (what, said, hi, _shown(v)))
        return v

    # -- the round, step by step (see _play) ------------------------------
    def check_line(self, action):
        # the checks that only read the state before the round (self.s)
        if self.s.over:
            raise Refused("the game is over")
        for k in action:
            if k not in _ROUND_KEYS:
                raise Refused("unknown key %s" % k)
        self.revealed(action, 0)
        self.revealed(action, 1)
        if self.ask_action and "effect" not in action and "buy" not in action:
            raise Need(action, None, round_winner(self.s.flamingo, action["blue"], action["pink"]), None, "")

    def revealed(self, action, p):
        # the card p revealed; probe mode: asked (the kinds of p's draw pile)
        c = action.get(PLAYERS[p])
        if c is None:
            if not self.probe:
                raise Refused("missing the card %s revealed" % PLAYERS[p])
            self.what = _REVEALS[p]
            draw = self.s.players[p].draw
            c = self.ask(action, PLAYERS[p], p, _kinds(draw), draw)
        if not isinstance(c, str) or c not in VALUE:
            raise Refused("unknown card %r for %s" % (c, PLAYERS[p]))

    def buy(self, w, action):
        # T42-BUY-1..3
        v = action["buy"]
        if not isinstance(v, int) or isinstance(v, bool) or v not in PILES:
            raise Refused("buy must name a pile 4..8 (rabbits cannot be bought)")
        if self.s.piles[v - 4] == 0:
            raise Refused("pile %d is empty" % v)
        # T42-BUY-1: the winner's card value minus the loser's makes the cost
        n = VALUE[action[PLAYERS[w]]] - VALUE[action[PLAYERS[1 - w]]]
        n = buy_cost(v, n)
        self.pay(w, v, n)

    def pay(self, w, v, n):
        # the winner pays n tarts to the supply for the top card of pile v
        player = self.s.players[w]
        if player.tarts < n:
            raise Refused("pile %d costs %d tarts, %s has %d" % (v, n, PLAYERS[w], player.tarts))
        player.tarts -= n
        self.s.supply_tarts += n
        self.s.piles[v - 4] -= 1
        player.discard.append(PILE_CARD[v])
        self.check_piles()

    def watch(self, w, action):
        # T42-WATCH-1: the winner's hourglasses move the hand, whose space is played
        h = self.hourglasses(w, action)
        wp = action.get("watch")
        if h == 0:
            if wp:
                raise Refused("watch parameters given but no hourglass spent")
            return
        s = self.s
        s.players[w].hourglasses -= h
        s.supply_hourglasses += h
        s.watch = landing(s.watch, h)
        if wp is None:
            wp = {}
            if self.probe:
                action["watch"] = wp
        self.what = "watch " + SPACES[s.watch]
        self.space(w, wp)

    def hourglasses(self, w, action):
        held = self.s.players[w].hourglasses
        if "hourglasses" in action:
            v = action["hourglasses"]
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise Refused("hourglasses (what the winner spends) must be a whole number 0 or more, not %s"
                              % _shown(v))
            if v > held:
                if not held:
                    raise Refused("hourglasses: %s wins the round and has no hourglass to spend" % PLAYERS[w])
                raise Refused("hourglasses: %s wins the round and has %d to spend, not %d" % (PLAYERS[w], held, v))
            return v
        if not self.probe:
            return 0
        if not held:
            # T42-INPUT-1: none to spend, nothing to ask; the line records the 0
            action["hourglasses"] = 0
            return 0
        # (0, held) is never a single answer; watch: where the hand stands
        # before any is spent
        raise Need(action, "hourglasses", w, (0, held), PLAYERS[w] + " hourglasses", self.s.watch)

    # -- token movements ----------------------------------------------
    def take(self, p, n, token):
        # T42-TAKE-1: p takes n tokens ("tarts" or "hourglasses") from the
        # supply, and what the supply lacks from the opponent, as far as they
        # have any.
        s = self.s
        k = _give(s, _SUPPLY[token], n)
        k = _give(s.players[1 - p], token, n - k) + k
        _give(s.players[p], token, -k)

    def gain_destroyed(self, p, params, card):
        # T42-DESTROY-1: p destroyed card and gains the stars printed on it (asked)
        what = self.what
        self.what += " " + card
        n = self.stars(params, p, MAX_PRINTED_STARS, what, "the stars printed on the destroyed " + card)
        player = self.s.players[p]
        player.stars += n
        player.destroyed.append(card)

    def check_piles(self):
        # T42-END-1
        s = self.s
        if s.end is None and s.piles.count(0) >= 4:
            s.end = "piles"

    def reshuffle(self, p):
        # T42-SHUF-1, T42-END-2
        s = self.s
        player = s.players[p]
        if s.supply_rabbits > 0:
            s.supply_rabbits -= 1
            player.discard.append("rabbit")
        elif s.end is None:
            s.end = "rabbits"
        player.reshuffle()

    def ensure_draw(self, p):
        # T42-SHUF-2, T42-SHUF-5: returns False if the player has no card at all
        player = self.s.players[p]
        if not player.draw:
            self.reshuffle(p)
        return bool(player.draw)

    def reveal(self, p, params, n):
        # Turn n cards of p's draw pile onto the discard pile: 3 (_GUARDS,
        # the opponent's, who reshuffles at once, T42-SHUF-3) or 2 (the reveal
        # space). The cards are the list params["cards"], asked one at a time
        # in probe mode. Returns how many were revealed (fewer than n only when
        # p has no card left).
        if params.get("cards") is None:
            if not self.probe:
                raise Refused("%s: missing cards" % self.what)
            params["cards"] = []
        elif not isinstance(params["cards"], list):
            raise Refused("%s: cards must be a list" % self.what)
        i = 0
        while i < n and self.ensure_draw(p):
            if i == len(params["cards"]):
                if not self.probe:
                    raise Refused("%s: %d cards needed" % (self.what, n))
                self.ask_reveal(p, params, _NTH[n][i])  # appends the answer, or raises Need
            self.reveal_card(p, params["cards"][i], _NTH[n][i])
            i += 1
            if n == _GUARDS and not self.s.players[p].draw:
                self.reshuffle(p)
        if len(params["cards"]) > i:
            raise Refused("%s: only %d cards could be revealed" % (self.what, i))
        return i

    def ask_reveal(self, p, params, end):
        # the next card p reveals; end (" 2/3") ends the question's label
        what = self.what
        self.what = what + end
        draw = self.s.players[p].draw
        self.ask(params, "cards", p, _kinds(draw), draw)
        self.what = what

    def reveal_card(self, p, card, end):
        player = self.s.players[p]
        if not isinstance(card, str) or card not in VALUE:
            raise Refused("%s: unknown card %r" % (self.what + end, card))
        if player.draw.get(card, 0) <= 0:
            raise Refused("%s: %s is not in %s's draw pile" % (self.what + end, card, PLAYERS[p]))
        player.take_from_draw(card)
        player.discard.append(card)

    # -- effects ------------------------------------------------------
    def effect(self, p, card, params, base=()):
        # Apply card's effect for player p (T5), labelled self.what. params
        # is a dict; base names keys of params that belong to an enclosing
        # cat.
        if not isinstance(params, dict):
            raise Refused("%s: parameters must be an object" % self.what)
        if card == "cat":
            self.cat(p, params)  # T42-CARD-1
            return
        if card not in _EFFECT_KEYS:
            raise Refused("unknown card %r" % card)
        _check_keys(params, base, _EFFECT_KEYS[card], self.what)
        if card == "dormouse":
            self.take(p, 2, "tarts")  # T42-CARD-2
        elif card == "knave":
            self.take(p, 3, "tarts")  # T42-CARD-5
        elif card == "caterpillar":
            self.take(p, 2, "hourglasses")  # T42-CARD-6
        elif card == "alice":
            self.take(p, 1, "hourglasses")  # T42-CARD-8
        elif card == "king":
            self.king(p, params)  # T42-CARD-7
        elif card == "guards":
            # T42-CARD-3: the opponent reveals 3, effects not applied
            self.reveal(1 - p, params, _GUARDS)
        elif card == "executioner":
            self.executioner(p, params)  # T42-CARD-4
        else:
            self.destroy_pile(p, params)  # T42-CARD-9

    def cat(self, p, params):
        # T42-CARD-1: the hand moves to the space the player picks, which is played
        spaces = SPACES
        if self.depth >= MAX_CHAIN and self.s.players[1 - p].discard:
            # copy would go past the chain limit (T42-COPY-3)
            spaces = ("stars", "destroy", "reveal", "flamingo")
        what = self.what
        self.what = what + ": space"
        sp = self.get(params, "space", p, spaces)
        self.what = what
        if sp not in SPACES:
            raise Refused("%s: unknown space %r" % (self.what, sp))
        self.s.watch = SPACES.index(sp)
        self.what += " > " + sp
        self.space(p, params, ("space",))  # the cat's own key is not the space's

    def king(self, p, params):
        t = self.get(params, "take", p, ("flamingo", "tarts"))
        if t == "flamingo":
            self.s.flamingo = p
        elif t == "tarts":
            self.take(p, 2, "tarts")
        else:
            raise Refused('%s: take must be "flamingo" or "tarts"' % self.what)

    def executioner(self, p, params):
        # T42-CARD-4, T42-SHUF-2, T42-DESTROY-2: a card of the opponent's draw pile
        q = 1 - p
        if not self.ensure_draw(q):
            return
        opp = self.s.players[q]
        c = self.card(params, q, opp.draw)
        opp.take_from_draw(c)
        if c == "queen":
            if "stars" in params:
                raise Refused("%s: the queen is not destroyed, no stars" % self.what)
            opp.discard.append(c)
        else:
            self.gain_destroyed(p, params, c)

    def destroy_pile(self, p, params):
        # T42-CARD-9: the top card of a score-board pile
        open_piles = _open_piles(self.s.piles)
        if not open_piles:
            if "pile" in params or "stars" in params:
                raise Refused("%s: every pile is empty" % self.what)
            return
        v = self.get(params, "pile", p, open_piles)
        if not isinstance(v, int) or v not in open_piles:
            raise Refused("%s: pile %r is empty or unknown" % (self.what, v))
        self.s.piles[v - 4] -= 1
        self.gain_destroyed(p, params, PILE_CARD[v])
        self.check_piles()

    # -- the watch's spaces (named after them) -------------------------
    def space(self, p, params, base=()):
        # Apply the watch space under the hand for player p (T42-SPACE-*),
        # labelled self.what.
        if not isinstance(params, dict):
            raise Refused("%s: parameters must be an object" % self.what)
        sp = self.s.watch
        if sp == 0:
            _check_keys(params, base, (), self.what)
            self.s.players[p].stars += 2  # T42-SPACE-1
        elif sp == 1:
            _check_keys(params, base, ("card", "stars"), self.what)
            self.destroy(p, params)
        elif sp == 2:
            _check_keys(params, base, ("cards", "stars"), self.what)
            self.reveal_space(p, params)
        elif sp == 3:
            _check_keys(params, base, (), self.what)
            self.s.flamingo = p  # T42-SPACE-4
        else:
            self.copy(p, params, base)

    def destroy(self, p, params):
        # T42-SPACE-2, T42-DESTROY-2: a card of the own discard pile
        options = destroyable(self.s.players[p])
        if not options:
            if "card" in params or "stars" in params:
                raise Refused("%s: nothing in the discard pile can be destroyed" % self.what)
            return
        discard = self.s.players[p].discard
        c = self.card(params, p, options, discard)
        # the topmost c goes (remove() takes the first one)
        discard.reverse()
        discard.remove(c)
        discard.reverse()
        self.gain_destroyed(p, params, c)

    def reveal_space(self, p, params):
        # T42-SPACE-3: stars for the cards revealed
        got = self.reveal(p, params, 2)
        if got == 0:
            if params.get("stars", 0) != 0:
                raise Refused("%s: no card was revealed, no stars" % self.what)
            return
        n = self.stars(params, p, MAX_PRINTED_STARS * got, self.what, _REVEALED_STARS[got])
        self.s.players[p].stars += n

    def copy(self, p, params, base):
        # T42-COPY-1..4: the effect of the top card of the opponent's discard pile
        top = self.s.players[1 - p].discard
        if not top:
            _check_keys(params, base, (), self.what)
            return  # T42-COPY-2
        self.depth += 1
        if self.depth > MAX_CHAIN:
            raise Refused("%s: copy chain deeper than %d" % (self.what, MAX_CHAIN))
        self.what += " " + top[-1]
        if self.declined(p, params, base):
            pass  # T42-COPY-4: nothing happens
        elif top[-1] == "cat" and "space" in base:
            # a cat copied from inside a cat's parameters: its own parameters
            # are nested under "then" (T42-COPY-3)
            _check_keys(params, base, ("then",), self.what)
            if params.get("then") is None:
                if not self.probe:
                    raise Refused("%s: missing then" % self.what)
                params["then"] = {}
            self.effect(p, "cat", params["then"])
        else:
            self.effect(p, top[-1], params, base)
        # the depth is that of one chain: the watch's chain after an
        # effect's chain starts again from 0
        self.depth -= 1

    def declined(self, p, params, base):
        # T42-COPY-4: {"decline": true} in the copy space's parameters: the
        # copied effect is not applied. The watch's copy of a cat shares its
        # parameters with the cat (no "then"): there a "space" says the cat
        # was applied, and a decline next to it is that of the copy the
        # cat moved to. A probe given the count of copies applied asks
        # about every copy beyond it (ASK_COPY).
        if "decline" in params and (
            "space" in base or "space" not in params or self.s.players[1 - p].discard[-1] != "cat"
        ):
            if params["decline"] is not True:
                raise Refused("%s: decline must be true" % self.what)
            _check_keys(params, base, ("decline",), self.what)
            return True
        if self.copies is not None:
            self.met += 1
            if self.met > self.copies:
                raise Need(params, "decline", p, (False, True), self.what)
        return False


# -- helpers of _Round -----------------------------------------------------------
def _check_keys(params, base, allowed, what):
    # T5: a step's parameters are its own keys (and the enclosing cat's, base)
    for k in params:
        if k not in allowed and k not in base:
            raise Refused("%s: unexpected parameter %s" % (what, k))


def _checked_card(c, options, what):
    if type(c) is not str or c not in options:
        if isinstance(c, str) and c in VALUE:
            raise Refused("%s: %s is not possible here" % (what, c))
        raise Refused("%s: unknown card %r" % (what, c))
    return c


def _play_card(player, c, p):
    # T42-ROUND-1: the card revealed leaves the draw pile for the discard pile
    if player.draw.get(c, 0) <= 0:
        raise Refused("%s has no %s in the draw pile" % (PLAYERS[p], c))
    player.take_from_draw(c)
    player.discard.append(c)


def _give(o, token, n):
    # o (a player, or the state for its supply) gives up to n tokens and says
    # how many; n < 0: o receives -n
    have = getattr(o, token)
    if n > have:
        n = have
    setattr(o, token, have - n)
    return n


def _open_piles(piles):
    # the values of the non-empty score-board piles
    out = []
    for v in PILES:
        if piles[v - 4]:
            out.append(v)
    return tuple(out)


_SUPPLY = {"tarts": "supply_tarts", "hourglasses": "supply_hourglasses"}


_EFFECT_KEYS = {
    "cat": ("space",),
    "rabbit": ("pile", "stars"),
    "queen": ("pile", "stars"),
    "dormouse": (),
    "knave": (),
    "caterpillar": (),
    "alice": (),
    "king": ("take",),
    "guards": ("cards",),
    "executioner": ("card", "stars"),
}
_ROUND_KEYS = ("blue", "pink", "effect", "buy", "hourglasses", "watch")
_REVEALS = ("blue reveals", "pink reveals")
_NTH = {2: (" 1/2", " 2/2"), 3: (" 1/3", " 2/3", " 3/3")}  # label ends, per card revealed


def destroyable(player):
    """T42-SPACE-2: any card of the own discard pile but the queen"""
    discard = player.discard
    out = []
    for c in CARDS:
        if c != "queen" and c in discard:
            out.append(c)
    return tuple(out)


def buy_options(s, points):
    """[(pile value, tart cost)] for the non-empty piles (T42-BUY-2 costs)."""
    out = []
    for v in PILES:
        if s.piles[v - 4]:
            out.append((v, buy_cost(v, points)))
    return out


def apply(s, action, probe=False, fills=None, ask_action=False):
    """Return the new state after action; raise Refused (or Need when probing).

    The given state is never modified (T42-INPUT-3). probe=True: missing
    answers raise Need; fills (a list):
    answers with a single possibility are filled in, not asked (see
    _Round.ask); ask_action: stop with an ASK_ACTION Need once both cards are
    known if the line has no action yet."""
    return _play(_Round(s, probe, fills, ask_action), s, action)


def _play(r, s, action):
    # apply() by the round r. The checks that only read come
    # first: a probe that asks for a revealed card costs no copy of the state.
    if not isinstance(action, dict):
        raise Refused("a line must be a JSON object")
    if "adjust" in action:
        if len(action) != 1:
            raise Refused("an adjustment line holds only adjust")
        n = s.copy()
        _adjust(n, action["adjust"])
        return n
    r.s = s  # only read by check_line()
    r.check_line(action)
    n = s.copy()
    r.s = n
    _play_card(n.players[0], action["blue"], 0)
    _play_card(n.players[1], action["pink"], 1)
    w = round_winner(n.flamingo, action["blue"], action["pink"])  # T42-ROUND-2
    # T42-ROUND-3: the winner's action, an effect or a buy (or nothing)
    if "effect" in action:
        if "buy" in action:
            raise Refused("a round has one action: effect or buy, not both")
        r.what = PLAYERS[w] + " " + action[PLAYERS[w]]
        r.effect(w, action[PLAYERS[w]], action["effect"])
    elif "buy" in action:
        r.buy(w, action)
    r.watch(w, action)
    # T42-SHUF-4: end-of-round reshuffles, the winner first
    if not n.players[w].draw:
        r.reshuffle(w)
    if not n.players[1 - w].draw:
        r.reshuffle(1 - w)
    n.round += 1
    n.last = (action["blue"], action["pink"], w)
    if n.end is not None:
        n.over = True  # T42-END-3
    return n


# A round told step by step (ui.t42.history, the history's sentences and
# the report's): a subclass of the round whose step methods (effect,
# space, copy, take...) note what each did, played by play(r, s, action)
# (apply() with the round r made by the caller, never probe mode).
Round = _Round
play = _play


def _adjust(n, adj):
    # T42-INPUT-2
    if not isinstance(adj, dict) or not adj:
        raise Refused("adjust must be a non-empty object")
    for k in adj:
        if k not in ("blue", "pink", "flamingo", "watch"):
            raise Refused("adjust: unknown key %s" % k)
    for p in (0, 1):
        d = adj.get(PLAYERS[p])
        if d is None:
            continue
        if not isinstance(d, dict):
            raise Refused("adjust: %s must be an object" % PLAYERS[p])
        me = n.players[p]
        for k in d:
            v = d[k]
            if not isinstance(v, int) or isinstance(v, bool):
                raise Refused("adjust: %s %s must be a whole number" % (PLAYERS[p], k))
            if k == "stars":
                if me.stars + v < 0:
                    raise Refused("adjust: %s has only %d stars" % (PLAYERS[p], me.stars))
                if v > 0 and me.stars + v > MAX_STARS:  # T42-INPUT-4
                    raise Refused("adjust: %s can have at most %d stars" % (PLAYERS[p], MAX_STARS))
                me.stars += v
            elif k == "tarts" or k == "hourglasses":
                # tokens move between the player and the supply
                have = getattr(me, k)
                if have + v < 0:
                    raise Refused("adjust: %s has only %d %s" % (PLAYERS[p], have, k))
                supply = "supply_" + k
                left = getattr(n, supply)
                if left - v < 0:
                    raise Refused("adjust: the supply has only %d %s" % (left, k))
                setattr(me, k, have + v)
                setattr(n, supply, left - v)
            else:
                raise Refused("adjust: %s: unknown key %s" % (PLAYERS[p], k))
    if "flamingo" in adj:
        n.flamingo = _player_index(adj["flamingo"], "adjust: flamingo")
    if "watch" in adj:
        if adj["watch"] not in SPACES:
            raise Refused("adjust: unknown watch space %r" % adj["watch"])
        n.watch = SPACES.index(adj["watch"])


_PILE_KEY = ("4", "5", "6", "7", "8")  # the objectives' keys, as in the setup line


def score(s):
    """Final scoring as if the game ended now (T42-SCORE-1..8)."""
    fl = s.flamingo
    blue, pink = s.players
    tb = blue.stars
    tp = pink.stars
    objs = {}
    piles = s.piles
    for v in PILES:
        if piles[v - 4]:
            continue
        o = s.objectives[v]
        if o == "hourglasses":
            gb, gp = 2 * blue.hourglasses, 2 * pink.hourglasses
        elif o == "tarts":
            gb, gp = blue.tarts, pink.tarts
        else:
            if o == "deck":
                a, b = blue.deck_size(), pink.deck_size()
            elif o == "destroyed":
                a, b = len(blue.destroyed), len(pink.destroyed)
            else:
                c = o[5:]
                a, b = blue.count(c), pink.count(c)
            # T42-SCORE-7
            if a > b or (a == b and fl == 0):
                gb, gp = v, 0
            else:
                gb, gp = 0, v
        tb += gb
        tp += gp
        objs[_PILE_KEY[v - 4]] = {"blue": gb, "pink": gp, "objective": o}
    if tb != tp:
        w = 0 if tb > tp else 1
    else:
        w = fl
    return {"blue": tb, "pink": tp, "winner": PLAYERS[w], "objectives": objs}


def to_json(s):
    """The state as plain data (the `teatally replay` output)."""
    out = {
        "round": s.round,
        "over": s.over,
        "end": s.end,
        "flamingo": PLAYERS[s.flamingo],
        "watch": SPACES[s.watch],
        "piles": {str(v): s.piles[v - 4] for v in PILES},
        "objectives": {str(v): s.objectives[v] for v in PILES},
        "supply": {"tarts": s.supply_tarts, "hourglasses": s.supply_hourglasses, "rabbits": s.supply_rabbits},
        "final": score(s) if s.over else None,
    }
    for p in (0, 1):
        me = s.players[p]
        draw = []
        for c in CARDS:
            draw.extend([c] * me.draw.get(c, 0))
        out[PLAYERS[p]] = {
            "stars": me.stars,
            "teacups": teacups(me.stars),
            "track": track(me.stars),
            "tarts": me.tarts,
            "hourglasses": me.hourglasses,
            "destroyed": len(me.destroyed),
            "destroyed_cards": list(me.destroyed),
            "deck": me.deck(),
            "draw": draw,
            "discard": list(me.discard),
        }
    return out


CHECKPOINT = const(8)


class Game:
    """A game: setup + the list of applied actions, with undo and redo.

    The action list is the truth. It is held compactly (Actions), and so are
    the snapshots of the state kept every CHECKPOINT actions (_pack): a
    60-round game takes ~3.6 KB instead of ~12 KB (memory budget
    heap_live_peak_bytes: with the lines kept as dicts 115,120 B > 112 KB).
    The state before the last action is kept whole, so undoing one step is
    O(1); undoing to any point replays at most CHECKPOINT - 1 actions from
    a snapshot, and that replay leaves the state before its target at hand
    for the next undo."""

    __slots__ = ("setup", "actions", "redo_stack", "state", "_snaps", "_prev")

    def __init__(self, setup):
        self.setup = setup
        self.actions = Actions()  # the applied actions (len, [i], iteration)
        self.redo_stack = []  # whole actions, the next redo last
        self.state = new_state(setup)
        self._snaps = [_pack(self.state)]
        self._prev = None

    def __len__(self):
        # the number of actions applied
        return len(self.actions)

    def apply(self, action, keep_redo=False):
        """Apply one line (a round or an adjustment) and return the new state;
        Refused leaves the game as it was. The redo stack is cleared unless
        keep_redo (redo itself)."""
        n = apply(self.state, action)
        self.actions.append(action)  # out of memory: raises, the game as it was
        self._prev = self.state
        self.state = n
        if len(self.actions) % CHECKPOINT == 0:
            self._snaps.append(_pack(n))
        if not keep_redo:
            self.redo_stack = []
        return n

    def can_undo(self):
        """Is there a line to undo?"""
        return len(self) > 0

    def can_redo(self):
        """Is there an undone line to redo?"""
        return bool(self.redo_stack)

    def undo(self):
        """Take the last line back (onto the redo stack); -> the state before it."""
        acts = self.actions
        k = len(acts)
        if not k:
            raise Refused("nothing to undo")
        if k % CHECKPOINT == 0:
            self._snaps.pop()
        self.redo_stack.append(acts.pop())
        s = self._prev
        self._prev = None
        self.state = s if s is not None else self._rebuild(k - 1)
        return self.state

    def redo(self):
        """Apply the last undone line again; -> the new state."""
        if not self.redo_stack:
            raise Refused("nothing to redo")
        return self.apply(self.redo_stack.pop(), True)

    def _rebuild(self, k):
        # the state after k actions; the one before it becomes _prev
        s, self._prev = self._replay(k)
        return s

    def state_at(self, k):
        """The state after the first k lines (0 <= k <= len(self)),
        replayed from the snapshot before it (at most CHECKPOINT - 1
        lines); the game is left as it was (the history's sentences)."""
        return self._replay(k)[0]

    def _replay(self, k):
        # (the state after k actions, the one before it: None at a snapshot)
        j = k // CHECKPOINT
        s = _unpack(self._snaps[j], self.state.objectives)
        prev = None
        acts = self.actions
        for i in range(j * CHECKPOINT, k):
            prev = s
            s = apply(s, acts[i])
        return s, prev

    def probe(self, action, fills=None, ask_action=False, copies=None):
        """Return None when the (partial) round is complete and legal, or the
        Need that asks for the next missing answer; raise Refused if it is
        impossible. fills, ask_action: see apply(). copies: None, or how
        many of the line's copies (in the order they are played) the
        players chose to apply; the next one is asked (ASK_COPY,
        T42-COPY-4) unless its parameters decline it."""
        try:
            _play(_Round(self.state, True, fills, ask_action, copies), self.state, action)
        except Need as need:
            return need
        return None


# -- compact storage of a game ------------------------------------------------
# An action is stored as bytes: a name the engine knows (card, space, player,
# key) is one byte, so is an int -40..135; a dict is _DICT, key/value pairs,
# _END; a list of names is _LIST, names, _END. A round line takes ~10 bytes
# instead of a ~75-byte dict. Anything else (a float, a falsy watch that is
# not a dict...) is kept as it is, in Actions.odd.
_WORDS = (
    CARDS
    + SPACES
    + PLAYERS
    + (
        "effect",
        "buy",
        "hourglasses",
        "watch",
        "adjust",
        "space",
        "take",
        "cards",
        "card",
        "stars",
        "pile",
        "then",
        "tarts",
        "decline",
    )
)
_CODE = {w: i for i, w in enumerate(_WORDS)}  # a name's byte
_INT = const(0x40)  # the ints start here; below, names (index in _WORDS)
_ZERO = const(0x68)  # _ZERO + n: the int n
_DICT = const(0xF0)
_LIST = const(0xF1)
_END = const(0xF2)
_TRUE = const(0xF3)  # true (a declined copy, T42-COPY-4)
TAG_ADJUSTS = const(0xFF)  # Actions.tags
_NO_CARD = const(0xE)


class Actions:
    """A game's action list, compact: reads like a list of (fresh) dicts,
    len(acts), acts[i], for a in acts; grows and shrinks at the end only.
    tags: one byte a line (_tag), what the history shows of the lines it
    draws (ui.t42.history) without decoding them."""

    __slots__ = ("buf", "ends", "odd", "tags")

    def __init__(self):
        self.buf = bytearray()
        self.ends = array("I")  # where each action's bytes end in buf
        self.odd = {}  # {index: action} for the rare action kept as it is
        self.tags = bytearray()  # a line's _tag

    def __len__(self):
        return len(self.ends)

    def append(self, action):
        """Store one more line (encoded, see _enc) and its tag."""
        b = bytearray()
        k = len(self.ends)
        try:
            _enc(action, b)
        except (TypeError, KeyError):  # not names and small ints
            self.odd[k] = action
            b = b""
        buf = self.buf
        n = len(buf)
        buf.extend(b)
        try:
            self.tags.append(_tag(action))
            self.ends.append(len(buf))
        except BaseException:  # out of memory: the list stays as it was
            buf[n:] = b""
            self.tags[k:] = b""
            self.odd.pop(k, None)
            raise

    def pop(self):
        """Remove and return the last line."""
        a = self[-1]
        k = len(self.ends) - 1
        self.buf[self.ends[k - 1] if k else 0 :] = b""
        self.ends[k:] = array("I")
        self.tags[k:] = b""
        self.odd.pop(k, None)
        return a

    def __getitem__(self, i):
        ends = self.ends
        if i < 0:
            i += len(ends)
            if i < 0:
                raise IndexError
        if i in self.odd:
            return self.odd[i]
        it = iter(self.buf[ends[i - 1] if i else 0 : ends[i]])
        return _dec(next(it), it)


def _tag(a):
    # a line's tag: TAG_ADJUSTS for an adjustment, else blue's card * 16 +
    # pink's (its index in CARDS, _NO_CARD for none: a line may hold
    # anything, `in` compares, unhashable too)
    if type(a) is not dict:
        return _NO_CARD * 17
    if "adjust" in a:
        return TAG_ADJUSTS
    c = a.get("blue")
    a = a.get("pink")
    return (CARDS.index(c) if c in CARDS else _NO_CARD) * 16 + (CARDS.index(a) if a in CARDS else _NO_CARD)


def _enc(o, out):
    # a dict (names as keys) or a list of names; TypeError or KeyError
    # (not a name) for anything else
    if type(o) is list:
        out.append(_LIST)
        for v in o:
            out.append(_CODE[v])
    elif type(o) is dict:
        out.append(_DICT)
        for k in o:
            out.append(_CODE[k])
            v = o[k]
            if type(v) is str:
                out.append(_CODE[v])
            elif v is True:
                out.append(_TRUE)
            elif type(v) is int and _INT - _ZERO <= v < _DICT - _ZERO:
                out.append(_ZERO + v)
            else:
                _enc(v, out)
    else:
        raise TypeError
    out.append(_END)


def _dec(b, it):
    # the dict or list that starts with the marker b
    if b == _LIST:
        names = []
        b = next(it)
        while b != _END:
            names.append(_WORDS[b])
            b = next(it)
        return names
    d = {}
    b = next(it)
    while b != _END:
        v = next(it)
        if v < _INT:
            v = _WORDS[v]
        elif v < _DICT:
            v -= _ZERO
        elif v == _TRUE:
            v = True
        else:
            v = _dec(v, it)
        d[_WORDS[b]] = v
        b = next(it)
    return d


# A snapshot is (round, blue stars, pink stars, bytes): ~100 bytes, a State
# is ~600. The bytes: the fields, then per player the tarts,
# hourglasses, the sizes of the draw (distinct cards), destroyed and discard
# piles, then the draw's cards and counts, the destroyed and discard cards
# (index in CARDS). Every count there is bounded by the game's tokens and
# cards, so it fits a byte.
_ENDS = (None, "piles", "rabbits")
_NOLAST = const(0xFF)
_CARD_OF = dict(enumerate(CARDS))


def _pack(s):
    last = s.last
    out = bytearray((s.flamingo, s.watch, s.supply_tarts, s.supply_hourglasses, s.supply_rabbits))
    out.append(_ENDS.index(s.end))
    out.append(1 if s.over else 0)
    out.extend(bytes(s.piles))
    if last is None:
        out.append(_NOLAST)
    else:
        out.extend(bytes((CARDS.index(last[0]), CARDS.index(last[1]), last[2])))
    for p in s.players:
        d = p.draw
        out.extend(bytes((p.tarts, p.hourglasses, len(d), len(p.destroyed), len(p.discard))))
        out.extend(bytes(map(CARDS.index, d)))
        out.extend(bytes(d.values()))  # in the order of the keys
        out.extend(bytes(map(CARDS.index, p.destroyed)))
        out.extend(bytes(map(CARDS.index, p.discard)))
    return (s.round, s.players[0].stars, s.players[1].stars, out)


def _unpack(snap, objectives):
    card = _CARD_OF.get
    s = State()
    s.round, stars0, stars1, b = snap
    s.flamingo = b[0]
    s.watch = b[1]
    s.supply_tarts = b[2]
    s.supply_hourglasses = b[3]
    s.supply_rabbits = b[4]
    s.end = _ENDS[b[5]]
    s.over = b[6] == 1
    s.piles = list(b[7:12])
    if b[12] == _NOLAST:
        s.last = None
        i = 13
    else:
        s.last = (card(b[12]), card(b[13]), b[14])
        i = 15
    s.objectives = objectives
    s.players = [Player(stars0, 0, 0, [], {}, []), Player(stars1, 0, 0, [], {}, [])]
    for p in s.players:
        p.tarts = b[i]
        p.hourglasses = b[i + 1]
        nd = b[i + 2]
        nx = b[i + 3]
        nc = b[i + 4]
        i += 5
        k = i + nd
        p.draw.update(zip(map(card, b[i:k]), b[k : k + nd]))  # noqa: B905 (MicroPython: no strict=)
        i = k + nd
        p.destroyed.extend(map(card, b[i : i + nx]))
        i += nx
        p.discard.extend(map(card, b[i : i + nc]))
        i += nc
    return s
