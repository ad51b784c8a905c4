"""Every rule ID in seeds/ is cited by a test, and every cited ID exists."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ID = re.compile(r"\b(?:T42|TTM|TWI)-[A-Z0-9]+-\d+\b")
DEF = re.compile(r"^\s*- `((?:T42|TTM|TWI)-[A-Z0-9]+-\d+)`", re.M)


def defined_ids():
    ids = {}
    for md in sorted((ROOT / "seeds").glob("*.md")):
        for m in DEF.finditer(md.read_text()):
            assert m.group(1) not in ids, "rule ID %s defined twice" % m.group(1)
            ids[m.group(1)] = md.name
    return ids


def cited_ids():
    cited = {}
    for py in sorted((ROOT / "tests").rglob("*.py")):
        if py.name == "test_traceability.py":
            continue
        for m in ID.finditer(py.read_text()):
            cited.setdefault(m.group(0), py.name)
    return cited


def test_digests_define_rules():
    ids = defined_ids()
    assert any(i.startswith("T42-") for i in ids)


def test_every_rule_is_cited_by_a_test():
    missing = sorted(set(defined_ids()) - set(cited_ids()))
    assert not missing, "rule IDs with no test: %s" % ", ".join(missing)


def test_every_cited_rule_exists():
    unknown = sorted(set(cited_ids()) - set(defined_ids()))
    assert not unknown, "tests cite unknown rule IDs: %s" % ", ".join(unknown)


def test_digests_stand_alone():
    """The digests cite no note outside the repository ("(ruling M3)", the
    project's RULINGS): a point the rulebooks leave open is explained in the
    digest itself ("project reading: ..." or "(project choice ...)")."""
    for md in sorted((ROOT / "seeds").glob("*.md")):
        text = md.read_text()
        assert not re.search(r"\(ruling|RULINGS|ruling [A-Z]\d", text), md.name
