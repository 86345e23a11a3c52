"""CONTRIBUTING.md's recipes are true: follow them in a copy of the repository and run the tests.

The code blocks of CONTRIBUTING.md carry a line saying where they go
(``<!-- recipe role: in FILE, before "ANCHOR" -->``, ``append to FILE``, ``new file FILE``).
This test applies every one of them to a temporary copy of the package, its tests and the
notebook sources, then runs the new role's test and every test derived from the tables there.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from agent_team import course

ROOT = Path(__file__).resolve().parents[1]
STEP = re.compile(r'<!-- recipe (?P<recipe>\w+): (?P<where>.+?) -->\n```python\n(?P<code>.*?)```', re.DOTALL)
COPIED = ("src", "tests", "notebooks/source", "tools", "pyproject.toml")


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
    root = tmp_path_factory.mktemp("recipes")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, root / name, ignore=shutil.ignore_patterns("__pycache__", "browser"))
        else:
            shutil.copy2(source, root / name)
    for step in steps():
        apply(root, step["where"], step["code"])
    return root


def run_pytest(root, *args):
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", "-q", *args],
                          cwd=root, env=env, capture_output=True, text=True, timeout=600)


def test_the_copy_imports_its_own_package(copy):
    out = subprocess.run([sys.executable, "-c", "import agent_team.roles as r; print(r.__file__, r.ROLES)"],
                         cwd=copy, env={**os.environ, "PYTHONPATH": str(copy / "src")},
                         capture_output=True, text=True, timeout=120)
    assert out.stdout.startswith(str(copy / "src")) and "'docs'" in out.stdout, out.stdout + out.stderr


def test_after_the_recipes_the_new_role_exercise_and_fault_pass_their_tests(copy):
    result = run_pytest(copy, "tests/test_docs.py", "tests/test_roles.py", "tests/test_course.py",
                        "tests/test_faults.py", "tests/test_progress.py", "tests/test_supervisor.py",
                        "tests/test_config.py", "tests/test_views.py", "tests/test_contracts.py",
                        "tests/test_llm.py", "tests/test_render.py")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    # the notebook source grades the new exercise (the notebooks themselves are rebuilt by make)
    sources = run_pytest(copy, "tests/test_notebook_sources.py", "-k", "graded_in_its_parts_notebook")
    # one test per exercise of the course, and one for the recipe's new exercise
    assert sources.returncode == 0 and f"\n{len(course.EXERCISES) + 1} passed" in sources.stdout, sources.stdout[-3000:]
    # the new rows really were there to test
    ran = run_pytest(copy, "tests/test_faults.py", "tests/test_course.py", "tests/test_roles.py",
                     "--collect-only")
    assert "coder goes quiet" in ran.stdout and "6.3" in ran.stdout and "docs" in ran.stdout
