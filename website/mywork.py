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


def apply(out: Path) -> None:
    """Put the manifest and the home page's module into the built site `out`."""
    if not MODULE.exists():
        sys.exit(f"{MODULE} missing: the site's plugin was not built (website/extension, npm run build)")
    dest = out / FOLDER
    dest.mkdir(exist_ok=True)
    shutil.copy2(MODULE, dest / "mywork.js")
    (dest / "published.json").write_text(json.dumps(manifest(out / "files"), indent=1) + "\n")
