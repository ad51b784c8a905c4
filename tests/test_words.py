"""teatally.words: all screen text in one place (issue 17; issue 18 adds
Japanese beside English). Every key the firmware asks for exists in the
English source (words/en.py), the lookups behave as the module's docstring
says, and the packed modules the device reads (teatally_host.wordpack) are
those the sources make and give back every text on both interpreters."""

import re
import types
from pathlib import Path

import pytest
from teatally import buttons, words
from teatally.rules import t42, teatime, witches
from teatally_host import wordpack

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware" / "teatally"
CALL = re.compile(r"""(?:words\.(?:t|f|n|k)|_w[tfn])\(\s*"([^"]+)"(\s*\+)?""")
PACKED = ("words", "words_keys") + tuple("words_" + c for c in words.LANGS)


def _keys():
    # (key or prefix, is_prefix) of every literal lookup in the firmware
    out = set()
    for path in FIRMWARE.rglob("*.py"):
        for m in CALL.finditer(path.read_text()):
            out.add((m.group(1), bool(m.group(2))))
    return out


def test_every_key_the_firmware_asks_for_is_there():
    table = wordpack.source("en")
    keys = _keys()
    assert len(keys) > 150
    missing = [k for k, prefix in keys if not prefix and k not in table]
    assert missing == []
    # built from names: cards, spaces, players, objectives, pad fields
    built = ["card." + c for c in t42.CARDS] + ["effect." + c for c in t42.CARDS]
    built += ["space." + s for s in t42.SPACES] + ["space.does." + s for s in t42.SPACES]
    built += ["who." + p for p in t42.PLAYERS] + ["player." + p for p in t42.PLAYERS]
    built += ["obj." + o for o in t42.OBJECTIVES if not o.startswith("most")] + ["obj.most"]
    built += ["field." + f for f in ("stars", "tarts", "hourglasses")]
    built += ["say.a." + t42.PILE_CARD[v] for v in t42.PILES]  # a card of a pile, in a history sentence
    built += ["take.does." + t for t in ("flamingo", "tarts")]  # the king's takes (T42-CARD-7)
    built += ["tt." + f[0] for f in teatime.FIELDS] + ["tw." + f[0] for f in witches.FIELDS]
    built += ["key." + layout for layout in (buttons.LAYOUT_4KEY, buttons.LAYOUT_2KEY)]  # words.k's names
    assert [k for k in built if k not in table] == []
    # the prefixes the firmware builds keys from are these
    prefixes = {k for k, prefix in keys if prefix}
    known = {"effect.", "space.does.", "field.", "tt.", "tw.", "card.", "space.", "obj.", "who.", "say.a."}
    known.add("take.does.")
    assert prefixes <= known, prefixes


def test_no_key_lies_unused():
    # every quoted key in the firmware but the words' own modules (a lookup
    # may choose its key: words.t("set.on" if on else "set.no"))
    used = set()
    for path in FIRMWARE.rglob("*.py"):
        if path.parent != FIRMWARE or path.stem not in PACKED:
            used |= set(re.findall(r'"([a-z]+\.[a-z0-9_.]+)"', path.read_text()))
    prefixes = ("effect.", "space.", "field.", "tt.", "tw.", "card.", "obj.", "who.", "player.", "label.", "n.",
                "key.")
    prefixes += ("say.a.", "take.does.")
    unused = [k for k in wordpack.source("en") if k not in used and not k.startswith(prefixes)]
    assert unused == []


def test_lookups_counts_names_and_labels():
    assert words.t("menu.history") == "History"
    assert words.t("home.new") == "New Tea for 2"  # a screen away from a round: the same table
    assert words.f("act.buy", 6, words.card("caterpillar")) == "Buy 6: caterpillar"
    assert words.n("n.tarts", 1) == "1 tart" and words.n("n.tarts", 3) == "3 tarts"
    assert words.player(0) == "Blue" and words.player(1) == "Pink"
    assert words.objective("most:king") == "most king" and words.objective("deck") == "deck size"
    assert words.label("blue guards 2/3") == "Blue guards 2/3"
    assert words.label("watch copy cat then executioner", 16) == "Then executioner"
    for key in ("no.such.key", "", "x" * 80, "menu.histor", "enu.history"):
        with pytest.raises(KeyError):
            words.t(key)


def test_another_language_plugs_in_and_falls_back(monkeypatch):
    import sys

    english = wordpack.source("en")
    partial = {"menu.history": "Geschichte", "card.king": "Koenig", "n.tarts": ("{0} Torte", "{0} Torten")}
    mod = types.ModuleType("teatally.words_xx")
    mod.TEXT, mod.AT = wordpack.pack(wordpack.completed("xx", partial, english), wordpack.order(english))
    monkeypatch.setitem(sys.modules, "teatally.words_xx", mod)
    try:
        words.use("xx")
        assert words.LANG[0] == "xx"
        assert words.t("menu.history") == "Geschichte"
        assert words.t("menu.score") == "Score now"  # not in its table: English
        assert words.n("n.tarts", 2) == "2 Torten"
        assert words.label("blue king") == "Blue Koenig"
        words.use("nope")  # unknown: kept as it was
        assert words.LANG[0] == "xx"
    finally:
        words.use("en")
    assert words.LANG[0] == "en" and words.t("menu.history") == "History"


# -- the packed modules -------------------------------------------------------------


def test_the_packed_modules_are_up_to_date():
    """The committed words_keys/words_<code> modules are what `make words`
    makes of words/*.py (edit a source, run `make words`)."""
    stale = [p.name for p, text in wordpack.generate().items() if not p.exists() or p.read_text("utf-8") != text]
    assert stale == [], "stale: %s; run make words (python -m teatally_host.wordpack)" % stale
    assert wordpack.main(["--check"]) == 0
    assert wordpack.codes() == list(words.LANGS)


def test_a_source_the_firmware_cannot_use_is_refused(tmp_path, capsys):
    english = wordpack.source("en")
    for table, said in (
        ({"menu.histry": "x"}, "'menu.histry' is not an English key"),
        ({"n.tarts": "tarts"}, "'n.tarts' must be a (one, many) pair"),
        ({"menu.history": ("a", "b")}, "'menu.history' must be a str"),
        ({"menu.history": "a\0b"}, "holds a NUL"),
    ):
        with pytest.raises(wordpack.WordsError, match=re.escape(said)):
            wordpack.completed("xx", table, english)
    (tmp_path / "xx.py").write_text("WORDS = {'a.b': 'x' + 'y'}\n")
    with pytest.raises(wordpack.WordsError, match="only literals"):
        wordpack.source("xx", tmp_path)


READ_BACK = r"""
from teatally import words
for lang in ('en', 'ja'):
    words.use(lang)
    for k in KEYS:
        if k[:2] == 'n.':
            print(lang, k, words.n(k, 1), '|', words.n(k, 2))
        else:
            print(lang, k, words.t(k))
words.use('en')
"""


def test_every_text_reads_back_from_the_packed_tables(dual):
    """Every key in both languages: words.t/n give back the source's text,
    on MicroPython as on CPython (the same output)."""
    tables = wordpack.tables()
    keys = list(tables["en"])
    out = dual("KEYS = %r\n" % keys + READ_BACK).splitlines()
    want = []
    for lang in ("en", "ja"):
        for k in keys:
            v = tables[lang][k]
            text = wordpack.packed(v) if type(v) is str else (v[0].format(1) + " | " + v[1].format(2))
            want.append("%s %s %s" % (lang, k, text))
    assert out == want


def test_the_generator_check_says_when_the_modules_are_stale(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(wordpack, "ROOT", tmp_path)
    monkeypatch.setattr(wordpack, "PACKAGE", tmp_path)
    monkeypatch.setattr(wordpack, "KEYS_MODULE", tmp_path / "words_keys.py")
    assert wordpack.main(["--check"]) == 1
    assert "words_keys.py is out of date; run make words" in capsys.readouterr().out
    assert wordpack.main([]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["words_en.py", "words_ja.py", "words_keys.py"]
    assert wordpack.main(["--check"]) == 0
