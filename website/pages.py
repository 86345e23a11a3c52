"""Scripts put first thing into the built site's notebook pages, and settings into its
jupyter-lite.json (website/prewarm.py, website/isolation.py).

They must run before any bundle loads, so they are written into the pages themselves, right after
the `<meta charset>` line; a page without exactly one such line stops the build (a JupyterLite
upgrade must be checked by hand, never silently half-done).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

# The notebook pages of the site; scripts go right after AFTER, so one added later runs first.
PAGES = ("lab", "notebooks")
AFTER = '<meta charset="utf-8">'


def edit_config(out: Path, change) -> None:
    """Apply `change` to the `jupyter-config-data` of the built site's jupyter-lite.json, in place."""
    lite = out / "jupyter-lite.json"
    config = json.loads(lite.read_text())
    change(config["jupyter-config-data"])
    lite.write_text(json.dumps(config, indent=2))


def add_to_pages(out: Path, script: str) -> None:
    """Put `script` (a <script> element) first thing in every notebook page of the built site `out`."""
    for app in PAGES:
        page = out / app / "index.html"
        text = page.read_text()
        if text.count(AFTER) != 1:
            sys.exit(f"{page}: {text.count(AFTER)} lines {AFTER!r} (expected 1): jupyterlite upgrade?")
        page.write_text(text.replace(AFTER, AFTER + script))
