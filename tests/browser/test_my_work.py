"""The learner's work survives an update and moves between browsers, in Chromium (my_work.py has the
steps; test_my_work_engines.py runs one of them in Firefox and WebKit).

- a newer published notebook (the served file patched, the manifest naming its new version): the
  notebook's notice and the home page say so; update (in JupyterLab), keep mine and update and
  reset (on the home page): the learner's exercise code carried over, every old notebook kept as a
  copy, nothing lost;
- export in one profile, import in a fresh one: notebooks and progress restored (the kernel reads
  the progress); an import over changed work asks, cancel changes nothing, yes keeps copies;
- a file that is not this course's work zip: a clear message, nothing in the storage changed.
"""

from __future__ import annotations

import io
import json
import zipfile

import my_work
from my_work import copies, exercise_source, stored, stored_notebook

from browsers import driver

PART = "01_architecture.ipynb"
MINE = "# MY CODE, FROM THE BROWSER\ndef run_tests(repo):\n    return {'passed': True, 'output': 'mine'}\n"
SCRATCH = "MY_SCRATCH_CELL = 1"
JS_ADD_SCRATCH = """(source) => { const m = window.jupyterapp.shell.currentWidget.content.model;
  m.sharedModel.insertCell(m.cells.length, {cell_type: 'code', source, metadata: {}}); return true; }"""
JS_NOTICE = """() => [...document.querySelectorAll('#agent-team-notices .agent-team-notice')]
  .map((l) => l.textContent)"""
JS_NOTICE_CLICK = """(label) => [...document.querySelectorAll('#agent-team-notices .agent-team-notice-action')]
  .find((b) => b.textContent.startsWith(label)).click()"""


def sources(notebook):
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in notebook["cells"]]


def new_first_cell(text):
    return lambda nb: nb["cells"].insert(0, {"cell_type": "markdown", "id": f"new-{len(text)}", "metadata": {},
                                             "source": text})


def test_a_newer_published_notebook_walks_update_keep_and_reset(guarded, site_url, site_dir):
    page, _ = guarded
    home = my_work.home_path(site_dir)
    my_work.open_lab(page, site_url, PART)
    assert page.evaluate(JS_ADD_SCRATCH, SCRATCH)
    my_work.edit_and_save(page, MINE)
    stub = exercise_source(json.loads((site_dir / "files" / PART).read_text()))
    with my_work.published_again(site_dir, PART) as publish:
        # 1. in JupyterLab: the notice, and update
        v2 = publish(new_first_cell("PUBLISHED AGAIN, VERSION 2"))
        my_work.open_lab(page, site_url, PART)
        page.wait_for_function("() => (" + JS_NOTICE + ")().some((l) => l.includes('newer version of " + PART + "'))",
                               timeout=30_000)
        page.evaluate(JS_NOTICE_CLICK, "Update")
        page.wait_for_function("() => (" + JS_NOTICE + ")().some((l) => l.startsWith('Updated'))", timeout=30_000)
        (notice,) = [line for line in page.evaluate(JS_NOTICE) if line.startswith("Updated")]
        assert "exercise-1.1 carried over" in notice
        files = stored(page)
        updated = files[PART]["content"]
        assert sources(updated)[0] == "PUBLISHED AGAIN, VERSION 2" and SCRATCH not in sources(updated)
        assert exercise_source(updated) == MINE
        assert updated["metadata"]["agent_team"]["published"] == v2["metadata"]["agent_team"]["published"]
        (copy1,) = copies(files, PART)
        assert SCRATCH in sources(files[copy1]["content"]) and exercise_source(files[copy1]["content"]) == MINE
        assert files[copy1]["content"]["metadata"]["agent_team"]["copy_of"] == PART  # not graded twice
        shown = driver.cells(page)  # the open notebook was read again
        assert shown[0]["source"] == "PUBLISHED AGAIN, VERSION 2" and any(c["source"] == MINE for c in shown)

        # 2. on the home page: keep mine
        v3 = publish(new_first_cell("PUBLISHED AGAIN, VERSION 3"))
        my_work.open_home(page, site_url, home)
        assert my_work.part_state(page, PART) == "newer"
        said = my_work.click_part(page, PART, "keep")
        assert said["text"].startswith(f"Kept your {PART}") and said["role"] == "status"
        assert my_work.part_state(page, PART) == "kept"
        kept = stored_notebook(page, PART)
        assert kept["metadata"]["agent_team"]["kept"] == v3["metadata"]["agent_team"]["published"]
        assert kept["cells"] == updated["cells"] and copies(stored(page), PART) == [copy1]
        my_work.open_lab(page, site_url, PART)  # kept: the notebook no longer asks
        page.wait_for_timeout(3000)
        assert not [line for line in page.evaluate(JS_NOTICE) if "newer version" in line]

        # 3. on the home page: update after all, then reset
        my_work.open_home(page, site_url, home)
        said = my_work.click_part(page, PART, "update")
        assert "exercise-1.1 carried over" in said["text"]
        assert my_work.part_state(page, PART) == "current"
        files = stored(page)
        assert sources(files[PART]["content"])[0] == "PUBLISHED AGAIN, VERSION 3"
        assert exercise_source(files[PART]["content"]) == MINE
        copy2 = [c for c in copies(files, PART) if c != copy1]
        assert len(copy2) == 1 and files[copy2[0]]["content"]["cells"] == kept["cells"]
        said = my_work.click_part(page, PART, "reset")
        assert said["text"].startswith(f"Reset {PART} to the published version")
        files = stored(page)
        assert files[PART]["content"] == v3 and exercise_source(files[PART]["content"]) == stub
        assert len(copies(files, PART)) == 3
        assert [exercise_source(files[c]["content"]) for c in copies(files, PART)] == [MINE] * 3


def test_work_exported_in_one_profile_is_restored_in_a_fresh_one(guarded, browser, site_url, site_dir, tmp_path):
    page, _ = guarded
    home = my_work.home_path(site_dir)
    driver.open_notebook(page, site_url, PART)
    my_work.edit_and_save(page, MINE)
    recorded = driver.execute(page, "from agent_team import progress\n"
                                    "print(progress.record('1.1', True), progress.record_hint('1.1', 2))")
    assert recorded == {"status": "ok", "out": "True True\n"}, recorded
    my_work.open_home(page, site_url, home)
    with page.expect_download() as download:
        page.click(".mywork-download")
    path = tmp_path / "work.zip"
    download.value.save_as(path)
    assert download.value.suggested_filename == "agent-team-work.zip"
    archive = zipfile.ZipFile(path)
    assert sorted(archive.namelist()) == sorted(["agent-team-work.json", PART, "agent_team_progress.json"])
    assert json.loads(archive.read("agent-team-work.json"))["course"] == "agent-team"

    fresh, guard = driver.new_page(browser, site_url)
    try:
        my_work.open_home(fresh, site_url, home)
        assert stored(fresh).get(PART) is None
        said = my_work.import_zip(fresh, path.read_bytes())
        assert said["text"].startswith("Imported 1 notebook and your progress"), said
        assert exercise_source(stored_notebook(fresh, PART)) == MINE
        driver.open_notebook(fresh, site_url, PART)
        assert any(c["source"] == MINE for c in driver.cells(fresh))
        read = driver.execute(fresh, "from agent_team import progress\nprint(progress.load()['1.1'], progress.hints())")
        assert read["out"] == "{'passed': True, 'passed_once': True, 'attempts': 1} {'1.1': 2}\n", read

        # over work changed here: asked first; cancel changes nothing; yes keeps a copy
        my_work.edit_and_save(fresh, MINE + "# CHANGED IN THE SECOND BROWSER\n")
        my_work.open_home(fresh, site_url, home)
        before = stored(fresh)
        said = my_work.import_zip(fresh, path.read_bytes())
        assert said["text"] == "Your answer is needed before anything is imported."
        question = fresh.evaluate("() => document.querySelector('.mywork-question').textContent")
        assert f"differ from yours here: {PART}" in question and "(my copy" in question
        fresh.evaluate("() => document.querySelector('.mywork-question [data-action=cancel]').click()")
        assert my_work.wait_status(fresh)["text"] == "Import cancelled: nothing was changed."
        assert stored(fresh) == before
        my_work.import_zip(fresh, path.read_bytes())
        fresh.evaluate("() => document.querySelector('.mywork-question [data-action=import]').click()")
        said = my_work.wait_status(fresh)
        assert "Your notebooks it replaced are kept as" in said["text"], said
        files = stored(fresh)
        assert exercise_source(files[PART]["content"]) == MINE
        (copy,) = copies(files, PART)
        assert exercise_source(files[copy]["content"]).endswith("# CHANGED IN THE SECOND BROWSER\n")
    finally:
        fresh.context.close()
    assert not guard.blocked


def zip_of(files):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def test_a_file_that_is_not_this_courses_work_changes_nothing(guarded, site_url, site_dir, tmp_path):
    from agent_team.widgets.download import work_zip

    page, _ = guarded
    home = my_work.home_path(site_dir)
    notebook = json.loads((site_dir / "files" / PART).read_text())
    notebook["cells"].append({"cell_type": "markdown", "metadata": {}, "source": "mine"})  # the learner's work
    (tmp_path / PART).write_text(json.dumps(notebook))
    (tmp_path / "agent_team_progress.json").write_text(json.dumps({"exercises": {"1.1": {"passed": True}}}))
    good, _ = work_zip(tmp_path)  # the notebooks' widget's zip: the home page reads it
    my_work.open_home(page, site_url, home)
    assert my_work.import_zip(page, good)["text"].startswith("Imported 1 notebook and your progress")
    before = stored(page)
    manifest = {"course": "another-course", "format": 1, "files": [PART]}
    bad = {
        b"PK\x03\x04 but not really a zip": "This file is not a zip of your work",
        zip_of({PART: json.dumps(notebook)}): 'not made by "Download my work"',
        zip_of({"agent-team-work.json": json.dumps(manifest), PART: json.dumps(notebook)}): "from another course",
        good[: len(good) // 2]: "This file is not a zip of your work",
    }
    for data, says in bad.items():
        said = my_work.import_zip(page, data)
        assert says in said["text"] and "nothing was changed" in said["text"].lower(), said
        assert said["role"] == "alert"
        assert stored(page) == before
