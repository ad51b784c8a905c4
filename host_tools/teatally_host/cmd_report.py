"""`teatally report RECORD|DIR`: what a group wants after a game night.

One record: a PNG chart of both players' stars round by round with the final
objective bonuses and the winner, a CSV of the state after every line, and
with --html a one-page report with the history in words. A game that is not
over has no winner: the report says "not finished" and shows the score as if
it ended now (the CSV's `result` column: "not finished" or "winner blue"
after each line; `round_winner` is the round's). It says where it wrote its
files. A folder: season statistics over every record in it (games, wins by
colour and by starting flamingo holder, average and best scores, how often
each objective scored); a record that cannot be read or replayed is counted
as invalid and named on stderr, the others still count.

The states come from the firmware's own engine (teatally.record / t42): the
report never re-implements a rule.
"""

import base64
import html
import io
import sys
import warnings
from pathlib import Path

from teatally import record
from teatally.rules import t42
from teatally.journal import RecordError
from teatally_host.errors import INPUT_LIMIT_NOTE, BadInput, read_bytes, record_lines, say, shown
from teatally_host.errors import folder as make_folder

COLOURS = {"blue": "#2f6fd0", "pink": "#e0529c"}
CSV_FIELDS = (
    "line",
    "round",
    "kind",
    "blue_card",
    "pink_card",
    "round_winner",
    "blue_stars",
    "blue_tarts",
    "blue_hourglasses",
    "blue_destroyed",
    "blue_deck",
    "blue_draw",
    "pink_stars",
    "pink_tarts",
    "pink_hourglasses",
    "pink_destroyed",
    "pink_deck",
    "pink_draw",
    "flamingo",
    "watch",
    "pile4",
    "pile5",
    "pile6",
    "pile7",
    "pile8",
    "rabbits",
    "result",
)
NOT_FINISHED = "not finished"


EPILOG = INPUT_LIMIT_NOTE + (
    " A damaged device journal (a line whose CRC fails, a torn last line) gets one verdict in replay, report and "
    "a season: what can be kept without asking (a byte put right by its CRC, the lines before the damage and the "
    "intact ones after it that still replay) is the game, and stderr says what was kept; a hand-written record "
    "(no CRCs) with a bad line is refused, and a season leaves it out.")


def add_arguments(p):
    p.add_argument("path", help="a game record (at most 1 MiB), or a folder of records for season statistics "
                   "(each at most 1 MiB)")
    p.add_argument("--out", help="output folder (default: next to the record)")
    p.add_argument("--html", action="store_true",
                   help="also write a one-page HTML report (of a folder: season.html, when it holds a finished game)")
    p.add_argument(
        "--lang",
        choices=("en", "ja"),
        default="en",
        help="language of the chart and the HTML report (ja: the device's Japanese words, the chart in "
        "Misaki Gothic from fonts-misaki); the CSV and the season statistics stay English",
    )


class Timeline:
    """Setup, then (line number, action, state after) for every line."""

    def __init__(self, data):
        self.steps = []
        self.setup = None
        game = None
        for n, obj in record_lines(data):
            try:
                if game is None:
                    game = t42.Game(obj)
                    self.setup = obj
                    self.steps.append((n, None, game.state))
                else:
                    self.steps.append((n, obj, game.apply(obj)))
            except t42.Refused as exc:
                raise RecordError(n, str(exc))
        if game is None:
            raise RecordError(1, "empty record")
        self.state = game.state

    def final(self):
        return t42.score(self.state)


def timeline(data, name=None):
    """The Timeline of a record (bytes), with the one verdict every command
    gives a damaged device journal (teatally_host.salvage.damaged): what it
    keeps is replayed, its account said on stderr (after `name: ` in a
    season); a record it cannot keep is BadInput ("line N: why")."""
    from teatally_host import salvage

    try:
        return Timeline(data)
    except RecordError as exc:
        kept = salvage.damaged(data, exc, "report", name)
        if kept is None:
            raise BadInput("line %d: %s" % (exc.line, exc.reason))
    return Timeline(kept)


def result(state):
    """"winner blue" or "winner pink" when the game is over, else "not finished"."""
    return "winner " + t42.score(state)["winner"] if state.over else NOT_FINISHED


# the English words of the report's own (the device's are in words/en.py)
EN = {
    "line_setup": "Setup: %s holds the flamingo; the hand on %s.",
    "line_round": "Round %d: %s",
    "line_before": "Before round %d: %s",
}


def describe(action, before, after, lang="en"):
    """One line of history in words: the setup, or "Round 4: " and the
    device's own sentences for the line (teatally.ui.t42.history.describe:
    every step the engine played, in the device's words for lang), or an
    adjustment, "Before round 5: Adjusted: ...". One numbering: the
    rounds'."""
    from teatally import words
    from teatally.ui.t42 import history

    w = EN
    if lang == "ja":
        from teatally_host import report_ja

        w = report_ja.PAGE
    was = words.LANG[0]
    words.use(lang)
    try:
        if action is None:
            return w["line_setup"] % (words.player(before.flamingo), words.space(t42.SPACES[before.watch]))
        said = history.describe(before, action)
    finally:
        words.use(was)
    if "adjust" in action:
        return w["line_before"] % (before.round + 1, said)
    return w["line_round"] % (after.round, said)


def csv_rows(tl):
    rows = [",".join(CSV_FIELDS)]
    for n, action, s in tl.steps:
        kind = "setup" if action is None else "adjust" if "adjust" in action else "round"
        b = p = w = ""
        if kind == "round":
            b, p, wi = s.last
            w = t42.PLAYERS[wi]
        vals = [n, s.round, kind, b, p, w]
        for pl in s.players:
            vals += [pl.stars, pl.tarts, pl.hourglasses, len(pl.destroyed), pl.deck_size(), pl.draw_count()]
        vals += [t42.PLAYERS[s.flamingo], t42.SPACES[s.watch]] + list(s.piles) + [s.supply_rabbits, result(s)]
        rows.append(",".join(str(v) for v in vals))
    return "\n".join(rows) + "\n"


def rounds_axis(tl):
    """The chart's x of each line of the record: the rounds played after it
    (the setup 0; an adjustment shares the x of the round before it, a
    step up or down there)."""
    return [s.round for _, _, s in tl.steps]


def chart(tl, title, lang="en"):
    """PNG bytes: stars per round, then the objective bonuses and the winner
    (lang "ja": the labels in the device's Japanese words)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ja = None
    if lang == "ja":
        from teatally_host import report_ja as ja

        font = ja.font()  # (refused before any drawing when not installed)
    fin = tl.final()
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    xs = rounds_axis(tl)
    for i, who in enumerate(t42.PLAYERS):
        ys = [s.players[i].stars for _, _, s in tl.steps]
        ax.plot(xs, ys, color=COLOURS[who], lw=2, label=ja.player(who) if ja else who.capitalize())
        if tl.state.over or fin[who] != ys[-1]:
            end = xs[-1] + 1
            ax.bar(end + (i - 0.5) * 0.8, fin[who] - ys[-1], bottom=ys[-1], width=0.8, color=COLOURS[who], alpha=0.5)
            ax.annotate(str(fin[who]), (end + (i - 0.5) * 0.8, fin[who]), ha="center", va="bottom", fontsize=9)
    if ja:
        _chart_labels_ja(fig, ax, ja, font, tl, title, fin)
    else:
        ax.set_xlabel("round")
        ax.set_ylabel("stars")
        status = "winner: %s" % fin["winner"].capitalize() if tl.state.over else "not finished (score if it ended now)"
        # the title holds the file's name: text as it is, no $math$ (a name
        # with "$\\frac$" would stop matplotlib)
        ax.set_title("%s  —  %s  (Blue %d, Pink %d)" % (title, status, fin["blue"], fin["pink"]), parse_math=False)
        bonus = ", ".join(
            "%s %s: +%d/+%d" % (v, o["objective"], o["blue"], o["pink"]) for v, o in sorted(fin["objectives"].items())
        )
        fig.text(0.01, 0.01, "objectives " + (bonus or "none scored"), fontsize=8)
        ax.legend(loc="upper left")
    ax.xaxis.get_major_locator().set_params(integer=True)  # rounds are whole
    ax.grid(alpha=0.3)
    buf = io.BytesIO()
    with warnings.catch_warnings():
        # a character of the file's name missing from the font: a box in
        # the chart, not a warning of several lines on stderr
        warnings.simplefilter("ignore")
        fig.tight_layout(rect=(0, 0.04, 1, 1))
        fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


def _chart_labels_ja(fig, ax, ja, font, tl, title, fin):
    w = ja.CHART
    ax.set_xlabel(w["xlabel"], fontproperties=font)
    ax.set_ylabel(w["ylabel"], fontproperties=font)
    status = w["winner"] % ja.player(fin["winner"]) if tl.state.over else w["unfinished"]
    ax.set_title(
        "%s  —  %s  (%s)" % (title, status, w["score"] % (fin["blue"], fin["pink"])),
        parse_math=False,
        fontproperties=font,
    )
    bonus = "、".join(
        "%s %s: +%d/+%d" % (v, ja.objective(o["objective"]), o["blue"], o["pink"])
        for v, o in sorted(fin["objectives"].items())
    )
    fig.text(0.01, 0.01, w["objectives"] + (bonus or w["none"]), fontproperties=font)
    ax.legend(loc="upper left", prop=font)


def html_page(tl, title, png, lang="en"):
    if lang == "ja":
        return _html_page_ja(tl, title, png)
    fin = tl.final()
    rows = "".join(
        "<tr><td>%s</td><td>%s</td><td>%d</td><td>%d</td></tr>" % (v, html.escape(o["objective"]), o["blue"], o["pink"])
        for v, o in sorted(fin["objectives"].items())
    )
    hist = history_items(tl, "en")
    b, p = tl.state.players
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>%s</title>"
        "<style>body{font-family:sans-serif;max-width:56em;margin:auto}td,th{padding:2px 8px}</style></head><body>"
        "<h1>%s</h1><p><b>%s</b> — Blue %d, Pink %d%s</p>"
        "<img alt='stars per round' src='data:image/png;base64,%s'>"
        "<h2>Objectives</h2><table><tr><th>pile</th><th>objective</th><th>Blue</th><th>Pink</th></tr>%s</table>"
        "<h2>Stars before objectives</h2><p>Blue %d (%d destroyed), Pink %d (%d destroyed)</p>"
        "<h2>History</h2><ul>%s</ul></body></html>\n"
    ) % (
        html.escape(title),
        html.escape(title),
        "Winner: " + fin["winner"].capitalize() if tl.state.over else "Not finished",
        fin["blue"],
        fin["pink"],
        "" if tl.state.over else " if it ended now (game not finished)",
        base64.b64encode(png).decode(),
        rows,
        b.stars,
        len(b.destroyed),
        p.stars,
        len(p.destroyed),
        hist,
    )


def history_items(tl, lang):
    """The history's <li> items, one a line of the record (a list without
    numbers: the rounds number themselves)."""
    items = []
    prev = None
    for _, action, s in tl.steps:
        items.append("<li>%s</li>" % html.escape(describe(action, prev or s, s, lang), quote=False))
        prev = s
    return "".join(items)


def _html_page_ja(tl, title, png):
    from teatally_host import report_ja as ja

    w = ja.PAGE
    fin = tl.final()
    rows = "".join(
        "<tr><td>%s</td><td>%s</td><td>%d</td><td>%d</td></tr>"
        % (v, html.escape(ja.objective(o["objective"])), o["blue"], o["pink"])
        for v, o in sorted(fin["objectives"].items())
    )
    hist = history_items(tl, "ja")
    b, p = tl.state.players
    return (
        "<!doctype html><html lang='ja'><head><meta charset='utf-8'><title>%s</title>"
        "<style>body{font-family:sans-serif;max-width:56em;margin:auto}td,th{padding:2px 8px}</style></head><body>"
        "<h1>%s</h1><p><b>%s</b> — 青 %d、赤 %d%s</p>"
        "<img alt='%s' src='data:image/png;base64,%s'>"
        "<h2>%s</h2><table><tr><th>%s</th><th>%s</th><th>青</th><th>赤</th></tr>%s</table>"
        "<h2>%s</h2><p>青 %d (%s %d)、赤 %d (%s %d)</p>"
        "<h2>%s</h2><ul>%s</ul></body></html>\n"
    ) % (
        html.escape(title),
        html.escape(title),
        w["winner"] % ja.player(fin["winner"]) if tl.state.over else w["unfinished"],
        fin["blue"],
        fin["pink"],
        "" if tl.state.over else w["if_now"],
        w["alt"],
        base64.b64encode(png).decode(),
        w["objectives"],
        w["pile"],
        w["objective"],
        rows,
        w["before"],
        b.stars,
        w["destroyed"],
        len(b.destroyed),
        p.stars,
        w["destroyed"],
        len(p.destroyed),
        w["history"],
        hist,
    )


def season(folder, skipped=None):
    """Statistics over every *.jsonl record in folder (finished games only).
    skipped(name, why) hears of each record counted as invalid."""
    stats = {
        "games": 0,
        "unfinished": 0,
        "invalid": 0,
        "wins": {"blue": 0, "pink": 0},
        "wins_by_start_flamingo": {"holder": 0, "other": 0},
        "average": {"blue": 0.0, "pink": 0.0},
        "best": None,
        "objectives": {},
    }
    totals = {"blue": 0, "pink": 0}
    for path in sorted(Path(folder).glob("*.jsonl")):
        why = None
        try:
            data = read_bytes(path, "game record")
        except BadInput as exc:
            why = str(exc)
            head = shown(str(path)) + ": "
            why = why[len(head):] if why.startswith(head) else why  # (skipped says the name)
        else:
            try:
                tl = timeline(data, shown(path.name))
            except BadInput as exc:
                why = str(exc)
        if why is not None:
            stats["invalid"] += 1
            if skipped is not None:
                skipped(path.name, why)
            continue
        if not tl.state.over:
            stats["unfinished"] += 1
            continue
        fin = tl.final()
        stats["games"] += 1
        stats["wins"][fin["winner"]] += 1
        starter = tl.setup["flamingo"]
        stats["wins_by_start_flamingo"]["holder" if fin["winner"] == starter else "other"] += 1
        for who in t42.PLAYERS:
            totals[who] += fin[who]
            if stats["best"] is None or fin[who] > stats["best"]["stars"]:
                stats["best"] = {"stars": fin[who], "player": who, "game": path.name}
        for o in fin["objectives"].values():
            d = stats["objectives"].setdefault(o["objective"], {"scored": 0, "blue": 0, "pink": 0})
            d["scored"] += 1
            d["blue"] += o["blue"]
            d["pink"] += o["pink"]
    if stats["games"]:
        for who in t42.PLAYERS:
            stats["average"][who] = round(totals[who] / stats["games"], 1)
    return stats


def season_text(stats):
    g = stats["games"]
    lines = ["games finished: %d (unfinished %d, invalid %d)" % (g, stats["unfinished"], stats["invalid"])]
    if g:
        w = stats["wins"]
        f = stats["wins_by_start_flamingo"]
        lines.append("wins: blue %d, pink %d" % (w["blue"], w["pink"]))
        lines.append("wins by the starting flamingo holder: %d, by the other player: %d" % (f["holder"], f["other"]))
        a = stats["average"]
        lines.append("average score: blue %.1f, pink %.1f" % (a["blue"], a["pink"]))
        b = stats["best"]
        lines.append("best score: %d (%s, %s)" % (b["stars"], b["player"], b["game"]))
        lines.append("objectives scored (games; stars blue/pink):")
        for name, d in sorted(stats["objectives"].items()):
            lines.append("  %-18s %3d  %d/%d" % (name, d["scored"], d["blue"], d["pink"]))
    return "\n".join(lines) + "\n"


def season_html(stats, title):
    """The season's statistics as one HTML page (English, like the text)."""
    e = html.escape
    rows = [("games finished", stats["games"]), ("unfinished", stats["unfinished"]),
            ("left out (invalid)", stats["invalid"])]
    if stats["games"]:
        w, f, a, b = stats["wins"], stats["wins_by_start_flamingo"], stats["average"], stats["best"]
        rows += [("wins, blue / pink", "%d / %d" % (w["blue"], w["pink"])),
                 ("wins by the starting flamingo holder / the other player", "%d / %d" % (f["holder"], f["other"])),
                 ("average score, blue / pink", "%.1f / %.1f" % (a["blue"], a["pink"])),
                 ("best score", "%d (%s, %s)" % (b["stars"], b["player"], b["game"]))]
    table = "".join("<tr><th>%s</th><td>%s</td></tr>" % (e(k), e(str(v))) for k, v in rows)
    objs = "".join("<tr><td>%s</td><td>%d</td><td>%d</td><td>%d</td></tr>"
                   % (e(name), d["scored"], d["blue"], d["pink"]) for name, d in sorted(stats["objectives"].items()))
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>%s</title>"
        "<style>body{font-family:sans-serif;max-width:56em;margin:auto}td,th{padding:2px 8px;text-align:left}"
        "</style></head><body><h1>%s</h1><table>%s</table>"
        "<h2>Objectives scored</h2><table><tr><th>objective</th><th>games</th><th>stars blue</th>"
        "<th>stars pink</th></tr>%s</table></body></html>\n"
    ) % (e(title), e(title), table, objs)


def run(args):
    path = Path(args.path)
    if path.is_dir():
        import json

        def skipped(name, why):
            say("report", "%s left out (invalid): %s" % (shown(name), why))

        stats = season(path, skipped)
        out = Path(args.out) if args.out else path
        files = {"season.json": json.dumps(stats, indent=1, sort_keys=True) + "\n"}
        if args.html:
            if stats["games"]:
                files["season.html"] = season_html(stats, "Season: " + path.resolve().name)
            else:
                say("report", "no season.html: %s holds no finished game" % shown(str(path)))
        written = _write(out, files)
        sys.stdout.write(season_text(stats))
        print("wrote %s" % ", ".join(written))
        return 0
    if args.path == "-":
        raise BadInput("give the record's file name, not '-': the report's files are named after it")
    tl = timeline(read_bytes(args.path, "game record"))
    out = Path(args.out) if args.out else path.parent
    lang = getattr(args, "lang", "en")
    png = chart(tl, path.stem, lang)
    files = {path.stem + ".png": png, path.stem + ".csv": csv_rows(tl)}
    if args.html:
        files[path.stem + ".html"] = html_page(tl, path.stem, png, lang)
    written = _write(out, files)
    fin = tl.final()
    if tl.state.over:
        outcome = "winner %s (blue %d, pink %d)" % (fin["winner"], fin["blue"], fin["pink"])
    else:
        outcome = "%s (blue %d, pink %d if it ended now)" % (NOT_FINISHED, fin["blue"], fin["pink"])
    print("%s: %s; wrote %s" % (path.name, outcome, ", ".join(written)))
    return 0


def _write(folder, files):
    """Write {name: bytes or text} into folder (made if missing) -> the
    paths written, absolute: the report says where its files are."""
    folder = make_folder(Path(folder).resolve(), "--out (the folder for the report's files)")
    written = []
    try:
        for name, content in files.items():
            p = folder / name
            if isinstance(content, bytes):
                p.write_bytes(content)
            else:
                p.write_text(content)
            written.append(str(p))
    except OSError as exc:
        raise BadInput("cannot write into %s: %s" % (folder, exc.strerror or exc))
    return written


# record.load is the replay path; keep it importable from here for callers
load = record.load
