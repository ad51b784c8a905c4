# Tea Tally entry point on the Pico: keep it tiny (a .py shadows a .mpy, so
# everything else lives in the compiled package).
from teatally import app

app.main()
