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
    font = sys.modules.get("teatally.font")
    if font is not None:
        font.EXT[0] = font.EXT[1] = None
    ui = sys.modules.get("teatally.ui")
    if ui is not None:
        ui.WRAP[0] = ui.PAD[0] = None
    more = sys.modules.get("teatally.words_more")
    if more is not None:
        more.OTHER[0] = None
