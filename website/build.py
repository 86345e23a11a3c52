"""Build the course as a fully offline JupyterLite site: `make site` runs `python -m website.build`.

Always a clean build (an incremental `jupyter lite build` was seen to drop the local `pyodideUrl`):
_output/ and build/site/lite/ are deleted first. Steps:

1. build the `agent_team` wheel from this repository (`python -m build --wheel`);
2. fetch the pinned wheels of website/wheels.txt (cached in build/site/wheels, checked by sha256);
3. byte-compile those wheels for Pyodide 3.14 inside Pyodide itself (website/pycompile.mjs), as
   Pyodide's own builds do, so the kernel does not compile IPython & co. at every start;
4. make build/site/lite/static/pyodide: the npm Pyodide core plus those wheels, with a
   pyodide-lock.json cut down to the shipped packages whose sha256 match the shipped files,
   and entries added for what the kernel and the notebooks import (piplite, the kernel's
   ipykernel/pyodide-kernel/widgetsnbextension shims, comm, ipywidgets, jupyterlab_widgets,
   agent_team): the kernel preloads them all while Pyodide boots (`loadPyodideOptions.packages`),
   so `import agent_team` and `import ipywidgets` just work, with no install cell;
5. build the site's own JupyterLite plugin (website/extension, with JupyterLab's extension builder):
   the Python kernel, started early, interruptible, answering comm_info_request (website/prewarm.py);
6. `jupyter lite build` with only the front-end extensions the course needs (the site's plugin,
   the Pyodide kernel's extension, whose kernel plugin the site's replaces and whose files it
   uses, and the widget manager, from their pinned wheels), the notebooks as contents
   (as a Jupyter server would hand them over: lines joined, trusted; website/contents.py) and the
   widget wheels in the piplite index;
7. the start-up levers (website/levers.py; `--without` leaves some out): the notebook pages start
   the kernel's worker before JupyterLab loads (website/prewarm.py); a return visit restores the
   kernel's memory snapshot (website/snapshot.py); the site's service worker (JupyterLite's, with
   listeners in front) isolates the pages (COOP/COEP) and keeps the site's files for a visit with
   the server out of reach (website/isolation.py, website/offline.py);
8. the learner's work (website/mywork.py): the published notebooks' versions and the home page's
   "my work" module (download, import, a newer published notebook) in mywork/; the model in the
   tab's runtime in intab/, fetched only when a learner makes a model (website/intab.py);
9. the course's home page at the site's root, in place of JupyterLite's redirect to lab/
   (website/home.py), with the recap sheet and the instructors' page beside it;
10. the list of the site's files for its service worker, which keeps them for a visit with the
    server out of reach (website/offline.py; with the service-worker lever only);
11. check the output (website/check.py): local pyodideUrl, lock hashes, no request to another origin.
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
from email.parser import HeaderParser
from pathlib import Path

from packaging.requirements import Requirement

from . import check, contents, home, intab, isolation, levers, mywork, offline, prewarm, wheels
from .wheels import norm

HERE = Path(__file__).resolve().parent
ROOT = wheels.ROOT
WORK = ROOT / "build" / "site"
LITE = WORK / "lite"
DIST = WORK / "dist"
KERNEL_PLUGIN = check.KERNEL_PLUGIN
PYODIDE_CORE = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"]
# Wheels the site ships (normalized names from website/wheels.txt); the rest are test-only.
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
        meta = HeaderParser().parsestr(zf.read(meta_name).decode())  # METADATA is email headers
        tops = sorted({n.split("/")[0] for n in zf.namelist()
                       if "/" in n and not n.split("/")[0].endswith((".dist-info", ".data"))})
    # A requirement with a marker (an extra, another platform or Python) is not one the site needs.
    requires = [r.name for r in map(Requirement, meta.get_all("Requires-Dist") or []) if r.marker is None]
    return meta["Name"] or "", meta["Version"] or "", requires, tops


def compiled(wheel_files: list[Path], keep_source: bool = False) -> list[Path]:
    """The wheels byte-compiled by website/pycompile.mjs (cached by the source wheel's sha256)."""
    cache = WORK / "compiled"
    recipe = sha256(HERE / "pycompile.mjs")[:8]  # a changed recipe recompiles everything
    out, todo = [], []
    for whl in wheel_files:
        dest = cache / f"{sha256(whl)[:16]}-{recipe}{'-src' if keep_source else ''}" / whl.name
        out.append(dest)
        if not dest.exists():
            todo.append((whl, dest))
    if todo:
        tmp = cache / "tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        run(["node", HERE / "pycompile.mjs", tmp, *(["--keep-source"] if keep_source else []),
             *[w for w, _ in todo]])
        for whl, dest in todo:
            dest.parent.mkdir(parents=True, exist_ok=True)
            (tmp / whl.name).rename(dest)
    return out


def build_agent_team() -> Path:
    shutil.rmtree(DIST, ignore_errors=True)
    # setuptools stages the wheel in build/lib and keeps what it finds there: a module since moved
    # or deleted from src/ would still ship (seen after the runners moved to agent_team/runners/).
    for staged in [*(ROOT / "build").glob("lib*"), *(ROOT / "build").glob("bdist.*")]:
        shutil.rmtree(staged, ignore_errors=True)
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
        missing = [d for d in entry["depends"] if norm(d) not in keys]
        if missing:
            sys.exit(f"{key} depends on {missing[0]}, which the site does not ship")
    lock["packages"] = dict(sorted(new.items()))
    (dest / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n")
    return lock


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--output", type=Path, default=ROOT / "_output")
    ap.add_argument("--extra-contents", type=Path, action="append", default=[],
                    help="another folder of notebooks to ship (the browser tests add theirs)")
    ap.add_argument("--without", type=levers.parse, default=frozenset(), metavar="LEVER[,LEVER]",
                    help=f"leave these start-up levers out (the benchmark's variants): {', '.join(levers.LEVERS)}")
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
    folders = [(ROOT / c).resolve() for c in build_cfg.get("contents", [])] + [p.resolve() for p in args.extra_contents]
    build_cfg["contents"] = [str(p) for p in contents.stage(folders, WORK / "contents")]
    build_cfg["output_dir"] = str(out)
    build_cfg["federated_extensions"] = [str(fetched["jupyterlab-widgets"]), str(ext),
                                         str(prewarm.build_extension())]
    config.setdefault("PipliteAddon", {})["piplite_urls"] = [
        str(site_wheels[n]) for n in PIPLITE_WHEELS] + [str(agent_team)]
    (LITE / "jupyter_lite_config.json").write_text(json.dumps(config, indent=2))

    lite_json = json.loads((HERE / "jupyter-lite.json").read_text())
    settings = lite_json["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
    settings["loadPyodideOptions"]["packages"] = PRELOAD
    # The site's plugin registers the kernel instead (reading the same settings): website/prewarm.py;
    # its service worker manager is off unless website/isolation.py turns it on.
    lite_json["jupyter-config-data"]["disabledExtensions"] = [KERNEL_PLUGIN, isolation.PLUGIN]
    (LITE / "jupyter-lite.json").write_text(json.dumps(lite_json, indent=2))
    for name in ("overrides.json",):
        if (HERE / name).exists():
            shutil.copy2(HERE / name, LITE / name)

    run([Path(sys.executable).parent / "jupyter", "lite", "build", "--lite-dir", LITE,
         "--output-dir", out], cwd=LITE)
    page_settings = levers.apply(out, settings["loadPyodideOptions"], without=args.without)
    mywork.apply(out)
    intab.apply(out)
    home.publish(out, ROOT, page_settings)
    if "isolation" in page_settings:
        offline.patch(out)  # last: it lists every file the site has
    check.check_site(out, preload=PRELOAD)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"site built in {time.monotonic() - t0:.0f} s: {out} ({size / 1e6:.1f} MB, "
          f"{len(lock['packages'])} packages in the lock)")


if __name__ == "__main__":
    main()
