"""JupyterLab's on-demand chunks that opening a notebook fetches, for the home page to prefetch.

The lab page names only its entry files (home.prefetch_list); the rest, about a hundred chunks
(some 7 MB), JupyterLab's loader asks for as plugins activate, which no file of the build lists by
notebook. So the list is recorded from a real notebook open (tests/browser/test_offline.py records
it with AGENT_TEAM_RECORD_LAB_FETCHES=1, and otherwise fails when a notebook fetched a chunk the
list lacks, or the list names one it did not fetch) and kept in website/lab-fetches.txt, each
file with its content hash replaced by `*`, so that it outlives a rebuild that changes a chunk's
content but not which chunks load. The build resolves every line to this build's file, and
stops if a line matches none or several (the list has rotted: record it again).

A federated extension's chunks are asked for with their hash as a query (`7.2a0ce57.js?v=2a0ce57`):
a line keeps that query (`?v=*`), and the URL prefetched has it too, so the notebook's own
request finds what the home page fetched.

The site's own plugin (website/extension) is not in the list: a notebook page loads every one of its
chunks, and webpack numbers them anew whenever a module joins the plugin, which rotted the list with
each change to the plugin. Its chunks are taken from the build (`OWN`); the browser test still
compares them with what a notebook asked for.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

LIST = Path(__file__).resolve().parent / "lab-fetches.txt"
OWN = "extensions/@agent-team/site-extension/static"  # the site's own plugin: every chunk of it loads
HASH = re.compile(r"(?<=\.)[0-9a-f]{7,20}(?=\.m?js\b)")
# What the home page's own worker fetches itself (warm.ts), and so is no chunk to prefetch.
NOT_CHUNKS = re.compile(r"\.worker\.|booted-pyodide")


def pattern(url_path: str) -> str | None:
    """A recorded line for a file the notebook page fetched (relative to the site's root, query
    included), or None if it is no JupyterLab chunk with a hash in its name."""
    if not url_path.startswith(("build/", "extensions/")) or NOT_CHUNKS.search(url_path):
        return None
    name, _, query = url_path.partition("?")
    found = HASH.search(name)
    if not found:
        return None
    line = name[:found.start()] + "*" + name[found.end():]
    if query:
        if query != f"v={found.group()}":
            return None  # a query the loader does not add
        line += "?v=*"
    return line


def record(url_paths: list[str]) -> list[str]:
    """Write the list from what a notebook page fetched; returns its lines."""
    lines = sorted({p for p in map(pattern, url_paths) if p and not p.startswith(OWN + "/")})
    LIST.write_text("# JupyterLab's chunks a notebook page fetches (website/labfetch.py: how to record it)\n"
                    + "".join(f"{line}\n" for line in lines))
    return lines


def recorded() -> list[str]:
    return [line for line in LIST.read_text().splitlines() if line and not line.startswith("#")]


def own_chunks(out: Path) -> list[str]:
    """The site's own plugin's chunks in the built site `out`, as a notebook page asks for them."""
    found = []
    for path in sorted((out / OWN).glob("*.js")):
        line = pattern(path.relative_to(out).as_posix())
        if line:  # a chunk with a hash in its name (not a worker, not style.js)
            query = "" if path.name.startswith("remoteEntry.") else f"?v={HASH.search(path.name).group()}"
            found.append(path.relative_to(out).as_posix() + query)
    return found


def chunks(out: Path) -> list[str]:
    """The recorded chunks as the built site `out` names them (relative to its root, with the
    query the loader adds), and the site's own plugin's."""
    resolved = []
    for line in recorded():
        if line.startswith(OWN + "/"):
            sys.exit(f"{LIST.name}: {line!r} is a chunk of the site's own plugin, taken from the build: "
                     "record the list again (website/labfetch.py says how)")
        name, _, query = line.partition("?")
        folder, _, glob = name.rpartition("/")
        found = sorted((out / folder).glob(glob)) if (out / folder).is_dir() else []
        found = [p for p in found if HASH.search(p.name)]
        if len(found) != 1:
            sys.exit(f"{LIST.name}: {line!r} matches {len(found)} files of the build (expected 1): "
                     f"the list has rotted; record it again (website/labfetch.py says how)")
        path = found[0].relative_to(out).as_posix()
        resolved.append(path + (f"?v={HASH.search(found[0].name).group()}" if query else ""))
    return resolved + own_chunks(out)
