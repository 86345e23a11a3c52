"""Build the course notebooks from their one source of truth.

Each part is written once, as a percent-format Python file in
``notebooks/source/NN_name.py``:

* ``# %% [markdown]`` starts a markdown cell (its lines start with ``# ``);
* ``# %%`` starts a code cell; ``# %% tags=["a", "b"]`` adds cell tags;
* inside a code cell, the lines between ``# BEGIN SOLUTION`` and
  ``# END SOLUTION`` are the worked solution. In the learner form they are
  replaced by the ``# STUB: ...`` lines that follow ``# END SOLUTION``
  (prefix removed), or, when there are none, by
  ``raise NotImplementedError(...)`` at the marker's indentation;
* what a table of the package knows (how many faults there are, part 4's cells for a fault it
  does not narrate) is left to the table and filled in at build time: ``tools/from_tables.py``.

From each source come two notebooks, executed so that their outputs are
stored (nbval compares them): ``notebooks/NN_name.ipynb`` for learners and
``notebooks/solutions/NN_name.ipynb`` with the solutions filled in. The learner
form stores no output that answers a prediction before the learner makes it
(which cells, and how nbval still checks them: ``tools/learner_form.py``), and
``{{minutes}}`` in a part's markdown becomes the time the built part measures
(``tools/part_times.py``).

    python tools/notebooks.py build [NN ...]   # write and execute both forms
    python tools/notebooks.py check            # committed notebooks == what their sources generate
"""

import importlib.util
import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "notebooks" / "source"
LEARNER = ROOT / "notebooks"
SOLUTIONS = ROOT / "notebooks" / "solutions"

CELL = re.compile(r"^# %%(?P<md> \[markdown\])?(?: tags=(?P<tags>\[.*\]))?\s*$")
# A cell tagged "exercise" also gets "exercise-N.M" from the heading above it (agent_team.grade finds it so).
EXERCISE_HEADING = re.compile(r"^#+ Exercise (\d+\.\d+)", re.M)
STUB_DEFAULT = 'raise NotImplementedError("Exercise: replace this line with your code")'


def parse(text):
    """Split a percent-format source into ``[(kind, tags, lines)]``."""
    cells = []
    for line in text.splitlines():
        match = CELL.match(line)
        if match:
            kind = "markdown" if match["md"] else "code"
            cells.append((kind, json.loads(match["tags"]) if match["tags"] else [], []))
        elif cells:
            cells[-1][2].append(line)
        elif line.strip():
            raise ValueError(f"text before the first '# %%' marker: {line!r}")
    return [(kind, tags, _trim(lines)) for kind, tags, lines in cells]


def _trim(lines):
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    while lines and not lines[0].strip():
        lines = lines[1:]
    return lines


def _markdown(lines):
    out = []
    for line in lines:
        if line != "#" and not line.startswith("# "):
            raise ValueError(f"a markdown line must start with '# ': {line!r}")
        out.append(line[2:])
    return out


def split_solution(lines, solution):
    """The code lines of one form: ``solution=True`` keeps solutions, else stubs."""
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        if line.strip() != "# BEGIN SOLUTION":
            out.append(line)
            i += 1
            continue
        indent = line[: len(line) - len(line.lstrip())]
        end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "# END SOLUTION"), None)
        if end is None:
            raise ValueError("'# BEGIN SOLUTION' without '# END SOLUTION'")
        stub_end = end + 1
        while stub_end < len(lines) and lines[stub_end].strip().startswith("# STUB:"):
            stub_end += 1
        stub = [s.replace("# STUB: ", "", 1).replace("# STUB:", "", 1) for s in lines[end + 1:stub_end]]
        out += lines[i + 1:end] if solution else (stub or [indent + STUB_DEFAULT])
        i = stub_end
    return out


def _tool(name):
    """A sibling module of this file (tools/ is no package: the tests load this file by its path)."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


learner_form = _tool("learner_form")
part_times = _tool("part_times")


def with_minutes(nbs, minutes):
    """The notebooks with ``{{minutes}}`` in their markdown replaced by ``minutes``."""
    for nb in nbs:
        for cell in nb["cells"]:
            if cell["cell_type"] == "markdown" and part_times.MINUTES in cell["source"]:
                cell["source"] = cell["source"].replace(part_times.MINUTES, str(minutes))
    return nbs


def notebook(cells, solution):
    nb_cells, heading = [], None
    unstored = {} if solution else learner_form.kinds(cells)
    for n, (kind, tags, lines) in enumerate(cells, 1):
        body = _markdown(lines) if kind == "markdown" else split_solution(lines, solution)
        heading = next(iter(EXERCISE_HEADING.findall("\n".join(body))), heading) if kind == "markdown" else heading
        tags = [*tags, f"exercise-{heading}"] if "exercise" in tags and heading else tags
        if n - 1 in unstored:
            tags = [*tags, *learner_form.tags(unstored[n - 1])]
        cell = {"cell_type": kind, "id": f"cell-{n:03d}", "metadata": {"tags": tags} if tags else {},
                "source": "\n".join(body)}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        nb_cells.append(cell)
    return {
        "cells": nb_cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def filled(source_path):
    """The source's text with what it leaves to the package's tables filled in (tools/from_tables.py)."""
    return _tool("from_tables").fill(source_path.read_text(encoding="utf-8"))


def forms(source_path):
    """``{path: notebook}`` for the learner and solution forms of one source file."""
    cells = parse(filled(source_path))
    name = source_path.stem + ".ipynb"
    out = {LEARNER / name: notebook(cells, False), SOLUTIONS / name: notebook(cells, True)}
    for nb in out.values():  # which part this is, for agent_team.grade (survives a renamed file)
        nb["metadata"]["agent_team"] = {"part": int(source_path.name[:2])}
    return out


def sources(selected=()):
    found = sorted(SOURCE.glob("[0-9][0-9]_*.py"))
    return [p for p in found if not selected or p.name[:2] in selected]


def build(selected=()):
    import nbformat
    from nbconvert.preprocessors import ExecutePreprocessor

    class Execute(ExecutePreprocessor):
        def preprocess_cell(self, cell, resources, index):
            # A reveal is not run in the learner form: its prediction's form is stored unanswered.
            if learner_form.NOT_RUN in cell.get("metadata", {}).get("tags", []):
                return cell, resources
            return super().preprocess_cell(cell, resources, index)

    # Executed outputs must not depend on this machine's course progress file.
    os.environ.setdefault("AGENT_TEAM_PROGRESS", "off")
    SOLUTIONS.mkdir(exist_ok=True)
    for src in sources(selected):
        built = {}
        for path, nb in forms(src).items():
            node = built[path] = nbformat.from_dict(nb)
            Execute(timeout=300, kernel_name="python3").preprocess(node, {"metadata": {"path": str(path.parent)}})
            for cell in node.cells:  # keep diffs and nbval stable
                cell.get("metadata", {}).pop("execution", None)
                if learner_form.UNSTORED in cell.get("metadata", {}).get("tags", []):
                    cell.outputs, cell.execution_count = [], None
                elif "outputs" in cell:
                    cell.outputs = joined_streams(cell.outputs)
            if path.parent == LEARNER:
                learner_form.unnumbered(node.cells)
        # The worked solutions hold every output a learner reads once each cell has run.
        with_minutes(built.values(), part_times.measured(built[SOLUTIONS / (src.stem + ".ipynb")]))
        for path, node in built.items():
            nbformat.write(node, str(path))
            print("built", path.relative_to(ROOT))


def joined_streams(outputs):
    """Consecutive printed outputs to the same stream as one, as JupyterLab shows them: the kernel
    flushes print's text and its end separately at times, which would split a stored output by chance."""
    joined = []
    for out in outputs:
        last = joined[-1] if joined else None
        if last is not None and out.get("output_type") == last.get("output_type") == "stream" \
                and out.get("name") == last.get("name"):
            last["text"] = "".join(last["text"]) + "".join(out["text"])
        else:
            joined.append(out)
    return joined


# Metadata the build adds on execution (the kernel's language details, stored widget state):
# everything else in a committed notebook must be exactly what its source generates.
EXECUTION_METADATA = ("language_info", "widgets")


def _cell_problems(have, want):
    """How one committed cell differs from the generated one, in words (empty when it does not)."""
    problems = []
    for key in ("cell_type", "id"):
        if have.get(key) != want[key]:
            problems.append(f"its {key} is {have.get(key)!r}, not {want[key]!r}")
    if "".join(have.get("source", "")) != want["source"]:
        problems.append("its source differs")
    meta = {k: v for k, v in (have.get("metadata") or {}).items() if k != "execution"}
    if meta.get("tags", []) != want["metadata"].get("tags", []):
        problems.append(f"its tags are {meta.get('tags', [])}, not {want['metadata'].get('tags', [])}")
    elif meta != want["metadata"]:
        problems.append(f"its metadata is {meta}, not {want['metadata']}")
    return problems


def _notebook_problems(have, want):
    problems = []
    if len(have["cells"]) != len(want["cells"]):
        problems.append(f"it has {len(have['cells'])} cells; its source makes {len(want['cells'])}")
    for n, (got, exp) in enumerate(zip(have["cells"], want["cells"]), 1):
        problems += [f"cell {n}: {p}" for p in _cell_problems(got, exp)]
    meta = {k: v for k, v in have.get("metadata", {}).items() if k not in EXECUTION_METADATA}
    expected = {k: v for k, v in want["metadata"].items() if k not in EXECUTION_METADATA}
    if meta != expected:
        problems.append(f"its notebook metadata is {meta}, not {expected}")
    if have.get("metadata", {}).get("language_info", {}).get("name") != want["metadata"]["language_info"]["name"]:
        problems.append("its language is not python")
    for key in ("nbformat", "nbformat_minor"):
        if have.get(key) != want[key]:
            problems.append(f"its {key} is {have.get(key)!r}, not {want[key]!r}")
    return problems


def check():
    """Every committed notebook equals what its source generates (cells, tags, metadata); returns the problems."""
    problems = []
    for src in sources():
        made = forms(src)
        solved = SOLUTIONS / (src.stem + ".ipynb")
        if solved.exists():  # the time it states is the one its committed worked solutions measure
            with_minutes(made.values(), part_times.measured(json.loads(solved.read_text(encoding="utf-8"))))
        for path, nb in made.items():
            if not path.exists():
                problems.append(f"{path.relative_to(ROOT)} is missing: run `make notebooks`")
                continue
            found = _notebook_problems(json.loads(path.read_text(encoding="utf-8")), nb)
            if found:
                shown = "; ".join(found[:3]) + (f"; and {len(found) - 3} more" if len(found) > 3 else "")
                problems.append(f"{path.relative_to(ROOT)} differs from {src.relative_to(ROOT)} ({shown}): "
                                "run `make notebooks`")
    return problems


if __name__ == "__main__":
    command, *rest = sys.argv[1:] or ["check"]
    if command == "build":
        build(rest)
    elif command == "check":
        issues = check()
        print("\n".join(issues) or "notebooks match their sources")
        sys.exit(1 if issues else 0)
    else:
        sys.exit(f"unknown command {command!r}; use 'build' or 'check'")
