"""Renderers: traces, logs, run comparisons and grader reports as HTML and plain text.

Pure functions, so no front end is needed: the tests read the HTML they return.
"""

import re
from types import SimpleNamespace

import pytest

from agent_team.render import (compare_html, compare_text, diagram_text, event_summary, first_divergence,
                               log_step_html, log_step_text, progress_html, progress_text, report_html,
                               report_text, state_svg, step_html, step_text)
from agent_team.render.compare import Alignment, differing_fields
from agent_team.render.diagram import PROTOCOL, SUPERVISOR
from agent_team.render.html import Safe, esc, inline, join, tag, unmarked
from agent_team.render.log import is_log, log_decision, log_rounds
from agent_team.render.report import highlight_pair
from agent_team.render.diff import diff_lines
from agent_team.render.tests_table import tests_html as report_table_html
from agent_team.render.trace import trace_of

EVIL = "<script>alert('x')</script>"
ESCAPED = "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;"


# --- hand-built traces (the same shape the supervisor writes) --------------------------------

def report(ok, got="'5'", error=None, evil=""):
    cases = [{"n": 1, "expected": "1", "got": "'1'", "passed": True, "error": None},
             {"n": 5, "expected": "Buzz", "got": "'Buzz'" if ok else got + evil, "passed": ok,
              "error": None if ok else (error or f"fizzbuzz(5) returned {got}; expected 'Buzz'") + evil}]
    errors = [] if ok else [cases[1]["error"]]
    return {"ok": ok, "errors": errors, "passed": 2 if ok else 1, "failed": 0 if ok else 1, "cases": cases}


def turn(role, state, rnd, before, after, path, applied=True, error=None, marker="", **extra):
    event = {"type": "turn", "round": rnd, "state": state, "role": role,
             "view": {"goal": "the goal", "source": before or ""},
             "thought": f"thought {marker}", "message": f"message {marker}",
             "patches": [{"path": path, "content": after}], "applied": applied, "error": error,
             "changes": [{"path": path, "before": before, "after": after}] if applied else [],
             "decision": f"decision {marker}"}
    event.update(extra)
    return event


def make_trace(rounds=2, green_at=None, marker=True):
    """START, PLAN, then per round CODE/TEST/REVIEW; stop. Every event carries a unique marker."""
    m = (lambda i: f"[m{i}]") if marker else (lambda i: "")
    trace = [{"type": "start", "round": 0, "state": "START", "goal": "the goal " + m(0), "max_rounds": rounds,
              "decision": "start: the planner speaks first"}]
    trace.append(turn("planner", "PLAN", 0, "", "- plan\n", "PLAN.md", marker=m(1)))
    source = "def fizzbuzz(n):\n    return str(n)\n"
    for rnd in range(1, rounds + 1):
        new = source + f"# round {rnd}\n"
        trace.append(turn("coder", "CODE", rnd, source, new, "src/fizzbuzz.py", marker=m(len(trace))))
        source = new
        ok = green_at == rnd
        trace.append({"type": "tests", "round": rnd, "state": "TEST", "tests": report(ok),
                      "decision": f"tests {'green' if ok else 'red'} {m(len(trace))}"})
        verdict = {"verdict": "approve" if ok else "request_changes", "notes": "notes " + m(len(trace))}
        trace.append(turn("reviewer", "REVIEW", rnd, "[]", "{}", "REVIEW.json", marker=m(len(trace)),
                          verdict=verdict))
        if ok:
            trace.append({"type": "stop", "round": rnd, "state": "STOP_OK", "status": "pass",
                          "stop_reason": f"the tests passed in round {rnd}", "decision": "stop " + m(len(trace))})
            return trace
    trace.append({"type": "stop", "round": rounds, "state": "STOP_FAIL", "status": "budget",
                  "stop_reason": "the budget ran out", "decision": "stop " + m(len(trace))})
    return trace


# --- html helpers ------------------------------------------------------------------------------

def test_esc_escapes_everything_but_safe_html():
    assert esc(EVIL) == ESCAPED
    assert esc(Safe("<b>x</b>")) == "<b>x</b>"
    assert esc(None) == "" and esc(3) == "3"
    assert esc('a"b') == "a&quot;b"
    assert tag("p", EVIL, title='"><script>') == f'<p title="&quot;&gt;&lt;script&gt;">{ESCAPED}</p>'
    assert join(["<i>", Safe("<b>")]) == "&lt;i&gt;<b>"


def test_inline_turns_backticks_into_code_after_escaping():
    assert inline("use `max_rounds` <b>") == "use <code>max_rounds</code> &lt;b&gt;"
    assert "<script" not in inline("`<script>`")


def test_hostile_repr_does_not_break_rendering():
    class Hostile:
        def __repr__(self):
            raise RuntimeError("no")
    assert "Hostile" in esc(Hostile())


# --- one step of a trace -----------------------------------------------------------------------

def test_step_shows_round_state_role_view_patches_diff_and_decision():
    trace = make_trace(2)
    html = step_html(trace, 2)  # the coder's first turn
    assert "Step 3 of" in html and "round 1" in html and "<code>CODE</code>" in html
    assert "the coder&#x27;s turn" in html
    assert "What the coder was shown (its view)" in html and "the goal" in html
    assert "applied" in html and "src/fizzbuzz.py" in html
    assert 'class="at-add"' in html and "+# round 1" in html
    assert "decision [m2]" in html and "The supervisor:" in html
    assert "thought [m2]" in html and "message [m2]" in html


def test_refused_patches_are_marked_with_the_reason():
    event = turn("planner", "PLAN", 0, "", "x", "src/fizzbuzz.py", applied=False,
                 error="the planner may not write 'src/fizzbuzz.py'; its allowlist is: PLAN.md")
    html = step_html([event], 0)
    assert "refused" in html and "its allowlist is: PLAN.md" in html
    assert "The repo did not change." in html
    text = step_text([event], 0)
    assert "patch src/fizzbuzz.py: refused" in text and "its allowlist is: PLAN.md" in text


def test_a_skipped_turn_says_why():
    event = {"type": "turn", "round": 1, "state": "CODE", "role": "coder", "view": {}, "thought": "",
             "message": "", "patches": [], "applied": False, "changes": [],
             "error": "the coder raised RuntimeError: boom; its turn was skipped", "decision": "after CODE always TEST"}
    html = step_html([event], 0)
    assert "Turn skipped" in html and "RuntimeError: boom" in html


def test_test_report_is_a_table_of_cases():
    trace = make_trace(1)
    html = step_html(trace, 3)
    assert "The oracle&#x27;s report" in html
    assert re.search(r"<th[^>]*>input</th>.*<th[^>]*>expected</th>.*<th[^>]*>got</th>", html)
    assert "&#x27;Buzz&#x27;" in html and "&#x27;5&#x27;" in html  # expected and got, as Python writes them
    assert "1 passed, 1 failed" in html and 'class="at-row-bad"' in html
    # an error that belongs to a case is shown in its row, not listed twice
    assert html.count("fizzbuzz(5) returned") == 1


def test_tests_html_lists_errors_that_belong_to_no_case():
    rep = report(False)
    rep["errors"].insert(0, "src/fizzbuzz.py defines no fizzbuzz")
    html = report_table_html(rep)
    assert "<li>src/fizzbuzz.py defines no fizzbuzz</li>" in html
    assert "—" in report_table_html({"ok": False, "errors": [], "passed": 0, "failed": 1,
                              "cases": [{"n": 1, "expected": "1", "got": None, "passed": False, "error": "x"}]})


def test_reviewer_verdict_override_and_escalation():
    trace = make_trace(1, green_at=1)
    trace[4]["override"] = True
    trace[4]["verdict"] = {"verdict": "request_changes", "notes": "rename n"}
    html = step_html(trace, 4)
    assert "Verdict:" in html and "request_changes" in html and "rename n" in html
    assert "overridden" in html
    trace[4]["escalated"] = True
    assert "escalated" in step_html(trace, 4)
    assert "request_changes overridden" in step_text(trace, 4)


def test_start_tamper_and_stop_events():
    trace = make_trace(1, green_at=1)
    html = step_html(trace, 0)
    assert "Goal:" in html and "the goal" in html and "Budget:" in html
    stop = step_html(trace, -1)
    assert "STOP_OK" in stop and "the tests passed in round 1" in stop
    tamper = {"type": "tamper", "round": 2, "state": "FAULT", "error": None,
              "changes": [{"path": "PLAN.md", "before": "- plan\n", "after": ""}],
              "decision": "an injected fault changed the repo outside any role"}
    html = step_html([tamper], 0)
    assert "injected" in html and 'class="at-del"' in html and "-- plan" in html
    assert event_summary(tamper) == "FAULT: changed PLAN.md"


def test_unknown_fields_are_shown_not_hidden():
    trace = make_trace(1)
    trace[2]["attempts"] = [{"reply": EVIL}]
    html = step_html(trace, 2)
    assert "More recorded fields: attempts" in html
    assert "<script" not in html


def test_the_diagram_highlights_the_current_state_and_the_transition():
    trace = make_trace(2)
    html = step_html(trace, 5)  # round 2 CODE, after round 1 REVIEW
    svg = re.search(r"<svg.*?</svg>", html, re.S).group(0)
    assert 'class="at-node at-current" data-state="CODE"' in svg
    assert svg.count('class="at-edge at-hot"') == 1
    assert "red, rounds left" in svg
    assert "now CODE, came from REVIEW" in svg
    assert "state: REVIEW -> CODE" in step_text(trace, 5)


def test_state_svg_draws_unknown_states_and_transitions():
    svg = state_svg("WEIRD", "PLAN")
    assert 'data-state="WEIRD"' in svg and "stroke-dasharray" in svg
    assert svg.count("at-hot") == 1
    assert "<script" not in state_svg(EVIL, EVIL)
    assert state_svg("START").count("at-hot") == 0
    for a, b, _bend, _label in SUPERVISOR.edges + PROTOCOL.edges:
        machine = SUPERVISOR if (a, b, _bend, _label) in SUPERVISOR.edges else PROTOCOL
        assert state_svg(b, a, machine).count('class="at-edge at-hot"') == 1
    assert diagram_text("CODE", "PLAN") == "state: PLAN -> CODE"
    assert diagram_text("START") == "state: START"


def test_step_index_errors_are_plain():
    trace = make_trace(1)
    with pytest.raises(IndexError, match="steps 0 to"):
        step_html(trace, len(trace))
    with pytest.raises(TypeError):
        step_html(trace, "2")
    assert step_html(trace, -1) == step_html(trace, len(trace) - 1)
    assert "empty" in step_html([], 0) and "empty" in step_text([], 0)


def test_trace_of_accepts_results_dicts_and_traces():
    trace = make_trace(1)
    assert trace_of(SimpleNamespace(trace=trace)) is trace
    assert trace_of({"trace": trace}) is trace
    assert trace_of(trace) is trace
    with pytest.raises(TypeError):
        trace_of(42)


def test_diff_lines_for_new_deleted_and_line_end_changes():
    assert diff_lines({"path": "a", "before": None, "after": "x\n"})[0] == "--- /dev/null"
    assert diff_lines({"path": "a", "before": "x\n", "after": None})[1] == "+++ /dev/null"
    assert "whitespace" in diff_lines({"path": "a", "before": "x", "after": "x\n"})[-1]


# --- escaping everything a learner or policy controls ------------------------------------------

def evil_trace():
    trace = make_trace(1, marker=False)
    coder = trace[2]
    coder.update(thought=EVIL, message=EVIL, view={"goal": EVIL, "source": EVIL, "plan": EVIL + "\nx"},
                 patches=[{"path": EVIL, "content": EVIL}],
                 changes=[{"path": EVIL, "before": EVIL, "after": EVIL + "\n" + EVIL}], decision=EVIL)
    trace[3]["tests"] = report(False, got=EVIL, evil=EVIL)
    trace[3]["tests"]["errors"].append(EVIL)
    trace[4]["verdict"] = {"verdict": EVIL, "notes": EVIL}
    trace[4]["error"] = EVIL
    trace[-1]["stop_reason"] = EVIL
    trace[0]["goal"] = EVIL
    return trace


def test_every_step_escapes_learner_text():
    trace = evil_trace()
    for i in range(len(trace)):
        html = step_html(trace, i)
        assert "<script" not in html, f"step {i} lets a <script> through"
    assert ESCAPED in step_html(trace, 2) and ESCAPED in step_html(trace, 3)
    refused = dict(trace[2], applied=False, error=EVIL, changes=[])
    assert "<script" not in step_html([refused], 0)
    assert "<script" not in compare_html(trace, make_trace(1))


def test_attribute_values_cannot_be_broken_out_of():
    event = turn("coder", "CODE", 1, "a", "b", 'x" onmouseover="alert(1)')
    html = step_html([event], 0)
    assert 'onmouseover="' not in html


# --- large runs: one step, one step's work ------------------------------------------------------

class Watched(list):
    """A trace that records which events were read and refuses to be walked whole."""

    def __init__(self, *args):
        super().__init__(*args)
        self.read = set()

    def __getitem__(self, i):
        if isinstance(i, slice):
            raise AssertionError("the renderer sliced the whole trace")
        self.read.add(i % len(self))
        return super().__getitem__(i)

    def __iter__(self):
        raise AssertionError("the renderer walked the whole trace")


def test_a_200_round_run_renders_only_the_current_step():
    trace = Watched(make_trace(200))
    assert len(trace) > 600
    html = step_html(trace, 500)
    assert trace.read == {499, 500}
    assert "[m500]" in html
    assert not any(f"[m{i}]" in html for i in (0, 1, 499, 501, len(trace) - 1))
    trace.read.clear()
    step_text(trace, 600)
    assert trace.read == {599, 600}
    assert len(html) < 40_000


# --- protocol logs -------------------------------------------------------------------------------

SEED_LOG = [("planner", "PLAN"), ("coder", "v1"), ("reviewer", "REJECT: no error handling"),
            ("coder", "v2"), ("reviewer", "APPROVE"), ("tester", "FAIL: test_empty"),
            ("coder", "v3"), ("reviewer", "APPROVE"), ("tester", "PASS")]


def test_log_steps_rebuild_state_round_feedback_and_next():
    rounds = log_rounds(SEED_LOG)
    assert rounds == [0, 1, 1, 2, 2, 2, 3, 3, 3]
    html = log_step_html(SEED_LOG, 3, rounds)
    assert "Step 4 of 9" in html and "round 2" in html and "<code>CODE</code>" in html
    assert "review: REJECT: no error handling" in html
    assert 'data-state="CODE"' in html and "now CODE, came from REVIEW" in html
    assert "the coder goes again with feedback" in log_decision(SEED_LOG, 2)
    assert "the tester runs" in log_decision(SEED_LOG, 4)
    assert "'test: FAIL: test_empty'" in log_step_text(SEED_LOG, 6)
    last = log_step_html(SEED_LOG, 8)
    assert "stop and return this code" in last and "<code>DONE</code>" in last
    assert log_step_html(SEED_LOG, 3) == html  # rounds computed on demand give the same page


def test_log_end_without_pass_and_zero_rounds():
    assert "returns None" in log_decision([("planner", "P")], 0)
    ran_out = [("planner", "P"), ("coder", "v1"), ("reviewer", "REJECT")]
    assert "run_team returns None" in log_decision(ran_out, 2)
    assert "<code>END</code>" in log_step_html(ran_out, 2)


def test_log_steps_escape_outputs_and_accept_run_team_results():
    log = [("planner", EVIL), ("coder", EVIL), ("reviewer", EVIL)]
    for i in range(3):
        assert "<script" not in log_step_html((None, log), i)
    assert is_log(SEED_LOG) and is_log(("v3", SEED_LOG))
    assert not is_log(make_trace(1)) and not is_log([])
    odd = [("planner", "P"), "not a pair", ("coder", 3)]
    assert "?" in log_step_text(odd, 1) and "3" in log_step_text(odd, 2)
    with pytest.raises(IndexError):
        log_step_html(SEED_LOG, 9)


# --- comparing two runs --------------------------------------------------------------------------

def test_identical_runs_do_not_diverge():
    a, b = make_trace(2), make_trace(2)
    assert first_divergence(a, b) is None
    assert "did exactly the same things" in compare_html(a, b)
    assert ">>" not in compare_text(a, b)


def test_runs_diverge_at_the_first_different_event_aligned_by_round():
    healthy, broken = make_trace(3, green_at=2), make_trace(3)
    div = first_divergence(healthy, broken)
    assert div == {"round": 2, "a": 6, "b": 6}  # the tests of round 2: green in one run, red in the other
    html = compare_html(healthy, broken, labels=("healthy", "broken"))
    assert "The runs first differ in round 2" in html
    assert re.search(r'<tr class="at-row-first"><td>2</td>', html)
    assert html.count("<mark>▶") >= 2
    assert "differ in <code>tests</code>, <code>decision</code>" in html
    text = compare_text(healthy, broken, labels=("healthy", "broken"))
    assert " >> healthy: TEST: green" in text and " >> broken: TEST: red" in text


def test_a_run_with_more_rounds_diverges_where_the_other_has_nothing():
    short_run, long_run = make_trace(1, marker=False), make_trace(2, marker=False)
    short_run[0]["max_rounds"] = 2  # the same start, so they agree until the short run stops
    div = first_divergence(short_run, long_run)
    assert div == {"round": 1, "a": 5, "b": None}
    cut = make_trace(1, marker=False)[:-1]  # a run that stopped without a stop event
    cut[0]["max_rounds"] = 2
    al = Alignment(cut, make_trace(2, marker=False))
    assert al.divergence == {"round": 2, "a": None, "b": 5}
    assert "(no event here)" in compare_html(al, None)


def test_narration_and_no_op_faults_are_not_divergences():
    a, b = make_trace(2, marker=False), make_trace(2, marker=False)
    b[2]["thought"] = "something else entirely"
    b.insert(2, {"type": "tamper", "round": 1, "state": "FAULT", "error": None, "changes": []})
    assert first_divergence(a, b) is None
    assert differing_fields({"a": 1, "thought": 1}, {"a": 2, "thought": 2}) == ["a"]


# --- grader reports (duck-typed) -----------------------------------------------------------------

def fake_report(**kw):
    div = SimpleNamespace(scenario="the worked example", step="log entry 4",
                          expected=["planner: 'P'", "coder: 'v1'", "reviewer: 'REJECT'", "coder: 'v2'"],
                          actual=["planner: 'P'", "coder: 'v1'", "reviewer: 'REJECT'", "tester: 'FAIL'"],
                          index=3)
    checks = [SimpleNamespace(name="plan once", requirement="the planner is called once", passed=True,
                              detail="", divergence=None),
              SimpleNamespace(name="log", requirement="the log lists every pair", passed=False,
                              detail="In the worked example: the log differs.", divergence=div),
              SimpleNamespace(name="result", requirement="it returns the code", passed=None,
                              detail="", divergence=None)]
    base = dict(title="Exercise 3.1: run_team", checks=checks, hint="Use `continue` after a rejection.",
                outcome="not yet", passed=False)
    base.update(kw)
    return SimpleNamespace(**base)


def test_report_has_a_table_of_checks_the_first_divergence_a_hint_and_details():
    html = report_html(fake_report())
    assert "Exercise 3.1: run_team" in html and "not yet" in html
    assert "1 of 3 checks pass; 1 fails; 1 not run (nothing judged it)." in html
    assert ">pass<" in html and ">fail<" in html and ">not run<" in html
    assert "First difference" in html and "the worked example" in html and "log entry 4" in html
    row = re.search(r'<tr class="at-row-first">(.*?)</tr>', html).group(1)
    assert "<mark>coder</mark>" in row and "<mark>tester</mark>" in row
    assert "▶" in row
    assert "<code>continue</code>" in html and "Hint:" in html
    assert "<details><summary>All details</summary>" in html


def test_a_passed_report_has_no_hint_and_a_passed_badge():
    checks = [SimpleNamespace(name="x", requirement="y", passed=True, detail="", divergence=None)]
    html = report_html(fake_report(checks=checks, outcome="passed", passed=True))
    assert "passed" in html and "Hint" not in html and "1 of 1 checks pass." in html


def test_report_escapes_everything_from_the_learner():
    rep = fake_report(title=EVIL, hint=EVIL)
    rep.checks[1].detail = EVIL
    rep.checks[1].name = EVIL
    rep.checks[1].divergence.expected = [EVIL, "a"]
    rep.checks[1].divergence.actual = [EVIL + "!", "b"]
    rep.checks[1].divergence.index = 0
    rep.checks[1].divergence.scenario = EVIL
    html = report_html(rep)
    assert "<script" not in html and ESCAPED in html


def test_report_copes_with_missing_attributes_and_long_divergences():
    assert "Report" in report_html(object())
    div = SimpleNamespace(expected=[f"line {i}" for i in range(100)],
                          actual=[f"line {i}" for i in range(60)] + ["other"] * 40)
    rep = SimpleNamespace(title="t", checks=[SimpleNamespace(name="c", requirement="r", passed=False,
                                                             detail="d", divergence=div)])
    html = report_html(rep)
    assert "not yet" in html  # outcome and passed worked out from the checks
    assert "earlier lines agree" in html and "more lines" in html
    assert "line 60" in html and "line 5<" not in html
    text = report_text(rep)
    assert " >> expected line 60" in text


def test_report_text_is_readable():
    text = report_text(fake_report())
    assert text.startswith("Exercise 3.1: run_team: NOT YET")
    assert "[PASS] plan once" in text and "[FAIL] log" in text and "[----] result" in text
    assert "First difference, in the worked example, at log entry 4:" in text
    assert "Hint: Use `continue`" in text


def test_highlight_pair_marks_whole_words():
    left, right = highlight_pair("coder: 'v2'", "tester: 'v2'")
    assert left == "<mark>coder</mark>: &#x27;v2&#x27;" and right == "<mark>tester</mark>: &#x27;v2&#x27;"


def test_a_real_grader_report_renders_through_its_repr_html():
    from agent_team import grading

    def skips_review(task, planner, coder, reviewer, tester, max_rounds):
        plan = planner(task)
        log, feedback = [("planner", plan)], ""
        for _ in range(max_rounds):
            code = coder(task, plan, feedback)
            log.append(("coder", code))
            result = tester(code)
            log.append(("tester", result))
            if result.startswith("PASS"):
                return code, log
            feedback = "test: " + result
        return None, log

    rep = grading.grade_run_team(skips_review)
    html = rep._repr_html_()
    assert html == report_html(rep)
    assert "First difference" in html and "not yet" in html and "<script" not in html
    assert report_text(rep).splitlines()[0] == str(rep).splitlines()[0]


# --- progress ------------------------------------------------------------------------------------

def test_progress_renders_done_and_not_yet():
    parts = [{"part": "part1", "title": "Part 1: <arch>", "done": 1, "total": 2,
              "exercises": [{"id": "1.1", "title": "run_tests", "done": True, "passed": False, "attempts": 3},
                            {"id": "1.2", "title": "other", "done": False, "passed": False, "attempts": 0}]}]
    html = progress_html(parts)
    assert "1 of 2 exercises done" in html and ">done<" in html and ">not yet<" in html
    assert "the last one did not pass" in html and "&lt;arch&gt;" in html
    text = progress_text(parts)
    assert "[x] 1.1 run_tests" in text and "[ ] 1.2 other" in text


# --- with the real supervisor --------------------------------------------------------------------

def test_every_step_of_every_fault_run_renders():
    from agent_team import faults
    from agent_team.supervisor import supervise
    healthy = supervise(max_rounds=4)
    for name in faults.FAULTS:
        run = faults.run_fault(name)
        for i in range(len(run.trace)):
            html, text = step_html(run, i), step_text(run, i)
            assert "<script" not in html and text
        assert first_divergence(healthy, run) is not None, name
        assert "side by side" in compare_html(healthy, run)
    refused = faults.run_fault("planner writes code")
    assert "its allowlist is: PLAN.md" in step_html(refused, 1)
    from agent_team.policies import output, review_patch

    def nitpicker(goal, view):
        notes = f"nit number {len(view['past_verdicts']) + 1}"  # a new verdict every time
        return output("reviewer", "more nits", [review_patch("request_changes", notes)], notes)

    run = supervise(max_rounds=4, reviewer=nitpicker)
    html = step_html(run, len(run.trace) - 2)
    assert "overridden" in html and "nit number 2" in html


def test_what_the_supervisor_ignored_of_an_output_is_shown_never_hidden():
    from agent_team.faults import run_fault
    run = run_fault("coder runs the tests itself")
    i = next(i for i, e in enumerate(run.trace) if e.get("role") == "coder")
    assert "ignored: tests: not part of an output" in step_text(run, i)
    assert "ignored tests" in event_summary(run.trace[i]) and "not part of an output" in step_html(run, i)


def test_a_multi_line_detail_is_a_block_in_its_row_and_one_line_stays_inline():
    from agent_team.render.report import detail_html
    source = "On a fizzbuzz that raises:\ndef fizzbuzz(n):\n    if n == 15:\n        raise Oops"
    block = str(detail_html(source))
    assert block.startswith("<pre") and "def fizzbuzz(n):\n    if n == 15:" in block
    assert "<pre" not in str(detail_html("one line, with `code`")) and "<code>code</code>" in str(
        detail_html("one line, with `code`"))
    assert "&lt;script&gt;" in str(detail_html("a\n<script>"))  # a block is escaped too
    checks = [SimpleNamespace(name="c", requirement="r", passed=False, detail=source, divergence=None)]
    html = report_html(fake_report(checks=checks))
    row = re.search(r'<tr class="at-row-bad">(.*?)</tr>', html, re.S).group(1)
    assert "<pre" in row and "    if n == 15:" in row


def test_the_tally_never_counts_an_unjudged_check_as_a_pass():
    from agent_team.render.report import tally
    checks = [SimpleNamespace(passed=p) for p in (None, None, False)]
    assert tally(checks) == "0 of 3 checks pass; 1 fails; 2 not run (nothing judged them)."
    assert tally([SimpleNamespace(passed=True)]) == "1 of 1 checks pass."
    assert "not run" in report_text(fake_report(checks=[SimpleNamespace(
        name="x", requirement="y", passed=None, detail="", divergence=None)]))


def test_unmarked_drops_the_backticks_where_only_text_shows():
    # A radio button's label is text: `class` would show with its backticks (a quiz of part 4 did).
    assert unmarked("a name such as `class` or `def`") == "a name such as class or def"
    assert unmarked("no code here, 3 < 4") == "no code here, 3 < 4"


def test_a_quiz_choice_with_code_reads_without_backticks_on_its_button():
    from agent_team.widgets import Quiz

    quiz = Quiz("Which word?", ["the `class` keyword", "a plain word"], 0, "because")
    if getattr(quiz, "_radio", None) is None:
        pytest.skip("ipywidgets is not installed")
    assert [label for label, _ in quiz._radio.options] == ["a) the class keyword", "b) a plain word"]
