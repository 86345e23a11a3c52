"""The course's own JupyterLite plugin (website/extension), and the kernel's worker started early.

The plugin is built by JupyterLab's extension builder (`npm run build` in website/extension, into
build/site-extension) and replaces JupyterLite's Pyodide kernel plugin, which the site's
jupyter-lite.json disables: its kernel is the same Pyodide kernel, started early, interruptible
(Kernel -> Interrupt stops a running cell) and answering comm_info_request (saved widgets render
on open). See website/extension/src/kernel.ts.

Prewarm. As shipped, JupyterLite creates the kernel's worker only once the notebook is open and
its session started (~5 s into a cold load here), and the worker boots Pyodide only then. The
plugin starts that worker when it activates; the notebook pages start it even earlier, before
the JupyterLab bundle loads (~1.5 s here), with a script this module puts into them: the same
steps as website/extension/src/worker.ts, for the same worker files. The first kernel takes that
worker, which is booting Pyodide and importing the kernel's packages by then.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from .pages import add_to_pages, edit_config

SOURCE = Path(__file__).resolve().parent / "extension"
BUILT = SOURCE.parents[1] / "build" / "site-extension"
NAME = json.loads((SOURCE / "package.json").read_text())["name"]
STATIC = Path("extensions") / NAME / "static"

# What src/worker.ts's startEarly does. Expects `r` (URL of the site's root), `u` (pyodide.mjs URL)
# and `o` (loadPyodideOptions); {comlink}/{coincident}: the worker files' names.
START_WORKER = (
    'if(!globalThis.__agentTeamWorker&&!globalThis.__agentTeamReloading&&typeof Worker!=="undefined")try{'
    'let i=self.crossOriginIsolated,w=new Worker(new URL("' + STATIC.as_posix()
    + '/"+(i?"{coincident}":"{comlink}"),r),'
    '{type:"module"}),b=i?new Uint8Array(new SharedArrayBuffer(1)):null;'
    'w.postMessage({agentTeamBoot:{by:"page",pyodideUrl:u,indexUrl:u.slice(0,u.lastIndexOf("/")+1),'
    'loadPyodideOptions:o,interrupt:b}});globalThis.__agentTeamWorker={worker:w,interrupt:b}'
    '}catch(e){console.warn("no early start",e)}')

PAGE_SCRIPT = ('\n    <script>/* agent_team: boot Pyodide while JupyterLab loads (website/prewarm.py) */'
               '{let r=new URL("../",location.href),u=new URL("static/pyodide/pyodide.mjs",r).href,'
               'o={options};' + START_WORKER + '}</script>')


def build_extension() -> Path:
    """Build website/extension into build/site-extension (needs `npm ci` at the repository root)."""
    shutil.rmtree(BUILT, ignore_errors=True)
    try:
        subprocess.run(["npm", "run", "build"], cwd=SOURCE, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"building website/extension failed ({e}): run `npm ci` at the repository root first")
    return BUILT


def patch(out: Path, load_pyodide_options: dict) -> None:
    """Start the kernel's worker early in the built site `out`: from its notebook pages..."""
    static = out / STATIC
    names = {}
    for kind in ("comlink", "coincident"):
        ours = [p for p in static.glob(f"{kind}.worker.*.js") if "agentTeamBoot" in p.read_text()]
        if len(ours) != 1:
            sys.exit(f"{static}: {len(ours)} {kind} workers of the site's plugin (expected 1)")
        names[kind] = ours[0].name
    script = PAGE_SCRIPT.replace("{comlink}", names["comlink"]).replace(
        "{coincident}", names["coincident"]).replace(
        "{options}", json.dumps(load_pyodide_options, separators=(",", ":")))
    add_to_pages(out, script)
    # ...and from the plugin, when it activates, if no page did (a page of another app).
    edit_config(out, lambda data: data.setdefault("litePluginSettings", {}).update(
        {f"{NAME}:kernel": {"startEarly": True}}))
