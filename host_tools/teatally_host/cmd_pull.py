"""`teatally pull`: copy the current journal and the archived games off the
device (mpremote) into a local folder, for `teatally report`. Every
``games/*.jsonl`` comes along: the finished games (gNNNN) and the journals
kept as they were found damaged or set aside (dNNNN, see teatally.journal)."""

import subprocess
import sys
from pathlib import Path

from teatally_host.errors import BadInput

LIST = "import os\ntry:\n    print(' '.join(os.listdir('games')))\nexcept OSError:\n    print('')"


def add_arguments(p):
    p.add_argument("dest", nargs="?", default="records", help="local folder (default: %(default)s)")
    p.add_argument("--port", default="auto", help="mpremote connect target (default: auto)")
    p.add_argument("--dry-run", action="store_true", help="print the mpremote commands, run nothing")


def plan(dest, port, archived):
    conn = ["connect", port]
    cmds = [conn + ["fs", "cp", ":game.jsonl", str(Path(dest) / "current.jsonl")]]
    for name in archived:
        cmds.append(conn + ["fs", "cp", ":games/" + name, str(Path(dest) / name)])
    return cmds


def _mpremote(args):
    return subprocess.run([sys.executable, "-m", "mpremote"] + args, capture_output=True, text=True)


def run(args):
    from teatally_host.cmd_flash import explain

    if args.dry_run:
        for c in plan(args.dest, args.port, ["<each file in :games/>"]):
            print("mpremote " + " ".join(c))
        return 0
    res = _mpremote(["connect", args.port, "exec", LIST])
    if res.returncode != 0:
        print("teatally pull: " + (explain(res.stdout + res.stderr) or res.stderr.strip()), file=sys.stderr)
        return 2
    names = [n for n in res.stdout.split() if n.endswith(".jsonl")]
    try:
        Path(args.dest).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInput("cannot make the folder %s: %s" % (args.dest, exc.strerror or exc))
    got = 0
    for c in plan(args.dest, args.port, names):
        r = _mpremote(c)
        if r.returncode == 0:
            got += 1
        elif c[3] != ":game.jsonl":  # no current game is fine
            print("teatally pull: could not copy %s: %s" % (c[3], r.stderr.strip()), file=sys.stderr)
    print("pulled %d file(s) into %s" % (got, args.dest))
    return 0
