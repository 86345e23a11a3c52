"""Scripts put first thing into the built site's notebook pages, and settings into its
jupyter-lite.json (site/prewarm.py, site/isolation.py). The page's code is TypeScript, built with
the site's plugin (site/extension/src/page/); what is written here is its settings.

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
# The page script, built by `npm run build` with the plugin (site/extension/build-workers.mjs).
PAGE_CODE = Path(__file__).resolve().parent / "extension" / "lib" / "page.js"
CODE_MARK = "/* agent_team: page script"


def edit_config(out: Path, change) -> None:
    """Apply `change` to the `jupyter-config-data` of the built site's jupyter-lite.json, in place."""
    lite = out / "jupyter-lite.json"
    config = json.loads(lite.read_text())
    change(config["jupyter-config-data"])
    lite.write_text(json.dumps(config, indent=2))


def add_page_settings(out: Path, part: str, settings: dict) -> None:
    """Give the page script (site/extension/src/page/index.ts, built into lib/page.js with the
    site's plugin) `settings` as `globalThis.__agentTeamPage[part]`, in every notebook page of the
    built site `out`; the script itself goes in with the first settings, and runs after them all."""
    data = json.dumps(settings, separators=(",", ":")).replace("</", "<\\/")
    for app in PAGES:
        if CODE_MARK not in (out / app / "index.html").read_text():
            code = PAGE_CODE.read_text()
            if "</script" in code.lower():
                sys.exit(f"{PAGE_CODE} contains '</script': it cannot be written into a page")
            _add(out / app / "index.html", f"\n    <script>{CODE_MARK} (site/extension/src/page) */{code}</script>")
        holder = "(globalThis.__agentTeamPage||(globalThis.__agentTeamPage={}))"
        _add(out / app / "index.html", f"\n    <script>/* agent_team: {part} settings */{holder}.{part}={data}</script>")


def _add(page: Path, script: str) -> None:
    text = page.read_text()
    if text.count(AFTER) != 1:
        sys.exit(f"{page}: {text.count(AFTER)} lines {AFTER!r} (expected 1): jupyterlite upgrade?")
    page.write_text(text.replace(AFTER, AFTER + script))
