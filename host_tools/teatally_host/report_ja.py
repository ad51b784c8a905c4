"""`teatally report --lang ja`: the HTML report and the chart in Japanese.

The words are the device's (teatally_host.ja_words: the Japanese
teaching sheet's vocabulary, the same as the device's words_ja); the
history's sentences are the device's own (cmd_report.describe: the
firmware's ui.t42.history in Japanese), so the facts are the same as in
English. The CSV and the season
statistics stay English (column names are data, not prose), and so does
every other host tool.

The chart's font is Misaki Gothic (Debian's fonts-misaki), the font the
device draws its Japanese with: one font to install for the whole
project, and the chart then shows the players the same letter shapes as
the device. It is a pixel font (8x8 design), so the chart draws it at 16
px, two pixels a dot, where its outlines land on whole pixels.
"""

from teatally_host import ja_words, jafont
from teatally_host.errors import BadInput

# 16 px at the chart's 100 dpi (points = px * 72 / dpi): Misaki's dots are
# then exactly 2x2 pixels
FONT_PT = 16 * 72 / 100
SMALL_PT = 8 * 72 / 100 * 2


def player(name):
    return ja_words.PLAYERS[name]


def objective(name):
    return ja_words.objective(name)


# the chart's and the page's words
CHART = {
    "xlabel": "ラウンド",
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
    # the history's lines (cmd_report.describe: the device's sentences after these)
    "line_setup": "準備: フラミンゴは%s、懐中時計の針は「%s」。",
    "line_round": "ラウンド%d: %s",
    "line_before": "ラウンド%dの前: %s",
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
