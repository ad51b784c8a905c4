# A guided round's next press made ahead, between presses (the idle work
# asks the question on screen: ui_t42_round.Round.prepare).
#
# The answer selected on screen is played on a copy of the draft and probed,
# as the press would; if that completes the round, the line's journal text
# is made too. OK on that answer then takes the copy as the draft and what
# its probe found (the next question, or the commit of a line settled by
# that probe: t42.settled) instead of probing on the press, the dearest part
# of an answer (a probe plays the whole round on a scratch state) and, on
# the last answer, of the commit (probe and JSON). Any other answer, or a
# selection changed since, goes the usual way.
#
# Loaded only while the heap is roomy (app.App.roomy): with the heap capped
# at 96 KB its code would not fit beside the game, and a prepare's garbage
# must not force a collection inside it.

from teatally import t42
from teatally.journal import line_text
from teatally.ui import Picker
from teatally.ui_t42_round import _LINE, _NESTED, _REFUSAL, _act, _clone, _fill_in, _last_stars, _stars_key


def prepare(r, app):
    """Round r's prepare: -> True if it played the selected answer."""
    v = _selected(app.ui.top())
    a = r.ready
    if a is not None and a.made_for(r, v):
        return False  # made already (or nothing to make: refused)
    r.ready = None
    r.ready = _ahead(r, Ahead(v, r.need, r.draft))
    return True


class Ahead:
    """What prepare made for the answer v selected on the question need
    (None: the winner's action) of draft: trial, the draft with v in (None:
    nothing made); next, what the probe of trial found (a t42.Need, or None:
    the round is complete); fills, what it filled in without asking; text,
    the journal text of a complete trial."""

    __slots__ = ("v", "need", "draft", "trial", "next", "fills", "text")

    def __init__(self, v, need, draft):
        self.v = v
        self.need = need
        self.draft = draft
        self.trial = None
        self.next = None
        self.fills = []
        self.text = None

    def made_for(self, r, v):
        """Was this made for the answer v to the question round r asks now?"""
        return self.v == v and self.need is r.need and self.draft is r.draft

    def fits(self, r, v):
        """Can the answer v to round r's question take what was made?"""
        return self.trial is not None and self.made_for(r, v)

    def answer(self, r, ui):
        """Round.answer with what was made: the draft as it was goes to saved
        (the trial is a copy: no clone needed), the trial becomes the draft."""
        _saved(r)
        r.notes = None  # said on the screen after the fill only (Round.answer)
        r.answers.append(self.v)
        need = r.need
        if need is None:
            r.acted = True
        elif _applied(need, self.v):
            r.copies += 1
        elif need.kind == t42.ASK_STARS:
            _last_stars(r.app.game)[_stars_key(need)] = self.v
        draft = r.draft = self.trial
        if not r.acted and draft is not None and "blue" in draft and "pink" in draft:
            r._action(ui)  # as advance(): the action menu, no probe
            return
        r.fills.extend(self.fills)
        _REFUSAL.exc = None
        _LINE[0] = self.trial  # a complete line's journal text, for Round._commit
        _LINE[1] = self.text
        r._next(ui, self.next)


def _saved(r):
    saved = r.saved
    saved.append(r.draft)
    saved.append(r.acted)
    saved.append(r.notes)
    saved.append(r.copies)


def _ahead(r, a):
    # a.v answered on a copy of the draft as Round.answer would, then probed
    # as Round.advance would; -> a, its trial (None: nothing made) and findings
    trial = _clone(a.draft)
    if a.need is None:
        _act(trial, a.v)
    elif not _applied(a.need, a.v):  # an applied copy is counted (_probe), not written
        params = _twin(a.draft, trial, a.need.params)
        if params is None:
            return a
        _fill_in(params, a.need.key, a.v)
    acted = r.acted or a.need is None
    if not acted and "blue" in trial and "pink" in trial:
        a.trial = trial  # the action menu comes next: nothing to probe
        return a
    a.next = _probe(r, trial, a, not acted)
    if _REFUSAL.exc is not None:
        return a  # the press will refuse it the usual way
    if a.next is None:
        a.text = line_text(trial)
    a.trial = trial
    return a


def _probe(r, trial, a, ask_action):
    # Round._probe for a trial (refused: None, and _REFUSAL.exc); a copy
    # applied by a.v is counted as Round.answer counts it
    copies = r.copies + 1 if _applied(a.need, a.v) else r.copies
    with _REFUSAL:
        return r.app.game.probe(trial, a.fills, ask_action, copies)


def _applied(need, v):
    # a copied effect the players apply (T42-COPY-4: not in the line)
    return need is not None and need.kind == t42.ASK_COPY and not v


def _selected(screen):
    # the answer selected on a question screen
    return screen.value if isinstance(screen, Picker) else screen.items[screen.sel][1]


def _twin(draft, trial, params):
    # the dict of trial (a _clone of draft) that is where params is in
    # draft: where a question's answer goes (None: not in draft)
    if draft is params:
        return trial
    if type(draft) is dict:
        for k in draft:
            if type(draft[k]) in _NESTED:
                t = _twin(draft[k], trial[k], params)
                if t is not None:
                    return t
    elif type(draft) is list:
        for i in range(len(draft)):
            if type(draft[i]) in _NESTED:
                t = _twin(draft[i], trial[i], params)
                if t is not None:
                    return t
    return None
