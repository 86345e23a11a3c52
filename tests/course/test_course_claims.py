"""What the course says, checked against the engine: the machine's text, the hints cells, reports."""

import re
from pathlib import Path

import pytest

from agent_team.course import EXERCISES
from agent_team.render.diagram import SUPERVISOR, machine_text, state_svg
from agent_team.render.report import report_html
from agent_team.supervisor import supervise

SOURCES = Path(__file__).resolve().parents[2] / "notebooks" / "source"
# Under Pyodide only src/ and the tests are copied (tests/pyodide/select.py): no notebook sources.
needs_sources = pytest.mark.skipif(not SOURCES.is_dir(), reason="the notebook sources are not here")
GRADERS = {row.id: f"{row.grader}(" for row in EXERCISES}  # every exercise of the course's table


def filled(path):
    """A source as its notebooks are built from it: what it leaves to the tables filled in."""
    import importlib.util
    tool = SOURCES.parents[1] / "tools" / "from_tables.py"
    spec = importlib.util.spec_from_file_location("from_tables", tool)
    tables = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tables)
    return tables.fill(path.read_text(encoding="utf-8"))


def _cells():
    for path in sorted(SOURCES.glob("*.py")):
        yield from re.split(r"^# %%.*$", filled(path), flags=re.M)


def test_the_machine_in_words_is_made_from_the_drawings_edges():
    text = machine_text(SUPERVISOR)
    for a, b, _bend, label in SUPERVISOR.edges:
        line = next(x for x in text.splitlines() if x.startswith(f"  {a}: "))
        assert (f"{label} -> {b}" if label else f"-> {b}") in line
    assert "  REVIEW: " in text and "out of rounds -> STOP_FAIL" in text.split("  REVIEW: ")[1].split("\n")[0]
    core = SUPERVISOR.without("FAULT")
    assert "FAULT" not in machine_text(core) and "FAULT" not in state_svg("CODE", "PLAN", core)
    with pytest.raises(KeyError, match="is not a state"):
        SUPERVISOR.without("LUNCH")


@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_out_of_rounds_goes_to_stop_fail_after_review_in_a_real_trace(rounds):
    from agent_team.faults import fizz_only_coder
    run = supervise(max_rounds=rounds, coder=fizz_only_coder)
    states = [e["state"] for e in run.trace]
    assert run.status == "budget" and states[-3:] == ["TEST", "REVIEW", "STOP_FAIL"]
    assert SUPERVISOR.has("REVIEW", "STOP_FAIL") and not SUPERVISOR.has("TEST", "STOP_FAIL")
    import agent_team.supervisor
    assert "after TEST: STOP_FAIL" not in agent_team.supervisor.__doc__


@needs_sources
@pytest.mark.parametrize("ex_id", list(GRADERS))
def test_every_grader_cell_is_followed_by_its_hints(ex_id):
    cells = list(_cells())
    grader = [i for i, c in enumerate(cells) if f"report = {GRADERS[ex_id]}" in c]
    assert len(grader) == 1, f"exercise {ex_id}: one grader cell"
    assert f'Hints("{ex_id}")' in cells[grader[0] + 1]


@needs_sources
def test_part_four_predicts_every_fault_before_it_runs():
    from agent_team.faults import FAULTS
    text = filled(SOURCES / "04_failure_injection.py")  # a fault it does not narrate gets cells there
    for name in FAULTS:
        predict, run = text.find(f'Predict.fault("{name}")'), text.find(f'run_fault("{name}")')
        assert 0 <= predict < run, name
        assert "guess.reveal(run)" in text[run:run + 800], name
    for part in ("01", "02", "03"):
        source = next(SOURCES.glob(f"{part}_*.py")).read_text(encoding="utf-8")
        assert "Predict(" in source and ".reveal(" in source, f"part {part} has a predict-then-run moment"


def test_report_details_show_backticks_as_code():
    class Check:
        name, requirement, passed, detail, divergence = "rule", "the `x` rule", False, "got `None`", None

    class Report:
        title, checks, hint, status = "r", [Check()], "", ""

    html = report_html(Report())
    table = html.split("<table")[1].split("</table>")[0]
    assert "<code>None</code>" in table and "<code>x</code>" in table and "`" not in table


def test_diagrams_scroll_in_a_narrow_notebook_instead_of_shrinking():
    from agent_team.render.diagram import PROTOCOL, machine_html
    from agent_team.render.html import STYLE
    from agent_team.render.log import log_step_html
    from agent_team.render.step import step_html
    run = supervise(max_rounds=1)
    log = [("planner", "plan"), ("coder", "v1"), ("reviewer", "APPROVE"), ("tester", "PASS")]
    for html in (step_html(run, 3), log_step_html(log, 2), machine_html(PROTOCOL)):
        assert '<div class="at-scroll"><svg' in html
    assert "svg.at-diagram{min-width:640px}" in STYLE and "contain:inline-size" in STYLE
    assert "word-break:normal" in STYLE  # undoes JupyterLab's break-all on output <pre>s


WORDS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty"
NUMBER_WORDS = {word: n for n, word in enumerate(WORDS.split(), 10)}


@needs_sources
def test_the_number_of_part_fours_faults_in_words_is_the_tables():
    from agent_team.faults import FAULTS
    pattern = re.compile(r"\b(\w+)\s+different\s+ways|part 4's\s+(\w+)\b")

    def claims(read):
        return [(path.name, word) for path in SOURCES.glob("*.py")
                for m in pattern.finditer(read(path).replace("\n#", " "))
                for word in m.groups() if word in NUMBER_WORDS]
    built = claims(filled)
    assert len(built) >= 3, built
    assert [c for c in built if NUMBER_WORDS[c[1]] != len(FAULTS)] == []
    # the sources leave the number to the table ({{faults}}), so a new fault cannot make it stale
    assert claims(lambda path: path.read_text(encoding="utf-8")) == []
