"""One word per meaning: CONTRIBUTING.md's Words table is the vocabulary, and code and notebooks keep to it."""

import ast
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

import agent_team
from agent_team import course, grading

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "agent_team"
CONTRIBUTING = ROOT / "CONTRIBUTING.md"
PART_ONE = ROOT / "notebooks" / "source" / "01_architecture.py"
if not CONTRIBUTING.exists():  # the Pyodide run copies the engine and its tests, not the docs
    pytest.skip("CONTRIBUTING.md is not in this copy of the repository", allow_module_level=True)


def table_rows(text, header):
    """The rows of the markdown table whose header row starts with ``header``, as lists of cells."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.replace("#", "").strip().startswith(header))
    rows = []
    for line in lines[start + 2:]:
        line = line.lstrip("# ").strip() if line.startswith("#") else line.strip()
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


WORDS = {row[0]: row for row in table_rows(CONTRIBUTING.read_text(encoding="utf-8"), "| word | means | in the code")}


def modules():
    for info in pkgutil.walk_packages(agent_team.__path__, "agent_team."):
        yield info.name, importlib.import_module(info.name)


def resolve(name):
    """``module.attr[.attr]`` or ``module.function(parameter)`` inside agent_team; raises if it is not there."""
    name, _, param = name.partition("(")
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module("agent_team." + ".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            fields = getattr(obj, "__dataclass_fields__", {})
            obj = fields[attr] if attr not in vars(obj) and attr in fields else getattr(obj, attr)
        if param:
            assert param.rstrip(")") in inspect.signature(obj).parameters, name
        return obj
    raise ImportError(f"no module agent_team.{parts[0]}")


def test_every_name_the_table_gives_exists():
    assert len(WORDS) >= 20
    for word, (_, means, code, _not) in WORDS.items():
        assert means, word
        for name in re.findall(r"`([\w.]+(?:\(\w+\))?)`", code):
            try:
                resolve(name)
            except (AttributeError, ImportError, KeyError) as err:
                pytest.fail(f"the Words table's row {word!r} names `{name}`, which does not exist ({err})")


def test_the_words_part_one_teaches_mean_what_the_table_says():
    taught = table_rows(PART_ONE.read_text(encoding="utf-8"), "| word | what it means here")
    assert len(taught) >= 10
    for word, means in taught:
        word = word.replace("**", "")
        assert word in WORDS, f"part 1 teaches {word!r}; give it a row in CONTRIBUTING.md's Words table"
        assert means == WORDS[word][1], f"{word!r}: part 1 says {means!r}, the Words table {WORDS[word][1]!r}"


def functions():
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield path.relative_to(SRC), node


def test_check_functions_validate_and_raise():
    checks = [(path, node) for path, node in functions() if node.name.startswith("check_")]
    assert len(checks) >= 4
    for path, node in checks:
        assert any(isinstance(n, ast.Raise) for n in ast.walk(node)), \
            f"{path}: {node.name} raises nothing; a check_* validates and raises (see the Words table)"


def returns_a_failure(node):
    """The lines where ``node`` returns a value from an ``except`` handler: a failure turned into a value."""
    return [r.lineno for h in ast.walk(node) if isinstance(h, ast.ExceptHandler)
            for r in ast.walk(h) if isinstance(r, ast.Return) and r.value is not None]


# A check_* function that breaks the rule today, with what mends it. Strict: when it is mended its
# case passes and fails as an unexpected pass, so the entry is deleted, not forgotten.
KNOWN_MISNAMED = {}  # none today
CHECKS = sorted((node.name, path) for path, node in functions() if node.name.startswith("check_"))


def test_the_known_misnamed_checks_still_exist():
    assert set(KNOWN_MISNAMED) <= {name for name, _ in CHECKS}, "a mended check_* is still in KNOWN_MISNAMED"


@pytest.mark.parametrize("name,path", [
    pytest.param(name, path, marks=pytest.mark.xfail(strict=True, reason=KNOWN_MISNAMED[name]))
    if name in KNOWN_MISNAMED else (name, path) for name, path in CHECKS], ids=[name for name, _ in CHECKS])
def test_a_check_function_fails_by_raising_never_by_returning(name, path):
    """The Words table's meaning, not only its letter: a check_* that catches a failure and returns it
    as a value is a probe or a ``*_problems`` function, whatever else in it raises."""
    node = next(n for p, n in functions() if p == path and n.name == name)
    lines = returns_a_failure(node)
    assert not lines, (f"{path}:{lines[0]}: {name} returns a value from an except handler; a check_* "
                       "validates and raises (CONTRIBUTING.md's Words table, 'check'): let the error "
                       "propagate, or name the function for what it returns")


def test_graders_are_grade_functions_and_all_of_them_are_the_courses():
    graders = {e.grader for e in course.EXERCISES}
    assert all(name.startswith("grade_") for name in graders)
    assert {name for name in grading.__all__ if name.startswith("grade_")} == graders
    assert not [name for name in grading.__all__ if name.startswith("check_")]


def test_a_notebook_saved_with_an_old_grader_name_is_told_the_new_one():
    with pytest.raises(ImportError, match="check_gate is now called grade_gate"):
        from agent_team.grading import check_gate  # noqa: F401 -- the import is what is tested
    assert not hasattr(grading, "check_nothing_like_it")


def test_no_two_classes_share_a_name():
    seen = {}
    for path in SRC.rglob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                assert node.name not in seen, f"class {node.name} in {path.name} and {seen[node.name]}"
                seen[node.name] = path.name


def test_no_two_modules_export_different_things_under_one_name():
    exported = {}
    for module_name, module in modules():
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            first = exported.setdefault(name, (module_name, obj))
            assert first[1] is obj, f"{first[0]}.{name} and {module_name}.{name} are different things"


def test_the_run_statuses_are_written_once():
    """("pass", "budget") is supervisor.RUN_STATUSES; everything else refers to it."""
    from agent_team.supervisor import RUN_STATUSES
    found = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Tuple) and {getattr(e, "value", None) for e in node.elts} >= set(RUN_STATUSES):
                found.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert found == ["supervisor.py:" + str(next(
        i for i, line in enumerate((SRC / "supervisor.py").read_text().splitlines(), 1)
        if line.startswith("RUN_STATUSES =")))], found


def test_an_exercise_has_one_title_in_its_heading_its_report_and_the_progress_widget():
    from agent_team import progress
    headings = {}
    for source in (ROOT / "notebooks" / "source").glob("[0-9][0-9]_*.py"):
        for ex_id, title in re.findall(r"^# #+ Exercise (\d+\.\d+) — (.+)$", source.read_text(), re.M):
            headings[ex_id] = title.replace("`", "")
    listed = {ex_id: title for _, _, rows in progress.BY_PART for ex_id, title in rows}
    for e in course.EXERCISES:
        assert headings[e.id] == e.title, f"exercise {e.id}: the heading says {headings[e.id]!r}"
        assert listed[e.id] == e.title
        assert grading.Report(exercise=e.id).title == f"Exercise {e.id}: {e.title}"
