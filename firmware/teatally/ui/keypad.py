"""The keypad board's screens (issue 31): what only a board with digit
keys needs, imported the first time it is needed (ui.core, ui.t42.round)
and never on the other boards (its bytecode would cost them heap).

- the keys by meaning of a round's answers (answer_keys);
- the key drawn beside an answer (row_key) and a number picker's keys
  (picker_keys);
- a number picker's typed digits (typed, final, picker_key), the score
  pads' too (ui.pads).

A key mask has bit d for the digit d, KEY_STAR for "*", KEY_HASH for "#"
(ui.core.keyed gives a PRESS's bit).
"""

from teatally.compat import const
from teatally.rules import t42

LINE = const(8)  # a text line's height (ui.core.LINE)

KEY_STAR = const(10)
KEY_HASH = const(11)
KEYCHARS = (b"0", b"1", b"2", b"3", b"4", b"5", b"6", b"7", b"8", b"9", b"*", b"#")


def key_shown(mask):
    """The key a screen shows for an answer with key mask (its highest
    bit), or -1 for none."""
    b = KEY_HASH
    while b >= 0 and not mask & (1 << b):
        b -= 1
    return b


def typed(value, lo, hi, entry, b):
    """A number picker's typed entry: key b (keyed) pressed with value on
    screen and entry digits typed so far (0: none yet) -> (value, entry).
    A digit appends while the number stays within lo..hi, else starts a new
    number; either keeps the sign shown when lo..hi allows it, else takes
    the other (with -12..5, "7" is -7 and "1 2" is -12); "*" turns the sign
    (when lo..hi allows it). A digit that gives no number in lo..hi leaves
    both as they were."""
    if b == KEY_STAR:
        return (-value, entry) if value and lo <= -value <= hi else (value, entry)
    if b > 9:
        return value, entry
    neg = value < 0 or (entry == 0 and hi < 0)
    if entry:
        v = (-value if value < 0 else value) * 10 + b
        if lo <= (-v if neg else v) <= hi:
            return (-v if neg else v), entry + 1
        if lo <= (v if neg else -v) <= hi:
            return (v if neg else -v), entry + 1
    if lo <= (-b if neg else b) <= hi:
        return (-b if neg else b), 1
    if lo <= (b if neg else -b) <= hi:
        return (b if neg else -b), 1
    return value, entry


def final(v, lo, hi):
    """Is v, just typed, the whole answer from lo..hi: no digit could
    follow it within the range (0 starts no number; a range with minus
    numbers always waits for OK, the sign may come)?"""
    return lo >= 0 and (v == 0 or v * 10 > hi)


def one_key(lo, hi):
    """Does one digit answer a number from lo..hi (no OK after it)?"""
    return 0 <= lo and hi <= 9


def menu_key(m, ui, b):
    """Key b (ui.core.keyed) on the menu m: the item it answers, picked at
    once (no OK follows); nothing for a key no item has."""
    keys = m.keys
    if keys is None:
        return
    i = 0
    while i < len(keys):
        if keys[i] & (1 << b):
            m.sel = i
            ui.dirty = True
            m.pick(ui, m.items[i][1])
            return
        i += 1


def row_key(fb, mask, y, selected, text):
    """The key of a menu row (its highest bit) in a block of its own at the
    row's left: lit, dark on the selected row's bar (text: ui.core.text)."""
    b = key_shown(mask)
    if b >= 0:
        c = 0 if selected else 1
        fb.fill_rect(0, y, 7, LINE, c)
        text(fb, KEYCHARS[b], 1, y, 1 - c)


def picker_keys(fb, lo, hi, text):
    """A number picker's keys at its right, under the range: "keys 0-5", or
    the digits, "*" for the sign and C (text: ui.core.text)."""
    from teatally import words

    if one_key(lo, hi):
        text(fb, words.f("keys.digit", lo, hi), 64, 24)
    else:
        text(fb, words.t("keys.signed" if lo < 0 else "keys.typed"), 64, 24)


def picker_key(p, ui, b):
    """Key b (ui.core.keyed) on the number picker p: a digit answers at once
    where it is the whole number (one_key, final), else it is typed."""
    if b <= 9 and one_key(p.lo, p.hi):
        if p.lo <= b <= p.hi:  # one key answers: no OK follows
            p.value = b
            ui.dirty = True
            p.done(ui, b)
        return
    p.value, p.entry = typed(p.value, p.lo, p.hi, p.entry, b)
    ui.dirty = True
    # (a digit refused leaves a number that was not final either)
    if b <= 9 and p.entry and final(p.value, p.lo, p.hi):
        p.done(ui, p.value)  # no digit more could follow: no OK


def answer_keys(kind, rows):
    """Direct entry (issue 31, the keypad board): each answer's key mask
    (ui.core.keyed), by what it means, never by its place in the list:

    - a card: its printed value; the cat and a rabbit both print 1: 1 is the
      one of them that can be there, and when both can, 1 is the cat and 0
      the rabbit (0 always answers a rabbit);
    - a pile: its value (4-8); a watch space: 1-5 clockwise from stars
      (t42.SPACES); the king's take: 1 the flamingo, 2 the tarts;
    - the winner's action: "#" the effect (the king's takes 1 and 2), a buy
      the pile's value, 0 nothing; a copy: "#" apply, 0 decline."""
    out = [0] * len(rows)
    cat = False
    if kind == t42.ASK_CARD:
        for r in rows:
            if r[1] == "cat":
                cat = True
    i = 0
    while i < len(rows):
        v = rows[i][1]
        m = 0
        if kind == t42.ASK_CARD:
            m = 1 if v == "rabbit" else 1 << t42.VALUE[v]
            if v == "rabbit" and not cat:
                m |= 2
        elif kind == t42.ASK_PILE:
            m = 1 << v
        elif kind == t42.ASK_SPACE:
            m = 2 << t42.SPACES.index(v)
        elif kind == t42.ASK_TAKE:
            m = 2 if v == "flamingo" else 4
        elif kind == t42.ASK_COPY:
            m = 1 if v else 1 << KEY_HASH
        elif kind == t42.ASK_ACTION:
            if type(v) is int:
                m = 1 << v
            elif v == "none":
                m = 1
            elif v == "effect":
                m = 1 << KEY_HASH
            elif v[0] == "take":
                m = 2 if v[1] == "flamingo" else 4
        out[i] = m
        i += 1
    return out
