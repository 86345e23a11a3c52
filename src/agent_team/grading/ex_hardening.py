"""Exercise 4.2: grade a hardening rule, ``no_exec(role, patch) -> None | reason``.

Requirements (each sentence of the exercise text, and the check that grades it):

=====================================================================  =============================
the exercise says                                                      check
=====================================================================  =============================
when the role is the coder and the content contains ``exec`` (as       ``refuses exec``
plain text, anywhere: inside a word or a comment too; case matters)
return a short reason: a non-blank str of at most 200 characters
... or contains ``__import__``                                          ``refuses __import__``
return ``None`` otherwise: a coder patch without either (``import``,   ``allows the rest``
``eval``, ``EXEC`` ... are fine) gives exactly None
judged by the role, not the path: a planner, reviewer or tester       ``other roles``
patch gives None whatever it contains
the supervisor applies it after the allowlist: with                    ``in the supervisor``
``rules=[no_exec]`` the default team still passes and fault 6 is
refused before it lands
=====================================================================  =============================

Scenarios: named patches for each row (the words in code, in comments and inside string
literals), then 300 random ones: every role, paths
inside and outside the coder's allowlist, contents built from pieces that are,
contain, or only resemble ``exec`` and ``__import__``. Each call gets its own
copy of the patch.

Measured by tests/grading/test_ex_4_2_mutants.py (wrong solutions written from the
exercise text, each rejected with the right first check; correct ones accepted) and
tests/grading/test_reference_mutants.py (mutants of the worked solution); the counts are there.
"""

import random

from ..clip import safe_repr
from ..faults import EXEC_SOURCE, coder_writing
from ..policies import FULL_SOURCE
from ..repo import PLAN_PATH, REVIEW_PATH, SRC_PATH, STUB_SOURCE
from ..supervisor import supervise
from ..trace import turns
from .core import Report, call_learner, grading_run
from .shapes import kind

REASON_CAP = 200
ROLES = ("planner", "coder", "reviewer", "tester")
PATHS = (SRC_PATH, PLAN_PATH, REVIEW_PATH, "notes.txt", "src/helpers.py", "exec.py")

REQUIREMENTS = (
    ("refuses exec", "a coder patch whose content contains exec, anywhere: a short reason (a non-blank str)"),
    ("refuses __import__", "a coder patch whose content contains __import__, anywhere: a short reason"),
    ("allows the rest", "any other coder patch: exactly None"),
    ("other roles", "a planner, reviewer or tester patch: None, whatever it contains"),
    ("in the supervisor", "with rules=[rule] the default team passes and fault 6 is refused before it lands"),
)


def reference_no_exec(role, patch):
    """The behaviour the exercise text asks for: part 4's worked solution is this function's body
    (tools/from_tables.py writes it into the notebook), so the two are one text."""
    content = patch.get("content")
    if role == "coder" and isinstance(content, str):
        for word in ("__import__", "exec"):
            if word in content:
                return f"coder patches may not use {word}"
    return None


# A rule says no by returning its reason: the supervisor writes that str into the trace as why the
# turn was refused. A raised error also stops the patch (a broken rule fails closed), but then all
# the trace can say is that the rule broke, and a rule that breaks is not one you can trust.
RAISED = (" A rule refuses by returning its reason, not by raising: return the reason as a str, which "
          "the supervisor records in the trace as why the turn was refused. (A rule that raises fails "
          "closed, so the patch is stopped anyway, but the trace then reads 'the rule failed', not why.)")

NAMED = (
    # in the table's order: a rule that hangs on the first case has that case's check fail, the first
    # row of the report (a hang ends the grading: a later row failing under rows "not run" misled)
    ("coder", SRC_PATH, "def fizzbuzz(n):\n    exec('x = 1')\n    return str(n)\n"),
    ("coder", SRC_PATH, EXEC_SOURCE),
    ("coder", SRC_PATH, "def fizzbuzz(n):\n    run = exec\n    return str(n)\n"),
    ("coder", SRC_PATH, "def fizzbuzz(n):\n    return str(n)  # no executor here\n"),
    ("coder", SRC_PATH, "def fizzbuzz(n):\n    f = __import__\n    return str(n)\n"),
    # inside string literals: plain text anywhere, a string is no hiding place (getattr can use it)
    ("coder", SRC_PATH, "def fizzbuzz(n):\n    run = getattr(__builtins__, 'ex' 'ec', None) or 'exec'\n"
                        "    return str(n)\n"),
    ("coder", SRC_PATH, 'def fizzbuzz(n):\n    """Never exec anything."""\n    return str(n)\n'),
    ("coder", SRC_PATH, "def fizzbuzz(n):\n    os = getattr(__builtins__, \"__import__\")('os')\n    return str(n)\n"),
    ("coder", "notes.txt", "exec"),
    ("coder", PLAN_PATH, "- do not use __import__ (" + "x" * 300 + ")"),
    ("coder", SRC_PATH, "def fizzbuzz(n):\n" + "    n = n\n" * 40 + "    exec ('pass')\n    return str(n)\n"),
    ("coder", SRC_PATH, FULL_SOURCE),
    ("coder", SRC_PATH, STUB_SOURCE),
    ("coder", SRC_PATH, "import math\n\ndef fizzbuzz(n):\n    return str(n)\n"),
    ("coder", SRC_PATH, "from os import path  # __init__, importlib\ndef fizzbuzz(n):\n    return eval('str(n)')\n"),
    ("coder", SRC_PATH, "EXEC = 1\nExec = 2\n__IMPORT__ = 3\n_import_ = 4\nexe = 'c'\n"),
    ("coder", SRC_PATH, "___import_ = 1  # __import, import__, _import__\n"),
    ("coder", "src/exec_tools.py", "def fizzbuzz(n):\n    return str(n)\n"),
    # dangerous-looking, and still not this rule's business: it refuses exec and __import__, nothing more
    ("coder", SRC_PATH, "import subprocess, os, sys, pickle, ctypes\n\ndef fizzbuzz(n):\n"
                        "    os.system('ls'); subprocess.run(['ls']); open('f').read()\n"
                        "    getattr(__builtins__, 'eval'); globals(); sys.modules; compile('1', 'f', 'eval')\n"
                        "    breakpoint()\n    return str(n)\n"),
    ("coder", SRC_PATH, "def fizzbuzz(n):\n    return getattr(str, 'upper')(str(n))\n"),
    ("planner", PLAN_PATH, "- never call exec or __import__\n"),
    ("planner", "src/plan.py", "exec('x')"),
    ("reviewer", REVIEW_PATH, '{"verdict": "request_changes", "notes": "remove the exec call"}'),
    ("reviewer", SRC_PATH, "__import__('os')"),
    ("tester", "tests/test_fizzbuzz.py", "exec(open('x').read())"),
)

PIECES = ("exec", "exec(", "exec ", "executor", "execute", "EXEC", "Exec", "ex ec", "exe", "xec",
          "__import__", "__import__(", "_import_", "__IMPORT__", "import", "import os", "importlib",
          "__init__", "eval(", "compile(", "def fizzbuzz(n):", "\n", "    return str(n)", "# ", " ",
          "'", "x", "__", "(", ")", "=")


def random_patches(count, seed=42):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        content = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12)))
        if rng.random() < 0.1:
            content = "x = 1\n" * rng.randint(20, 60) + content  # far from the first line
        role = rng.choice(ROLES + ("coder",) * 4)
        out.append((role, rng.choice(PATHS if rng.random() < 0.5 else (SRC_PATH,)), content))
    return tuple(out)


PATCHES = NAMED + random_patches(300)


def _rule_for(role, content):
    """The check a (role, content) case grades."""
    if role != "coder":
        return "other roles"
    if "exec" in content:
        return "refuses exec"
    if "__import__" in content:
        return "refuses __import__"
    return "allows the rest"


RANDOM_NOTE = ("a random patch, its content glued from pieces that are, contain or only look like "
               "exec and __import__, so it need not look like code")


def _case(i, role, path):
    """How a message names case ``i`` of PATCHES: a random one says so, or its content reads as a bug."""
    where = f"a {role} patch to {path!r}"
    return f"For {where} ({RANDOM_NOTE})" if i >= len(NAMED) else f"For {where}"


def _judge(case, role, content, value):
    """What is wrong with the rule's answer, in words, or ''. Exact types before anything else."""
    case = f"{case} with content {safe_repr(content, 160)}"
    if _rule_for(role, content) in ("refuses exec", "refuses __import__"):
        word = "exec" if "exec" in content else "__import__"
        if type(value) is not str:
            said = ("None, which lets the patch through" if value is None
                    else f"{kind(value)}: {safe_repr(value)}")
            return (f"{case}, your rule returned {said}. The content contains {word!r}, "
                    "so it must return a short reason, as a str.")
        if not value.strip() or len(value) > REASON_CAP:
            return (f"{case}, your rule returned {safe_repr(value)}; a reason is a non-blank str of at most "
                    f"{REASON_CAP} characters.")
        return ""
    if value is not None:
        why = ("it is not the coder's" if role != "coder"
               else "its content contains neither 'exec' nor '__import__' (case matters)")
        return f"{case}, your rule returned {safe_repr(value)}; it must return None: {why}."
    return ""


def _in_supervisor(report, rule):
    healthy = supervise(max_rounds=4, rules=[rule], seconds=0.5)
    if healthy.status != "pass":
        report.fail("in the supervisor", "With your rule on, the healthy team did not pass: "
                                         f"{healthy.stop_reason}.")
        return
    faulty = supervise(max_rounds=2, coder=coder_writing(EXEC_SOURCE, "import os"), rules=[rule],
                       seconds=0.5)
    if any(e["applied"] for e in turns(faulty.trace, "coder")):
        report.fail("in the supervisor", "With your rule on, the coder's __import__ patch still landed.")


@grading_run
def grade_hardening(rule):
    """Grade a hardening rule ``rule(role, patch) -> None | reason``; always returns a Report."""
    report = Report(exercise="4.2").declare_all(REQUIREMENTS)
    if not callable(rule):
        report.fail("refuses exec", f"no_exec is {safe_repr(rule)}, not a function. Define it with `def`.")
        return report.finish(ran=False)
    for i, (role, path, content) in enumerate(PATCHES):
        check, case = _rule_for(role, content), _case(i, role, path)
        # the role as a str of its own, equal to the supervisor's and not the same object: a rule
        # that compares it with `is` relies on an accident of interning, not on the role
        fresh_role = "".join(list(role))
        call = call_learner(rule, fresh_role, {"path": path, "content": content}, what="your rule")
        if call.not_implemented:
            report.outcome_override = "not implemented"
            return report.finish(ran=False)
        if not call.ok:
            report.fail(check, f"{case}: {call.problem}{RAISED if not call.timed_out else ''}")
            continue
        problem = _judge(case, role, content, call.value)
        if problem and role == "coder" and call.value is None:
            interned = call_learner(rule, role, {"path": path, "content": content}, what="your rule")
            if interned.ok and interned.value is not None:
                problem += (" Given the same role as the literal 'coder', it refused: it compares the role with "
                            "`is`, which holds only while both strs happen to be one object. Compare with ==.")
        if problem:
            report.fail(check, problem)
    if any(c.passed is False for c in report.checks):
        # Only a rule that is right on its own can be judged in a run: the supervisor check was not
        # tried, so it shows as not run (not as passed); the four patch checks were.
        report.tried(*(name for name, _ in REQUIREMENTS if name != "in the supervisor"))
        return report.finish(ran=False)
    _in_supervisor(report, rule)
    return report.finish()
