"""Exact-string patches of JupyterLite's built files, shared by the site/ patch modules.

Each patch must match exactly once, or the build stops: a jupyterlite upgrade must be checked by
hand, never silently half-patched (or patched twice).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

# The notebook pages of the site; scripts go right after PAGE_AFTER, so one added later runs first.
PAGES = ("lab", "notebooks")
PAGE_AFTER = '<meta charset="utf-8">'


def once(path: Path, old: str, new: str) -> None:
    """Replace the one occurrence of `old` in `path` by `new`."""
    text = path.read_text()
    if text.count(old) != 1:
        sys.exit(f"{path}: the code to patch has changed (jupyterlite upgrade?): {old[:60]!r}")
    path.write_text(text.replace(old, new))


def sub_once(path: Path, pattern: re.Pattern, repl) -> None:
    """Substitute the one match of `pattern` in `path` (`repl` as for re.sub)."""
    text = path.read_text()
    new, n = pattern.subn(repl, text)
    if n != 1:
        sys.exit(f"{path}: {n} matches for {pattern.pattern[:60]!r} (jupyterlite upgrade?)")
    path.write_text(new)


def containing(files, needle) -> Path:
    """The one file of `files` that holds `needle` (a string or a compiled pattern)."""
    found = [p for p in files if (needle.search(p.read_text()) if isinstance(needle, re.Pattern)
                                  else needle in p.read_text())]
    if len(found) != 1:
        sys.exit(f"{len(found)} files contain the code to patch ({needle!r}): jupyterlite upgrade?")
    return found[0]


def add_to_pages(out: Path, script: str) -> None:
    """Put `script` (a <script> element) first thing in every notebook page of the built site `out`."""
    for app in PAGES:
        once(out / app / "index.html", PAGE_AFTER, PAGE_AFTER + script)
