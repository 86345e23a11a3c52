"""The shared state: a repo is a plain dict of path -> file text.

Roles never write to it. They propose *patches* (full-file writes
``{"path": ..., "content": ...}``); the supervisor passes each turn through
:func:`apply_turn`, which checks every patch against the role's *allowlist*
and either applies the whole turn to a copy of the repo or none of it.
"""

import unicodedata

from .clip import safe_repr
# The files the roles write, and each role's allowlist, come from the roles table.
from .roles import ALLOWLIST, PLAN_PATH, REVIEW_PATH, SRC_PATH

TESTS_PATH = "tests/test_fizzbuzz.py"

GOAL = "Implement fizzbuzz(n) in src/fizzbuzz.py so that the tests in tests/test_fizzbuzz.py pass."

STUB_SOURCE = "def fizzbuzz(n):\n    return str(n)\n"

TEST_SPEC = (
    "# READ ONLY. The oracle checks these cases; no role may edit this file.\n"
    "# fizzbuzz(1) == '1'\n"
    "# fizzbuzz(3) == 'Fizz'\n"
    "# fizzbuzz(5) == 'Buzz'\n"
    "# fizzbuzz(15) == 'FizzBuzz'\n"
    "# any other n: str(n)\n"
)

# Each role may write exactly the paths of its ALLOWLIST row; the test file is in
# no allowlist, so no role can ever change what "passing" means.
__all__ = ["ALLOWLIST", "GOAL", "PLAN_PATH", "REVIEW_PATH", "SRC_PATH", "TESTS_PATH", "STUB_SOURCE",
           "TEST_SPEC", "MAX_CONTENT", "MAX_PATCHES", "PATCH_CHECKS", "PatchRejected", "initial_repo", "check_path",
           "check_patch", "check_turn", "apply_turn"]

MAX_CONTENT = 20_000  # characters per file; a fizzbuzz needs a few hundred
MAX_PATCHES = 8       # per turn; more than this is a runaway policy


# Which patch check refused a turn, as the trace's ``refused_by`` records it (a hardening
# *rule* is something else: a function passed in supervise(rules=[...])).
PATCH_CHECKS = ("shape", "path", "allowlist", "size")


class PatchRejected(ValueError):
    """A patch failed a check; ``str(err)`` says why, in plain words, and ``check`` which one (of PATCH_CHECKS)."""

    def __init__(self, message, check="shape"):
        super().__init__(message)
        self.check = check


def repo_problem(value):
    """None for a repo: a plain dict of str path -> str text; else what is wrong, in words.

    Exact types, so nothing in an accepted repo runs code of its own (a str subclass's ``==``, a
    dict subclass's ``keys``) when the supervisor compares, copies or diffs it.
    """
    if type(value) is not dict:
        return f"not {type(value).__name__}"
    for path, text in value.items():
        if type(path) is not str:
            return f"but the key {safe_repr(path, 40)} is {type(path).__name__}"
        if type(text) is not str:
            return f"but {safe_repr(path, 40)} holds {type(text).__name__}"
    return None


def initial_repo():
    """A fresh repo: the failing stub, the frozen test spec, no plan, no review."""
    return {
        SRC_PATH: STUB_SOURCE,
        TESTS_PATH: TEST_SPEC,
        PLAN_PATH: "",
        REVIEW_PATH: "[]",
    }


def check_path(path):
    """Raise PatchRejected unless ``path`` is a clean, relative, forward-slash path."""
    if type(path) is not str:  # exact types: subclasses could run code on every use
        raise PatchRejected(f"the path must be a string, not {type(path).__name__}", "path")
    if not path:
        raise PatchRejected("the path is empty", "path")
    if any(unicodedata.category(ch)[0] == "C" for ch in path):
        raise PatchRejected(f"the path {safe_repr(path, 60)} holds a NUL or control character", "path")
    if "\\" in path:
        raise PatchRejected(f"the path {safe_repr(path, 60)} uses a backslash; use '/'", "path")
    if path.startswith("/") or (len(path) > 1 and path[1] == ":"):
        raise PatchRejected(f"the path {safe_repr(path, 60)} is absolute; paths are relative to the repo", "path")
    if ".." in path.split("/"):
        raise PatchRejected(f"the path {safe_repr(path, 60)} climbs out with '..'", "path")


def check_patch(role, patch):
    """Raise PatchRejected if ``role`` may not apply ``patch``; return (path, content) if it may."""
    if type(patch) is not dict:
        raise PatchRejected(f"a patch must be a dict with 'path' and 'content', not a {type(patch).__name__}")
    missing = [key for key in ("path", "content") if key not in patch]
    if missing:
        raise PatchRejected(f"the patch has no {' or '.join(repr(k) for k in missing)}")
    path, content = patch["path"], patch["content"]
    check_path(path)
    allowed = ALLOWLIST.get(role, frozenset())
    if path not in allowed:
        may = ", ".join(sorted(allowed)) or "nothing"
        raise PatchRejected(f"the {role} may not write {path!r}; its allowlist is: {may}", "allowlist")
    if type(content) is not str:
        raise PatchRejected(f"the content of {path!r} must be a string, not {type(content).__name__}")
    if len(content) > MAX_CONTENT:
        raise PatchRejected(
            f"the content of {path!r} has {len(content):,} characters; the cap is {MAX_CONTENT:,}", "size")
    return path, content


def check_turn(role, patches):
    """The writes of one turn, ``{path: content}``, if every patch passes; else :class:`PatchRejected`.

    The error says which patch broke which rule, and that none of the turn was applied.
    """
    if type(patches) not in (list, tuple):
        raise PatchRejected(f"patches must be a list, not {type(patches).__name__}")
    if len(patches) > MAX_PATCHES:
        raise PatchRejected(f"the {role} sent {len(patches)} patches in one turn; the cap is {MAX_PATCHES}; "
                            "no patch of this turn was applied", "size")
    writes = {}
    for i, patch in enumerate(patches, 1):
        try:
            path, content = check_patch(role, patch)
        except PatchRejected as err:
            prefix = f"patch {i} of {len(patches)}: " if len(patches) > 1 else ""
            raise PatchRejected(f"{prefix}{err}; no patch of this turn was applied", err.check) from None
        writes[path] = content
    return writes


def apply_turn(repo, role, patches):
    """Apply one role's turn all-or-nothing.

    Returns ``(new_repo, error)``. On success ``error`` is None and ``new_repo``
    is a copy with every patch written; if any patch is rejected, ``error``
    says why and ``new_repo`` is ``repo`` itself, untouched. ``repo`` is never
    mutated either way.
    """
    try:
        return {**repo, **check_turn(role, patches)}, None
    except PatchRejected as err:
        return repo, str(err)
