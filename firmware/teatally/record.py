# Reading a Tea for 2 game record into a Game: the shared path of the replay
# tool, the simulator and the device's resume. Each bad line is reported with
# its 1-based line number (RecordError), never half-applied.

from teatally.rules import t42
from teatally.journal import RecordError, parse_record_lines


def load(source, upto=None):
    """Game from a record (text, bytes or iterable of lines).

    upto: stop after that line number (the state "after line N")."""
    game = None
    try:
        for n, obj in parse_record_lines(source):
            if upto is not None and n > upto:
                break
            try:
                if game is None:
                    game = t42.Game(obj)
                else:
                    game.apply(obj)
            except t42.Refused as exc:
                raise RecordError(n, str(exc))
    except RecordError as exc:
        # the reader looks at the line after N before stopping: what is
        # wrong there does not change the state after line N
        if upto is None or exc.line <= upto:
            raise
    if game is None:
        raise RecordError(1, "empty record: the first line must be the setup")
    return game
