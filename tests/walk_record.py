"""The progress record of a learner who walked parts 1–4 (learner-walk-wave4-home-parts1-4.md), as
the kernel writes it: every prediction under the key its notebook gives it (part 4's are named
``fault: …``, not ``part 4: …``), every quiz checked, every exercise passed after a few tries,
some hints seen. The home page and the progress widget must both read it as PER_PART says, and
send the learner on to part 5 (NEXT).

Used by tests/engine/test_progress.py, tests/site/test_home_record.py (the home page's script, in
Node.js) and tests/browser/test_home.py (the page itself, with the record in the browser's storage).
"""

from agent_team import progress
from agent_team.faults import FAULTS

PREDICTIONS = {1: ["part 1: patch shapes"], 2: ["part 2: two views"], 3: ["part 3: one round"],
               4: [f"fault: {name}" for name in FAULTS]}
QUIZZES = {1: ["1.1", "1.2"], 2: ["2.1", "2.2"], 3: ["3.1", "3.2", "3.3"], 4: ["4.1", "4.2", "4.3"]}
# exercise: (graded runs, the last of them passing; hints seen)
EXERCISES = {"1.1": (8, 3), "2.1": (5, 0), "3.1": (6, 1), "4.1": (6, 2), "4.2": (4, 1)}

NEXT = "part5"
# Part 4's predictions, one per fault (13 as shipped; CONTRIBUTING's recipe adds one), one wrong.
FAULT_PREDICTIONS = len(FAULTS)
# What each part's row says after the walk: (passed, graded, hints, predictions, right, quizzes).
PER_PART = {"part1": (1, 1, 3, 1, 1, 2), "part2": (1, 1, 0, 1, 1, 2), "part3": (1, 1, 1, 1, 1, 3),
            "part4": (2, 2, 3, FAULT_PREDICTIONS, FAULT_PREDICTIONS - 1, 3)}
# Part 4's predictions as its row words them.
PART4_PREDICTIONS = f"{FAULT_PREDICTIONS} predictions made ({FAULT_PREDICTIONS - 1} right)"


def write_walk(file):
    """Write the walk's record into ``file`` with the kernel's own writers (progress.record...)."""
    for keys in PREDICTIONS.values():
        for key in keys:
            wrong = key == "fault: plan wiped"  # one of the 16 predictions went wrong
            progress.record_prediction(key, "budget / the oracle" if wrong else "pass / the allowlist",
                                       "pass / the allowlist", file)
    for keys in QUIZZES.values():
        for key in keys:
            progress.record_quiz(key, "a", False, file)  # a wrong choice first, then the right one
            progress.record_quiz(key, "c", True, file)
    for ex_id, (runs, hints) in EXERCISES.items():
        for run in range(runs):
            progress.record(ex_id, run == runs - 1, file)
        if hints:
            progress.record_hint(ex_id, hints, file)
    return file
