"""What every grader shares: checks, reports, divergences, and calling learner code safely.

A grader runs the learner's function on named scenarios, compares what it did
with what the reference does, and turns each requirement into a :class:`Check`.
Learner code is called through :func:`call_learner`, which never raises and
never hangs, so a grader can only ever *return* a report.

Every grader is one *grading run* (:func:`grading_run`): the learner's code
it calls gets ``TOTAL_SECONDS`` in all, and the whole run, the grader's own
work included, at most ``WALL_SECONDS`` whatever the input. Only the learner's
time counts against the first cap, so a slow machine (Pyodide under load) that
stretches the grader's own reference runs cannot fail a correct, fast
solution. Once the learner's code has failed to return, the run calls it no
more: the next :func:`call_learner` ends the run with the report as it
stands, so one runaway function costs the learner one wait
(``CALL_SECONDS``), not one per case, and no grader needs its own stop.
Course cells that call a learner's function directly use :func:`try_it`, the
same limits with one plain sentence instead of a report.

Grading writes nothing: a report counts toward the learner's progress when a
notebook shows it (:meth:`Report.record_progress`), so a test, a build or a
grader calling another grader leaves no progress file behind.
"""

import contextvars
import functools
import time
from dataclasses import dataclass, field

from .. import course, progress
from ..hints import LEVELS, hints_for, report_hint
from ..clip import safe_repr
from ..limits import TimeUp, budget, call_limited, describe_error
from ..render import report_html, report_text

__all__ = ["Check", "Divergence", "Report", "call_learner", "line_divergence", "grading_run",
           "try_it"]

CALL_SECONDS = 2.0    # one call to the learner's code
TOTAL_SECONDS = 5.0   # all the learner's code one grading run calls (through call_learner)
WALL_SECONDS = 15.0   # one whole grading run, the grader's own work included: the longest a learner waits



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


def line_divergence(scenario, expected, actual, where=lambda i: f"step {i + 1}"):
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

    title: str = ""             # an exercise's report is titled from course.py's row
    checks: list = field(default_factory=list)
    exercise: str = ""
    outcome_override: str = ""   # "not implemented" when the stub is untouched
    _recorded: bool = field(default=False, init=False, repr=False, compare=False)
    _hint_seen: int | None = field(default=None, init=False, repr=False, compare=False)  # when shown

    def __post_init__(self):
        if not self.title and self.exercise:
            self.title = f"Exercise {self.exercise}: {course.exercise(self.exercise).title}"
        run = _current_run.get()
        if run is not None:  # the report of this grading run: a run stopped by its time cap still shows it
            run.report = self

    @property
    def passed(self):
        return bool(self.checks) and not self.outcome_override and all(c.passed for c in self.checks)

    @property
    def outcome(self):
        """``passed``, ``not yet`` or ``not implemented``: how the learner's code fared (a run has a status)."""
        return self.outcome_override or ("passed" if self.passed else "not yet")

    @property
    def hint(self):
        """What to try while it has not passed: the learner's next hint (hints.report_hint: the
        nudge first, and only one about the first failing check), as the hints seen so far stood
        when the report was shown (:meth:`record_progress` counts it as seen)."""
        if self.outcome_override == "not implemented":
            return "Replace the `raise NotImplementedError` with your code, then run this cell again."
        if self.passed or self.exercise not in course.exercise_ids():
            return ""
        seen = self._hint_seen if self._hint_seen is not None else progress.hints().get(self.exercise, 0)
        found, ladder = report_hint(self.exercise, self._failing, seen), hints_for(self.exercise)
        if found is None:
            return (f"Stuck? Press \"show hint {seen + 1} of {len(ladder)}\" in the Hints cell under the grader "
                    f"(the {LEVELS[min(seen, len(LEVELS) - 1)]})." if seen < len(ladder) else "")
        number, h = found
        level = LEVELS[min(number, len(LEVELS)) - 1]
        return f"(hint {number} of {len(ladder)}, the {level}, for the check \"{self._failing}\") {h.text}"

    @property
    def _failing(self):
        """The name of the first failing check (the one a learner reads first), or None."""
        return next((c.name for c in self.checks if c.passed is False), None)

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

    def tried(self, *names):
        """Some case really exercised these checks: each passes, unless it fails (now or later).

        For a grader whose cases may end before every check was tried (it
        then finishes with ``ran=False``): only the tried checks pass.
        """
        for name in names:
            found = self.check(name)
            if found.passed is None:
                found.passed = True

    def unjudge_passes(self):
        """After a crash in a case that judges every check: no check shows as passed, since the
        crashed case never judged them (a crash is a failed check, never a near-pass)."""
        for c in self.checks:
            if c.passed is True:
                c.passed = None

    def finish(self, ran=True):
        """Mark unfailed checks as passed.

        ``ran``: whether the learner's code ever ran to the end; if it never
        did (or hung in this grading run), a check that nothing broke has not
        passed, it was never tried.
        """
        run = _current_run.get()
        ran = ran and not (run is not None and run.hung)
        for c in self.checks:
            if c.passed is None and ran and not self.outcome_override:
                c.passed = True
        return self

    def record_progress(self):
        """Count this report as the learner's graded attempt at its exercise, once however often it
        is shown. True if it was recorded now; never raises (progress is best effort)."""
        if self._recorded or not self.exercise:
            return False
        self._recorded = True
        try:
            self._hint_seen = progress.hints().get(self.exercise, 0)  # the hint shown stays the one shown
            found = None if self.passed else report_hint(self.exercise, self._failing, self._hint_seen)
            if found and found[0] > self._hint_seen:  # a new hint shown counts as seen, where the Hints cell reads it
                progress.record_hint(self.exercise, found[0])
            return progress.record(self.exercise, self.passed)
        except Exception:  # noqa: BLE001 -- progress is best effort, never an error
            return False

    def __str__(self):
        return report_text(self)

    def _repr_html_(self):
        return report_html(self)

    def _repr_mimebundle_(self, include=None, exclude=None):
        # What a notebook asks for when it shows the report (IPython then takes text/plain from
        # repr): the learner sees this grade, so here it counts toward their progress.
        self.record_progress()
        return {"text/html": report_html(self)}

    def __repr__(self):
        passed = sum(bool(c.passed) for c in self.checks)
        return f"<Report {self.title!r}: {self.outcome}, {passed}/{len(self.checks)} checks>"


@dataclass
class Call:
    """The outcome of calling learner code: exactly one of value / problem is meaningful."""

    ok: bool
    value: object = None
    problem: str = ""
    not_implemented: bool = False
    timed_out: bool = False


class _Stopped(BaseException):
    """Ends a grading run at the first call after a hang (not an Exception: a grader's handlers miss it)."""


class _GradingRun:
    """One grading run in progress: the last report it made, whether learner code hung, time left."""

    def __init__(self):
        self.report = None
        self.hung = ""   # what did not return (empty: nothing hung yet)
        self.left = TOTAL_SECONDS  # of the learner's code's time


# The grading run the code now running is part of (None outside graders): set by grading_run
# around the grader, read by call_learner (the run's budget, its hang) and by Report. A context
# variable, not a global: code in another thread or asyncio task sees no run, or its own.
_current_run = contextvars.ContextVar("agent_team_grading_run", default=None)


def call_learner(fn, *args, seconds=None, what="your function"):
    """Call learner code within ``seconds`` (else ``CALL_SECONDS``); describe any failure in plain words."""
    if seconds is None:  # the caps are read at call time, so a test can shrink them
        seconds = CALL_SECONDS
    run = _current_run.get()
    limit = seconds
    if run is not None:
        if run.hung:
            raise _Stopped()  # one wait is enough: grading_run returns the report as it stands
        if run.left <= 0:
            raise TimeUp()  # the run's time for learner code is spent: grading_run ends the run
        limit = min(seconds, run.left)
    start = time.perf_counter()
    try:
        out = call_limited(fn, *args, seconds=limit)
    finally:
        if run is not None:
            run.left -= time.perf_counter() - start
    if out.kind == "timeout" and limit < seconds:
        raise TimeUp()  # cut short by the run's cap, not a hang of its own
    if out.kind == "ok":
        return Call(True, out.value)
    if out.kind == "timeout":
        if run is not None:
            run.hung = what
        return Call(False, problem=f"{what} did not return within {seconds:g} s: look for a loop "
                                   "that never ends (a `while` whose condition never changes?).",
                    timed_out=True)
    if isinstance(out.error, NotImplementedError):
        return Call(False, problem=f"{what} is not implemented yet.", not_implemented=True)
    return Call(False, problem=f"{what} raised {describe_error(out.error)}.")


def grading_run(grader=None, *, remember_hangs=True):
    """Decorate every ``grade_*`` grader: one grading run, capped, that always returns a Report.

    The calls the grader makes through :func:`call_learner` share
    ``TOTAL_SECONDS``; the grader's own work between them is not charged. On
    top, every call to learner code (directly, or through the supervisor)
    ends by the run's ``WALL_SECONDS`` deadline, and one started after it
    ends the run, so a learner's wait stays bounded whatever the input (a row
    of exercise 4.1 may ask the supervisor for a million rounds). After the
    learner's code hangs once, the next call to it ends the run. A run
    stopped by a cap or a hang, or broken by a value the grader could not
    handle, still returns the report it was building, with a failing check
    that says what happened.

    ``@grading_run(remember_hangs=False)``: a policy the supervisor calls that
    hung once is still called again (for a grader that grades what such a
    call costs, as 4.1 does).
    """
    if grader is None:
        return functools.partial(grading_run, remember_hangs=remember_hangs)

    @functools.wraps(grader)
    def run(*args, **kwargs):
        if _current_run.get() is not None:  # a grader used by another grader: same run, same budget
            return grader(*args, **kwargs)
        this = _GradingRun()
        token = _current_run.set(this)
        try:
            with budget(WALL_SECONDS, remember_hangs):
                report = grader(*args, **kwargs)
            if isinstance(report, Report):
                return report
            stopped = functools.partial(_broken, f"it returned {safe_repr(report)}")
        except TimeUp:
            stopped = _out_of_time
        except _Stopped:
            stopped = _after_a_hang
        except KeyboardInterrupt:
            raise
        except BaseException as err:  # noqa: BLE001 -- a grader must return a report, whatever happened
            stopped = functools.partial(_broken, describe_error(err))
        finally:
            _current_run.reset(token)
        report = this.report or Report(f"{grader.__name__}: could not grade")
        stopped(report, this)
        return report.finish(ran=False)
    return run


# How a grading run that returned no report ends: the report it was building, with a failing
# check that says why (each takes that report and the run).

def _after_a_hang(report, run):
    """Stopped at a call after the learner's code hung once (unless a check says so already)."""
    if not any(c.passed is False for c in report.checks):
        report.declare("time", f"your code runs within {TOTAL_SECONDS:g} s in all").fail(
            f"Grading stopped: {run.hung} already did not return once, so it was not called "
            "again; make it return.")


def _out_of_time(report, run):
    """Stopped by a cap: all the learner's code's time, or the whole run's."""
    spent = (f"after {TOTAL_SECONDS:g} s of your code's time, the most" if run.left <= 0 else
             f"after {WALL_SECONDS:g} s, the longest")
    why = (f"Grading stopped {spent} any grader allows. "
           + (f"{run.hung[0].upper()}{run.hung[1:]} did not return once; make it return."
              if run.hung else "Your code (or the cases it asks for) takes too long; make "
              "each call finish in well under a second."))
    report.declare("time", f"your code runs within {TOTAL_SECONDS:g} s in all").fail(why)


def _broken(problem, report, run):
    """Broken by a value the grader could not handle, or a grader that returned no report."""
    report.declare("grading", "the grader can read what your code returns").fail(
        f"Grading stopped: {problem}. Return plain values (dict, list, str, int, bool) "
        "built by your code; if you did, this is a bug in the course, please report it.")


def try_it(fn, *args, what="your function", seconds=None, **kwargs):
    """Call a learner's function from a course cell: its value, or None after one plain sentence.

    Same limits as the graders (``seconds`` at most, else ``CALL_SECONDS``; ``time.sleep``
    included), never hangs, never raises (except the learner's own KeyboardInterrupt).
    """
    if seconds is None:
        seconds = CALL_SECONDS
    if not callable(fn):
        print(f"{what[0].upper()}{what[1:]} is {safe_repr(fn, 60)}, not a function: run the cell that "
              "defines it first.")
        return None
    try:  # the budget: a policy the supervisor calls for fn is not called again after one hang
        with budget(seconds + 1.0):
            call = call_learner(functools.partial(fn, **kwargs), *args, seconds=seconds, what=what)
    except TimeUp:  # not expected (the call ends first), but a cell must never see it
        call = Call(False, problem=f"{what} did not return within {seconds:g} s.")
    if call.ok:
        return call.value
    if call.not_implemented:
        problem = (f"{what} is not written yet: replace the `raise NotImplementedError` line in the "
                   "exercise cell above, then run this cell again.")
    else:
        problem = call.problem
    print(problem[0].upper() + problem[1:])
    return None
