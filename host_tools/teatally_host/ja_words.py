"""The Japanese edition's own words (issue 18): the vocabulary of the
Japanese teaching sheet 「2人でお茶を・インスト」 (malts_y; seeds/, the file
beginning 「2人でお茶を」), not a dictionary's.

Keyed by the names the records, code and tests use (RULINGS.md): the
journal stays language-free (`blue`/`pink`, `cat`..`queen`, the watch
spaces). This is the host's vocabulary (`teatally report --lang ja`); the
device's screens use the same words from their source words/ja.py
(packed into teatally.words_ja; tests/test_ja.py checks that the two
agree).

Where the sheet has a term it is used as the sheet writes it:
- the players' colours 青 / 赤 (the sheet's; the record keeps blue/pink),
  their score pieces 三月うさぎ / いかれ帽子屋;
- 星 (a star printed on a card or the watch), 得点 (points), 得点ボード;
- ティー・カップ (a teacup worth 25), タルト, 砂時計, フラミンゴ, 懐中時計
  and its 針 (hand), ストック (the common supply);
- 山札 (draw pile), 捨て札 (discard pile), デッキ (both together), 共通の
  山札 (the score board's piles 4..8), 破壊 / 破壊ボックス, シャッフル;
- めくる (reveal), 購入 (buying; purchase points = 数字の差, no change:
  おつりは出ません), アクション, 効果, ラウンド, 手番, 同点, 勝ち;
- ゲーム終了 and its two causes, 目的タイル and ボーナス得点;
- the cards チェシャ猫, ウサギ, ヤマネ, 兵隊 (the sheet's トランプの兵隊),
  処刑人, ハートのジャック, イモムシ, 王様 (the sheet's objective list; its
  card list says 王), アリス, 女王;
- the watch spaces from 12 o'clock clockwise (the sheet's order, the
  engine's too), short enough for a screen's title with a card in it:
  星2つ, 捨て札を破壊, めくる (2枚), フラミンゴ, 相手の札 (相手の捨て札).
Tea Time and Tea Witches have no Japanese sheet here: their names are
katakana, the Tea Time characters the sheet's where it has them (いかれ
帽子屋, 三月うさぎ, チェシャ猫, イモムシ, 女王).
"""

LANGUAGE = "日本語"  # the setting's own name for itself

PLAYERS = {"blue": "青", "pink": "赤"}
# the score pieces (sheet, setup 2)
PIECES = {"blue": "三月うさぎ", "pink": "いかれ帽子屋"}

CARDS = {
    "cat": "チェシャ猫",
    "rabbit": "ウサギ",
    "dormouse": "ヤマネ",
    "guards": "兵隊",
    "executioner": "処刑人",
    "knave": "ハートのジャック",
    "caterpillar": "イモムシ",
    "king": "王様",
    "alice": "アリス",
    "queen": "女王",
}

# What each card does, in the sheet's words, short enough for a line or two.
CARD_EFFECTS = {
    "cat": "針を好きなところへ回す",
    "rabbit": "共通の山札のトップを破壊",
    "dormouse": "タルトを2枚もらう",
    "guards": "相手が山札から3枚めくる",
    "executioner": "相手の山札のトップを破壊",
    "knave": "タルトを3枚もらう",
    "caterpillar": "砂時計を2個もらう",
    "king": "フラミンゴかタルト2枚",
    "alice": "砂時計を1枚もらう",
    "queen": "共通の山札のトップを破壊",
}

# The pocket watch's spaces (t42.SPACES order: 12 o'clock, clockwise).
SPACES = {
    "stars": "星2つ",
    "destroy": "捨て札を破壊",
    "reveal": "めくる",
    "flamingo": "フラミンゴ",
    "copy": "相手の札",
}
SPACE_EFFECTS = {
    "stars": "得点を2点進める",
    "destroy": "自分の捨て札から1枚破壊",
    "reveal": "山札から2枚めくり星を得点",
    "flamingo": "フラミンゴを取る",
    "copy": "相手の捨て札のトップの効果",
}

# The objective tiles (目的タイル), as the sheet draws and explains them.
OBJECTIVES = {
    "hourglasses": "砂時計=星2つ",
    "tarts": "タルト=星",
    "deck": "+デッキの枚数",
    "destroyed": "+破壊した枚数",
}
OBJECTIVE_EFFECTS = {
    "hourglasses": "砂時計1枚につき2点",
    "tarts": "タルト1枚につき1点",
    "deck": "デッキの総枚数が多い方",
    "destroyed": "破壊ボックスの枚数が多い方",
}


def objective(name):
    """The tile's words: `most:king` -> ＋王様 (the sheet's "+王様=?星")."""
    if name[:5] == "most:":
        return "+" + CARDS.get(name[5:], name[5:])
    return OBJECTIVES.get(name, name)


# The rest of the sheet's vocabulary, by the English term the screens use.
TERMS = {
    "star": "星",
    "stars": "星",
    "points": "得点",
    "score board": "得点ボード",
    "teacup": "ティー・カップ",
    "tart": "タルト",
    "tarts": "タルト",
    "hourglass": "砂時計",
    "hourglasses": "砂時計",
    "flamingo": "フラミンゴ",
    "watch": "懐中時計",
    "hand": "針",
    "supply": "ストック",
    "draw pile": "山札",
    "discard pile": "捨て札",
    "deck": "デッキ",
    "pile": "共通の山札",
    "top": "トップ",
    "destroy": "破壊",
    "destroyed": "破壊ボックス",
    "shuffle": "シャッフル",
    "add rabbit": "ウサギを入れる",
    "reveal": "めくる",
    "buy": "購入",
    "purchase points": "数字の差",
    "no change": "おつりは出ません",
    "action": "アクション",
    "effect": "効果",
    "round": "ラウンド",
    "turn": "手番",
    "wins": "の勝ち",
    "tie": "同点",
    "flamingo wins ties": "同点はフラミンゴの勝ち",
    "start player": "スタート・プレイヤー",
    "game over": "ゲーム終了",
    "objective": "目的タイル",
    "bonus": "ボーナス得点",
    "take": "もらう",
    "nothing": "何もしない",
    "language": "言語",
}

# Why the game ended (t42 state.end: "piles" or "rabbit"), the sheet's two.
END_REASONS = {
    "piles": "共通の山札5つのうち4つがなくなった",
    "rabbit": "ウサギを引くときにウサギがない",
}

# The score pads (no Japanese sheet: katakana, the sheet's names where it
# has them). Tea Time's characters in teatime.CHARACTERS order.
GAMES = {"tea-for-2": "2人でお茶を", "teatime": "ティータイム", "witches": "ティー・ウィッチーズ"}
TEATIME_CHARACTERS = {
    "hatter": "いかれ帽子屋",
    "cheshire_cat": "チェシャ猫",
    "white_rabbit": "白ウサギ",
    "caterpillar": "イモムシ",
    "queen": "女王",
    "march_hare": "三月うさぎ",
    "alice": "アリス",
}
# Tea Witches' fields (witches.FIELDS keys), with the rulebook's letters.
WITCHES_FIELDS = {
    "coins": "Aコイン",
    "teas": "Bお茶",
    "upgrades": "Cアップグレード",
    "coupons": "Dクーポン",
    "loyal_witches": "Eウィッチ",
    "loyal_celebriteas": "Fセレブリティー",
    "hex_wards": "Gヘックス",
    "togo2": "Hテイクアウト2",
    "togo4": "Hテイクアウト4",
    "special_teas": "Iスペシャルティー",
    "loyal_track": "ロイヤルトラック",
}


def all_texts():
    """Every Japanese text of this module (the glyph subset is made from
    these and the string table's)."""
    out = [LANGUAGE]
    for d in (
        PLAYERS,
        PIECES,
        CARDS,
        CARD_EFFECTS,
        SPACES,
        SPACE_EFFECTS,
        OBJECTIVES,
        OBJECTIVE_EFFECTS,
        TERMS,
        END_REASONS,
        GAMES,
        TEATIME_CHARACTERS,
        WITCHES_FIELDS,
    ):
        for k in d:
            out.append(d[k])
    for c in CARDS:
        out.append(objective("most:" + c))
    return out
