"""The effort corpus (issue 26): presses per round on games the bench's
three were not tuned on, against a reference floor.

The corpus is GAMES_PER_STYLE seeded legal games (gen.random_game) in each
play style of STYLES: random players, a buyer, an effect player, a hoarder
of hourglasses who uses the watch, long games with reshuffles, cat/copy
chains with declined copies, games with adjustments. The same seeds give
the same games on every machine; ``python -m teatally_host.corpus build DIR``
writes them as records (DIR/<style>-s<seed>.jsonl, playable with
``teatally bench --records DIR``); ``python -m teatally_host.corpus
measure`` prints the table below (``--json FILE`` the figures).

Each game is entered on the real UI under CPython (keyscript.Driver, the
bench's driver: the same presses as the bench's key scripts) and every
question a round asks is noted with where the cursor started and where the
answer was. Presses per round are counted as bench.effort counts them: a
round line's presses, an adjustment's added to the round after it; setup
and the end are left out.

The reference floor of a question is the fewest presses a 4-key cursor
interface can need on average for it, given what the device knows
(floor_presses): the options in the best order for the best start, wrap
around, one press for the OK: sum_k p_(k) * (1 + ceil(k / 2)) with the
probabilities p in falling order. A question with one option costs 0 (it
need not be asked), and so do the presses that answer no question (a
notice read, the board's OK when it only opens the round, the BACK into
the game menu). The probabilities (question_walk):

- a card revealed from a draw pile (a round's reveal, the guards', the
  reveal space's, the executioner's): exact, the draw pile as a multiset
  (the state before the round less the cards the round has taken from it
  so far; after a reshuffle within the round, uniform over the kinds,
  counted as ``uniform_draws``);
- every other question (the winner's action, a space, a pile, a card to
  destroy, the king's choice, stars, hourglasses, a copy, an adjustment):
  uniform over the legal options, the device knowing nothing of the
  players' minds (an adjustment's amount: uniform over 1..ADJUST_MOST
  either way). Two stated alternatives: the *corpus floor*, the corpus's own
  frequencies of each answer among the questions of the same kind, options
  and card (the winner's for the action, the destroyed one for stars), as
  an interface tuned on these very games could know them; the *learned
  floor*, the same frequencies within the game's style (an interface that
  knows the table's habits).

figures() gives them per round (median, p95, mean), the gap to each in %
at the median and the mean, per style and overall, and per question kind
(corpus_gap_by_question, the largest gap first); table_lines() the
Markdown table `teatally bench` prints (cmd_bench, --no-corpus skips it).

The habit figure (issue 30, habit()): for every question whose options
are not cards from a draw pile, the keys that gave the same answer to the
same question (kind, card, options) last time in the game, pressed blind:
how often they now give another answer. With fixed orders and fixed
starts it is 0 (`teatally bench` budgets it).

The 2-key board (Waveshare: keys A and B, teatally.buttons) counts key
downs: DOWN is a tap of A, OK a tap of B, BACK a hold of B (one each), UP
the chord A+B and LONG OK B held then A (two each). There the cursor goes
the way that costs fewer key downs (DOWN steps cost 1, UP steps 2), and its
floor takes the same costs (floor_presses(p, TWO_KEY)). The simulator and
the bench have no count of their own for 2-key effort: one logical press is
one gesture there, so gestures equal the 4-key presses.
"""

import argparse
import json
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path

from teatally.rules import t42
from teatally_host import gen, keyscript

GAMES_PER_STYLE = 30
SEED_BASE = 1001  # the corpus's seeds: SEED_BASE .. SEED_BASE + GAMES_PER_STYLE - 1
# (corpus style, gen.random_game's arguments, what the players do)
STYLES = (
    ("random", {"style": "random"}, "random legal play, hourglasses and watch spaces used"),
    ("buyer", {"style": "buyer"}, "buys whenever a pile is affordable"),
    ("effects", {"style": "effects"}, "always the card's effect"),
    ("watch", {"style": "watch"}, "hoards hourglasses, spends several to land on a chosen space"),
    ("long", {"style": "long"}, "hoarders' long games (53..65 rounds), reshuffles with growing decks"),
    ("chains", {"style": "copies", "decline_rate": 0.35}, "cat/copy chains, about a third of copies declined"),
    ("adjust", {"style": "random", "adjust_rate": 0.15}, "random play with manual adjustments"),
)
# A game longer than this is cut (and said so): no style comes near it.
MAX_ROUNDS = 300
FOUR_KEY = "4key"
TWO_KEY = "2key"
# key downs per logical event on the 2-key board (teatally.buttons' table)
KEY_DOWNS_2KEY = {"up": 2, "down": 1, "ok": 1, "back": 1, "UP": 2, "DOWN": 1, "OK": 2, "BACK": 1}
# an adjustment's amount is taken to be within this of 0 (_adjust_probs)
ADJUST_MOST = 9
# what answers no question (floor 0)
OVERHEAD = ("open", "notice", "adjust-open")


# -- the corpus ---------------------------------------------------------------
def specs(games_per_style=GAMES_PER_STYLE):
    """[(name, corpus style, seed, gen arguments)] of the whole corpus."""
    out = []
    for style, args, _ in STYLES:
        for i in range(games_per_style):
            seed = SEED_BASE + i
            out.append(("%s-s%d" % (style, seed), style, seed, args))
    return out


def generate(spec):
    """The record objects of one spec (setup first); raises if the game
    does not end within MAX_ROUNDS."""
    name, _, seed, args = spec
    objs = [o for o in gen.random_game(seed, rounds=MAX_ROUNDS, **args) if not no_change(o)]
    g = t42.Game(objs[0])
    for o in objs[1:]:
        g.apply(o)
    if not g.state.over:
        raise AssertionError("%s: not over after %d rounds" % (name, MAX_ROUNDS))
    return objs


def no_change(line):
    # an adjustment by 0 (gen.random_adjustment makes some): it changes
    # nothing, and the device cannot record it (its picker at 0 goes back
    # without a line), so the corpus leaves it out; the game stays the same
    adj = line.get("adjust")
    if adj is None:
        return False
    return any(d == {k: 0 for k in d} for p, d in adj.items() if p in t42.PLAYERS)


def build(folder, games_per_style=GAMES_PER_STYLE, log=print):
    """Write the corpus's records to folder (and corpus.json: what each
    is); the same files on every run."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    index = []
    for spec in specs(games_per_style):
        objs = generate(spec)
        gen.write_record(objs, folder / (spec[0] + ".jsonl"))
        index.append({"record": spec[0] + ".jsonl", "style": spec[1], "seed": spec[2], "gen": spec[3],
                      "rounds": _rounds(objs)})
    (folder / "corpus.json").write_text(json.dumps(index, indent=1, sort_keys=True) + "\n")
    log("wrote %d records to %s" % (len(index), folder))
    return index


def _rounds(objs):
    return sum(1 for o in objs[1:] if "adjust" not in o)


# -- the floor ----------------------------------------------------------------
def step_costs(n, layout=FOUR_KEY):
    """The cursor's cost to reach each of n places from the start, wrapping
    around, cheapest first: 4-key 0, 1, 1, 2, 2, ...; 2-key (DOWN 1 key
    down a step, UP 2) min(k, 2 * (n - k)) for k DOWN steps."""
    if layout == FOUR_KEY:
        costs = [min(k, n - k) for k in range(n)]
    else:
        costs = [min(k, 2 * (n - k)) for k in range(n)]
    return sorted(costs)


def floor_presses(probs, layout=FOUR_KEY):
    """The fewest presses on average a cursor interface needs for a question
    whose options have the probabilities probs (any order, summing to 1):
    the likeliest at the best start, the next ones nearest, one press for
    the OK. One option: 0 (nothing to ask)."""
    n = len(probs)
    if n <= 1:
        return 0.0
    ps = sorted(probs, reverse=True)
    return sum(p * (1 + c) for p, c in zip(ps, step_costs(n, layout), strict=True))


def uniform(n):
    return [1.0 / n] * n


# -- what each round asks (the engine's probe) -------------------------------
class _Asked:
    # what keyscript.answer reads: the Need on screen and the draft
    def __init__(self, need, draft):
        self.need = need
        self.draft = draft


def question_kind(need):
    """A question's kind for the report: the Need's kind, the card and star
    questions told apart by where the answer comes from."""
    if need is None:
        return "action"
    kind = need.kind
    words = need.what.split()
    if kind == t42.ASK_CARD:
        if need.key in t42.PLAYERS:
            return "reveal"
        if need.key == "cards":
            return "guards" if "guards" in words else "reveal-space"
        return "executioner" if words[-1] == "executioner" else "destroy"
    if kind == t42.ASK_STARS:
        return "stars-reveal" if len(words) > 1 and words[-2] == "reveal" else "stars"
    return kind


# the question kinds whose card comes from a draw pile
DRAWN = ("reveal", "guards", "reveal-space", "executioner")


def _draw_source(kind, need):
    # whose draw pile a card question takes from (None: a choice)
    if kind in DRAWN:
        return need.who
    return None


def action_options(s, rec_cards):
    """The winner's action menu's options: effect, the affordable buys
    (dearest first), nothing (ui.t42.round.action_menu)."""
    blue, pink = rec_cards
    w = t42.round_winner(s.flamingo, blue, pink)
    win, lose = (blue, pink) if w == 0 else (pink, blue)
    points = t42.VALUE[win] - t42.VALUE[lose]
    out = effect_options(s, win, w)
    for v, cost in reversed(t42.buy_options(s, points)):
        if cost <= s.players[w].tarts:
            out.append(v)
    out.append("none")
    return out


def effect_options(s, card, w):
    """The action menu's values for the winner w's effect
    (ui.t42.round._effect_rows): the king's takes (not the flamingo for its
    holder), the cat's spaces, the queen's or a rabbit's open piles when
    there are two or more, else "effect"."""
    if card == "king":
        return [("take", "tarts")] if s.flamingo == w else [("take", "flamingo"), ("take", "tarts")]
    if card == "cat":
        return [("space", sp) for sp in t42.SPACES]
    if card in ("queen", "rabbit"):
        piles = [("pile", v) for v in t42.PILES if s.pile(v)]
        if len(piles) > 1:
            return piles
    return ["effect"]


def question_walk(game, rec):
    """The questions the round line rec asks on the game's state, in order,
    single-option ones included: [{kind, options, probs, answer, exact}]
    (probs: what the device knows, see the module's docstring; exact: the
    probabilities come from a draw pile). The engine is probed without
    fills, so every answer is seen, the ones it would fill in too."""
    s = game.state
    draws = [dict(s.players[0].draw), dict(s.players[1].draw)]
    draft = {}
    acted = False
    applied = 0
    out = []
    while True:
        if not acted and "blue" in draft and "pink" in draft:
            opts = action_options(s, (draft["blue"], draft["pink"]))
            v = keyscript.action_answer(rec, opts)
            w = t42.round_winner(s.flamingo, draft["blue"], draft["pink"])
            out.append({"kind": "action", "options": opts, "probs": uniform(len(opts)), "answer": v,
                        "exact": False, "context": draft[t42.PLAYERS[w]]})
            if v == "effect":
                draft["effect"] = {}
            elif isinstance(v, tuple):
                draft["effect"] = {v[0]: v[1]}
            elif v != "none":
                draft["buy"] = v
            acted = True
            continue
        need = game.probe(draft, None, not acted, applied)
        if need is None:
            return out
        kind = question_kind(need)
        v = keyscript.answer(_Asked(need, draft), rec)
        if need.kind in (t42.ASK_STARS, t42.ASK_HOURGLASSES):  # (lo, hi)
            lo, hi = need.options
            opts = list(range(lo, hi + 1))
        else:
            opts = list(need.options)
        q = {"kind": kind, "options": opts, "probs": uniform(len(opts)), "answer": v, "exact": False,
             "context": _context(kind, need)}
        who = _draw_source(kind, need)
        if who is not None:
            draw = draws[who]
            if sum(draw.values()) and sorted(c for c in draw if draw[c] > 0) == sorted(opts):
                total = sum(draw.values())
                q["probs"] = [draw.get(c, 0) / total for c in opts]
                q["exact"] = True
                draw[v] -= 1
            else:
                draws[who] = {}  # reshuffled within the round: its order is unknown
        out.append(q)
        if need.kind == t42.ASK_COPY:
            if v:
                need.params["decline"] = True
            else:
                applied += 1
        elif isinstance(need.params.get(need.key), list):
            need.params[need.key].append(v)
        else:
            need.params[need.key] = v


def _context(kind, need):
    # what a habit may depend on besides the options: the card whose stars
    # are asked
    if kind == "stars":
        return need.what.split()[-2]
    return None


# -- the presses each question took (the real UI) ----------------------------
class MeasuringDriver(keyscript.Driver):
    """keyscript.Driver (the same presses) noting, per record line, each
    choice made: (kind, options, start, answer index, DOWN steps) and the
    presses that answer no question."""

    def __init__(self, flash):
        self.asked = {}  # record line -> [question dicts]
        self.extra = {}  # record line -> [(what, token)]
        self.kinds = []
        self.pending = None  # the board's first question, moved off but not answered yet
        self.zero = 0  # a picker's place of 0 (lo = -zero)
        super().__init__(flash)

    def _note(self, kind, n, start, target, down):
        self.asked.setdefault(self.line, []).append(
            {"kind": kind, "n": n, "start": start, "target": target, "down": down, "zero": self.zero})
        self.zero = 0

    def _extra(self, what, tok):
        self.extra.setdefault(self.line, []).append((what, tok))

    def choose(self, value):
        from teatally.ui.core import Picker

        t = self.top()
        r = getattr(t, "round", None)
        if r is not None:
            kind = question_kind(r.need)
        elif self.kinds:
            kind = self.kinds.pop(0)
        else:
            kind = "setup"
        if isinstance(t, Picker):
            n = t.hi - t.lo + 1
            start, target = t.value - t.lo, value - t.lo
            down = (start - target) % n  # DOWN lowers the value
            self.zero = -t.lo
        else:
            values = [it[1] for it in t.items]
            n = len(values)
            start = t.sel
            target = values.index(value) if value in values else start  # (super() says why not)
            down = (target - start) % n  # DOWN moves down the list
        if self.pending is not None:
            # the board's question, answered here with its OK
            self.pending = None
            if down:
                raise AssertionError("the board's question moved to the wrong card")
        else:
            self._note(kind, n, start, target, down)
        super().choose(value)

    def opening(self, rec):
        from teatally.ui.t42 import round as ui_round

        q = ui_round.first_question(self.app)
        if q is None:
            self._extra("open", "ok")
        else:
            need, values, start = q
            n = len(values)
            target = values.index(rec[need.key])
            self._note(question_kind(need), n, start, target, (target - start) % n)
            if target != start:
                self.pending = need  # its OK comes on the question's own screen
        super().opening(rec)

    def notice(self):
        before = len(self.presses)
        super().notice()
        if len(self.presses) > before:
            self._extra("notice", "ok")

    def adjust(self, adj):
        self._extra("adjust-open", "back")
        self.kinds = ["adjust-menu", "adjust-what", "adjust-value"]
        super().adjust(adj)


def presses_of(q, layout=FOUR_KEY):
    """The presses a noted choice took: the short way round, then OK (on
    the 2-key board the way of fewer key downs)."""
    k, n = q["down"], q["n"]
    if layout == FOUR_KEY:
        return 1 + min(k, n - k)
    return 1 + min(k, 2 * (n - k))


# -- one game -----------------------------------------------------------------
def measure_game(objs, name="", style=""):
    """Drive the game on the UI and walk its questions; -> a JSON-able dict:
    per round line the questions with their presses (4-key, 2-key) and
    probabilities; raises when the UI's questions are not the engine's."""
    with tempfile.TemporaryDirectory(prefix="tt-corpus-") as flash:
        drv = MeasuringDriver(flash)
        drv.play(objs)
        got = [o for _, o in _archived(drv)]
    why = keyscript.first_difference(got, list(objs))
    if why is not None:
        raise AssertionError("%s: the key presses recorded a different game: %s" % (name, why))
    per_line = [0] * (len(objs) + 1)
    for _, line in drv.presses:
        if line > 0:
            per_line[line] += 1
    g = t42.Game(objs[0])
    lines = []
    for i in range(1, len(objs)):
        rec = objs[i]
        ui_qs = drv.asked.get(i, [])
        extra = drv.extra.get(i, [])
        qs = []
        if "adjust" in rec:
            for u in ui_qs:
                qs.append(_question(u, {"kind": u["kind"], "probs": _adjust_probs(u), "exact": False}))
        else:
            walk = [q for q in question_walk(g, rec) if len(q["options"]) > 1]
            if [q["kind"] for q in walk] != [u["kind"] for u in ui_qs] or \
                    [len(q["options"]) for q in walk] != [u["n"] for u in ui_qs]:
                raise AssertionError("%s line %d: the UI asked %s, the engine %s" % (
                    name, i, [(u["kind"], u["n"]) for u in ui_qs],
                    [(q["kind"], len(q["options"])) for q in walk]))
            for u, q in zip(ui_qs, walk, strict=True):
                qs.append(_question(u, q))
        g.apply(rec)
        counted = sum(q["presses"] for q in qs) + len(extra)
        if counted != per_line[i]:
            raise AssertionError("%s line %d: %d presses, %d accounted for" % (name, i, per_line[i], counted))
        lines.append({"adjust": "adjust" in rec, "questions": qs,
                      "extra": [what for what, _ in extra],
                      "extra_2key": sum(KEY_DOWNS_2KEY[tok] for _, tok in extra)})
    return {"name": name, "style": style, "rounds": _rounds(objs), "lines": lines}


def _adjust_probs(u):
    # an adjustment's question: uniform over the menu's items; the amount
    # uniform over the corrections by 1..ADJUST_MOST either way that the
    # picker offers (0 records nothing; a correction is small)
    if u["kind"] != "adjust-value":
        return uniform(u["n"])
    lo = -u["zero"]
    n = sum(1 for v in range(lo, lo + u["n"]) if v and abs(v) <= ADJUST_MOST)
    return uniform(n)


def _question(u, q):
    # a noted UI choice with what the device knows about it (down: the
    # cursor's net DOWN steps, the keys a habit repeats: habit())
    out = {"kind": u["kind"], "presses": presses_of(u), "presses_2key": presses_of(u, TWO_KEY),
           "probs": q["probs"], "exact": q["exact"], "n": u["n"], "down": u["down"]}
    if "options" in q:
        out["options"] = q["options"]
        out["answer"] = q["answer"]
        out["context"] = q["context"]
    return out


def _archived(drv):
    from teatally import journal

    names = drv.app.journal.list_archives()
    if not names:
        raise AssertionError("the game was not archived")
    with open(drv.app.journal.archive_path(names[-1]), "rb") as f:
        return journal.parse_record_lines(f.read())


def _measure_spec(spec):
    return measure_game(generate(spec), spec[0], spec[1])


# -- the figures --------------------------------------------------------------
def percentile(values, p):
    """Nearest-rank percentile (as the bench's)."""
    v = sorted(values)
    k = max(1, math.ceil(len(v) * p / 100))
    return v[k - 1]


def _answer_key(q, style=None):
    # the question as a habit is keyed: its kind, the card it is about (the
    # winner's, the destroyed one), its options; with the style: a table's
    # own habits
    return (style, q["kind"], q.get("context"), json.dumps(q["options"]))


def frequencies(games):
    # (style or None, kind, context, options) -> {answer: times}: over the
    # whole corpus, and per style
    freq = {}
    for g in games:
        for ln in g["lines"]:
            for q in ln["questions"]:
                if "options" in q and not q["exact"]:
                    a = json.dumps(q["answer"])
                    for key in (_answer_key(q), _answer_key(q, g["style"])):
                        d = freq.setdefault(key, {})
                        d[a] = d.get(a, 0) + 1
    return freq


def _floor_from(freq, key, options):
    d = freq[key]
    total = sum(d.values())
    return floor_presses([d.get(json.dumps(o), 0) / total for o in options])


def _floors(q, freq, style):
    # [floor, corpus floor, learned floor, 2-key floor] of one question
    f4 = floor_presses(q["probs"])
    f2 = floor_presses(q["probs"], TWO_KEY)
    if "options" in q and not q["exact"]:
        return [f4, _floor_from(freq, _answer_key(q), q["options"]),
                _floor_from(freq, _answer_key(q, style), q["options"]), f2]
    return [f4, f4, f4, f2]


# the figures per round: presses, the three floors, the 2-key presses and floor
_FIGS = ("presses", "floor", "floor_corpus", "floor_learned", "presses_2key", "floor_2key")


def round_figures(g, freq):
    # per round: the _FIGS; an adjustment's are added to the round after it
    # (bench.effort)
    out = []
    carry = [0] * len(_FIGS)
    for ln in g["lines"]:
        row = [len(ln["extra"]), 0.0, 0.0, 0.0, ln["extra_2key"], 0.0]
        for q in ln["questions"]:
            f4, fc, fl, f2 = _floors(q, freq, g["style"])
            row[0] += q["presses"]
            row[1] += f4
            row[2] += fc
            row[3] += fl
            row[4] += q["presses_2key"]
            row[5] += f2
        row = [a + b for a, b in zip(row, carry, strict=True)]
        if ln["adjust"]:
            carry = row
            continue
        carry = [0] * len(_FIGS)
        out.append(row)
    return out


def _gap_pct(presses, floor):
    return round(100.0 * (presses / floor - 1), 1) if floor else None


def _summary(rows):
    out = {"rounds": len(rows)}
    cols = {}
    for i, name in enumerate(_FIGS):
        v = [r[i] for r in rows]
        cols[name] = v
        out[name + "_per_round_median"] = _num(statistics.median(v))
        out[name + "_per_round_p95"] = _num(percentile(v, 95))
        out[name + "_per_round_mean"] = _num(statistics.mean(v))
    for name in ("floor", "floor_corpus", "floor_learned", "floor_2key"):
        p = "presses_2key" if name == "floor_2key" else "presses"
        tag = name[len("floor"):]
        out["gap%s_median_pct" % tag] = _gap_pct(out[p + "_per_round_median"], out[name + "_per_round_median"])
        out["gap%s_mean_pct" % tag] = _gap_pct(out[p + "_per_round_mean"], out[name + "_per_round_mean"])
    return out


def _num(v):
    # whole numbers as ints, the rest to 3 places (JSON stays short and stable)
    v = round(v, 3)
    return int(v) if v == int(v) else v


def _by_question(games, freq, n_rounds):
    # per question kind: count, mean presses, mean floors, the gaps per round
    acc = {}
    for g in games:
        for ln in g["lines"]:
            for q in ln["questions"]:
                f4, fc, fl, _ = _floors(q, freq, g["style"])
                a = acc.setdefault(q["kind"], [0, 0, 0.0, 0.0, 0.0])
                a[0] += 1
                a[1] += q["presses"]
                a[2] += f4
                a[3] += fc
                a[4] += fl
            for what in ln["extra"]:
                a = acc.setdefault(what, [0, 0, 0.0, 0.0, 0.0])
                a[0] += 1
                a[1] += 1
    out = []
    for kind, (n, pr, f4, fc, fl) in acc.items():
        out.append({"kind": kind, "count": n, "presses_mean": _num(pr / n), "floor_mean": _num(f4 / n),
                    "floor_corpus_mean": _num(fc / n), "floor_learned_mean": _num(fl / n),
                    "presses_per_round": _num(pr / n_rounds),
                    "gap_per_round": _num((pr - f4) / n_rounds),
                    "gap_learned_per_round": _num((pr - fl) / n_rounds)})
    out.sort(key=lambda d: (-d["gap_per_round"], d["kind"]))
    return out


def habit(games):
    """The habit figure (issue 30): for every question whose options are not
    cards from a draw pile (kind not in DRAWN), the keys that gave the same
    answer to the same question (kind, card, options) last time in the game,
    pressed blind now: how often they give another answer. The keys are the
    cursor's net DOWN steps (the short way round and its OK land where
    they did), so they give the same answer when the list and its start
    are the same. -> {"asked", "missed", "pct", "by_kind": {kind: [asked,
    missed]}}: asked counts the questions that had such a last time."""
    asked = missed = 0
    by_kind = {}
    for g in games:
        last = {}  # (kind, context, options, answer) -> the net DOWN steps that gave it
        for ln in g["lines"]:
            for q in ln["questions"]:
                if "options" not in q or q["kind"] in DRAWN:
                    continue
                key = _answer_key(q) + (json.dumps(q["answer"]),)
                was = last.get(key)
                last[key] = q["down"]
                if was is None:
                    continue
                k = by_kind.setdefault(q["kind"], [0, 0])
                asked += 1
                k[0] += 1
                if was != q["down"]:
                    missed += 1
                    k[1] += 1
    return {"asked": asked, "missed": missed, "pct": round(100.0 * missed / asked, 2) if asked else 0.0,
            "by_kind": by_kind}


def figures(games):
    """The corpus's figures (JSON-able, deterministic) from measure_game's
    results: corpus_* overall, corpus_styles per style, corpus_gap_by_question
    (every kind of question, the largest gap to the floor first)."""
    freq = frequencies(games)
    styles = {}
    rows_all = []
    for g in games:
        rows = round_figures(g, freq)
        rows_all.extend(rows)
        st = styles.setdefault(g["style"], {"games": 0, "rows": []})
        st["games"] += 1
        st["rows"].extend(rows)
    out = {"corpus_games": len(games)}
    for k, v in _summary(rows_all).items():
        out["corpus_" + k] = v
    out["corpus_styles"] = {}
    for name, st in styles.items():
        d = {"games": st["games"]}
        d.update(_summary(st["rows"]))
        out["corpus_styles"][name] = d
    out["corpus_gap_by_question"] = _by_question(games, freq, len(rows_all))
    qs = [q for g in games for ln in g["lines"] for q in ln["questions"]]
    draws = [q for q in qs if q["kind"] in DRAWN]
    h = habit(games)
    out["corpus_habit_asked"] = h["asked"]
    out["corpus_habit_missed"] = h["missed"]
    out["corpus_habit_pct"] = h["pct"]
    out["corpus_habit_by_kind"] = h["by_kind"]
    out["corpus_uniform_draws"] = sum(1 for q in draws if not q["exact"])
    out["corpus_card_draws"] = len(draws)
    return out


def drive(measure_one, todo, jobs=2):
    """[measure_one(spec) for spec in todo], in jobs processes (1: in this
    one); measure_one is a module's function (it goes to the processes)."""
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(jobs) as ex:
            return list(ex.map(measure_one, todo, chunksize=4))
    return [measure_one(s) for s in todo]


def measure(games_per_style=GAMES_PER_STYLE, jobs=2, log=None):
    """Generate and drive the whole corpus (jobs processes); -> figures()."""
    todo = specs(games_per_style)
    t0 = time.time()
    games = drive(_measure_spec, todo, jobs)
    if log is not None:
        log("corpus: %d games driven in %.1f s (%d processes)" % (len(games), time.time() - t0, jobs))
    return figures(games)


# -- the report ---------------------------------------------------------------
def _n(v):
    if v is None:
        return "-"
    if isinstance(v, float) and not v.is_integer():
        return "%.2f" % v
    return "%d" % v


def table_lines(fig, top=None):
    """The per-style table and the gaps by question kind (the largest
    first; top: only that many), as Markdown lines."""
    out = [
        "| corpus style | games | rounds | presses/round median / p95 | floor median (gap) "
        "| corpus floor median (gap) | learned floor median (gap) | 2-key presses median / p95 "
        "| 2-key floor median (gap) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    styles = fig["corpus_styles"]
    known = [s for s, _, _ in STYLES]
    for name in [s for s in known if s in styles] + sorted(set(styles) - set(known)) + [None]:
        if name is None:
            d = {k[len("corpus_"):]: v for k, v in fig.items() if k.startswith("corpus_")}
            d["games"] = fig["corpus_games"]
            label = "**all**"
        else:
            d = styles[name]
            label = name
        out.append("| %s | %d | %d | %s / %s | %s (%s) | %s (%s) | %s (%s) | %s / %s | %s (%s) |" % (
            label, d["games"], d["rounds"], _n(d["presses_per_round_median"]), _n(d["presses_per_round_p95"]),
            _n(d["floor_per_round_median"]), _pct(d["gap_median_pct"]),
            _n(d["floor_corpus_per_round_median"]), _pct(d["gap_corpus_median_pct"]),
            _n(d["floor_learned_per_round_median"]), _pct(d["gap_learned_median_pct"]),
            _n(d["presses_2key_per_round_median"]), _n(d["presses_2key_per_round_p95"]),
            _n(d["floor_2key_per_round_median"]), _pct(d["gap_2key_median_pct"])))
    out.append("")
    out.append("Presses per round, all styles, median / p95 / mean: 4-key %s / %s / %s, 2-key %s / %s / %s." % (
        _n(fig["corpus_presses_per_round_median"]), _n(fig["corpus_presses_per_round_p95"]),
        _n(fig["corpus_presses_per_round_mean"]), _n(fig["corpus_presses_2key_per_round_median"]),
        _n(fig["corpus_presses_2key_per_round_p95"]), _n(fig["corpus_presses_2key_per_round_mean"])))
    if "corpus_habit_pct" in fig:
        kinds = sorted(fig["corpus_habit_by_kind"].items())
        out.append("")
        out.append("Habit figure (questions whose options are not cards from a draw pile, the keys that gave "
                   "the same answer to the same question last time pressed blind): another answer %d of %d "
                   "(%.2f %%; goal 0 %%); by kind (missed / asked): %s." % (
                       fig["corpus_habit_missed"], fig["corpus_habit_asked"], fig["corpus_habit_pct"],
                       ", ".join("%s %d / %d" % (k, v[1], v[0]) for k, v in kinds)))
    out.append("")
    out.append("| question kind | asked | presses (mean) | floor | corpus floor | learned floor "
               "| presses per round | gap per round (floor / learned) |")
    out.append("|---|---|---|---|---|---|---|---|")
    for q in fig["corpus_gap_by_question"][:top]:
        out.append("| %s | %d | %s | %s | %s | %s | %s | %s / %s |" % (
            q["kind"], q["count"], _n(q["presses_mean"]), _n(q["floor_mean"]), _n(q["floor_corpus_mean"]),
            _n(q["floor_learned_mean"]), _n(q["presses_per_round"]), _n(q["gap_per_round"]),
            _n(q["gap_learned_per_round"])))
    return out


def _pct(v):
    return "-" if v is None else "%+.0f %%" % v


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m teatally_host.corpus", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="write the corpus's records to DIR")
    b.add_argument("dir", type=Path, nargs="?", default=Path("build/corpus"))
    m = sub.add_parser("measure", help="drive the corpus on the UI, print presses per round against the floor")
    m.add_argument("--json", type=Path, default=None, help="also write the figures to this file")
    m.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    m.add_argument("--games", type=int, default=GAMES_PER_STYLE, help="games per style (default %(default)s)")
    a = p.parse_args(argv)
    if a.cmd == "build":
        build(a.dir)
        return 0
    fig = measure(a.games, max(1, a.jobs), log=lambda s: print(s, file=sys.stderr))
    print("\n".join(table_lines(fig)))
    if a.json is not None:
        a.json.write_text(json.dumps(fig, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
