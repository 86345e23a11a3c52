"""No answer key is on a learner notebook as it is stored: read from the package's tables, never a hand list.

Every learner notebook (``notebooks/NN_*.ipynb``) is opened as a learner opens it: every cell's
source, every stored output (all its formats, the static HTML beside a widget included) and the
widget state kept in its metadata. What it must not hold, derived from the tables, so a quiz or a
prediction added there is checked without an edit here:

* a **quiz** of :data:`agent_team.quizzes.QUIZZES`: its explanation, or a wrong choice's
  explanation, anywhere (they show only once a choice is checked); in a code cell, a ``Quiz``
  call that spells out its key (``answer=``, or more than its id); and an answer that is numbers
  ("12 and 4") printed, every one of them, by the code cells that follow the quiz before the text
  goes on (a cell that runs what the quiz asks about: tag it ``spoiler``);
* a **prediction** of :data:`agent_team.predict.PREDICTIONS`: its explanation anywhere; and between
  its form and its reveal, a code cell with one of its answers as a string, or an ``assert`` on
  one of them or on how the run ends;
* a **fault** of part 4 (:data:`agent_team.faults.FAULTS`, ``Predict.fault(name)``): between its
  form and its reveal, an "Expected" sentence, its own explanation (its ``why``), or an ``assert``
  on how the run ends.

The matcher's words and the placement rules (what is shown *beside* a question above its form) are
tests/course/test_spoilers.py's; this file looks for the keys themselves.
"""

import ast
import html
import json
import re
from pathlib import Path

import pytest

from agent_team.faults import FAULTS
from agent_team.predict import PREDICTIONS
from agent_team.quizzes import QUIZZES

ROOT = Path(__file__).resolve().parents[2]
LEARNER = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")  # a whole number, not part of a name or of 0.5
STATUS = re.compile(r"""\.status\s*==\s*(?:["'](?:pass|budget)["']|FAULTS\[)""")


def normal(text):
    """Lowercased words, tags, entities, backticks and line breaks gone: how a sentence is looked for."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", text)).replace("`", "").lower()
    return " ".join(re.findall(r"[a-z0-9_']+|[^\sa-z0-9_']", text))


def _join(text):
    return "".join(text) if isinstance(text, list) else str(text)


def strings(source):
    """A code cell's source, and its string literals joined as Python joins them (``"a " "b"``)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    found = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return source + "\n" + "\n".join(found)


def _literals(source):
    try:
        return {n.value for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Constant)}
    except SyntaxError:
        return set()


def outputs(cell):
    """Every stored output of one cell, all its formats, as text."""
    parts = []
    for out in cell.get("outputs", []):
        parts.append(_join(out.get("text", "")))
        parts += [_join(v) if isinstance(v, (str, list)) else json.dumps(v) for v in out.get("data", {}).values()]
    return parts


def shown(cell):
    """Everything one cell shows as stored: its source (code: with its strings) and all its outputs."""
    source = _join(cell["source"])
    return "\n".join([strings(source) if cell["cell_type"] == "code" else source, *outputs(cell)])


def notebook(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    texts = [normal(shown(c)) for c in nb["cells"]]
    return nb, texts, normal(json.dumps(nb.get("metadata", {}).get("widgets", {})))


def _between(cells, form):
    """The cells after the form at ``form`` up to and including its reveal, and the code cells right after
    the reveal (before the text goes on): on the screen with the form, their source is read with it."""
    end = next((i for i in range(form + 1, len(cells)) if ".reveal(" in _join(cells[i]["source"])), len(cells) - 1)
    while end + 1 < len(cells) and cells[end + 1]["cell_type"] == "code":
        end += 1
    return range(form + 1, end + 1)


def quiz_findings(path, nb, texts, state):
    problems = []
    for q in QUIZZES:
        for why in (q.explanation, *(e for e in q.explanations if e)):
            where = [f"cell {i + 1}" for i, t in enumerate(texts) if normal(why) in t]
            where += ["the widget state"] if normal(why) in state else []
            if where:
                kind = "explanation" if why == q.explanation else "explanation of a wrong choice"
                problems.append(f"{path.name}: quiz {q.id}'s {kind} is in {', '.join(where)}: {why[:50]!r}")
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        for call in re.finditer(r"\bQuiz\((?P<args>[^)]*)", _join(cell["source"])):
            if "answer=" in call["args"] or "," in call["args"]:
                problems.append(f"{path.name}: cell {i + 1} spells out a quiz's key: Quiz({call['args'][:60]}...")
    by_id = {q.id: q for q in QUIZZES}
    for i, cell in enumerate(nb["cells"]):
        code = _join(cell["source"]) if cell["cell_type"] == "code" else ""
        asked = re.search(r"""\bQuiz\(["']([^"']+)["']\)""", code)
        q = by_id.get(asked[1]) if asked else None
        numbers = set(NUMBER.findall(q.choices[q.answer])) if q else set()
        if not numbers:
            continue
        after = []
        for c in nb["cells"][i + 1:]:
            if c["cell_type"] != "code":
                break
            after += outputs(c)
        if numbers <= set(NUMBER.findall(" ".join(after))):
            problems.append(f"{path.name}: the code cells after quiz {q.id} print its answer "
                            f"{q.choices[q.answer]!r} in their stored outputs")
    return problems


def prediction_findings(path, nb, texts, state):
    problems, cells = [], nb["cells"]
    for p in PREDICTIONS:
        if normal(p.why) in "\n".join(texts) + state:
            problems.append(f"{path.name}: the explanation of {p.key!r} is stored: {p.why[:50]!r}")
        forms = [i for i, c in enumerate(cells) if f'Predict("{p.key}"' in _join(c["source"])]
        for form in forms:
            for i in [form, *_between(cells, form)]:
                source = _join(cells[i]["source"]) if cells[i]["cell_type"] == "code" else ""
                # The form itself may list the options (the long form): only the cells after it are held
                # to naming no answer; a cell that names every option of a question (a mapping from the run
                # to the options) names no answer of it.
                said = [] if i == form else [a for a, (_, options) in zip(p.answers, p.questions)
                                             if a in _literals(source) and not set(options) <= _literals(source)]
                checks = [line for line in source.splitlines() if line.lstrip().startswith("assert")
                          and (STATUS.search(line) or any(f'"{a}"' in line or f"'{a}'" in line for a in p.answers))]
                if said or checks:
                    problems.append(f"{path.name}: cell {i + 1}, before {p.key!r} is revealed, holds its key: "
                                    f"{(checks or said)[0]!r}")
    return problems


def fault_findings(path, nb, texts, state):
    problems, cells = [], nb["cells"]
    for name, fault in FAULTS.items():
        for form in [i for i, c in enumerate(cells) if f'Predict.fault("{name}")' in _join(c["source"])]:
            for i in _between(cells, form):
                source = _join(cells[i]["source"])
                if "Expected:" in source or "expected:" in source.lower().replace("*", ""):
                    problems.append(f"{path.name}: cell {i + 1}, before fault {name!r} is revealed, "
                                    "says what to expect")
                if normal(fault.why) in texts[i]:
                    problems.append(f"{path.name}: cell {i + 1}, before fault {name!r} is revealed, explains it")
                if cells[i]["cell_type"] == "code" and any(line.lstrip().startswith("assert") and STATUS.search(line)
                                                            for line in source.splitlines()):
                    problems.append(f"{path.name}: cell {i + 1}, before fault {name!r} is revealed, asserts how "
                                    "the run ends")
    return problems


CHECKS = {"quizzes": quiz_findings, "predictions": prediction_findings, "faults": fault_findings}


def findings(path):
    nb, texts, state = notebook(path)
    return [p for check in CHECKS.values() for p in check(path, nb, texts, state)]


def test_the_tables_have_keys_to_look_for_and_the_notebooks_ask_them():
    everything = "\n".join(_join(c["source"]) for path in LEARNER for c in json.loads(path.read_text())["cells"])
    assert len(QUIZZES) >= 12 and len(PREDICTIONS) >= 4 and len(LEARNER) >= 7
    assert all(f'Quiz("{q.id}")' in everything for q in QUIZZES)
    assert all(f'Predict("{p.key}")' in everything for p in PREDICTIONS)
    assert all(f'Predict.fault("{name}")' in everything for name in FAULTS)  # narrated, or from the template


def test_the_finder_finds_a_key_in_each_place_it_looks():
    numbered = next(q for q in QUIZZES if NUMBER.search(q.choices[q.answer]))
    counted = {"cell_type": "code", "source": f'Quiz("{numbered.id}")', "outputs": []}
    printed = {"cell_type": "code", "source": "run()", "outputs": [{"output_type": "stream", "text": [
        " calls, then ".join(NUMBER.findall(numbered.choices[numbered.answer])) + " calls\n"]}]}
    told = quiz_findings(Path("x.ipynb"), {"cells": [counted, printed], "metadata": {}}, [], "")
    assert any("print its answer" in f for f in told), told
    q, p = QUIZZES[0], PREDICTIONS[0]
    quiz_cell = {"cell_type": "code", "source": f"Quiz({q.question!r}, {list(q.choices)!r}, answer={q.answer})",
                 "outputs": [{"output_type": "execute_result", "data": {"text/html": f"<p>{q.explanation}</p>"}}]}
    form = {"cell_type": "code", "source": f'g = Predict("{p.key}")', "outputs": []}
    run = {"cell_type": "code", "source": f"assert list(x) == {list(p.answers)!r}", "outputs": []}
    reveal = {"cell_type": "code", "source": "g.reveal(x)", "outputs": []}
    nb = {"cells": [quiz_cell, form, run, reveal], "metadata": {}}
    texts = [normal(shown(c)) for c in nb["cells"]]
    found = quiz_findings(Path("x.ipynb"), nb, texts, "") + prediction_findings(Path("x.ipynb"), nb, texts, "")
    assert any("explanation is in cell 1" in f for f in found) and any("spells out" in f for f in found)
    assert any("cell 3, before" in f for f in found)


@pytest.mark.parametrize("check", CHECKS)
@pytest.mark.parametrize("path", LEARNER, ids=[p.name for p in LEARNER])
def test_no_answer_key_is_stored_in_a_learner_notebook(path, check):
    problems = CHECKS[check](path, *notebook(path))
    assert not problems, f"{len(problems)} answers a learner can read before answering:\n" + "\n".join(problems[:15])
