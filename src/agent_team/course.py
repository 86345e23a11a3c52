"""The course as data: its parts and their graded exercises, one row each.

Progress tracking (:mod:`agent_team.progress`), the progress widget and the
tests that run every grader all read these rows; a grader's
``Report(exercise=...)`` must name one of them (a test checks it, and
progress records no other id). How to add a part or an exercise: CONTRIBUTING.md.

Standard library only and no engine imports: this module sits below everything else.
"""

from dataclasses import dataclass

__all__ = ["Part", "Exercise", "PARTS", "EXERCISES", "exercise", "exercise_ids", "lookup"]


@dataclass(frozen=True)
class Part:
    number: int
    title: str        # as the progress widget shows it
    notebook: str     # its source, notebooks/source/<notebook>.py


@dataclass(frozen=True)
class Exercise:
    id: str           # "3.1": the part, then the exercise's place in it
    title: str        # its one title: the notebook's heading, its report, the progress widget
    grader: str       # the function in agent_team.grading that grades it
    defines: str      # what the learner's exercise cell defines, and the grader is given
    points: int = 10  # what it is worth when a class is graded (agent-team-grade; docs/teachers.md)

    @property
    def part(self):
        """The number of its part: the number before the dot of its id."""
        return int(self.id.split(".")[0])


PARTS = (
    Part(1, "Part 1: architecture", "01_architecture"),
    Part(2, "Part 2: policies", "02_policies"),
    Part(3, "Part 3: the supervisor", "03_supervisor"),
    Part(4, "Part 4: failure injection", "04_failure_injection"),
    Part(5, "Part 5: from fakes to a real team", "05_real_team"),
    Part(6, "Part 6: your own team", "06_your_team"),
    Part(7, "Part 7: your team with a real model", "07_real_model"),
    # a new part: one more row here (see CONTRIBUTING.md)
)

EXERCISES = (
    Exercise("1.1", "write the oracle", "grade_run_tests", "run_tests"),
    Exercise("2.1", "the nits counter", "grade_nits_reviewer", "nits_reviewer"),
    Exercise("3.1", "run_team", "grade_run_team", "run_team"),
    Exercise("4.1", "an eval of faults", "grade_fault_eval", "EVAL"),
    Exercise("4.2", "a hardening rule", "grade_hardening", "no_exec"),
    Exercise("5.1", "the reviewer gate", "grade_gate", "gate"),
    Exercise("6.1", "a fault of your own", "grade_my_fault", "MY_FAULT"),
    Exercise("6.2", "a run through the gate", "grade_run_outcomes", "run_outcomes"),
    Exercise("7.1", "retry or stop", "grade_retry_or_stop", "retry_or_stop"),
    # a new exercise: one more row here, in course order (see CONTRIBUTING.md)
)


def exercise_ids():
    """Every exercise id in course order: ``["1.1", "2.1", ...]``."""
    return [e.id for e in EXERCISES]


def exercise(exercise_id):
    """The row of one exercise; a clear error for an id the course does not have."""
    return lookup(EXERCISES, "id", exercise_id, "exercise", "exercises")


def lookup(rows, field, wanted, noun, plural, *, show=str, also=""):
    """The row of ``rows`` (a table of the course: exercises, quizzes, predictions) whose ``field``
    is ``wanted``; else a KeyError naming the ones there are, each written by ``show``."""
    for row in rows:
        if getattr(row, field) == wanted:
            return row
    there = ", ".join(show(getattr(row, field)) for row in rows)
    raise KeyError(f"the course has no {noun} {wanted!r}; its {plural} are {there}{also}")

