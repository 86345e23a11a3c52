"""The static rules of the oracle's sandbox: refuse unsafe source, then instrument and compile it.

:func:`prepare` caps the source, parses it, checks every node against the rules
below, rewrites the tree (:mod:`.rewrite`) so that :mod:`.runtime` can count
steps and guard operations, and compiles it. It returns ``(code, problems)``;
each problem is a sentence for a learner: what was found, which rule it breaks,
what to try instead.
"""

import ast
import io
import re
import tokenize
import warnings

from ..clip import clip
from .rewrite import Instrument

SOURCE_NAME = "<src/fizzbuzz.py>"
MAX_SOURCE = 20_000       # characters; a fizzbuzz needs a few hundred
MAX_BRACKETS = 100        # ( [ { open at once
MAX_LINE_TOKENS = 300     # tokens in one logical line (statement)
MAX_AST_DEPTH = 80        # nesting of the syntax tree
MAX_CONSTANT = 10 ** 18   # largest number literal
MAX_PROBLEMS = 10

SAFE_NODES = frozenset("""
    Module Expr FunctionDef Lambda arguments arg Return Assign AugAssign AnnAssign Delete For While
    If Break Continue Pass Raise Try ExceptHandler Assert BoolOp NamedExpr BinOp UnaryOp IfExp Dict
    Set List Tuple ListComp SetComp DictComp GeneratorExp comprehension Compare Call keyword Starred
    Constant Attribute Subscript Slice Name JoinedStr FormattedValue Load Store Del And Or Add Sub
    Mult Div FloorDiv Mod Pow LShift RShift BitOr BitXor BitAnd MatMult UAdd USub Not Invert Eq
    NotEq Lt LtE Gt GtE Is IsNot In NotIn""".split())

_PLAIN = "the sandbox runs only plain functions, loops and expressions"
_REWRITE = "rewrite it with def, if, loops and return"
_FORBIDDEN = {
    "Import": ("`import`", "the oracle gives fizzbuzz only a few safe builtins and no modules",
               "write it with %, if and str()"),
    "ImportFrom": ("`from ... import`", "the oracle gives fizzbuzz only a few safe builtins and no "
                   "modules", "write it with %, if and str()"),
    "ClassDef": ("`class`", _PLAIN, "use a function instead"),
    "With": ("`with`", _PLAIN, "there is nothing to open; remove it"),
    "Global": ("`global`", "functions may not rebind module names", "return the value instead"),
    "Nonlocal": ("`nonlocal`", "functions may not rebind outer names", "return the value instead"),
    "Yield": ("`yield`", "the oracle calls fizzbuzz once per case and wants a str back",
              "return the str instead"),
    "Match": ("`match`", _PLAIN, "use if/elif"),
}
_FORBIDDEN["YieldFrom"] = _FORBIDDEN["Yield"]
for _kind, _what in (("AsyncFunctionDef", "`async def`"), ("AsyncFor", "`async for`"),
                     ("AsyncWith", "`async with`"), ("Await", "`await`"), ("TryStar", "`except*`"),
                     ("TypeAlias", "`type X = ...`"), ("TemplateStr", "a t-string")):
    _FORBIDDEN[_kind] = (_what, _PLAIN, _REWRITE)
del _kind, _what

# Attribute names a learner may use: the public methods of the basic types,
# minus those that can build huge strings or bytes in one C call, and encode
# (codecs can run pure-Python stdlib code the step counter cannot see).
_RISKY = {"format", "format_map", "center", "ljust", "rjust", "zfill", "expandtabs",
          "translate", "maketrans", "to_bytes", "from_bytes", "mro", "encode"}
ALLOWED_ATTRS = frozenset(name for kind in (str, int, float, bool, list, tuple, dict, set)
                          for name in dir(kind) if not name.startswith("_")) - _RISKY

DENIED_NAMES = frozenset("""exec eval compile open globals locals vars getattr setattr delattr hasattr
    breakpoint input type object super help dir memoryview id exit quit""".split())


def _name_problem(name, lookup=False):
    if name != "_" and name.startswith("_"):
        return (f"the name `{clip(name, 40)}`", "names starting with `_` (like `__class__` or "
                "`__builtins__`) can reach outside the sandbox", "rename it without the leading `_`")
    if lookup and name in DENIED_NAMES:
        return (f"`{name}`", "it could inspect or leave the sandbox, so the oracle does not offer it",
                "fizzbuzz needs only %, if and str(); if it is your variable, rename it")
    return None


def _spec_problem(spec):
    parts = spec.values if isinstance(spec, ast.JoinedStr) else [spec]
    if not all(isinstance(p, ast.Constant) and isinstance(p.value, str) for p in parts):
        return ("a computed format spec like `{x:{width}}`", "the sandbox cannot bound what it builds",
                "use a plain spec such as `{x:>3}` or str(x)")
    text = "".join(p.value for p in parts)
    if any(len(digits) > 2 for digits in re.findall(r"\d+", text)):
        return (f"the format spec `{clip(text, 40)}`", "widths or precisions over 99 can build huge "
                "strings", "use a smaller number or str(x)")
    return None


def _problem(node):
    """(what, why, fix) if ``node`` breaks a rule, else None."""
    kind = type(node).__name__
    if kind not in SAFE_NODES:
        return _FORBIDDEN.get(kind, (f"`{kind}` syntax", _PLAIN, _REWRITE))
    if kind == "Name":
        return _name_problem(node.id, lookup=True)
    if kind == "FunctionDef":
        if node.decorator_list:
            return ("a decorator", _PLAIN, "call the function directly")
        if getattr(node, "type_params", None):
            return ("type parameters `def f[T]`", _PLAIN, "remove them")
        return _name_problem(node.name)
    if kind == "arg" or (kind == "keyword" and node.arg is not None):
        return _name_problem(node.arg)
    if kind == "ExceptHandler" and node.name:
        return _name_problem(node.name)
    if kind == "Attribute":
        if node.attr.startswith("_"):
            return (f"the attribute `.{clip(node.attr, 40)}`", "names starting with `_` (like `__class__`"
                    " or `__globals__`) can reach outside the sandbox", "use ordinary methods such as "
                    "`.join` or `.append`")
        if not isinstance(node.ctx, ast.Load):
            return (f"changing `.{clip(node.attr, 40)}`", "code may not change objects through "
                    "attributes", "keep the value in a variable or a dict")
        if node.attr not in ALLOWED_ATTRS:
            return (f"the attribute `.{clip(node.attr, 40)}`", "the sandbox allows only the ordinary "
                    "methods of str, int, float, list, tuple, dict and set (and not .format or .ljust)",
                    "use str(), + or an f-string")
    if kind == "Subscript" and isinstance(node.slice, ast.Slice) and not isinstance(node.ctx, ast.Load):
        return ("assigning to a slice like `L[1:3] = ...`", "it can grow a list without a step "
                "the sandbox counts", "build a new list with + or .append instead")
    if kind == "Constant" and type(node.value) is int and abs(node.value) >= MAX_CONSTANT:
        bits = node.value.bit_length()   # str() of a huge literal could exceed Python's digit limit
        shown = clip(str(node.value), 24) if bits <= 64 else f"of {bits:,} bits"
        return (f"the number {shown}", "numbers written in the source must stay "
                "below 10**18 so the sandbox can bound arithmetic", "use a smaller number")
    if kind == "FormattedValue" and node.format_spec is not None:
        return _spec_problem(node.format_spec)
    if kind == "comprehension" and node.is_async:
        return ("`async for`", _PLAIN, "use a plain comprehension")
    return None


def _static_problems(tree):
    found, stack, too_deep = {}, [(tree, 1, 1)], False
    while stack:
        node, depth, line = stack.pop()
        line = getattr(node, "lineno", None) or line
        problem = _problem(node)
        if problem:
            what, why, fix = problem
            where = (line, getattr(node, "col_offset", 0) or 0)
            found.setdefault(f"line {line}: {what} is not allowed in the sandbox: {why}; {fix}", where)
            if type(node).__name__ not in SAFE_NODES:
                continue   # one problem per forbidden statement, not one per part of it
        if depth >= MAX_AST_DEPTH:
            if not too_deep:
                found[f"line {line}: the code is nested more than {MAX_AST_DEPTH} levels deep, which "
                      "the sandbox refuses because deep nesting can crash Python's compiler; flatten "
                      "it with helper variables or early returns"] = (line, 0)
            too_deep = True
            continue
        stack.extend((child, depth + 1, line) for child in ast.iter_child_nodes(node))
    problems = sorted(found, key=found.get)
    if len(problems) > MAX_PROBLEMS:
        problems[MAX_PROBLEMS:] = [f"... and {len(problems) - MAX_PROBLEMS} more problems"]
    return problems


def _long_statement(source):
    """Refuse a statement of hundreds of tokens before the parser sees it.

    ``1 + 1 + ... + 1`` with 2,000 terms is only 8 KB, but it parses into a
    syntax tree 2,000 levels deep, and turning that into Python objects
    recurses in C: in the browser that overflows the stack and kills the
    kernel. Counting tokens is iterative, and a statement's depth can never
    exceed its token count.
    """
    count = 0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for tok in tokenize.generate_tokens(io.StringIO(source).readline):
                if tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                    count = 0
                elif tok.type not in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
                    count += 1
                    if count > MAX_LINE_TOKENS:
                        return (f"line {tok.start[0]}: one statement holds more than {MAX_LINE_TOKENS} "
                                "tokens, which the sandbox refuses; split it into several short lines")
    except (tokenize.TokenError, SyntaxError, ValueError) as err:
        detail = err.args[0] if isinstance(err, tokenize.TokenError) and err.args else err
        return f"Python cannot read this code ({clip(str(detail), 120)}); fix the syntax"
    return None


def _parse(source):
    if not isinstance(source, str):
        return None, [f"the source must be a str, not {type(source).__name__}"]
    if len(source) > MAX_SOURCE:
        return None, [f"the source has {len(source):,} characters, over the sandbox's cap of "
                      f"{MAX_SOURCE:,}; a fizzbuzz needs a few hundred, so shorten it"]
    if "\0" in source:
        return None, ["the source holds a NUL character (\\0), which Python cannot read; remove it"]
    depth = deepest = 0
    for bracket in re.sub(r"[^][(){}]+", "", source):
        depth = depth + 1 if bracket in "([{" else max(depth - 1, 0)
        deepest = max(deepest, depth)
    if deepest > MAX_BRACKETS:
        return None, [f"the source opens more than {MAX_BRACKETS} brackets inside each other, "
                      "which the sandbox refuses; flatten the expression"]
    problem = _long_statement(source)
    if problem:
        return None, [problem]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(source, SOURCE_NAME), []
    except SyntaxError as err:
        where = f"line {err.lineno}: " if err.lineno else ""
        return None, [f"{where}Python cannot read this code ({clip(str(err.msg), 120)}); fix the syntax"]
    except (RecursionError, MemoryError, ValueError):
        return None, ["the code is nested too deeply for Python's parser; flatten it"]


def prepare(source):
    """Return ``(code, [])`` for source the sandbox may run, or ``(None, problems)``."""
    tree, problems = _parse(source)
    if problems:
        return None, problems
    problems = _static_problems(tree)
    if problems:
        return None, problems
    try:
        tree = ast.fix_missing_locations(Instrument().visit(tree))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return compile(tree, SOURCE_NAME, "exec", dont_inherit=True), []
    except SyntaxError as err:
        where = f"line {err.lineno}: " if err.lineno else ""
        return None, [f"{where}Python cannot compile this code ({clip(str(err.msg), 120)}); fix it"]
    except (RecursionError, MemoryError, ValueError, TypeError) as err:
        return None, [f"Python could not compile this code ({type(err).__name__}); simplify it"]
