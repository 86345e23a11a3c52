"""The learner's work on the built site: its manifest, and the home page's "my work" module.

`mywork/published.json` says which version of each notebook the site publishes (the hash
website/contents.py writes into it) and the names of the work zip's format, defined once in
src/agent_team/widgets/download.py. The home page's module (website/extension/src/mywork/, built
with the site's plugin into lib/mywork.js) reads it to tell a newer published notebook from the
learner's changes and to write and check "download my work" zips. docs/site.md, "Your work".
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

from . import contents

HERE = Path(__file__).resolve().parent
MODULE = HERE / "extension" / "lib" / "mywork.js"
FOLDER = "mywork"


def manifest(files: Path) -> dict:
    """The site's versions and zip format, from the built site's `files/` (the contents as shipped)."""
    from agent_team import progress
    from agent_team.widgets import download

    notebooks = {}
    for path in sorted(files.rglob("*.ipynb")):
        rel = path.relative_to(files).as_posix()
        if ".ipynb_checkpoints" in rel:
            continue
        published = json.loads(path.read_text(encoding="utf-8")).get("metadata", {}).get("agent_team", {})
        if "published" in published:
            notebooks[rel] = published["published"]
    return {"course": download.COURSE, "title": download.COURSE_TITLE, "format": download.FORMAT,
            "manifest": download.MANIFEST, "zip": download.ZIP_NAME, "progress": progress.FILENAME,
            "skip": sorted(download.SKIP), "notebooks": notebooks}


def stale(files: Path, site: dict) -> list[str]:
    """The notebooks whose shipped content is not the version `site` names (a build step that
    rewrote them after website/contents.py)."""
    return [rel for rel, version in site["notebooks"].items()
            if contents.version(json.loads((files / rel).read_text(encoding="utf-8"))) != version]


def apply(out: Path) -> None:
    """Put the manifest and the home page's module into the built site `out`."""
    if not MODULE.exists():
        sys.exit(f"{MODULE} missing: the site's plugin was not built (website/extension, npm run build)")
    dest = out / FOLDER
    dest.mkdir(exist_ok=True)
    shutil.copy2(MODULE, dest / "mywork.js")
    site = manifest(out / "files")
    changed = stale(out / "files", site)
    if changed:
        sys.exit(f"{out / 'files'}: {', '.join(changed)} changed after their version was written "
                 "(website/contents.py): every saved copy would look older than the site's")
    if not site["notebooks"]:
        sys.exit(f"{out / 'files'}: no notebook with a version: website/contents.py did not stamp them")
    (dest / "published.json").write_text(json.dumps(site, indent=1) + "\n")
