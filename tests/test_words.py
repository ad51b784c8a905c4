"""teatally.words: all screen text in one place (issue 17; issue 18 adds a
Japanese table beside it). Every key the firmware asks for exists in the
English tables, and the lookups behave as the module's docstring says."""

import re
from pathlib import Path

from teatally import t42, teatime, witches, words, words_more

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware" / "teatally"
CALL = re.compile(r"""(?:words\.(?:t|f|n)|_w[tfn])\(\s*"([^"]+)"(\s*\+)?""")


def _keys():
    # (key or prefix, is_prefix) of every literal lookup in the firmware
    out = set()
    for path in FIRMWARE.glob("*.py"):
        for m in CALL.finditer(path.read_text()):
            out.add((m.group(1), bool(m.group(2))))
    return out


def test_every_key_the_firmware_asks_for_is_there():
    table = dict(words_more.EN)
    table.update(words.EN)
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
    built += ["tt." + f[0] for f in teatime.FIELDS] + ["tw." + f[0] for f in witches.FIELDS]
    assert [k for k in built if k not in table] == []
    # the prefixes the firmware builds keys from are these
    prefixes = {k for k, prefix in keys if prefix}
    assert prefixes <= {"effect.", "space.does.", "field.", "tt.", "tw.", "card.", "space.", "obj.", "who."}, prefixes


def test_no_key_is_in_both_tables_and_none_lies_unused():
    assert not set(words.EN) & set(words_more.EN)
    # every quoted key in the firmware but the tables' own (a lookup may
    # choose its key: words.t("set.on" if on else "set.no"))
    used = set()
    for path in FIRMWARE.glob("*.py"):
        if path.stem not in ("words", "words_more"):
            used |= set(re.findall(r'"([a-z]+\.[a-z0-9_.]+)"', path.read_text()))
    prefixes = ("effect.", "space.", "field.", "tt.", "tw.", "card.", "obj.", "who.", "player.", "label.", "n.")
    unused = [k for k in list(words.EN) + list(words_more.EN) if k not in used and not k.startswith(prefixes)]
    assert unused == []


def test_lookups_counts_names_and_labels():
    assert words.t("menu.history") == "History"
    assert words.t("home.new") == "New Tea for 2"  # words_more's, through words.t
    assert words.f("act.buy", 6, words.card("caterpillar")) == "Buy 6: caterpillar"
    assert words.n("n.tarts", 1) == "1 tart" and words.n("n.tarts", 3) == "3 tarts"
    assert words.player(0) == "Blue" and words.player(1) == "Pink"
    assert words.objective("most:king") == "most king" and words.objective("deck") == "deck size"
    assert words.label("blue guards 2/3") == "Blue guards 2/3"
    assert words.label("watch copy cat then executioner", 16) == "Then executioner"


def test_another_language_plugs_in_and_falls_back(monkeypatch):
    import sys
    import types

    mod = types.ModuleType("teatally.words_xx")
    mod.TABLE = {"menu.history": "Geschichte", "card.king": "Koenig", "n.tarts": ("{0} Torte", "{0} Torten")}
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
