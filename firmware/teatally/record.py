# Reading a Tea for 2 game record into a Game: the shared path of the replay
# tool, the simulator and the device's resume. Each bad line is reported with
# its 1-based line number (RecordError), never half-applied.

from teatally import t42
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


def repeated_objective(faces):
    """T42-OBJ-2: faces (above piles 4..8, in that order) -> the first face
    repeated, as (face, the pile it is above first, the pile repeating it),
    or None. The engine accepts it; the new-game screens and the replay tool
    warn (the rulebook does not say which faces share a tile)."""
    for i in range(1, len(faces)):
        for j in range(i):
            if faces[j] == faces[i]:
                return (faces[i], t42.PILES[j], t42.PILES[i])
    return None


def repeated_text(rep):
    """repeated_objective's answer in words: "tarts is already above pile 4"."""
    return "%s is already above pile %d" % (rep[0], rep[1])
