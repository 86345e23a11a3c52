"""The notebooks as the site ships them: in the form a Jupyter server hands to JupyterLab.

JupyterLite serves each .ipynb file as it is stored; a Jupyter server first reads it with
nbformat. Two things that read does are missing in JupyterLite, and the learner sees both on
first open:

- *list-of-lines fields.* nbformat stores multi-line strings as lists of lines
  (`"text": ["a\\n", "b\\n"]`) and joins them on reading. JupyterLab's notebook model
  (@jupyter/ydoc, `YCodeCell.createOutputs`) joins a stream's list itself with `Array.join()`,
  whose separator is ",": every stored printed line after the first started with a comma.
  `nbformat.read` joins them all (source, stream text, output data), so the shipped file has
  plain strings, as JupyterLab gets from a server.
- *trust.* A server marks the cells of a notebook it trusts (nbformat's `mark_cells`:
  `metadata.trusted` on every code cell) and JupyterLab renders their stored HTML/SVG and widget
  outputs; unmarked, they are sanitized (the state diagram turns into run-on text). These
  notebooks are built and executed from this repository by `tools/notebooks.py`, so they are
  marked trusted, as `jupyter trust` would on a server. A learner's saved copy keeps the marks
  (JupyterLab saves cell metadata as it is), so it stays trusted after a reload.

Each shipped notebook also carries its version, `metadata.agent_team.published`: a hash of its
content as served. A learner's saved copy keeps the hash it was loaded with, so the site can
tell a newer published version from the learner's own changes (website/mywork.py).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path


def as_served(path: Path) -> dict:
    """One notebook as a Jupyter server would hand it to JupyterLab (lines joined, trusted)."""
    import nbformat

    nb = nbformat.read(path, as_version=4)  # joins every list-of-lines field
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.metadata["trusted"] = True
    return nb


def version(nb: dict) -> str:
    """The notebook's published version: a hash of its served content (without the version itself),
    defined with what is the learner's work (src/agent_team/widgets/download.py)."""
    from agent_team.widgets.download import published_version

    return published_version(nb)


def stage(folders: list[Path], dest: Path) -> list[Path]:
    """Copy each contents folder under `dest` with its notebooks as served; return the copies."""
    shutil.rmtree(dest, ignore_errors=True)
    staged = []
    for i, folder in enumerate(folders):
        copy = dest / str(i)
        shutil.copytree(folder, copy, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
        for nb_path in copy.rglob("*.ipynb"):
            nb = as_served(nb_path)
            nb.metadata.setdefault("agent_team", {})["published"] = version(nb)
            nb_path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        staged.append(copy)
    return staged
