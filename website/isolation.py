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
control; from then on every visit is isolated from the start. Where service workers are
unavailable (plain http from another machine, some private windows) the page stays as it was:
everything works except Interrupt, and docs/site.md says what to do.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from .pages import add_to_pages, edit_config

SOURCE = Path(__file__).resolve().parent / "service-worker.js"
WORKER = "agent-team-service-worker.js"
PLUGIN = "@agent-team/site-extension:service-worker"
REPLACED = "@jupyterlite/application-extension:service-worker-manager"

# The notebook pages, first thing. Registers the worker with the URL the plugin uses (and marks
# its version as installed, so that JupyterLite does not unregister it as stale), then reloads
# once it controls the page, at the address it was opened with (JupyterLab may have dropped
# `?path=` from it by then). Once per tab session: no reload loop if isolation still fails.
PAGE_SCRIPT = (
    '\n    <script>/* agent_team: cross-origin isolation for Kernel -> Interrupt (website/isolation.py) */'
    'if(!self.crossOriginIsolated&&self.isSecureContext&&navigator.serviceWorker'
    '&&!sessionStorage.getItem("agentTeamIsolating"))try{'
    'sessionStorage.setItem("agentTeamIsolating","1");globalThis.__agentTeamReloading=true;'
    'let s=navigator.serviceWorker,w=new URL("../' + WORKER + '?enableCache=false",location.href).href,'
    'here=location.href,reload=()=>location.replace(here);'
    'localStorage.setItem(w+"-version","{version}");'
    's.addEventListener("controllerchange",reload);'
    's.register(w).then(()=>s.ready).then(g=>{if(s.controller&&g.active&&s.controller.scriptURL===w)reload()})'
    '.catch(e=>{console.warn("no cross-origin isolation",e);globalThis.__agentTeamReloading=false})'
    '}catch(e){console.warn("no cross-origin isolation",e);globalThis.__agentTeamReloading=false}'
    'else if(self.crossOriginIsolated)sessionStorage.removeItem("agentTeamIsolating")</script>')


def patch(out: Path, app_version: str) -> None:
    """The site's service worker, in the built site `out` (after prewarm.patch)."""
    shutil.copy2(SOURCE, out / WORKER)

    def use_the_sites_worker(data):
        data["disabledExtensions"] = [REPLACED if p == PLUGIN else p for p in data["disabledExtensions"]]
        data.setdefault("litePluginSettings", {})[PLUGIN] = {"workerUrl": WORKER}

    edit_config(out, use_the_sites_worker)
    add_to_pages(out, PAGE_SCRIPT.replace("{version}", app_version))
