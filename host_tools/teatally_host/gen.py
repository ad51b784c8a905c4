"""Random *legal* Tea for 2 games, for property tests, the benchmark and the
simulator demo.

The generator plays like a table of two players who pick at random: each
round it reveals a card drawn from each player's draw multiset, lets the
winner use the card's effect, buy an affordable card or do nothing, and then
answers every question the engine asks in probe mode (t42.Game.probe) with a
random option from the Need's own list. No rule is duplicated here: whatever
the engine asks is what gets answered, so the records are legal by
construction (a refused answer would be an engine bug and is raised).
Round lines keep every answer the probe asked for, "hourglasses": 0
included, exactly as the device's journal records them. With a decline_rate
the probe also asks, as it asks the device, whether each copied effect is
applied or declined (T42-COPY-4), and that share of them is declined
({"decline": true} in the copy space's parameters, at any depth of a
cat/copy chain); without one (the default, and the benchmark's records)
every copied effect is applied and the random draws are those of before.

Everything is drawn from one ``random.Random(seed)``: the same seed gives the
same record on every machine and Python version that keeps Random's
algorithm (CPython's Mersenne Twister with its seeding of ints is stable).

    objs = random_game(7)                 # [setup, round, round, ...] until game over
    objs = random_game(7, rounds=60)      # stop after 60 rounds at the latest
    objs = random_game(7, decline_rate=0.5)  # about half the copied effects declined
    write_record(objs, "game.jsonl", crc=True)
"""

import random

from teatally import journal, jsonc
from teatally.rules import t42

# How the random winner chooses its action (the rest: do nothing).
P_EFFECT = 0.55
P_BUY = 0.35
# Chance to spend hourglasses when holding some.
P_SPEND = 0.5
# "copies": players who like the copy space (a cat moves the hand there,
# hourglasses are spent when they land on it), for chains of copies.
P_COPY = 0.7
# "buyer": the dearest affordable buy this often (else any affordable one).
P_DEAREST = 0.6
# "watch": hourglasses are held until at least this many, then spent to land
# on the best space in reach (_WATCH_LIKES); sometimes kept anyway.
WATCH_HOARD = 2
P_WATCH_KEEP = 0.2
STYLES = ("random", "long", "copies", "buyer", "effects", "watch")


def random_setup(rng):
    """A setup line: random flamingo holder, watch space and 5 distinct objective faces."""
    faces = list(t42.OBJECTIVES)
    rng.shuffle(faces)
    return {
        "game": "tea-for-2",
        "flamingo": rng.choice(t42.PLAYERS),
        "watch": rng.choice(t42.SPACES),
        "objectives": {str(v): faces[i] for i, v in enumerate(t42.PILES)},
    }


def _pick_from_multiset(rng, counts):
    # A card as a shuffled pile would give it: weighted by its count.
    cards = [c for c in t42.CARDS if counts.get(c, 0) > 0]
    return rng.choices(cards, weights=[counts[c] for c in cards])[0]


def _printed_stars(rng, hi):
    # The digest leaves printed stars to the players (0..9 per card); real
    # cards print a few, so mostly small numbers, sometimes anything legal.
    if rng.random() < 0.1:
        return rng.randint(0, hi)
    n = max(1, hi // t42.MAX_PRINTED_STARS)
    return min(hi, sum(rng.randint(0, 3) for _ in range(n)))


def answer(rng, need):
    """A random legal answer to one Need, written where the engine wants it."""
    kind = need.kind
    if kind == t42.ASK_STARS:
        value = _printed_stars(rng, need.options[1])
    elif kind == t42.ASK_HOURGLASSES:
        held = need.options[1]
        value = rng.randint(1, held) if held and rng.random() < P_SPEND else 0
    else:  # card, pile, space, take: a choice among named options
        value = rng.choice(need.options)
    slot = need.params.get(need.key)
    if isinstance(slot, list):  # multi-card reveals (guards, reveal space)
        slot.append(value)
    else:
        need.params[need.key] = value


def _choose_action(rng, s, action, w, style):
    # Fills action with the winner's choice: "effect" (params left to the
    # probe), "buy", or nothing.
    cards = (action["blue"], action["pink"])
    points = t42.VALUE[cards[w]] - t42.VALUE[cards[1 - w]]
    tarts = s.players[w].tarts
    piles = [v for v, cost in t42.buy_options(s, points) if cost <= tarts]
    if style == "long":
        # Hoarders: buy whenever they can (decks grow, reshuffles come late),
        # keep the piles from running out, take tarts to afford more, and
        # never spend hourglasses (random_round answers 0).
        lasting = [v for v in piles if s.pile(v) > 1]
        if lasting or (piles and len(s.empty_piles()) < 3):
            action["buy"] = rng.choice(lasting or piles)
        elif cards[w] in ("dormouse", "knave"):
            action["effect"] = {}
        elif cards[w] == "king":
            action["effect"] = {"take": "tarts"}
        return
    if style in ("buyer", "effects", "watch"):
        _choose_styled(rng, action, cards[w], piles, style)
        return
    roll = rng.random()
    if style == "copies" and cards[w] == "cat":
        roll = 0.0  # always the cat: it may go to copy
    if roll < P_EFFECT:
        action["effect"] = {}
    elif roll < P_EFFECT + P_BUY and piles:
        action["buy"] = rng.choice(piles)


def _choose_styled(rng, action, card, piles, style):
    # "buyer": buys whenever a pile is affordable, else tarts (to afford
    # more) or nothing; "effects": always the card's effect; "watch": the
    # effects that give hourglasses, tarts from the king, now and then a buy
    if style == "buyer":
        if piles:
            action["buy"] = max(piles) if rng.random() < P_DEAREST else rng.choice(piles)
        elif card in ("dormouse", "knave"):
            action["effect"] = {}
        elif card == "king":
            action["effect"] = {"take": "tarts"}
    elif style == "effects":
        action["effect"] = {}
    elif card in ("caterpillar", "alice"):
        action["effect"] = {}
    elif card == "king":
        action["effect"] = {"take": "tarts"}
    elif piles and rng.random() < 0.3:
        action["buy"] = rng.choice(piles)
    elif rng.random() < 0.5:
        action["effect"] = {}


# "watch": how much a hoarder likes the hand to land on each space (copy: the
# opponent's card, valued at its worth)
_WATCH_LIKES = {"stars": 2.0, "destroy": 1.5, "reveal": 1.0, "flamingo": 0.5}


def _watch_spend(rng, need, action, w):
    # style "watch": the fewest hourglasses that land the hand on the best
    # space in reach, once enough are held (else none)
    held = need.options[1]
    if held < WATCH_HOARD or rng.random() < P_WATCH_KEEP:
        return 0
    best, spend = 1.4, 0  # below that, the hourglasses are kept
    for n in range(1, held + 1):
        sp = t42.SPACES[t42.landing(need.watch, n)]
        like = t42.VALUE[action[t42.PLAYERS[1 - w]]] / 4 if sp == "copy" else _WATCH_LIKES[sp]
        if like > best:
            best, spend = like, n
    return spend


def random_round(rng, game, style="random", decline_rate=0.0):
    """One complete, legal round line for the game's current state
    (decline_rate: the chance of declining each copied effect)."""
    s = game.state
    action = {}
    for p in (0, 1):
        action[t42.PLAYERS[p]] = _pick_from_multiset(rng, s.players[p].draw)
    w = t42.round_winner(s.flamingo, action["blue"], action["pink"])
    _choose_action(rng, s, action, w, style)
    if style == "long":
        action["hourglasses"] = 0
    applied = 0 if decline_rate else None  # copies applied so far (Game.probe)
    while True:
        need = game.probe(action, copies=applied)
        if need is None:
            return action
        if style == "copies" and _to_copy(rng, game, need, w):
            continue
        if style == "watch" and need.kind == t42.ASK_HOURGLASSES:
            need.params["hourglasses"] = _watch_spend(rng, need, action, w)
            continue
        if need.kind == t42.ASK_COPY:
            if rng.random() < decline_rate:
                need.params["decline"] = True
            else:
                applied += 1
            continue
        answer(rng, need)
        if need.kind == t42.ASK_TAKE and need.params is action.get("effect") and s.flamingo == w:
            if need.params["take"] == "flamingo":
                # the holder's king taking the flamingo does nothing, and the
                # action menu does not offer it (ui.t42.round): no effect
                del action["effect"]


def _to_copy(rng, game, need, w):
    # style "copies": a cat's space is copy, and the hourglasses are those
    # that land on copy, most of the time (True: answered)
    if rng.random() >= P_COPY:
        return False
    if need.kind == t42.ASK_SPACE and "copy" in need.options:
        need.params["space"] = "copy"
        return True
    if need.kind == t42.ASK_HOURGLASSES:
        n = (t42.SPACES.index("copy") - need.watch) % 5
        if 0 < n <= need.options[1]:
            need.params["hourglasses"] = n
            return True
    return False


def random_adjustment(rng, s):
    """One legal manual adjustment (T42-INPUT-2) for state s."""
    kind = rng.choice(("stars", "tarts", "hourglasses", "flamingo", "watch"))
    if kind == "flamingo":
        return {"adjust": {"flamingo": rng.choice(t42.PLAYERS)}}
    if kind == "watch":
        return {"adjust": {"watch": rng.choice(t42.SPACES)}}
    p = rng.randrange(2)
    me = s.players[p]
    if kind == "stars":
        delta = rng.randint(-min(me.stars, 3), 3)
    elif kind == "tarts":
        delta = rng.randint(-me.tarts, s.supply_tarts)
    else:
        delta = rng.randint(-me.hourglasses, s.supply_hourglasses)
    return {"adjust": {t42.PLAYERS[p]: {kind: delta}}}


def random_game(seed, rounds=None, adjust_rate=0.0, style="random", decline_rate=0.0):
    """Play a random legal game; return its record objects, setup first.

    seed: anything random.Random accepts; rounds: stop after that many rounds
    even if the game is not over (None: play until the game is over);
    adjust_rate: chance, before each round, of one random legal adjustment
    line (adjustment lines do not count as rounds); style: "random" (any
    legal choice; games last about 32..55 rounds), "long" (hoarding players
    whose games last about 53..65 rounds, for 60-round benchmark records),
    "copies" (random players who send the hand to copy whenever they can),
    "buyer" (buys whenever a pile is affordable), "effects" (always the
    effect) or "watch" (players who gather hourglasses and spend several at
    once to land the hand on the space they want);
    decline_rate: the chance of declining each copied effect (T42-COPY-4;
    0: never, and the probe is not asked about copies)."""
    if style not in STYLES:
        raise ValueError("style must be one of %s" % ", ".join(STYLES))
    rng = random.Random(seed)
    setup = random_setup(rng)
    game = t42.Game(setup)
    objs = [setup]
    while not game.state.over and (rounds is None or game.state.round < rounds):
        if adjust_rate and rng.random() < adjust_rate:
            adj = random_adjustment(rng, game.state)
            game.apply(adj)
            objs.append(adj)
        action = random_round(rng, game, style, decline_rate)
        game.apply(action)
        objs.append(action)
    return objs


def long_game(rounds=60, seed=0):
    """(seed, objs): the first "long" game from seed on (seed, seed + 1, ...)
    that lasts at least `rounds` rounds, cut after exactly that many."""
    while True:
        objs = random_game(seed, rounds, style="long")
        if len(objs) - 1 == rounds:
            return seed, objs
        seed += 1


def record_text(objs, crc=False):
    """The record as text: one canonical compact JSON line per object, as the
    device's journal writes them (with the journal's CRC when asked)."""
    out = []
    for o in objs:
        text = jsonc.dumps(o, True)
        out.append(journal.protect(text) if crc else text + "\n")
    return "".join(out)


def write_record(objs, path, crc=False):
    """Write the record objects to path as JSON Lines (UTF-8)."""
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(record_text(objs, crc))
