"""Build the course as a fully offline JupyterLite site: `make site` runs `python site/build.py`.

Always a clean build (an incremental `jupyter lite build` was seen to drop the local `pyodideUrl`):
_output/ and build/site/lite/ are deleted first. Steps:

1. build the `agent_team` wheel from this repository (`python -m build --wheel`);
2. fetch the pinned wheels of site/wheels.txt (cached in build/site/wheels, checked by sha256);
3. byte-compile those wheels for Pyodide 3.14 inside Pyodide itself (site/pycompile.mjs), as
   Pyodide's own builds do, so the kernel does not compile IPython & co. at every start;
4. make build/site/lite/static/pyodide: the npm Pyodide core plus those wheels, with a
   pyodide-lock.json cut down to the shipped packages whose sha256 match the shipped files,
   and entries added for what the kernel and the notebooks import (piplite, the kernel's
   ipykernel/pyodide-kernel/widgetsnbextension shims, comm, ipywidgets, jupyterlab_widgets,
   agent_team): the kernel preloads them all while Pyodide boots (`loadPyodideOptions.packages`),
   so `import agent_team` and `import ipywidgets` just work, with no install cell;
5. `jupyter lite build` with only the two front-end extensions the course needs (the Pyodide
   kernel and the widget manager, taken from their pinned wheels), the notebooks as contents and
   the widget wheels in the piplite index;
6. patch the service worker so it stops proxying every static file (see SW_FROM), and the
   kernel extension so Pyodide boots while JupyterLab loads (see patch_prewarm);
7. check the output (site/check.py): local pyodideUrl, lock hashes, no request to another origin.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import check  # noqa: E402
import wheels  # noqa: E402
from wheels import norm  # noqa: E402

ROOT = wheels.ROOT
WORK = ROOT / "build" / "site"
LITE = WORK / "lite"
DIST = WORK / "dist"
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
PYODIDE_CORE = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"]
# Wheels the site ships (normalized names from site/wheels.txt); the rest are test-only.
SITE_WHEELS = [
    "asttokens", "comm", "decorator", "executing", "ipython", "ipywidgets", "jedi",
    "jupyterlab-widgets", "matplotlib-inline", "micropip", "packaging", "parso", "prompt-toolkit",
    "pure-eval", "pygments", "six", "stack-data", "traitlets", "wcwidth",
]
# Also listed in the piplite index (so `%pip install ipywidgets` finds them locally).
PIPLITE_WHEELS = ["comm", "ipywidgets", "jupyterlab-widgets"]
# What the kernel loads while Pyodide boots. The kernel skips its own piplite installs of any
# name listed here (it checks these exact names).
PRELOAD = [
    "micropip", "piplite", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython",
    "ipywidgets", "agent_team",
]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(cmd: list[str], **kw) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, **kw)


def wheel_meta(path: Path) -> tuple[str, str, list[str], list[str]]:
    """(name, version, requirement names without extras/markers, top-level import names)."""
    with zipfile.ZipFile(path) as zf:
        meta_name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        meta = zf.read(meta_name).decode()
        tops = sorted({n.split("/")[0] for n in zf.namelist()
                       if "/" in n and not n.split("/")[0].endswith((".dist-info", ".data"))})
    name = version = ""
    requires = []
    for line in meta.splitlines():
        if not line.strip():
            break
        key, _, value = line.partition(": ")
        if key == "Name":
            name = value
        elif key == "Version":
            version = value
        elif key == "Requires-Dist" and ";" not in value:
            req = value.split("[")[0].split("(")[0]
            for op in "<>=!~ ":
                req = req.split(op)[0]
            requires.append(req.strip())
    return name, version, requires, tops


def compiled(wheel_files: list[Path], keep_source: bool = False) -> list[Path]:
    """The wheels byte-compiled by site/pycompile.mjs (cached by the source wheel's sha256)."""
    cache = WORK / "compiled"
    recipe = sha256(ROOT / "site" / "pycompile.mjs")[:8]  # a changed recipe recompiles everything
    out, todo = [], []
    for whl in wheel_files:
        dest = cache / f"{sha256(whl)[:16]}-{recipe}{'-src' if keep_source else ''}" / whl.name
        out.append(dest)
        if not dest.exists():
            todo.append((whl, dest))
    if todo:
        tmp = cache / "tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        run(["node", ROOT / "site" / "pycompile.mjs", tmp, *(["--keep-source"] if keep_source else []),
             *[w for w, _ in todo]])
        for whl, dest in todo:
            dest.parent.mkdir(parents=True, exist_ok=True)
            (tmp / whl.name).rename(dest)
    return out


def build_agent_team() -> Path:
    shutil.rmtree(DIST, ignore_errors=True)
    run([sys.executable, "-m", "build", "--wheel", "--outdir", DIST, ROOT])
    (whl,) = DIST.glob("agent_team-*.whl")
    return whl


def kernel_extension_dir() -> Path:
    """The pinned jupyterlite-pyodide-kernel's labextension (in .venv): front end plus shims."""
    ext = Path(sys.prefix) / "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension"
    if not (ext / "package.json").exists():
        sys.exit(f"{ext} missing: install requirements-site.txt")
    return ext


def make_pyodide_dir(dest: Path, site_wheels: dict[str, Path], extra: list[Path]) -> dict:
    """Pyodide core + wheels + a lock listing exactly those wheels, hashes of the shipped bytes."""
    lock = wheels.load_lock()
    pkgs = lock["packages"]
    by_norm = {norm(k): k for k in pkgs}
    dest.mkdir(parents=True)
    for name in PYODIDE_CORE:
        shutil.copy2(wheels.NPM_PYODIDE / name, dest / name)
    new = {}
    for n, path in site_wheels.items():
        entry = dict(pkgs[by_norm[n]]) if n in by_norm else None
        shutil.copy2(path, dest / path.name)
        if entry is not None:
            if entry["file_name"] != path.name:
                sys.exit(f"lock names {entry['file_name']}, pinned wheel is {path.name}")
            entry["sha256"] = sha256(path)
            entry["unvendored_tests"] = False
            new[by_norm[n]] = entry
        else:
            extra.append(path)
    for path in extra:
        name, version, requires, tops = wheel_meta(path)
        if not (dest / path.name).exists():
            shutil.copy2(path, dest / path.name)
        new[norm(name)] = {
            "name": name, "version": version, "file_name": path.name, "install_dir": "site",
            "sha256": sha256(path), "package_type": "package", "imports": tops,
            "depends": [norm(r) for r in requires], "unvendored_tests": False,
        }
    # Every dependency must be shipped: lock keys are normalized names or lock names.
    keys = {norm(k) for k in new}
    for key, entry in new.items():
        entry["depends"] = [d for d in entry["depends"] if norm(d) in keys or _missing(key, d)]
    lock["packages"] = dict(sorted(new.items()))
    (dest / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n")
    return lock


def _missing(key: str, dep: str) -> bool:
    sys.exit(f"{key} depends on {dep}, which the site does not ship")


# JupyterLite's service worker answers every GET of the site by fetching it itself when its
# cache is off (the default): pure overhead, and on a busy 2-core machine its thread was seen to
# hold back the kernel's wheel downloads for seconds. Let the browser fetch those directly; the
# worker still serves what it is for (/api/drive, /api/stdin: the kernel's files and input()).
SW_FROM = 'function shouldDrop(e,t){return"GET"!==e.method||'
SW_TO = 'function shouldDrop(e,t){return!enableCache||"GET"!==e.method||'


def patch_service_worker(out: Path) -> None:
    sw = out / "service-worker.js"
    text = sw.read_text()
    if text.count(SW_FROM) != 1:
        sys.exit(f"{sw}: the code to patch has changed (jupyterlite-core upgrade?): see SW_FROM")
    sw.write_text(text.replace(SW_FROM, SW_TO))


# Start Pyodide while JupyterLab is still loading. As shipped, the kernel's worker is created
# only once the notebook is open and its session started (~5 s into a cold load here), and boots
# Pyodide only then. Three small patches of the kernel extension's bundles (each must match
# exactly once, or the build stops) make the extension, as soon as it is activated, create the
# worker and ask it to boot Pyodide with the site's settings; the first kernel then takes that
# worker, whose initRuntime awaits the Pyodide already booting instead of starting another; the
# worker also imports piplite and pyodide_kernel (IPython & co.) right after the boot.
KERNEL_EXT = Path("extensions/@jupyterlite/pyodide-kernel-extension/static")
PREWARM_PLUGIN_FROM = ('u=a.loadPyodideOptions||{};for(let[e,t]of Object.entries(u))e.endsWith("URL")'
                       '&&"string"==typeof t&&(u[e]=new URL(t,p).href);')
PREWARM_PLUGIN_ADD = (
    'if(!crossOriginIsolated&&!globalThis.__agentTeamWorker)try{'
    'let w=new Worker(new URL("{worker}",new URL("extensions/@jupyterlite/pyodide-kernel-extension/static/",'
    'new URL(p,location.href))),{type:"module"});'
    'w.postMessage({__agentTeamPrewarm:{pyodideUrl:g,indexUrl:g.slice(0,g.lastIndexOf("/")+1),'
    'loadPyodideOptions:u}});globalThis.__agentTeamWorker=w}catch(e){console.warn("no prewarm",e)}')
PREWARM_KERNEL_FROM = 'initWorker(e){let t=e=>new Worker(e,{type:"module"});'
PREWARM_KERNEL_TO = ('initWorker(e){let t=e=>{let w=globalThis.__agentTeamWorker;'
                     'if(w){globalThis.__agentTeamWorker=null;return w}return new Worker(e,{type:"module"})};')
PREWARM_WORKER_ADD = (
    # globalThis.__agentTeamTimes: when each stage ended (Date.now()), read by bench/bench.py
    'self.addEventListener("message",e=>{let p=e.data&&e.data.__agentTeamPrewarm;'
    'if(p&&!globalThis.__agentTeamPyodide){let T=globalThis.__agentTeamTimes={start:Date.now()};'
    'globalThis.__agentTeamPyodide=import(p.pyodideUrl)'
    '.then(m=>m.loadPyodide({indexURL:p.indexUrl,...p.loadPyodideOptions}))'
    # the kernel's own first imports (it imports them again later: then a no-op)
    '.then(async py=>{T.booted=Date.now();await py.runPythonAsync("import piplite.piplite\\nimport pyodide_kernel");'
    'T.imported=Date.now();return py});'
    'globalThis.__agentTeamPyodide.catch(()=>{});e.stopImmediatePropagation()}});\n')
PREWARM_WORKER_FROM = 'this._pyodide=await n({indexURL:s,'
PREWARM_WORKER_TO = 'this._pyodide=await(globalThis.__agentTeamPyodide?()=>globalThis.__agentTeamPyodide:n)({indexURL:s,'


# The same request, made by the notebook pages themselves before the JupyterLab bundle loads
# (~1.5 s earlier than the extension can); the extension then finds the worker already there.
PREWARM_PAGES = ("lab", "notebooks")
PREWARM_PAGE_AFTER = '<meta charset="utf-8">'
PREWARM_PAGE_SCRIPT = (
    '\n    <script>/* agent_team: boot Pyodide while JupyterLab loads (site/build.py) */'
    'if(!self.crossOriginIsolated&&!globalThis.__agentTeamWorker&&typeof Worker!=="undefined")try{'
    'let r=new URL("../",location.href),u=new URL("static/pyodide/pyodide.mjs",r).href,'
    'w=new Worker(new URL("extensions/@jupyterlite/pyodide-kernel-extension/static/{worker}",r),{type:"module"});'
    'w.postMessage({__agentTeamPrewarm:{pyodideUrl:u,indexUrl:u.slice(0,u.lastIndexOf("/")+1),'
    'loadPyodideOptions:{options}}});globalThis.__agentTeamWorker=w}catch(e){console.warn("no prewarm",e)}'
    '</script>')


def _patch_once(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    if text.count(old) != 1:
        sys.exit(f"{path}: the code to patch has changed (jupyterlite-pyodide-kernel upgrade?)")
    path.write_text(text.replace(old, new))


def patch_prewarm(out: Path, load_pyodide_options: dict) -> None:
    static = out / KERNEL_EXT
    (worker,) = static.glob("comlink.worker.*.js")
    plugin = next(p for p in static.glob("*.js") if PREWARM_PLUGIN_FROM in p.read_text())
    kernel = next(p for p in static.glob("*.js") if PREWARM_KERNEL_FROM in p.read_text())
    _patch_once(plugin, PREWARM_PLUGIN_FROM,
                PREWARM_PLUGIN_FROM + PREWARM_PLUGIN_ADD.replace("{worker}", worker.name))
    _patch_once(kernel, PREWARM_KERNEL_FROM, PREWARM_KERNEL_TO)
    _patch_once(worker, PREWARM_WORKER_FROM, PREWARM_WORKER_TO)
    worker.write_text(PREWARM_WORKER_ADD + worker.read_text())
    script = PREWARM_PAGE_SCRIPT.replace("{worker}", worker.name).replace(
        "{options}", json.dumps(load_pyodide_options, separators=(",", ":")))
    for app in PREWARM_PAGES:
        _patch_once(out / app / "index.html", PREWARM_PAGE_AFTER, PREWARM_PAGE_AFTER + script)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--output", type=Path, default=ROOT / "_output")
    ap.add_argument("--extra-contents", type=Path, action="append", default=[],
                    help="another folder of notebooks to ship (the browser tests add theirs)")
    args = ap.parse_args()
    out = args.output.resolve()
    t0 = time.monotonic()
    for d in (out, LITE):
        shutil.rmtree(d, ignore_errors=True)
    LITE.mkdir(parents=True)

    agent_team = build_agent_team()
    fetched = wheels.fetch()
    ext = kernel_extension_dir()
    pypi = ext / "static" / "pypi"
    shim_files = [next(pypi.glob(g)) for g in
                  ("piplite-*.whl", "ipykernel-*.whl", "pyodide_kernel-*.whl", "widgetsnbextension-4.*.whl")]
    # Byte-compiled for Pyodide: the kernel no longer compiles IPython & co. at every start.
    site_wheels = dict(zip(SITE_WHEELS, compiled([fetched[n] for n in SITE_WHEELS])))
    shim_files = compiled(shim_files)
    (agent_team,) = compiled([agent_team], keep_source=True)
    lock = make_pyodide_dir(LITE / "static" / "pyodide", site_wheels, [*shim_files, agent_team])

    config = json.loads((ROOT / "jupyter_lite_config.json").read_text())
    build_cfg = config.setdefault("LiteBuildConfig", {})
    build_cfg["contents"] = [str((ROOT / c).resolve()) for c in build_cfg.get("contents", [])]
    build_cfg["contents"] += [str(p.resolve()) for p in args.extra_contents]
    build_cfg["output_dir"] = str(out)
    build_cfg["federated_extensions"] = [str(fetched["jupyterlab-widgets"]), str(ext)]
    config.setdefault("PipliteAddon", {})["piplite_urls"] = [
        str(site_wheels[n]) for n in PIPLITE_WHEELS] + [str(agent_team)]
    (LITE / "jupyter_lite_config.json").write_text(json.dumps(config, indent=2))

    lite_json = json.loads((ROOT / "site" / "jupyter-lite.json").read_text())
    settings = lite_json["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
    settings["loadPyodideOptions"]["packages"] = PRELOAD
    (LITE / "jupyter-lite.json").write_text(json.dumps(lite_json, indent=2))
    for name in ("overrides.json",):
        if (ROOT / "site" / name).exists():
            shutil.copy2(ROOT / "site" / name, LITE / name)

    run([Path(sys.executable).parent / "jupyter", "lite", "build", "--lite-dir", LITE,
         "--output-dir", out], cwd=LITE)
    patch_service_worker(out)
    patch_prewarm(out, settings["loadPyodideOptions"])
    check.check_site(out, preload=PRELOAD)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"site built in {time.monotonic() - t0:.0f} s: {out} ({size / 1e6:.1f} MB, "
          f"{len(lock['packages'])} packages in the lock)")


if __name__ == "__main__":
    main()
