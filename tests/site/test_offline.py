"""The service worker's keeping rules (website/service-worker.js), in Node.js with a scripted network
(tests/site/node/service_worker.mjs), and the build's side (website/offline.py, website/labfetch.py).
The browser walks the whole visit: tests/browser/test_offline.py.
"""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from website import labfetch, offline

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ROOT / "tests" / "site" / "node" / "service_worker.mjs"
SOURCE = (ROOT / "website" / "service-worker.js").read_text()
LAB = {"path": "lab/index.html?path=01.ipynb", "mode": "navigate", "destination": "document"}
CHUNK = {"path": "build/1031.b91a70b.js"}
T1, T2 = "Tue, 01 Dec 2026 20:00:00 GMT", "Tue, 01 Dec 2026 21:00:00 GMT"
SITE = {"files": ["index.html", "lab/index.html", "build/1031.b91a70b.js", "static/pyodide/pyodide.asm.wasm"],
        "immutable": ["build/1031.b91a70b.js"]}

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")


def run(steps, *sites):
    builds = [offline.written(SOURCE, site) for site in (sites or [SITE])]
    done = subprocess.run(["node", str(HARNESS)], input=json.dumps({"builds": builds, "steps": steps}),
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@needs_node
def test_a_page_asks_the_server_first_and_falls_back_to_the_kept_copy():
    first, down, same, newer, down_again = run([
        {"request": LAB, "network": {"status": 200, "body": "lab v1", "lastModified": T1}},
        {"request": LAB},
        {"request": LAB, "network": {"status": 200, "body": "lab v1", "lastModified": T1}},
        {"request": LAB, "network": {"status": 200, "body": "lab v2", "lastModified": T2}},
        {"request": {**LAB, "path": "lab/index.html?path=02.ipynb"}},
    ])
    assert (first["body"], first["coop"]) == ("lab v1", "same-origin")
    assert [s["cache"] for s in first["sent"]] == ["default"], "a file not kept yet is fetched as the browser would"
    assert (down["status"], down["body"], down["coop"]) == (200, "lab v1", "same-origin"), \
        "with the server down, the kept page, isolated again"
    assert same["body"] == "lab v1" and same["sent"] == [
        {"url": "https://site.test/course/lab/index.html?path=01.ipynb", "cache": "no-store", "ifModifiedSince": T1}], \
        "an unchanged page costs a 304 past the HTTP cache"
    assert newer["body"] == "lab v2", "a newly published page is never hidden behind the kept one"
    assert down_again["body"] == "lab v2", "the page is kept once, whatever its query"


@needs_node
def test_a_file_not_kept_yet_is_left_to_the_browser_and_kept_from_its_http_cache():
    first, again, wasm = run([
        {"request": CHUNK, "network": {"status": 200, "body": "chunk", "lastModified": T1}},
        {"request": CHUNK, "network": {"status": 200, "body": "not asked", "lastModified": T2}},
        {"request": {"path": "static/pyodide/pyodide.asm.wasm"}, "network": {"status": 200, "body": "wasm"}},
    ])
    assert not first["handled"], "a first visit's files do not pass through the worker (its start-up)"
    assert [s["cache"] for s in first["sent"]] == ["only-if-cached"], \
        "kept afterwards from the HTTP cache, never fetched twice"
    assert again["handled"] and again["body"] == "chunk" and again["sent"] == [], \
        "a hashed file, once kept, is taken from the cache without asking"
    assert again["coop"] is None, "a script that is no worker needs no headers"
    assert not wasm["handled"] and [s["cache"] for s in wasm["sent"]] == ["only-if-cached"]


@needs_node
def test_what_the_worker_leaves_alone_or_cannot_serve():
    drive, foreign, ranged, missing, down, later = run([
        {"request": {"path": "api/drive.v1", "method": "GET"}, "network": {"status": 200, "body": "x"}},
        {"request": {"path": "not/a/site/file.js"}, "network": {"status": 200, "body": "x"}},
        {"request": {**CHUNK, "headers": {"range": "bytes=0-1"}}, "network": {"status": 206, "body": "x"}},
        {"request": {"path": "static/pyodide/pyodide.asm.wasm"}, "network": {"status": 404, "body": "gone"}},
        {"request": {"path": "static/pyodide/pyodide.asm.wasm"}},
        {"request": {"path": "static/pyodide/pyodide.asm.wasm"}, "network": {"status": 200, "body": "wasm"}},
    ])
    assert not drive["handled"] and not drive["sent"], "JupyterLite's own paths are its worker's"
    assert not foreign["handled"] and not ranged["handled"], "only whole files of the site are kept"
    assert not foreign["sent"] and not ranged["sent"]
    assert not missing["handled"] and not down["handled"], "nothing kept: the browser's own answer, or error"
    assert not later["handled"] and [s["cache"] for s in later["sent"]] == ["only-if-cached"], \
        "a 404 or a failed fetch is never kept: the file is kept once it is fetched whole"


@needs_node
def test_the_runner_script_alone_is_served_with_its_policy():
    """The isolated runner's worker (website/runner-worker.js) gets a policy that allows this
    site's scripts and files only; the kernel's worker and the pages get none (they need more)."""
    site = {**SITE, "files": SITE["files"] + ["agent-team-runner.js", "kernel.worker.js"]}
    worker = {"mode": "same-origin", "destination": "worker"}
    runner, kernel, page = run([
        {"request": {**worker, "path": "agent-team-runner.js"}, "network": {"status": 200, "body": "runner"}},
        {"request": {**worker, "path": "kernel.worker.js"}, "network": {"status": 200, "body": "kernel"}},
        {"request": LAB, "network": {"status": 200, "body": "lab"}},
    ], site)
    assert (runner["body"], runner["coop"]) == ("runner", "same-origin")
    policy = dict(part.strip().split(" ", 1) for part in runner["csp"].split(";"))
    assert policy["default-src"] == "'none'" and policy["connect-src"] == "'self'", policy
    assert policy["script-src"] == "'self' 'wasm-unsafe-eval'" and policy["worker-src"] == "'none'", policy
    assert (kernel["csp"], page["csp"]) == (None, None)


@needs_node
def test_a_new_build_drops_the_files_it_no_longer_has():
    newer = {"files": ["index.html", "lab/index.html", "build/1031.ffffff0.js"], "immutable": ["build/1031.ffffff0.js"]}
    *_, activated = run([
        {"request": LAB, "network": {"status": 200, "body": "lab v1"}},
        {"request": CHUNK, "network": {"status": 200, "body": "chunk"}},
        {"build": 1, "activate": True},
    ], SITE, newer)
    assert activated["kept"] == ["https://site.test/course/lab/index.html"]


def test_the_manifest_lists_every_file_and_the_hashed_ones(tmp_path):
    for name in ("index.html", "build/1031.b91a70b.js", "build/lab/bundle.js", "build/fa-solid-900.woff2",
                 "extensions/x/static/remoteEntry.8d38133a26792f58.js", "static/pyodide/pyodide.mjs",
                 "files/report.abcdef12.js"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    site = offline.manifest(tmp_path)
    assert len(site["files"]) == 7
    assert site["immutable"] == ["build/1031.b91a70b.js", "extensions/x/static/remoteEntry.8d38133a26792f58.js"]
    assert offline.written(SOURCE, site).count("const SITE = {\"files\":[") == 1


def test_the_recorded_chunks_resolve_to_this_builds_files_or_stop_the_build(tmp_path, monkeypatch):
    asked = ["build/1031.b91a70b.js", "build/lab/bundle.js?_=c9f706b",
             "extensions/x/static/7.2a0ce575775f5aad.js?v=2a0ce575775f5aad",
             "extensions/x/static/coincident.worker.aad34df22fc48574.js", "static/pyodide/pyodide.mjs"]
    monkeypatch.setattr(labfetch, "LIST", tmp_path / "lab-fetches.txt")
    assert labfetch.record(asked) == ["build/1031.*.js", "extensions/x/static/7.*.js?v=*"]
    site = tmp_path / "site"
    for name in ("build/1031.0000000.js", "extensions/x/static/7.1111111111111111.js"):
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text("x")
    assert labfetch.chunks(site) == ["build/1031.0000000.js",
                                     "extensions/x/static/7.1111111111111111.js?v=1111111111111111"]
    (site / "build/1031.0000000.js").unlink()
    with pytest.raises(SystemExit, match="rotted"):
        labfetch.chunks(site)


def test_the_site_plugins_chunks_come_from_the_build_not_the_list(tmp_path, monkeypatch):
    # A module added to the plugin renumbers its chunks: the list would rot with each change.
    own = f"{labfetch.OWN}/"
    monkeypatch.setattr(labfetch, "LIST", tmp_path / "lab-fetches.txt")
    assert labfetch.record([own + "937.2a0ce575775f5aad.js?v=2a0ce575775f5aad", "build/1031.b91a70b.js"]) == \
        ["build/1031.*.js"]
    site = tmp_path / "site"
    for name in ("build/1031.0000000.js", own + "61.1111111111111111.js", own + "remoteEntry.2222222222222222.js",
                 own + "comlink.worker.3333333333333333.js", own + "booted-pyodide.4444444444444444.mjs",
                 own + "style.js"):
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text("x")
    assert labfetch.chunks(site) == ["build/1031.0000000.js", own + "61.1111111111111111.js?v=1111111111111111",
                                     own + "remoteEntry.2222222222222222.js"]
    labfetch.LIST.write_text(own + "61.*.js?v=*\n")  # a list recorded before: said, not used
    with pytest.raises(SystemExit, match="own plugin"):
        labfetch.chunks(site)


def test_the_shipped_list_is_recorded():
    assert len(labfetch.recorded()) > 20, "website/lab-fetches.txt: record it (website/labfetch.py)"
