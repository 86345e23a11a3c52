"""Shared by the grader tests: which check a report fails first, a readable assertion, and the
worked solutions as the notebook sources hold them."""

from pathlib import Path

from built_sources import filled

from agent_team.faults import fizz_only_coder, greedy_planner, stubborn_reviewer, wipe_plan

SOURCES = Path(__file__).resolve().parents[2] / "notebooks" / "source"
MARKERS = ("# BEGIN SOLUTION", "# END SOLUTION", "# STUB")


def solution(notebook, starts):
    """The exercise cell of ``notebook`` from the line starting ``starts``, solution filled in."""
    text = filled(SOURCES / notebook)
    cell = text[text.index(starts):]
    cell = cell[:cell.index("# %%", 1)]
    return "\n".join(line for line in cell.splitlines() if not line.strip().startswith(MARKERS)) + "\n"


def first_failing(report):
    """The first failing check in the report's order (the one a learner reads first), or None."""
    return next((c for c in report.checks if c.passed is False), None)


def first_failure(report):
    """The name of the first failing check, or None."""
    check = first_failing(report)
    return check and check.name


def assert_rejected_by(report, check):
    got = first_failure(report)
    assert not report.passed, f"accepted a wrong solution:\n{report}"
    assert got == check, f"first failing check is {got!r}, expected {check!r}:\n{report}"
    failed = report.check(check)
    assert failed.detail.strip(), f"the failing check {check!r} says nothing:\n{report}"


def assert_accepted(report):
    assert report.passed, f"rejected a correct solution:\n{report}"


# A right eval of faults (exercise 4.1): rows of (name, supervise keyword arguments, expected status).
H1 = ("healthy, 1 round", {"max_rounds": 1}, "budget")
H4 = ("healthy, 4 rounds", {"max_rounds": 4}, "pass")
FIZZ = ("fizz-only coder", {"coder": fizz_only_coder, "max_rounds": 4}, "budget")
STUBBORN = ("reviewer never approves", {"reviewer": stubborn_reviewer, "max_rounds": 4}, "pass")
WIPE = ("plan wiped", {"tamper": wipe_plan, "max_rounds": 4}, "pass")
GREEDY = ("planner writes code", {"planner": greedy_planner}, "pass")
GOOD = [H1, H4, FIZZ, STUBBORN, WIPE, GREEDY]
