"""App.handle (firmware/teatally/app.py): a key a screen fails on never ends
the game. The exception becomes the error screen (App.crash: counted,
logged to error.log, OK rebuilds the game from the journal); only what must
end the loop (KeyboardInterrupt, SystemExit) goes through. Driven through
`dual` on VirtualHardware.
"""


GUARD = r"""
from teatally.app import App
from teatally.hw_virtual import VirtualHardware
from teatally.ui import Screen

class Broken(Screen):
    title = 'Broken'
    def __init__(self, exc):
        self.exc = exc
    def key(self, ui, ev):
        raise self.exc

def main():
    app = App(VirtualHardware(FLASH))
    app.boot()
    home = app.ui.top().title
    app.ui.push(Broken(ValueError('bad pile')))
    app.key(0x12)
    s = app.ui.top()
    print('error', app.errors, s.title, s.lines)
    with open(FLASH + '/error.log') as f:
        log = f.read()
    print('logged', log.startswith('--- error 1'), 'bad pile' in log)
    app.key(0x12)  # OK: resume
    print('resumed', app.ui.top().title == home, app.errors)
    app.ui.push(Broken(KeyboardInterrupt()))
    try:
        app.key(0x12)
        print('swallowed')
    except KeyboardInterrupt:
        print('passed on', app.errors)
main()
"""


def test_a_screen_exception_becomes_the_error_screen(dual):
    out = dual(GUARD).splitlines()
    assert out == [
        "error 1 Error ['ValueError: bad pile', 'OK: resume the game']",
        "logged True True",
        "resumed True 1",
        "passed on 1",
    ]
