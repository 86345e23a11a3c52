"""Rewrites a checked syntax tree so the sandbox's runtime sees every step and every risky operation.

Loop, function and lambda bodies get a ``__o_tick()``; comprehension
iterables go through ``__o_iter``; calls through ``__o_call``; binary and
augmented operators through ``__o_binop``/``__o_aug``; f-string values
through ``__o_fmt``; slices, starred displays and the operands of comparisons
through ``__o_charged``; and
every ``except``/``finally`` body starts with ``__o_reraise()``. The learner's
own names can never start with ``_``, so these helpers cannot be touched.
"""

import ast

from .guards import MAX_TEXT


class Instrument(ast.NodeTransformer):
    """Rewrites a checked tree so the runtime sees every step and every risky operation."""

    def __init__(self):
        self.temps = 0

    @staticmethod
    def helper(name, *args):
        return ast.Call(func=ast.Name(id="__o_" + name, ctx=ast.Load()), args=list(args), keywords=[])

    def with_tick(self, node):
        self.generic_visit(node)
        node.body.insert(0, ast.Expr(self.helper("tick")))
        return node

    visit_FunctionDef = visit_For = visit_While = with_tick  # noqa: N815 -- ast.NodeTransformer's names

    def visit_ExceptHandler(self, node):
        self.generic_visit(node)
        node.body.insert(0, ast.Expr(self.helper("reraise")))
        return node

    def visit_Try(self, node):
        self.generic_visit(node)
        if node.finalbody:
            node.finalbody.insert(0, ast.Expr(self.helper("reraise")))
        return node

    def visit_Lambda(self, node):
        self.generic_visit(node)
        node.body = ast.BoolOp(op=ast.Or(), values=[self.helper("tick"), node.body])  # None or body
        return node

    def visit_comprehension(self, node):
        self.generic_visit(node)
        node.iter = self.helper("iter", node.iter)
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        call = self.helper("call", node.func, *node.args)
        call.keywords = node.keywords
        return ast.copy_location(call, node)

    def visit_BinOp(self, node):
        self.generic_visit(node)
        op = ast.Constant(value=type(node.op).__name__)
        return ast.copy_location(self.helper("binop", op, node.left, node.right), node)

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        op, target = ast.Constant(value=type(node.op).__name__), node.target
        if isinstance(target, ast.Name):
            load = ast.Name(id=target.id, ctx=ast.Load())
            new = ast.Assign(targets=[target], value=self.helper("aug", op, load, node.value))
            return ast.copy_location(new, node)
        # a[i] op= v  ->  t1 = a; t2 = i; t1[t2] = aug(op, t1[t2], v): a and i evaluated once
        self.temps += 2
        box, key = f"__o_t{self.temps - 1}", f"__o_t{self.temps}"
        index = target.slice   # never a Slice: rules.py refuses slice stores
        load = ast.Subscript(value=ast.Name(id=box, ctx=ast.Load()), slice=ast.Name(id=key, ctx=ast.Load()),
                             ctx=ast.Load())
        store = ast.Subscript(value=ast.Name(id=box, ctx=ast.Load()), slice=ast.Name(id=key, ctx=ast.Load()),
                              ctx=ast.Store())
        new = [ast.Assign(targets=[ast.Name(id=box, ctx=ast.Store())], value=target.value),
               ast.Assign(targets=[ast.Name(id=key, ctx=ast.Store())], value=index),
               ast.Assign(targets=[store], value=self.helper("aug", op, load, node.value))]
        return [ast.copy_location(stmt, node) for stmt in new]

    def visit_JoinedStr(self, node):
        values = [v for v in node.values if isinstance(v, ast.FormattedValue)]
        cap = MAX_TEXT // max(1, len(values))   # the values share one f-string's allowance
        for value in values:   # format specs stay as they are: plain text, checked by rules.py
            value.value = self.helper("fmt", self.visit(value.value), ast.Constant(value=cap),
                                      ast.Constant(value=value.conversion))
        return ast.copy_location(self.helper("charged", node), node)

    def visit_Compare(self, node):
        """``t in L`` or ``a == b`` scan their operands in C: pay for their sizes (and poll the clock) first."""
        self.generic_visit(node)

        def charged(operand):
            if isinstance(operand, ast.Constant):
                return operand
            return ast.copy_location(self.helper("charged", operand), operand)
        node.left, node.comparators = charged(node.left), [charged(c) for c in node.comparators]
        return node

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Slice):
            return ast.copy_location(self.helper("charged", node), node)
        return node

    def charge_starred(self, node):
        self.generic_visit(node)
        if isinstance(getattr(node, "ctx", ast.Load()), ast.Load) and any(
                isinstance(e, ast.Starred) for e in node.elts):
            return ast.copy_location(self.helper("charged", node), node)
        return node

    visit_List = visit_Tuple = visit_Set = charge_starred  # noqa: N815 -- ast.NodeTransformer's names

    def visit_Dict(self, node):
        self.generic_visit(node)
        if any(key is None for key in node.keys):   # {**d}
            return ast.copy_location(self.helper("charged", node), node)
        return node
