""""Download my work": the learner's notebooks as one zip, straight from the browser's storage.

In the course site the kernel sees the notebooks the learner edited (kept in the
browser's storage by JupyterLite) under ``/drive``, through the drive that
JupyterLite mounts into Pyodide; in JupyterLab they are the files in the
notebooks' folder. The zip is what ``agent-team-grade`` reads as it is, and what
the course site's home page imports ("import my work", in another browser or on
another device). Its format is defined here, once: the notebooks at their paths,
the progress file, and a manifest naming the course and the format's version.

What is the learner's work is defined here too (:func:`is_work`): a notebook outside
solutions and checkpoints that is not a published notebook as the site shipped it
(its content's hash is not the version stamped in it, :func:`published_version`).
The kernel's drive shows every published notebook beside the learner's; the home
page's storage holds only those the learner saved, which a notebook only opened
never is (website/extension/src/unchanged.ts). So both zips hold the same notebooks
(tests/site/test_mywork.py compares them).
The site's build hands these names to the home page (website/mywork.py), which
writes the same zip itself (website/extension/src/mywork/work.ts). It is
built only when asked (a button), never while a notebook is being saved, so no
notebook ever stores a copy of the others.
"""

import base64
import hashlib
import io
import json
import os
import sys
import zipfile
from pathlib import Path

from .. import progress
from ..render.html import esc
from .base import Base, button, controls

__all__ = ["DownloadWork", "work_root", "work_zip", "is_work", "published_version", "ZIP_NAME", "COURSE", "FORMAT",
           "MANIFEST"]

ZIP_NAME = "agent-team-work.zip"
COURSE = "agent-team"               # every zip's manifest names it: another course's zip is refused
COURSE_TITLE = "A Team of Agents: Plan, Code, Review, Test"
FORMAT = 1                          # the zip format's version: a site reads the versions up to its own
MANIFEST = "agent-team-work.json"   # {"course", "format", "files"}
DRIVE = "/drive"                    # where JupyterLite's kernel mounts the browser's files
SKIP = {".ipynb_checkpoints", "solutions"}   # not the learner's work
LINK_LIMIT = 1_500_000              # bytes: browsers refuse longer data: links
LINK_STYLE = ("display:inline-block;padding:.3em .9em;border-radius:4px;background:#1a73e8;color:#fff;"
              "text-decoration:none;font-weight:600")


def work_root():
    """The folder holding the learner's notebooks: the browser drive in the site, else this folder."""
    if sys.platform == "emscripten":
        return Path(DRIVE) if os.path.isdir(DRIVE) else None
    return Path.cwd()


def published_version(nb):
    """The version the site stamps into a notebook it publishes (``metadata.agent_team.published``):
    a hash of its content without the stamp. website/contents.py stamps it; equal content, equal hash."""
    nb = json.loads(json.dumps(nb))
    meta = nb.get("metadata", {})
    if isinstance(meta.get("agent_team"), dict):
        meta["agent_team"].pop("published", None)
        if not meta["agent_team"]:
            del meta["agent_team"]  # it was made for the version alone
    return hashlib.sha256(json.dumps(nb, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def is_work(rel, data):
    """Whether the file at ``rel`` (a path relative to the learner's folder) holding ``data`` (bytes)
    is the learner's work: a notebook outside solutions and checkpoints, and not a published notebook
    left as the site shipped it (an unreadable one counts: it is not the site's)."""
    rel = Path(rel)
    if rel.suffix != ".ipynb" or SKIP & set(rel.parts):
        return False
    try:
        nb = json.loads(data)
        stamp = nb["metadata"]["agent_team"]["published"]
    except (ValueError, TypeError, KeyError):
        return True
    return stamp != published_version(nb)


def work_zip(root):
    """``(zip bytes, [names])``: the learner's notebooks under ``root`` (:func:`is_work`), the
    progress file, and the manifest (not in ``names``)."""
    root = Path(root)
    names, buffer = [], io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        files, kept = [], []  # the notebooks, then the progress file (as the home page lists them)
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(root)
            if SKIP & set(rel.parts) or not path.is_file():
                continue
            if rel.as_posix() == progress.FILENAME:
                kept.append((rel.as_posix(), path.read_bytes()))
            elif path.suffix == ".ipynb":
                data = path.read_bytes()
                if is_work(rel, data):
                    files.append((rel.as_posix(), data))
        files += kept
        manifest = {"course": COURSE, "format": FORMAT, "files": [name for name, _ in files]}
        archive.writestr(MANIFEST, json.dumps(manifest, indent=1) + "\n")
        for name, data in files:
            archive.writestr(name, data)
            names.append(name)
    return buffer.getvalue(), names


def link_html(data, names):
    """A download link for the zip (a data: link, so nothing is sent anywhere)."""
    notebooks = sum(n.endswith(".ipynb") for n in names)
    href = "data:application/zip;base64," + base64.b64encode(data).decode("ascii")
    # Styled as the button it is (an unstyled link read as text: the walk's learner missed it).
    return (f'<a download="{ZIP_NAME}" href="{href}" style="{LINK_STYLE}">Save {ZIP_NAME}</a> '
            f"({notebooks} notebook{'' if notebooks == 1 else 's'} you changed"
            f"{', and your progress' if progress.FILENAME in names else ''}; "
            f"{len(data) // 1024 + 1} KB). The home page's <em>Download my work</em> saves the same zip. "
            "Hand this file in as it is.")


class DownloadWork(Base):
    """A "download my work" button; ``.prepare()`` builds the zip and shows a link to save it."""

    def __init__(self, root=None):
        self.root = root
        self._html = "<p>Download my work: press the button to pack your notebooks into one zip.</p>"
        self._text = "Download my work: call .prepare() to pack your notebooks into one zip."
        ipw = controls()
        if ipw is not None:
            self._view = ipw.HTML(value="")
            self._button = button("download my work", "Pack every notebook you worked on into one zip",
                                  self.prepare, "download")
            self.widget = ipw.VBox([self._button, self._view])

    def prepare(self):
        root = self.root or work_root()
        if root is None or not Path(root).is_dir():
            self._say("This kernel cannot read the browser's files (the site's service worker is off, "
                      "e.g. in a private window): save each notebook with File → Download instead.")
            return self
        try:
            data, names = work_zip(root)
        except OSError as err:
            self._say(f"Could not read your notebooks ({err}); save each one with File → Download.")
            return self
        if not names:
            self._say("Nothing to download yet: a notebook is kept in this browser once you change and save it.")
        elif len(data) * 4 // 3 > LINK_LIMIT:
            self._say(f"Your notebooks make a zip of {len(data) // 1024} KB, too big for a download link: "
                      "clear the outputs (Edit → Clear Outputs of All Cells), save, and try again.")
        else:
            self._text = f"{ZIP_NAME}: {len(names)} files, {len(data)} bytes"
            self._put(link_html(data, names))
        return self

    def _say(self, text):
        self._text = text
        self._put(f"<p>{esc(text)}</p>")

    @property
    def text(self):
        return self._text
