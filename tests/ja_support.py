"""Shared by the tests that run screens in Japanese (issue 18)."""

import sys

LANGS = ("en", "ja")


def set_lang(flash, lang):
    """The device's language on a flash folder (settings.json, as the
    Settings menu writes it)."""
    from teatally_host import sim

    sim.set_language(flash, lang)


def english_again():
    """A CPython scenario in Japanese switches this process's words and font:
    back to English, in place (other modules hold these module objects)."""
    words = sys.modules.get("teatally.words")
    if words is not None:
        words.use("en")
    font = sys.modules.get("teatally.ui.font")
    if font is not None:
        font.EXT[0] = font.EXT[1] = None
    ui = sys.modules.get("teatally.ui")
    if ui is not None:
        ui.WRAP[0] = ui.PAD[0] = None
    more = sys.modules.get("teatally.words_more")
    if more is not None:
        more.OTHER[0] = None


# The modules a device has when the app stands (app.App.core): shared by a
# Japanese scenario's CPython half and the rest of this process; their
# language state is what english_again resets.
CORE = ("app", "buttons", "compat", "hw", "hw.virtual", "journal", "jsonc", "rules", "rules.t42", "ui", "ui.core", "ui.font", "ui.gfx", "words")


def fresh_modules():
    """Before a Japanese scenario runs in this process: every other teatally
    module out of sys.modules (and the package), so that the scenario
    imports its own copies and the words those make once (menus, titles)
    never reach the English tests after it; test_idle_work's
    modules_put_back fixture gives the process its own modules back."""
    import teatally

    for n in [n for n in sys.modules if n[:9] == "teatally." and n[9:] not in CORE]:
        del sys.modules[n]
        if hasattr(teatally, n[9:]):
            delattr(teatally, n[9:])
    ui = sys.modules.get("teatally.ui")
    if ui is not None:
        del ui._FONT[:]  # (the font module in sys.modules: a Pico has one, ever)
        del ui.OVERFLOWS[:]  # (what earlier runs in this process noted)
