"""A keypad matrix as wires, for the virtual boards (hw.virtual, the
simulator, the bench's input model): host only, never on the Pico
(cmd_flash.HOST_ONLY)."""


class _Line:
    # one wire of MatrixWires: a row (value(v) drives it: 0 low, 1 floats)
    # or a column (value() reads it)
    def __init__(self, wires, i):
        self.wires = wires
        self.i = i

    def value(self, v=None):
        if v is None:
            return self.wires.level(self.i)
        self.wires.drive[self.i] = not v
        return None

    def irq(self, handler=None, trigger=0):
        self.wires.handlers.append(handler)


class MatrixWires:
    """A 4x4 keypad matrix without diodes, as wires: ``contacts`` (a list of
    16 booleans, key 4 * row + column closed) join rows to columns; a
    column reads low when any row driven low reaches it through closed
    keys (ghosts included: rows float when not driven). ``rows`` / ``cols``
    are pin-like (hw.keypad.Matrix scans them); ``settle()`` calls the
    columns' interrupt handlers when a column's level changed, as the
    Pico's edge interrupts would (the driver of a test calls it after
    changing contacts)."""

    def __init__(self, contacts):
        self.contacts = contacts
        self.drive = [False] * 4  # row i driven low
        self.rows = tuple(_Line(self, i) for i in range(4))
        self.cols = tuple(_Line(self, 4 + j) for j in range(4))
        self.handlers = []
        self.was = 0xF

    def level(self, node):
        # 1 unless a driven row reaches node (4 + column) through the keys
        c = self.contacts
        closed = 0
        for k in range(16):
            if c[k]:
                closed += 1
                if node == 4 + k % 4 and self.drive[k // 4]:
                    return 0  # a key on a driven row
        if closed < 3:
            return 1  # no path through a floating row: that takes three keys
        seen = [False] * 8
        todo = [node]
        seen[node] = True
        while todo:
            n = todo.pop()
            if n < 4 and self.drive[n]:
                return 0
            for k in range(16):
                if c[k]:
                    r, col = k // 4, 4 + k % 4
                    o = col if n == r else r if n == col else -1
                    if o >= 0 and not seen[o]:
                        seen[o] = True
                        todo.append(o)
        return 1

    def settle(self):
        now = 0
        for j in range(4):
            now |= self.level(4 + j) << j
        if now != self.was:
            self.was = now
            for h in self.handlers:
                h(None)
