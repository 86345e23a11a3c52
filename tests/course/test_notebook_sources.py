"""The notebooks are generated from one source per part; these tests keep them from drifting."""

import importlib.util
from pathlib import Path

import pytest

from agent_team import course

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("notebook_tool", ROOT / "tools" / "notebooks.py")
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)


def test_committed_notebooks_match_their_sources():
    assert tool.check() == []


def test_every_part_has_a_source_and_both_forms():
    parts = [p.stem for p in tool.sources()]
    for part in parts:
        assert (tool.LEARNER / f"{part}.ipynb").exists()
        assert (tool.SOLUTIONS / f"{part}.ipynb").exists()


def test_solution_blocks_become_stubs_for_learners():
    text = (
        "# %% [markdown]\n# # Title\n#\n# Some words.\n"
        "# %% tags=[\"exercise\"]\n"
        "def f(x):\n    # BEGIN SOLUTION\n    return x + 1\n    # END SOLUTION\n"
        "# %%\nEVAL = [1]  # kept\n# BEGIN SOLUTION\nEVAL = [1, 2]\n# END SOLUTION\n# STUB: EVAL = None\n"
    )
    cells = tool.parse(text)
    learner = tool.notebook(cells, solution=False)["cells"]
    solution = tool.notebook(cells, solution=True)["cells"]
    assert learner[0]["source"] == "# Title\n\nSome words."
    assert learner[1]["metadata"] == {"tags": ["exercise"]}
    assert "return x + 1" not in learner[1]["source"]
    assert learner[1]["source"].endswith('    raise NotImplementedError("Exercise: replace this line with your code")')
    assert solution[1]["source"] == "def f(x):\n    return x + 1"
    assert learner[2]["source"] == "EVAL = [1]  # kept\nEVAL = None"
    assert solution[2]["source"] == "EVAL = [1]  # kept\nEVAL = [1, 2]"


@pytest.mark.parametrize("bad", [
    "stray text\n# %%\nx = 1\n",
    "# %% [markdown]\nnot a comment\n",
    "# %%\n# BEGIN SOLUTION\nx = 1\n",
])
def test_malformed_sources_are_refused(bad):
    with pytest.raises(ValueError):
        tool.notebook(tool.parse(bad), solution=False)


@pytest.mark.parametrize("row", course.EXERCISES, ids=lambda row: row.id)
def test_every_exercise_is_graded_in_its_parts_notebook(row):
    part = next(p for p in course.PARTS if p.number == row.part)
    assert row.grader in (ROOT / "notebooks" / "source" / f"{part.notebook}.py").read_text(encoding="utf-8")


def test_every_part_has_its_notebook_source():
    for part in course.PARTS:
        assert (ROOT / "notebooks" / "source" / f"{part.notebook}.py").is_file(), part


def _built(source):
    """A notebook as the build writes it: generated, plus what execution adds."""
    nb = tool.notebook(tool.parse(source), solution=True)
    nb["metadata"]["language_info"] = {"name": "python", "version": "3.x"}
    for cell in nb["cells"]:
        cell["metadata"].setdefault("execution", {"iopub.status.busy": "now"})  # dropped by the build anyway
    return nb


SMALL = '# %% [markdown]\n# # Title\n\n# %% tags=["quiz"]\nx = 1\n\n# %%\ny = 2\n'


def test_the_check_accepts_what_the_build_adds_and_nothing_else():
    want = tool.notebook(tool.parse(SMALL), solution=True)
    assert tool._notebook_problems(_built(SMALL), want) == []


@pytest.mark.parametrize("edit, words", [
    (lambda nb: nb["cells"][1]["metadata"].update(tags=["exercise"]),
     "cell 2: its tags are ['exercise'], not ['quiz']"),
    (lambda nb: nb["cells"][2]["metadata"].update(tags=["nbval-ignore-output"]), "cell 3: its tags are"),
    (lambda nb: nb["cells"][2]["metadata"].update(editable=False), "cell 3: its metadata is"),
    (lambda nb: nb["cells"][0].update(id="renamed"), "cell 1: its id is 'renamed'"),
    (lambda nb: nb["cells"][2].update(source="y = 3"), "cell 3: its source differs"),
    (lambda nb: nb["metadata"].update(authors=["x"]), "its notebook metadata is"),
    (lambda nb: nb["metadata"]["kernelspec"].update(name="pyodide"), "its notebook metadata is"),
    (lambda nb: nb["cells"].pop(), "it has 2 cells; its source makes 3"),
])
def test_the_check_sees_changed_tags_metadata_ids_and_sources(edit, words):
    have = _built(SMALL)
    edit(have)
    problems = tool._notebook_problems(have, tool.notebook(tool.parse(SMALL), solution=True))
    assert any(words in p for p in problems), problems


def test_printed_output_split_by_the_kernel_is_stored_as_one():
    def stream(name, text):
        return {"output_type": "stream", "name": name, "text": text}
    split = [stream("stdout", "Your run_team is not written yet."), stream("stdout", ["\n"]),
             stream("stderr", "warning\n"), stream("stdout", "after\n"),
             {"output_type": "execute_result", "data": {}}, stream("stdout", "last\n")]
    assert tool.joined_streams(split) == [stream("stdout", "Your run_team is not written yet.\n"),
                                          stream("stderr", "warning\n"), stream("stdout", "after\n"),
                                          {"output_type": "execute_result", "data": {}},
                                          stream("stdout", "last\n")]


def test_the_learner_form_stores_no_answer_to_a_prediction():
    """tools/learner_form.py: the cells from a prediction to its reveal keep no output in the learner
    form (the reveal is not even run), nor does a cell tagged "spoiler"; the worked solutions keep all."""
    text = (
        "# %%\nprint('the cases')\n"
        "# %% tags=[\"spoiler\"]\nprint('each one ends with budget')\n"
        "# %%\nguess = Predict('k', 't', [('q', ['a', 'b'])])\nguess\n"
        "# %% [markdown]\n# Now run it.\n"
        "# %%\nrun = supervise()\n"
        "# %%\nguess.reveal(['a'])\n"
        "# %%\nprint('after')\n"
        "# %%\nfrom agent_team.grading import grade_run_tests\n\nreport = grade_run_tests(run_tests)\nreport\n"
        "# %%\nHints('1.1')\n"
    )
    cells = tool.parse(text)
    learner = [c["metadata"].get("tags", []) for c in tool.notebook(cells, solution=False)["cells"]]
    hidden = ["output-after-run", "nbval-ignore-output"]
    assert learner == [[], ["spoiler", *hidden], [], [], hidden, [*hidden, "reveal"], [], hidden, []]
    solution = [c["metadata"].get("tags", []) for c in tool.notebook(cells, solution=True)["cells"]]
    assert solution == [[], ["spoiler"], [], [], [], [], [], [], []]


def test_the_learner_form_keeps_no_execution_count():
    cells = [{"cell_type": "markdown", "source": "# Title"},
             {"cell_type": "code", "execution_count": 3,
              "outputs": [{"output_type": "execute_result", "execution_count": 3, "data": {}},
                          {"output_type": "stream", "name": "stdout", "text": "x\n"}]}]
    tool.learner_form.unnumbered(cells)
    assert cells[1]["execution_count"] is None and cells[1]["outputs"][0]["execution_count"] is None
    assert cells[1]["outputs"][1] == {"output_type": "stream", "name": "stdout", "text": "x\n"}
    assert "execution_count" not in cells[0]


@pytest.mark.parametrize("text, says", [
    ("# %%\nguess = Predict('k', 't', [('q', ['a', 'b'])])\n# %%\nrun = 1\n", "no later cell reveals"),
    ("# %%\ng = Predict('k', 't', [('q', ['a', 'b'])])\n# %%\nh = Predict.fault('x')\n# %%\ng.reveal(['a'])\n",
     "before it is revealed"),
])
def test_a_prediction_without_its_reveal_is_refused(text, says):
    with pytest.raises(ValueError, match=says):
        tool.notebook(tool.parse(text), solution=False)
