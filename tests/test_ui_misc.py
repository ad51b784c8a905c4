"""Home menu, settings, about and the archive list (firmware/teatally/ui/home.py,
ui/settings.py, ui/archive.py).

Scenarios drive the real App on VirtualHardware through `dual` (CPython and
MicroPython must print the same bytes, frame-buffer CRCs included).
"""


PRELUDE = r"""
import binascii, os
from teatally.app import App
from teatally.hw.virtual import VirtualHardware
from teatally.buttons import E_PRESS, K_UP, K_DOWN, K_OK, K_BACK
from teatally.hw import boards as board
from teatally.ui import archive as ui_archive
from teatally.ui import home as ui_misc

UP = E_PRESS | K_UP
DOWN = E_PRESS | K_DOWN
OK = E_PRESS | K_OK
BACK = E_PRESS | K_BACK
SETUP = {'game': 'tea-for-2', 'flamingo': 'blue', 'watch': 'stars',
         'objectives': {'4': 'tarts', '5': 'deck', '6': 'hourglasses', '7': 'destroyed', '8': 'most:cat'}}

def boot():
    hw = VirtualHardware(FLASH)
    app = App(hw)
    app.boot()
    app.ui.draw(hw.display)
    return app

def top(app):
    return app.ui.top()

def crc(app):
    return '%08x' % (binascii.crc32(app.hw.display.buffer) & 0xFFFFFFFF)

def pick(app, label):
    m = top(app)
    labels = [it[0] for it in m.items]
    i = labels.index(label)
    while m.sel != i:
        app.key(DOWN)
    app.key(OK)

def where(app):
    s = top(app)
    name = type(s).__name__
    if name in ('Menu', 'Settings'):
        return '%s %s %r sel=%d' % (name, s.title, [it[0] for it in s.items], s.sel)
    if name == 'Message':
        return 'Message %s %r' % (s.title, s.lines)
    return '%s %s' % (name, s.title)
"""

HOME = (
    PRELUDE
    + r"""
app = boot()
print(where(app))
print('crc home', crc(app))
print('depth', len(app.ui.stack))
app.key(BACK)                       # nowhere to go from home
print(where(app))
pick(app, 'About')
s = top(app)
print('about', s.title, s.lines[0], s.lines[1], s.lines[3], s.lines[2][:5])
app.key(OK)
pick(app, 'Archive')
print(where(app))
app.key(OK)
pick(app, 'New Tea for 2')          # no game: straight to the setup
print(where(app))
app.key(BACK)
print(where(app))
"""
)


def test_home_menu_without_game(dual):
    out = dual(HOME).splitlines()
    items = "['New Tea for 2', 'Tea Time', 'Tea Witches', 'Archive', 'Settings', 'About']"
    assert out[0] == "Menu Tea Tally %s sel=0" % items
    assert out[2] == "depth 1"
    assert out[3] == out[0]
    assert out[4].startswith("about About Tea Tally ")
    assert out[4].endswith(" board virtual games 0 free ")
    assert out[5] == "Message Archive ['No games yet.']"
    assert out[6].startswith("Menu Who has the flamingo? ['Blue', 'Pink', 'Random']")
    assert out[7] == out[0]


GAME = (
    PRELUDE
    + r"""
app = boot()
app.new_game(SETUP)
app.finish()                        # (its flash work, after the screen: App.later)
app = boot()                        # a game on the journal: boot resumes it
print(where(app))
app.home()
print(where(app))
print('crc home', crc(app))
pick(app, 'Resume game')
print(where(app))
app.home()
pick(app, 'New Tea for 2')          # unfinished game: ask first
print(where(app), '|', top(app).hint(None))
pick(app, 'Cancel')
print(where(app))
pick(app, 'New Tea for 2')
pick(app, 'Replace it')             # setup first; the game stays until it starts
print(where(app), app.game is not None)
app.key(BACK)
print(where(app))
pick(app, 'New Tea for 2')
pick(app, 'Archive, then new')
print(where(app), app.game is None, app.journal.list_archives())
app.key(BACK)
print(where(app))
"""
)


def test_home_with_game_in_progress(dual):
    out = dual(GAME).splitlines()
    assert out[0] == "Status "
    assert out[1].startswith("Menu Tea Tally ['Resume game', 'New Tea for 2', 'Tea Time'")
    assert out[1].endswith("sel=0")  # resume is the default
    assert out[3] == "Status "
    assert out[4] == "Menu Game unfinished ['Archive, then new', 'Replace it', 'Cancel'] sel=0 | round 0 so far"
    assert out[5] == out[1].replace("sel=0", "sel=1")  # back where it was
    assert out[6] == "Menu Who has the flamingo? ['Blue', 'Pink', 'Random'] sel=0 True"
    assert out[7] == out[5]
    assert out[8] == "Menu Who has the flamingo? ['Blue', 'Pink', 'Random'] sel=0 True ['g0001.jsonl']"
    # home rebuilt after archiving: nothing to resume
    assert out[9].startswith("Menu Tea Tally ['New Tea for 2',")


ARCHIVE = (
    PRELUDE
    + r"""
app = boot()
app.new_game(SETUP)
app.archive()                       # -> games/g0001.jsonl with '# final {...}'
app.finish()                        # (their flash work, after the screen: App.later)
g = FLASH + '/games/'
f = open(g + 'g0002.jsonl', 'w')    # power cut before the final line
f.write('{"game": "tea-for-2"}\n')
f.close()
f = open(g + 'g0010.jsonl', 'w')    # long game: the final line is read from the tail
f.write('{"game": "tea-for-2"}\n')
for i in range(40):
    f.write('# padding line %d to push the summary past the tail window\n' % i)
f.write('# final {"blue": 31, "objectives": {"4": {"blue": 4, "objective": "tarts", "pink": 0}, '
        '"8": {"blue": 0, "objective": "most:cat", "pink": 8}}, "pink": 28, "winner": "blue"}\n')
f.close()
print(os.stat(g + 'g0010.jsonl')[6] > 1024)
from teatally import jsonc
print(jsonc.dumps(ui_archive.final_of(g + 'g0001.jsonl')))
app.home()
pick(app, 'Archive')
print(where(app))
print('crc archive', crc(app))
app.key(OK)
print(where(app))
app.key(OK)
app.key(DOWN)
app.key(OK)
print(where(app))
app.key(OK)
app.key(DOWN)
app.key(OK)
print(where(app))
app.key(OK)
app.key(BACK)
pick(app, 'About')
print(top(app).lines[3])
"""
)


def test_archive_list(dual):
    out = dual(ARCHIVE).splitlines()
    assert out[0] == "True"
    # an empty game scores 0:0 and the flamingo holder (blue) takes the tie
    assert out[1] == '{"blue": 0, "objectives": {}, "pink": 0, "winner": "blue"}'
    assert out[2] == "Menu Archive: 3 games ['#10 Blue won 31:28', '#2 no score', '#1 Blue won 0:0'] sel=0"
    assert out[4] == (
        "Message Game 10 ['Blue 31, Pink 28', 'Winner: blue', 'Objectives (pile):', "
        "'4: blue +4 pink +0', '8: blue +0 pink +8']"
    )
    assert out[5] == "Message Game 2 ['No final score', '(replay it on the', 'host).']"
    assert out[6] == "Message Game 1 ['Blue 0, Pink 0', 'Winner: blue']"
    assert out[7] == "games 3"


SETTINGS = (
    PRELUDE
    + r"""
app = boot()
print('defaults', app.settings['contrast'], app.settings['timeout_s'], app.settings['flip'], app.settings['board'],
      app.settings['lang'])
pick(app, 'Settings')
print(where(app))
print('crc settings', crc(app))
pick(app, 'Contrast 200')
print(where(app))
pick(app, '255')
print(where(app), app.hw.display.level)
pick(app, 'Screen off: 2 min')
print(where(app))
pick(app, 'never')
pick(app, 'Flip: off')
print(where(app), app.hw.display.flipped)
pick(app, 'Board: virtual')
print(where(app))
pick(app, 'Waveshare')
print(where(app))
app.key(OK)
print(where(app))
print('crc settings', crc(app))
print(repr(open(FLASH + board.BOARD_FILE).read()), board.read_board_name(FLASH))
# a new App on the same flash (a reset): everything kept and applied
app = boot()
print('kept', app.settings['contrast'], app.settings['timeout_s'], app.settings['flip'], app.settings['board'])
print('applied', app.hw.display.level, app.hw.display.flipped)
pick(app, 'Settings')
print(where(app))
pick(app, 'Flip: on')
print(where(app), app.hw.display.flipped)
pick(app, 'Board: Waveshare')
print(where(app))
pick(app, 'SH1106')
print(board.read_board_name(FLASH))
app.key(OK)
app.key(BACK)
print(where(app))
# the screen never goes off with timeout 0
for i in range(50):
    app.hw.advance(60000)
    app.step()
print('asleep', app.asleep)
"""
)


def test_settings_persist_across_reset(dual):
    out = dual(SETTINGS).splitlines()
    assert out[0] == "defaults 200 120 False  en"
    assert out[1] == (
        "Settings Settings ['Contrast 200', 'Screen off: 2 min', 'Flip: off', 'Board: virtual', 'Lang: English'] sel=0"
    )
    assert out[3] == "Menu Contrast ['16', '64', '128', '200', '255'] sel=3"
    assert out[4] == (
        "Settings Settings ['Contrast 255', 'Screen off: 2 min', 'Flip: off', "
        "'Board: virtual', 'Lang: English'] sel=0 255"
    )
    assert out[5] == "Menu Screen off ['30 s', '1 min', '2 min', '5 min', '10 min', 'never'] sel=2"
    assert out[6] == (
        "Settings Settings ['Contrast 255', 'Screen off: never', 'Flip: on', "
        "'Board: virtual', 'Lang: English'] sel=2 True"
    )
    assert out[7] == "Menu Board ['SSD1306', 'SH1106', 'Waveshare'] sel=0"
    # the name broken after an underscore, not at the 21st column (issue 30)
    assert out[8] == "Message Board ['waveshare_pico_oled_', '1_3', '', 'Takes effect after a', 'reset.']"
    assert out[9] == (
        "Settings Settings ['Contrast 255', 'Screen off: never', 'Flip: on', 'Board: Waveshare', 'Lang: English'] sel=3"
    )
    assert out[11] == "'waveshare_pico_oled_1_3\\n' waveshare_pico_oled_1_3"
    assert out[12] == "kept 255 0 True waveshare_pico_oled_1_3"
    assert out[13] == "applied 255 True"
    assert out[14] == (
        "Settings Settings ['Contrast 255', 'Screen off: never', 'Flip: on', 'Board: Waveshare', 'Lang: English'] sel=0"
    )
    assert out[15] == (
        "Settings Settings ['Contrast 255', 'Screen off: never', 'Flip: off', "
        "'Board: Waveshare', 'Lang: English'] sel=2 False"
    )
    assert out[16] == "Menu Board ['SSD1306', 'SH1106', 'Waveshare'] sel=2"
    assert out[17] == "pico_sh1106"
    assert out[18].startswith("Menu Tea Tally [")
    assert out[19] == "asleep False"
