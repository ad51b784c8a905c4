"""Record -> key presses: how a table would enter a Tea for 2 record on the device.

A driver presses keys on the real App (CPython, pure-Python framebuf) until
each screen shows the answer the record holds: the home menu's "New Tea for
2", the setup questions, then for every round line OK on the status board and
the guided questions (ui.t42.round tags each question screen with its Round,
whose ``need`` says what the engine asks and where the answer goes; the
winner's action when ``need`` is None), the notices after a round (OK), and at
the end OK on the final scoring screen to archive the game. Menus and pickers
wrap, so the cursor takes the short way round. Adjustment lines go through the
game menu's Adjust screen.

The presses come out as tokens of the simulator's key scripts (``up down ok
back``, upper case = long press) grouped per record line, so the bench can
count presses per round and ``teatally sim --keys`` can replay the file:

    # setup
    ok down ok ...
    # line 1: blue dormouse, pink knave
    ok ...
    # end
    ok

The same approach (written independently) drives tests/test_ui_t42.py's
full-game test; this module is the shared host helper.
"""

import tempfile

from teatally_host import pyframebuf

TOKENS = {"up": 0, "down": 1, "ok": 2, "back": 3}
# the keypad board's own keys (teatally.buttons: K_D0 + d; hw.keypad.K_STAR, K_HASH)
for _d in range(10):
    TOKENS[str(_d)] = 4 + _d
TOKENS["star"] = 14
TOKENS["hash"] = 15
SETUP = 0
END = -1


def find_path(d, target, path=()):
    """Keys leading from the draft d to the dict target (by identity), or None."""
    if d is target:
        return path
    for k in d:
        v = d[k]
        if isinstance(v, dict):
            p = find_path(v, target, path + (k,))
            if p is not None:
                return p
    return None


class Driver:
    """Presses keys on a CPython App; remembers (token, record line) pairs."""

    def __init__(self, flash):
        pyframebuf.install()
        self.flash = flash
        self.line = SETUP
        self.presses = []  # (token, record line: 0 setup, N round line, -1 end)
        self.boot()

    def boot(self):
        """Start the device on the flash (again: a power cut)."""
        from teatally.app import App
        from teatally.hw.virtual import VirtualHardware

        self.app = App(VirtualHardware(self.flash))
        self.app.boot()
        self.app.step()  # the loop's first pass: the boot's screen, then its flash work (a mend's)

    def top(self):
        return self.app.ui.top()

    def press(self, tok, n=1):
        from teatally.buttons import E_LONG, E_PRESS

        code = TOKENS[tok.lower()]
        for _ in range(n):
            self.app.key((E_LONG if tok.isupper() else E_PRESS) | code)
            self.presses.append((tok, self.line))

    def choose(self, value):
        """Move the cursor (menu) or the value (picker) to value, then OK."""
        from teatally.ui.core import Picker

        t = self.top()
        if isinstance(t, Picker):
            span = t.hi - t.lo + 1
            d = (value - t.value) % span
            if d <= span - d:
                self.press("up", d)
            else:
                self.press("down", span - d)
        else:
            values = [it[1] for it in t.items]
            if value not in values:
                raise ValueError("%r is not offered on %r (%r)" % (value, t.title, values))
            n = len(values)
            d = (values.index(value) - t.sel) % n
            if d <= n - d:
                self.press("down", d)
            else:
                self.press("up", n - d)
        self.press("ok")

    # -- what the record says ---------------------------------------------------
    def setup(self, setup):
        self.line = SETUP
        self.choose("new")  # the home menu (ui.home)
        self.choose(setup["flamingo"])
        self.choose(setup["watch"])
        for v in (4, 5, 6, 7, 8):
            self.choose(setup["objectives"][str(v)])
        from teatally import words

        if self.top().title != words.t("new.title"):  # (in the device's language)
            raise AssertionError("expected the setup summary, got %r" % self.top().title)
        self.press("ok")

    def adjust(self, adj):
        self.press("back")  # status board -> game menu
        self.choose("adjust")
        self.adjust_answers(adj)

    def adjust_answers(self, adj):
        """The adjustment adj entered on the Adjust screen at hand."""
        if "flamingo" in adj:
            self.choose("flamingo")
            self.choose(adj["flamingo"])
        elif "watch" in adj:
            self.choose("watch")
            self.choose(adj["watch"])
        else:
            who = "blue" if "blue" in adj else "pink"
            ((field, delta),) = adj[who].items()
            self.choose((0 if who == "blue" else 1, field))
            self.choose(delta)

    def round(self, rec):
        self.opening(rec)  # the status board: the round's first question
        while hasattr(self.top(), "round"):
            r = self.top().round
            if not self.detour(r):
                self.choose(answer(r, rec))
        self.notice()

    def opening(self, rec):
        """On the status board: OK takes the first question's card selected
        first (the board shows it), UP/DOWN begin the round moving off it."""
        from teatally.ui.t42 import round as ui_round

        q = ui_round.first_question(self.app)
        if q is None:
            self.press("ok")  # the board only opens the round
            return
        need, values, sel = q  # sel: the card selected first
        target = rec[need.key]  # a round's first question: a revealed card (the draft's own)
        n = len(values)
        d = (values.index(target) - sel) % n
        if d == 0:
            self.press("ok")
        elif d <= n - d:
            self.press("down", d)
        else:
            self.press("up", n - d)

    def detour(self, r):
        """Hook: press something else on the round's question r first
        (True: the question may have changed); the bench presses nothing."""
        return False

    def notice(self):
        # what to do on the table (reshuffle, rabbit, game end): read, OK
        if type(self.top()).__name__ == "Message":
            self.press("ok")

    def finish(self):
        """The final scoring screen: OK archives the game."""
        self.line = END
        if self.app.game is not None and self.app.game.state.over:
            self.press("ok")

    def play(self, objs, archive=True):
        self.setup(objs[0])
        for i in range(1, len(objs)):
            self.line = i
            a = objs[i]
            if "adjust" in a:
                self.adjust(a["adjust"])
            else:
                self.round(a)
        if archive:
            self.finish()
        return self.presses


class KeypadDriver(Driver):
    """The same table on the keypad board (issue 31): every answer with a
    key (ui.core.keyed: a card by its value, a pile, a number ...) by that
    key alone, a number picker by its digits (then "*" for a minus and OK
    where one digit does not answer), the rest by cursor as on the 4-key
    board (its up/down/ok/back are the keypad's A-D)."""

    def boot(self):
        from teatally.app import App
        from teatally.hw.virtual import VirtualHardware

        self.app = App(VirtualHardware(self.flash, "keypad"))
        self.app.boot()

    def choose(self, value):
        from teatally.ui import core, keypad

        t = self.top()
        if isinstance(t, core.Picker):
            if keypad.one_key(t.lo, t.hi):
                self.press(str(value))
                return
            for ch in str(abs(value)):
                self.press(ch)
            if value and self.top() is t and t.value == -value:
                self.press("star")  # the sign
            if self.top() is t:
                if t.value != value:
                    raise ValueError("typed %r on %r, the picker shows %r" % (value, t.title, t.value))
                self.press("ok")
            return
        keys = getattr(t, "keys", None)
        if keys is not None:
            values = [it[1] for it in t.items]
            if value in values:
                b = keypad.key_shown(keys[values.index(value)])
                if b >= 0:
                    self.press(key_token(b))
                    return
        Driver.choose(self, value)

    def opening(self, rec):
        from teatally.rules import t42
        from teatally.ui import keypad
        from teatally.ui.t42 import round as ui_round

        q = ui_round.first_question(self.app)
        if q is None:
            self.press("ok")  # the board only opens the round
            return
        need, values = q[0], q[1]
        masks = keypad.answer_keys(t42.ASK_CARD, [(None, v) for v in values])
        self.press(key_token(keypad.key_shown(masks[values.index(rec[need.key])])))


def key_token(b):
    """A key (ui.core.keyed: 0-9, ui.keypad.KEY_STAR, KEY_HASH) as its key-script token."""
    return str(b) if b <= 9 else "star" if b == 10 else "hash"


def answer(r, rec):
    """The record's answer to the question of the round r on screen (its
    Need, or the winner's action once the engine needs nothing more)."""
    if r.need is None:
        return action_answer(rec, [it[1] for it in r.app.ui.top().items])
    src = rec
    for k in find_path(r.draft, r.need.params):
        src = src.get(k, {})
    if r.need.kind == "copy":  # t42.ASK_COPY: declined, or applied (not in the line)
        return src.get("decline") is True
    if r.need.key not in src:
        # left out of the record: the engine's default (no hourglass spent)
        return DEFAULTS[r.need.key]
    target = src[r.need.key]
    if isinstance(target, list):
        target = target[len(r.need.params[r.need.key])]
    return target


def action_answer(rec, offered):
    """The winner's action in the round line rec as the action menu offers
    it (offered: its values): a buy, "none", or the effect, with its first
    choice when the menu offers that with it (ui.t42.round._effect_rows: the
    king's take, the queen's or a rabbit's pile, the cat's space); read as a
    mend reads a damaged line's (recover.hinted)."""
    from teatally import recover

    v = recover.hinted(rec, {}, None)
    return "effect" if type(v) is tuple and v not in offered else v


# What a record may leave out of a round line, and what the engine takes then.
DEFAULTS = {"hourglasses": 0}


def first_difference(got, objs):
    """None when the lines got (what the device recorded) are the game objs
    (the same setup, and line by line the same state: a record may leave
    out what the device writes, e.g. "hourglasses": 0), else why not."""
    from teatally.rules import t42

    if not got or got[0] != objs[0]:
        return "the setup differs"
    if len(got) != len(objs):
        return "device recorded %d lines, record has %d" % (len(got), len(objs))
    a, b = t42.Game(got[0]), t42.Game(objs[0])
    for i in range(1, len(objs)):
        try:
            sa, sb = a.apply(got[i]), b.apply(objs[i])
        except t42.Refused as exc:
            return "line %d: %s" % (i + 1, exc)
        if t42.to_json(sa) != t42.to_json(sb):
            return "line %d differs: device %s, record %s" % (i + 1, got[i], objs[i])
    return None


def presses_for(objs, archive=True, keypad=False):
    """[(token, record line)] entering objs on a fresh device (setup = 0,
    round lines 1.., the end = -1; keypad: on the keypad board). Raises if
    the device would not record exactly objs."""
    with tempfile.TemporaryDirectory(prefix="tt-keys-") as flash:
        drv = KeypadDriver(flash) if keypad else Driver(flash)
        drv.play(objs, archive)
        got = [drv.app.game.setup] + list(drv.app.game.actions) if drv.app.game is not None else None
        if archive:
            names = drv.app.journal.list_archives()
            if not names:
                raise AssertionError("the game was not archived")
            from teatally import journal

            with open(drv.app.journal.archive_path(names[-1]), "rb") as f:
                got = [o for _, o in journal.parse_record_lines(f.read())]
        why = first_difference(got, list(objs))
        if why is not None:
            raise AssertionError("the key presses recorded a different game: " + why)
        return drv.presses


def _describe(obj):
    if "adjust" in obj:
        return "adjust"
    out = "blue %s, pink %s" % (obj["blue"], obj["pink"])
    if "effect" in obj:
        out += ", effect"
    elif "buy" in obj:
        out += ", buy %d" % obj["buy"]
    return out


def to_text(presses, objs, title=""):
    """The key-script text: a comment block per record line, one token per press."""
    out = []
    if title:
        out.append("# %s" % title)
    out.append("# one token per press (teatally sim key-script format); '# line N' = record line N")
    current = None
    words = []

    def flush():
        if words:
            out.append(" ".join(words))
            del words[:]

    for tok, line in presses:
        if line != current:
            flush()
            current = line
            if line == SETUP:
                out.append("# setup: home menu, new game, flamingo, watch, objectives 4..8, start")
            elif line == END:
                out.append("# end: archive the finished game from the final scoring screen")
            else:
                out.append("# line %d: %s" % (line, _describe(objs[line])))
        words.append(tok)
    flush()
    return "\n".join(out) + "\n"


def parse(text):
    """Key-script text -> [(token, record line)], the inverse of to_text.
    Tokens: up down ok back (long: UP DOWN OK BACK); N*tok repeats."""
    out = []
    line = SETUP
    for raw in text.splitlines():
        body, _, comment = raw.partition("#")
        c = comment.strip()
        if c.startswith("line "):
            num = c[5:].split(":")[0].split()[0]
            if num.isdigit():
                line = int(num)
        elif c.startswith("setup"):
            line = SETUP
        elif c.startswith("end"):
            line = END
        for word in body.split():
            n = 1
            if "*" in word:
                a, word = word.split("*", 1)
                n = int(a)
            if word.lower() not in TOKENS or word not in (word.lower(), word.upper()):
                raise ValueError("not a key token: %r" % word)
            out.extend([(word, line)] * n)
    return out


def event(tok):
    """A token as the logical event app.App.key() takes (teatally.buttons).
    A long UP/DOWN is its LONG alone here; held on the device it sends a
    PRESS first (UP/DOWN step at the press). The Driver never writes one."""
    from teatally.buttons import E_LONG, E_PRESS

    return (E_LONG if tok.isupper() else E_PRESS) | TOKENS[tok.lower()]
