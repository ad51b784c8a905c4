"""The harness itself: the VM is really MicroPython, the heap cap bites, fuel stops hangs."""

from teatally_host import mpvm


def test_vm_is_micropython_127(mp):
    out = mp("import sys\nprint(sys.implementation.name, sys.implementation.version[:2])").stdout
    assert out.strip() == "micropython (1, 27)"


def test_heap_cap_is_enforced():
    res = mpvm.run("x = bytearray(200 * 1024)\n", heap=128 * 1024)
    assert res.code == 1 and "MemoryError" in res.stderr


def test_fuel_stops_a_hang():
    res = mpvm.run("while True:\n    pass\n", fuel=5_000_000)
    assert res.code != 0 and res.trap


def test_dual_outputs_match_and_canonical_json(dual):
    out = dual(
        "from teatally import jsonc\n"
        "d = {}\n"
        "for k in ('zeta', 'alpha', 'mid', 'b\\u00e9', 'q\"'):\n"
        "    d[k] = [1, None, True, {'y': 2, 'x': 'a\\nb'}]\n"
        "print(jsonc.dumps(d))\n"
    )
    assert out.startswith('{"alpha": [1, null, true, {"x": "a\\nb", "y": 2}]')
    assert '"q\\"":' in out and '"bé"' in out


def test_flash_folder_is_writable_and_rename_is_atomic(dual):
    out = dual(
        "import os\n"
        "p = FLASH + '/a'\n"
        "f = open(p + '.tmp', 'w'); f.write('x'); f.close()\n"
        "os.rename(p + '.tmp', p)\n"
        "print(sorted(os.listdir(FLASH)), open(p).read())\n"
    )
    assert out == "['a'] x\n"
