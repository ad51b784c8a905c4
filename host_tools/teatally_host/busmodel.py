"""The display bus, modelled for the bench: what a ``show()`` puts on the
bus for the windows ``teatally.hw.pages`` found changed, timed with the
board file's bus and speed and the driver's transactions (DRIVER_SHOW).

Used by ``teatally_host.waits`` (first light, full frame) and the bench's
pages-per-press figures."""

from teatally_host.stats import median, percentile

# -- the display bus ------------------------------------------------------------------
PAGES = 8
ALL_PAGES = (1 << PAGES) - 1
LAST = 127  # a page's last column
WHOLE = ((0, PAGES - 1, 0, LAST),)  # a show of the whole frame: one window of every page and column
# What a show() puts on the bus for what it sends. teatally.hw.pages gives
# each show's windows (first page, last page, first column, last column: the
# guest reports them, see press_shows); a transaction is (how many, bytes
# after the I2C address byte or on SPI, plus bytes per column of the window),
# read from each driver's source:
# - micropython-lib ssd1306, driven by hw.pages (hw.pico.ssd1306_sender):
#   per window SET_COL_ADDR a b, SET_PAGE_ADDR p0 p1 (I2C: one transaction,
#   0x00 and the six; SPI: six write_cmd of a byte), then per page of the
#   window one write_data of its columns (I2C: 0x40 + the bytes); the whole
#   frame is the window and one write_data of 1024 bytes. Why: the unchanged
#   columns at both ends of a changed page are not sent (9 I2C clocks a
#   byte) for one command transaction a window (74 clocks);
# - robert-hh sh1106 show(), given the pages of the windows (hw.pages'
#   page mask): per page three write_cmd (page, column low, column high)
#   and one write_data (I2C: 0x40 + 128 bytes);
# - peter-l5 sh1107 v317+ show(), a 128x64 panel at rotate 0/180 (MONO_HMSB),
#   given the page mask: per page its eight pixel rows, each one write_command
#   of two bytes (column low, high; I2C: 0x00 + 2) and one write_data of 16
#   bytes (I2C: 0x40 + 16).
# Their show() finds no columns (hw.pico gives them ChangedPages(columns=
# False)), so these boards are charged the computing of a run without the
# column scan (cpu_run(columns=False); WAIT_BOARDS).
DRIVER_SHOW = {
    "ssd1306": {"i2c": {"window": ((1, 1 + 6, 0),), "page": ((1, 1, 1),), "all": ((1, 1 + 6, 0), (1, 1 + 1024, 0))},
                "spi": {"window": ((6, 1, 0),), "page": ((1, 0, 1),), "all": ((6, 1, 0), (1, 1024, 0))}},
    "sh1106": {"i2c": {"page": ((3, 2, 0), (1, 1 + 128, 0))}, "spi": {"page": ((3, 1, 0), (1, 128, 0))}},
    "sh1107": {"i2c": {"page": ((8, 1 + 2, 0), (8, 1 + 16, 0))}, "spi": {"page": ((8, 2, 0), (8, 16, 0))}},
}


def show_mask(windows):
    """The page mask (bit p = page p) of a show's windows."""
    mask = 0
    for p0, p1, _, _ in windows:
        mask |= ((1 << (p1 + 1)) - 1) & ~((1 << p0) - 1)
    return mask


def show_transactions(driver, bus, windows):
    """[(how many, bytes)] of one show() sending ``windows`` with ``driver`` on
    ``bus`` (DRIVER_SHOW): the SSD1306 sends the windows, the other drivers
    the pages in them."""
    model = DRIVER_SHOW[driver][bus]
    out = []
    if "window" not in model:
        pages = bin(show_mask(windows)).count("1")
        return [(n * pages, k) for n, k, _ in model["page"]] if pages else []
    for p0, p1, a, b in windows:
        if ((p0, p1, a, b),) == WHOLE:
            out.extend((n, k) for n, k, _ in model["all"])
            continue
        out.extend((n, k) for n, k, _ in model["window"])
        out.extend((n * (p1 - p0 + 1), k + c * (b - a + 1)) for n, k, c in model["page"])
    return out


def show_bus_ms(board, windows=WHOLE):
    """Milliseconds the bus of board (a boards/*.py namespace) takes for a
    show() that sends ``windows`` (default: the whole frame): I2C, 9 clocks
    a byte (8 bits and the ACK) with the address byte and a start and stop
    per transaction; SPI, 8 clocks a byte."""
    clocks = 0
    for n, k in show_transactions(board["DISPLAY_DRIVER"], board["BUS"], windows):
        if board["BUS"] == "i2c":
            clocks += n * ((1 + k) * 9 + 2)
        else:
            clocks += n * k * 8
    return clocks * 1000.0 / board["FREQ"]


def pages_sent(shows):
    """Pages a press's show()s sent (shows: the windows of each)."""
    return sum(bin(show_mask(w)).count("1") for w in shows)



def first_page_bus_ms(board, windows):
    """Bus time from the start of a show() sending ``windows`` until its
    first page is on the panel: the SSD1306's first window command and that
    page's columns (a whole frame is one write: its first 128 bytes); the
    SH1106 and SH1107 send page after page: the show's time over its pages."""
    if not windows:
        return 0.0
    driver, bus = board["DISPLAY_DRIVER"], board["BUS"]
    if "window" not in DRIVER_SHOW[driver][bus]:
        return show_bus_ms(board, windows) / pages_sent([windows])
    p0, _, a, b = windows[0]
    return show_bus_ms(board, [(p0, p0, a, b)])


def _press_mask(windows_of_shows):
    # the pages a press's show()s sent, together
    mask = 0
    for w in windows_of_shows:
        mask |= show_mask(w)
    return mask


def pages_per_press(shows):
    """Pages sent per press (median, p95) and the share of presses that sent
    every page, from the windows of each press's show()s."""
    pages = [pages_sent(m) for m in shows]
    return {
        "pages_sent_per_press_median": median(pages),
        "pages_sent_per_press_p95": percentile(pages, 95) if pages else 0,
        "full_frame_press_share": round(sum(1 for m in shows if _press_mask(m) == ALL_PAGES)
                                        / len(shows), 3) if shows else 0,
        "no_show_press_share": round(sum(1 for m in shows if not pages_sent(m)) / len(shows), 3) if shows else 0,
    }

