"""A return visit with the server out of reach: the list of the site's files its service worker keeps.

The site's service worker (website/service-worker.js, copied by website/isolation.py) keeps every
file of the site a page or the kernel asks for in Cache Storage, and serves the kept copy when the
server cannot be reached. It must know two things only the build knows, written into it here as
one line (`const SITE = ...`) once every other step has written its files:

- `files`: every file of the built site, relative to its root. Only those are kept (never a 404,
  a snapshot URL or a file of another app on the same host), and when a build with other files is
  installed the worker deletes what the new one no longer has;
- `immutable`: the files whose name carries a hash of their content (JupyterLab's chunks, the
  site plugin's files: `1031.b91a70b.js`, `remoteEntry.8d38133a26792f58.js`): the worker serves a
  kept one without asking the server. Everything else it asks the server for first.

The list changes the worker's bytes whenever the site's files change, which is what makes the
browser install it again (and prune); a rebuild that changes only a file's content (the course's
wheel, a notebook) needs no new worker: those files are asked for first anyway.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from .isolation import WORKER

LINE = "const SITE = { files: [], immutable: [] };"
# JupyterLab's chunk names, `[name].[contenthash:7].js` (its rspack config), and the extension
# builder's (`[name].[contenthash].js`); only in the folders those builders write.
HASHED = re.compile(r"\.[0-9a-f]{7,20}\.m?js$")
BUILT_BY_BUNDLERS = ("build/", "extensions/")


def manifest(out: Path) -> dict:
    """The built site `out`'s files and, among them, those named by their content's hash."""
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    immutable = [f for f in files if f.startswith(BUILT_BY_BUNDLERS) and HASHED.search(f)]
    return {"files": files, "immutable": immutable}


def written(worker_source: str, site: dict) -> str:
    """The service worker's source with `site` (manifest's form) in it."""
    if worker_source.count(LINE) != 1:
        sys.exit(f"{worker_source.count(LINE)} lines {LINE!r} in the service worker (expected 1): "
                 "website/service-worker.js changed?")
    return worker_source.replace(LINE, f"const SITE = {json.dumps(site, separators=(',', ':'))};")


def patch(out: Path) -> dict:
    """Write the manifest into the built site's service worker; returns it."""
    site = manifest(out)
    worker = out / WORKER
    worker.write_text(written(worker.read_text(), site))
    return site
