"""日本語: the screens' words in Japanese (issue 18), teatally.words's
TABLE for the language code "ja" (words.use("ja") imports it when the
language setting is 日本語; English play never loads it).

The vocabulary is the Japanese teaching sheet's (teatally_host.ja_words,
the host's copy for `teatally report --lang ja`, says where each word
comes from; tests/test_ja.py checks the two agree):
青/赤 for the players, 星, タルト, 砂時計, フラミンゴ, 懐中時計 and its 針,
山札, 捨て札, 破壊, 購入 and 数字の差, 目的タイル, ゲーム終了, the cards'
and the watch spaces' names.

Widths: Japanese glyphs are 8 px (Misaki Gothic, teatally.ja_font), ASCII
6 px (teatally.font): a title holds 16 Japanese characters, a menu line
15; longer text is wrapped by ui.wrap (ja_text.wrap: between any two
Japanese characters). tests/test_text_fit.py runs in both languages.
Templates keep English's numbered fields ({0}, {1}); a count word is a
(one, many) pair like English's, the same template twice (no plural).
Every character outside ASCII must be in the glyph subset ja_font
(regenerate with `make jafont`; tests/test_ja.py fails on a missing one).
"""

TABLE = {
    # the status board
    "board.blue": "青",
    "board.pink": "赤",
    # the two players and the game's names (t42's names -> words)
    "player.blue": "青",
    "player.pink": "赤",
    "who.blue": "青",
    "who.pink": "赤",
    "card.cat": "チェシャ猫",
    "card.rabbit": "ウサギ",
    "card.dormouse": "ヤマネ",
    "card.guards": "兵隊",
    "card.executioner": "処刑人",
    "card.knave": "ハートのジャック",
    "card.caterpillar": "イモムシ",
    "card.king": "王様",
    "card.alice": "アリス",
    "card.queen": "女王",
    "space.stars": "星2つ",
    "space.destroy": "捨て札を破壊",
    "space.reveal": "2枚めくる",
    "space.flamingo": "フラミンゴ",
    "space.copy": "相手の捨て札",
    "obj.most": "+{0}",
    "obj.tarts": "タルト=星",
    "obj.deck": "+デッキの枚数",
    "obj.hourglasses": "砂時計=星2つ",
    "obj.destroyed": "+破壊した枚数",
    "n.tarts": ("タルト{0}枚", "タルト{0}枚"),
    "n.stars": ("星{0}", "星{0}"),
    "n.hourglasses": ("砂時計{0}枚", "砂時計{0}枚"),
    "n.cards": ("{0}枚", "{0}枚"),
    "n.rounds": ("{0}ラウンド", "{0}ラウンド"),
}


def all_texts():  # host side: the glyph generator and tests
    out = []
    for k in TABLE:
        v = TABLE[k]
        if type(v) is tuple:
            out.extend(v)
        else:
            out.append(v)
    return out
