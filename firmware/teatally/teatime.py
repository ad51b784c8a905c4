"""Tea Time score pad: end-of-game scoring, winners and input checks.

Rules: seeds/tea-time.md (TTM-*). Pure logic, no I/O; runs on MicroPython and
CPython alike.

A player is ``(counts, has_alice)``: ``counts`` holds six ints, one column size
per character in the order of ``CHARACTERS``; ``has_alice`` is True or False.

    setup(n_players)          -> (rounds, grid_rows, grid_cols, removed_per_character)
    box_limit(n_players)      -> cards of one character in play (10, or 8 with 3 players)
    points_for_count(n)       -> points of one column of n cards
    player_score(counts, has_alice) -> int
    score(players)            -> [int per player]
    alice_holder(players)     -> index of the Alice holder (starts the next round)
    winners(players, scores)  -> [indices]: the top score; a tie is shared
    validate(players)         -> None, or ValueError with one clear line
    totals_problem(players)   -> None, or the line saying why no finished game has these totals
    take(held, taken)         -> signed column after taking cards (+ normal, - mirror)

Entry fields for the device's generic count-entry screen: ``fields(n_players)``
returns a tuple of ``(key, label, min, max)`` (label <= 12 ASCII chars), the six
characters then ``"alice"`` (0 or 1); ``FIELDS`` is the same for 2 or 4 players.
``field_points(key, value)`` is the points that one field is worth, to show next
to the number being entered. A screen collects the seven values and builds the
player as ``(values[:6], values[6] == 1)``.
"""

# TTM-SETUP-4: fixed order of the six characters everywhere.
CHARACTERS = ("hatter", "cheshire_cat", "white_rabbit", "caterpillar", "queen", "march_hare")
# Display labels (<= 10 ASCII chars, fits the 8x8 font beside a count).
LABELS = ("Hatter", "Cheshire", "W. Rabbit", "Caterpill.", "Queen", "March Hare")

BOX_PER_CHARACTER = 10
ALICE_BONUS = 4
# TTM-SCORE-1: points by column size 0..4; five or more score the last step.
_TABLE = (5, 1, 3, 6, 10)
_TOP = 15


def setup(n_players):
    """(rounds, grid_rows, grid_cols, removed_per_character); TTM-SETUP-1..3."""
    if n_players == 2:
        return (5, 3, 4, 0)
    if n_players == 3:
        return (3, 4, 4, 2)
    if n_players == 4:
        return (3, 4, 5, 0)
    raise ValueError("tea-time needs 2 to 4 players, got %d" % n_players)


def box_limit(n_players):
    return BOX_PER_CHARACTER - setup(n_players)[3]


def points_for_count(n):
    if n < 0:
        raise ValueError("a column cannot hold %d cards" % n)
    if n < 5:
        return _TABLE[n]
    return _TOP


def player_score(counts, has_alice):
    total = ALICE_BONUS if has_alice else 0
    for n in counts:
        total += points_for_count(n)
    return total


def score(players):
    return [player_score(p[0], p[1]) for p in players]


def alice_holder(players):
    for i, p in enumerate(players):
        if p[1]:
            return i
    return None


def winners(players, scores):
    # TTM-WIN-1, TTM-WIN-2: every player with the top score (players: for
    # the callers' symmetry with witches.winners; the rulebook has no
    # tie-break)
    best = max(scores)
    return [i for i, s in enumerate(scores) if s == best]


def take(held, taken):
    """Column after taking cards of one character (TTM-PLAY-2).

    Columns are signed: +n is n normal faces, -n is n mirror faces. Each card
    taken under the opposite face cancels one kept card, which is plain
    addition; abs() of the result is the column size that scores.
    """
    return held + taken


def _is_int(v):
    return type(v) is int  # bool is not int here, on both interpreters


def validate(players):
    """Raise ValueError (one line) unless ``players`` is a scoreable Tea Time
    end: the checks of validate_counts, then totals_problem (TTM-VALID-4)."""
    validate_counts(players)
    problem = totals_problem(players)
    if problem is not None:
        raise ValueError(problem)


def totals_problem(players):
    """TTM-VALID-4: None, or one line naming the first character whose total
    over all players no finished game can have. Every card of the box is
    collected by the end and cancelled cards leave in pairs, so the total is
    the box count (10, or 8 with 3 players) minus an even number. The
    players are checked (validate_counts) before."""
    limit = box_limit(len(players))
    for k in range(6):
        total = 0
        for p in players:
            total += p[0][k]
        if total % 2:
            return (
                "%s: the players hold %d in all, an odd number; a finished game leaves the box's %d "
                "less cancelled pairs" % (CHARACTERS[k], total, limit)
            )
    return None


def validate_counts(players):
    """Raise ValueError (one line) unless ``players`` could be scored: the
    shape, the counts within the box, one Alice holder (TTM-VALID-1..3)."""
    if not isinstance(players, (list, tuple)):
        raise ValueError("players must be a list")
    n = len(players)
    if n < 2 or n > 4:
        raise ValueError("tea-time needs 2 to 4 players, got %d" % n)
    limit = box_limit(n)
    totals = [0] * 6
    holders = []
    for i, p in enumerate(players):
        who = "player %d" % (i + 1)
        if not isinstance(p, (list, tuple)) or len(p) != 2:
            raise ValueError("%s: expected (counts, alice)" % who)
        counts, alice = p
        if not isinstance(counts, (list, tuple)) or len(counts) != 6:
            raise ValueError("%s: counts must be a list of 6 integers (%s)" % (who, ", ".join(CHARACTERS)))
        for k in range(6):
            c = counts[k]
            if not _is_int(c):
                raise ValueError("%s: %s count must be an integer, got %r" % (who, CHARACTERS[k], c))
            if c < 0:
                raise ValueError("%s: %s count %d is negative" % (who, CHARACTERS[k], c))
            if c > limit:
                raise ValueError(
                    "%s: %s count %d is more than the box holds (%d with %d players)"
                    % (who, CHARACTERS[k], c, limit, n)
                )
            totals[k] += c
        if alice is True:
            holders.append(i + 1)
        elif alice is not False:
            raise ValueError("%s: alice must be true or false, got %r" % (who, alice))
    for k in range(6):
        if totals[k] > limit:
            raise ValueError(
                "%s: players hold %d cards in total, the box holds %d with %d players"
                % (CHARACTERS[k], totals[k], limit, n)
            )
    if not holders:
        raise ValueError("no player holds Alice; exactly one must (the Alice card always ends with a player)")
    if len(holders) > 1:
        raise ValueError("more than one player holds Alice (players %s)" % ", ".join([str(h) for h in holders]))


# Entry-field descriptions: (key, label <= 12 chars, min, max).
def fields(n_players):
    top = box_limit(n_players)
    out = [(CHARACTERS[k], LABELS[k], 0, top) for k in range(6)]
    out.append(("alice", "Alice", 0, 1))
    return tuple(out)


FIELDS = fields(2)


def field_points(key, value):
    """Points one entry field is worth on its own (TTM-SCORE-1, TTM-SCORE-2)."""
    if key == "alice":
        return ALICE_BONUS if value else 0
    if key in CHARACTERS:
        return points_for_count(value)
    raise ValueError("unknown tea-time field %r" % (key,))
