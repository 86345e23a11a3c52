""""Download my work" in the built site: a learner's edit, saved in the browser's storage, comes out
in the zip, and agent-team-grade reads that zip as it is.

Opens part 3 in Chromium, writes the worked solution into the exercise cell, saves (JupyterLite
keeps it in IndexedDB), runs the progress widget's cell, presses "download my work", saves the
link's file and reads it back. Then the home page's "Download my work" in the same browser: one
thing, the same notebooks (the learner's saved work, not the parts only opened) and progress.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

from browsers import driver

import my_work

ROOT = Path(__file__).resolve().parents[2]

JS_EDIT_AND_SAVE = """async (source) => {
  const app = window.jupyterapp;
  const panel = app.shell.currentWidget;
  const cells = panel.content.model.sharedModel.cells;
  const exercise = cells.find((c) => (c.getMetadata("tags") || []).includes("exercise-3.1"));
  exercise.setSource(source);
  await app.commands.execute("docmanager:save");
  return true;
}"""


def test_download_my_work_packs_the_saved_edits_into_a_zip_the_grader_reads(guarded, site_url, site_dir, tmp_path):
    from agent_team.classroom.collect import collect

    page, _ = guarded
    driver.open_notebook(page, site_url, "03_supervisor.ipynb")
    solution = json.loads((ROOT / "notebooks/solutions/03_supervisor.ipynb").read_text())
    source = next("".join(c["source"]) for c in solution["cells"]
                  if "exercise-3.1" in c.get("metadata", {}).get("tags", []))
    marked = "# EDITED IN THE BROWSER\n" + source
    assert page.evaluate(JS_EDIT_AND_SAVE, marked)
    driver.run_all(page)
    page.locator("button:has-text('download my work')").last.click()
    link = page.locator("a[download='agent-team-work.zip']")
    link.wait_for(timeout=60_000)
    with page.expect_download() as download:
        link.click()
    path = tmp_path / "learner.zip"
    download.value.save_as(path)
    names = zipfile.ZipFile(path).namelist()
    assert "03_supervisor.ipynb" in names and not any(n.startswith("solutions/") for n in names)
    jobs, problems = collect([path])
    # the appendix is a notebook of the course with nothing to grade, not a problem with the zip
    assert not [p for p in problems if p.status not in ("skipped", "no exercises")]
    (job,) = [j for j in jobs if j.notebook.endswith(":03_supervisor.ipynb")]
    assert (job.learner, job.exercise.id) == ("learner", "3.1")
    assert job.source.startswith("# EDITED IN THE BROWSER")
    # the learner saved part 3 alone: the 7 other parts on the drive are the site's, not theirs
    assert [n for n in names if n.endswith(".ipynb")] == ["03_supervisor.ipynb"], names
    my_work.open_home(page, site_url, my_work.home_path(site_dir))
    home = zipfile.ZipFile(io.BytesIO(my_work.download_zip(page)))
    assert sorted(home.namelist()) == sorted(names)
