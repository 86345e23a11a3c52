"""Cross-origin isolation without server headers, from the site's own service worker.

Kernel -> Interrupt needs a SharedArrayBuffer (website/extension/src/kernel.ts), which browsers give
only to a cross-origin isolated page: one served with `Cross-Origin-Opener-Policy: same-origin`
and `Cross-Origin-Embedder-Policy: require-corp`. Static hosts such as GitHub Pages cannot send
headers, so the site's service worker (website/service-worker.js: JupyterLite's own, imported
unchanged, behind a listener of the site's) adds them to the pages and worker scripts it passes
through. The site's plugin registers it in place of JupyterLite's worker
(`@agent-team/site-extension:service-worker` replaces JupyterLite's service worker manager;
without this step the site keeps JupyterLite's).

A page is isolated only if it was loaded through the worker, so on the very first visit (no
worker yet) the notebook page registers it, as the plugin would, and reloads itself once it is in
control (website/extension/src/page/isolation.ts, in the page script website/prewarm.py puts into the
pages; this module gives it its settings); from then on every visit is isolated from the start.
Where service workers are unavailable (plain http from another machine, some private windows) the
page stays as it was: everything works except Interrupt, and the page says so in one line
(docs/kernel-start.md).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from .pages import add_page_settings, edit_config

SOURCE = Path(__file__).resolve().parent / "service-worker.js"
WORKER = "agent-team-service-worker.js"
# The isolated runner's script, which that worker serves with its content security policy.
RUNNER_SOURCE = SOURCE.parent / "runner-worker.js"
RUNNER = "agent-team-runner.js"
PLUGIN = "@agent-team/site-extension:service-worker"
REPLACED = "@jupyterlite/application-extension:service-worker-manager"


def patch(out: Path, app_version: str) -> dict:
    """The site's service worker, in the built site `out` (after prewarm.patch); returns the
    pages' settings (the home page registers the same worker: website/home.py)."""
    shutil.copy2(SOURCE, out / WORKER)
    shutil.copy2(RUNNER_SOURCE, out / RUNNER)

    def use_the_sites_worker(data):
        data["disabledExtensions"] = [REPLACED if p == PLUGIN else p for p in data["disabledExtensions"]]
        data.setdefault("litePluginSettings", {})[PLUGIN] = {"workerUrl": WORKER}

    edit_config(out, use_the_sites_worker)
    # Its settings for the page script, which runs after them (a script added later comes first).
    settings = {"worker": WORKER, "version": app_version}
    add_page_settings(out, "isolation", settings)
    return settings
