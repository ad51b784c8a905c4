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
    core = sys.modules.get("teatally.ui.core")
    if core is not None:
        core.WRAP[0] = core.PAD[0] = None


# The modules that hold no words made once: shared by a Japanese scenario's
# CPython half and the rest of this process; their language state is what
# english_again resets (and the app's screen modules, which ui.lang imports
# again in Japanese, modules_put_back puts back).
CORE = (
    "app", "buttons", "compat", "hw", "hw.base", "hw.virtual", "journal", "jsonc",
    "rules", "rules.t42", "ui", "ui.core", "ui.font", "ui.gfx", "words",
)  # fmt: skip


def modules_put_back():
    """A generator for a fixture: the CPython half of a Japanese scenario
    runs in this process and forgets and loads modules (and ui.lang gives
    the app its screen modules again): afterwards the process gets its own
    back, the modules and every module's module-valued globals."""
    mods = {n: m for n, m in sys.modules.items() if n.startswith("teatally")}
    held = {n: {k: v for k, v in vars(m).items() if type(v) is type(sys)} for n, m in mods.items() if m is not None}
    yield
    for n in [n for n in sys.modules if n.startswith("teatally")]:
        del sys.modules[n]
    sys.modules.update(mods)
    for n, m in mods.items():
        if m is None:
            continue
        d = vars(m)
        for k in [k for k, v in d.items() if type(v) is type(sys) and k not in held[n]]:
            del d[k]
        d.update(held[n])


def fresh_modules():
    """Before a Japanese scenario runs in this process: every other teatally
    module out of sys.modules (and the package), so that the scenario
    imports its own copies and the words those make once (menus, titles)
    never reach the English tests after it; the modules_put_back fixture
    (conftest) gives the process its own modules back."""
    for n in [n for n in sys.modules if n[:9] == "teatally." and n[9:] not in CORE]:
        del sys.modules[n]
        pkg, _, attr = n.rpartition(".")
        if pkg in sys.modules and hasattr(sys.modules[pkg], attr):
            delattr(sys.modules[pkg], attr)
    ui = sys.modules.get("teatally.ui.core")
    if ui is not None:
        del ui._FONT[:]  # (the font module in sys.modules: a Pico has one, ever)
        del ui.OVERFLOWS[:]  # (what earlier runs in this process noted)
