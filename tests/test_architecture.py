"""The firmware's shape: no import cycles between its modules, and no module
imports another module's private (_underscore) names.

Every import counts, those inside functions too, and so does a rare screen
opened by name (``ui.open("t42.history")``, see teatally.ui.core.RARE): a
module that opens another is above it. ``python tests/test_architecture.py
[FIRMWARE_DIR]`` prints the graph's figures.
"""

import ast
import sys
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"


def modules(firmware=FIRMWARE):
    """{dotted module name: path} of the teatally package."""
    out = {}
    for p in sorted((Path(firmware) / "teatally").rglob("*.py")):
        parts = p.relative_to(firmware).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = p
    return out


def imports(path, known):
    """[(imported module, names taken from it)] of one file, in order."""
    out = []
    for node in ast.walk(ast.parse(Path(path).read_text())):
        if isinstance(node, ast.Import):
            out.extend((a.name, ()) for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "teatally":
            names = []
            for a in node.names:
                sub = node.module + "." + a.name
                if sub in known:
                    out.append((sub, ()))  # a module of the package
                else:
                    names.append(a.name)
            if names:
                out.append((node.module, tuple(names)))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "open"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and "teatally.ui." + str(node.args[0].value) in known
        ):
            out.append(("teatally.ui." + node.args[0].value, ()))
    return out


def graph(firmware=FIRMWARE):
    """{module: set of the package's modules it imports} (packages' own
    __init__ left out: they hold a docstring and nothing else)."""
    known = modules(firmware)
    return {m: {n for n, _ in imports(p, known) if n != m and not _bare_package(known[n])} for m, p in known.items()}


def _bare_package(path):
    return path.name == "__init__.py" and not ast.parse(path.read_text()).body[1:]


def cycles(g):
    """The strongly connected groups of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def private_imports(firmware=FIRMWARE):
    """[(module, imported module, private name)] across modules."""
    known = modules(firmware)
    out = []
    for m, p in known.items():
        for n, names in imports(p, known):
            out.extend((m, n, x) for x in names if x.startswith("_") and n != m)
    return out


def test_no_import_cycles():
    assert cycles(graph()) == []


def test_no_module_imports_another_modules_private_names():
    assert private_imports() == []


def test_the_checks_see_cycles_and_private_names(tmp_path):
    pkg = tmp_path / "teatally"
    (pkg / "ui").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "ui" / "__init__.py").write_text('"""screens"""\n')
    (pkg / "ui" / "core.py").write_text("def f(ui):\n    return ui.open('menu')\n")
    (pkg / "ui" / "menu.py").write_text("from teatally.ui.core import f\n")
    (pkg / "app.py").write_text("def g():\n    from teatally.ui import menu\n    from teatally.ui.core import _x\n")
    g = graph(tmp_path)
    assert g["teatally.app"] == {"teatally.ui.menu", "teatally.ui.core"}
    assert cycles(g) == [["teatally.ui.core", "teatally.ui.menu"]]
    assert private_imports(tmp_path) == [("teatally.app", "teatally.ui.core", "_x")]


if __name__ == "__main__":
    fw = Path(sys.argv[1]) if len(sys.argv) > 1 else FIRMWARE
    g = graph(fw)
    print("modules %d, import edges %d" % (len(g), sum(len(v) for v in g.values())))
    print("cycles %d: %s" % (len(cycles(g)), cycles(g)))
    print("private imports %d: %s" % (len(private_imports(fw)), private_imports(fw)))
