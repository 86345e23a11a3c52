"""The learner notebooks' exercise cells, for tests that replace what a learner writes there.

Shared by tests/course/test_wrong_attempts_in_notebooks.py (a wrong attempt, run whole in CPython)
and the browser's runaway test (an endless loop, run in the page), so both find the same cells.
"""

import re

# notebook -> the exercise functions its `exercise` cells define (the data exercises, part 4's
# EVAL and part 6's MY_FAULT, are values, not functions: no body to replace)
EXERCISE_FUNCTIONS = {
    "01_architecture.ipynb": ["run_tests"],
    "02_policies.ipynb": ["nits_reviewer"],
    "03_supervisor.ipynb": ["run_team"],
    "04_failure_injection.ipynb": ["no_exec"],
    "05_real_team.ipynb": ["gate"],
    "06_your_team.ipynb": ["run_outcomes"],
}

# The endless loops the runaway tests put in each notebook's exercise functions: half of them catch
# the interrupt themselves, as a learner's `except BaseException` would.
PLAIN = ["while True: pass"]
CAUGHT = ["while True:", "    try:", "        while True: pass", "    except BaseException:", "        pass"]
LOOPS = {"01_architecture.ipynb": PLAIN, "02_policies.ipynb": CAUGHT, "03_supervisor.ipynb": PLAIN,
         "04_failure_injection.ipynb": CAUGHT, "05_real_team.ipynb": PLAIN, "06_your_team.ipynb": CAUGHT}


def is_exercise(cell):
    """A code cell a learner writes in: tagged `exercise` (or `exercise-...`)."""
    tags = cell.get("metadata", {}).get("tags", [])
    return any(t == "exercise" or t.startswith("exercise-") for t in tags)


def replace_bodies(source: str, functions, body):
    """`source` with the body of every `def <name>(...)` in `functions` replaced by the lines
    `body`, and the names found."""
    lines, out, found, i = source.splitlines(), [], [], 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"def (\w+)\(", line)
        out.append(line)
        i += 1
        if m and m.group(1) in functions:
            found.append(m.group(1))
            while not line.rstrip().endswith(":"):  # a signature over several lines
                line = lines[i]
                out.append(line)
                i += 1
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
                i += 1  # the old body
            out += ["    " + line for line in body] + [""]
    return "\n".join(out), found
