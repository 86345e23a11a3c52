"""Shared by the mutant suites: which check a report fails first, a readable assertion, and the
worked solutions as the notebook sources hold them."""

from pathlib import Path

SOURCES = Path(__file__).resolve().parents[2] / "notebooks" / "source"
MARKERS = ("# BEGIN SOLUTION", "# END SOLUTION", "# STUB")


def solution(notebook, starts):
    """The exercise cell of ``notebook`` from the line starting ``starts``, solution filled in."""
    text = (SOURCES / notebook).read_text(encoding="utf-8")
    cell = text[text.index(starts):]
    cell = cell[:cell.index("# %%", 1)]
    return "\n".join(line for line in cell.splitlines() if not line.strip().startswith(MARKERS)) + "\n"


def first_failure(report):
    """The name of the first failing check in the report's order (the one a learner reads first)."""
    return next((c.name for c in report.checks if c.passed is False), None)


def assert_rejected_by(report, check):
    got = first_failure(report)
    assert not report.passed, f"accepted a wrong solution:\n{report}"
    assert got == check, f"first failing check is {got!r}, expected {check!r}:\n{report}"
    failed = report.check(check)
    assert failed.detail.strip(), f"the failing check {check!r} says nothing:\n{report}"


def assert_accepted(report):
    assert report.passed, f"rejected a correct solution:\n{report}"
