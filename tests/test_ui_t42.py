"""The Tea for 2 screens (ui_t42, ui_t42_round, ui_t42_new, ui_t42_more,
ui_t42_end) driven by key presses.

Every scenario runs the real App on VirtualHardware through ``dual``: CPython
(with the pure-Python framebuf) and the MicroPython VM must print the same
bytes, including a CRC of the frame buffer after each screen, so the pixels
match too. The guided round asks only what the engine's probe asks
(T42-INPUT-1); these tests check what the players see and that the key
presses produce exactly the record a scripted game gives.

The full-game test plays a record from host_tools gen.random_game: on the
host, a driver presses keys on a CPython App until each screen shows the
answer the record holds (with a few detours: BACK and answer again, undo +
redo, a power cut), and the scenario replays that key string on both
interpreters.
"""

import json
import random
import tempfile

from t42_support import DECLINE_SEEDS, decline_depths, playable

from teatally_host import gen, keyscript

# Scenario prelude: the App, a key-string runner and screen printers.
# Keys: u d o b = short press UP DOWN OK BACK; U D O B = long press;
# "!" = power cut (a new App on the same flash, booted). A digit after a key
# repeats it ("d3").
PRELUDE = r"""
import binascii
import json
from teatally import jsonc
from teatally.rules import t42
from teatally.ui.t42 import board as ui_t42
from teatally.ui.t42 import end as ui_t42_end
from teatally.ui.t42 import setup as ui_t42_new
from teatally.ui.t42 import round as ui_t42_round
from teatally.app import App
from teatally.buttons import E_LONG, E_PRESS, K_BACK, K_DOWN, K_OK, K_UP
from teatally.hw.virtual import VirtualHardware

KEYS = {'u': K_UP, 'd': K_DOWN, 'o': K_OK, 'b': K_BACK}
app = None
crc = 0

def boot():
    global app
    app = App(VirtualHardware(FLASH))
    app.boot()
    app.ui.draw(app.fb)

def fbhash():
    return '%08x' % (binascii.crc32(app.fb.buffer) & 0xffffffff)

def top():
    return app.ui.top()

def name():
    t = top()
    return '%s|%s' % (type(t).__name__, t.title)

def txt(x):
    # labels, hints and lines made on a press are bytes (no new str on the
    # device), e.g. the score table's lines (ui_t42_end.score_lines)
    return x if isinstance(x, str) else x.decode()

def show(tag):
    t = top()
    out = '%s %s %s' % (tag, name(), fbhash())
    items = getattr(t, 'items', None)
    if items is not None and not isinstance(t, ui_t42_end.Lines):
        out += ' sel=%d [%s]' % (t.sel, ', '.join([txt(it[0]) for it in items]))
        if t.hint:
            out += ' hint=' + txt(t.hint(items[t.sel][1]))
    elif hasattr(t, 'value'):
        out += ' value=%d %d..%d' % (t.value, t.lo, t.hi)
        if t.describe:
            out += ' / ' + ' / '.join([txt(x) for x in t.describe(t.value)])
    elif hasattr(t, 'lines'):
        out += ' [' + ' / '.join([txt(x) for x in t.lines]) + ']'
    if isinstance(t, ui_t42.Status) and t.toast:
        out += ' toast=' + ' '.join(t.toast)
    if getattr(t, 'note', None):
        out += ' note=' + ' / '.join([txt(x) for x in t.note])
    print(out)

def key(ch, is_long):
    global crc
    if ch == '!':
        boot()
    else:
        app.key((E_LONG if is_long else E_PRESS) | KEYS[ch.lower()])
    crc = binascii.crc32(app.fb.buffer, crc)

def keys(s):
    i = 0
    while i < len(s):
        ch = s[i]
        i += 1
        n = 0
        while i < len(s) and '0' <= s[i] <= '9':
            n = n * 10 + ord(s[i]) - 48
            i += 1
        for _ in range(n or 1):
            key(ch, 'A' <= ch <= 'Z')

def moves(d, n):
    # the shorter way round a wrapping list of n to d places below
    if d and d <= n - d:
        keys('d%d' % d)
    elif d:
        keys('u%d' % (n - d))

def pick(v):
    # the cursor (menu) or the value (picker) to v, then OK
    t = top()
    if hasattr(t, 'items'):
        vals = [it[1] for it in t.items]
        moves((vals.index(v) - t.sel) % len(vals), len(vals))
    else:
        moves((t.value - v) % (t.hi - t.lo + 1), t.hi - t.lo + 1)
    keys('o')

def board(card):
    # the status board: OK when it shows card, else UP/DOWN into the list
    need, listed, sel = ui_t42_round.first_question(app)
    d = (listed.index(card) - sel) % len(listed)
    if d:
        moves(d, len(listed))
        keys('o')
    else:
        keys('o')

def start(setup):
    boot()
    app.new_game(setup)
    ui_t42.show_game(app.ui, None)
    app.ui.draw(app.fb)

def journal_objs():
    # line by line (a whole journal in one string is a big block of heap)
    out = []
    f = open(FLASH + '/game.jsonl')
    for line in f:
        if line.strip():
            out.append(json.loads(line.split('\t')[0]))
    f.close()
    return out
"""

SETUP = {
    "game": "tea-for-2",
    "flamingo": "pink",
    "watch": "stars",
    "objectives": {"4": "tarts", "5": "deck", "6": "most:alice", "7": "hourglasses", "8": "destroyed"},
}


def _lines(out, prefix):
    return [line for line in out.splitlines() if line.startswith(prefix)]


def test_new_game_setup_by_keys(dual):
    """Setup questions (T42-SETUP-2..4): flamingo holder, watch start (here
    drawn at random), one objective per pile 4..8 (the cursor starts on the
    first face every time: screens that look the same start the same, issue
    30); BACK steps back a question; OK on the summary writes the setup
    line and shows the status board."""
    out = dual(
        PRELUDE
        + r"""
boot()
ui_t42_new.new_game(app.ui)
app.ui.draw(app.fb)
show('q1')
keys('b')                # BACK at the first question leaves the setup
show('left')
ui_t42_new.new_game(app.ui)
keys('d2o')              # flamingo: Random
show('q2')
keys('o')                # watch: Random (the first item)
show('q3')
keys('o')                # pile 4: hourglasses
show('q4')
keys('do')               # pile 5: tarts
keys('b')                # back to pile 5
show('back')
keys('d3o')              # pile 5: destroyed (three below the first face)
keys('do')               # pile 6: tarts
keys('d2o')              # pile 7: deck
show('q7')
keys('uo')               # pile 8: most alice (the last face, one up)
show('sum')
keys('o')
show('status')
print('setup', journal_objs()[0] == app.game.setup, len(journal_objs()))
s = app.game.setup
print('flamingo', s['flamingo'], 'watch', s['watch'])
print('objectives', ' '.join([s['objectives'][str(v)] for v in t42.PILES]))
""",
    )
    print(out)
    assert "q1 Menu|Who has the flamingo?" in out
    assert _lines(out, "left")[0].startswith("left Menu|Tea Tally")
    assert "q2 Menu|Watch hand starts on" in out
    assert "q3 Menu|Objective above 4 " in out
    assert "back Menu|Objective above 5 " in out and "sel=0" in _lines(out, "back")[0]
    assert "sel=0" in _lines(out, "q4")[0]
    summary = _lines(out, "sum")[0]
    assert "sum Lines|New game?" in summary and "OK: start the game" in summary and "*: drawn at random" in summary
    assert "status Status|" in out
    assert "setup True 1" in out
    objectives = _lines(out, "objectives")[0].split()[1:]
    assert objectives == ["hourglasses", "destroyed", "tarts", "deck", "most:alice"]
    assert "sel=0" in _lines(out, "q7")[0]
    fl = _lines(out, "flamingo")[0].split()
    assert fl[1] in ("blue", "pink") and fl[3] in ("stars", "destroy", "reveal", "flamingo", "copy")


def test_a_repeated_objective_face_is_confirmed_and_warned(dual):
    """T42-OBJ-2: picking a face already above a pile warns ("tarts is
    already above pile 4") and asks: BACK asks the pile again, OK takes the
    face; the summary warns again ("! tarts twice"), and the game starts
    with the repeat."""
    out = dual(
        PRELUDE
        + r"""
boot()
ui_t42_new.new_game(app.ui)
keys('oo')               # flamingo Blue, watch Random
keys('do')               # pile 4: tarts (one below the first face, hourglasses)
keys('o')                # pile 5: hourglasses (the first face)
keys('do')               # pile 6: tarts again
show('warn')
keys('b')                # pick again
show('again')
keys('do')               # tarts again
keys('o')                # OK: use it
show('q7')
keys('d2o')              # pile 7: deck
keys('d3o')              # pile 8: destroyed
show('sum')
keys('o')
print('objectives', ' '.join([app.game.setup['objectives'][str(v)] for v in t42.PILES]))
""",
    )
    warn = _lines(out, "warn")[0]
    assert warn.startswith("warn Lines|Repeated face")
    text = "tarts is already / above pile 4. Each / tile is placed once: / use it again?"
    assert "[%s / OK: use it / BACK: pick again]" % text in warn
    assert _lines(out, "again")[0].startswith("again Menu|Objective above 6 ") and "sel=0" in _lines(out, "again")[0]
    assert _lines(out, "q7")[0].startswith("q7 Menu|Objective above 7 ")
    summary = _lines(out, "sum")[0]
    assert "/ 6 tarts / 7 deck size / 8 destroyed / ! tarts twice / *: drawn at random / OK: start the game]" in summary
    assert _lines(out, "objectives")[0] == "objectives tarts hourglasses tarts deck destroyed"


# -- the host-side driver: record -> key presses ------------------------------------------
class Driver(keyscript.Driver):
    """keyscript's driver plus detours: BACK one question now and then, undo +
    redo of the last line, a power cut between rounds. Remembers the presses
    as a key string for the scenario ('!' = power cut)."""

    def __init__(self, flash, seed, detours=True):
        self.rng = random.Random(seed)
        self.detours = detours
        self.detoured = False
        self.start = 0
        self.notices = []
        self.round_presses = []  # presses per round without detours
        self.copy_questions = []  # (title, rows, bottom line of each row, answer) of every copy question
        keyscript.Driver.__init__(self, flash)

    def key_string(self):
        chars = ["!" if t == "!" else t[0].upper() if t.isupper() else t[0] for t, _ in self.presses]
        out = []
        i = 0
        while i < len(chars):
            j = i
            while j < len(chars) and chars[j] == chars[i]:
                j += 1
            out.append(chars[i] + (str(j - i) if j - i > 1 else ""))
            i = j
        return "".join(out)

    def round(self, rec):
        rng = self.rng
        self.rec = rec
        self.start = len(self.presses)
        self.detoured = False
        if self.detours and self.app.game.actions and rng.random() < 0.08:
            # undo the last line and redo it: the record must not change
            self.press("BACK")
            self.press("OK")
            self.detoured = True
        if self.detours and rng.random() < 0.04:
            self.boot()  # power cut between rounds
            self.presses.append(("!", self.line))
            self.detoured = True
        keyscript.Driver.round(self, rec)

    def detour(self, r):
        if r.need is not None and r.need.kind == "copy":
            t = self.top()
            hints = [t.hint(v) for _, v in t.items]
            self.copy_questions.append((t.title, [label for label, _ in t.items], hints, keyscript.answer(r, self.rec)))
        if not (self.detours and self.rng.random() < 0.06):
            return False
        # BACK one question (or out of the round), then carry on
        had = bool(r.answers)
        self.press("back")
        self.detoured = True
        if not had:
            self.opening(self.rec)  # out of the round: the board's question again
        return True

    def notice(self):
        if not self.detoured:
            self.round_presses.append(len(self.presses) - self.start)
        t = self.top()
        if type(t).__name__ == "Message":
            self.notices.append(" / ".join(t.lines))
        keyscript.Driver.notice(self)


def drive(objs, seed, detours=True):
    with tempfile.TemporaryDirectory() as d:
        drv = Driver(d, seed, detours)
        drv.setup(objs[0])
        for a in objs[1:]:
            if "adjust" in a:
                drv.adjust(a["adjust"])
            else:
                drv.round(a)
        final = drv.top()
        return drv, final


def test_driver_plays_generated_game_on_cpython():
    """The host driver alone (CPython): a generated game with adjustments,
    detours (BACK, undo + redo, power cut) ends over, with the same actions."""
    objs = playable(gen.random_game(3, adjust_rate=0.1))
    drv, final = drive(objs, 3)
    g = drv.app.game
    assert list(g.actions) == objs[1:]
    assert g.state.over
    assert " wins " in final.title  # the winner first
    print(drv.key_string())
    print(drv.notices)
    print(drv.round_presses, sum(drv.round_presses) / len(drv.round_presses))


def test_full_game_by_keys_matches_scripted_record(dual):
    """A generated game (gen.random_game, with adjustments) played by key
    presses only -- setup from the home menu, every round through the guided
    questions, detours with BACK, undo + redo (LONG BACK / LONG OK) and a
    power cut -- writes exactly the scripted record to the journal, ends on
    the final scoring screen (T42-END-3, T42-SCORE-8) and archives from it."""
    objs = playable(gen.random_game(3, adjust_rate=0.1))
    drv, final = drive(objs, 4)  # (a detour seed whose run has every kind of detour)
    assert " wins " in final.title  # the winner first
    assert "!" in drv.key_string() and "BO" in drv.key_string()
    same_record_by_keys(dual, objs, drv)


def test_a_game_declining_copies_by_keys(dual):
    """T42-COPY-4 T42-COPY-3: a generated game whose players send the hand to
    copy and decline a share of the copied effects, at depths 1 and 3 of a
    cat/copy chain, played by key presses (with detours): each copy is a
    question of its own, "Apply: <card>" (its bottom line says what the
    copy does) or "Decline" ("nothing happens"), and the journal holds
    exactly the record, {"decline": true} where it was declined, on both
    interpreters."""
    from teatally import words

    seed = DECLINE_SEEDS[1]
    objs = playable(gen.random_game(seed, style="copies", decline_rate=0.35))
    depths = {d for line in objs[1:] for d in decline_depths(line)}
    assert {1, 3} <= depths
    drv, final = drive(objs, seed)
    assert " wins " in final.title  # the winner first
    asked = drv.copy_questions
    assert any(q[3] for q in asked) and not all(q[3] for q in asked)
    for title, rows, hints, _ in asked:
        assert title in ("Blue copies", "Pink copies")
        assert rows[0].startswith("Apply: ") and rows[1] == "Decline"
        card = rows[0][len("Apply: ") :]
        assert hints[0] == words.t("effect." + card)
        assert hints[1] == "nothing happens"
    assert ("Blue copies", ["Apply: cat", "Decline"], ["hand to any space", "nothing happens"], True) in asked
    assert ("Blue copies", ["Apply: caterpillar", "Decline"], ["take 2 hourglasses", "nothing happens"], True) in asked
    same_record_by_keys(dual, objs, drv)


def same_record_by_keys(dual, objs, drv):
    """The driver's key string, replayed on both interpreters, writes exactly
    objs to the journal and ends on the final scoring screen; OK archives."""
    record = json.dumps(objs)
    out = dual(
        PRELUDE
        + "RECORD = %r\nSCRIPT = %r\n" % (record, drv.key_string())
        + r"""
objs = json.loads(RECORD)
boot()
show('home')
keys(SCRIPT)
show('end')
print('over', app.game.state.over, 'rounds', app.game.state.round)
print('actions', list(app.game.actions) == objs[1:])
print('journal', journal_objs() == objs)
sc = t42.score(app.game.state)
print('score', sc['blue'], sc['pink'], sc['winner'])
print('frames %08x' % crc)
keys('o')
show('archived')
print('archives', app.journal.list_archives(), app.game is None)
""",
    )
    expected = t42_replay(objs)
    assert "actions True" in out and "journal True" in out
    assert "over True rounds %d" % expected.round in out
    sc = t42_score(expected)
    assert "score %d %d %s" % (sc["blue"], sc["pink"], sc["winner"]) in out
    end = _lines(out, "end")[0]
    # the winner first: in the title with the winner's score first, and on
    # the first line (issue 30)
    w, o = (("Blue", "blue"), "pink") if sc["winner"] == "blue" else (("Pink", "pink"), "blue")
    assert end.startswith("end Lines|%s wins %d to %d" % (w[0], sc[w[1]], sc[o]))
    # the table next (a tie: the flamingo's word first)
    assert ("[" + " " * 12 + "Blue Pink") in end or "[%s wins (flamingo)" % w[0] in end
    assert "OK: archive the game" in end
    assert _lines(out, "archived")[0].startswith("archived Menu|Tea Tally")
    assert "archives ['g0001.jsonl'] True" in out


def t42_replay(objs):
    from teatally.rules import t42

    g = t42.Game(objs[0])
    for a in objs[1:]:
        g.apply(a)
    return g.state


def t42_score(state):
    from teatally.rules import t42

    return t42.score(state)


ROUND_SCRIPT = r"""
start(SETUP)
show('status0')
keys('d'); show('blue')
keys('o'); show('pink')
keys('b'); show('backblue')
keys('b'); show('cancel')
# round 1: cat / cat, a tie: the flamingo holder (pink) wins; "Nothing"
board('cat'); pick('cat'); show('action1')
pick('none'); show('r1')
# round 2: dormouse / knave; pink uses the knave (3 tarts)
board('dormouse'); pick('knave'); show('action2')
pick('effect'); show('r2')
# round 3: caterpillar / dormouse; blue takes 2 hourglasses and spends them
board('caterpillar'); pick('dormouse'); pick('effect'); show('hg0')
keys('u'); show('hg1')
keys('u'); show('hg2')
keys('o'); show('rev1')
pick('guards'); show('rev2')
pick('executioner'); show('stars')
pick(3); show('r3')
# undo two rounds, redo them, one redo too many
keys('B'); show('undo1')
keys('B'); show('undo2')
keys('O'); show('redo1')
keys('O'); show('redo2')
keys('O'); show('redo3')
# game menu (BACK on the board): history, score now
keys('b'); show('menu')
keys('o'); show('hist')
keys('o'); show('detail')
keys('bb'); show('menu2')
pick('score'); show('score')
keys('b'); show('menu3')
# adjust: the picker offers blue's tarts -3..2 (blue holds 3, the supply 2):
# down from -3 wraps to +2, up from +2 to -3; back, then +2 is committed
pick('adjust'); show('adj')
pick((0, 'tarts')); show('tarts')
keys('d3'); show('least')
keys('d'); show('wrapped')
keys('u'); show('wrapped2')
keys('b'); show('adj2')
keys('ou2o'); show('adjusted')
# three quick rounds, "Nothing": the common path
for b, p in (('knave', 'guards'), ('king', 'executioner'), ('alice', 'caterpillar')):
    board(b); pick(p); pick('none')
show('r6')
# round 7: blue has only the queen left: not asked (T42-INPUT-1); the
# board asks pink's card, and the question says why blue's was not asked
need, listed, sel = ui_t42_round.first_question(app)
print('first', need.who, listed[sel])
keys('u'); show('auto')
pick('king'); pick('none'); show('notice')
keys('!'); show('r7')
# a power cut in the middle of round 8: the round was never committed
keys('d!'); show('resumed')
print('lines', len(journal_objs()), 'actions', len(app.game.actions), 'round', app.game.state.round)
for a in journal_objs():
    print('J', jsonc.dumps(a))
"""


def test_guided_rounds_undo_history_adjust_and_power_cut(dual):
    """Rounds by key presses on a known setup: BACK steps back one question
    and leaves the round at the first; a tie goes to the flamingo holder
    (T42-ROUND-2); the action menu offers the effect, affordable buys only
    and nothing (T42-ROUND-3, T42-BUY-2); the hourglass picker shows where
    the hand lands (T42-WATCH-2) and the reveal space asks two cards and the
    printed stars (T42-SPACE-3); LONG BACK / LONG OK undo and redo across
    rounds; history, score now, a refused and a committed adjustment
    (T42-INPUT-2, T42-INPUT-3); a draw pile with one kind left is filled in
    without asking (T42-INPUT-1) and the reshuffle after the round is
    announced (T42-SHUF-1, T42-SHUF-4); after a power cut the game resumes
    at the last committed line."""
    out = dual(PRELUDE + "SETUP = %r\n" % SETUP + ROUND_SCRIPT)
    shown = {}
    for line in out.splitlines():
        tag, _, rest = line.partition(" ")
        shown[tag] = rest
    # BACK: one question back, then out of the round (nothing committed)
    assert shown["pink"].startswith("Menu|Pink reveals")
    # (asked again on its usual start, the likeliest card, not on the answer
    # taken back: the same list)
    assert "sel=1" in shown["blue"] and "sel=0" in shown["backblue"]
    assert shown["backblue"][shown["backblue"].index("["):] == shown["blue"][shown["blue"].index("["):]
    assert shown["cancel"] == shown["status0"]
    assert shown["action1"].startswith("Menu|Pink wins: flamingo")
    # the cat's effect offered with its space (issue 26: one question fewer),
    # each row's bottom line says what the space does (T42-CARD-1)
    spaces = "Hand to stars, Hand to destroy, Hand to reveal, Hand to flamingo, Hand to copy"
    assert "[%s, Nothing]" % spaces in shown["action1"] and "hint=gain 2 stars" in shown["action1"]
    # pink has 1 tart: with 3 points only pile 4 (cost 1) is affordable, and
    # its bottom line says the purchase rule (T42-BUY-2)
    assert "[Effect: knave, Buy 4: executioner, Nothing]" in shown["action2"]
    assert shown["action2"].startswith("Menu|Pink wins by 3")
    # no hourglass: the hand does not move and nothing happens (issue 30:
    # the screen says nothing that will not happen)
    assert "0..2 / Hand does not move: / no effect" in shown["hg0"] and "stars" not in shown["hg0"]
    assert "moves to destroy" in shown["hg1"] and "moves to reveal" in shown["hg2"]
    assert shown["rev1"].startswith("Menu|Watch reveal 1/2") and "guards 3" in shown["rev1"]
    assert "guards" not in shown["rev2"]
    assert shown["stars"].startswith("Picker|Stars on the card") and "0..18" in shown["stars"]
    assert "toast=Undone R3 Blue caterpillar" in shown["undo1"] and "toast=Undone R2 Pink knave" in shown["undo2"]
    assert "toast=Redone R3 Blue caterpillar" in shown["redo2"] and "toast=Nothing to redo" in shown["redo3"]
    assert "[R1 tie: cat, R2 Pink knave, R3 Blue caterpillar]" in shown["hist"] and "sel=2" in shown["hist"]
    assert "hint=beat Pink dormouse" in shown["hist"]
    detail = "[Blue's caterpillar / beat Pink's dormouse. / Blue's caterpillar: / took 2 hourglasses. / Blue spent 2 / "
    assert detail + "hourglasses: the hand / on reveal; Blue / revealed guards, / executioner; gained 3 / stars.]" in (
        shown["detail"]
    )
    assert "stars          3    0" in shown["score"] and "Blue wins" in shown["score"]
    # T42-INPUT-2: the adjust picker offers what blue and the supply can give, no more
    assert shown["tarts"].startswith("Picker|Blue tarts +/-") and "-3..2" in shown["tarts"]
    assert "now 3 / then 0" in shown["least"] and "now 3 / then 5" in shown["wrapped"]
    assert "now 3 / then 0" in shown["wrapped2"] and shown["adj2"].startswith("Adjust|Adjust")
    assert "toast=Adjusted Blue tarts +2" in shown["adjusted"]
    # the engine fills in blue's queen: the board asks pink's card, and the
    # question's note says why (above its bottom line, T42-INPUT-1)
    assert "first 1 " in out
    assert shown["auto"].startswith("Menu|Pink reveals") and "note=Blue's only card: / queen." in shown["auto"]
    assert "hint=1 of 3 in draw pile" in shown["auto"]
    # the reshuffle is said on the board, no press to read it (T42-SHUF-1)
    assert shown["notice"].startswith("Status|") and "toast=Blue: add a rabbit and shuffle the deck" in shown["notice"]
    # the power cut lost only the round in progress
    assert shown["resumed"] == shown["r7"]
    assert "lines 9 actions 8 round 7" in out
    journal_lines = [json.loads(line[2:]) for line in out.splitlines() if line.startswith("J ")]
    expected = [
        SETUP,
        {"blue": "cat", "pink": "cat", "hourglasses": 0},
        {"blue": "dormouse", "pink": "knave", "effect": {}, "hourglasses": 0},
        {
            "blue": "caterpillar",
            "pink": "dormouse",
            "effect": {},
            "hourglasses": 2,
            "watch": {"cards": ["guards", "executioner"], "stars": 3},
        },
        {"adjust": {"blue": {"tarts": 2}}},
        {"blue": "knave", "pink": "guards", "hourglasses": 0},
        {"blue": "king", "pink": "executioner", "hourglasses": 0},
        {"blue": "alice", "pink": "caterpillar", "hourglasses": 0},
        {"blue": "queen", "pink": "king", "hourglasses": 0},
    ]
    assert journal_lines == expected
    state = t42_replay(expected)
    assert (state.players[0].stars, state.players[0].tarts, state.players[1].tarts) == (3, 5, 4)
    assert state.supply_rabbits == 6 and state.players[0].draw.get("rabbit") == 1


def test_a_refused_probe_or_commit_is_said_and_ok_steps_back(dual):
    """T42-INPUT-3: should the engine refuse the round (it cannot with the
    options offered), the round says why and OK steps back one question,
    for a refusal while asking (the probe) and while committing; nothing is
    written."""
    out = dual(
        PRELUDE
        + "SETUP = %r\n" % SETUP
        + r"""
start(SETUP)
ui_t42_round.start(app.ui)
r = top().round
probe = t42.Game.probe
commit = type(app).commit
def no(*a):
    raise t42.Refused('not now')
def step(tag, v):
    r.answer(app.ui, v)
    app.finish()  # the answer's flash work, as after a key (App.key)
    print(tag, name(), jsonc.dumps(r.draft), getattr(top(), 'lines', ''))
t42.Game.probe = no
step('b', 'dormouse')
t42.Game.probe = probe
keys('o')
print('ok1', name(), jsonc.dumps(r.draft), len(r.fills))
step('b', 'dormouse')
step('p', 'knave')
type(app).commit = no
step('act', 'none')
type(app).commit = commit
keys('o')
print('ok2', name(), jsonc.dumps(r.draft), len(journal_objs()))
step('act', 'none')
print('line', jsonc.dumps(journal_objs()[-1]), len(journal_objs()))
""",
    )
    rows = [line.split(" ", 1) for line in out.splitlines()]
    assert rows[0] == ["b", "Message|Refused {\"blue\": \"dormouse\"} ['not now']"]
    assert rows[1] == ["ok1", "Menu|Blue reveals {} 0"]
    assert rows[4][0] == "act" and rows[4][1].startswith("Message|Refused") and "['not now']" in rows[4][1]
    assert rows[5] == ["ok2", "Menu|Pink wins by 3 {\"blue\": \"dormouse\", \"pink\": \"knave\"} 1"]
    assert rows[6][0] == "act" and rows[6][1].startswith("Status|")
    assert rows[7] == ["line", '{"blue": "dormouse", "hourglasses": 0, "pink": "knave"} 2']


def test_back_restores_the_draft_the_engine_wrote_into(dual):
    """T42-WATCH-1 T42-INPUT-1: the engine writes into the round's draft too
    (the watch space's parameters, hourglasses); BACK from the space's
    question brings back the draft of the hourglass question exactly, and
    the line then committed holds no trace of the abandoned answer."""
    out = dual(
        PRELUDE
        + "SETUP = %r\n" % SETUP
        + r"""
start(SETUP)
app.commit({'blue': 'cat', 'pink': 'cat', 'hourglasses': 0})
app.commit({'blue': 'dormouse', 'pink': 'knave', 'effect': {}, 'hourglasses': 0})
ui_t42_round.start(app.ui)
r = top().round
def step(tag, v):
    r.answer(app.ui, v)
    app.finish()  # the answer's flash work, as after a key (App.key)
    print(tag, name(), jsonc.dumps(r.draft))
step('b', 'caterpillar')
step('p', 'dormouse')
step('act', 'effect')
step('hg', 1)
r.back(app.ui)
print('back', name(), jsonc.dumps(r.draft))
step('hg0', 0)
print('line', jsonc.dumps(journal_objs()[-1]), len(journal_objs()))
""",
    )
    rows = dict(line.split(" ", 1) for line in out.splitlines())
    assert rows["act"] == 'Picker|Blue: use hourglasses {"blue": "caterpillar", "effect": {}, "pink": "dormouse"}'
    assert '"hourglasses": 1' in rows["hg"] and '"watch": {}' in rows["hg"]
    assert rows["back"] == rows["act"]
    assert rows["line"] == '{"blue": "caterpillar", "effect": {}, "hourglasses": 0, "pink": "dormouse"} 4'


def test_the_action_menu_offers_the_effect_with_its_first_choice(dual):
    """Issue 26 (T42-CARD-9, T42-CARD-7, T42-CARD-1, T42-INPUT-1): the
    action menu offers the queen's effect as one row per open pile, the
    king's as its two takes, the cat's as its five spaces, so one OK
    answers what took two questions; BACK from the question after it (the
    printed stars) comes back to the menu on its first row (never on the
    answer taken back, issue 30); the line
    committed is the one the engine would ask for; with one pile left the
    queen's row is the plain effect and the engine fills the pile in."""
    out = dual(
        PRELUDE
        + "SETUP = %r\n" % SETUP
        + r"""
start(SETUP)
def step(tag, v):
    r.answer(app.ui, v)
    app.finish()  # the answer's flash work, as after a key (App.key)
    print(tag, name(), jsonc.dumps(r.draft))
def menu(tag):
    t = top()
    items = ['%s=%s' % (txt(it[0]), jsonc.dumps(list(it[1]) if type(it[1]) is tuple else it[1])) for it in t.items]
    print(tag, '; '.join(items), '| sel', t.sel, '|', txt(t.hint(t.items[t.sel][1])))
def begin():
    global r
    ui_t42_round.start(app.ui)
    r = top().round
begin()
step('b', 'queen')
step('p', 'dormouse')
menu('queen')
print('hint6', txt(top().hint(('pile', 6))))
step('pile', ('pile', 6))
r.back(app.ui)
print('back', name(), top().items[top().sel][1])
step('pile', ('pile', 6))
step('stars', 2)
print('line', jsonc.dumps(journal_objs()[-1]))
begin()
step('b', 'cat')
step('p', 'cat')
menu('cat')
app.ui.pop()
begin()
step('b', 'king')
step('p', 'guards')
menu('king')
step('take', ('take', 'tarts'))
print('line', jsonc.dumps(journal_objs()[-1]))
for v in (4, 5, 6, 7):
    app.game.state.piles[v - 4] = 0  # (only pile 8 left; the test needs no replay)
begin()
step('b', 'alice')
step('p', 'queen')
menu('one')
step('act', 'effect')
step('stars1', 1)
print('line', jsonc.dumps(journal_objs()[-1]))
""",
    )
    rows = dict(line.split(" ", 1) for line in out.splitlines())
    piles = "; ".join('Destroy pile %d=["pile", %d]' % (v, v) for v in (4, 5, 6, 7, 8))
    buys = "Buy 8: alice=8; Buy 7: king=7; Buy 6: caterpillar=6; Buy 5: knave=5; Buy 4: executioner=4"
    # the first row selected first: the effect (spends nothing; issue 30)
    assert rows["queen"] == '%s; %s; Nothing="none" | sel 0 | Pile 4: executioner' % (piles, buys)
    assert rows["hint6"] == "Pile 6: caterpillar"
    assert rows["pile"].startswith("Picker|Stars on caterpillar") and '"effect": {"pile": 6}' in rows["pile"]
    assert rows["back"] == "Menu|Blue wins by 7 ('pile', 4)"
    assert rows["stars"].startswith("Status|")
    spaces = "; ".join('Hand to %s=["space", "%s"]' % (sp, sp) for sp in t42_SPACES)
    # pink (the flamingo's holder) wins the tie; the first row selected
    assert rows["cat"] == '%s; Nothing="none" | sel 0 | gain 2 stars' % spaces
    # the first row selected, whatever was done before
    takes = 'King: the flamingo=["take", "flamingo"]; King: 2 tarts=["take", "tarts"]'
    # the row's hint says what it takes
    assert rows["king"].startswith(takes + "; Buy ") and rows["king"].endswith("| sel 0 | take the flamingo")
    assert rows["one"].startswith('Effect: queen="effect"; ')
    assert rows["act"].startswith("Picker|Stars on alice") and '"effect": {"pile": 8}' in rows["act"]
    lines = [v for k, v in (line.split(" ", 1) for line in out.splitlines()) if k == "line"]
    assert lines == [
        '{"blue": "queen", "effect": {"pile": 6, "stars": 2}, "hourglasses": 0, "pink": "dormouse"}',
        '{"blue": "king", "effect": {"take": "tarts"}, "hourglasses": 0, "pink": "guards"}',
        '{"blue": "alice", "effect": {"pile": 8, "stars": 1}, "hourglasses": 0, "pink": "queen"}',
    ]


t42_SPACES = ("stars", "destroy", "reveal", "flamingo", "copy")


def test_card_menu_items_name_the_value_of_each_card():
    """T42-ROUND-2: the reveal menus show each card with its value, written
    out once in ui_t42_round; they must agree with the engine's values."""
    from teatally.rules import t42
    from teatally.ui.t42 import round as ui_t42_round

    assert sorted(ui_t42_round._CARD_ITEM) == sorted(t42.CARDS)
    for c, (label, value) in ui_t42_round._CARD_ITEM.items():
        assert (label, value) == ("%s %d" % (c, t42.VALUE[c]), c)
    assert ui_t42_round._counted(ui_t42_round._CARD_ITEM["cat"], 3) == ("cat 1 x3", "cat")
    assert ui_t42_round._counted(ui_t42_round._CARD_ITEM["rabbit"], 3) == ("rabbit 1 x3", "rabbit")
    assert ui_t42_round._counted(ui_t42_round._CARD_ITEM["king"], 12) == ("king 7 x12", "king")


def test_round_labels_written_out_agree_with_the_names_they_spell():
    """The round's labels and titles written out once (no string made on a
    press) say what they buy and who they name; a buy's bottom line says
    the purchase rule: the pile's value less the points won by, never below
    nothing (T42-BUY-1, T42-BUY-2)."""
    from teatally.rules import t42
    from teatally.ui.t42 import round as r
    from teatally.ui.t42 import words as ui_t42

    assert r._BUYS == tuple("Buy %d: %s" % (v, t42.PILE_CARD[v]) for v in t42.PILES)
    assert tuple(range(4, 9)) == t42.PILES
    assert r._cost(6, 3) == "costs 6 - 3 = 3 tarts" and r._cost(5, 4) == "costs 5 - 4 = 1 tart"
    assert r._cost(4, 5) == "free: won by 5" and r._cost(4, 4) == "free: won by 4"
    for who, name in enumerate(ui_t42.NAMES):
        assert r._REVEALS[who] == name + " reveals" and r._HOURGLASSES[who] == name + ": use hourglasses"


REFUSED_REDO = r"""
from teatally.rules import t42
from teatally.ui.t42 import board as ui_t42

class State:
    over = False

class Game:
    actions = []
    state = State()
    def can_redo(self):
        return True

class App:
    game = Game()
    mend = None
    def redo(self):
        raise t42.Refused('the game is over')

class UI:
    app = App()
    def reset(self, screen):
        print(screen.toast)

ui_t42.redo(UI())
"""


def test_a_refused_redo_says_why(dual):
    # the engine's refusal becomes the toast's line (ui_t42.redo)
    assert dual(REFUSED_REDO).strip() == "('Cannot redo', 'the game is over')"


def test_adjust_picker_offers_exactly_what_the_engine_takes(tmp_path):
    """T42-INPUT-2 T42-INPUT-4: by key presses on the game menu's Adjust
    screen, each picker (stars, tarts, hourglasses of both players) offers
    from minus what the player holds up to what the supply can give (stars:
    up to 999 in all); the engine takes both ends and refuses one step
    beyond either, and OK on either end commits the line (no refusal after
    the choice). Games with adjustments, one player near 999 stars."""
    from teatally.rules import t42
    from teatally_host import keyscript

    objs = playable(gen.random_game(5, rounds=12, adjust_rate=0.2))
    objs.append({"adjust": {"pink": {"stars": 990}}})
    drv = keyscript.Driver(str(tmp_path))
    drv.play(objs, archive=False)
    seen = set()
    for end in ("hi", "lo"):
        for p in (0, 1):
            for f in ("stars", "tarts", "hourglasses"):
                s = drv.app.game.state
                drv.press("back")  # status board -> game menu
                drv.choose("adjust")
                drv.choose((p, f))
                picker = drv.top()
                cur = getattr(s.players[p], f)
                most = 999 - cur if f == "stars" else getattr(s, "supply_" + f)
                assert (picker.lo, picker.hi) == (-cur, most)
                who = t42.PLAYERS[p]
                for v, ok in ((picker.lo - 1, False), (picker.lo, True), (picker.hi, True), (picker.hi + 1, False)):
                    try:
                        t42.apply(s, {"adjust": {who: {f: v}}})
                        took = True
                    except t42.Refused:
                        took = False
                    assert took == ok, (who, f, v)
                v = getattr(picker, end)
                seen.add((who, f, v))
                n = len(drv.app.game.actions)
                drv.choose(v)
                if v:
                    assert drv.app.game.actions[-1] == {"adjust": {who: {f: v}}}
                    assert len(drv.app.game.actions) == n + 1
                else:
                    assert len(drv.app.game.actions) == n  # 0: nothing to commit
                assert type(drv.top()).__name__ != "Message", drv.top().lines
                while type(drv.top()).__name__ != "Status":
                    drv.press("back")
    assert ("blue", "stars", -999) in seen and ("pink", "stars", -999) in seen, seen


# Through the pins (hw.pins, the clock, App.step: the main loop's pass):
# UP/DOWN step at the press (teatally.buttons), so a DOWN held on the
# status board opens the round's question at its press; the rest of that
# hold must not step the question's list (ui.core.UI.key ends the hold).
HOLD_SCRIPT = r"""
def at_pins(hold_ms):
    start(SETUP)
    hw = app.hw
    hw.pins[1] = True  # DOWN
    for i in range(hold_ms // 10):
        hw.advance(10)
        app.step()
    hw.pins[1] = False
    for i in range(30):
        hw.advance(10)
        app.step()
    t = top()
    print('%d ms: %s sel=%d' % (hold_ms, name(), t.sel))
    keys('d')  # the next press steps again
    print('then d: sel=%d' % top().sel)

at_pins(80)
at_pins(1200)
start(SETUP)
keys('d')
print('event d: %s sel=%d' % (name(), top().sel))
"""


def test_a_hold_that_opens_a_screen_does_not_step_it(dual):
    out = dual(PRELUDE + "SETUP = %r\n" % SETUP + HOLD_SCRIPT).splitlines()
    event = out[4].split(": ", 1)[1]  # "Menu|Blue reveals sel=N": DOWN as an event
    sel = int(event.rsplit("=", 1)[1])
    assert out[0] == "80 ms: " + event  # a tap on the pins: the same
    assert out[2] == "1200 ms: " + event  # held past LONG and REPEATs: still one step
    assert out[1] == out[3] == "then d: sel=%d" % (sel + 1)
