"""日本語: the screens' words in Japanese (issue 18), teatally.words's
TABLE for the language code "ja" (words.use("ja") imports it when the
language setting is 日本語; English play never loads it). Like English,
the words of the screens away from a round are apart, in words_ja_more
(loaded and dropped with words_more): a round's heap holds only these.

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
    # the status board (rows 6 and 7) and its legend (game menu)
    "board.hint": "BACK: ゲームメニュー",
    "board.next": "{0}: {1}? OK",
    "board.play": "OK: ラウンドをプレイ",
    # the game menu
    "menu.title": "ゲーム",
    "menu.history": "記録",
    "menu.score": "いまの得点",
    "menu.legend": "ボードの見かた",
    "menu.adjust": "修正",
    "menu.undo": "取り消し",
    "menu.redo": "やり直し",
    "menu.home": "ホーム",
    "journal.title": "記録",
    "undo.none": "取り消すものなし",
    "undo.done": "取り消しました",
    "redo.none": "やり直すものなし",
    "redo.done": "やり直しました",
    "redo.refused": "やり直せません",
    "refused.title": "できません",
    # history (a line's label: 20 columns)
    "hist.won": "R{0} {1} {2}",
    "hist.tie": "R{0} 同点: {1}",
    "hist.adjust": "R{0} 修正",
    # the home menu, settings, the archive, the error screen
    "journal.refused": "{0}行目は読めない: そこから先を消した(写し: {1})",
    "error.title": "エラー",
    "error.ok": "OK: ゲームに戻る",
    # a round's questions
    "ask.reveals": "{0}がめくったカード",
    "ask.hourglasses": "{0}: 砂時計を使う",
    "ask.pile": "{0}: どの山?",
    "pile.hint": "トップを破壊",
    "ask.space": "針を回す先",
    "ask.take": "{0}の王様: もらう",
    "ask.stars": "カードの星の数",
    "card.item": "{0} {1}",
    "card.hint": "山札に{0}/{1}",
    "card.whose": "{0}のカード",
    "note.only": "{0}の残りは{1}だけ。",
    "pile.item": "山{0}: {1}",
    "take.flamingo": "フラミンゴ",
    "take.tarts": "タルト2枚",
    "stars.on": "{0}に星はいくつ?",
    "stars.revealed": "めくったカードの星はいくつ?",
    "hand.stays": "針は{0}のまま",
    "hand.moves": "針は{0}へ",
    # the winner's action (T42-ROUND-3) and the purchase (T42-BUY-1, -2)
    "win.by": "{0}の勝ち(差{1})",
    "win.tie": "{0}の勝ち: フラミンゴ",
    "act.effect": "効果: {0}",
    "act.buy": "山{0}を購入: {1}",
    "act.none": "何もしない",
    "act.none.hint": "効果も購入もなし",
    "ask.copies": "{0}がコピー",
    "copy.apply": "使う: {0}",
    "copy.decline": "使わない",
    "copy.decline.hint": "何も起こらない",
    "buy.cost": "代金 {0}-{1}={2}",
    "buy.free": "ただ: 差{0}で勝ち",
    "effect.cat": "針を好きなところへ",
    "effect.rabbit": "共通の山札のトップを破壊",
    "effect.dormouse": "タルトを2枚もらう",
    "effect.guards": "相手が山札から3枚めくる",
    "effect.executioner": "相手の山札のトップを破壊",
    "effect.knave": "タルトを3枚もらう",
    "effect.caterpillar": "砂時計を2枚もらう",
    "effect.king": "フラミンゴかタルト2枚",
    "effect.alice": "砂時計を1枚もらう",
    "effect.queen": "共通の山札のトップを破壊",
    "space.does.stars": "得点を2点進める",
    "space.does.destroy": "自分の捨て札から1枚破壊",
    "space.does.reveal": "2枚めくり星を得点",
    "space.does.flamingo": "フラミンゴを取る",
    "space.does.copy": "相手の捨て札のトップの効果",
    # after a round (the board says a reshuffle until the next key)
    "notice.title": "ラウンド{0}の後",
    "shuffle.rabbit": "{0}: ウサギを入れて",
    "shuffle.rabbit2": "捨て札をシャッフル",
    "shuffle.norabbit": "{0}: 捨て札をシャッフル",
    "shuffle.norabbit2": "(ウサギがない)",
    "end.rabbits": "ウサギがない: ゲーム終了。",
    "end.piles": "山札4つがなくなった: ゲーム終了。",
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
    "space.reveal": "めくる",
    "space.flamingo": "フラミンゴ",
    "space.copy": "相手の札",
    "label.watch": "時計",
    "label.reveals": "めくる",
    "n.tarts": ("タルト{0}枚", "タルト{0}枚"),
    "n.stars": ("星{0}", "星{0}"),
    "n.hourglasses": ("砂時計{0}枚", "砂時計{0}枚"),
    "n.cards": ("{0}枚", "{0}枚"),
    "n.rounds": ("{0}ラウンド", "{0}ラウンド"),
}
