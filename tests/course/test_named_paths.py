"""Every repository path a comment, docstring, doc or Makefile names exists: a rename leaves no stale path.

The `site/` -> `website/` rename left about ten (issue 37: "webwebsite/extension" in two docstrings,
`tests/browser/bidi.py` in the Makefile after the file had moved). This reads every text file of the
repository for paths that start at one of its top-level folders and checks each one is there (a
glob is there when it matches a file). Links in the docs are test_docs_links.py's.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if not (ROOT / "Makefile").exists():  # the Pyodide run copies the engine and its tests, not the repository
    pytest.skip("the repository is not in this copy", allow_module_level=True)

# A path starts at a top-level folder; `(web)*site/` catches the folder's old name and a doubled rename.
PATH = re.compile(r"(?<![\w./@~$-])((?:src/agent_team|(?:web)*site|browsers|tests|bench|tools|docs|notebooks"
                  r"|ci|\.github)/[\w./*+-]*[\w*])")
SUFFIXES = {".py", ".ts", ".mjs", ".js", ".md", ".txt", ".toml", ".yml", ".sh", ".css", ".cfg"}
# Not the repository's own files: what .gitignore leaves out, and the vendored patch (upstream's text).
SKIPPED_DIRS = {".git", "node_modules", "build", "dist", "_output", "__pycache__", ".pytest_cache", ".venv", "lib"}
SKIPPED_FILES = {"website/extension/patches"}

# Named on purpose, though not a file here, each for the reason given.
NOT_HERE = {
    "tests/test_fizzbuzz.py": "the team's repo in the course (repo.initial_repo), not this repository's",
    "tests/engine/test_docs.py": "CONTRIBUTING's recipe creates it",
    "src/agent_team/grading/double.py": "CONTRIBUTING's recipe creates it",
    "notebooks/index.html": "a page of the built site",
    ".github/workflows/agent-team-grade.yml": "where a teacher copies ci/agent-team-grade.yml to",
}


def text_files():
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT)
        if (SKIPPED_DIRS & set(rel.parts[:-1]) or rel.parts[0].startswith(".venv")
                or any(str(rel).startswith(s) for s in SKIPPED_FILES)):
            continue
        if path.is_file() and (path.suffix in SUFFIXES or path.name == "Makefile"):
            yield rel, path


def named_paths(text):
    for m in PATH.finditer(text):
        path = m.group(1).rstrip(".").split("#")[0]
        # NN_name: a placeholder for a part's number; node_modules: what npm installs, not the repository's
        if "NN" not in path and "node_modules" not in path and path not in NOT_HERE:
            yield path


def exists(path, where=ROOT):
    """There from the repository's root, or from the folder of the file that names it (tests/README.md: site/)."""
    return any(any(base.glob(path)) if "*" in path else (base / path).exists() for base in {ROOT, where})


def test_the_scan_finds_the_paths_a_text_names():
    said = "see webwebsite/extension/src/kernel.ts, site/pages.py and `browsers/driver.py`; not build/site/x"
    assert list(named_paths(said)) == ["webwebsite/extension/src/kernel.ts", "site/pages.py", "browsers/driver.py"]
    assert [p for p in named_paths(said) if not exists(p)] == ["webwebsite/extension/src/kernel.ts", "site/pages.py"]


def test_every_path_the_repository_names_exists():
    missing = []
    for rel, path in text_files():
        if path == Path(__file__):  # it names stale paths on purpose
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            missing += [f"{rel}:{n}: {p}" for p in named_paths(line) if not exists(p, path.parent)]
    assert not missing, ("these paths are named but not in the repository; write the path it has now (or, "
                         "for a path named on purpose, add it to NOT_HERE with why):\n" + "\n".join(missing))


def test_every_path_named_on_purpose_is_still_named():
    named = {p for _, path in text_files() for p in PATH.findall(path.read_text(encoding="utf-8", errors="replace"))}
    assert set(NOT_HERE) <= named, f"no longer named anywhere, so drop from NOT_HERE: {set(NOT_HERE) - named}"
