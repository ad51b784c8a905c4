"""The language setting, English / 日本語 (issue 18).

Settings shows the choice ("Lang: English" or "言語: 日本語") and OK on it
opens the language menu, each language named in its own words. The choice
is saved in settings.json ("lang": "en" or "ja") like the other settings,
so it survives a power cut; it never reaches the journal: the records stay
language-free. The switch is at once (set_language: words.use and the
glyphs in teatally.font). English never loads this module at boot.

In English, this menu's own title and labels hold Japanese: it draws them
through ja_text (Misaki Gothic glyphs + the device font for ASCII),
imported only while it shows: English-only play never loads the glyphs
(app.App.forget unloads them once the menu is gone).
"""

import sys

from teatally.app import LANGS
from teatally.ui import LINE, Menu, bar

NAMES = ("English", "日本語")  # each language in its own words


class JaMenu(Menu):
    """A Menu whose title and labels may hold Japanese (drawn with ja_text).
    No label is cut: callers keep them within the row (15 ASCII columns)."""

    def draw(self, ui, fb):
        Menu.draw(self, ui, fb)
        _title(fb, self.title)

    def _rows(self, fb, end):
        i = self.top
        while i < end:
            _row(self, fb, i)
            i += 1


def _title(fb, title):
    bar(fb, 0)
    _ja_text().text(fb, title, 0, 0, 0)


def _row(menu, fb, i):
    # item i on its line below the title, the selected one dark on a bar
    y = LINE * (1 + i - menu.top)
    if i == menu.sel:
        bar(fb, y)
    _label(fb, menu.items[i][0], y, i != menu.sel)


def _label(fb, s, y, c):
    _ja_text().text(fb, s, 4, y, c)


def _ja_text():
    from teatally import ja_text

    return ja_text


def language_menu(ui):
    """Push the language choice (from Settings)."""
    items = [(NAMES[i], LANGS[i]) for i in range(len(LANGS))]
    m = JaMenu(TITLE, items, _set_language)
    m.sel = 1 if ui.app.settings["lang"] == "ja" else 0
    ui.push(m)


def _set_language(ui, lang):
    from teatally import ui_misc, ui_settings

    set_language(ui.app, lang)
    # the screens below hold their words: made again in the new language
    # (the language menu is only reached from home -> Settings)
    ui_misc.home(ui)
    ui.push(ui_settings.Settings(ui.app))
    ui.top().sel = len(ui.top().items) - 1  # back on the language row


# The modules a language other than English keeps loaded while it is on
# (the app never forgets them then; teatally.words and teatally.font, which
# they hook into, are loaded with the app in any language).
LANG_MODULES = ("teatally.ja_font", "teatally.ja_text", "teatally.words_ja", "teatally.ui_lang")


def use_language(lang):
    """The screens' words (teatally.words) and glyphs (teatally.font) for
    lang: "ja" loads the Japanese table and the Misaki glyphs (ja_text),
    "en" drops them. The journal never sees the language."""
    from teatally import font, ui, words

    words.use(lang)
    more = sys.modules.get("teatally.words_more")
    if more is not None:  # (loaded: the settings screen's words)
        more.OTHER[0] = more.other_table()
    if lang == "ja":
        from teatally import ja_text

        font.EXT[0] = ja_text.text
        font.EXT[1] = ja_text.width
        ui.WRAP[0] = ja_text.wrap
        ui.PAD[0] = ja_text.pad
    else:
        font.EXT[0] = font.EXT[1] = ui.WRAP[0] = ui.PAD[0] = None


def set_language(app, lang):
    """Switch the screens to lang now and keep it (settings.json); the
    language's modules join the ones the app never forgets, or leave them."""
    use_language(lang)
    app.settings["lang"] = lang
    app.save_settings()
    core = app.core
    for n in LANG_MODULES:
        if n in core:
            core.remove(n)
        if lang != "en" and n in sys.modules:
            core.append(n)
    _unload_screens(core)


def _unload_screens(core):
    # The screens' modules keep words made once (menus, titles, a question
    # made ahead): all but the app's own are unloaded, to load again in the
    # new language when a screen needs them (the idle work preloads them).
    import teatally

    names = [n for n in sys.modules if n[:9] == "teatally." and n not in core and n != "teatally.ui_lang"]
    for n in names:
        del sys.modules[n]
        if hasattr(teatally, n[9:]):
            delattr(teatally, n[9:])


TITLE = "Language 言語"
SETTING_JA = "言語: 日本語"  # ui_settings' row while Japanese is on


def all_texts():  # host side: the glyph generator and tests
    return list(NAMES) + [TITLE, SETTING_JA]
