"""The course page's kernel calling a model server on another origin (docs/models.md).

The site's kernel (a Web Worker) runs agent_team.realteam.models against the project's fault server on
another port of 127.0.0.1 (and the real model's server, tests/llama.py): a cross-origin call with a
key, preflighted. Checked: a reply parses with its token counts; a server that sends no CORS header
is reported as a CORS refusal in words (not a crash); a slow server is cut off by the request's own
timeout (the worker's synchronous XMLHttpRequest, which no trace hook could stop) within the
caller's limit; with a key in the kernel, model-written code runs only in the runner worker (no
key, no network, a time limit, a memory cap), whose first boot answers even when the next cell
asks for it at once (issue 22) and whose silent boot is ended within its limit; a team run in the
very cell that made the model has its code tested there (and, where the kernel cannot yield,
runs no code and says why); the key typed into the password box is in no stored byte after save
and reload, in no file of the "download my work" zip, and in nothing agent-team-grade writes
about that zip. Firefox runs the cross-origin calls, the real model's, the runner worker and the
first run at once too (model_page.py holds the cells and the checks both engines share).
"""

import os
import re
import socket
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from hostile_server import Hostile, allow_all, redirect_to
from model_page import (JS_FIND_STORED, JS_WRITE_CELLS, KEY, check_boot_bounded, check_connect_tells_apart,
                        check_cross_origin, check_live_eval_shows_progress, check_testing_shown,
                        check_echoes, check_first_run_at_once, check_real_model, check_redirect_not_followed,
                        check_runner, prepare, run)

from browsers import driver, engines

import llama
from fault_server import FaultServer

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def faults():
    server = FaultServer().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def real_model():
    """The real model's server (tests/llama.py), started only for the test that uses it."""
    problem = llama.missing()
    if problem:
        if os.environ.get("AGENT_TEAM_REAL_MODEL") == "1":
            pytest.fail(problem)
        pytest.skip(problem)
    process, url = llama.start()
    yield url
    llama.stop(process)


@pytest.fixture
def page(request, browser, site_url, faults):
    """A fresh context whose network guard lets the model servers' origins through, and only them."""
    context = browser.new_context()
    guard = driver.Guard(driver._origin(site_url))
    servers = [faults.url] + ([request.getfixturevalue("real_model")] if "real_model" in request.fixturenames else [])
    if "hostile" in request.fixturenames:
        servers.append(request.getfixturevalue("hostile").url)
    if "nobody" in request.fixturenames:  # let through, so that nothing but its silence answers the page
        servers.append(request.getfixturevalue("nobody"))
    if "redirects" in request.fixturenames:  # both let through: the guard must not be what stops a redirect
        servers += [listener.url for listener in request.getfixturevalue("redirects")]
    allowed = "|".join(re.escape(origin + "/") for origin in (guard.origin, *servers))
    context.route(re.compile(f"^(?!{allowed})(?!data:)(?!blob:)"), guard.route)
    context.on("request", guard.on_request)
    page = context.new_page()
    prepare(page, site_url, faults.url)
    yield page
    context.close()
    assert [u for u in guard.blocked if not u.startswith(tuple(servers))] == []  # on_request lists them all


@pytest.fixture(scope="module")
def firefox(site_url, faults):
    """Firefox ESR's page (engines.py: a fresh profile, every host but 127.0.0.1 refused by its proxy),
    one for this module's Firefox tests (its first visit is most of their time)."""
    why_not = engines.available("firefox")
    if why_not:
        pytest.skip(why_not)
    page = engines.open_page("firefox")
    page.set_default_timeout(150_000)  # one evaluate may wait for a cell's 120 s
    try:
        prepare(page, site_url, faults.url, timeout=180)
        page.servers = [faults.url]  # the model servers it may call (a test adds the real model's)
        yield page
        assert [u for u in page.foreign_requests() if not u.startswith(tuple(o + "/" for o in page.servers))] == []
    finally:
        page.close()


class _Log:
    """Firefox's console so far, read when a failed test's report is written (conftest.py)."""

    def __init__(self, page):
        self.page = page

    def __bool__(self):
        return True

    def __iter__(self):
        return iter(self.page.log())


@pytest.fixture(autouse=True)
def firefox_log(request):
    """Under a failed Firefox test, the module's Firefox page's console (it outlives the test)."""
    if "firefox" in request.fixturenames:
        request.node.page_log = _Log(request.getfixturevalue("firefox"))


def test_cross_origin_calls_from_the_kernel_a_reply_a_cors_refusal_a_timeout(page, faults):
    """One page for the three (opening a notebook in a fresh context is most of a test's time)."""
    check_cross_origin(page, faults)


def test_cross_origin_calls_from_the_kernel_in_firefox(firefox, faults):
    """The same in Firefox, whose synchronous XMLHttpRequest reports a CORS refusal as status 0."""
    check_cross_origin(firefox, faults)


@pytest.fixture(scope="module")
def nobody():
    """An address on 127.0.0.1 where nothing listens (a port bound, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


def test_test_connection_tells_a_cors_refusal_from_nothing_listening(page, faults, nobody):
    check_connect_tells_apart(page, faults, nobody)


def test_test_connection_tells_a_cors_refusal_from_nothing_listening_in_firefox(firefox, faults, nobody):
    """Firefox refuses the probe an opaque answer from a server without Cross-Origin-Resource-Policy (the
    site is cross-origin isolated), so it cannot tell: both causes stay on the form, each with its fix."""
    firefox.servers.append(nobody)
    check_connect_tells_apart(firefox, faults, nobody, probe_sees_answers=False)


def test_the_live_eval_shows_each_case_while_it_waits(page, faults):
    check_live_eval_shows_progress(page, faults)


def test_the_live_eval_shows_each_case_while_it_waits_in_firefox(firefox, faults):
    check_live_eval_shows_progress(firefox, faults)


def test_the_connect_forms_button_says_testing_while_it_waits(page, faults):
    check_testing_shown(page, faults)


@pytest.fixture(scope="module")
def hostile():
    """A hostile model server with CORS (tests/hostile_server.py)."""
    with Hostile(cors=True) as server:
        yield server


def test_a_key_echoed_in_any_encoding_reaches_nothing_a_turn_hands_on(hostile, page):
    check_echoes(page, hostile)


def test_a_key_echoed_in_any_encoding_reaches_nothing_a_turn_hands_on_in_firefox(hostile, firefox):
    firefox.servers.append(hostile.url)
    check_echoes(firefox, hostile)


@pytest.fixture(scope="module")
def redirects():
    """(a model server that redirects every call to another origin, that origin), each a Hostile server."""
    with Hostile(cors=True, default=allow_all) as elsewhere, \
            Hostile(cors=True, default=redirect_to(elsewhere.url)) as server:
        yield server, elsewhere


def test_a_keyed_call_redirected_to_another_origin_is_not_followed(redirects, page):
    check_redirect_not_followed(page, *redirects)


def test_a_keyed_call_redirected_to_another_origin_is_not_followed_in_firefox(redirects, firefox):
    firefox.servers += [listener.url for listener in redirects]
    check_redirect_not_followed(firefox, *redirects)


def test_the_kernel_calls_the_real_model_server_cross_origin(real_model, page):
    check_real_model(page, real_model)


def test_the_kernel_calls_the_real_model_server_cross_origin_in_firefox(real_model, firefox):
    firefox.servers.append(real_model)
    check_real_model(firefox, real_model)


def test_a_team_run_in_the_cell_that_made_a_keyed_model_runs_its_code_in_the_runner(page, faults):
    """The page starts the runner, so the cell that made the model may run the team at once: the
    kernel waits for the runner's first boot blocked, without its event loop (no JSPI needed; a
    worker the kernel started itself never started there in Chromium, issue 22)."""
    team = ("from agent_team.supervisor import supervise\n"
            "from agent_team.runners import browser\n"
            f"model = openai_chat({faults.url + '/ok/v1'!r}, 'smol', key={KEY!r})\n"
            "browser._stop()  # a first boot, in this cell\n"
            "team = {r: llm_policy(r, model, retries=0, seconds=10)\n"
            "        for r in ('planner', 'coder', 'reviewer')}\n"
            "result = supervise(max_rounds=1, seconds=60, **team)\n"
            "print(result.status, result.tests['passed'], result.tests['errors'][:1])\n"
            f"import json; print({KEY[-12:]!r} in json.dumps(result.trace))")
    assert run(page, team, timeout=120) == "pass 4 []\nFalse\n"


def test_the_key_is_in_no_stored_byte_the_zip_or_the_graders_output(page, faults, site_url, tmp_path):
    """The learner types the key into getpass's password box, runs a real turn, saves, downloads
    their work, reloads: the key is in no stored byte, in no file of the zip, and in nothing that
    agent-team-grade says about that zip."""
    cells = [
        "from agent_team.realteam.models import ask_key, openai_chat\n"
        f"model = openai_chat({faults.url + '/echo/v1'!r}, 'smol', key=ask_key())",
        "out, _ = turn('echo', key=model._key)\nprint(out['attempts'][0]['failure'], out['message'])\nout",
        "print(repr(model))",
        "from agent_team.widgets.download import DownloadWork\nDownloadWork()",
    ]
    assert page.evaluate(JS_WRITE_CELLS, cells) == len(cells)
    page.evaluate(driver.JS_START_RUN_ALL, "notebook:run-all-cells")
    box = page.locator("input[type=password]")
    box.wait_for(timeout=60_000)
    box.fill(KEY)
    box.press("Enter")
    page.wait_for_function(driver.JS_RUN_ALL_DONE, timeout=120_000, polling=100)
    outputs = [driver.text_of(o) for cell in driver.cells(page) for o in cell.get("outputs", [])]
    assert any("None your key is <hidden>" in text for text in outputs), outputs
    assert faults.requests[-1]["headers"]["authorization"] == f"Bearer {KEY}"  # the key was used
    save(page)
    zipped = download_my_work(page, tmp_path / "work.zip")
    with zipfile.ZipFile(zipped) as archive:  # deflated: each file is searched as it unpacks
        files = {name: archive.read(name) for name in archive.namelist()}
    assert b"your key is <hidden>" in files["smoke.ipynb"], sorted(files)  # this run's saved outputs
    assert [name for name, data in files.items() if KEY.encode() in data] == []
    assert KEY.encode() not in zipped.read_bytes()
    graded = subprocess.run([sys.executable, "-m", "agent_team.grade", str(zipped), "--json", str(tmp_path / "g.json"),
                             "--markdown", str(tmp_path / "g.md")], capture_output=True, text=True, cwd=ROOT,
                            timeout=300)
    said = graded.stdout + graded.stderr + (tmp_path / "g.json").read_text() + (tmp_path / "g.md").read_text()
    assert "smoke.ipynb" in graded.stdout and "exercises passed" in graded.stdout, said[-2000:]
    assert KEY not in said and KEY[-12:] not in said
    save(page)  # the button's link is widget state: saved too, then searched with the rest
    page.reload()
    driver.wait_kernel_idle(page)
    driver.wait_snapshot_stored(page)
    result = page.evaluate(JS_FIND_STORED, KEY)
    assert result["searched"] > 1_000_000  # the snapshot and the notebooks were read
    assert result["found"] == [], result["found"]
    saved = page.evaluate(JS_FIND_STORED, "your key is <hidden>")
    assert any("idb" in where for where in saved["found"]), saved  # the saved notebook was among them


def save(page):
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=30_000)


def download_my_work(page, path):
    """Press "download my work" (the last cell's widget) and save the zip its link offers."""
    page.locator("button:has-text('download my work')").last.click()
    link = page.locator("a[download='agent-team-work.zip']")
    link.wait_for(timeout=60_000)
    with page.expect_download() as download:
        link.click()
    download.value.save_as(path)
    return path


def test_model_written_code_runs_in_a_worker_with_no_key_and_no_network(page, faults):
    """A model holding a key starts the runner worker; the team, run in the next cell, is tested there."""
    check_runner(page, faults)


def test_model_written_code_runs_in_a_worker_with_no_key_and_no_network_in_firefox(firefox, faults):
    check_runner(firefox, faults)


def test_the_runner_answers_a_first_run_asked_at_once_every_time_in_firefox(firefox, faults):
    check_first_run_at_once(firefox, faults, times=20)


def test_the_runner_answers_a_first_run_asked_at_once_every_time_and_a_silent_boot_is_ended(page, faults):
    check_first_run_at_once(page, faults)
    check_boot_bounded(page)
