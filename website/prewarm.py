"""The course's own JupyterLite plugin (website/extension), and the kernel's worker started early.

The plugin is built by JupyterLab's extension builder (`npm run build` in website/extension, into
build/site-extension) and replaces JupyterLite's Pyodide kernel plugin, which the site's
jupyter-lite.json disables: its kernel is the same Pyodide kernel, started early, interruptible
(Kernel -> Interrupt stops a running cell) and answering comm_info_request (saved widgets render
on open). See website/extension/src/kernel.ts.

Prewarm. As shipped, JupyterLite creates the kernel's worker only once the notebook is open and
its session started (~5 s into a cold load here), and the worker boots Pyodide only then. The
plugin starts that worker when it activates; the notebook pages start it even earlier, before
the JupyterLab bundle loads (~1.5 s here), with the page script this module puts into them
(website/extension/src/page/, built with the plugin into lib/page.js; it imports worker.ts, so the
steps are the plugin's own), for the same worker files. The first kernel takes that worker,
which is booting Pyodide and importing the kernel's packages by then.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from .pages import add_page_settings, edit_config

SOURCE = Path(__file__).resolve().parent / "extension"
BUILT = SOURCE.parents[1] / "build" / "site-extension"
NAME = json.loads((SOURCE / "package.json").read_text())["name"]
STATIC = Path("extensions") / NAME / "static"

def build_extension() -> Path:
    """Build website/extension into build/site-extension (needs `npm ci` at the repository root)."""
    shutil.rmtree(BUILT, ignore_errors=True)
    try:
        subprocess.run(["npm", "run", "build"], cwd=SOURCE, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"building website/extension failed ({e}): run `npm ci` at the repository root first")
    return BUILT


def patch(out: Path, load_pyodide_options: dict) -> dict:
    """Start the kernel's worker early in the built site `out`: from its notebook pages...
    Returns the pages' settings (the home page starts the same worker: website/home.py)."""
    static = out / STATIC
    names = {}
    for kind in ("comlink", "coincident"):
        ours = [p for p in static.glob(f"{kind}.worker.*.js") if "agentTeamBoot" in p.read_text()]
        if len(ours) != 1:
            sys.exit(f"{static}: {len(ours)} {kind} workers of the site's plugin (expected 1)")
        names[kind] = ours[0].name
    config = {"static": STATIC.as_posix(), **names, "options": load_pyodide_options}
    add_page_settings(out, "prewarm", config)
    # ...and from the plugin, when it activates, if no page did (a page of another app).
    edit_config(out, lambda data: data.setdefault("litePluginSettings", {}).update(
        {f"{NAME}:kernel": {"startEarly": True}}))
    return config
