"""The keypad board's screens (issue 31): what only a board with digit
keys needs, imported by the screens that ask on that board and never on
the other boards: its bytecode in the modules every board loads put the
bench's heap_live_peak_bytes over its budget (115,168 B > 114,688).

- KeyMenu and KeyPicker: ui.core's Menu and Picker that take the keys
  (the screens make them instead on the keypad board: on_keypad);
- the keys by meaning of a round's answers (answer_keys);
- the key drawn beside each answer, a number picker's keys under its range;
- a number picker's typed digits (typed, final), the score pads' too
  (ui.pads).

A key mask has bit d for the digit d, KEY_STAR for "*", KEY_HASH for "#"
(keyed gives a PRESS's bit).
"""

from teatally.buttons import E_PRESS, K_D0
from teatally.compat import const
from teatally.rules import t42
from teatally.ui import core, font
from teatally.ui.core import LINE, Menu, Picker, bar, text

KEY_STAR = const(10)
KEY_HASH = const(11)
KEYCHARS = (b"0", b"1", b"2", b"3", b"4", b"5", b"6", b"7", b"8", b"9", b"*", b"#")


def on_keypad(app):
    """Does the app run on the keypad board (its screens are these)?"""
    return app.keys.layout == "keypad"


def keyed(ev):
    """The keypad key pressed (ev a PRESS of a digit, "*" or "#") as its
    bit in a key mask (0-9, KEY_STAR, KEY_HASH), else -1."""
    k = ev & 0x0F
    if ev & 0xF0 == E_PRESS and k >= K_D0:
        return k - K_D0
    return -1


class KeyMenu(Menu):
    """A Menu whose items have keys (a key mask each): the key shown beside
    each label, and pressed, it picks its item at once (no OK follows)."""

    def __init__(self, title, items, pick, back=None, sel=0, hint=None, keys=None):
        Menu.__init__(self, title, items, pick, back, sel, hint)
        self.keys = keys

    def key(self, ui, ev):
        b = keyed(ev)
        if b < 0:
            Menu.key(self, ui, ev)
            return
        keys = self.keys
        i = 0
        while i < len(keys):
            if keys[i] & (1 << b):
                self.sel = i
                ui.dirty = True
                self.pick(ui, self.items[i][1])
                return
            i += 1

    def _rows(self, fb, end):
        # as Menu's, each label after its key (lit, dark on the selected
        # row's bar) from x = 9: 19 columns
        i = self.top
        y = LINE
        while i < end:
            c = 0 if i == self.sel else 1
            if not c:
                bar(fb, y)
            b = key_shown(self.keys[i])
            if b >= 0:
                fb.fill_rect(0, y, 7, LINE, c)
                text(fb, KEYCHARS[b], 1, y, 1 - c)
            label = self.items[i][0]
            if type(label) is str:
                label = label.encode()
            if 9 + font.draw(fb, label, 9, y, c) > core.W - 2 and len(core.OVERFLOWS) < 20:
                core.OVERFLOWS.append((label, 9, y))  # (clear of the scrollbar: never cut, a test reads it)
            y += LINE
            i += 1


class KeyPicker(Picker):
    """A Picker that takes digits (typed): where one digit is the whole
    number it answers at once, else C (OK) does; "*" turns the sign. Its
    keys are said under its range."""

    entry = 0  # digits typed so far

    def key(self, ui, ev):
        b = keyed(ev)
        if b < 0:
            self.entry = 0
            Picker.key(self, ui, ev)
            return
        if b <= 9 and one_key(self.lo, self.hi):
            if self.lo <= b <= self.hi:  # one key answers: no OK follows
                self.value = b
                ui.dirty = True
                self.done(ui, b)
            return
        self.value, self.entry = typed(self.value, self.lo, self.hi, self.entry, b)
        ui.dirty = True
        # (a digit refused leaves a number that was not final either)
        if b <= 9 and self.entry and final(self.value, self.lo, self.hi):
            self.done(ui, self.value)  # no digit more could follow: no OK

    def draw(self, ui, fb):
        from teatally import words

        Picker.draw(self, ui, fb)
        if one_key(self.lo, self.hi):
            text(fb, words.f("keys.digit", self.lo, self.hi), 64, 24)
        else:
            text(fb, words.k("keys.signed" if self.lo < 0 else "keys.typed"), 64, 24)


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


def answer_keys(kind, rows):
    """Direct entry (issue 31, the keypad board): each answer's key mask
    (keyed), by what it means, never by its place in the list:

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
