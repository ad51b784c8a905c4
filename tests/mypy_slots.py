"""mypy plugin: a name in ``__slots__`` is an attribute, even if only set from outside.

The firmware favours small ``__slots__`` classes, and some are filled by
their builder rather than by ``__init__`` (``s = State(); s.flamingo = ...``,
so that copy() costs no double initialisation). Python says the slot exists;
mypy only learns attributes from ``self.x = ...`` inside the class and would
report every such use. This plugin declares those slots as ``Any``. Slots
assigned through ``self`` inside the class are left to mypy's own inference,
and a name outside ``__slots__`` (a typo such as ``s.pile`` for ``s.piles``)
is still an error. Used from [tool.mypy] in pyproject.toml.
"""

from mypy.nodes import AssignmentStmt, Block, Decorator, ListExpr, MemberExpr, NameExpr, StrExpr, TupleExpr
from mypy.plugin import Plugin
from mypy.plugins.common import add_attribute_to_class
from mypy.types import AnyType, TypeOfAny


def _self_assigned(node, names):
    """Collect x for every `self.x = ...` in node (a statement or Block), nested blocks included.

    (mypy's TraverserVisitor is a compiled trait that plugins cannot subclass.)"""
    if isinstance(node, AssignmentStmt):
        for lv in node.lvalues:
            _target(lv, names)
        return
    if isinstance(node, Decorator):
        node = node.func
    if isinstance(node, Block):
        for stmt in node.body:
            _self_assigned(stmt, names)
        return
    for attr in ("body", "else_body", "finally_body", "handlers"):
        sub = getattr(node, attr, None)
        for block in sub if isinstance(sub, list) else [sub]:
            if isinstance(block, Block):
                _self_assigned(block, names)


def _target(lv, names):
    if isinstance(lv, MemberExpr) and isinstance(lv.expr, NameExpr) and lv.expr.name == "self":
        names.add(lv.name)
    elif isinstance(lv, (TupleExpr, ListExpr)):
        for item in lv.items:
            _target(item, names)


def _slot_names(cls):
    for stmt in cls.defs.body:
        if (
            isinstance(stmt, AssignmentStmt)
            and len(stmt.lvalues) == 1
            and isinstance(stmt.lvalues[0], NameExpr)
            and stmt.lvalues[0].name == "__slots__"
        ):
            rv = stmt.rvalue
            items = [rv] if isinstance(rv, StrExpr) else getattr(rv, "items", [])
            return [i.value for i in items if isinstance(i, StrExpr)]
    return []


def _declare_slots(ctx):
    cls = ctx.cls
    slots = _slot_names(cls)
    if not slots:
        return
    seen = set()
    for stmt in cls.defs.body:
        _self_assigned(stmt, seen)
    for name in slots:
        if name not in seen and name not in cls.info.names:
            add_attribute_to_class(ctx.api, cls, name, AnyType(TypeOfAny.unannotated))


class SlotsPlugin(Plugin):
    def get_customize_class_mro_hook(self, fullname):
        # Called once for every class being analysed, with its own name.
        return _declare_slots


def plugin(version):
    return SlotsPlugin
