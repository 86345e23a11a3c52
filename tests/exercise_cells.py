"""The learner notebooks' exercise cells, and an exercise function's body replaced by other lines:
shared by the runaway test (tests/browser/test_runaway.py) and the wrong-attempt test
(tests/test_wrong_attempts_in_notebooks.py)."""

import re

PLAIN = ["while True: pass"]
CAUGHT = ["while True:", "    try:", "        while True: pass", "    except BaseException:", "        pass"]

# notebook in the site: (exercise functions it defines, loop put in their bodies)
NOTEBOOKS = {
    "01_architecture.ipynb": (["run_tests"], PLAIN),
    "02_policies.ipynb": (["nits_reviewer"], CAUGHT),
    "03_supervisor.ipynb": (["run_team"], PLAIN),
    "04_failure_injection.ipynb": (["no_exec"], CAUGHT),
    "05_real_team.ipynb": (["gate"], PLAIN),
    "06_your_team.ipynb": (["run_outcomes"], CAUGHT),
}


def is_exercise(cell):
    tags = cell.get("metadata", {}).get("tags", [])
    return any(t == "exercise" or t.startswith("exercise-") for t in tags)


def loop_bodies(source: str, functions, loop):
    """`source` with the body of every `def <name>(...)` in `functions` replaced by `loop`; names found."""
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
            out += ["    " + body for body in loop] + [""]
    return "\n".join(out), found
