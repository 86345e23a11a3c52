"""website/snapshot.py: the key of the kernel's snapshot changes with everything the snapshot holds."""

import json

import pytest

from website import prewarm, snapshot

OPTIONS = {"packages": ["ipykernel", "agent_team"]}


@pytest.fixture
def site(tmp_path):
    (tmp_path / "static" / "pyodide").mkdir(parents=True)
    (tmp_path / "static" / "pyodide" / "pyodide-lock.json").write_text('{"packages": {"agent-team": {"sha256": "a"}}}')
    (tmp_path / prewarm.STATIC).mkdir(parents=True)
    (tmp_path / prewarm.STATIC / "coincident.worker.1.js").write_text("boot(); import pyodide_kernel")
    (tmp_path / prewarm.STATIC / "comlink.worker.2.js").write_text("boot(); import pyodide_kernel")
    return tmp_path


def test_the_key_is_written_where_the_worker_reads_it(site):
    snapshot.patch(site, OPTIONS)
    written = json.loads((site / "static" / "pyodide" / "agent-team-snapshot.json").read_text())
    assert written == {"key": snapshot.key(site, OPTIONS)}
    assert len(written["key"]) == 64 and int(written["key"], 16) >= 0


@pytest.mark.parametrize("change", ["a wheel", "the packages", "the worker's code"])
def test_the_key_changes_with_what_the_snapshot_holds(site, change):
    before = snapshot.key(site, OPTIONS)
    assert snapshot.key(site, dict(OPTIONS)) == before  # the same build: the same key
    options = OPTIONS
    if change == "a wheel":
        (site / "static" / "pyodide" / "pyodide-lock.json").write_text('{"packages": {"agent-team": {"sha256": "b"}}}')
    elif change == "the packages":
        options = {"packages": ["ipykernel"]}
    else:
        (site / prewarm.STATIC / "comlink.worker.2.js").write_text("boot(); import pyodide_kernel, IPython")
    assert snapshot.key(site, options) != before


def test_a_site_without_the_plugin_workers_stops_the_build(site):
    for worker in (site / prewarm.STATIC).iterdir():
        worker.unlink()
    with pytest.raises(SystemExit, match="no worker files"):
        snapshot.key(site, OPTIONS)
