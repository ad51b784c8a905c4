"""`teatally`: the host command line. Each subcommand lives in its own module
``teatally_host.cmd_<name>`` exposing ``add_arguments(parser)`` and
``run(args) -> int``; the logic itself is the firmware package ``teatally``.
"""

import argparse
import importlib
import sys

COMMANDS = (
    ("replay", "replay a game record and print the state as JSON"),
    ("score", "score a Tea Time or Tea Witches game from JSON"),
    ("sim", "run the real firmware under the MicroPython VM with a simulated board"),
    ("flash", "compile and copy the firmware to a Pico with mpremote"),
    ("pull", "copy journals and archived games off the device"),
    ("report", "chart, CSV and HTML report of one record or a folder of records"),
    ("bench", "measure heap, CPU, flash and effort budgets on the MicroPython VM"),
)


def _module(name):
    try:
        return importlib.import_module("teatally_host.cmd_" + name)
    except ModuleNotFoundError as exc:
        if exc.name == "teatally_host.cmd_" + name:
            return None
        raise


def main(argv=None):
    parser = argparse.ArgumentParser(prog="teatally", description="Tea Tally host tools")
    sub = parser.add_subparsers(dest="command", required=True)
    mods = {}
    for name, help_ in COMMANDS:
        mod = _module(name)
        if mod is None:
            continue
        mods[name] = mod
        p = sub.add_parser(name, help=help_, description=help_)
        mod.add_arguments(p)
    args = parser.parse_args(argv)
    return mods[args.command].run(args) or 0


if __name__ == "__main__":
    sys.exit(main())
