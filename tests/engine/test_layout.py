"""The engine's shape: the parts 1-4 core never imports the real team's wing (agent_team.realteam),
and every module name a saved notebook used before the wing existed still gives the same module."""

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import agent_team
from agent_team import moved

PACKAGE = Path(agent_team.__file__).parent
# Above the core and allowed to use the wing: graders, widgets, the class grader and the demo.
ABOVE = ("realteam", "grading", "widgets", "classroom", "grade.py", "__main__.py")


def core_modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] not in ABOVE and "__pycache__" not in relative.parts:
            yield relative


def imported_names(path):
    """Every module an import statement of ``path`` names, resolved to its full name."""
    package = ["agent_team", *path.relative_to(PACKAGE).parent.parts]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            yield module
            yield from (f"{module}.{alias.name}" for alias in node.names)


def test_the_core_is_most_of_the_package_and_the_wing_is_there():
    core = [str(p) for p in core_modules()]
    assert "supervisor.py" in core and "oracle.py" in core and "runners/isolated.py" in core
    assert (PACKAGE / "realteam" / "contracts.py").is_file() and (PACKAGE / "realteam" / "models").is_dir()


@pytest.mark.parametrize("relative", [str(p) for p in core_modules()])
def test_no_core_module_imports_the_wing(relative):
    reaching = sorted({name for name in imported_names(PACKAGE / relative)
                       if name.startswith("agent_team.realteam") or moved.new_name(name)})
    assert not reaching, f"{relative} (parts 1-4) imports {reaching}: the core never imports the real team"


def test_importing_the_whole_core_loads_nothing_of_the_wing():
    names = [".".join(("agent_team", *p.with_suffix("").parts)).removesuffix(".__init__") for p in core_modules()]
    code = ("import importlib, sys\n"
            f"for name in {names!r}: importlib.import_module(name)\n"
            "print(sorted(m for m in sys.modules if m.startswith('agent_team.realteam')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("old", sorted(moved.MOVED))
def test_an_old_module_name_is_the_very_same_module(old):
    assert importlib.import_module(old) is importlib.import_module(moved.MOVED[old])
    assert sys.modules[old] is sys.modules[moved.MOVED[old]]


def test_a_module_below_an_old_name_is_not_loaded_twice():
    from agent_team.models.http import ModelError
    from agent_team.realteam.models import http

    assert ModelError is http.ModelError
    assert importlib.import_module("agent_team.recordings").load_recording("team").name == "team"
    by_file = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("agent_team") and getattr(module, "__file__", None):
            by_file.setdefault(module.__file__, set()).add(id(module))
    assert all(len(ids) == 1 for ids in by_file.values()), "a module file was loaded as two modules"


def test_new_names_and_names_that_never_moved():
    assert moved.new_name("agent_team.models.http") == "agent_team.realteam.models.http"
    assert moved.new_name("agent_team.models.isolated") == "agent_team.runners.isolated"
    assert moved.new_name("agent_team.oracle") is None and moved.new_name("agent_team.realteam.llm") is None
    assert moved.new_name("agent_team.llmish") is None


def test_the_hook_is_installed_once():
    moved.install()
    importlib.reload(agent_team)
    assert sum(type(f).__module__ == moved.__name__ for f in sys.meta_path) == 1


def old_form(line):
    """An import line of today's notebooks as a notebook saved before the move wrote it."""
    for old, new in sorted(moved.MOVED.items(), key=lambda item: -len(item[1])):
        if f" {new} " in line or f" {new}." in line:
            return line.replace(f" {new}", f" {old}", 1)
    return None


def notebook_imports():
    folder = Path(__file__).resolve().parents[2] / "notebooks" / "source"
    for source in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("agent_team.realteam"):
                yield f"{source.name}:{node.lineno}", ast.unparse(node)


@pytest.mark.parametrize("where,line", list(notebook_imports()), ids=[w for w, _ in notebook_imports()])
def test_a_saved_notebooks_import_line_gives_what_todays_gives(where, line):
    old = old_form(line)
    assert old and old != line, line
    today, saved = {}, {}
    exec(line, today)  # the course's own import lines
    exec(old, saved)  # the same line, with the module names before the move
    names = [k for k in today if k != "__builtins__"]
    assert names and all(saved[k] is today[k] for k in names), (line, old)
