"""The kernel's worker: started early (prewarm) and interruptible (Kernel -> Interrupt).

Prewarm. As shipped, the kernel's worker is created only once the notebook is open and its
session started (~5 s into a cold load here), and boots Pyodide only then. Here the notebook
pages themselves (a script in lab/ and notebooks/index.html) create the worker before the
JupyterLab bundle loads and ask it to boot Pyodide with the site's settings; the kernel
extension does the same at activation if no page did; the first kernel then takes that worker,
whose initRuntime awaits the Pyodide already booting instead of starting another; the worker
also imports piplite and pyodide_kernel (IPython & co.) right after the boot.

Interrupt. JupyterLite's Kernel -> Interrupt only cancels the queued cells; a running one goes
on (jupyterlite/jupyterlite#459). Pyodide stops running Python when another thread writes 2
(SIGINT) into a SharedArrayBuffer registered with `pyodide.setInterruptBuffer`; that needs a
cross-origin isolated page (site/isolation.py). Whoever creates a kernel worker in an isolated
page gives it such a buffer (`worker.__agentTeamInterrupt`); the worker registers it with
Pyodide and clears it before each execution; the kernel client's interrupt writes 2 into it
while the kernel is busy. Python raises KeyboardInterrupt in the running cell and every
variable stays. In an isolated page the kernel uses its coincident worker, elsewhere its comlink
worker: both get the same patches.

Each patch is an exact string (or a pattern) that must match exactly once (site/patching.py).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from patching import add_to_pages, containing, once, sub_once

KERNEL_EXT = Path("extensions/@jupyterlite/pyodide-kernel-extension/static")
WORKERS = {"comlink": "comlink.worker.*.js", "coincident": "coincident.worker.*.js"}

# Start a kernel worker and ask it to boot Pyodide. Expects `r` (URL of the site's root), `u`
# (pyodide.mjs URL) and `o` (loadPyodideOptions). {comlink}/{coincident}: the workers' file names.
START_WORKER = (
    'if(!globalThis.__agentTeamWorker&&!globalThis.__agentTeamReloading&&typeof Worker!=="undefined")try{'
    'let i=self.crossOriginIsolated,w=new Worker(new URL("' + KERNEL_EXT.as_posix() + '/"+(i?"{coincident}":"{comlink}"),r),'
    '{type:"module"}),b=i?new Uint8Array(new SharedArrayBuffer(1)):null;'
    'w.postMessage({__agentTeamPrewarm:{pyodideUrl:u,indexUrl:u.slice(0,u.lastIndexOf("/")+1),'
    'loadPyodideOptions:o,interrupt:b}});w.__agentTeamInterrupt=b;globalThis.__agentTeamWorker=w'
    '}catch(e){console.warn("no prewarm",e)}')

# The notebook pages: before the JupyterLab bundle loads (~1.5 s earlier than the extension can).
PAGE_SCRIPT = ('\n    <script>/* agent_team: boot Pyodide while JupyterLab loads (site/kernel_worker.py) */'
               '{let r=new URL("../",location.href),u=new URL("static/pyodide/pyodide.mjs",r).href,'
               'o={options};' + START_WORKER + '}</script>')

# The kernel extension, at activation (p: base URL, g: pyodide URL, u: loadPyodideOptions).
PLUGIN_FROM = ('u=a.loadPyodideOptions||{};for(let[e,t]of Object.entries(u))e.endsWith("URL")'
               '&&"string"==typeof t&&(u[e]=new URL(t,p).href);')
PLUGIN_ADD = '{let r=new URL(p,location.href),o=u;{let u=g;' + START_WORKER + '}}'

# The kernel takes the prewarmed worker; a new one (a restarted kernel) gets its own buffer.
KERNEL_FROM = 'initWorker(e){let t=e=>new Worker(e,{type:"module"});'
KERNEL_TO = ('initWorker(e){let t=e=>{let w=globalThis.__agentTeamWorker;'
             'if(w){globalThis.__agentTeamWorker=null;return w}w=new Worker(e,{type:"module"});'
             'if(crossOriginIsolated){let b=new Uint8Array(new SharedArrayBuffer(1));'
             'w.postMessage({__agentTeamInterrupt:b});w.__agentTeamInterrupt=b}return w};')

WORKER_ADD = (
    # globalThis.__agentTeamTimes: when each stage ended (Date.now()), read by bench/bench.py
    'self.addEventListener("message",e=>{let d=e.data||{},p=d.__agentTeamPrewarm;'
    'if(d.__agentTeamInterrupt){globalThis.__agentTeamInterrupt=d.__agentTeamInterrupt;e.stopImmediatePropagation()}'
    'if(p&&!globalThis.__agentTeamPyodide){let T=globalThis.__agentTeamTimes={start:Date.now()};'
    'globalThis.__agentTeamInterrupt=p.interrupt;'
    'globalThis.__agentTeamPyodide=import(p.pyodideUrl)'
    '.then(m=>m.loadPyodide({indexURL:p.indexUrl,...p.loadPyodideOptions}))'
    # the kernel's own first imports (it imports them again later: then a no-op)
    '.then(async py=>{T.booted=Date.now();await py.runPythonAsync("import piplite.piplite\\nimport pyodide_kernel");'
    'T.imported=Date.now();return py});'
    'globalThis.__agentTeamPyodide.catch(()=>{});e.stopImmediatePropagation()}});\n'
    # the kernel's loadPyodide: the prewarmed Pyodide if any, with the interrupt buffer registered
    'globalThis.__agentTeamLoad=f=>async o=>{let py=await(globalThis.__agentTeamPyodide||f(o)),'
    'b=globalThis.__agentTeamInterrupt;b&&py.setInterruptBuffer(b);return py};\n')
WORKER_LOAD = re.compile(r"this\._pyodide=await (\w+)\(\{indexURL:")
WORKER_EXECUTE = re.compile(r"async execute\(\w+,\w+\)\{")
CLEAR = "globalThis.__agentTeamInterrupt&&(globalThis.__agentTeamInterrupt[0]=0);"

# coincident 1.2 (the isolated kernel's main <-> worker calls) awaits `Atomics.waitAsync(...).value`,
# which is a string, not a promise, when the worker has already answered: the call then throws
# ("value.then is not a function") and the kernel stays busy for good. Accept both.
WAIT_ASYNC = re.compile(r"(\w+)\((\w+),(\w+)\)\.value\.then\(")
WAIT_ASYNC_TO = r"Promise.resolve(\1(\2,\3).value).then("

# JupyterLite's kernel client: `interrupt(id)` finds the kernel `k` and its message lock `m`.
CLIENT_INTERRUPT = re.compile(r"async interrupt\((\w+)\)\{let (\w+)=this\._kernels\.get\(\1\);"
                              r".{0,200}?await \2\.ready;let (\w+)=this\._mutexMap\.get\(\1\);")
SIGINT = "{{let b={k}._worker&&{k}._worker.__agentTeamInterrupt;b&&{m}&&{m}.isLocked()&&(b[0]=2)}}"


def patch(out: Path, load_pyodide_options: dict) -> None:
    """Prewarm and interrupt, in the built site `out`."""
    static = out / KERNEL_EXT
    names = {}
    for kind, glob in WORKERS.items():
        (worker,) = static.glob(glob)
        names[kind] = worker.name
        sub_once(worker, WORKER_LOAD, r"this._pyodide=await globalThis.__agentTeamLoad(\1)({indexURL:")
        sub_once(worker, WORKER_EXECUTE, lambda m: m.group(0) + CLEAR)
        worker.write_text(WORKER_ADD + worker.read_text())
    start = START_WORKER.replace("{comlink}", names["comlink"]).replace("{coincident}", names["coincident"])
    bundles = [p for p in static.glob("*.js") if ".worker." not in p.name]
    once(containing(bundles, PLUGIN_FROM), PLUGIN_FROM,
         PLUGIN_FROM + PLUGIN_ADD.replace(START_WORKER, start))
    once(containing(bundles, KERNEL_FROM), KERNEL_FROM, KERNEL_TO)
    waits = [p for p in bundles if WAIT_ASYNC.search(p.read_text())]
    if len(waits) != 1 or len(WAIT_ASYNC.findall(waits[0].read_text())) != 2:
        sys.exit(f"coincident's waitAsync calls have changed (jupyterlite-pyodide-kernel upgrade?): {waits}")
    waits[0].write_text(WAIT_ASYNC.sub(WAIT_ASYNC_TO, waits[0].read_text()))
    client = containing(list((out / "build").glob("*.js")), CLIENT_INTERRUPT)
    sub_once(client, CLIENT_INTERRUPT,
             lambda m: m.group(0) + SIGINT.format(k=m.group(2), m=m.group(3)))
    script = PAGE_SCRIPT.replace(START_WORKER, start).replace(
        "{options}", json.dumps(load_pyodide_options, separators=(",", ":")))
    add_to_pages(out, script)
