# The application: main loop, services shared by the screens (game, journal,
# settings), crash handling and the screen-off timeout.
#
# The loop polls the buttons (never sleeps; hw.idle() waits for the next
# interrupt on the Pico), feeds the watchdog, and redraws only when a screen
# marked itself dirty. The journal on flash is the truth: every committed
# round is one appended line; undo across rounds rewrites it atomically; on
# boot the game is rebuilt from it.

import sys

from teatally import VERSION, t42, words
from teatally.buttons import NO_EVENT, Keys
from teatally.compat import const, ticks_diff
from teatally.journal import Journal, write_file
from teatally.ui import UI, Message, wrap

_MP = sys.implementation.name == "micropython"
# The idle collection's plugs (see _plug): made while more than PLUG_KEEP
# bytes are free, until PLUG_RUN of them lie side by side.
PLUG_RUN = const(64)
PLUG_KEEP = const(24 * 1024)
# After the last idle collection (MicroPython): bytes free (-1: not known),
# bytes of plugs allocated since (garbage; the bench counts them out), 1
# while its holes are not plugged yet.
HEAP = [-1, 0, 0]

SETTINGS = "settings.json"
ERROR_LOG = "error.log"
# lang: "en" or "ja" (ui_lang; the screens' language, never the journal's)
DEFAULTS = {"contrast": 200, "timeout_s": 120, "flip": False, "board": "", "lang": "en"}
LANGS = ("en", "ja")
TIMEOUTS = (30, 60, 120, 300, 600, 0)  # 0 = never
# Keep at least this much flash free for the current game; archives go first.
MIN_FREE = 16 * 1024
# Modules the keys of a screen may import next, by the module the screen
# comes from (a screen can say so itself too: a `needs` attribute of module
# names, e.g. needs = ("ui_t42_round",)). idle_work preloads them: an import
# costs ~10..45 ms on the Pico, several times a key press's budget.
NEXT = {
    "teatally.ui_misc": ("teatally.ui_t42",),  # the home menu: resume or start a game
}


def _gfx():
    from teatally import font, gfx  # noqa: F401  (font: the screens' text, loaded with the app)

    return gfx


class App:
    def __init__(self, hw):
        self.hw = hw
        self.fb = hw.display
        self.keys = Keys(hw.predicates, hw.layout, now_ms=hw.ticks_ms())
        self.ui = UI(self, _gfx())
        self.journal = Journal(hw.flash_root)
        self.settings = self.load_settings()
        if self.settings["lang"] != "en":
            # before self.core: its words and glyphs stay loaded (English
            # loads neither, nor ui_lang)
            from teatally import ui_lang

            ui_lang.use_language(self.settings["lang"])
        self.game = None  # t42.Game of the current Tea for 2 game
        self.summary = None  # (final state, archive summary line) made ahead (ui_t42_end)
        self.asleep = False
        self.last_key = hw.ticks_ms()
        self.errors = 0
        # idle work (see idle_work): to do / a collection due
        self.idle_todo = True
        self.heap_dirty = True
        self.missing = []  # modules to preload (forget() notes them)
        self.guard = _Guard(self)
        # what is loaded once the app stands is never forgotten
        self.core = _loaded()

    # -- settings ----------------------------------------------------------
    def _path(self, name):
        return self.hw.flash_root + "/" + name

    def load_settings(self):
        import json

        s = dict(DEFAULTS)
        try:
            with open(self._path(SETTINGS)) as f:
                d = json.loads(f.read())
            for k in DEFAULTS:
                if k in d and type(d[k]) is type(DEFAULTS[k]):
                    s[k] = d[k]
            if s["lang"] not in LANGS:
                s["lang"] = DEFAULTS["lang"]
        except (OSError, ValueError):
            pass  # absent or damaged: defaults
        return s

    def save_settings(self):
        from teatally import jsonc

        write_file(self._path(SETTINGS), jsonc.dumps(self.settings))
        self.apply_settings()

    def apply_settings(self):
        d = self.fb
        try:
            d.contrast(self.settings["contrast"])
        except (AttributeError, OSError):
            pass
        try:
            self.hw.set_flip(self.settings["flip"])
        except (AttributeError, OSError):
            pass

    # -- the game ----------------------------------------------------------
    def boot(self):
        """Resume the unfinished game (default) or show the home menu."""
        self.apply_settings()
        from teatally import ui_t42

        notice = self.resume()
        if self.game is not None:
            ui_t42.show_game(self.ui, notice)
        else:
            self.home()
            if notice:
                self.ui.push(Message(words.t("journal.title"), wrap(notice)))

    def resume(self):
        """Rebuild the game from the journal; returns a notice or None.

        Rounds are folded into the game as they stream off flash (journal.scan)
        instead of holding every parsed line: ~330 bytes of heap per round."""
        self.game = None
        if not self.journal.exists():
            return None
        r = _Resume()
        n, notice = self.journal.scan(r.take)
        if r.bad_at:
            # a line the engine refuses cannot be a committed round: keep the
            # game up to it and cut the journal to match
            self.journal.truncate(r.bad_at - 1)
            cut = words.f("journal.dropped", n - r.bad_at + 1)
            notice = notice + "; " + cut if notice else cut
        if r.game is None and n and not r.bad_at:
            return notice  # another game's journal (not Tea for 2)
        self.game = r.game
        return notice

    def new_game(self, setup, game=None, text=None):
        """Start a game: its setup line becomes the journal. game and text:
        made ahead from the same setup (ui_t42_new's prepare, idle work)."""
        self.game = game if game is not None else t42.Game(setup)
        self.journal.start(setup, text)

    def commit(self, action, text=None):
        """Apply one round/adjustment and write it to flash (the commit).
        text: the line's journal text made ahead (journal.line_text(action))."""
        state = self.game.apply(action)
        self.journal.append(action, text)
        if state.over:
            self.finish()
        return state

    def undo(self):
        self.game.undo()
        self.journal.truncate(1 + len(self.game.actions))

    def redo(self):
        if self.game.state.over:
            raise t42.Refused("the game is over")
        action = self.game.redo_stack[-1]
        self.game.redo()
        self.journal.append(action)
        if self.game.state.over:
            self.finish()

    def finish(self):
        """The game is over: nothing to archive yet; the final screen offers it
        (the journal stays the current game so undo still works)."""

    def archive(self):
        """Archive the finished game and clear the current one."""
        if self.game is None:
            return
        ready = self.summary  # (state, its summary line) made ahead, if any
        self.summary = None
        if ready is not None and ready[0] is self.game.state:
            self.journal.archive(None, ready[1])
        else:
            self.journal.archive(t42.score(self.game.state))
        try:
            self.journal.prune(MIN_FREE)
        except OSError:
            pass
        self.game = None

    # -- menus ---------------------------------------------------------------
    def home(self):
        from teatally import ui_misc

        ui_misc.home(self.ui)

    # -- the loop --------------------------------------------------------------
    def step(self):
        """One pass of the main loop: poll, handle, redraw, feed the dog."""
        hw = self.hw
        now = hw.ticks_ms()
        ev = self.keys.poll(now)
        if ev != NO_EVENT:
            self.last_key = now
            if self.asleep:
                # any key wakes the display and is otherwise swallowed
                self.asleep = False
                self.keys.swallow()
                self.fb.poweron()
                self.ui.dirty = True
            else:
                self.handle(ev)
            self.idle_todo = self.heap_dirty = True
        else:
            t = self.settings["timeout_s"]
            if t and not self.asleep and ticks_diff(now, self.last_key) > t * 1000:
                self.asleep = True
                self.fb.poweroff()
        if self.ui.dirty and not self.asleep:
            self.ui.draw(self.fb)
            self.fb.show()
        hw.wdt_feed()

    def handle(self, ev):
        # never let a screen bug end the game: see _Guard for why not try/except
        with self.guard:
            self.ui.key(ev)

    def crash(self, exc):
        """Log the traceback, show an error screen; the journal is intact, so
        OK rebuilds the game from it."""
        self.errors += 1
        try:
            with open(self._path(ERROR_LOG), "a") as f:
                f.write("--- error %d\n" % self.errors)
                _print_exc(exc, f)
        except OSError:
            pass
        msg = "%s: %s" % (type(exc).__name__, exc)
        lines = wrap(msg)[:5]
        lines.append(words.t("error.ok"))
        self.ui.reset(Message(words.t("error.title"), lines, ok=lambda ui: self.boot()))

    def key(self, ev):
        """Inject a logical event (tests, the simulator's key scripts)."""
        self.last_key = self.hw.ticks_ms()
        self.idle_todo = self.heap_dirty = True
        if self.asleep:
            self.asleep = False
            self.fb.poweron()
            self.ui.dirty = True
            return
        self.handle(ev)
        if self.ui.dirty:
            self.ui.draw(self.fb)
            self.fb.show()

    # -- idle work ---------------------------------------------------------------
    def idle_work(self):
        """Housekeeping for the main loop while no key is pending, one piece
        per call so the keys are polled again soon. After a key: forget the
        modules no screen needs any more and collect the garbage (so a key
        press never has to: on the host VM a collection inside a press can
        even crash it); then preload, one per call, the modules the screens
        will need next (NEXT, a screen's `needs`), each followed by another
        collection. First of all, the game stores its last action compactly
        (t42.Game.pack: the press that committed it did not). -> True if it
        did something, False once all is done (the heap then holds no
        garbage but the plugs, see _plug).

        Its functions keep their frames on the C stack (at most 11 words,
        no try: see ui.py), as a press's do: with the heap nearly full the
        work here can need a collection, and the VM the bench runs on loses
        heap-allocated frames to a collection inside them."""
        if not self.idle_todo:
            return False
        keys = self.keys
        if keys.pending() or keys.held():
            return False  # a key is coming: it goes first
        if self.game is not None and _packed(self.game):
            self.heap_dirty = True
            return True
        if self.heap_dirty:
            self.heap_dirty = False
            self.forget()
            _collect()
            return True
        if not self.missing:
            return self._prepare()
        self.heap_dirty = True
        if not _preload(self.missing.pop()):
            self.missing = []  # out of memory...: dropped, not retried
        return True

    def roomy(self):
        """Is there room for work made ahead (a screen's prepare)? The free
        heap the idle work last measured (_plug_holes; not known: yes)."""
        return HEAP[0] < 0 or HEAP[0] > PLUG_KEEP

    def _prepare(self):
        # last of the idle work: the screen on top makes ahead what its
        # likely next press needs (a screen's optional prepare(app) -> True
        # while it did something); then the holes the last collection left
        # are plugged, for the press to come (_plug)
        prepare = getattr(self.ui.top(), "prepare", None)
        if prepare is not None and _made_ahead(prepare, self):
            self.heap_dirty = True  # what it made leaves garbage: collect
            return True
        if _plug_holes() or self._lighten():
            return True
        self.idle_todo = False
        return False

    def _lighten(self):
        # a tight heap (as _plug_holes measured it): the state kept for a
        # quick undo goes (an undo then rebuilds it from a checkpoint, within
        # its own budget), collected now rather than inside a press
        g = self.game
        if g is None or self.roomy() or not g.drop_prev():
            return False
        self.heap_dirty = True
        return True

    def wanted(self):
        """The names of the teatally modules the app needs: those it stood
        on (self.core), those the objects on the screen stack come from
        (their classes, callbacks and the objects they hold) with what those
        import, and what the screens will need next."""
        found = _screen_names(self.ui.stack)
        _scan(self, found, 1)
        want = set(self.core)
        while found:
            _want(found.pop(), want, found)
        return want

    def forget(self):
        """Unload the modules nothing needs: out of sys.modules and the
        package, so their code becomes garbage and a later import loads them
        afresh; note the wanted ones that are not loaded (self.missing).
        -> the names forgotten."""
        want = self.wanted()
        gone = []
        loaded = _loaded()
        for i in range(len(loaded)):
            if loaded[i] in want:
                want.discard(loaded[i])
            else:
                gone.append(loaded[i])
                _unload(loaded[i])
        self.missing = list(want)
        return gone


def _made_ahead(prepare, app):
    # a screen's prepare(app); out of memory it is only a speed-up missed
    # (the press does the work itself) -> True if it made something
    try:
        return prepare(app)
    except MemoryError:
        return False


def _packed(g):
    # the game's last action stored compactly (t42.Game.pack) -> True if done
    try:
        return g.pack()
    except MemoryError:
        return False  # stays unpacked: the next apply packs it (or fails the same)


def _preload(n):
    # import module n ahead of the press that needs it -> False if it failed
    try:
        __import__(n)
    except Exception:
        sys.modules.pop(n, None)
        return False
    return True


def _unload(n):
    # module n out of sys.modules and the package: its code becomes garbage
    del sys.modules[n]
    pkg = sys.modules["teatally"]
    if hasattr(pkg, n[9:]):
        delattr(pkg, n[9:])


def _screen_names(stack):
    # the modules the screens come from and need, and what those need next
    found = []
    for i in range(len(stack)):
        _scan_screen(stack[i], found)
    for i in range(len(found)):
        found.extend(NEXT.get(found[i], ()))
    return found


def _scan_screen(s, found):
    # the modules screen s comes from, and those it says it needs next
    _scan(s, found, 2)
    needs = getattr(s, "needs", ())
    for i in range(len(needs)):
        found.append("teatally." + needs[i])


def _want(n, want, found):
    # n (a name _scan found) wanted: its module's globals scanned in turn
    if n in want or not isinstance(n, str) or n[:9] != "teatally.":
        return
    want.add(n)
    m = sys.modules.get(n)
    if m is not None:
        _scan_module(m.__dict__, found)


def _scan_module(d, found):
    # _scan of each global of a module (no copy of its many values: the
    # heap may have no run of free blocks for one)
    for v in d.values():
        _scan(v, found, 0)


def _loaded():
    out = []
    for n in sys.modules:
        if n[:9] == "teatally.":
            out.append(n)
    return out


def _collect():
    # the idle work's collection (the holes it leaves are plugged last: _plug_holes)
    import gc

    gc.collect()
    HEAP[1] = 0
    HEAP[2] = 1


def _plug_holes():
    # the last piece of idle work, once after a collection: see _plug.
    # MicroPython only (id() is an address); -> True if it plugged
    if not HEAP[2] or not _MP:
        return False
    import gc

    HEAP[2] = 0
    if not gc.isenabled():
        return False  # no collections (the simulator): garbage would only pile up
    free = HEAP[0] = gc.mem_free()  # walks the heap's table: ~3 ms on the Pico
    if free <= PLUG_KEEP:
        return False
    HEAP[1] = _plug((free - PLUG_KEEP) // 16) * 16
    return True


def _plug(n):
    # After a collection MicroPython's allocator starts looking for free
    # blocks at the bottom of the heap again (gc.c resets its "last free"
    # index), and a request of more than one block walks past every smaller
    # hole on the way up. The bottom is the loaded bytecode and the game's
    # long-lived objects with one-block gaps between them, so on the VM each
    # such allocation of the next key press cost 10-40K fuel (a dict, a list
    # of some length, a str of some length, a copy of the state...). So the
    # holes are plugged with one-block throwaway objects (at most about n),
    # from the bottom up, until they land side by side PLUG_RUN times: the
    # free run above the holes, where the press will allocate from. A float
    # is one 16-byte block on the Pico and the VM, and id() is its address.
    # The plugs are garbage at once: the next collection (the idle one, or
    # one forced by a full heap) takes them back; _plug_holes leaves
    # PLUG_KEEP bytes free beside them. Eight plugs a turn, the address of
    # the first and the last compared: the loop costs less than the plugs.
    # -> the number of plugs made
    x = 0.5
    run = 0
    k = 0
    while run < PLUG_RUN and k < n:
        a = id(x + 1.0)
        x + 1.0
        x + 1.0
        x + 1.0
        x + 1.0
        x + 1.0
        x + 1.0
        run = run + 8 if id(x + 1.0) - a == 112 else 0
        k += 8
    return k


_PLAIN = (int, str, bool, tuple, list, dict, bytes, bytearray, type(None), float)


def _scan(v, out, depth):
    # Append the names of the modules v comes from: a function's (closure,
    # bound method) globals, a module, a class, an instance's class and, to
    # depth levels, what its attributes come from.
    t = type(v)
    if t in _PLAIN:
        return
    g = getattr(v, "__globals__", None)
    if g is not None:
        _note(out, g.get("__name__"))
    elif t is type(t42):
        _note(out, v.__name__)
    elif t is type:
        _note(out, getattr(v, "__module__", None))
    else:
        _note(out, getattr(t, "__module__", None))
        if depth:
            _scan_attrs(v, out, depth - 1)


def _note(out, name):
    # a module's globals name it over and over in a row: noted once (the
    # list stays short, the idle work's heap small)
    if not out or out[-1] != name:
        out.append(name)


def _scan_attrs(v, out, depth):
    # _scan of what object v holds (its __dict__)
    d = getattr(v, "__dict__", None)
    if d:
        d = list(d.values())  # an object's few: a small copy keeps the frame small
        for i in range(len(d)):
            _scan(d[i], out, depth)


class _Guard:
    """``with app.guard:`` turns an exception out of a key's handling into
    the error screen (App.crash). A context manager, not try/except in
    App.handle, which runs on every key press: on MicroPython a function
    with ``except ... as`` gets its frame on the heap at every call (an
    allocation costs several times what a small call does in a fragmented
    heap), while the two calls a ``with`` makes fit on the C stack."""

    __slots__ = ("app",)

    def __init__(self, app):
        self.app = app

    def __enter__(self):
        return None

    def __exit__(self, kind, exc, tb):
        if not isinstance(exc, Exception):
            return False  # no exception, or one that must end the loop (KeyboardInterrupt...)
        self.app.crash(exc)
        return True  # handled: the error screen is up


class _Resume:
    """Folds journal lines into a t42.Game; remembers the first refused line."""

    __slots__ = ("game", "n", "bad_at")

    def __init__(self):
        self.game = None
        self.n = 0
        self.bad_at = 0

    def take(self, obj):
        self.n += 1
        if self.bad_at:
            return
        try:
            if self.n == 1:
                if obj.get("game") == "tea-for-2":
                    self.game = t42.Game(obj)
            elif self.game is not None:
                self.game.apply(obj)
        except t42.Refused:
            self.bad_at = self.n
            if self.n == 1:
                self.game = None


def _print_exc(exc, f):
    from teatally.compat import print_exception

    print_exception(exc, f)


def about_lines(app):
    import gc

    gc.collect()
    return [
        words.f("about.version", VERSION),
        words.f("about.board", app.hw.board_name),
        words.f("about.free", app.hw.mem_free()),
        words.f("about.games", len(app.journal.list_archives())),
    ]


def hardware():
    """The hardware layer for where we run: the Pico or the simulator."""
    import sys

    if sys.platform != "rp2":  # not `import machine`: the simulator's VM has a stub machine module
        from teatally import hw_sim

        return hw_sim.setup()
    from teatally import hw_pico

    return hw_pico.setup()


def main():
    hw = hardware()
    app = App(hw)
    hw.start_watchdog(8000)
    try:
        app.boot()
    except Exception as exc:
        app.crash(exc)
    while True:
        try:
            app.step()
            app.idle_work()  # when no key is pending: collect, unload, preload
        except Exception as exc:
            app.crash(exc)
        hw.idle()

