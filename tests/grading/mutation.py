"""A small AST mutator for testing graders: wrong versions of a correct function.

``mutants(source)`` parses the source of a function (or a module of them) and
returns one :class:`Mutant` per single, small change a learner might make:

* comparisons flipped (``==``/``!=``, ``<``/``<=``/``>``/``>=``, ``in``/``not in``, ``is``/``is not``)
* ``and``/``or`` swapped, ``+``/``-`` swapped, ``True``/``False`` swapped
* the condition of an ``if``, ``while`` or ternary negated
* int constants moved by +1 and -1 and set to 0
* str constants emptied, shortened by one character, given another prefix
* slice bounds dropped, a computed subscript moved by +1/-1, ``range`` arguments moved by +1/-1
* a statement replaced by ``pass``, ``break`` and ``continue`` swapped
* a returned value replaced by ``None``, the first two items of a returned tuple swapped

Each mutant differs from the original in exactly one place, compiles, and is
distinct from every other mutant. Docstrings are never mutated. Standard
library only: nothing here knows about the project.

    >>> [m.description for m in mutants("def f(x):\\n    return x > 0\\n") if "`>`" in m.description]
    ['line 2: `>` -> `>=`', 'line 2: `>` -> `<=`']
    >>> mutants("def f(x):\\n    return x > 0\\n")[-1].load()(0)
    True
"""

import ast
import copy
import textwrap
from dataclasses import dataclass

__all__ = ["Mutant", "mutants", "survivors"]


@dataclass(frozen=True)
class Mutant:
    """One changed version of the source: what changed, in words, and the new source."""

    description: str
    source: str

    def load(self, name=None, namespace=None):
        """Run the mutated source in a copy of ``namespace``; return the function ``name``
        (by default the first function the source defines)."""
        scope = dict(namespace or {})
        exec(compile(self.source, f"<mutant: {self.description}>", "exec"), scope)
        if name is None:
            name = next(n.name for n in ast.parse(self.source).body
                        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
        return scope[name]

    def __str__(self):
        return self.description


# comparison operator -> the operators it may be mistaken for
_FLIPS = {
    ast.Eq: (ast.NotEq,), ast.NotEq: (ast.Eq,),
    ast.Lt: (ast.LtE, ast.GtE), ast.LtE: (ast.Lt, ast.Gt),
    ast.Gt: (ast.GtE, ast.LtE), ast.GtE: (ast.Gt, ast.Lt),
    ast.In: (ast.NotIn,), ast.NotIn: (ast.In,),
    ast.Is: (ast.IsNot,), ast.IsNot: (ast.Is,),
}
_SYMBOL = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
           ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not",
           ast.And: "and", ast.Or: "or", ast.Add: "+", ast.Sub: "-"}


def _short(node, limit=40):
    text = ast.unparse(node).splitlines()[0]
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _plus(node, delta):
    return ast.BinOp(node, ast.Add() if delta > 0 else ast.Sub(), ast.Constant(abs(delta)))


def _set(field, value):
    """A change that sets ``node.<field>`` to ``value`` (a function of the old value)."""
    def apply(node):
        setattr(node, field, value(getattr(node, field)))
    return apply


def _set_item(field, index, value):
    def apply(node):
        items = getattr(node, field)
        items[index] = value(items[index])
    return apply


def _is_int(node):
    return isinstance(node, ast.Constant) and type(node.value) is int


def _compare(node):
    for i, op in enumerate(node.ops):
        for new in _FLIPS[type(op)]:
            yield f"`{_SYMBOL[type(op)]}` -> `{_SYMBOL[new]}`", _set_item("ops", i, lambda _, new=new: new())


def _swap_op(node):
    if isinstance(node, ast.BinOp) and any(isinstance(side, ast.Constant) and isinstance(side.value, str)
                                           for side in (node.left, node.right)):
        return  # "text" - x only raises a TypeError: no learner writes that
    other = {ast.And: ast.Or, ast.Or: ast.And, ast.Add: ast.Sub, ast.Sub: ast.Add}.get(type(node.op))
    if other:
        yield f"`{_SYMBOL[type(node.op)]}` -> `{_SYMBOL[other]}`", _set("op", lambda _: other())


def _negate(test):
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    return ast.UnaryOp(ast.Not(), test)


def _condition(node):
    kind = {ast.If: "if", ast.While: "while", ast.IfExp: "ternary"}[type(node)]
    yield f"negate the {kind} condition `{_short(node.test)}`", _set("test", _negate)


def _constant(node):
    value = node.value
    if type(value) is bool:
        yield f"`{value}` -> `{not value}`", _set("value", lambda v: not v)
    elif type(value) is int:
        for new in dict.fromkeys((value + 1, value - 1, 0)):
            if new != value:
                yield f"`{value}` -> `{new}`", _set("value", lambda _, new=new: new)
    elif type(value) is str:
        for new in dict.fromkeys(("", value[:-1], "X" + value)):
            if new != value:
                yield f"`{value!r}` -> `{new!r}`", _set("value", lambda _, new=new: new)


def _slice(node):
    for bound in ("lower", "upper", "step"):
        if getattr(node, bound) is not None:
            yield f"drop the slice's {bound} bound `{_short(getattr(node, bound))}`", _set(bound, lambda _: None)


def _subscript(node):
    if not isinstance(node.slice, (ast.Slice, ast.Constant, ast.Tuple)):
        for delta in (1, -1):
            yield (f"subscript `{_short(node.slice)}` -> `{_short(_plus(node.slice, delta))}`",
                   _set("slice", lambda s, d=delta: _plus(s, d)))


def _range(node):
    if isinstance(node.func, ast.Name) and node.func.id == "range":
        for i, arg in enumerate(node.args):
            if not _is_int(arg):  # literal bounds are moved by the constant rule
                for delta in (1, -1):
                    yield (f"range bound `{_short(arg)}` -> `{_short(_plus(arg, delta))}`",
                           _set_item("args", i, lambda a, d=delta: _plus(a, d)))


def _return(node):
    if node.value is not None and not (isinstance(node.value, ast.Constant) and node.value.value is None):
        yield f"`return {_short(node.value)}` -> `return None`", _set("value", lambda _: ast.Constant(None))
    if isinstance(node.value, ast.Tuple) and len(node.value.elts) >= 2:
        def swap(node):
            items = node.value.elts
            items[0], items[1] = items[1], items[0]
        yield f"swap the first two returned values of `return {_short(node.value)}`", swap


def _statements(node, docstrings):
    """Drop each statement of each body (not at module level); swap break and continue."""
    if isinstance(node, ast.Module):
        return
    for field in ("body", "orelse", "finalbody"):
        body = getattr(node, field, None)
        if not isinstance(body, list):
            continue
        for i, stmt in enumerate(body):
            if isinstance(stmt, ast.Pass) or id(stmt) in docstrings:
                continue
            if isinstance(stmt, (ast.Break, ast.Continue)):
                other = ast.Continue if isinstance(stmt, ast.Break) else ast.Break
                yield (stmt.lineno, f"`{_short(stmt)}` -> `{other.__name__.lower()}`",
                       lambda n, f=field, i=i, o=other: getattr(n, f).__setitem__(i, o()))
            yield (stmt.lineno, f"drop `{_short(stmt)}`",
                   lambda n, f=field, i=i: getattr(n, f).__setitem__(i, ast.Pass()))


_RULES = (
    (ast.Compare, _compare), (ast.BoolOp, _swap_op), (ast.BinOp, _swap_op), (ast.AugAssign, _swap_op),
    ((ast.If, ast.While, ast.IfExp), _condition), (ast.Constant, _constant), (ast.Slice, _slice),
    (ast.Subscript, _subscript), (ast.Call, _range), (ast.Return, _return),
)


def _docstrings(tree):
    """The docstring expressions, and every constant inside them: never mutated."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                found |= {id(first), id(first.value)}
    return found


def _changes(node, docstrings):
    """``(line, what, apply)`` for every change of ``node`` itself (or of its statement lists)."""
    if id(node) in docstrings:
        return
    for kinds, rule in _RULES:
        if isinstance(node, kinds):
            yield from ((node.lineno, what, apply) for what, apply in rule(node))
    yield from _statements(node, docstrings)


def mutants(source):
    """Every single-change mutant of ``source`` (a str of Python), in source order, as a list."""
    source = textwrap.dedent(source)
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    nodes = list(ast.walk(tree))
    seen, found = {ast.unparse(tree)}, []
    for index, node in enumerate(nodes):
        for line, what, apply in _changes(node, docstrings):
            changed = copy.deepcopy(tree)
            apply(list(ast.walk(changed))[index])  # the same walk order, so the same node
            ast.fix_missing_locations(changed)
            try:
                text = ast.unparse(changed)
                compile(text, "<mutant>", "exec")
            except (SyntaxError, ValueError):
                continue  # e.g. `continue` moved outside a loop
            if text not in seen:
                seen.add(text)
                found.append((line, index, Mutant(f"line {line}: {what}", text)))
    return [m for _, _, m in sorted(found, key=lambda t: t[:2])]


def survivors(found, grade):
    """The mutants in ``found`` whose report from ``grade(mutant)`` passes: each one a grader bug
    unless it is equivalent on the exercise's inputs."""
    return [m for m in found if grade(m).passed]
