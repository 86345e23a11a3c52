"""The learner's work on the site (website/extension/src/mywork/), its pure logic in Node.js, and the
build's side of it (website/contents.py's versions, website/mywork.py's manifest).

carry.ts: a newer published notebook told from the learner's changes; the learner's exercise cells
carried into it; the name of the copy kept. work.ts and zip.ts: the "download my work" zip, which
the notebooks' widget (src/agent_team/widgets/download.py, Python's zipfile, deflated) and the home
page (stored) both write, and "import my work" reads or refuses. The browser walks the same paths
for real: tests/browser/test_my_work.py.
"""

import base64
import io
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from agent_team.widgets.download import COURSE, FORMAT, MANIFEST, work_zip
from website import contents, mywork

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "site" / "node" / "mywork.mjs"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (ROOT / "node_modules" / "esbuild").exists(),
    reason="needs Node.js and `npm ci` (make test does both)")


def node(*cases):
    run = subprocess.run(["node", str(SCRIPT)], input=json.dumps(cases), capture_output=True,
                         text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    answers = json.loads(run.stdout)
    assert not [a for a in answers if "error" in a], answers
    return [a["result"] for a in answers]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The manifest the build writes, for the course's own notebooks."""
    (staged,) = contents.stage([ROOT / "notebooks"], tmp_path_factory.mktemp("contents"))
    return mywork.manifest(staged)


def cell(source, *tags, kind="code", outputs=()):
    return {"cell_type": kind, "source": source, "metadata": {"tags": list(tags)} if tags else {},
            "outputs": list(outputs), "execution_count": 3 if outputs else None}


def nb(*cells, published="v1", **meta):
    return {"cells": list(cells), "metadata": {"agent_team": {"part": 1, "published": published, **meta}},
            "nbformat": 4, "nbformat_minor": 5}


# -- the build: every shipped notebook has a version, and the manifest lists it --------------------

def test_every_notebook_is_shipped_with_its_version_and_the_manifest_lists_them(site, tmp_path):
    built = json.loads((ROOT / "notebooks" / "01_architecture.ipynb").read_text())
    assert site["notebooks"]["01_architecture.ipynb"] == contents.version(contents.as_served(
        ROOT / "notebooks" / "01_architecture.ipynb"))
    assert {p for p in site["notebooks"]} >= {"01_architecture.ipynb", "solutions/01_architecture.ipynb"}
    assert (site["course"], site["format"], site["manifest"]) == (COURSE, FORMAT, MANIFEST)
    # a changed notebook is a new version; the same content, the same version
    built["cells"][0]["source"] = "# changed\n"
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "01_architecture.ipynb").write_text(json.dumps(built))
    (changed,) = contents.stage([tmp_path / "src"], tmp_path / "out")
    assert mywork.manifest(changed)["notebooks"]["01_architecture.ipynb"] != site["notebooks"]["01_architecture.ipynb"]
    (again,) = contents.stage([ROOT / "notebooks"], tmp_path / "again")
    assert mywork.manifest(again)["notebooks"] == site["notebooks"]
    # the version is the hash of the file as shipped, also for a notebook without course metadata
    del built["metadata"]["agent_team"]
    (tmp_path / "src" / "01_architecture.ipynb").write_text(json.dumps(built))
    (plain,) = contents.stage([tmp_path / "src"], tmp_path / "plain")
    shipped = json.loads((plain / "01_architecture.ipynb").read_text())
    assert contents.version(shipped) == shipped["metadata"]["agent_team"]["published"]
    assert mywork.stale(plain, mywork.manifest(plain)) == []
    shipped["cells"][0]["source"] = "# rewritten after it was stamped\n"
    (plain / "01_architecture.ipynb").write_text(json.dumps(shipped))
    assert mywork.stale(plain, mywork.manifest(plain)) == ["01_architecture.ipynb"]


# -- which version a saved notebook is ----------------------------------------------------------

def test_a_saved_notebook_is_current_newer_or_kept_by_the_version_it_was_loaded_from():
    assert node(
        {"op": "partState", "saved": None, "hash": "v2"},
        {"op": "partState", "saved": nb(published="v2"), "hash": "v2"},
        {"op": "partState", "saved": nb(published="v1"), "hash": "v2"},
        {"op": "partState", "saved": nb(published="v1", kept="v2"), "hash": "v2"},
        {"op": "partState", "saved": nb(published="v1", kept="v2"), "hash": "v3"},   # kept an older one
        {"op": "partState", "saved": {"cells": [], "metadata": {}}, "hash": "v2"},    # saved before versions
        {"op": "keptOver", "saved": nb(published="v1"), "hash": "v2"},
    ) == ["published", "current", "newer", "kept", "newer", "newer", "kept"]


# -- carrying exercise cells ---------------------------------------------------------------------

def test_update_carries_the_learners_exercise_code_by_tag_into_the_new_version():
    mine = nb(cell("intro, old"), cell("def f(): return 42", "exercise", "exercise-1.1", outputs=[{"x": 1}]),
              cell("my scratch cell"), cell("def g(): pass", "exercise", "exercise-1.2"))
    new = nb(cell("intro, new"), cell("new cell"),
             cell("def g(): ...  # stub", "exercise", "exercise-1.2"),
             cell("def f(): ...  # stub", "exercise", "exercise-1.1"), published="v2")
    [out] = node({"op": "carryOver", "published": new, "mine": mine})
    cells = out["notebook"]["cells"]
    assert [c["source"] for c in cells] == ["intro, new", "new cell", "def g(): pass", "def f(): return 42"]
    assert cells[3]["outputs"] == [] and cells[3]["execution_count"] is None
    assert cells[3]["metadata"] == new["cells"][3]["metadata"]
    assert out["notebook"]["metadata"]["agent_team"]["published"] == "v2"
    assert (sorted(out["carried"]), out["left"]) == (["exercise-1.1", "exercise-1.2"], [])


def test_an_exercise_the_new_version_drops_is_reported_and_an_untouched_stub_is_not_carried():
    mine = nb(cell("def f(): ...", "exercise", "exercise-1.1"), cell("mine", "exercise", "exercise-9.9"))
    new = nb(cell("def f(): ...", "exercise", "exercise-1.1"), published="v2")
    [out] = node({"op": "carryOver", "published": new, "mine": mine})
    assert (out["carried"], out["left"]) == ([], ["exercise-9.9"])
    assert out["notebook"] == new


def test_cells_tagged_alike_are_matched_in_order_and_lists_of_lines_are_joined():
    md = cell("md", "exercise", kind="markdown")
    mine = nb(cell(["a = 1\n", "b = 2"], "exercise"), cell("second", "exercise"), md)
    new = nb(cell("stub 1", "exercise"), cell("stub 2", "exercise"), md, published="v2")
    [out] = node({"op": "carryOver", "published": new, "mine": mine})
    assert [c["source"] for c in out["notebook"]["cells"]] == ["a = 1\nb = 2", "second", "md"]


def test_carry_over_of_something_that_is_no_notebook_says_so():
    run = subprocess.run(["node", str(SCRIPT)], input=json.dumps([{"op": "carryOver", "published": {}, "mine": nb()}]),
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert "both notebooks need a list of cells" in json.loads(run.stdout)[0]["error"]


def test_the_old_copy_is_named_after_the_day_and_never_over_another_file():
    day = "2026-12-01"
    assert node(
        {"op": "copyName", "path": "01_architecture.ipynb", "day": day, "taken": []},
        {"op": "copyName", "path": "01_architecture.ipynb", "day": day,
         "taken": ["01_architecture (my copy 2026-12-01).ipynb"]},
        {"op": "copyName", "path": "work/a.b/notes", "day": day, "taken": []},
    ) == ["01_architecture (my copy 2026-12-01).ipynb", "01_architecture (my copy 2026-12-01 2).ipynb",
          "work/a.b/notes (my copy 2026-12-01)"]


# -- the zip -------------------------------------------------------------------------------------

def b64(data):
    return base64.b64encode(data).decode()


def zip_of(files):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def test_a_zip_from_the_notebooks_widget_imports_on_the_home_page(site, tmp_path):
    (tmp_path / "01_architecture.ipynb").write_text(json.dumps(nb(cell("x"))))
    (tmp_path / "solutions").mkdir()
    (tmp_path / "solutions" / "01_architecture.ipynb").write_text(json.dumps(nb()))
    (tmp_path / "agent_team_progress.json").write_text('{"exercises": {"1.1": {"passed": true}}}')
    data, _ = work_zip(tmp_path)
    [work] = node({"op": "unpack", "site": site, "zip": b64(data)})
    assert list(work["notebooks"]) == ["01_architecture.ipynb"]
    assert work["notebooks"]["01_architecture.ipynb"] == nb(cell("x"))
    assert json.loads(work["progress"]) == {"exercises": {"1.1": {"passed": True}}}


def test_the_home_page_and_the_notebooks_widget_download_the_same_work(tmp_path):
    """One "Download my work": the kernel's drive shows every published notebook beside the learner's,
    the home page's storage only what the learner saved; both zips hold the learner's work alone."""
    (drive,) = contents.stage([ROOT / "notebooks"], tmp_path / "drive")   # the site's notebooks
    shutil.rmtree(drive / "source")
    (drive / "agent_team_progress.json").unlink(missing_ok=True)   # a progress file left by running notebooks/ here
    site = mywork.manifest(drive)
    mine = json.loads((drive / "01_architecture.ipynb").read_text())
    mine["cells"].append(cell("def oracle(): ..."))   # a part the learner changed and saved
    saved = {"01_architecture.ipynb": mine, "notes/mine.ipynb": nb(cell("x"), published="theirs")}
    progress = '{"exercises": {"1.1": {"passed": true}}}'
    for rel, notebook in saved.items():
        (drive / rel).parent.mkdir(parents=True, exist_ok=True)
        (drive / rel).write_text(json.dumps(notebook))
    (drive / "agent_team_progress.json").write_text(progress)
    (drive / ".ipynb_checkpoints").mkdir()
    (drive / ".ipynb_checkpoints" / "01_architecture-checkpoint.ipynb").write_text(json.dumps(mine))

    widget, _ = work_zip(drive)
    [home] = node({"op": "pack", "site": site, "notebooks": saved, "progress": progress})
    zips = [zipfile.ZipFile(io.BytesIO(data)) for data in (widget, base64.b64decode(home))]
    names = [sorted(z.namelist()) for z in zips]
    assert names[0] == names[1] == sorted([MANIFEST, "agent_team_progress.json", *saved])
    for name in names[0]:
        if name.endswith(".json") or name.endswith(".ipynb"):
            assert json.loads(zips[0].read(name)) == json.loads(zips[1].read(name)), name


def test_the_home_pages_zip_has_the_same_format_and_round_trips(site):
    notebooks = {"01_architecture.ipynb": nb(cell("é ✓")), "sub/notes.ipynb": nb()}
    [packed] = node({"op": "pack", "site": site, "notebooks": notebooks, "progress": '{"hints": {}}'})
    archive = zipfile.ZipFile(io.BytesIO(base64.b64decode(packed)))
    assert archive.testzip() is None
    assert json.loads(archive.read(MANIFEST)) == {
        "course": COURSE, "format": FORMAT,
        "files": ["01_architecture.ipynb", "sub/notes.ipynb", "agent_team_progress.json"]}
    [work] = node({"op": "unpack", "site": site, "zip": packed})
    assert work == {"notebooks": notebooks, "progress": '{"hints": {}}'}


def manifest(**fields):
    return json.dumps({"course": COURSE, "format": FORMAT, "files": [], **fields})


@pytest.mark.parametrize("data,says", [
    (b"not a zip at all", "not a zip of your work: it is not a zip file"),
    (b"", "not a zip of your work"),
    (zip_of({"01_architecture.ipynb": json.dumps(nb())}), "not made by \"Download my work\""),
    (zip_of({MANIFEST: "{not json", "01_architecture.ipynb": json.dumps(nb())}), "no readable agent-team-work.json"),
    (zip_of({MANIFEST: manifest(course="another-course"), "a.ipynb": json.dumps(nb())}),
     'another course ("another-course")'),
    (zip_of({MANIFEST: manifest(format=FORMAT + 1), "a.ipynb": json.dumps(nb())}), "made by a newer version"),
    (zip_of({MANIFEST: manifest(), "a.ipynb": "{broken"}), "a.ipynb in this zip is not a readable notebook"),
    (zip_of({MANIFEST: manifest(), "a.ipynb": json.dumps(nb()), "agent_team_progress.json": "[1]"}), "progress file"),
    (zip_of({MANIFEST: manifest(), "solutions/a.ipynb": json.dumps(nb())}), "no notebooks and no progress"),
])
def test_a_file_that_is_not_this_courses_work_zip_is_refused_in_words(site, data, says):
    [out] = node({"op": "unpack", "site": site, "zip": b64(data)})
    assert says in out["refused"] and "nothing was changed" in out["refused"].lower()


def test_a_damaged_or_cut_zip_is_refused_not_half_read(site):
    good = zip_of({MANIFEST: manifest(), "a.ipynb": json.dumps(nb(cell("x" * 2000)))})
    flipped = bytearray(good)
    flipped[60] ^= 0xFF  # inside the first file's data
    cases = [bytes(flipped), good[: len(good) // 2], good[:-10]]
    for out in node(*({"op": "unpack", "site": site, "zip": b64(c)} for c in cases)):
        assert "not a zip of your work" in out["refused"], out


# -- import over existing work ------------------------------------------------------------------

def test_an_import_keeps_a_copy_of_every_notebook_it_replaces_and_skips_equal_ones():
    saved = {"a.ipynb": nb(cell("mine")), "b.ipynb": nb(cell("same")),
             "a (my copy 2026-12-01).ipynb": nb()}
    incoming = {"a.ipynb": nb(cell("theirs")), "b.ipynb": nb(cell("same")), "c.ipynb": nb()}
    [plan] = node({"op": "plan", "saved": saved, "incoming": incoming, "day": "2026-12-01"})
    assert plan == {"writes": ["a.ipynb", "c.ipynb"], "copies": [["a.ipynb", "a (my copy 2026-12-01 2).ipynb"]],
                    "same": ["b.ipynb"]}


def test_progress_from_two_browsers_is_merged_without_losing_a_pass():
    here = {"exercises": {"1.1": {"passed": True, "passed_once": True, "attempts": 3},
                          "2.1": {"passed": False, "passed_once": False, "attempts": 1}},
            "hints": {"1.1": 2}, "predictions": {"p1": {"predicted": "a", "actual": "a"}}, "version": 1}
    imported = {"exercises": {"1.1": {"passed": False, "passed_once": False, "attempts": 1},
                              "3.1": {"passed": True, "passed_once": True, "attempts": 1}},
                "hints": {"1.1": 1, "3.1": 3}, "predictions": {"p2": {"predicted": "b", "actual": "c"}}, "version": 1}
    [merged, fresh] = node({"op": "merge", "here": json.dumps(here), "imported": json.dumps(imported)},
                           {"op": "merge", "here": None, "imported": json.dumps(imported)})
    assert merged["exercises"] == {"1.1": {"passed": False, "passed_once": True, "attempts": 3},
                                   "2.1": here["exercises"]["2.1"], "3.1": imported["exercises"]["3.1"]}
    assert merged["hints"] == {"1.1": 2, "3.1": 3} and set(merged["predictions"]) == {"p1", "p2"}
    assert fresh["exercises"] == imported["exercises"]


def test_merged_progress_reads_back_in_python(tmp_path):
    from agent_team import progress
    [merged] = node({"op": "merge", "here": "{broken", "imported": json.dumps(
        {"exercises": {"1.1": {"passed": True, "passed_once": True, "attempts": 2}}})})
    (tmp_path / "p.json").write_text(json.dumps(merged))
    assert progress.load(tmp_path / "p.json") == {"1.1": {"passed": True, "passed_once": True, "attempts": 2}}
