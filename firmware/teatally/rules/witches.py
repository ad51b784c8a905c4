"""Tea Witches score pad: prestige categories A..I, winners and input checks.

Rules: seeds/tea-witches.md (TWI-*). Pure logic, no I/O; runs on MicroPython
and CPython alike.

A player is a dict with the keys of ``KEYS`` (all ints >= 0):

    coins, teas, upgrades, coupons, loyal_witches, loyal_celebriteas,
    hex_wards, togo2, togo4, special_teas   -> categories A..I
    loyal_track                               -> tie-break only (TWI-TIE-2)

    score(player)            -> {"A": .., ..., "I": .., "total": ..}
    winners(players, scores) -> [indices]; ties: coupons, then loyal_track, then shared
    validate(players)        -> None, or ValueError with one clear line

Entry fields for the device's generic count-entry screen: ``FIELDS`` is a tuple
of ``(key, label, min, max)`` (label <= 12 ASCII chars, starting with the
category letter of the rulebook's list), in entry order A..I then the track.
``field_points(key, value)`` is the prestige that one field is worth on its own,
to show next to the number being entered (category H is the sum of the
``togo2`` and ``togo4`` fields; ``loyal_track`` shows 0). ``FIELD_CATEGORY``
maps each key to its letter ("" for the track). A screen collects the values
into a dict keyed by ``key`` and calls ``score``.
"""

CATEGORIES = ("A", "B", "C", "D", "E", "F", "G", "H", "I")

FIELDS = (
    ("coins", "A Coins", 0, 999),
    ("teas", "B Hut teas", 0, 99),
    ("upgrades", "C Upgrades", 0, 999),
    ("coupons", "D Coupons", 0, 35),  # the box holds 35 coupons
    ("loyal_witches", "E Witches", 0, 99),
    ("loyal_celebriteas", "F Celebri", 0, 99),
    ("hex_wards", "G Hex wards", 0, 3),  # three VIP windows, one ward each
    ("togo2", "H To-go 2", 0, 99),
    ("togo4", "H To-go 4", 0, 99),
    ("special_teas", "I Spec.teas", 0, 99),
    ("loyal_track", "Loyal track", 0, 99),
)
KEYS = tuple(f[0] for f in FIELDS)
FIELD_CATEGORY = {
    "coins": "A",
    "teas": "B",
    "upgrades": "C",
    "coupons": "D",
    "loyal_witches": "E",
    "loyal_celebriteas": "F",
    "hex_wards": "G",
    "togo2": "H",
    "togo4": "H",
    "special_teas": "I",
    "loyal_track": "",
}
# TWI-G-1: bought hex wards 0..3.
_WARDS = (0, 3, 6, 12)


def field_points(key, value):
    """Prestige that one entry field is worth on its own (TWI-A-1 .. TWI-I-1)."""
    if key == "coins" or key == "teas":
        return value // 2
    if key == "upgrades" or key == "coupons":
        return value
    if key == "loyal_witches":
        return 4 * value
    if key == "loyal_celebriteas":
        return 6 * value
    if key == "hex_wards":
        if value < 0 or value > 3:
            raise ValueError("hex_wards must be 0 to 3, got %d" % value)
        return _WARDS[value]
    if key == "togo2" or key == "special_teas":
        return 2 * value
    if key == "togo4":
        return 4 * value
    if key == "loyal_track":
        return 0
    raise ValueError("unknown tea-witches field %r" % (key,))


def score(player):
    out = {}
    total = 0
    for key in KEYS:
        cat = FIELD_CATEGORY[key]
        if not cat:
            continue
        pts = field_points(key, player[key])
        out[cat] = out.get(cat, 0) + pts
        total += pts
    out["total"] = total
    return out


def winners(players, scores):
    """Indices of the winners: most prestige, then coupons, then track (TWI-WIN-1, TWI-TIE-1..3)."""
    tied = list(range(len(players)))
    for get in (
        lambda i: scores[i]["total"],
        lambda i: players[i]["coupons"],
        lambda i: players[i]["loyal_track"],
    ):
        best = max([get(i) for i in tied])
        tied = [i for i in tied if get(i) == best]
        if len(tied) == 1:
            break
    return tied


def validate(players):
    """Raise ValueError (one line) unless ``players`` is a scoreable Tea Witches end."""
    if not isinstance(players, (list, tuple)):
        raise ValueError("players must be a list")
    n = len(players)
    if n < 1 or n > 4:
        raise ValueError("tea-witches needs 1 to 4 players, got %d" % n)
    for i, p in enumerate(players):
        who = "player %d" % (i + 1)
        if not isinstance(p, dict):
            raise ValueError("%s: expected an object with the score-pad counts" % who)
        for key, _label, lo, hi in FIELDS:
            if key not in p:
                raise ValueError("%s: missing %s" % (who, key))
            v = p[key]
            if type(v) is not int:  # bool is not int here, on both interpreters
                raise ValueError("%s: %s must be an integer, got %r" % (who, key, v))
            if v < lo:
                raise ValueError("%s: %s %d is negative" % (who, key, v))
            if v > hi:
                raise ValueError("%s: %s is %d, at most %d" % (who, key, v, hi))
        extra = sorted([k for k in p if k not in FIELD_CATEGORY])
        if extra:
            raise ValueError("%s: unknown field %s" % (who, extra[0]))
