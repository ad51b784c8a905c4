"""ui.wrap (firmware/teatally/ui.py): message text split into 21-column (the 6x8 font)
lines. It cuts the lines out of the text by index (one new string a line:
each new string costs a search of the interned-string table on the Pico),
and must split exactly as the plain word-by-word joining it replaced, kept
here as the reference: spaces at a line's start dropped, two spaces inside a
line kept, words longer than a line cut. Both interpreters (`dual`).
"""


WRAP = r"""
from teatally import ui

def ref_wrap(text, n=ui.COLS):
    out = []
    line = ''
    for word in text.split(' '):
        while len(word) > n:
            if line:
                out.append(line)
                line = ''
            out.append(word[:n])
            word = word[n:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= n:
            line += ' ' + word
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    return out

FIXED = ('', ' ', '  ', 'a', 'a ', ' a', 'a  b', 'a' * 21, 'a' * 22, 'a' * 42, 'a' * 43,
         'x ' + 'a' * 25, 'twenty chars here !! next', 'twenty-one chars here! x', 'twenty-two chars here!! x',
         'Blue takes the watch and then moves on to the next space',
         'the game is over', 'Dropped 2 bad line(s); journal cut')

def texts():
    for t in FIXED:
        yield t
    # every mix of short, line-long and too-long words with one or two spaces
    seed = 7
    for k in range(400):
        parts = []
        for j in range(1 + k % 7):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            parts.append('w' * ((seed >> 8) % 27))
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        yield (' ' if seed & 256 else '  ').join(parts)

def main():
    n = bad = 0
    for t in texts():
        n += 1
        got = ui.wrap(t)
        if got != ref_wrap(t):
            bad += 1
            if bad < 4:
                print('differs', repr(t), got, ref_wrap(t))
        for line in got:
            if len(line) > ui.COLS:
                print('too long', repr(line))
    print('wrap', n, bad)
    print(ui.wrap('Blue takes the watch and then moves on to the next space'))
main()
"""


def test_wrap_splits_like_the_word_by_word_reference(dual):
    out = dual(WRAP).splitlines()
    assert out == [
        "wrap 418 0",
        "['Blue takes the watch', 'and then moves on to', 'the next space']",
    ]
