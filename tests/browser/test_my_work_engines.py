"""The learner's work in Firefox and WebKit (test_my_work.py is the whole of it in Chromium): one
walk each, without the kernel (WebKit's first visits are slow): save a part in JupyterLab, the site
publishes a newer one; on the home page, straight after JupyterLab (no wait: storage.ts says why
WebKit once hung there), keep mine, then update (exercise code carried, old copy kept), then reset
(the published version back, a copy kept); download the work; the notebook, opened after one more
publication, says so, and keep mine there; in a fresh profile a bad zip changes
nothing, the zip restores the notebooks and the progress, and a zip over work changed since asks:
cancel changes nothing, yes keeps a copy. AGENT_TEAM_ENGINES picks the engines (default
firefox,webkit).
"""

from __future__ import annotations

import io
import json
import os
import zipfile

import my_work
import pytest
from my_work import JS_SAVE_PROGRESS, copies, exercise_source, stored, stored_notebook
from test_my_work import JS_NOTICE, JS_NOTICE_CLICK

from browsers import engines

PART = "01_architecture.ipynb"
MINE = "# MINE, IN THIS ENGINE\ndef run_tests(repo):\n    return {'passed': True}\n"
PROGRESS = {"exercises": {"1.1": {"passed": True, "passed_once": True, "attempts": 2}}, "hints": {"1.1": 1},
            "predictions": {}, "version": 1}
ENGINES = [e for e in os.environ.get("AGENT_TEAM_ENGINES", "firefox,webkit").split(",") if e and e != "chromium"]


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
        stub = exercise_source(json.loads((site_dir / "files" / PART).read_text()))
        with my_work.published_again(site_dir, PART) as publish:
            v2 = publish(lambda nb: nb["cells"].insert(0, {"cell_type": "markdown", "id": "new", "metadata": {},
                                                           "source": "PUBLISHED AGAIN"}))
            published = v2["metadata"]["agent_team"]["published"]
            my_work.open_home(page, site_url, home)
            assert my_work.part_state(page, PART) == "newer"
            said = my_work.click_part(page, PART, "keep")  # the first write, right after JupyterLab
            assert said["text"].startswith(f"Kept your {PART}") and said["role"] == "status", said
            assert my_work.part_state(page, PART) == "kept"
            kept = stored_notebook(page, PART)
            assert kept["metadata"]["agent_team"]["kept"] == published and exercise_source(kept) == MINE
            assert not copies(stored(page), PART)

            said = my_work.click_part(page, PART, "update")
            assert "exercise-1.1 carried over" in said["text"], said
            assert my_work.part_state(page, PART) == "current"
            files = stored(page)
            assert files[PART]["content"]["cells"][0]["source"] == "PUBLISHED AGAIN"
            assert exercise_source(files[PART]["content"]) == MINE
            assert files[PART]["content"]["metadata"]["agent_team"]["published"] == published
            (copy1,) = copies(files, PART)
            assert files[copy1]["content"]["cells"] == kept["cells"]

            said = my_work.click_part(page, PART, "reset")
            assert said["text"].startswith(f"Reset {PART} to the published version"), said
            files = stored(page)
            assert files[PART]["content"] == v2 and exercise_source(files[PART]["content"]) == stub
            both = copies(files, PART)
            assert len(both) == 2 and [exercise_source(files[c]["content"]) for c in both] == [MINE] * 2
            data = my_work.download_zip(page)

            # the notebook says so too: published once more, opened from the home page; keep mine
            publish(lambda nb: nb["cells"].insert(0, {"cell_type": "markdown", "id": "third", "metadata": {},
                                                       "source": "PUBLISHED A THIRD TIME"}))
            # (the notice is waited for, not the notebook: Firefox's JupyterLab, in a window
            # without focus, may have no current widget, which open_lab waits for)
            page.goto(f"{site_url}lab/index.html?path={PART}")
            page.wait_for_function(f"() => ({JS_NOTICE})().some((l) => l.includes('newer version of {PART}'))",
                                   timeout=my_work.PAGE_SECONDS * 1000)
            page.evaluate(JS_NOTICE_CLICK, "Keep mine")
            page.wait_for_function(f"() => ({JS_NOTICE})().some((l) => l.startsWith('Kept your {PART}'))",
                                   timeout=30_000)
            assert exercise_source(stored_notebook(page, PART)) == stub, "keep mine changed the notebook"
        assert set(zipfile.ZipFile(io.BytesIO(data)).namelist()) == {
            "agent-team-work.json", PART, *both, "agent_team_progress.json"}
        assert not page.foreign_requests()

        fresh = engines.open_page(engine)
        pages.append(fresh)
        my_work.open_home(fresh, site_url, home)
        before = stored(fresh)
        said = my_work.import_zip(fresh, data[: len(data) // 3])
        assert said["role"] == "alert" and "This file is not a zip of your work" in said["text"], said
        assert stored(fresh) == before
        said = my_work.import_zip(fresh, data)
        assert said["text"].startswith("Imported 3 notebooks and your progress"), said
        assert stored_notebook(fresh, PART) == v2
        assert [exercise_source(stored_notebook(fresh, c)) for c in both] == [MINE] * 2
        assert json.loads(stored(fresh)["agent_team_progress.json"]["content"]) == PROGRESS

        # work from another device that changed this part since: asked first; cancel changes
        # nothing; yes puts the zip's in place and keeps this browser's as a copy
        changed = with_exercise(data, PART, MINE + "# CHANGED ON THE OTHER DEVICE\n")
        before = stored(fresh)
        said = my_work.import_zip(fresh, changed)
        assert said["text"] == "Your answer is needed before anything is imported.", said
        question = fresh.evaluate("() => document.querySelector('.mywork-question').textContent")
        assert f"differ from yours here: {PART}" in question and "(my copy" in question
        fresh.evaluate("() => document.querySelector('.mywork-question [data-action=cancel]').click()")
        assert my_work.wait_status(fresh)["text"] == "Import cancelled: nothing was changed."
        assert stored(fresh) == before
        my_work.import_zip(fresh, changed)
        fresh.evaluate("() => document.querySelector('.mywork-question [data-action=import]').click()")
        said = my_work.wait_status(fresh)
        assert "Your notebooks it replaced are kept as" in said["text"], said
        files = stored(fresh)
        assert exercise_source(files[PART]["content"]).endswith("# CHANGED ON THE OTHER DEVICE\n")
        (copy3,) = set(copies(files, PART)) - set(both)
        assert files[copy3]["content"]["cells"] == v2["cells"]
        assert not fresh.foreign_requests()
    finally:
        for p in pages:
            log += p.log()
            p.close()


def with_exercise(data: bytes, path: str, source: str) -> bytes:
    """The work zip `data` with `path`'s exercise cell holding `source` instead."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as old, zipfile.ZipFile(out, "w") as new:
        for name in old.namelist():
            text = old.read(name)
            if name == path:
                notebook = json.loads(text)
                (cell,) = [c for c in notebook["cells"] if my_work.EXERCISE_1_1 in c["metadata"].get("tags", [])]
                cell["source"] = source
                text = json.dumps(notebook, indent=1)
            new.writestr(name, text)
    return out.getvalue()
