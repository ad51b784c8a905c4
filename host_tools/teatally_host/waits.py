"""What a player waits for after a key press, put together from the
models: the input (inputmodel), the computing (cpumodel: the VM's fuel,
the loop pass), the display bus (busmodel) and the flash (flashmodel), per
press, in the order the firmware's own trace gives. Also the model checks:
the real rp2 port's figures beside the bench's.

Per press, from the key's deciding edge (issue 23):
"""

from teatally_host import cmd_flash, flashmodel, inputmodel, keyscript
from teatally_host.busmodel import first_page_bus_ms, show_bus_ms
from teatally_host.cpumodel import cpu_ms
from teatally_host.stats import median, percentile

# -- what the player waits for (issue 23) -------------------------------------------
# The bench measures each press on the MicroPython VM as fuel:
# to the end of each show() (the guest marks them), to the start of its flash
# work (App.press, then App.finish) and to its end; the display bus, the keys
# and the flash are modelled around that. Per press:
#
# - **first light**: from the key's deciding edge to the end of the first
#   changed page's transfer (the first new pixels on the panel): the input
#   delay, the computing to that show's end, the bus time of the shows before
#   it and of that show's first page;
# - **full frame**: to the end of the last transfer before the press's flash
#   work: input, computing, every show's bus time;
# - each with the flash work that came before it in the press, in the
#   order the firmware's own trace gives (flashmodel.press_flash): a write
#   before the first light counts in it (the firmware's rule is that none
#   does: flash_before_screen counts the presses that break it);
# - each press also pays one main-loop pass (cpumodel.LOOP: the keys
#   polled, the watchdog fed...), before its first light;
# - **busy**: until the device takes the next key: the full frame, then the
#   flash work (its computing, littlefs's computing, the erases and page
#   programs of teatally_host.flashmodel at the W25Q16JV's typical times, or
#   its maximum times for ``busy_max``), the show that takes the "not yet
#   saved" mark away, and the idle work after the press (App.idle_work: its
#   collection).
#
# Computing is fuel turned into RP2040 milliseconds by the bench's calibration
# loop (fuel_per_pico_us), times PORT_RATIO: the firmware's mix of
# calls, allocations and C code runs slower on the real rp2 port than that
# one loop says. The ratio is the real port's (MicroPython v1.28.0 RPI_PICO in
# an RP2040 emulator at 125 MHz, eed9b5f's firmware, long60-s12's 334
# presses with no flash work): 1.28x the bench's estimate at the median, 1.16x
# to 1.52x from the 5th to the 95th percentile of presses. So a press's
# computing is honest to about -9 % / +19 % (PORT_RATIO_LOW / PORT_RATIO_HIGH
# against PORT_RATIO); the emulator models no flash wait states or XIP cache,
# so a real Pico is no faster than these figures.




def press_waits(press, shows, board, per_us, input_ms=0.0, flash=None, idle_fuel=0, pass_ms=0.0):
    """{first_light, full_frame, busy, busy_max, flash_first, flash_frame}
    in ms of one press (the last two: the flash work before its first light
    and before its full frame).

    press: {"shows": [fuel at the end of each show()], "finish": fuel at
    the start of the flash work or None, "fuel": fuel at its end}; shows:
    the windows each show() sent; flash: flashmodel.press_flash's dict (its
    "segments" in the press's order), or None; idle_fuel: the idle work
    after it; pass_ms: the loop pass it rides on. first_light is None for a
    press that changed no pixel."""
    ends = press["shows"]
    finish = press["finish"] if press["finish"] is not None else press["fuel"]
    segments = (flash or {}).get("segments") or [{"at": "", "typ_ms": 0.0, "max_ms": 0.0}]
    # the flash work done before each mark of the press's trace: its k-th
    # show ("s") and the start of its flash work ("F")
    before_show, before_finish = [], None
    typ = mx = 0.0
    for s in segments:
        typ += s["typ_ms"]
        mx += s["max_ms"]
        if s["at"] == "s":
            before_show.append((typ, mx))
        elif s["at"] == "F" and before_finish is None:
            before_finish = (typ, mx)
    total = (typ, mx)
    if before_finish is None:
        before_finish = before_show[-1] if before_show else (0.0, 0.0)

    def flash_at(j):
        # before show j (the trace's show count may differ from a run in
        # another language by a title bar sent alone: the last known)
        if not before_show:
            return (0.0, 0.0)
        return before_show[min(j, len(before_show) - 1)]

    bus_before = 0.0
    first = None
    flash_first = 0.0
    start = input_ms + pass_ms
    after_bus = 0.0
    for j, (at, windows) in enumerate(zip(ends, shows, strict=False)):
        bus = show_bus_ms(board, windows)
        if at <= finish:
            if first is None and windows:
                flash_first = flash_at(j)[0]
                first = (start + cpu_ms(at, per_us) + bus_before + first_page_bus_ms(board, windows)
                         + flash_first)
            bus_before += bus
        else:
            after_bus += bus
    frame = start + cpu_ms(finish, per_us) + bus_before + before_finish[0]
    rest = cpu_ms(press["fuel"] - finish + idle_fuel, per_us) + after_bus
    return {"first_light": first, "full_frame": frame,
            "busy": frame + rest + total[0] - before_finish[0],
            "busy_max": frame + rest + total[1] - before_finish[0],
            "flash_first": flash_first, "flash_frame": before_finish[0]}


def summary(waits):
    """p95 and worst of each wait over presses (first light: of the presses
    that lit any pixel), rounded to 0.1 ms; the presses whose flash work
    came before their first light / their full frame."""
    out = {}
    for key in ("first_light", "full_frame", "busy", "busy_max"):
        v = [w[key] for w in waits if w[key] is not None] or [0.0]
        out[key + "_p95_ms"] = round(percentile(v, 95), 1)
        out[key + "_worst_ms"] = round(max(v), 1)
        out[key + "_median_ms"] = round(median(v), 1)
    out["flash_before_first_light"] = sum(1 for w in waits if w.get("flash_first"))
    out["flash_before_full_frame"] = sum(1 for w in waits if w.get("flash_frame"))
    out["flash_before_screen_presses"] = sorted({w["label"] for w in waits if w.get("flash_frame")})[:8]
    return out


def press_label(name, keys, i):
    """"<game> press <n> (<where>, <token>)": a press as the tables name it."""
    tok, line = keys[i]
    where = "setup" if line == keyscript.SETUP else "end" if line == keyscript.END else "line %d" % line
    return "%s press %d (%s, %s)" % (name, i + 1, where, tok)


# The boards whose waits are budgeted, and the run whose presses each is
# charged: the SSD1306's show() finds the changed columns, the SH1107's
# sends whole pages (cpu_run(columns=False)).
WAIT_BOARDS = (("pico_ssd1306", "cpu"), ("waveshare_pico_oled_1_3", "cpu_pages"))
WAIT_LANGS = ("en", "ja")


def game_waits(g, board, run, per_us, pass_ms=0.0):
    """The waits of each press of game g (the bench's dict: "keys",
    "flash_counts", "name") in ``run`` (one of its cpu runs) on ``board``."""
    flash = g.get("flash_counts")
    out = []
    for i, t in enumerate(run["timeline"]):
        tok = g["keys"][i][0]
        w = press_waits(t, run["shows"][i], board, per_us, inputmodel.input_delay_ms(tok, board["LAYOUT"]),
                        flash[i] if flash else None, run["idle_fuel"][i], pass_ms)
        w["label"] = press_label(g["name"], g["keys"], i)
        out.append(w)
    return out


def player_waits(games, per_us, pass_ms=0.0):
    """{"<board>/<lang>": the waits' summary and the worst presses} over
    the games' presses, for WAIT_BOARDS in WAIT_LANGS (a game without a
    language's runs is left out of it)."""
    out = {}
    for lang in WAIT_LANGS:
        for name, key in WAIT_BOARDS:
            board = cmd_flash.load_board(name)
            waits = []
            for g in games:
                run = g.get(key if lang == "en" else key + "_" + lang)
                if run is not None:
                    waits.extend(game_waits(g, board, run, per_us, pass_ms))
            if not waits:
                continue
            s = summary(waits)
            for k in ("first_light", "full_frame", "busy"):
                s[k + "_worst_press"] = max(waits, key=lambda w, k=k: w[k] or 0)["label"]
            out["%s/%s" % (name, lang)] = s
    return out


# -- model checks: the real port's figures beside the bench's -------------------------
# What the real rp2 port measured for long60-s12's 396 presses (issue 23,
# eed9b5f's firmware, ms): computing per press, with littlefs's own work.
PORT_FACTS = {"all": (9.5, 23.9, 51.1), "no_flash": (8.9, 13.8, None), "appends": (21.7, 30.2, None)}
# And for the presses the bench once assumed in order (issue 32, d436b82's
# firmware, pico_ssd1306 in English; long60-s12 and a 47-round game, so two
# figures where the games differ), ms: (first light, full frame), None where
# not measured.
# "then": this bench's model (issue 32's) on d436b82's firmware, long60-s12
# on pico_ssd1306 in English, for the same presses: the model checked
# against the port on the same firmware (the archive within 10-30 %, the
# other two short by about a collection: on the port every loop pass asked
# 76 B of the heap, so a collection fell inside them, which the bench, with
# its collection right before each press, does not see; no pass asks
# anything now).
PORT_PRESSES = {
    "first from home": {"first_light": (63.9,), "full_frame": (85.1,), "then": (34.5, 53.6)},
    "setup's last": {"first_light": None, "full_frame": (65.8,), "then": (16.6, 46.5)},
    "archive": {"first_light": (126.0, 191.0), "full_frame": (153.0, 219.0), "then": (112.9, 138.6)},
}


def press_kind(keys, i):
    """Which of PORT_PRESSES press i of a key script is, or None: the first
    (from the home menu), the setup's last (its board follows), the game's
    last (the archive)."""
    if i == 0:
        return "first from home"
    line = keys[i][1]
    if line == keyscript.SETUP and i + 1 < len(keys) and keys[i + 1][1] != keyscript.SETUP:
        return "setup's last"
    if line == keyscript.END and i == len(keys) - 1:
        return "archive"
    return None


def press_checks(games, per_us, pass_ms=0.0, name="long60-s12"):
    """{kind: {"bench": [first light, full frame], "port": PORT_PRESSES'}}
    of the game the port played, on pico_ssd1306 in English."""
    g = next((g for g in games if g["name"] == name and g.get("flash_counts") and g.get("cpu")), None)
    if g is None:
        return None
    waits = game_waits(g, cmd_flash.load_board("pico_ssd1306"), g["cpu"], per_us, pass_ms)
    out = {}
    for i, w in enumerate(waits):
        kind = press_kind(g["keys"], i)
        if kind is not None:
            out[kind] = {"bench": [None if w["first_light"] is None else round(w["first_light"], 1),
                                   round(w["full_frame"], 1)],
                         "port": [PORT_PRESSES[kind]["first_light"], PORT_PRESSES[kind]["full_frame"]],
                         "then": list(PORT_PRESSES[kind]["then"]),
                         "press": w["label"]}
    return out


def port_check(games, per_us, name="long60-s12"):
    """The bench's computing per press for the game the real port played
    (median, p95, worst: all presses, those with no flash work, those that
    append a line), next to PORT_FACTS; None without that game or its
    flash figures. The firmware has changed since (the press path of issue
    23), so this says how far the model is from the port, not a budget."""
    g = next((g for g in games if g["name"] == name and g.get("flash_counts")), None)
    if g is None:
        return None
    ms = [cpu_ms(t["fuel"], per_us) + flashmodel.lfs_compute_ms(c)
          for t, c in zip(g["cpu"]["timeline"], g["flash_counts"], strict=True)]
    groups = {"all": ms,
              "no_flash": [m for m, c in zip(ms, g["flash_counts"], strict=True) if not c["syncs"]],
              "appends": [m for m, c in zip(ms, g["flash_counts"], strict=True) if c["syncs"]]}
    return {k: {"bench": [round(median(v), 1), round(percentile(v, 95), 1), round(max(v), 1)],
                "port": list(PORT_FACTS[k]), "presses": len(v)} for k, v in groups.items() if v}
