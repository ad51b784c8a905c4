# Tea Tally entry point on the Pico: keep it tiny (a .py shadows a .mpy, so
# everything else lives in the compiled package). boot.py ran just before in
# the same globals: its `keeper` feeds a watchdog left running by a soft
# reset, until the app's loop feeds it, and its `blinker` blinks the last
# dark screen's LED code until the app starts (absent boot.py: none).
from teatally import app

app.main(globals().get("keeper"), globals().get("blinker"))
