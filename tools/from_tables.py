"""What the notebook sources leave to the package's tables, filled in when a notebook is built.

A source says what a table knows without copying it, so adding a row changes no notebook source:

* ``{{faults}}``, anywhere: the number of faults in ``agent_team.faults.FAULTS``, in words
  ("thirteen"). Prose that counts them stays true when a fault is added.
* ``{{faults stopped by LAYER}}``: the numbers of the faults (their places in the table, from 1)
  whose ``layer`` is LAYER: "2 and 5", "6, 7, 8, 11".
* ``{{after STATE}}``: where the supervisor's machine goes after STATE, in words, from its edge
  table (``agent_team.render.diagram.after_text``, the machine part 3 draws, without FAULT):
  part 3's rules say what the drawing draws.
* a line ``# {{layer definitions}}``: one bullet per layer of ``agent_team.layers.DEFINITIONS``,
  its words and what the trace must show: the definitions part 4's answers are read by.
* cells tagged ``each-new-fault``: a template, written out once for every fault of the table
  that the source does not narrate itself (no ``Predict.fault("its name")`` in the source), in
  table order, with ``{name}``, ``{what}``, ``{expect}``, ``{why}`` and ``{number}`` (its place
  in the table, from 1) filled in; left out when every fault is narrated. So a fault added to
  the table gets part 4's predict-then-run moment without an edit to part 4.

* a line ``...  # {{body of MODULE.FUNCTION}}``, inside a worked solution: that package function's
  statements (its docstring left out), at the line's indent (the ``...`` keeps the source valid
  Python). A grader's reference written out as the notebook's worked solution: one text, so the
  two cannot drift apart.

``fill(text)`` is what ``tools/notebooks.py`` builds from, and what tests of the course's text read.
"""

import ast
import importlib
import inspect
import json
import re
import textwrap

TEMPLATE_TAG = "each-new-fault"
STOPPED_BY = re.compile(r"\{\{faults stopped by (?P<layer>[a-z]+)\}\}")
AFTER = re.compile(r"\{\{after (?P<state>[A-Z_]+)\}\}")
LAYER_DEFINITIONS = re.compile(r"^# \{\{layer definitions\}\}$", re.M)
BODY = re.compile(r"^(?P<indent>[ \t]*)\.\.\.  # \{\{body of (?P<module>[\w.]+)\.(?P<name>\w+)\}\}\n", re.M)
CELL = re.compile(r"^# %%(?P<md> \[markdown\])?(?: tags=(?P<tags>\[.*\]))?\s*$", re.M)
WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
         "fifteen sixteen seventeen eighteen nineteen twenty").split()


def number_word(n):
    """``13`` -> ``"thirteen"``; past twenty, the digits."""
    return WORDS[n] if 0 <= n < len(WORDS) else str(n)


def fill(text):
    """The source ``text`` with the tables' counts and cells filled in (see the module's docstring)."""
    from agent_team.faults import FAULTS

    cells = _cells(text)
    narrated = set(re.findall(r'Predict\.fault\("([^"]+)"\)', text))
    new = [(number, fault) for number, fault in enumerate(FAULTS.values(), 1) if fault.name not in narrated]
    out, i = [], 0
    while i < len(cells):
        if TEMPLATE_TAG not in cells[i][1]:
            out.append(cells[i][0])
            i += 1
            continue
        j = i
        while j < len(cells) and TEMPLATE_TAG in cells[j][1]:
            j += 1
        template = "".join(_untagged(cell) for cell, _ in cells[i:j])
        out += [_one(template, number, fault) for number, fault in new]
        i = j
    text = "".join(out).replace("{{faults}}", number_word(len(FAULTS)))
    text = STOPPED_BY.sub(lambda m: _numbers(FAULTS, m["layer"]), text)
    text = AFTER.sub(lambda m: _after(m["state"]), text)
    text = BODY.sub(lambda m: _body(m["module"], m["name"], m["indent"]), text)
    return LAYER_DEFINITIONS.sub(lambda m: _definitions(), text)


def _body(module, name, indent):
    """The statements of ``module.name`` (its docstring left out), each line at ``indent``."""
    source = textwrap.dedent(inspect.getsource(getattr(importlib.import_module(module), name)))
    first = ast.parse(source).body[0].body[0]
    documented = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
        and isinstance(first.value.value, str)
    lines = source.splitlines()[first.end_lineno if documented else first.lineno - 1:]
    return textwrap.indent(textwrap.dedent("\n".join(lines)) + "\n", indent)


def _after(state):
    from agent_team.render.diagram import SUPERVISOR, after_text

    return after_text(state, SUPERVISOR.without("FAULT"))


def _definitions():
    from agent_team.layers import DEFINITIONS

    return "\n".join(f"# - **{words}**: {definition}." for words, definition in DEFINITIONS.values())


def _numbers(faults, layer):
    numbers = [str(n) for n, fault in enumerate(faults.values(), 1) if fault.layer == layer]
    if not numbers:
        raise ValueError(f"{{{{faults stopped by {layer}}}}}: no fault of the table has the layer {layer!r}")
    return " and ".join(numbers) if len(numbers) == 2 else ", ".join(numbers)


def _cells(text):
    """``[(cell text with its marker line, tags)]``; text before the first marker is its own piece."""
    starts = [m.start() for m in CELL.finditer(text)]
    pieces = [text[a:b] for a, b in zip([0, *starts], [*starts, len(text)]) if b > a]
    return [(piece, _tags(piece)) for piece in pieces]


def _tags(piece):
    match = CELL.match(piece.split("\n", 1)[0])
    return json.loads(match["tags"]) if match and match["tags"] else []


def _untagged(piece):
    marker, _, body = piece.partition("\n")
    match = CELL.match(marker)
    tags = [t for t in _tags(piece) if t != TEMPLATE_TAG]
    marker = "# %%" + (match["md"] or "") + (f" tags={json.dumps(tags)}" if tags else "")
    return f"{marker}\n{body}"


def _one(template, number, fault):
    for key, value in (("{name}", fault.name), ("{what}", fault.what), ("{expect}", fault.expect),
                       ("{why}", fault.why), ("{number}", str(number))):
        template = template.replace(key, value)
    return template
