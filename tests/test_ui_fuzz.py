"""Random key sequences never crash the device and never break the game.

Thousands of random logical events (short, long and repeat presses of every
key, with power cuts now and then) go into the real App on a VirtualHardware.
After every event: no error screen was needed (App.crash never ran), the
Tea for 2 invariants hold, and the journal on flash replays to exactly the
game in memory (T42-INPUT-3: nothing the player does corrupts the record).
The same scenario runs on CPython and the MicroPython VM (byte-identical).
"""


SCENARIO = r"""
from teatally import jsonc, record
from teatally.rules import t42
from teatally.app import App
from teatally.hw.virtual import VirtualHardware

EVENTS = []
for kind in (0x10, 0x20, 0x30):
    for key in range(4):
        EVENTS.append(kind | key)
EVENTS = EVENTS + [0x10 | 1, 0x10 | 2, 0x10 | 2, 0x10 | 0]  # weight OK/DOWN

seed = [SEED]

def rnd(n):
    seed[0] = (seed[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (seed[0] >> 8) % n

def check(app):
    g = app.game
    if g is None:
        return 'none'
    s = g.state
    b, p = s.players
    assert b.tarts + p.tarts + s.supply_tarts == 9
    assert b.hourglasses + p.hourglasses + s.supply_hourglasses == 5
    rabbits = s.supply_rabbits
    for pl in s.players:
        rabbits += pl.deck().get('rabbit', 0) + pl.destroyed.count('rabbit')
    assert rabbits == 7
    for v in s.piles:
        assert 0 <= v <= 5
    with open(FLASH + '/game.jsonl', 'rb') as f:
        again = record.load(f.read())
    assert jsonc.dumps(t42.to_json(again.state)) == jsonc.dumps(t42.to_json(s))
    return 'r%d' % s.round

def boot():
    app = App(VirtualHardware(FLASH))
    app.boot()
    return app

app = boot()
trail = []
for i in range(N):
    if rnd(200) == 0:
        app = boot()  # power cut: a new App on the same flash
        trail.append('!')
        continue
    ev = EVENTS[rnd(len(EVENTS))]
    app.hw.advance(50)
    app.key(ev)
    assert app.errors == 0, 'error screen after event %d' % i
    if i % 25 == 0:
        trail.append(check(app))
rounds = [t for t in trail if t[:1] == 'r']
print(len(trail), max([int(t[1:]) for t in rounds] or [0]), trail[-1])
"""


def scenario(seed, n):
    return SCENARIO.replace("SEED", str(seed)).replace("N)", "%d)" % n)


def test_random_keys_cpython_thousands(tmp_path):
    """4 seeds x 1500 events on CPython (fast): no crash, invariants, journal = game."""
    from conftest import run_cpython

    bests = []
    for seed in (1, 2, 3, 4):
        d = tmp_path / str(seed)
        d.mkdir()
        out = run_cpython(scenario(seed, 1500), d)
        n, best, _ = out.split()
        assert int(n) > 50
        bests.append(int(best))
    # the random walk really plays: games get several rounds deep
    assert max(bests) >= 3


def test_random_keys_same_on_micropython(dual):
    """The same random walk, shorter, byte-identical on the MicroPython VM."""
    out = dual(scenario(7, 600))
    assert len(out.split()) == 3
