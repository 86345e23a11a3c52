"""Every fault of part 4, run: the status it must reach, and the layer that stops it, from the trace.

The test is parametrised over FAULTS, so a fault added to the table is tested without another line.
"""

import pytest

from agent_team.faults import FAULTS, LAYERS, Fault, layers_seen, run_fault, stopped_by
from agent_team.oracle import run_tests
from agent_team.repo import initial_repo

RUNS = {}


def run_of(name):
    if name not in RUNS:  # each fault is run once and read by several tests
        RUNS[name] = run_fault(name)
    return RUNS[name]


@pytest.mark.parametrize("name", list(FAULTS))
def test_every_fault_reaches_its_expected_status(name):
    run = run_of(name)
    assert run.status == FAULTS[name].expect, f"{name}: {run.stop_reason}"


@pytest.mark.parametrize("name", list(FAULTS))
def test_the_table_names_the_layer_the_trace_shows_by_the_layers_definitions(name):
    # The "stopped by" column is not a label typed beside the fault: it is what layers.stopped_by
    # reads from the run's trace, by the definitions part 4 prints (layers.DEFINITIONS).
    layer, evidence = stopped_by(run_of(name))
    assert layer == FAULTS[name].layer, f"{name}: the table says {FAULTS[name].layer}, the trace {layer}: {evidence}"
    assert evidence and layer in layers_seen(run_of(name))


def test_no_two_faults_are_the_same_fault_under_two_names():
    # Two rows that ship the same code and leave the same first evidence would teach one fault twice.
    seen = {}
    for name in FAULTS:
        run = run_of(name)
        key = (stopped_by(run), tuple(run.repo.items()))
        assert key not in seen, f"{name} and {seen.get(key)} are the same fault"
        seen[key] = name


@pytest.mark.parametrize("name", list(FAULTS))
def test_tests_always_run_on_the_repo_as_it_is_at_that_moment(name):
    # Replay the trace's recorded changes onto the starting repo: every test report must be
    # exactly what the oracle says about the repo at that point, never about an older copy.
    run = run_of(name)
    repo = initial_repo()
    reports = 0
    for event in run.trace:
        for change in event.get("changes") or ():
            if change["after"] is None:
                repo.pop(change["path"], None)
            else:
                repo[change["path"]] = change["after"]
        if event["type"] == "tests":
            # The counts, not the error texts: a runaway case may be stopped by the step budget
            # or, on a loaded machine, by the oracle's wall-clock backstop, in other words.
            now = run_tests(repo)
            keys = ("ok", "passed", "failed")
            assert [event["tests"][k] for k in keys] == [now[k] for k in keys]
            reports += 1
    assert repo == run.repo and reports == run.rounds


def test_a_role_running_the_tests_itself_changes_nothing():
    run = run_of("coder runs the tests itself")
    coder_turns = [e for e in run.trace if e["type"] == "turn" and e["role"] == "coder"]
    assert coder_turns and all("tests pass: I ran them, 4 of 4" in e["message"] for e in coder_turns)
    assert all("tests" not in e for e in coder_turns)  # its own report never enters the trace
    assert all(e["ignored"] == ["tests"] for e in coder_turns)  # and the trace says it was ignored
    supervisor_runs = [e["tests"] for e in run.trace if e["type"] == "tests"]
    assert len(supervisor_runs) == run.rounds and not any(t["ok"] for t in supervisor_runs)


def test_a_claimed_fix_that_never_landed_is_tested_as_the_stale_file_it_is():
    run = run_of("tests run against stale files")
    assert run.repo == initial_repo() | {"PLAN.md": run.repo["PLAN.md"], "REVIEW.json": run.repo["REVIEW.json"]}
    assert all(e["changes"] == [] for e in run.trace if e["type"] == "turn" and e["role"] == "coder")


def test_ignoring_the_plan_is_caught_by_the_case_the_plan_was_about():
    run = run_of("coder ignores the plan")
    assert "fizzbuzz(15)" in run.tests["errors"][0] and run.tests["passed"] == 3


def test_a_fault_row_names_a_known_layer_and_status():
    assert {f.layer for f in FAULTS.values()} == set(LAYERS)
    with pytest.raises(ValueError, match="layer is 'firewall'; write one of allowlist"):
        Fault("x", "x", "pass", "x", layer="firewall")
    with pytest.raises(ValueError, match="expect is 'ok'"):
        Fault("x", "x", "ok", "x")


def test_an_unknown_fault_is_a_clear_error():
    with pytest.raises(KeyError, match="no fault named 'nope'; choose one of: fizz-only coder"):
        run_fault("nope")
