"""The learner's work in Firefox and WebKit (test_my_work.py is the whole of it in Chromium): one
walk each, without the kernel (WebKit's first visits are slow): save a part in JupyterLab, the site
publishes a newer one, update it from the home page (exercise code carried, old copy kept),
download the work; in a fresh profile a bad zip changes nothing, then the zip restores the
notebooks and the progress. AGENT_TEAM_ENGINES picks the engines (default firefox,webkit).
"""

from __future__ import annotations

import io
import json
import os
import zipfile

import my_work
import pytest
from my_work import copies, exercise_source, stored, stored_notebook

from website import engines

PART = "01_architecture.ipynb"
MINE = "# MINE, IN THIS ENGINE\ndef run_tests(repo):\n    return {'passed': True}\n"
PROGRESS = {"exercises": {"1.1": {"passed": True, "passed_once": True, "attempts": 2}}, "hints": {"1.1": 1},
            "predictions": {}, "version": 1}
# The progress file as the kernel writes it (progress.py), here through JupyterLab's contents manager.
JS_SAVE_PROGRESS = """async (text) => { await window.jupyterapp.serviceManager.contents.save(
  'agent_team_progress.json', {type: 'file', format: 'text', content: text}); return true; }"""
ENGINES = [e for e in os.environ.get("AGENT_TEAM_ENGINES", "firefox,webkit").split(",") if e and e != "chromium"]


@pytest.fixture(scope="module", autouse=True)
def display():
    yield
    engines.Display.stop()


@pytest.mark.parametrize("engine", ENGINES)
def test_work_survives_an_update_and_moves_to_a_fresh_profile(request, site_url, site_dir, engine):
    why_not = engines.available(engine)
    if why_not:
        pytest.skip(why_not)
    home = my_work.home_path(site_dir)
    pages = [engines.open_page(engine)]
    request.node.page_log = log = []
    try:
        page = pages[0]
        my_work.open_lab(page, site_url, PART)
        my_work.edit_and_save(page, MINE)
        assert page.evaluate(JS_SAVE_PROGRESS, json.dumps(PROGRESS, indent=1))
        # Known (WebKit, 2026-12-01): the home page's first write, right after JupyterLab saved and
        # was left in the same tab, waited for good in 6 of 11 runs of this test (storage.ts gives
        # up after 10 s and says so, but a second press waited too); with 3 s more in JupyterLab
        # first, 0 of 5 runs (2 of this test, 3 of the same steps by hand). Cause not found yet.
        page.wait_for_timeout(3000)
        with my_work.published_again(site_dir, PART) as publish:
            v2 = publish(lambda nb: nb["cells"].insert(0, {"cell_type": "markdown", "id": "new", "metadata": {},
                                                           "source": "PUBLISHED AGAIN"}))
            my_work.open_home(page, site_url, home)
            assert my_work.part_state(page, PART) == "newer"
            said = my_work.click_part(page, PART, "update")
            assert "exercise-1.1 carried over" in said["text"], said
            files = stored(page)
            assert files[PART]["content"]["cells"][0]["source"] == "PUBLISHED AGAIN"
            assert exercise_source(files[PART]["content"]) == MINE
            version = files[PART]["content"]["metadata"]["agent_team"]["published"]
            assert version == v2["metadata"]["agent_team"]["published"]
            (copy,) = copies(files, PART)
            assert exercise_source(files[copy]["content"]) == MINE
            data = my_work.download_zip(page)
        assert set(zipfile.ZipFile(io.BytesIO(data)).namelist()) == {
            "agent-team-work.json", PART, copy, "agent_team_progress.json"}
        assert not page.foreign_requests()

        fresh = engines.open_page(engine)
        pages.append(fresh)
        my_work.open_home(fresh, site_url, home)
        before = stored(fresh)
        said = my_work.import_zip(fresh, data[: len(data) // 3])
        assert said["role"] == "alert" and "This file is not a zip of your work" in said["text"], said
        assert stored(fresh) == before
        said = my_work.import_zip(fresh, data)
        assert said["text"].startswith("Imported 2 notebooks and your progress"), said
        assert exercise_source(stored_notebook(fresh, PART)) == MINE
        assert json.loads(stored(fresh)["agent_team_progress.json"]["content"]) == PROGRESS
        assert not fresh.foreign_requests()
    finally:
        for p in pages:
            log += p.log()
            p.close()
