"""What the course says, checked against the engine: the machine's text, the hints cells, reports."""

import re
from pathlib import Path

import pytest
from built_sources import filled

from agent_team.course import EXERCISES
from agent_team.render.diagram import SUPERVISOR, machine_text, state_svg
from agent_team.render.report import report_html
from agent_team.supervisor import supervise

SOURCES = Path(__file__).resolve().parents[2] / "notebooks" / "source"
# Under Pyodide only src/ and the tests are copied (tests/pyodide/select.py): no notebook sources.
needs_sources = pytest.mark.skipif(not SOURCES.is_dir(), reason="the notebook sources are not here")
GRADERS = {row.id: f"{row.grader}(" for row in EXERCISES}  # every exercise of the course's table


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


# --- part 3: the rules are the machine's edges; the order and the tester are explained in the open -----

CORE = SUPERVISOR.without("FAULT")  # the machine part 3 draws


@needs_sources
def test_part_threes_rules_are_written_from_the_machines_edges():
    from agent_team.render.diagram import after_text
    source = (SOURCES / "03_supervisor.py").read_text(encoding="utf-8")
    text = filled(SOURCES / "03_supervisor.py")
    for state in ("PLAN", "CODE", "TEST", "REVIEW"):
        assert f"**After `{state}`: {{{{after {state}}}}}" in source, f"part 3's rule for {state} is typed, not made"
        assert f"**After `{state}`: {after_text(state, CORE)}" in text
    assert "`CODE` if rounds left" in after_text("PLAN", CORE) and "`STOP_FAIL` if 0 rounds" in after_text("PLAN", CORE)


def _always_claims(text):
    return re.findall(r"\bafter `?([A-Z_]+)`?,? always `?([A-Z_]+)`?", text, flags=re.I)


@needs_sources
def test_always_is_said_only_of_a_state_with_one_way_out():
    # "after PLAN, always CODE" beside a drawing with PLAN -> PLAN and PLAN -> STOP_FAIL was the bug.
    import agent_team.supervisor
    from agent_team.faults import FAULTS, run_fault
    said = [(path.name, a, b) for path in SOURCES.glob("*.py") for a, b in _always_claims(filled(path))]
    said += [("supervisor.py", a, b) for a, b in _always_claims(agent_team.supervisor.__doc__)]
    runs = [supervise(max_rounds=n) for n in (0, 1, 4)] + [run_fault(name) for name in FAULTS]
    said += [("a trace", a, b) for run in runs for e in run.trace for a, b in _always_claims(e.get("decision") or "")]
    for where, a, b in said:
        a, b = a.upper(), b.upper()
        ways_out = {e[1] for e in SUPERVISOR.edges if e[0] == a}
        assert ways_out == {b}, f"{where} says after {a} always {b}, but the machine goes {a} -> {sorted(ways_out)}"
    assert any(where == "a trace" for where, *_ in said)  # the check reads real decisions


def test_the_planners_decision_says_what_really_comes_next():
    from agent_team.faults import run_fault
    from agent_team.trace import turns
    for run in (supervise(max_rounds=0), supervise(max_rounds=4), run_fault("planner writes code")):
        states = [e["state"] for e in run.trace]
        first = turns(run.trace, "planner")[0]
        following = states[run.trace.index(first) + 1]
        assert SUPERVISOR.has("PLAN", following)
        expected = {"STOP_FAIL": "the run stops", "PLAN": "goes again", "CODE": "the coder goes next"}[following]
        assert expected in first["decision"], (following, first["decision"])


@needs_sources
def test_part_three_explains_the_order_and_the_tester_in_the_open_before_exercise_3_1():
    from agent_team.faults import stubborn_reviewer
    from agent_team.render.diagram import PROTOCOL
    from agent_team.protocol import run_team
    text = filled(SOURCES / "03_supervisor.py")
    exercise = text.index("## Exercise 3.1")
    for heading in ("### Two orders for a round", "### The tester must be code, like the oracle"):
        at = text.index(heading)
        assert at < exercise and text.rfind("<details>", 0, at) <= text.rfind("</details>", 0, at), heading
    # what the paragraphs say about the two orders, held to the engine:
    assert SUPERVISOR.has("CODE", "TEST") and SUPERVISOR.has("TEST", "REVIEW") and not SUPERVISOR.has("CODE", "REVIEW")
    assert PROTOCOL.has("CODE", "REVIEW") and PROTOCOL.has("REVIEW", "TEST") and not PROTOCOL.has("CODE", "TEST")
    assert supervise(max_rounds=3, reviewer=stubborn_reviewer).status == "pass"  # never blocks green tests
    code, log = run_team("t", lambda t: "p", lambda t, p, f: "v", lambda c: "REJECT", lambda c: "PASS", 3)
    assert code is None and "tester" not in [role for role, _ in log]  # the gate: only the budget bounds it
    assert "A choice we made: test first" not in text  # the reason is no longer folded away


@needs_sources
def test_the_loop_part_three_prints_calls_only_helpers_it_names_and_documents():
    import builtins
    import inspect

    from agent_team import supervisor as sv
    source = inspect.getsource(sv.supervise)
    loop = source[source.index('    run.log("start"'):]
    methods = set(re.findall(r"\brun\.(\w+)\(", loop))
    functions = set(re.findall(r"(?<![\w.])([A-Za-z_]\w*)\(", loop)) - set(dir(builtins))
    for helper in [getattr(sv._SupervisedRun, m) for m in methods] + [getattr(sv, f) for f in functions]:
        assert inspect.getdoc(helper), f"{helper.__name__}: the helpers cell prints its docstring, and it has none"
    text = filled(SOURCES / "03_supervisor.py")
    prose = text[text.index("That is the whole machine."):text.index("# %%", text.index("That is the whole machine."))]
    for snippet in re.findall(r"`(if [^`]+)`", prose):
        assert snippet in loop, f"part 3 quotes {snippet!r}, which the printed loop does not hold"
    assert "calls helpers that this cell does not print" in prose.replace("\n# ", " ")
    assert 'inspect.getdoc(helper)' in text  # the cell that lists them


@needs_sources
def test_a_stepper_is_sent_to_the_step_the_text_names():
    for path in SOURCES.glob("*.py"):
        cells = list(re.split(r"^# %%.*$", filled(path), flags=re.M))
        for i, cell in enumerate(cells):
            for step in re.findall(r"^stepper\.go\((\d+)\)", cell, flags=re.M):
                named = re.findall(r"\bstep (\d+)\b", cells[i - 1])
                assert all(n == step for n in named), f"{path.name}: go({step}) under text that names step {named}"


# --- part 4: the layer of each fault follows from the definitions it prints ---------------------------

@needs_sources
def test_part_four_prints_the_definitions_its_answers_are_read_by():
    from agent_team.layers import DEFINITIONS
    source = (SOURCES / "04_failure_injection.py").read_text(encoding="utf-8")
    text = filled(SOURCES / "04_failure_injection.py")
    assert "# {{layer definitions}}" in source
    for words, definition in DEFINITIONS.values():
        assert f"**{words}**: {definition}." in text
    assert "stopped_by(run)" in text and "row[4] == FAULTS[row[0]].layer" in text  # the table, from the trace


def test_each_fault_explains_itself_after_the_prediction():
    from agent_team.faults import FAULTS, run_fault, stopped_by
    from agent_team.predict import fault_answers, layer_words
    whys = [fault.why for fault in FAULTS.values()]
    assert len(set(whys)) == len(whys)  # one explanation per fault, not one per layer
    for name, fault in FAULTS.items():
        run = run_fault(name)
        (status, words), why = fault_answers(run, name)
        layer, seen = stopped_by(run)
        assert words == layer_words(layer) == layer_words(fault.layer) and fault.why in why and seen in why


@needs_sources
def test_part_four_says_what_the_oracle_does_with_an_endless_loop():
    from agent_team.faults import LOOP_SOURCE
    from agent_team.oracle import run_tests
    from agent_team.repo import SRC_PATH, initial_repo
    report = run_tests({**initial_repo(), SRC_PATH: LOOP_SOURCE})
    assert "the remaining cases were not run" in report["errors"][0]
    assert [c["error"].startswith("not run") for c in report["cases"]] == [False, True, True, True]
    text = filled(SOURCES / "04_failure_injection.py")
    fault7 = text[text.index("**Fault 7"):text.index("# %%", text.index("**Fault 7"))]
    assert "the tests go on" not in fault7 and "not run" in fault7


# --- part 1: the learner's "tester" is the oracle, code and not an agent ------------------------------

@needs_sources
def test_part_one_says_the_tester_is_the_oracle_which_is_code():
    from agent_team.oracle import run_tests
    from agent_team.policies import DEFAULT_POLICIES
    from agent_team.roles import ROLES, TABLE
    text = filled(next(SOURCES.glob("01_*.py")))
    intro = text[:text.index("## The words of this course")].replace("\n# ", " ")
    assert "the tester is this oracle" in intro and "It is code, not an agent" in intro
    assert "tester" not in ROLES and run_tests not in DEFAULT_POLICIES.values()
    team = [r.name for r in TABLE if not r.optional]  # the default team (an optional role plays only when given)
    assert f"has {['zero', 'one', 'two', 'three', 'four', 'five'][len(team)]} roles" in intro
