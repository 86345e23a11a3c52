"""Checks run after every site build (and by the tests): `python -m website.check [_output]`.

- the Python kernel is the site's own plugin's (website/extension), JupyterLite's is disabled;
- the kernel's `pyodideUrl` is the site's own ./static/pyodide/pyodide.mjs, PyPI fallback is off,
  the piplite index URLs are relative;
- every package in the shipped pyodide-lock.json is in the site with that sha256, and its
  dependencies are in the lock too;
- no file of the site names a CDN or package index (the places a JupyterLite site reaches by
  default: jsDelivr, unpkg, PyPI, ...), so nothing can be fetched from another origin.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

from .prewarm import NAME as SITE_EXTENSION

KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
LOCAL_PYODIDE = "./static/pyodide/pyodide.mjs"
CDN_HOSTS = [
    "cdn.jsdelivr.net", "unpkg.com", "pypi.org", "files.pythonhosted.org", "cdnjs.cloudflare.com",
    "fonts.googleapis.com", "fonts.gstatic.com", "esm.sh", "cdn.skypack.dev", "raw.githubusercontent.com",
]
CDN_RE = re.compile(r"(?:https?:)?//(?:[a-z0-9-]+\.)*(" + "|".join(map(re.escape, CDN_HOSTS)) + r")\b")
# References that are in the output but never fetched, each with the reason it is safe.
NEVER_FETCHED = [
    (r"cdn\.jsdelivr\.net/pyodide/v[0-9.]+/full/pyodide\.mjs",
     "the kernel's default pyodideUrl, used only when the setting is missing: checked above"),
    (r"pypi\.org/pypi/", "text of the settings schema (disablePyPIFallback is true: checked above)"),
    (r"cdn\.jsdelivr\.net/pyodide/v\$\{",
     "pyodide.mjs: cdnUrl, read only when running under Node.js, never in a browser"),
    (r"cdn\.jsdelivr\.net/npm/@wllama/wllama-compat@",
     "intab/intab.js: wllama's default compat files, replaced before any load by the site's own "
     "(setCompat in website/extension/src/in-tab-engine.ts)"),
    (r"raw\.githubusercontent\.com/ajv-validator/", "a JSON-schema $id (an identifier, not fetched)"),
    (r"raw\.githubusercontent\.com/jupyter-server/", "a link in the text of an API description"),
]
TEXT_SUFFIXES = {".js", ".mjs", ".json", ".html", ".css", ".svg", ".ipynb", ".txt", ".md"}


class SiteError(AssertionError):
    pass


def kernel_settings(site: Path) -> dict:
    cfg = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    return cfg["litePluginSettings"][KERNEL_PLUGIN]


def cdn_references(site: Path) -> list[str]:
    found = []
    for path in sorted(site.rglob("*")):
        if path.is_file() and path.suffix in TEXT_SUFFIXES:
            text = path.read_text(errors="replace")
            for m in CDN_RE.finditer(text):
                rest = text[m.start(): m.end() + 80]
                if any(re.match(r"(?:https?:)?//" + pat, rest) for pat, _ in NEVER_FETCHED):
                    continue
                snippet = text[max(0, m.start() - 40): m.end() + 40].replace("\n", " ")
                found.append(f"{path.relative_to(site)}: ...{snippet}...")
    return found


def check_site(site: Path, preload: list[str] | None = None) -> None:
    site = Path(site)
    problems = []
    settings = kernel_settings(site)
    cfg = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    if KERNEL_PLUGIN not in cfg.get("disabledExtensions", []):
        problems.append(f"{KERNEL_PLUGIN} is not disabled: two plugins would register the kernel")
    if SITE_EXTENSION not in [e["name"] for e in cfg.get("federated_extensions", [])]:
        problems.append(f"{SITE_EXTENSION} (website/extension) is not among the site's extensions")
    if settings.get("pyodideUrl") != LOCAL_PYODIDE:
        problems.append(f"pyodideUrl is {settings.get('pyodideUrl')!r}, not {LOCAL_PYODIDE!r}")
    if settings.get("disablePyPIFallback") is not True:
        problems.append("disablePyPIFallback is not true")
    for url in settings.get("pipliteUrls", []):
        if "//" in url or not (site / url.split("?")[0]).exists():
            problems.append(f"piplite URL {url!r} is not a file of the site")
    if preload is not None and settings.get("loadPyodideOptions", {}).get("packages") != preload:
        problems.append(f"loadPyodideOptions.packages is not {preload}")

    pyodide = site / "static" / "pyodide"
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"):
        if not (pyodide / name).is_file():
            problems.append(f"static/pyodide/{name} missing")
    lock = json.loads((pyodide / "pyodide-lock.json").read_text())["packages"]
    canon = {re.sub(r"[-_.]+", "-", k).lower() for k in lock}
    for key, entry in lock.items():
        path = pyodide / entry["file_name"]
        if "/" in entry["file_name"] or not path.is_file():
            problems.append(f"lock entry {key}: {entry['file_name']} is not shipped")
        elif hashlib.sha256(path.read_bytes()).hexdigest() != entry["sha256"]:
            problems.append(f"lock entry {key}: sha256 differs from {entry['file_name']}")
        for dep in entry["depends"]:
            if re.sub(r"[-_.]+", "-", dep).lower() not in canon:
                problems.append(f"lock entry {key} depends on {dep}, not in the lock")
    for name in preload or []:
        if re.sub(r"[-_.]+", "-", name).lower() not in canon:
            problems.append(f"preloaded {name} is not in the lock")

    problems += [f"names a CDN: {ref}" for ref in cdn_references(site)]
    if problems:
        raise SiteError("site check failed:\n  " + "\n  ".join(problems))
    print(f"site check: ok ({site}: local Pyodide, {len(lock)} locked packages with matching "
          "sha256, no CDN references)")


if __name__ == "__main__":
    check_site(Path(sys.argv[1] if len(sys.argv) > 1 else "_output"))
