"""The README's host commands work as printed (issue 17): every `teatally
<command>` it shows is a command the CLI has, and in a fresh shell the two
set-up commands the README gives (`make venv`, `. .venv/bin/activate`) put
`teatally` on the PATH."""

import os
import re
import subprocess
from pathlib import Path

from teatally_host import cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_every_teatally_command_in_the_readme_exists():
    used = set(re.findall(r"\bteatally ([a-z]+)\b", README))
    known = {name for name, _ in cli.COMMANDS}
    assert used and used <= known, used - known


def test_the_two_set_up_commands_put_teatally_on_the_path():
    assert "make venv" in README and ". .venv/bin/activate" in README
    make = subprocess.run(["make", "-n", "venv"], cwd=ROOT, capture_output=True, text=True)
    assert make.returncode == 0, make.stderr
    # a fresh shell: no venv on the PATH, nothing of this process's environment
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp")}
    shell = subprocess.run(
        ["bash", "-c", ". .venv/bin/activate && command -v teatally && teatally --help"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert shell.returncode == 0, shell.stderr
    assert shell.stdout.splitlines()[0] == str(ROOT / ".venv" / "bin" / "teatally")
    assert "replay" in shell.stdout
