"""Effort, for the bench: presses per round from a game's key script
(``bench/*.keys``, made by ``teatally_host.keyscript``), next to a generic
+/- score counter's (the baseline). The effort corpus (many generated games,
their floors) is ``teatally_host.corpus``; its budgets are in
``teatally_host.budgets``."""

from pathlib import Path

from teatally.rules import t42
from teatally_host import keyscript
from teatally_host.benchvm import ROOT

# -- the generic +/- counter baseline ------------------------------------------
# A score-counter device with one counter per quantity the players must track
# without Tea Tally: each player's stars, tarts and hourglasses, who holds the
# flamingo and where the watch stands. Changing one counter costs one press to
# select it, one per +/- step and one to confirm; the flamingo flips in one
# step, the watch steps the short way round its 5 spaces. At the end the
# decks are counted by hand, one press per card (the objectives need them).
# The baseline is as cheap as it can be: no card identities, no undo, no
# navigation cost between counters.


def counter_changes(before, after):
    """[(counter name, steps)] for the counters that changed between states."""
    out = []
    for p in (0, 1):
        a, b = before.players[p], after.players[p]
        for name in ("stars", "tarts", "hourglasses"):
            d = getattr(b, name) - getattr(a, name)
            if d:
                out.append(("%s %s" % (t42.PLAYERS[p], name), abs(d)))
    if before.flamingo != after.flamingo:
        out.append(("flamingo", 1))
    if before.watch != after.watch:
        d = (after.watch - before.watch) % len(t42.SPACES)
        out.append(("watch", min(d, len(t42.SPACES) - d)))
    return out


def baseline_presses(objs):
    """-> (presses per round line, presses to count the decks at the end).
    Adjustment lines add to the round that follows them."""
    g = t42.Game(objs[0])
    per_round = []
    carry = 0
    for o in objs[1:]:
        before = g.state
        after = g.apply(o)
        n = sum(2 + steps for _, steps in counter_changes(before, after))
        if "adjust" in o:
            carry += n
            continue
        per_round.append(n + carry)
        carry = 0
    s = g.state
    count = s.players[0].deck_size() + s.players[1].deck_size()
    return per_round, count


# -- key scripts and effort -------------------------------------------------------


def keys_path(record_path):
    return Path(record_path).with_suffix(".keys")


def current_keys(path, objs, log=print, write=False):
    """The record's key script as the current UI wants it: driven afresh
    (keyscript, CPython). write: the .keys file next to the record is
    rewritten when it changed (the screens evolve; the shipped script
    follows them like results.json, with `teatally bench --update`)."""
    keys = keyscript.presses_for(objs)
    text = keyscript.to_text(keys, objs, "key script for %s (written by teatally bench)" % Path(path).name)
    kp = keys_path(path)
    shown = kp.relative_to(ROOT) if kp.is_relative_to(ROOT) else kp
    if kp.exists() and kp.read_text() == text:
        pass
    elif write:
        kp.write_text(text)
        log("  wrote %s (the key presses changed)" % shown)
    elif kp.exists():
        log("  %s: the key presses changed (teatally bench --update rewrites it)" % shown)
    return keyscript.parse(text)


def effort(objs, keys):
    """Presses per round from a key script's '# line N' blocks (presses
    before line 1 and after the last line count towards the game's total
    only), next to the baseline counter's."""
    n_lines = len(objs) - 1
    per_line = [0] * (n_lines + 2)  # setup, lines 1..n, the end
    for _, line in keys:
        per_line[n_lines + 1 if line == keyscript.END else line] += 1
    per_round = []
    carry = 0
    for i in range(1, n_lines + 1):
        if "adjust" in objs[i]:
            carry += per_line[i]
            continue
        per_round.append(per_line[i] + carry)
        carry = 0
    base, count = baseline_presses(objs)
    rounds = max(1, len(per_round))
    device_total = len(keys)
    base_total = sum(base) + count
    return {
        "rounds": len(per_round),
        "presses_total": device_total,
        "presses_setup": per_line[0],
        "presses_end": per_line[n_lines + 1],
        "per_round": per_round,
        "baseline_per_round": base,
        "baseline_deck_count": count,
        "baseline_total": base_total,
        "presses_per_round_mean": device_total / rounds,
        "baseline_presses_per_round_mean": base_total / rounds,
    }
