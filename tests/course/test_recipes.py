"""CONTRIBUTING.md's recipes are true: follow them in a copy of the repository and run the whole suite.

The code blocks of CONTRIBUTING.md carry a line saying where they go
(``<!-- recipe role: in FILE, before "ANCHOR" -->``, ``append to FILE``, ``new file FILE``).
This test applies every one of them to a temporary copy of the repository, rebuilds the
notebooks of the parts they touch (as the recipes say: ``make notebooks PARTS=...``), then runs
every test there but the few that cannot run in the copy (``CANNOT_RUN_HERE``, with the reason).
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[2]
STEP = re.compile(r'<!-- recipe (?P<recipe>\w+): (?P<where>.+?) -->\n```python\n(?P<code>.*?)```', re.DOTALL)
# Not copied: what is not the repository's (environments, installed packages, builds, caches).
NOT_COPIED = (".git", ".venv*", "node_modules", "_output", "dist", "build", "__pycache__", ".pytest_cache",
              "*.egg-info", ".ipynb_checkpoints")
# The parts whose notebooks the recipes change: 3, 4 and 6 count the faults, 4 runs them, 7 has the exercise.
REBUILT = ("03", "04", "06", "07")
CANNOT_RUN_HERE = {
    "tests/browser": "needs the built site and a browser (make test-browser)",
    "tests/course/test_recipes.py": "this test itself",
    "tests/classroom/test_classroom_grading.py": "boots Pyodide under Node.js from the site's wheels, "
                                                 "which the copy does not fetch (make test runs it)",
    "tests/models/test_real_model.py": "needs the real model and its server (make models: about 200 MB "
                                       "outside git, which the copy does not hold; make test runs it)",
    "tests/models/test_record_runs.py": "records the shipped runs again with the real model (the same "
                                        "200 MB outside git; make test runs it)",
    "tests/site/test_workflows.py": "copies the git checkout (the copy has no .git) and installs the course "
                                    "afresh as a hosted runner would (make test runs it)",
}


def steps():
    return [m.groupdict() for m in STEP.finditer((ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8"))]


def apply(root, where, code):
    """Do what one step says to the copy at ``root``."""
    if where.startswith("new file "):
        path = root / where.removeprefix("new file ")
        assert not path.exists(), f"{where}: the file already exists"
        path.write_text(code, encoding="utf-8")
        return
    if where.startswith("append to "):
        path = root / where.removeprefix("append to ")
        path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + "\n" + code, encoding="utf-8")
        return
    match = re.fullmatch(r'in (?P<file>\S+), before "(?P<anchor>.+)"', where)
    assert match, f"a recipe step says {where!r}; it must be 'new file F', 'append to F' or 'in F, before \"A\"'"
    path = root / match["file"]
    lines = path.read_text(encoding="utf-8").split("\n")
    at = [i for i, line in enumerate(lines) if line.startswith(match["anchor"])]
    assert len(at) == 1, f"{where}: the anchor is on {len(at)} lines of {match['file']}, not exactly one"
    lines[at[0]:at[0]] = code.rstrip("\n").split("\n")
    path.write_text("\n".join(lines), encoding="utf-8")


def test_contributing_has_a_recipe_for_a_role_an_exercise_and_a_fault():
    assert {s["recipe"] for s in steps()} == {"role", "exercise", "fault"}
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for heading in ("## Add a role", "## Add an exercise", "## Add a fault", "## Add a part"):
        assert heading in text


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    root = tmp_path_factory.mktemp("recipes") / "repo"
    shutil.copytree(ROOT, root, ignore=shutil.ignore_patterns(*NOT_COPIED), symlinks=True)
    for step in steps():
        apply(root, step["where"], step["code"])
    return root


def run_pytest(root, *args):
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", "-q", *args],
                          cwd=root, env=env, capture_output=True, text=True, timeout=1800)


def test_the_copy_imports_its_own_package(copy):
    out = subprocess.run([sys.executable, "-c", "import agent_team.roles as r; print(r.__file__, r.ROLES)"],
                         cwd=copy, env={**os.environ, "PYTHONPATH": str(copy / "src")},
                         capture_output=True, text=True, timeout=120)
    assert out.stdout.startswith(str(copy / "src")) and "'docs'" in out.stdout, out.stdout + out.stderr


@pytest.mark.slow  # rebuilds two notebooks and runs the whole suite in the copy
def test_after_the_recipes_the_whole_suite_passes(copy):
    env = {**os.environ, "PYTHONPATH": str(copy / "src"), "AGENT_TEAM_PROGRESS": "off"}
    build = subprocess.run([sys.executable, "tools/notebooks.py", "build", *REBUILT], cwd=copy, env=env,
                           capture_output=True, text=True, timeout=1800)
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-3000:]
    # on every core, as `make test` runs the suite itself
    result = run_pytest(copy, "tests", *[f"--ignore={path}" for path in CANNOT_RUN_HERE], "-rfE", "-n", "auto")
    assert result.returncode == 0, result.stdout[-5000:] + result.stderr[-2000:]
    # the new rows really were there to test
    ran = run_pytest(copy, "tests/engine/test_faults.py", "tests/course/test_course.py",
                     "tests/engine/test_roles.py", "tests/engine/test_hints.py",
                     "tests/course/test_course_claims.py", "--collect-only")
    assert "coder writes no function" in ran.stdout and "7.2" in ran.stdout and "docs" in ran.stdout
