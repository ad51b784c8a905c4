"""The Pico's flash, modelled on the host: littlefs and the W25Q16JV.

The VM hands the firmware's file writes to a host folder, so the bench sees
neither the flash's erase and program time (the CPU stalls meanwhile: XIP is
off during a write) nor littlefs's own computing. This module puts them back:

1. TRACE_PRELUDE, guest code run before the firmware is imported, records
   every file operation the firmware makes on the flash folder (/flash on the
   VM) without changing what it does; the guest's ``flash_trace()`` returns
   the log as one string (TRACE FORMAT below) and clears it.
2. FlashModel replays those operations on littlefs-python (the same littlefs
   C code as the rp2 port) at the rp2 port's configuration (LFS_CONFIG) over a
   block device that counts sector erases and 256-byte page programs.
3. flash_ms() charges the counts at the W25Q16JV's datasheet times,
   lfs_compute_ms() adds littlefs's computing (the real port's figure per
   page, see LFS_COMPUTE). The trace carries the press's own marks (PRESS_HOOK:
   each show() ended, the flash work begun), so press_flash() says what the
   flash did before each show: a write before the first light counts in it
   (teatally_host.waits).
4. games_that_fit() counts the finished games the filesystem keeps beside the
   firmware.

TRACE FORMAT: operations joined by ";", each a letter, ":" and its fields
joined by ",", paths relative to the flash folder (no spaces, so the string
can ride in a space-separated payload; "" when nothing happened):

    o:K,PATH,MODE   open (K: a number for this open, 1, 2, ...)
    w:K,N           write of N bytes to the file K
    f:K             flush of K (littlefs: a sync)
    c:K             close of K (reads are opened unwrapped: no c/w for them)
    r:OLD,NEW       os.rename
    x:PATH          os.remove
    m:PATH          os.mkdir
    d:PATH          os.rmdir
"""

from littlefs import lfs
from littlefs.context import UserContext

from teatally import journal

# -- the rp2 port's littlefs ---------------------------------------------------
# ports/rp2/modules/_boot.py mounts rp2.Flash() with vfs.VfsLfs2(bdev,
# progsize=256); extmod/vfs_lfs.c's defaults give readsize=32, lookahead=32
# (and mtime=True); extmod/vfs_lfsx.c's init_config sets block_cycles=100 and
# cache_size = min(block_size, 4 * max(readsize, progsize)) = 1024. The block
# size is the flash's 4 KB sector; RPI_PICO's filesystem is 1408 KB (2 MB
# flash less 640 KB of firmware): 352 blocks.
BLOCK = 4096
LFS_CONFIG = {
    "block_size": BLOCK,
    "block_count": 352,
    "read_size": 32,
    "prog_size": 256,
    "cache_size": 1024,
    "lookahead_size": 32,
    "block_cycles": 100,
}
PAGE = 256  # the W25Q16JV programs at most one 256-byte page per command

# -- the W25Q16JV (Winbond datasheet, 4 KB sector erase and page program) ----
TIMES = {
    "typ": {"erase_ms": 45.0, "page_ms": 0.4},
    "max": {"erase_ms": 400.0, "page_ms": 3.0},
}

# -- the guest-side trace ---------------------------------------------------------
# builtins.open is overridable on the VM (MicroPython looks builtins up at run
# time) and `import os` takes sys.modules["os"] first, so a wrapper put there
# before the firmware is imported is what every `import os` gets. Files opened
# for writing come back wrapped (_TrFile); reads come back as they are.
TRACE_PRELUDE = """\
import builtins
import sys as _tr_sys
import os as _tr_os
_TR = []
_TR_N = [0]
_tr_open0 = builtins.open
def _tr_rel(p):
    if isinstance(p, str) and p[:7] == "/flash/":
        return p[7:]
    return None
class _TrFile:
    def __init__(self, f, k):
        self.f = f
        self.k = k
    def write(self, b):
        n = self.f.write(b)
        _TR.append("w:%d,%d" % (self.k, n))
        return n
    def flush(self):
        self.f.flush()
        _TR.append("f:%d" % self.k)
    def close(self):
        self.f.close()
        _TR.append("c:%d" % self.k)
    def tell(self):
        return self.f.tell()
    def seek(self, *a):
        return self.f.seek(*a)
    def read(self, *a):
        return self.f.read(*a)
    def readinto(self, *a):
        return self.f.readinto(*a)
    def __enter__(self):
        return self
    def __exit__(self, *a):
        self.close()
def _tr_open(p, mode="r", *a):
    f = _tr_open0(p, mode, *a)
    r = _tr_rel(p)
    if r is None:
        return f
    _TR_N[0] += 1
    k = _TR_N[0]
    _TR.append("o:%d,%s,%s" % (k, r, mode))
    if "r" in mode and "+" not in mode:
        return f
    return _TrFile(f, k)
def _tr_op(code, fn):
    def op(*paths):
        fn(*paths)
        rel = [_tr_rel(p) for p in paths]
        if None not in rel:
            _TR.append(code + ":" + ",".join(rel))
    return op
class _TrOs:
    pass
_tr_w = _TrOs()
for _tr_name in dir(_tr_os):
    if _tr_name[:2] != "__":
        setattr(_tr_w, _tr_name, getattr(_tr_os, _tr_name))
_tr_w.rename = _tr_op("r", _tr_os.rename)
_tr_w.remove = _tr_op("x", _tr_os.remove)
_tr_w.mkdir = _tr_op("m", _tr_os.mkdir)
_tr_w.rmdir = _tr_op("d", _tr_os.rmdir)
_tr_sys.modules["os"] = _tr_w
builtins.open = _tr_open
def flash_trace():
    s = ";".join(_TR)
    _TR.clear()
    return s
"""


# Marks in a press's trace (PRESS_HOOK), no operations: "s" a show() ended,
# "F" the press's flash work began (App.finish).
MARKERS = ("s", "F")


def parse_trace(text):
    """The operations of a trace string (TRACE FORMAT) as tuples:
    ("o", k, path, mode), ("w", k, n), ("f", k), ("c", k), ("r", old, new),
    ("x", path), ("m", path), ("d", path)."""
    ops = []
    for item in text.split(";") if text else ():
        code, _, rest = item.partition(":")
        fields = rest.split(",") if rest else []
        if code == "o":
            ops.append(("o", int(fields[0]), fields[1], fields[2]))
        elif code == "w":
            ops.append(("w", int(fields[0]), int(fields[1])))
        elif code in "fc":
            ops.append((code, int(fields[0])))
        elif code == "r":
            ops.append(("r", fields[0], fields[1]))
        elif code in "xmd":
            ops.append((code, fields[0]))
        elif item in MARKERS:
            continue  # where a press showed its screen (press_segments)
        else:
            raise ValueError("unknown flash trace operation %r" % item)
    return ops


# -- the counting flash ---------------------------------------------------------


class CountingFlash(UserContext):
    """littlefs-python's RAM block device, counting what the flash does:
    sector erases, page programs (a prog of N bytes: N / 256 pages; littlefs
    programs whole pages) and prog calls (one per littlefs prog, up to the
    1 KB cache: a flash_range_program on the Pico)."""

    def __init__(self, size):
        super().__init__(size)
        self.erases = 0
        self.pages = 0
        self.prog_calls = 0

    def prog(self, cfg, block, off, data):
        self.prog_calls += 1
        self.pages += -(-len(data) // PAGE)
        return super().prog(cfg, block, off, data)

    def erase(self, cfg, block):
        self.erases += 1
        return super().erase(cfg, block)

    def counts(self):
        return {"erases": self.erases, "programs": self.pages, "prog_calls": self.prog_calls}


_FLAGS = lfs.LFSFileFlag
_MODES = {
    "w": _FLAGS.wronly | _FLAGS.creat | _FLAGS.trunc,
    "a": _FLAGS.wronly | _FLAGS.creat | _FLAGS.append,
    "x": _FLAGS.wronly | _FLAGS.creat | _FLAGS.excl,
}


def _flags(mode):
    # a MicroPython open() mode -> littlefs flags (extmod/vfs_lfsx_file.c)
    flags = _FLAGS.rdonly
    for c in mode:
        if c in _MODES:
            flags = _MODES[c]
    if "+" in mode:
        flags = (flags & ~_FLAGS.rdonly & ~_FLAGS.wronly) | _FLAGS.rdwr
    return flags


def _filler(n):
    # bytes to write: record-like text (the content changes no count)
    return (b'{"r":12,"a":"play"}\t0123abcd\n' * (n // 29 + 1))[:n]


class FlashModel:
    """A littlefs image at the rp2 geometry holding ``files`` ({path: bytes},
    paths relative to the root, folders made as needed), onto which a trace's
    operations are replayed. MicroPython's mtime attribute (8 bytes, set at
    open) rides in the same commit as each sync (lfs_file_sync commits the
    file's attributes with its struct), so it is not played: without it the
    model gives the real port's counts (64 erases, 220 programs for
    long60-s12, tests/test_flashmodel.py)."""

    def __init__(self, files=None, config=LFS_CONFIG):
        self.flash = CountingFlash(config["block_size"] * config["block_count"])
        self.cfg = lfs.LFSConfig(self.flash, **config)
        self.fs = lfs.LFSFilesystem()
        self.handles = {}  # trace file number -> (littlefs file, path, written)
        lfs.format(self.fs, self.cfg)
        lfs.mount(self.fs, self.cfg)
        for path, data in sorted((files or {}).items()):
            self.put(path, data)

    def put(self, path, data):
        """Write a whole file (the folders above it made first)."""
        parts = path.split("/")
        for i in range(1, len(parts)):
            self._mkdirs("/".join(parts[:i]))
        fh = lfs.file_open(self.fs, path, _MODES["w"])
        lfs.file_write(self.fs, fh, bytes(data))
        lfs.file_close(self.fs, fh)

    def _mkdirs(self, folder):
        try:
            lfs.stat(self.fs, folder)
        except lfs.errors.LittleFSError:
            lfs.mkdir(self.fs, folder)

    def used_blocks(self):
        return lfs.fs_size(self.fs)

    def free_bytes(self):
        """What os.statvfs gives the firmware: free blocks x block size."""
        return (self.cfg.block_count - self.used_blocks()) * self.cfg.block_size

    def play(self, ops):
        """Replay the operations (parse_trace's tuples, or a trace string)
        -> {"erases", "programs" (256-byte pages), "prog_calls", "syncs"
        (littlefs commits asked for: flushes, closes of written files,
        renames, removes, mkdirs), "bytes_written", "appends" (flushes of a
        file opened to append)}."""
        if isinstance(ops, str):
            ops = parse_trace(ops)
        before = self.flash.counts()
        syncs = written = appends = 0
        fs = self.fs
        for op in ops:
            code = op[0]
            if code == "o":
                _, k, path, mode = op
                if "r" in mode and "+" not in mode:
                    continue  # a read: no flash work
                self.handles[k] = [lfs.file_open(fs, path, _flags(mode)), path, "a" in mode]
            elif code == "w":
                h = self.handles[op[1]]
                lfs.file_write(fs, h[0], _filler(op[2]))
                written += op[2]
            elif code in "fc":
                h = self.handles.get(op[1])
                if h is None:
                    continue
                if code == "f":
                    lfs.file_sync(fs, h[0])
                    appends += h[2]
                else:
                    lfs.file_close(fs, h[0])
                    del self.handles[op[1]]
                syncs += 1
            elif code == "r":
                lfs.rename(fs, op[1], op[2])
                syncs += 1
            elif code == "x" or code == "d":
                lfs.remove(fs, op[1])
                syncs += 1
            elif code == "m":
                lfs.mkdir(fs, op[1])
                syncs += 1
        after = self.flash.counts()
        out = {name: after[name] - before[name] for name in after}
        out.update(syncs=syncs, bytes_written=written, appends=appends)
        return out


# -- time -------------------------------------------------------------------------------


def flash_ms(counts, timing="typ"):
    """Milliseconds the flash keeps the CPU waiting for a press's counts:
    sector erases and page programs at the W25Q16JV's typical or maximum
    times (TIMES)."""
    t = TIMES[timing]
    return counts["erases"] * t["erase_ms"] + counts["programs"] * t["page_ms"]


# littlefs's own computing on the Pico (the VM runs none of it), in ms per
# 256-byte page programmed: at every sync littlefs copies the file's last
# block into a fresh one, reading it back, CRCing and programming it, so its
# work grows with the pages it programs. The real rp2 port measured it on
# d436b82's firmware (MICROPYTHON-ON-HOST.md, "measured again"): about 0.56
# to 0.60 ms a page. The bench charges 0.58 ms, error +-0.02 ms a page (+-3
# %). (Before: 0.94 ms, fitted to eed9b5f's presses with the bench's
# computing ratio in the fit.)
LFS_COMPUTE = {"per_page_ms": 0.58, "per_page_low_ms": 0.56, "per_page_high_ms": 0.60}


def lfs_compute_ms(counts):
    """Estimated milliseconds of littlefs's own computing on the Pico for a
    press's counts (LFS_COMPUTE: per page programmed)."""
    return counts["programs"] * LFS_COMPUTE["per_page_ms"]


def busy_ms(counts, timing="typ"):
    """What the flash adds to a press: its stalls plus littlefs's computing."""
    return flash_ms(counts, timing) + lfs_compute_ms(counts)


# -- the filesystem as `teatally flash` leaves it ---------------------------------
# mip's ssd1306 for the default board (micropython-lib, compiled .mpy): about
# its size; settings.json as the settings screen writes it.
SSD1306_MPY_BYTES = 2400
SETTINGS_BYTES = 60


def firmware_files(mpy_dir, board="pico_ssd1306"):
    """{path: bytes} of what `teatally flash --board board` puts on a Pico:
    teatally/**/*.mpy from mpy_dir (cmd_flash.compile_firmware's folder,
    holding teatally/), main.py, boards/<board>.py, board.txt, the display
    driver (lib/ssd1306.mpy, at about its size) and settings.json."""
    from pathlib import Path

    from teatally_host import cmd_flash

    out = {}
    root = Path(mpy_dir)
    for p in sorted((root / "teatally").rglob("*.mpy")):
        rel = p.relative_to(root).as_posix()
        if rel[len("teatally/") : -len(".mpy")] not in cmd_flash.HOST_ONLY:
            out[rel] = p.read_bytes()
    out["main.py"] = (cmd_flash.FIRMWARE / "main.py").read_bytes()
    out["%s/%s.py" % (cmd_flash.BOARD_DIR, board)] = (cmd_flash.BOARDS / (board + ".py")).read_bytes()
    out[cmd_flash.BOARD_TXT] = board.encode()
    out["lib/ssd1306.mpy"] = b"\0" * SSD1306_MPY_BYTES
    out["settings.json"] = b"x" * SETTINGS_BYTES
    return out


def games_that_fit(archive_bytes, firmware_files):
    """Finished games of archive_bytes each that the filesystem keeps beside
    the firmware: archives written one by one to games/gNNNN.jsonl on a real
    image while journal.MIN_FREE stays free for the current game (the
    firmware's prune deletes the oldest below that)."""
    model = FlashModel(firmware_files)
    model._mkdirs(journal.ARCHIVE_DIR)
    data = _filler(archive_bytes)
    n = 0
    while True:
        try:
            model.put("%s/g%04d.jsonl" % (journal.ARCHIVE_DIR, n + 1), data)
        except lfs.errors.LittleFSError:
            break  # full
        if model.free_bytes() < journal.MIN_FREE:
            break
        n += 1
    return n


# -- a record's write pattern, host-side ---------------------------------------------


def journal_ops(objs, archive=True):
    """The operations journal.Journal makes for a game record: start (the
    setup line to game.tmp, renamed over game.jsonl), one append per later
    line (write the JSON, write the tail, flush, close), then archive
    (mkdir games, rename into games/g0001.jsonl, append the '# final' line).
    -> a list of per-step op lists (setup, each line, the archive)."""
    from teatally import jsonc
    from teatally.rules import t42

    steps = []
    k = 0

    def line(path, mode, parts, pre=()):
        nonlocal k
        k += 1
        ops = list(pre) + [("o", k, path, mode)]
        ops += [("w", k, n) for n in parts]
        ops += [("f", k), ("c", k)]
        return ops

    def split(obj):
        text = jsonc.dumps(obj, True).encode()
        return [len(text), len(journal.protect(text.decode()).encode()) - len(text)]

    steps.append(line("game.tmp", "wb", split(objs[0])) + [("r", "game.tmp", journal.GAME)])
    for obj in objs[1:]:
        steps.append(line(journal.GAME, "ab", split(obj)))
    if archive:
        g = t42.Game(objs[0])
        for obj in objs[1:]:
            g.apply(obj)
        final = jsonc.dumps(t42.score(g.state), True).encode()
        name = "%s/g0001.jsonl" % journal.ARCHIVE_DIR
        pre = [("m", journal.ARCHIVE_DIR), ("r", journal.GAME, name)]
        steps.append(line(name, "ab", [8, len(final), 1], pre))
    return steps


# -- the bench's game with the trace -------------------------------------------------
# For a run of benchvm.PRESS_GUEST: `host` becomes a wrapper (sys.modules, as
# os above) that marks where each press begins in the log ("p", just before
# the "b" mark), where each of its show()s ended ("s", at the guest's "s"
# mark) and where its flash work began ("F", at the "f" mark: App.finish),
# and, just after the "e" mark, sends the log to the host ("t"): outside the
# press's fuel, and outside the collection's (from "c" to "b"). So the
# firmware's own trace says where each flash write falls against each show.
PRESS_HOOK = """\
import host as _tr_host
class _TrHost:
    pass
_tr_h = _TrHost()
def _tr_call(name, payload):
    if name == "b":
        _TR.append("p")
    elif name == "s":
        _TR.append("s")
    elif name == "f":
        _TR.append("F")
    r = _tr_host.call(name, payload)
    if name == "e":
        _tr_host.call("t", flash_trace())
    return r
_tr_h.call = _tr_call
_tr_sys.modules["host"] = _tr_h
"""


def split_press(trace):
    """A press's "t" log -> (ops before the press: boot, idle work; ops of
    the press), each a trace string."""
    before, _, during = (";" + trace + ";").partition(";p;")
    return before.strip(";"), during.strip(";")


def press_segments(during):
    """A press's ops (split_press's second part) cut at its marks: [(mark,
    ops before it)], the mark "s" (a show ended), "F" (the flash work
    began) or "" (the press's end, for the ops after the last mark)."""
    out = []
    cur = []
    for item in during.split(";") if during else ():
        if item in MARKERS:
            out.append((item, ";".join(cur)))
            cur = []
        else:
            cur.append(item)
    out.append(("", ";".join(cur)))
    return out


def press_flash(model, during):
    """A press's flash work, played on ``model`` in its order -> the counts
    of the whole press (FlashModel.play's) plus "segments": [{"at": the
    mark it ends at (press_segments), "typ_ms", "max_ms" (stalls at the
    W25Q16JV's typical and maximum times and littlefs's computing),
    "erases", "programs"}]."""
    total = None
    segments = []
    for mark, ops in press_segments(during):
        c = model.play(ops)
        segments.append({"at": mark, "typ_ms": busy_ms(c), "max_ms": busy_ms(c, "max"),
                         "erases": c["erases"], "programs": c["programs"]})
        total = c if total is None else {k: total[k] + c[k] for k in total}
    total["segments"] = segments
    return total


def flash_counts(fw, events):
    """Per press, the flash work of the game's key events on littlefs at
    the rp2 geometry: its file operations traced in a run of their own (the
    trace costs a little fuel and heap), played on an image that holds the
    firmware, in their order against the press's show()s (press_flash)."""
    run = trace_presses(fw, events)
    if run["code"] != 0:
        lines = [x for x in run["stderr"].strip().splitlines() if x.strip()]
        raise SystemExit("the flash trace run failed: %s" % (lines[-1] if lines else ""))
    model = FlashModel(firmware_files(fw))
    model.play(run["boot"])
    out = []
    for before, during in run["traces"]:
        c = model.play(before)  # the idle work after the press before: its busy
        if out and (c["programs"] or c["erases"]):
            last = out[-1]
            for k in c:
                last[k] += c[k]
            tail = last["segments"][-1]
            tail.update(typ_ms=tail["typ_ms"] + busy_ms(c), max_ms=tail["max_ms"] + busy_ms(c, "max"),
                        erases=tail["erases"] + c["erases"], programs=tail["programs"] + c["programs"])
        out.append(press_flash(model, during))
    return out


def writes_before(segments, mark_index):
    """Did the flash work before the mark_index-th mark of a press program
    or erase anything?"""
    return any(s["programs"] or s["erases"] for s in segments[:mark_index + 1])


def trace_presses(fw, events, heap=None, prelude=TRACE_PRELUDE + PRESS_HOOK):
    """benchvm.PRESS_GUEST's game with the trace: -> {"fuel": [per press, as
    benchvm.run_presses counts it], "traces": [(before, during) per press],
    "boot": the ops before the first press, "code", "stderr"}. ``prelude``:
    without TRACE_PRELUDE, the same run untraced (what the trace costs)."""
    import tempfile

    from teatally_host import benchvm, mpvm

    marks = benchvm.Marks([0] + list(events))
    logs = []

    def took(payload):
        logs.append(payload)
        return ""

    host = marks.host()
    host["t"] = took
    with tempfile.TemporaryDirectory() as flash:
        guest = benchvm.PRESS_GUEST % {"collect": "True", "boot": benchvm.BOOT_GUEST, "columns": True}
        res = mpvm.run(prelude + guest, flash_dir=flash, heap=heap or benchvm.HEAP_PICO, host=host, firmware=fw,
                       result_cap=benchvm.MARK_CAP, meter=marks.meter)
    seq = [f for n, _, f in marks.marks if n in "be"]
    fuel = [seq[i + 1] - seq[i] for i in range(0, len(seq) - 1, 2)]
    overhead = fuel.pop(0) if fuel else 0
    heap_after = [int(p.split()[1]) for n, p, _ in marks.marks if n == "b" and p]
    traces = [split_press(t) for t in logs]
    boot = traces.pop(0)[0] if traces else ""  # the first press plays no event
    return {"fuel": [f - overhead for f in fuel], "traces": traces, "boot": boot, "heap_after": heap_after[1:],
            "code": res.code, "stderr": res.stderr, "stdout": res.stdout}
