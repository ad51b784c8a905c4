"""`teatally`: the host command line. Each subcommand lives in its own module
``teatally_host.cmd_<name>`` exposing ``add_arguments(parser)`` and
``run(args) -> int``; the logic itself is the firmware package ``teatally``.

Whatever goes wrong, a command ends with one line on stderr, ``teatally
<command>: ...``, and the exit statuses of teatally_host.errors: a command
raises errors.BadInput for bad input (exit 2); a mistake in the options is
argparse's (exit 2, one line here too); anything else is a bug, still one
line (exit 3; TEATALLY_DEBUG=1 shows the traceback). A reader that stops
early (`teatally flash --dry-run | head -1`) ends the output, not the
command: it finishes its work and exits as it would have.
"""

import argparse
import importlib
import os
import sys

from teatally_host.errors import BAD_INPUT, INTERNAL, BadInput, one_line, say

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


class Parser(argparse.ArgumentParser):
    """argparse's parser, but a mistake in the options is one line (the
    usage is one -h away) with argparse's exit status 2."""

    def error(self, message):
        self.exit(BAD_INPUT, "%s: %s (%s -h shows the options)\n" % (self.prog, one_line(message), self.prog))


class PipeSafe:
    """sys.stdout while a command runs: once the reader has gone (a closed
    pipe), the rest of the output goes nowhere and the command goes on."""

    def __init__(self, out):
        self.out = out
        self.gone = False

    def write(self, text):
        if not self.gone:
            try:
                return self.out.write(text)
            except BrokenPipeError:
                self.reader_gone()
        return len(text)

    def flush(self):
        if not self.gone:
            try:
                self.out.flush()
            except BrokenPipeError:
                self.reader_gone()

    def reader_gone(self):
        # what is still buffered (and the interpreter's last flush) goes to
        # /dev/null instead of the closed pipe
        self.gone = True
        try:
            fd = self.out.fileno()
        except (AttributeError, OSError, ValueError):
            return  # not a file: nothing flushes it at exit
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, fd)
        finally:
            os.close(null)

    def __getattr__(self, name):
        return getattr(self.out, name)


def run_command(name, mod, args):
    """mod.run(args) -> its exit status; bad input, a bug or Ctrl-C end in
    one stderr line (see the module docstring)."""
    out = sys.stdout
    sys.stdout = safe = PipeSafe(out)
    try:
        code = mod.run(args) or 0
        safe.flush()
        return code
    except BadInput as exc:
        say(name, exc)
        return BAD_INPUT
    except KeyboardInterrupt:
        say(name, "interrupted")
        return 130
    except Exception as exc:
        if os.environ.get("TEATALLY_DEBUG"):
            raise
        say(name, "internal error, please report it (TEATALLY_DEBUG=1 shows where): %s: %s" % (
            type(exc).__name__, exc))
        return INTERNAL
    finally:
        sys.stdout = out


def main(argv=None):
    parser = Parser(prog="teatally", description="Tea Tally host tools")
    sub = parser.add_subparsers(dest="command", required=True)
    mods = {}
    parsers = {}
    for name, help_ in COMMANDS:
        mod = _module(name)
        if mod is None:
            continue
        mods[name] = mod
        p = parsers[name] = sub.add_parser(name, help=help_, description=help_, epilog=getattr(mod, "EPILOG", None))
        mod.add_arguments(p)
    args, extra = parser.parse_known_args(argv)
    if extra:  # said by the command's parser: "teatally flash: unrecognized ..."
        parsers[args.command].error("unrecognized arguments: %s" % " ".join(extra))
    return run_command(args.command, mods[args.command], args)


if __name__ == "__main__":
    sys.exit(main())
