"""What every grader shares: checks, reports, divergences, and calling learner code safely.

A grader runs the learner's function on named scenarios, compares what it did
with what the reference does, and turns each requirement into a :class:`Check`.
Learner code is called through :func:`call_learner`, which never raises and
never hangs, so a grader can only ever *return* a report.
"""

from dataclasses import dataclass, field

from ..limits import call_limited, describe_error

__all__ = ["Check", "Divergence", "Report", "call_learner", "first_divergence", "show"]


def show(value, limit=120):
    """A short, safe repr of anything a learner's code produced."""
    try:
        text = repr(value)
    except BaseException:  # noqa: BLE001 -- a hostile __repr__ is still just data
        text = f"<{type(value).__name__} whose repr failed>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass
class Divergence:
    """The first place where what happened differs from what should have happened."""

    scenario: str
    step: str            # where, in words: "round 2", "log entry 4"
    expected: list       # lines (str), aligned with ``actual``
    actual: list
    index: int           # the first line that differs

    def __str__(self):
        lines = [f"First difference, in {self.scenario}, at {self.step}:"]
        for i in range(max(len(self.expected), len(self.actual))):
            want = self.expected[i] if i < len(self.expected) else "(nothing)"
            got = self.actual[i] if i < len(self.actual) else "(nothing)"
            mark = ">>" if i == self.index else "  "
            lines.append(f" {mark} expected {want}")
            if want != got:
                lines.append(f" {mark}      got {got}")
        return "\n".join(lines)


def first_divergence(scenario, expected, actual, where=lambda i: f"step {i + 1}"):
    """Compare two sequences of lines; a :class:`Divergence` at the first mismatch, or None."""
    expected = [str(x) for x in expected]
    actual = [str(x) for x in actual]
    for i in range(max(len(expected), len(actual))):
        want = expected[i] if i < len(expected) else None
        got = actual[i] if i < len(actual) else None
        if want != got:
            lo = max(0, i - 3)
            return Divergence(scenario, where(i), expected[lo:i + 2], actual[lo:i + 2], i - lo)
    return None


@dataclass
class Check:
    """One requirement, checked: ``passed`` is True, False, or None (not run)."""

    name: str
    requirement: str
    passed: bool | None = None
    detail: str = ""
    divergence: Divergence | None = None

    def fail(self, detail, divergence=None):
        """Record the first failure only: the first one is the one to fix."""
        if self.passed is not False:
            self.passed, self.detail, self.divergence = False, detail, divergence


@dataclass
class Report:
    """A grader's answer. ``str(report)`` is plain text; notebooks render ``_repr_html_``."""

    title: str
    checks: list = field(default_factory=list)
    hint: str = ""
    exercise: str = ""
    status_override: str = ""   # "not implemented" when the stub is untouched

    @property
    def passed(self):
        return bool(self.checks) and not self.status_override and all(c.passed for c in self.checks)

    @property
    def status(self):
        return self.status_override or ("passed" if self.passed else "not yet")

    def declare(self, name, requirement):
        """Add the check ``name`` with the requirement it grades; declaring a name twice is a grader bug."""
        if any(c.name == name for c in self.checks):
            raise ValueError(f"this report already has a check {name!r}; look it up with report.check({name!r})")
        found = Check(name, requirement)
        self.checks.append(found)
        return found

    def declare_all(self, requirements):
        """Declare each ``(name, requirement)`` pair, in order (the order a learner reads them in)."""
        for name, requirement in requirements:
            self.declare(name, requirement)
        return self

    def check(self, name, *unexpected):
        """The declared check ``name``; a name never declared is a grader bug, not a new check."""
        if unexpected:
            raise TypeError("report.check(name) only looks a check up; add one with "
                            "report.declare(name, requirement)")
        found = next((c for c in self.checks if c.name == name), None)
        if found is None:
            raise KeyError(f"this report has no check {name!r}; declare it with report.declare() first")
        return found

    def fail(self, name, detail, divergence=None):
        """Fail the declared check ``name`` (the first failure is kept: it is the one to fix)."""
        self.check(name).fail(detail, divergence)

    def finish(self, ran=True):
        """Mark unfailed checks as passed and record progress.

        ``ran``: whether the learner's code ever ran to the end; if it never
        did, a check that nothing broke has not passed, it was never tried.
        """
        for c in self.checks:
            if c.passed is None and ran and not self.status_override:
                c.passed = True
        _record(self)
        return self

    def __str__(self):
        head = f"{self.title}: {self.status.upper()}"
        lines = [head, "-" * len(head)]
        for c in self.checks:
            mark = {True: "PASS", False: "FAIL", None: "----"}[c.passed]
            lines.append(f"[{mark}] {c.name}: {c.requirement}")
            if c.passed is False and c.detail:
                lines.extend("       " + line for line in c.detail.splitlines())
        first = next((c for c in self.checks if c.passed is False and c.divergence), None)
        if first:
            lines += ["", str(first.divergence)]
        if self.hint and not self.passed:
            lines += ["", f"Hint: {self.hint}"]
        return "\n".join(lines)

    def _repr_html_(self):
        from ..render import report_html  # the renderer is downstream of the grader
        return report_html(self)

    def __repr__(self):
        return f"<Report {self.title!r}: {self.status}, {sum(bool(c.passed) for c in self.checks)}/{len(self.checks)} checks>"


def _record(report):
    if not report.exercise:
        return
    try:
        from .. import progress
        progress.record(report.exercise, report.passed)
    except Exception:  # noqa: BLE001 -- progress is best effort, never an error
        pass


@dataclass
class Call:
    """The outcome of calling learner code: exactly one of value / problem is meaningful."""

    ok: bool
    value: object = None
    problem: str = ""
    not_implemented: bool = False
    timed_out: bool = False


def call_learner(fn, *args, seconds=2.0, what="your function"):
    """Call learner code with a time limit; describe any failure in plain words."""
    out = call_limited(fn, *args, seconds=seconds)
    if out.kind == "ok":
        return Call(True, out.value)
    if out.kind == "timeout":
        return Call(False, problem=f"{what} did not return within {seconds:g} s. Look for a loop "
                                   "that never ends (a `while` whose condition never changes?).",
                    timed_out=True)
    if isinstance(out.error, NotImplementedError):
        return Call(False, problem=f"{what} is not implemented yet.", not_implemented=True)
    return Call(False, problem=f"{what} raised {describe_error(out.error)}.")
