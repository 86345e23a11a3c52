"""Cross-origin isolation without server headers, from JupyterLite's own service worker.

Kernel -> Interrupt needs a SharedArrayBuffer (site/kernel_worker.py), which browsers give only
to a cross-origin isolated page: one served with `Cross-Origin-Opener-Policy: same-origin` and
`Cross-Origin-Embedder-Policy: require-corp`. Static hosts such as GitHub Pages cannot send
headers, so the site's service worker (JupyterLite's, which controls every page of the site)
adds them to the pages and worker scripts it passes through. A page is isolated only if it was
loaded through the worker, so on the very first visit (no worker yet) the notebook page
registers it, exactly as JupyterLite would, and reloads itself once it is in control; from then
on every visit is isolated from the start. Where service workers are unavailable (plain http
from another machine, some private windows) the page stays as it was: everything works except
Interrupt, and README says what to do.

Also: JupyterLite's worker answers every GET of the site by fetching it itself when its cache is
off (the default): pure overhead, and on a busy 2-core machine its thread was seen to hold back
the kernel's wheel downloads for seconds. It now lets the browser fetch those directly; it still
serves what it is for (/api/drive, /api/stdin: the kernel's files and input()).
"""

from __future__ import annotations

from pathlib import Path

from patching import add_to_pages, once

SW_FROM = 'function shouldDrop(e,t){return"GET"!==e.method||'
SW_TO = 'function shouldDrop(e,t){return!enableCache||"GET"!==e.method||'
# Runs before JupyterLite's own fetch listener: pages and worker scripts of this origin get the
# two headers (an opaque redirect, status 0, must pass unchanged).
SW_ISOLATE = (
    '/* agent_team: cross-origin isolation for hosts that cannot send headers (site/isolation.py) */\n'
    'self.addEventListener("fetch",e=>{let r=e.request;'
    'if(r.method!=="GET"||!(r.mode==="navigate"||r.destination==="worker")'
    '||new URL(r.url).origin!==location.origin)return;'
    'e.stopImmediatePropagation();'
    'e.respondWith(fetch(r).then(s=>{if(!s.status)return s;let h=new Headers(s.headers);'
    'h.set("Cross-Origin-Opener-Policy","same-origin");h.set("Cross-Origin-Embedder-Policy","require-corp");'
    'return new Response(s.body,{status:s.status,statusText:s.statusText,headers:h})}))});\n')

# The notebook pages, first thing. Registers the worker with the URL JupyterLite uses (and marks
# its version as installed, so that JupyterLite does not unregister it as stale), then reloads
# once it controls the page, at the address it was opened with (JupyterLab may have dropped
# `?path=` from it by then). Once per tab session: no reload loop if isolation still fails.
PAGE_SCRIPT = (
    '\n    <script>/* agent_team: cross-origin isolation for Kernel -> Interrupt (site/isolation.py) */'
    'if(!self.crossOriginIsolated&&self.isSecureContext&&navigator.serviceWorker'
    '&&!sessionStorage.getItem("agentTeamIsolating"))try{'
    'sessionStorage.setItem("agentTeamIsolating","1");globalThis.__agentTeamReloading=true;'
    'let s=navigator.serviceWorker,w=new URL("../service-worker.js?enableCache=false",location.href).href,'
    'here=location.href,reload=()=>location.replace(here);'
    'localStorage.setItem(w+"-version","{version}");'
    's.addEventListener("controllerchange",reload);'
    's.register(w).then(()=>s.ready).then(g=>{if(s.controller&&g.active&&s.controller.scriptURL===w)reload()})'
    '.catch(e=>{console.warn("no cross-origin isolation",e);globalThis.__agentTeamReloading=false})'
    '}catch(e){console.warn("no cross-origin isolation",e);globalThis.__agentTeamReloading=false}'
    'else if(self.crossOriginIsolated)sessionStorage.removeItem("agentTeamIsolating")</script>')


def patch(out: Path, app_version: str) -> None:
    """Isolation and direct static fetches, in the built site `out` (after kernel_worker.patch)."""
    sw = out / "service-worker.js"
    once(sw, SW_FROM, SW_TO)
    sw.write_text(SW_ISOLATE + sw.read_text())
    add_to_pages(out, PAGE_SCRIPT.replace("{version}", app_version))
