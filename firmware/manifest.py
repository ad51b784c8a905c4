# Freeze Tea Tally into your own MicroPython firmware (the way micropython-lib
# packages are shipped): the package runs from flash, in place, instead of
# being copied into the heap on import. From a MicroPython checkout:
#
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/tea-tally/firmware/manifest.py
#
# then flash the UF2 and copy only firmware/main.py and /board.txt (or run
# `teatally flash` as usual: a package copied to LittleFS would shadow the
# frozen one, so leave it out). The default board (pico_ssd1306) is frozen
# with its display driver; for another board freeze its file from boards/
# and its driver (MIP_PACKAGES in the board file) in the same way.

include("$(PORT_DIR)/boards/manifest.py")  # the port's own frozen modules (rp2: _boot, rp2, ...)

metadata(description="Tea Tally: a Pico companion for Tea for 2", version="0.1.0")

# the firmware package, subpackages included; the host-only boards (the
# tests' virtual one and the simulator's) are left out
package(
    "teatally",
    files=[
        "__init__.py",
        "app.py",
        "buttons.py",
        "compat.py",
        "journal.py",
        "jsonc.py",
        "record.py",
        "recover.py",
        "words.py",
        "words_en.py",
        "words_ja.py",
        "words_keys.py",
        "hw/__init__.py",
        "hw/base.py",
        "hw/boards.py",
        "hw/diagnose.py",
        "hw/keypad.py",
        "hw/pages.py",
        "hw/pico.py",
        "rules/__init__.py",
        "rules/t42.py",
        "rules/teatime.py",
        "rules/witches.py",
        "ui/__init__.py",
        "ui/archive.py",
        "ui/core.py",
        "ui/font.py",
        "ui/gfx.py",
        "ui/gfx_more.py",
        "ui/hold.py",
        "ui/home.py",
        "ui/keypad.py",
        "ui/ja_font.py",
        "ui/ja_text.py",
        "ui/lang.py",
        "ui/pads.py",
        "ui/settings.py",
        "ui/t42/__init__.py",
        "ui/t42/adjust.py",
        "ui/t42/board.py",
        "ui/t42/end.py",
        "ui/t42/history.py",
        "ui/t42/legend.py",
        "ui/t42/recover.py",
        "ui/t42/round.py",
        "ui/t42/setup.py",
        "ui/t42/words.py",
    ],
    opt=3,
)

# the default board: its file (found like /boards/pico_ssd1306.py) and its
# display driver from micropython-lib
module("pico_ssd1306.py", base_path="../boards", opt=3)
require("ssd1306")
