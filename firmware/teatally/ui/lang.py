"""The language setting, English / 日本語 (issue 18).

Settings shows the choice ("Lang: English" or "言語: 日本語") and OK on it
opens the language menu, each language named in its own words. The choice
is saved in settings.json ("lang": "en" or "ja") like the other settings,
so it survives a power cut; it never reaches the journal: the records stay
language-free. The switch is at once (set_language: words.use and the
glyphs in teatally.ui.font). English never loads this module at boot.

In English, this menu's own title and labels hold Japanese: it draws them
through ja_text (Misaki Gothic glyphs + the device font for ASCII),
imported only while it shows: English-only play never loads the glyphs
(in English they are garbage once the menu is gone).
"""

import gc
import sys

from teatally.ui.core import LINE, Menu, bar
from teatally.words import LANGS

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
    _ja_text().text(fb, title, 1, 0, 0)  # a lit column left of the first letter (ui.core.header)
    fb.hline(0, LINE - 1, LINE * 16, 0)  # its last row dark, as ui.core.header's


def _row(menu, fb, i):
    # item i on its line below the title, the selected one dark on a bar
    y = LINE * (1 + i - menu.top)
    if i == menu.sel:
        bar(fb, y)
    _label(fb, menu.items[i][0], y, i != menu.sel)


def _label(fb, s, y, c):
    _ja_text().text(fb, s, 4, y, c)


def _ja_text():
    from teatally.ui import ja_text

    return ja_text


def language_menu(ui, done):
    """Push the language choice (from Settings); done(ui) is called once a
    language was chosen (Settings makes home and itself again)."""
    items = [(NAMES[i], LANGS[i]) for i in range(len(LANGS))]

    def pick(ui, lang):
        set_language(ui.app, lang)
        done(ui)

    m = JaMenu(TITLE, items, pick, back=_back)
    m.sel = 1 if ui.app.settings["lang"] == "ja" else 0
    ui.push(m)


def _back(ui):
    # BACK: no change; in English the glyphs (and this module) are garbage
    ui.pop()
    if ui.app.settings["lang"] == "en":
        _forget_language()


def _forget_language():
    for n in LANG_MODULES:
        _forget(n)
    _forget("teatally.ui.lang")


def use_language(lang):
    """The screens' words (teatally.words) and glyphs (teatally.ui.font) for
    lang: "ja" loads the Japanese table and the Misaki glyphs (ja_text),
    "en" drops them. The journal never sees the language."""
    from teatally import words
    from teatally.ui import core, font

    words.use(lang)  # (it drops the words of the language left)
    if lang == "ja":
        from teatally.ui import ja_text

        font.EXT[0] = ja_text.text
        font.EXT[1] = ja_text.width
        core.WRAP[0] = ja_text.wrap
        core.PAD[0] = ja_text.pad
    else:
        font.EXT[0] = font.EXT[1] = core.WRAP[0] = core.PAD[0] = None


def set_language(app, lang):
    """Switch the screens to lang now and keep it (settings.json)."""
    switch(lang)
    app.settings["lang"] = lang
    app.save_settings()
    if lang == "en":
        _forget_language()  # garbage once the menu is gone


# The glyph modules a language other than English loads (kept while it is
# on; its words, teatally.words_<code>, come and go with words.use).
LANG_MODULES = ("teatally.ui.ja_font", "teatally.ui.ja_text")

# The modules under teatally.ui that hold no words: never made again.
_STAY = ("teatally.ui", "teatally.ui.t42", "teatally.ui.core", "teatally.ui.font", "teatally.ui.gfx",
         "teatally.ui.gfx_more", "teatally.ui.lang", "teatally.ui.ja_font", "teatally.ui.ja_text",
         "teatally.ui.hold")


def switch(lang):
    """The words, glyphs and screens in lang (at boot in another language
    than English, and from the language menu). The screens' modules keep
    words made once (menus, titles, a question made ahead): every hold on
    them is let go and they are unloaded (the old screens garbage), then
    the language is switched, then those another module holds (the app's
    home menu and status board) are imported again in the language now on.
    In that order the heap never holds the old screens beside the new
    words and glyphs (the 60-round game at 144 KB booting in Japanese
    does not fit otherwise: tests/test_ja.py)."""
    gone = [n for n in sys.modules if n[:12] == "teatally.ui." and n not in _STAY]
    for n in gone:
        _forget(n)
    held = []
    for n in list(sys.modules):
        m = sys.modules[n]
        if n[:9] != "teatally." or m is None:
            continue
        d = m.__dict__
        for k in list(d):
            v = d[k]
            if type(v) is type(sys) and v.__name__ in gone:
                held.append((m, k, v.__name__))
                setattr(m, k, None)
    v = m = d = None
    gc.collect()
    use_language(lang)
    for m, k, n in held:
        __import__(n)
        setattr(m, k, sys.modules[n])


def _forget(name):
    # out of sys.modules and its package
    if sys.modules.pop(name, None) is None:
        return
    pkg, _, attr = name.rpartition(".")
    p = sys.modules.get(pkg)
    if p is not None and hasattr(p, attr):
        delattr(p, attr)


TITLE = "Language 言語"
SETTING_JA = "言語: 日本語"  # ui.settings' row while Japanese is on
