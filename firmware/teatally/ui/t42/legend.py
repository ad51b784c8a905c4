"""The status board's legend (the game menu's "Board legend"): what each
symbol of the board stands for, then what the board's keys do, in its own
names for them (words.k: "A: next" on the 2-key board, "DOWN: next" on the
4-key one). A rare module (ui.core.RARE): opened by the game menu
(ui.t42.board), released when its screen closes."""

from teatally import words
from teatally.buttons import E_PRESS, K_BACK, K_DOWN, K_OK, K_UP
from teatally.ui.core import LINE, Screen, header, keyof, text

# -- the board's legend ---------------------------------------------------------
# (icon, words) for each symbol of the status board
_LEGEND = (
    ("ICON_STAR", "legend.stars"),
    ("ICON_TEACUP", "legend.teacups"),
    ("ICON_TART", "legend.tarts"),
    ("ICON_HOURGLASS", "legend.hourglasses"),
    ("ICON_PILE", "legend.draw"),
    ("ICON_FLAMINGO", "legend.flamingo"),
    ("ICON_WATCH", "legend.watch"),
    (None, "legend.piles"),
    ("ICON_RABBIT", "legend.rabbits"),
)


class Legend(Screen):
    """What each symbol of the status board stands for, then what the
    board's keys do, in its names for them; UP/DOWN scroll, OK or BACK go
    back."""

    title = ""

    def __init__(self):
        self.title = words.t("legend.title")
        self.top = 0
        self.keys = words.k("legend.keys").split("|")  # (lines after _LEGEND's)

    def key(self, ui, ev):
        k = keyof(ev)
        if k == K_DOWN and self.top + 7 < len(_LEGEND) + len(self.keys):
            self.top += 1
        elif k == K_UP and self.top > 0:
            self.top -= 1
        elif ev == (E_PRESS | K_OK) or ev == (E_PRESS | K_BACK):
            ui.pop()
            return
        else:
            return
        ui.dirty = True

    def draw(self, ui, fb):
        header(fb, self.title)
        i = self.top
        n = len(_LEGEND)
        while i < n + len(self.keys) and i < self.top + 7:
            y = (i - self.top + 1) * LINE
            if i < n:
                _legend_row(ui.gfx, fb, _LEGEND[i], y)
            else:
                text(fb, self.keys[i - n], 0, y)
            i += 1
        gfx = ui.gfx
        if i < n + len(self.keys):  # more below / above (as ui.core.Lines)
            gfx.icon(fb, gfx.ICON_DOWN, 120, 7 * LINE, 1)
        if self.top:
            gfx.icon(fb, gfx.ICON_UP, 120, 0, 0)


def _legend_row(gfx, fb, row, y):
    if row[0] is None:
        fb.fill_rect(0, y, 7, LINE, 1)
        text(fb, b"4", 1, y, 0)
    else:
        gfx.icon(fb, getattr(gfx, row[0]), 0, y)
    text(fb, words.t(row[1]), 11, y)
