"""The start-up levers: the last steps of the build, each a patch of the built site that makes the
course start sooner. `python -m website.build --without LEVER[,LEVER]` leaves some out, so the
start-up benchmark (`make bench`, bench/variants.py) can show what each one buys.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from . import isolation, prewarm, snapshot

# In the order they are applied (see apply), with what each one does.
LEVERS = {
    "prewarm": "the kernel's worker boots Pyodide while JupyterLab loads (the pages' script, and the "
               "site plugin's start at activation); without it the kernel starts its worker when created",
    "snapshot": "a return visit restores the kernel's memory snapshot taken on the first "
                "(website/snapshot.py)",
    "service-worker": "the site's service worker isolates the pages (COOP/COEP) and keeps the site's files "
                      "for a visit with the server out of reach (website/offline.py); without it, "
                      "JupyterLite's own worker, no Interrupt and no offline return",
}


def parse(text: str) -> frozenset[str]:
    """The levers named in a comma-separated list (argparse's `type` for --without)."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in LEVERS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"no lever {', '.join(map(repr, unknown))}: the levers are {', '.join(LEVERS)}")
    return frozenset(names)


def apply(out: Path, load_pyodide_options: dict, without: frozenset[str] = frozenset()) -> dict:
    """Patch the built site `out` with every lever but those `without`; returns the page settings
    of those applied ({"prewarm": ..., "isolation": ...}), which the home page uses too."""
    unknown = set(without) - set(LEVERS)
    if unknown:
        raise ValueError(f"no lever {', '.join(sorted(unknown))}: the levers are {', '.join(LEVERS)}")
    settings = {}
    if "prewarm" not in without:
        settings["prewarm"] = prewarm.patch(out, load_pyodide_options)
    if "snapshot" not in without:
        snapshot.patch(out, load_pyodide_options)
    if "service-worker" not in without:
        # after prewarm, so that its page script comes first: a page about to reload starts no worker
        app_version = json.loads((out / "jupyter-lite.json").read_text())["jupyter-config-data"]["appVersion"]
        settings["isolation"] = isolation.patch(out, app_version)
    return settings
