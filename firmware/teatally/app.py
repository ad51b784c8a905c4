"""The application: the main loop, the services the screens share (the
game, the journal, the settings), crash handling and the screen-off timeout.

The loop polls the buttons, redraws only when a screen marked itself dirty,
feeds the watchdog and then rests (hw.wait: the CPU sleeps until a key edge
or the next thing due: the screen timeout, the watchdog). The journal on
flash is the truth: every committed round is one appended line, an undo
across rounds rewrites it atomically, and on boot the game is rebuilt from
it.

A key's flash work comes after its screen (App.save), every key's: a round's
line, an undo's cut, a new game's first line, the archive, the settings.
The screens queue it (commit, undo, App.later) and the player sees the new
screen at once, marked "not yet saved" (a small square in the top right
corner) until the work is on the flash; the next key waits for the write.
A power cut in that window loses that key's work (that round, that undo,
that setting); everything before it is kept.

Memory: what every game needs is imported once and stays (this module, the
engine, the journal, the screen stack, the status board and the guided
round); the home menu and the rarely used screens are imported when opened
and released when closed (ui.core.RARE). Between key presses the loop collects
the garbage (App.idle_work), so a press seldom meets a collection of its
own.
"""

import sys

from teatally import words
from teatally.buttons import NO_EVENT, STAGED, Keys
from teatally.compat import ticks_diff
from teatally.journal import MIN_FREE, Journal, write_file
from teatally.rules import t42
from teatally.ui.core import UI, Message, wrap
from teatally.ui.t42 import board
from teatally.words import LANGS

SETTINGS = "settings.json"
ERROR_LOG = "error.log"
# lang: "en" or "ja" (ui.lang; the screens' language, never the journal's)
DEFAULTS = {"contrast": 200, "timeout_s": 120, "flip": False, "board": "", "lang": "en"}
# A collection falls due inside a burst of presses with no pause between
# them (auto-repeat) once this much was allocated since the last one.
GC_THRESHOLD = 16 * 1024
# The loop's rest while a key is down or anything is left to do (the keys'
# timers, the debounce), and the longest rest with nothing to do (the
# watchdog is fed at least this often; its timeout is 8 s).
POLL_MS = 1
REST_MS = 1000


def _collect():
    """The one garbage-collection policy of the firmware: collect now (the
    loop calls this between key presses) and let MicroPython collect by
    itself after GC_THRESHOLD bytes allocated. CPython: nothing to do."""
    if sys.implementation.name != "micropython":
        return
    import gc

    gc.collect()
    gc.threshold(GC_THRESHOLD)


class App:
    """The device: hardware, keys, screen stack, journal, settings, game."""

    def __init__(self, hw):
        from teatally.ui import gfx  # framebuf: MicroPython (or the host's copy)

        self.hw = hw
        self.fb = hw.display
        if hw.layout == "keypad":
            from teatally.hw.keypad import KeypadKeys

            self.keys = KeypadKeys(hw.predicates, hw.scan, now_ms=hw.ticks_ms())
        else:
            self.keys = Keys(hw.predicates, hw.layout, now_ms=hw.ticks_ms())
        words.board_keys(hw.layout)  # the screens name this board's keys
        # a hold shown while it counts, its undo asked (ui.hold): the
        # boards whose undo is a stage of BACK's hold only
        self.hold = None
        if hw.layout in STAGED:
            from teatally.ui import hold

            self.hold = hold.Hold(self.keys)
        self.ui = UI(self, gfx)
        self.journal = Journal(hw.flash_root)
        self.settings = self.load_settings()
        if self.settings["lang"] != "en":
            # its words and glyphs stay loaded (English loads neither, nor
            # ui.lang)
            from teatally.ui import lang

            lang.switch(self.settings["lang"])  # (screens imported above in English)
        if hw.layout == "keypad":
            from teatally.ui import keypad  # noqa: F401  (its screens, loaded with the rest: not in a press)
        self.game = None  # t42.Game of the current Tea for 2 game
        self.asleep = False
        self.last_key = hw.ticks_ms()
        self.errors = 0
        self.last_error = None  # the text of the last error screen, and
        self.repeats = 0  # how many times in a row it came
        self.mend = None  # recover.Mend of a damaged journal being mended
        self.idle_todo = True  # a collection is due (after a key)
        # the last key's flash work, done after its screen is shown (save),
        # in order: lines to append (dicts) and other work ((fn, args):
        # later), and the line count to cut the journal to first
        self.unsaved = []
        self.cut_to = None
        self.marked = False  # the panel shows the "not yet saved" mark

    # -- settings ----------------------------------------------------------
    def path(self, name):
        """The path of file name on the device's flash."""
        return self.hw.flash_root + "/" + name

    def load_settings(self):
        import json

        s = dict(DEFAULTS)
        try:
            with open(self.path(SETTINGS)) as f:
                d = json.loads(f.read())
            if isinstance(d, dict):  # anything else is garbage: defaults
                for k in DEFAULTS:
                    if k in d and type(d[k]) is type(DEFAULTS[k]):
                        s[k] = d[k]
            if s["lang"] not in LANGS:
                s["lang"] = DEFAULTS["lang"]
        except (OSError, ValueError):
            pass  # absent or damaged: defaults
        return s

    def save_settings(self):
        """Apply the settings now, write them after the screen (later)."""
        from teatally import jsonc

        self.later(write_file, self.path(SETTINGS), jsonc.dumps(self.settings))
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
        notice = self.resume()
        if self.mend is not None:
            self.ui.open("t42.recover").show(self.ui)
        elif self.game is not None:
            self.show_game(notice)
        else:
            self.home()
            if notice:
                self.ui.push(Message(words.t("journal.title"), wrap(notice)))

    def resume(self):
        """Rebuild the game from the journal; returns a notice or None.

        Rounds are folded into the game as they stream off flash (journal.scan)
        instead of holding every parsed line: ~330 bytes of heap per round."""
        self.save()  # what the screen already showed goes first
        self.game = None
        self.mend = None
        if not self.journal.exists():
            return None
        r = _Resume()
        n, notice = self.journal.scan(r.take)
        if r.bad_at:
            # a line the engine refuses cannot be a committed round: keep the
            # game up to it and cut the journal to match (a copy kept)
            name = self.journal.keep_copy()
            self.journal.truncate(r.bad_at - 1)
            cut = words.f("journal.refused", r.bad_at, name)
            notice = notice + "; " + cut if notice else cut
        elif self.journal.later is not None and (r.game is not None or not n):
            # damage with intact lines after it, or a damaged setup: the
            # players enter again what is missing (ui.t42.recover)
            from teatally.recover import Mend

            self.game = r.game
            self.mend = Mend(self.journal, n)
            return None
        if r.game is None and n and not r.bad_at:
            return notice  # another game's journal (not Tea for 2)
        self.game = r.game
        return notice

    def new_game(self, setup):
        """Start a game: its setup line becomes the journal. While a journal
        is mended (self.mend) it is its damaged setup entered again: nothing
        is written until the mend ends. A journal on flash that is not a
        game loaded (unreadable, another kind, left by the error screen's
        "Home menu") is set aside first, never replaced."""
        had = self.game
        self.game = t42.Game(setup)
        if self.mend is not None:
            self.mend.entered_line()
            return
        if had is None and self.journal.exists():
            self.later(self.journal.set_aside)  # never replaced: kept as games/dNNNN.jsonl
        self.later(self.journal.start, setup)

    def commit(self, action):
        """Apply one round/adjustment (the commit); its line goes to flash
        once the new screen is shown (save)."""
        state = self.game.apply(action)
        if self.mend is not None:
            self.mend.entered_line()  # a lost line entered again: written when the mend ends
            return state
        self.unsaved.append(action)
        return state

    def later(self, fn, *args):
        """Flash work of this key for after its screen: fn(*args) in save(),
        in order with the journal's lines."""
        self.unsaved.append((fn, args))

    def undo(self):
        self.game.undo()
        if self.unsaved and type(self.unsaved[-1]) is not tuple:
            self.unsaved.pop()  # never reached the flash
        else:
            self.cut_to = 1 + len(self.game.actions)

    def redo(self):
        if self.game.state.over:
            raise t42.Refused("the game is over")
        action = self.game.redo_stack[-1]
        self.game.redo()
        self.unsaved.append(action)

    def saving(self):
        """Does the journal still lag behind the screen (save() to come)?"""
        return bool(self.unsaved) or self.cut_to is not None

    def save(self):
        """The last key's flash work: the journal cut back (undo), then in
        order the new lines appended and the other work done (later). A
        write that fails loses only its own work (the error screen follows;
        the journal stays the truth). -> True if anything was written."""
        wrote = self.saving()
        while self.saving():
            if self.cut_to is not None:
                n = self.cut_to
                self.cut_to = None
                self.journal.truncate(n)
            else:
                job = self.unsaved.pop(0)
                if type(job) is tuple:
                    job[0](*job[1])
                else:
                    self.journal.append(job)
        return wrote

    def archive(self):
        """Archive the finished game and clear the current one: the game is
        gone at once, its archive written after the screen (save)."""
        if self.game is None:
            return
        self.later(_archive, self.journal, t42.score(self.game.state))
        self.game = None
        board.forget()

    # -- where the screens go back to ----------------------------------------
    def home(self):
        """The home menu, alone on the stack (a rare module: out of a game's
        heap, heap_live_peak_bytes)."""
        self.ui.open("home").home(self.ui)

    def show_game(self, notice=None, toast=None):
        """The current game alone on the stack: its status board, or its
        final scoring once it is over (see ui.t42.board.show_game)."""
        board.show_game(self.ui, notice, toast)

    # -- the loop --------------------------------------------------------------
    def step(self):
        """One pass of the main loop: poll, handle, show, save, feed the dog."""
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
            self.idle_todo = True
        else:
            t = self.settings["timeout_s"]
            if t and not self.asleep and ticks_diff(now, self.last_key) > t * 1000:
                self.asleep = True
                self.fb.poweroff()
        if self.hold is not None and not self.asleep:
            self.hold.step(self, now)  # (drawn after the screen: at the next pass)
        if self.ui.dirty and not self.asleep:
            self.show()
        self.finish()
        hw.wdt_feed()

    def show(self):
        """Draw the screen on top into the frame and send what changed to
        the panel, marked while the journal lags behind it."""
        self.ui.draw(self.fb)
        self.marked = self.saving()
        if self.marked:
            self.ui.gfx.unsaved_mark(self.fb)
        self.fb.show()

    def rest_ms(self):
        """How long the loop may rest after this pass: POLL_MS while a key
        is down or anything is left to do, else until the screen timeout
        (at most REST_MS: the watchdog is fed after every pass)."""
        if self.ui.dirty or self.idle_todo or self.saving() or self.keys.busy(self.hw.ticks_ms()):
            return POLL_MS
        t = self.settings["timeout_s"]
        if not t or self.asleep:
            return REST_MS
        left = t * 1000 - ticks_diff(self.hw.ticks_ms(), self.last_key)
        return min(REST_MS, max(POLL_MS, left + 1))

    def handle(self, ev):
        """One key event to the screen on top; a screen's bug shows the
        error screen instead of ending the game."""
        try:
            if self.hold is not None:
                ev = self.hold.event(self.ui, ev)
            self.ui.key(ev)
        except Exception as exc:
            self.crash(exc)

    def crash(self, exc):
        """Log the traceback, show an error screen; the journal is intact, so
        OK rebuilds the game from it. The same error twice in a row (the
        journal unreadable, the flash full...) offers ways out: the home
        menu, or the game set aside (moved to the archive, not deleted)."""
        self.errors += 1
        try:
            with open(self.path(ERROR_LOG), "a") as f:
                f.write("--- error %d\n" % self.errors)
                _print_exc(exc, f)
        except OSError:
            pass
        msg = "%s: %s" % (type(exc).__name__, exc)
        self.repeats = self.repeats + 1 if msg == self.last_error else 1
        self.last_error = msg
        if self.repeats >= 2:
            self.ui.open("t42.recover").ways_out(self, exc)  # the home menu, the game set aside
            return
        lines = wrap(msg)[:5]
        lines.append(words.k("error.ok"))
        self.ui.reset(Message(words.t("error.title"), lines, ok=lambda ui: self.boot()))

    def key(self, ev):
        """Inject a logical event (tests, the bench): press(), then finish()."""
        self.press(ev)
        self.finish()

    def press(self, ev):
        """What a key does before its flash work: handled, and its screen
        shown (the player's wait: teatally_host.bench)."""
        self.last_key = self.hw.ticks_ms()
        self.idle_todo = True
        if self.asleep:
            self.asleep = False
            self.fb.poweron()
            self.ui.dirty = True
            return
        self.handle(ev)
        if self.ui.dirty:
            self.show()

    def finish(self):
        """A key's flash work after its screen (save), then its "not yet
        saved" mark taken away; a write that fails shows the error screen,
        as a key's error does. With nothing to save (most loop passes) it
        calls nothing that needs a heap frame: a function with a try block
        needs more state than MicroPython keeps on the C stack (11 words),
        and a pass must ask nothing of the heap (loop_alloc_* in
        teatally_host.budgets)."""
        if self.saving():
            self._save_and_unmark()

    def _save_and_unmark(self):
        try:
            if not self.save():
                return
        except Exception as exc:
            self.crash(exc)
            self.show()
            return
        if self.marked:
            self.marked = False
            self.ui.gfx.unsaved_mark_off(self.fb)  # (no redraw: the screen is as it was drawn)
            self.fb.show()

    def idle_work(self):
        """Between key presses: once after each key, import what the screen
        on top expects its next press to open (ui.core.UI.ahead: the home
        menu's new-game setup), then collect the garbage (_collect()),
        unless a key is on its way (it goes first). -> True if it worked."""
        if not self.idle_todo:
            return False
        keys = self.keys
        if keys.pending() or keys.held():
            return False
        self.idle_todo = False
        self.ui.ahead()
        _collect()
        return True


def _archive(journal, final):
    # (App.archive's flash work) the journal to games/, the oldest archives
    # pruned when the flash runs low
    journal.archive(final)
    try:
        journal.prune(MIN_FREE)
    except OSError:
        pass


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


def hardware():
    """The hardware layer for where we run: the Pico or the simulator; None
    when the Pico stays in the REPL (safe mode, or no board came up: see
    hw.pico.start)."""
    if sys.platform != "rp2":  # not `import machine`: the simulator's VM has a stub machine module
        from teatally.hw import sim as hw_sim

        return hw_sim.setup()
    from teatally.hw import pico as hw_pico

    return hw_pico.start()


def main(keeper=None, blinker=None):
    """The device's program (main.py). ``keeper``: boot.py's timer feeding
    a watchdog left running by a soft reset (None: none runs); stopped once
    the loop feeds. ``blinker``: boot.py's timer blinking the last dark
    screen's LED code (None: no /boot.log); stopped at once (a new report
    blinks its own). Interrupted (mpremote's Ctrl-C, a person's), the REPL
    comes up and stays usable: the hardware keeps the watchdog fed
    (keep_watchdog), while a loop that hangs is still reset; the screen
    says a computer holds the board and how the game comes back
    (connected)."""
    if blinker is not None:
        blinker.deinit()
    hw = hardware()
    if hw is None:
        return  # to the REPL; the watchdog was never started
    try:
        hw.allow_interrupts()  # (a Ctrl-C that came while the board came up: now)
        run(hw, keeper)
    except KeyboardInterrupt:
        hw.keep_watchdog()
        connected(hw.display)
        raise


def connected(fb):
    """The screen while a computer holds the board: the app was interrupted
    (mpremote's Ctrl-C at the start of every session, or a person's). The
    panel keeps it through the session's soft resets, until the app starts
    again: teatally flash and pull end with a reset that starts it; after a
    person's own session the screen says how (README, "Putting it on a
    Pico"). Every page is sent again: the Ctrl-C may have cut a show()."""
    if fb is None:
        return
    try:
        from teatally.ui import core

        fb.poweron()  # (the display may have been asleep)
        core.clear(fb)
        core.Message(words.t("usb.title"), wrap(words.t("usb.text"))).draw(None, fb)
        fb.show(True)
    except Exception:  # the REPL comes up whatever the panel does
        pass


def run(hw, keeper=None):
    """The main loop on ``hw``; never returns."""
    app = App(hw)
    hw.start_watchdog(8000)
    if keeper is not None:
        keeper.deinit()  # the loop feeds from here on
    try:
        app.boot()
    except Exception as exc:
        app.crash(exc)
    while True:
        try:
            app.step()
            app.idle_work()  # when no key is pending: collect
        except Exception as exc:
            app.crash(exc)
        hw.wait(app.rest_ms())

