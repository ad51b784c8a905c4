"""`teatally report --lang ja`: the HTML report and the chart in Japanese.

The words are the device's (teatally_host.ja_words: the Japanese
teaching sheet's vocabulary, the same as the device's words_ja); the facts are the same as in English (cmd_report
computes them from the firmware's engine). The CSV and the season
statistics stay English (column names are data, not prose), and so does
every other host tool.

The chart's font is Misaki Gothic (Debian's fonts-misaki), the font the
device draws its Japanese with: one font to install for the whole
project, and the chart then shows the players the same letter shapes as
the device. It is a pixel font (8x8 design), so the chart draws it at 16
px, two pixels a dot, where its outlines land on whole pixels.
"""

from teatally.rules import t42
from teatally_host import ja_words, jafont
from teatally_host.errors import BadInput

# 16 px at the chart's 100 dpi (points = px * 72 / dpi): Misaki's dots are
# then exactly 2x2 pixels
FONT_PT = 16 * 72 / 100
SMALL_PT = 8 * 72 / 100 * 2


def player(name):
    return ja_words.PLAYERS[name]


def card(name):
    return ja_words.CARDS.get(name, name)


def space(name):
    return ja_words.SPACES.get(name, name)


def objective(name):
    return ja_words.objective(name)


TOKENS = {"stars": "星", "tarts": "タルト", "hourglasses": "砂時計"}


def describe(action, before, after):
    """One line of history in Japanese (cmd_report.describe's facts)."""
    if action is None:
        return "準備: フラミンゴは%s、懐中時計の針は「%s」" % (
            player(t42.PLAYERS[before.flamingo]),
            space(t42.SPACES[before.watch]),
        )
    if "adjust" in action:
        parts = []
        adj = action["adjust"]
        for who in t42.PLAYERS:
            for k, v in sorted((adj.get(who) or {}).items()):
                parts.append("%s %s%+d" % (player(who), TOKENS.get(k, k), v))
        if "flamingo" in adj:
            parts.append("フラミンゴを%sへ" % player(adj["flamingo"]))
        if "watch" in adj:
            parts.append("針を「%s」へ" % space(adj["watch"]))
        return "修正: " + "、".join(parts)
    b, p, w = after.last
    win = player(t42.PLAYERS[w])
    text = "ラウンド%d: 青 %s、赤 %s。%sの勝ち" % (after.round, card(b), card(p), win)
    if "effect" in action:
        text += "、%sの効果を使う" % card(b if w == 0 else p)
    elif "buy" in action:
        text += "、%sを購入" % card(t42.PILE_CARD[action["buy"]])
    h = action.get("hourglasses", 0)
    if h:
        text += "、砂時計を%d枚使う(針: %s)" % (h, space(t42.SPACES[after.watch]))
    gained = [after.players[i].stars - before.players[i].stars for i in (0, 1)]
    if any(gained):
        text += "。得点 " + "、".join(
            "%s+%d" % (player(t42.PLAYERS[i]), gained[i]) for i in (0, 1) if gained[i]
        )
    if after.supply_rabbits < before.supply_rabbits:
        text += "。ウサギ%d枚を入れてシャッフル" % (before.supply_rabbits - after.supply_rabbits)
    if after.over:
        text += "。ゲーム終了(%s)" % ja_words.END_REASONS["piles" if after.end == "piles" else "rabbit"]
    return text + "。"


# the chart's and the page's words
CHART = {
    "xlabel": "記録の行(ラウンドと修正)",
    "ylabel": "星",
    "winner": "勝ち: %s",
    "unfinished": "未終了(いま終わった場合の得点)",
    "score": "青 %d、赤 %d",
    "objectives": "目的タイル ",
    "none": "得点なし",
}
PAGE = {
    "alt": "ラウンドごとの星",
    "winner": "勝ち: %s",
    "unfinished": "未終了",
    "if_now": "(いま終わった場合)",
    "objectives": "目的タイル",
    "pile": "山",
    "objective": "目的タイル",
    "before": "目的タイル前の星",
    "destroyed": "破壊",
    "history": "記録",
}


def font():
    """Matplotlib FontProperties of Misaki Gothic, or BadInput saying how to
    install it."""
    from matplotlib import font_manager

    path = jafont.font_path()
    if path is None:
        raise BadInput(
            "--lang ja draws the chart with Misaki Gothic, which is not installed (%s); %s"
            % (jafont.DEFAULT_FONT, jafont.INSTALL_HINT)
        )
    font_manager.fontManager.addfont(path)
    return font_manager.FontProperties(fname=path, size=FONT_PT)
