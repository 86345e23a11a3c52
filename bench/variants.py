"""Build the site with some of its start-up levers switched off, so `make bench` can show what each buys.

    python bench/variants.py NAME --output DIR [build.py options]

NAME is `shipped` (the site as `make site` builds it) or a `+`-joined list of levers to leave out,
e.g. `no-prewarm`, `no-snapshot`, `no-prewarm+no-service-worker+no-snapshot` (= `no-levers`).
A lever is a step of site/build.py, the `patch` function of a site/ module; it is switched
off by replacing that function with a no-op before build.py's main() runs (build.py calls it as
`module.patch(...)`), so build.py itself needs no option for it. A lever whose function is gone
stops the build.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

SITE = Path(__file__).resolve().parents[1] / "site"
LEVERS = {
    # the kernel's worker boots Pyodide while JupyterLab loads (the pages' script, and the site
    # plugin's start at activation); without it the kernel starts its worker when created
    "prewarm": ("prewarm", "patch"),
    # the site's service worker lets the browser fetch static files and isolates the pages
    # (COOP/COEP; without it, JupyterLite's own worker, and no Interrupt)
    "service-worker": ("isolation", "patch"),
    # a return visit restores the kernel's memory snapshot taken on the first (site/snapshot.py)
    "snapshot": ("snapshot", "patch"),
}
ALIASES = {"no-levers": "no-prewarm+no-service-worker+no-snapshot"}


def levers_off(name: str) -> list[str]:
    """The levers a variant name leaves out ([] for `shipped`); a clear error for a typo."""
    name = ALIASES.get(name, name)
    if name == "shipped":
        return []
    off = []
    for part in name.split("+"):
        lever = part.removeprefix("no-")
        if not part.startswith("no-") or lever not in LEVERS:
            sys.exit(f"unknown variant {part!r}: use shipped, no-levers or no-<lever> with a lever in "
                     f"{', '.join(LEVERS)}")
        off.append(lever)
    return off


def switch_off(lever: str) -> None:
    """Make the lever's step a no-op in its site/ module (imported by site/build.py)."""
    module_name, func = LEVERS[lever]
    module = sys.modules.get(module_name)
    if module is None or not hasattr(module, func):
        sys.exit(f"lever {lever!r}: site/{module_name}.py has no {func}() any more: update bench/variants.py")
    setattr(module, func, lambda *args, **kw: None)


def main() -> None:
    name, rest = sys.argv[1], sys.argv[2:]
    off = levers_off(name)
    sys.path.insert(0, str(SITE))
    build = importlib.import_module("build")
    for lever in off:
        switch_off(lever)
    sys.argv = [str(SITE / "build.py"), *rest]
    build.main()


if __name__ == "__main__":
    main()
