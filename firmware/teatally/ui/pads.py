# Score pads for Tea Time (TTM-*) and Tea Witches (TWI-*): the players count
# what they hold at the end and the device adds it up. Tea Time also keeps
# the round count and who holds Alice (she starts each round).
#
# The pad in progress lives in one small object (Pad) that is written to
# flash (pad.json, tmp + rename) after every confirmed entry, so a power cut
# mid-entry loses at most the number being set. Home -> "Resume pad" reloads
# it. The pad is deleted when the players leave the result with OK.

import json
import os

from teatally import jsonc, words
from teatally.rules import teatime
from teatally.rules import witches
from teatally.journal import PAD_FILE, write_file
from teatally.buttons import E_LONG, E_PRESS, K_BACK, K_D0, K_DOWN, K_OK, K_UP
from teatally.ui.core import (
    LINE,
    ROWS,
    W,
    Menu,
    Message,
    Screen,
    header,
    keyof,
    kind,
    text,
    width,
    wrap,
)


TEATIME = "teatime"
WITCHES = "witches"
# Tea Time result rows: short names in the TTM-SETUP-4 order, then Alice.
_TT_ROWS = ("Ha", "Ch", "WR", "Ca", "Qu", "MH", "Al")


class Pad:
    """One score pad: kind, players, the Tea Time rounds and the entries."""

    __slots__ = ("kind", "n", "round", "holder", "stage", "player", "field", "values", "_fields")

    def __init__(self, kind, n, holder=0):
        self.kind = kind
        self.n = n
        self.round = 1
        self.holder = holder  # Tea Time: who holds Alice (starts the round)
        self.stage = "rounds" if kind == TEATIME else "entry"
        self.player = 0
        self.field = 0
        # made once: the entry screen reads them on every key press
        self._fields = teatime.fields(n) if kind == TEATIME else witches.FIELDS
        self.values = [[0] * len(self._fields) for _ in range(n)]

    def fields(self):
        return self._fields

    def rounds(self):
        return teatime.setup(self.n)[0]

    def points(self, f, v):
        if self.kind == TEATIME:
            return teatime.field_points(self._fields[f][0], v)
        return witches.field_points(self._fields[f][0], v)

    def subtotal(self, p, upto):
        """Points of player p's fields 0..upto (a Tea Time column of 0 is
        worth 5, so the fields not reached yet are left out)."""
        t = 0
        while upto >= 0:
            t += self.points(upto, self.values[p][upto])
            upto -= 1
        return t

    def players(self):
        """The pad's entries in the form teatime/witches score() takes."""
        out = []
        keys = self.fields()
        for vals in self.values:
            if self.kind == TEATIME:
                out.append((vals[:6], vals[6] == 1))
            else:
                d = {}
                for f in range(len(keys)):
                    d[keys[f][0]] = vals[f]
                out.append(d)
        return out

    def to_obj(self):
        return {
            "kind": self.kind,
            "n": self.n,
            "round": self.round,
            "holder": self.holder,
            "stage": self.stage,
            "player": self.player,
            "field": self.field,
            "values": self.values,
        }


def _path(app):
    return app.hw.flash_root + "/" + PAD_FILE


def save(app, pad):
    # on every confirmed entry (atomic: tmp + rename), after the key's
    # screen (app.later)
    app.later(write_file, _path(app), jsonc.dumps(pad.to_obj()))


def forget(app):
    try:
        os.remove(_path(app))
    except OSError:
        pass


def _int_in(v, lo, hi):
    return type(v) is int and lo <= v <= hi


def load(app):
    """The saved pad, or None (absent or damaged: a damaged one is removed)."""
    try:
        with open(_path(app)) as f:
            d = json.loads(f.read())
    except OSError:
        return None
    except ValueError:
        d = None
    pad = _from_obj(d)
    if pad is None:
        forget(app)
    return pad


def _from_obj(d):
    if not isinstance(d, dict):
        return None
    k = d.get("kind")
    n = d.get("n")
    if k == TEATIME:
        lo = 2
    elif k == WITCHES:
        lo = 1
    else:
        return None
    if not _int_in(n, lo, 4):
        return None
    pad = Pad(k, n)
    fields = pad.fields()
    vals = d.get("values")
    if not isinstance(vals, list) or len(vals) != n:
        return None
    for p in range(n):
        row = vals[p]
        if not isinstance(row, list) or len(row) != len(fields):
            return None
        for f in range(len(fields)):
            if not _int_in(row[f], fields[f][2], fields[f][3]):
                return None
    stage = d.get("stage")
    if stage not in ("rounds", "entry", "result"):
        return None
    if not (
        _int_in(d.get("round"), 1, pad.rounds() if k == TEATIME else 1)
        and _int_in(d.get("holder"), 0, n - 1)
        and _int_in(d.get("player"), 0, n - 1)
        and _int_in(d.get("field"), 0, len(fields) - 1)
    ):
        return None
    pad.values = vals
    pad.stage = stage
    pad.round = d["round"]
    pad.holder = d["holder"]
    pad.player = d["player"]
    pad.field = d["field"]
    return pad


def _home(ui):
    ui.app.home()


# -- starting and resuming -------------------------------------------------------
def start_teatime(ui):
    items = [(words.n("n.players", 2), 2), (words.n("n.players", 3), 3), (words.n("n.players", 4), 4)]
    ui.push(Menu(words.t("home.teatime"), items, _teatime_players))


def _teatime_players(ui, n):
    app = ui.app
    # TTM-PLAY-1: a random player takes Alice at the start
    pad = Pad(TEATIME, n, app.hw.rand(n))
    save(app, pad)
    ui.replace(Rounds(pad))
    ui.push(Message(words.f("pad.setup", n), setup_lines(pad)))


def setup_lines(pad):
    rounds, rows, cols, removed = teatime.setup(pad.n)
    lines = [words.n("n.rounds", rounds), words.f("pad.grid", rows, cols)]
    if removed:
        lines.extend(wrap(words.f("pad.putback", removed)))
    else:
        lines.append(words.t("pad.all"))
    lines.extend(wrap(words.f("pad.alice", pad.holder + 1)))
    return lines


def start_witches(ui):
    items = [(words.n("n.players", i), i) for i in (1, 2, 3, 4)]
    ui.push(Menu(words.t("home.witches"), items, _witches_players, sel=1))


def _witches_players(ui, n):
    pad = Pad(WITCHES, n)
    save(ui.app, pad)
    ui.replace(Entry(pad))


def resume(ui):
    """Home -> "Resume pad": back to where the saved pad was left."""
    pad = load(ui.app)
    if pad is None:
        _home(ui)
        ui.push(Message(words.t("pad.title"), wrap(words.t("pad.unreadable"))))
        return
    if pad.stage == "rounds":
        ui.push(Rounds(pad))
    elif pad.stage == "entry":
        ui.push(Entry(pad))
    else:
        ui.push(Result(pad))


# -- Tea Time rounds ---------------------------------------------------------------
class Rounds(Screen):
    """Round r of R; OK when the grid is empty: who took Alice? She starts
    the next round (TTM-PLAY-1). DOWN skips to the scoring."""

    def __init__(self, pad):
        self.pad = pad
        self.title = words.f("pad.tt.title", pad.n)

    def key(self, ui, ev):
        if ev == (E_PRESS | K_OK):
            self._ask_alice(ui)
        elif ev == (E_PRESS | K_DOWN):
            self._to_entry(ui)
        elif ev == (E_PRESS | K_BACK):
            _home(ui)  # the pad stays saved: "Resume pad"
        elif ev == (E_PRESS | K_UP):
            ui.push(Message(words.f("pad.setup", self.pad.n), setup_lines(self.pad)))
        else:
            return
        ui.dirty = True

    def _ask_alice(self, ui):
        items = [(words.f("pad.player", i + 1), i) for i in range(self.pad.n)]
        ui.push(Menu(words.t("pad.who.alice"), items, self._alice, sel=self.pad.holder))

    def _alice(self, ui, who):
        pad = self.pad
        pad.holder = who
        ui.pop()
        if pad.round < pad.rounds():
            pad.round += 1
            save(ui.app, pad)
        else:
            self._to_entry(ui)

    def _to_entry(self, ui):
        pad = self.pad
        pad.stage = "entry"
        pad.player = 0
        pad.field = 0
        # the Alice field starts at what the rounds tracked (TTM-SCORE-2)
        for i in range(pad.n):
            pad.values[i][6] = 1 if i == pad.holder else 0
        save(ui.app, pad)
        ui.replace(Entry(pad))

    def draw(self, ui, fb):
        pad = self.pad
        header(fb, self.title)
        ui.gfx.big(fb, "%d/%d" % (pad.round, pad.rounds()), 4, 12, 3)
        text(fb, words.t("pad.round"), 84, 20)
        text(fb, words.f("pad.starts", pad.holder + 1), 0, 40)
        text(fb, words.k("pad.round.ok"), 0, 48)
        text(fb, words.k("pad.round.down"), 0, 56)


# -- entry ---------------------------------------------------------------------------
class Entry(Screen):
    """Walk the pad's fields player by player (TTM-PAD-1, TWI-PAD-1).

    UP/DOWN change the number (a tap wraps at the ends, a held key stops
    there); OK confirms and moves on; BACK goes one field back; LONG OK
    skips the rest of this player's fields (they keep their values)."""

    def __init__(self, pad):
        self.pad = pad
        self._fixed = None  # (player, field, title, position, range) last drawn
        self.entry = 0  # digits typed into this field (the keypad: ui.keypad.typed)

    def key(self, ui, ev):
        k = keyof(ev)
        if k >= K_D0 and kind(ev) == E_PRESS:
            self._typed(ui, k - K_D0)  # the keypad's digits
            return
        self.entry = 0
        if (k == K_UP or k == K_DOWN) and kind(ev) != 0:
            self._step(k == K_UP, kind(ev) != E_PRESS)
        elif ev == (E_PRESS | K_OK):
            self._confirm(ui)
        elif ev == (E_LONG | K_OK):
            self._next_player(ui)
        elif ev == (E_PRESS | K_BACK):
            if self._back(ui):
                return
        else:
            return
        ui.dirty = True

    def _typed(self, ui, b):
        # the keypad's digits: the number typed; when no digit more could
        # follow it, it is confirmed at once (ui.keypad.final), else by OK
        pad = self.pad
        field = pad.fields()[pad.field]
        from teatally.ui import keypad

        row = pad.values[pad.player]
        row[pad.field], self.entry = keypad.typed(row[pad.field], field[2], field[3], self.entry, b)
        ui.dirty = True
        if b <= 9 and self.entry and keypad.final(row[pad.field], field[2], field[3]):
            self.entry = 0
            self._confirm(ui)

    def _step(self, up, held):
        # one up or down; a tap wraps at the ends, a held key stops there
        pad = self.pad
        field = pad.fields()[pad.field]
        v = pad.values[pad.player][pad.field]
        if up:
            v = v + 1 if v < field[3] else v if held else field[2]
        else:
            v = v - 1 if v > field[2] else v if held else field[3]
        pad.values[pad.player][pad.field] = v

    def _confirm(self, ui):
        pad = self.pad
        if pad.field + 1 < len(pad.fields()):
            pad.field += 1
            save(ui.app, pad)
        else:
            self._next_player(ui)

    def _back(self, ui):
        # one field back; -> True when it left the pad (home)
        pad = self.pad
        if pad.field > 0:
            pad.field -= 1
        elif pad.player > 0:
            pad.player -= 1
            pad.field = len(pad.fields()) - 1
        else:
            _home(ui)  # saved: "Resume pad" comes back here
            return True
        save(ui.app, pad)
        return False

    def _next_player(self, ui):
        pad = self.pad
        if pad.player + 1 < pad.n:
            pad.player += 1
            pad.field = 0
            save(ui.app, pad)
            return
        finish(ui, pad)

    def draw(self, ui, fb):
        # drawn on every UP/DOWN: the texts that only change with the field
        # are made once per field, the total is formatted to bytes (see
        # ui.core: no search of the interned-string table)
        pad = self.pad
        fixed = self._fixed
        if fixed is None or fixed[0] != pad.player or fixed[1] != pad.field:
            fixed = self._fixed = self._fixed_texts()
        header(fb, fixed[2])
        self._draw_value(ui, fb)
        text(fb, fixed[3], 80, 12)
        text(fb, fixed[4], 80, 24)
        self._draw_total(fb)
        text(fb, words.k("pad.entry.keys"), 0, 56)

    def _draw_total(self, fb):
        pad = self.pad
        pad = words.f("pad.total", pad.subtotal(pad.player, pad.field))
        text(fb, pad, 0, 48)

    def _fixed_texts(self):
        # (player, field, title, "3/7", "0..9") of the field at hand
        pad = self.pad
        field = pad.fields()[pad.field]
        return (pad.player, pad.field, _field_title(pad, field), _position(pad), _range(field))

    def _draw_value(self, ui, fb):
        pad = self.pad
        ui.gfx.big(fb, str(pad.values[pad.player][pad.field]), 4, 12, 3)
        self._draw_describe(fb)

    def _draw_describe(self, fb):
        pad = self.pad
        key = pad.fields()[pad.field][0]
        text(fb, self.describe(key, pad.values[pad.player][pad.field]), 0, 40)

    def describe(self, key, v):
        if self.pad.kind == TEATIME:
            if key == "alice":
                return words.t("pad.alice.yes" if v else "pad.alice.no")
            return words.n("n.points", teatime.field_points(key, v))
        cat = witches.FIELD_CATEGORY[key]
        if not cat:
            return words.t("pad.tiebreak")  # TWI-TIE-2
        return words.f("pad.prestige", cat, self._prestige(cat))

    def _prestige(self, cat):
        # the category's prestige so far (H adds two fields)
        pts = 0
        i = len(self.pad.fields())
        while i:
            i -= 1
            pts += _field_prestige(self.pad, i, cat)
        return pts


def _field_title(pad, field):
    return words.f("pad.field", pad.player + 1, words.t(("tt." if pad.kind == TEATIME else "tw.") + field[0]))


def _position(pad):
    return words.f("pad.of", pad.field + 1, len(pad.fields()))


def _range(field):
    return words.f("pad.range", field[2], field[3])


def _field_prestige(pad, i, cat):
    key = pad.fields()[i][0]
    if witches.FIELD_CATEGORY[key] != cat:
        return 0
    return witches.field_points(key, pad.values[pad.player][i])


def finish(ui, pad):
    """All entered: check (TTM-VALID-1..3, TWI-VALID-*) and show the result;
    Tea Time totals no finished game has (TTM-VALID-4) are a warning first."""
    players = pad.players()
    try:
        if pad.kind == TEATIME:
            teatime.validate_counts(players)
        else:
            witches.validate(players)
    except ValueError as e:
        ui.push(Message(words.t("pad.check"), wrap(str(e))))
        return
    problem = teatime.totals_problem(players) if pad.kind == TEATIME else None
    if problem is not None:
        ui.push(Totals(pad, problem))
        return
    _to_result(ui, pad)


def _to_result(ui, pad):
    # the entries (top of the stack) give way to the result
    pad.stage = "result"
    save(ui.app, pad)
    ui.replace(Result(pad))


class Totals(Message):
    """TTM-VALID-4: the Tea Time totals say the game is not finished, or a
    count is wrong. OK scores them anyway (a game scored early); BACK goes
    back to the entries to correct a count."""

    def __init__(self, pad, problem):
        lines = wrap(problem)
        lines.append(words.k("pad.totals.ok"))
        lines.append(words.k("pad.totals.back"))
        Message.__init__(self, words.t("pad.totals.title"), lines)
        self.pad = pad

    def key(self, ui, ev):
        if ev == (E_PRESS | K_OK):
            ui.pop()
            _to_result(ui, self.pad)
            ui.dirty = True
        elif ev == (E_PRESS | K_BACK):
            ui.pop()
            ui.dirty = True
        else:
            Message.key(self, ui, ev)

    def draw(self, ui, fb):
        Message.draw(self, ui, fb)
        if self.top + ROWS - 1 < len(self.lines):
            ui.gfx.icon(fb, ui.gfx.ICON_DOWN, W - 8, 7 * LINE, 1)  # more below: OK / BACK


# -- result ----------------------------------------------------------------------------
def ranking(totals, win, alice=-1):
    """Lines "1. P2  45 *": by total, equal totals share a rank unless a
    tie-break parted them (the tie-break winner listed first, ranked
    above the rest: issue 30); * = winner, A = the Alice holder."""
    order = list(range(len(totals)))
    order.sort(key=lambda i: (-totals[i], 0 if i in win else 1, i))
    lines = []
    rank = 0
    for pos in range(len(order)):
        i = order[pos]
        prev = order[pos - 1]
        if pos == 0 or totals[i] != totals[prev] or (prev in win) != (i in win):
            rank = pos + 1
        mark = (" *" if i in win else "") + (" A" if i == alice else "")
        lines.append("%d. P%d %3d%s" % (rank, i + 1, totals[i], mark))
    return lines


def _names(idx):
    return " ".join([words.f("pad.player", i + 1) for i in idx])


def teatime_result(pad):
    """(text lines, table rows) for a Tea Time pad (TTM-SCORE-*, TTM-WIN-*)."""
    players = pad.players()
    totals = teatime.score(players)
    win = teatime.winners(players, totals)
    lines = ranking(totals, win, teatime.alice_holder(players))
    lines.append(words.f("pad.winner" if len(win) == 1 else "pad.winners", _names(win)))
    if len(win) > 1:
        lines.append(words.t("pad.tie.shared"))  # TTM-WIN-2
    lines.append(words.t("pad.legend.marks"))
    rows = [("", [words.f("pad.player", i + 1) for i in range(pad.n)])]
    for f in range(7):
        rows.append((_TT_ROWS[f], ["%d" % pad.points(f, pad.values[i][f]) for i in range(pad.n)]))
    rows.append(("=", ["%d" % t for t in totals]))
    rows.extend(words.t("pad.tt.legend").split("|"))
    return lines, rows


def witches_result(pad):
    """(text lines, table rows) for a Tea Witches pad (TWI-TOTAL-1, TWI-WIN-1, TWI-TIE-*)."""
    players = pad.players()
    scores = [witches.score(p) for p in players]
    totals = [s["total"] for s in scores]
    win = witches.winners(players, scores)
    lines = ranking(totals, win)
    lines.append(words.f("pad.winner" if len(win) == 1 else "pad.winners", _names(win)))
    best = max(totals)
    tied = [i for i in range(pad.n) if totals[i] == best]
    if len(tied) > 1:
        if len(win) > 1:
            lines.append(words.t("pad.tie.shared"))
        else:
            top_coupons = max([players[i]["coupons"] for i in tied])
            n_top = len([i for i in tied if players[i]["coupons"] == top_coupons])
            lines.append(words.t("pad.tie.coupons" if n_top == 1 else "pad.tie.track"))
    lines.append(words.t("pad.legend.mark"))
    rows = [("", [words.f("pad.player", i + 1) for i in range(pad.n)])]
    for c in witches.CATEGORIES:
        rows.append((c, ["%d" % s[c] for s in scores]))
    rows.append(("=", ["%d" % t for t in totals]))
    rows.append(("Tr", ["%d" % p["loyal_track"] for p in players]))
    rows.extend(words.t("pad.tw.legend").split("|"))
    return lines, rows


class Result(Screen):
    """Ranking, winners and the per-row breakdown in a scrolling table.
    OK: done (the pad is deleted); BACK: back to the entries to fix one."""

    def __init__(self, pad):
        self.pad = pad
        self.top = 0
        if pad.kind == TEATIME:
            self.title = words.t("pad.tt.result")
            lines, rows = teatime_result(pad)
        else:
            self.title = words.t("pad.tw.result")
            lines, rows = witches_result(pad)
        self.rows = lines + rows + [words.k("pad.result.keys")]

    def key(self, ui, ev):
        k = keyof(ev)
        visible = ROWS - 1
        if k == K_DOWN and kind(ev) != 0:
            if self.top + visible < len(self.rows):
                self.top += 1
        elif k == K_UP and kind(ev) != 0:
            if self.top > 0:
                self.top -= 1
        elif ev == (E_PRESS | K_OK):
            forget(ui.app)
            _home(ui)
            return
        elif ev == (E_PRESS | K_BACK):
            pad = self.pad
            pad.stage = "entry"
            pad.player = pad.n - 1
            pad.field = len(pad.fields()) - 1
            save(ui.app, pad)
            ui.replace(Entry(pad))
        else:
            return
        ui.dirty = True

    def draw(self, ui, fb):
        header(fb, self.title)
        self._draw_rows(fb)
        if len(self.rows) > ROWS - 1:
            fb.vline(W - 1, LINE + (ROWS - 1) * LINE * self.top // len(self.rows), LINE * 2, 1)

    def _draw_rows(self, fb):
        i = self.top
        while i < len(self.rows) and i < self.top + ROWS - 1:
            _result_row(fb, self.rows[i], LINE * (i - self.top + 1))
            i += 1


def _result_row(fb, row, y):
    # a text line, or a table row: label column 16 px, then up to four
    # 28 px columns, right-aligned
    if isinstance(row, str):
        text(fb, row, 0, y)
        return
    text(fb, row[0], 0, y)
    _result_cells(fb, row[1], y)


def _result_cells(fb, cells, y):
    j = len(cells)
    while j:
        j -= 1
        _cell(fb, cells[j], 44 + 28 * j, y)


def _cell(fb, label, right, y):
    text(fb, label, right - width(label), y)
