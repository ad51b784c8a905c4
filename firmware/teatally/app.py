# The application: main loop, services shared by the screens (game, journal,
# settings), crash handling and the screen-off timeout.
#
# The loop polls the buttons (never sleeps; hw.idle() waits for the next
# interrupt on the Pico), feeds the watchdog, and redraws only when a screen
# marked itself dirty. The journal on flash is the truth: every committed
# round is one appended line; undo across rounds rewrites it atomically; on
# boot the game is rebuilt from it.

from teatally import VERSION, t42
from teatally.buttons import NO_EVENT, Keys
from teatally.compat import ticks_diff
from teatally.journal import Journal
from teatally.ui import UI, Message

SETTINGS = "settings.json"
ERROR_LOG = "error.log"
DEFAULTS = {"contrast": 200, "timeout_s": 120, "flip": False, "board": ""}
TIMEOUTS = (30, 60, 120, 300, 600, 0)  # 0 = never
# Keep at least this much flash free for the current game; archives go first.
MIN_FREE = 16 * 1024


def _gfx():
    from teatally import gfx

    return gfx


class App:
    def __init__(self, hw):
        self.hw = hw
        self.fb = hw.display
        self.keys = Keys(hw.predicates, hw.layout, now_ms=hw.ticks_ms())
        self.ui = UI(self, _gfx())
        self.journal = Journal(hw.flash_root)
        self.settings = self.load_settings()
        self.game = None  # t42.Game of the current Tea for 2 game
        self.asleep = False
        self.last_key = hw.ticks_ms()
        self.errors = 0

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
        except (OSError, ValueError):
            pass  # absent or damaged: defaults
        return s

    def save_settings(self):
        import os

        from teatally import jsonc

        tmp = self._path(SETTINGS + ".tmp")
        with open(tmp, "w") as f:
            f.write(jsonc.dumps(self.settings))
        os.rename(tmp, self._path(SETTINGS))
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
                self.ui.push(Message("Journal", [notice]))

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
            cut = "Dropped %d bad line(s)" % (n - r.bad_at + 1)
            notice = notice + "; " + cut if notice else cut
        if r.game is None and n and not r.bad_at:
            return notice  # another game's journal (not Tea for 2)
        self.game = r.game
        return notice

    def new_game(self, setup):
        self.game = t42.Game(setup)
        self.journal.start(setup)

    def commit(self, action):
        """Apply one round/adjustment and write it to flash (the commit)."""
        state = self.game.apply(action)
        self.journal.append(action)
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
        try:
            self.ui.key(ev)
        except Exception as exc:  # never let a screen bug end the game
            self.crash(exc)

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
        lines = [msg[i : i + 16] for i in range(0, min(len(msg), 64), 16)]
        lines.append("OK: resume game")
        self.ui.reset(Message("Error", lines, ok=lambda ui: self.boot()))

    def key(self, ev):
        """Inject a logical event (tests, the simulator's key scripts)."""
        self.last_key = self.hw.ticks_ms()
        if self.asleep:
            self.asleep = False
            self.fb.poweron()
            self.ui.dirty = True
            return
        self.handle(ev)
        if self.ui.dirty:
            self.ui.draw(self.fb)
            self.fb.show()


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
        "Tea Tally " + VERSION,
        "board " + app.hw.board_name,
        "free %d B" % app.hw.mem_free(),
        "games %d" % len(app.journal.list_archives()),
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
        except Exception as exc:
            app.crash(exc)
        hw.idle()

