"""Every word the device shows, in one place (issue 17); issue 18 adds
Japanese beside English.

Screens never spell screen text themselves; they ask here:

    from teatally import words
    words.t("menu.history")            # "History"
    words.f("act.buy", 6, "knave")     # "Buy 6: knave"
    words.n("n.tarts", 2)              # "2 tarts"
    words.card("caterpillar")          # "caterpillar" (t42's names in, words out)
    words.space("reveal"), words.player(0), words.objective("most:king")
    words.k("board.hint")              # "BACK: game menu" / "hold B: game menu"

Keys are named in one place (issue 30): a text that names a key says
which gesture by a named field, "{ok}: start the game" (fields, in this
order: up, down, ok, back, redo, undo: the logical events PRESS UP ...
PRESS BACK, LONG OK, LONG BACK; packed as {4}..{9}), and k() fills them
with the board's names for them, the text "key.<layout>" of its layout ("UP|DOWN|OK|BACK|
long OK|long BACK" for "4key"; "A+B|A|B|hold B|..." for "2key"). The app
names the layout at boot (board_keys); a new board adds its layout's
"key.<layout>" (without one, the 4-key names stand).

Keys are ASCII, "<screen or topic>.<what>". A text is a str; a template
for f() uses str.format's numbered fields ("{0} {1}"), so a translation may
put the values in another order; a count word for n() is a pair (one,
many) of templates with {0}, e.g. ("{0} tart", "{0} tarts") -- a language
without plurals repeats the same template. f() fills plain values only
(numbers, words already looked up); a value that is itself a count word
goes through n() first.

Where the words are: the sources a translator edits are words/<code>.py at
the top of the repository (words/en.py, the reference, holds every key;
words/ja.py). `make words` (python -m teatally_host.wordpack) packs them
into the modules read here, which are generated and committed (a test
fails while they are stale): words_keys (every key once, as a hash) and one
words_<code> a language (its texts as one bytes blob with their offsets).
Why packed: a dict of 300 str costs about three times its characters of
heap on MicroPython; packed, a language costs about its bytes (see
teatally_host.wordpack for the layout). use(code) switches (importing that
language's module and dropping the one left: one language's texts are in
the heap at a time); LANG names the language in use. Every key the
firmware uses exists (tests/test_words.py checks each literal t/f/n key in
firmware/ and the names built from t42's, teatime's and witches' names); a
key a translation lacks has English's text in its module. The game record
(journal) never holds these words: records keep t42's names ("blue",
"caterpillar", "reveal"), and screens look them up here (card(), space(),
player()).

Width: the screens draw text with ui.text in the 6x8 font (teatally.font:
ASCII, 21 columns a line, 20 in a menu); ui.wrap splits text at spaces
into lines that fit. A language with other glyphs extends teatally.font
(width, draw) and ui.wrap; tests/test_text_fit.py walks every screen and
fails on any text wider than its place.

Cost on the Pico: a text is made when first asked for (a slice of the
language's bytes, decoded: a few allocations and a look-up in the interned
strings, about a format's cost) and kept (up to KEEP texts: when full,
one goes), so a screen that asks again on every press gets the same str
for a dict look-up; f() and n() make one new str (a format) on every call, so
the screens that redraw on every press keep what they made (see ui.core
on new strings).
"""

import sys

from teatally import words_keys

LANGS = ("en", "ja")  # the screens' languages (the setting "lang", ui.lang)
LANG = ["en"]  # the language in use (a list: use() changes it in place)
_TABLE = [b"", b""]  # the language in use: its module's TEXT and AT (words_<code>)
# The texts t() made lately, by key: a screen asks for the same few again
# and again (a hint on every press), and each text made costs a slice, a
# decode and a look-up in the interned strings. At most KEEP, a few
# screens' worth: full frame p95 46.4 ms at 24 (46.8 at 16, 47.2 at 48;
# pico_ssd1306 in Japanese, the bench's and corpus games), and 24 texts
# fewer are 1.7 KB of heap (heap_live_peak_bytes).
_MADE = {}
_ORDER = []  # _MADE's keys, the oldest first
KEEP = 24
_HASHES = words_keys.HASHES  # (_find's tables)
_FIRST = words_keys.FIRST
# The board's key layout (board_keys): k() names its keys.
LAYOUT = ["4key"]


def use(code):
    """Switch the screens' language: a code with a packed module
    teatally.words_<code> ("en", "ja"); the module of the language left is
    dropped (garbage once nothing holds it). Unknown codes keep the
    language in use."""
    if code == LANG[0] and _TABLE[1]:
        return
    try:
        mod = __import__("teatally.words_" + code, None, None, ("TEXT",))
    except ImportError:
        return
    left = LANG[0]
    _TABLE[0] = mod.TEXT
    _TABLE[1] = mod.AT
    _MADE.clear()
    del _ORDER[:]
    LANG[0] = code
    if left != code:
        name = "teatally.words_" + left
        if sys.modules.pop(name, None) is not None:
            pkg = sys.modules["teatally"]
            if hasattr(pkg, "words_" + left):
                delattr(pkg, "words_" + left)


def _find(k):
    # the number of the key whose ASCII bytes are k, or -1: where its hash
    # (teatally_host.wordpack.key_hash) stands in words_keys.HASHES among
    # the keys as long as k. Small ints only: nothing allocated.
    n = len(k)
    if n < 2 or n + 1 >= len(_FIRST):
        return -1
    h = sum(k) << 16 ^ k[0] << 12 ^ k[1] << 8 ^ k[n >> 1] << 4 ^ k[n - 1]
    try:
        return _HASHES.index(h, _FIRST[n], _FIRST[n + 1])  # (C's loop, not Python's)
    except ValueError:
        return -1


def _text(key):
    # key's text in the language in use (None if no such key): a slice of
    # its bytes (from AT: 2 bytes an offset), decoded
    i = _find(key.encode())
    return None if i < 0 else _made(i)


def _made(i):
    # text number i in the language in use
    at = _TABLE[1]
    i += i
    return _TABLE[0][at[i] << 8 | at[i + 1] : at[i + 2] << 8 | at[i + 3]].decode()


def t(key):
    """The text for key in the language in use (a count word's key: its
    two templates, NUL between them; n() picks one)."""
    v = _MADE.get(key)
    if v is None:
        v = _text(key)
        if v is None:
            raise KeyError(key)
        if len(_ORDER) >= KEEP:
            # the oldest goes (popitem() dropped the same table slot again
            # and again, so a text asked for on every round was made again
            # on every round)
            del _MADE[_ORDER.pop(0)]
        _MADE[key] = v
        _ORDER.append(key)
    return v


def f(key, *args):
    """The template key filled with args: t(key).format(*args)."""
    return t(key).format(*args)


def n(key, count):
    """A count in words: key's (one, many) pair filled with count."""
    v = t(key)  # packed as "one\0many"
    i = v.find("\0")
    return (v[:i] if count == 1 else v[i + 1 :]).format(count)


def board_keys(layout):
    """Name the keys of this board's layout ("4key", "2key": teatally.buttons)
    from now on (the app, at boot)."""
    if layout != LAYOUT[0]:
        LAYOUT[0] = layout
        _MADE.clear()
        del _ORDER[:]


def k(key, *args):
    """A text that names keys: key's template with this board's names for
    them in its named fields ("{back}: game menu" in words/; packed as
    {4}..{9}, the names' order in the text "key.<layout>", else
    "key.4key"), args in its numbered ones {0}..{3}. The template with the
    names in is kept like t()'s texts, so a call costs what t() or f()
    costs (a status board's question is made on every new state). A text
    that names keys is read through k() only."""
    v = _MADE.get(key)
    if v is None:
        n = (_text("key." + LAYOUT[0]) or _text("key.4key")).split("|")
        v = t(key).format("{0}", "{1}", "{2}", "{3}", *n)
        _MADE[key] = v  # (in t()'s place)
    return v.format(*args) if args else v


def card(name):
    """A card's name on screen, from t42's name ("caterpillar")."""
    return t("card." + name)


def space(name):
    """A watch space's name on screen, from t42's name ("reveal")."""
    return t("space." + name)


def player(i):
    """Player i's name (0 blue, 1 pink), capitalised: "Blue"."""
    return t("player.blue") if i == 0 else t("player.pink")


def label(what, room=21):
    """An engine label (t42.Need.what: "blue guards 2/3", "watch reveal
    1/2") in words: each name in it looked up (who., card., space.,
    label.<word>), the rest kept, the first letter capitalised. A label
    longer than room columns (a chain of copies: "watch copy cat ...")
    keeps its last step (after the last ">") when the whole does not fit:
    the step asked about."""
    parts = what.split(" ")
    for i in range(len(parts)):
        parts[i] = _name(parts[i])
    s = " ".join(parts)
    while _cols(s) > room and " > " in s:
        s = s[s.find(" > ") + 3 :]  # the steps before the last
    if _cols(s) > room:
        # the step itself too long: its start goes (a cut, noted for
        # tests/test_text_fit.py; no screen asks for one)
        if len(CUT) < 20:
            CUT.append(s)
        while _cols(s) > room and " " in s:
            s = s[s.find(" ") + 1 :]
    return s[:1].upper() + s[1:]


# Labels that lost the start of their step (label()), as ui.OVERFLOWS notes
# text wider than its place: read and emptied by tests/test_text_fit.py.
CUT = []


def _cols(s):
    # s's width in columns of the 6x8 font: its length in English; another
    # language's glyphs may be wider (issue 18: teatally.ui.font measures
    # them; ui.lang loaded it with the language)
    font = sys.modules.get("teatally.ui.font") if LANG[0] != "en" else None
    if font is None:
        return len(s)
    return (font.width(s) + 5) // 6


# the groups of keys whose names label() looks up, in order
_GROUPS = ("who.", "card.", "space.", "label.")


def _name(w):
    # w's words: the first group that names it
    for group in _GROUPS:
        v = _text(group + w)
        if v is not None:
            return v
    return w


def objective(o):
    """An objective's name from the setup's ("most:king", "tarts")."""
    if o[:5] == "most:":
        return f("obj.most", card(o[5:]))
    return t("obj." + o)


use("en")
