# The archive of finished Tea for 2 games: one line per game, its final
# score on OK (opened from the home menu; imported by that key press).

import json

from teatally import words
from teatally import words_more  # noqa: F401  (their words: loaded with this module, app.App.wanted)
from teatally.ui import Menu, Message, wrap

# The archive list reads only the tail of each file, where '# final' sits.
_TAIL = 1024


def final_of(path):
    """The '# final {...}' summary an archived game ends with, or None."""
    import os

    try:
        size = os.stat(path)[6]
        with open(path, "rb") as f:
            if size > _TAIL:
                f.seek(size - _TAIL)
            tail = f.read()
    except OSError:
        return None
    at = tail.rfind(b"# final ")
    if at < 0:
        return None
    end = tail.find(b"\n", at)
    line = tail[at + 8 :] if end < 0 else tail[at + 8 : end]
    try:
        obj = json.loads(line)
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None


def _number(name):
    # "g0012.jsonl" -> "12"
    digits = name[1:-6]
    while len(digits) > 1 and digits[0] == "0":
        digits = digits[1:]
    return digits


def archive_label(name, final):
    """One menu line: game number, blue and pink totals, the winner starred."""
    num = _number(name)
    if final is None:
        return words.f("arch.noscore", num)
    try:
        b = final["blue"]
        p = final["pink"]
        w = final["winner"]
        return words.f("arch.item", num, words.player(0 if w == "blue" else 1), b if w == "blue" else p,
                       p if w == "blue" else b)
    except (KeyError, TypeError):
        return words.f("arch.noscore", num)


def archive_lines(final):
    if final is None:
        return wrap(words.t("arch.nofinal"))
    lines = [words.f("arch.totals", final.get("blue"), final.get("pink")), words.f("arch.winner", final.get("winner"))]
    objs = final.get("objectives")
    if isinstance(objs, dict):
        for v in sorted(objs):
            o = objs[v]
            if isinstance(o, dict):
                if len(lines) == 2:
                    lines.append(words.t("arch.objectives"))
                lines.append(words.f("arch.obj", v, o.get("blue"), o.get("pink")))
    return lines


def show_archive(ui):
    j = ui.app.journal
    names = j.list_archives()
    if not names:
        ui.push(Message(words.t("home.archive"), [words.t("arch.none")]))
        return
    items = []
    # newest first: the game just played is the one people look for
    for i in range(len(names) - 1, -1, -1):
        name = names[i]
        items.append((archive_label(name, final_of(j.archive_path(name))), name))
    ui.push(Menu(words.f("arch.title", len(names)), items, _archive_pick))


def _archive_pick(ui, name):
    final = final_of(ui.app.journal.archive_path(name))
    ui.push(Message(words.f("arch.game", _number(name)), archive_lines(final)))
