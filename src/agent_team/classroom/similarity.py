"""Which learners handed in the same exercise cell: pairs, per exercise, compared on the AST.

Each cell is parsed and normalised before it is compared: comments, docstrings and formatting go
(the cell is printed back from its syntax tree), every name the cell binds (its variables,
parameters, helper functions, imports) becomes ``v1``, ``v2``... in order of first use, and every
literal becomes a placeholder of its type (``'S'``, ``0``). Names the cell does not bind (builtins,
the course's setup) and attribute names stay: they are the API, not the learner's choice. Two
cells are compared as token sequences (difflib's ratio, 0 to 1); a pair at or above the threshold
is reported, with a second ratio "as written" (formatting and comments still normalised, names
and literals kept), which tells a renamed copy (high, low) from the same code typed twice (both high).

The course's own cells are known sources: a cell as close as the threshold to the stub is "not
attempted" (never a pair: every learner starts from the stub), one as close to the worked solution
is flagged as matching it (and not paired either: the solution explains the likeness).

Pure functions: no files, except :func:`known_sources`, which reads the course's notebooks.
The report as a page or JSON: :mod:`similarity_page`.
"""

import ast
import builtins
import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

from .. import course
from .collect import collect

__all__ = ["Cell", "Finding", "Likeness", "normalise", "compare", "known_sources", "THRESHOLD"]

THRESHOLD = 0.9
TOKEN = re.compile(r"\w+|[^\w\s]")
KEEP = set(dir(builtins))


@dataclass
class Cell:
    learner: str
    exercise: str
    notebook: str
    source: str


@dataclass
class Finding:
    exercise: str
    kind: str            # "pair", "worked solution", "not attempted"
    ratio: float         # normalised
    as_written: float
    first: Cell
    second: Cell         # the other learner's cell, or the course's own


@dataclass
class Likeness:
    findings: list = field(default_factory=list)
    known: bool = True   # were the course's stubs and worked solutions compared?
    unparsed: list = field(default_factory=list)   # cells that are not Python: compared as text


def normalise(source, keep=()):
    """``(normalised tokens, as-written tokens)`` of a cell; its plain text's tokens when it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        words = TOKEN.findall(source)
        return words, words, False
    _Strip().visit(tree)
    written = TOKEN.findall(ast.unparse(tree))
    _Rename(_bound(tree) - set(keep) - KEEP).visit(tree)
    _Literals().visit(tree)
    return TOKEN.findall(ast.unparse(tree)), written, True


def _bound(tree):
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return names


class _Strip(ast.NodeTransformer):
    """A string standing alone as a statement (a docstring, a comment in disguise) goes."""

    def visit_Expr(self, node):
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return None
        return self.generic_visit(node)

    def generic_visit(self, node):
        node = super().generic_visit(node)
        if isinstance(getattr(node, "body", None), list) and not node.body:
            node.body = [ast.Pass()]   # a def that held only its docstring
        return node


class _Rename(ast.NodeTransformer):
    def __init__(self, names):
        self.names, self.new = names, {}

    def _to(self, name):
        if name not in self.names:
            return name
        return self.new.setdefault(name, f"v{len(self.new) + 1}")

    def visit_Name(self, node):
        node.id = self._to(node.id)
        return node

    def visit_arg(self, node):
        node.arg = self._to(node.arg)
        return self.generic_visit(node)

    def visit_keyword(self, node):
        if node.arg:
            node.arg = self._to(node.arg)
        return self.generic_visit(node)

    def visit_alias(self, node):
        if node.asname:
            node.asname = self._to(node.asname)
        return node

    def _named(self, node):
        node.name = self._to(node.name)
        return self.generic_visit(node)

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _named  # noqa: N815 -- ast.NodeTransformer's names

    def visit_ExceptHandler(self, node):
        if node.name:
            node.name = self._to(node.name)
        return self.generic_visit(node)


class _Literals(ast.NodeTransformer):
    def visit_Constant(self, node):
        value = node.value
        if isinstance(value, bool) or value is None or value is Ellipsis:
            return node   # structure, not data
        node.value = "S" if isinstance(value, str) else b"" if isinstance(value, bytes) else 0
        return node


def _ratio(matcher, a, b, threshold):
    """difflib's ratio of a to b (matcher holds b), or 0 when its cheap upper bounds are below the threshold."""
    matcher.set_seq1(a)
    if matcher.real_quick_ratio() < threshold or matcher.quick_ratio() < threshold:
        return 0.0
    return matcher.ratio()


def _similar(a, b):
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def compare(cells, known=None, threshold=THRESHOLD):
    """A :class:`Likeness` over ``cells`` (one per learner and exercise); ``known``: {exercise: {kind: source}}."""
    report = Likeness(known=bool(known))
    by_exercise = {}
    for cell in cells:
        by_exercise.setdefault(cell.exercise, []).append(cell)
    for exercise_id, group in by_exercise.items():
        keep = {e.defines for e in course.EXERCISES if e.id == exercise_id}
        prints = {}
        for cell in group:
            norm, written, parsed = normalise(cell.source, keep)
            prints[id(cell)] = (norm, written)
            if not parsed:
                report.unparsed.append(cell)
        open_cells = []
        for cell in group:
            found = _known(cell, prints[id(cell)], (known or {}).get(exercise_id, {}), keep, threshold)
            if found:
                report.findings.append(found)
            else:
                open_cells.append(cell)
        report.findings += _pairs(exercise_id, open_cells, prints, threshold)
    order = [e.id for e in course.EXERCISES]
    report.findings.sort(key=lambda f: (order.index(f.exercise) if f.exercise in order else 99,
                                        ("pair", "worked solution", "not attempted").index(f.kind),
                                        -f.ratio, -f.as_written, f.first.learner, f.second.learner))
    return report


def _known(cell, prints, sources, keep, threshold):
    for kind in ("not attempted", "worked solution"):
        source = sources.get("stub" if kind == "not attempted" else kind)
        if source is None:
            continue
        norm, written, _ = normalise(source, keep)
        ratio = _similar(prints[0], norm)
        if ratio >= threshold:
            origin = Cell(f"(the course's {'stub' if kind == 'not attempted' else kind})", cell.exercise, "", source)
            return Finding(cell.exercise, kind, round(ratio, 3), round(_similar(prints[1], written), 3), cell, origin)
    return None


def _pairs(exercise_id, cells, prints, threshold):
    """Every pair of different learners at or above the threshold; identical cells need no difflib."""
    found = {}
    cells = sorted(cells, key=lambda c: c.learner)
    for j, second in enumerate(cells):
        matcher = difflib.SequenceMatcher(None, autojunk=False)
        matcher.set_seq2(prints[id(second)][0])
        for first in cells[:j]:
            if first.learner == second.learner:
                continue
            a, b = prints[id(first)][0], prints[id(second)][0]
            ratio = 1.0 if a == b else _ratio(matcher, a, b, threshold)
            if ratio >= threshold:
                written = _similar(prints[id(first)][1], prints[id(second)][1])
                pair = Finding(exercise_id, "pair", round(ratio, 3), round(written, 3), first, second)
                key = tuple(sorted((first.learner, second.learner)))   # one learner's two copies: one pair
                if key not in found or (pair.ratio, pair.as_written) > (found[key].ratio, found[key].as_written):
                    found[key] = pair
    return list(found.values())


def known_sources(folder):
    """``{exercise: {"stub": source, "worked solution": source}}`` from the course's notebooks folder
    (its learner forms, and ``solutions/``); {} when the folder has none."""
    folder = Path(folder)
    sources = {}
    for kind, where in (("stub", folder), ("worked solution", folder / "solutions")):
        jobs, _ = collect(sorted(where.glob("*.ipynb")), learner=kind)
        for job in jobs:
            sources.setdefault(job.exercise.id, {})[kind] = job.source
    return sources
