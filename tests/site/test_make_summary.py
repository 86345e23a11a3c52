"""`make test`'s summary (tools/make_summary.py): stage records in, the table and closing line out;
and its pytest plugin (tools/pytest_stage.py) counting a real run."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tools import make_summary as M

ROOT = Path(__file__).resolve().parents[2]


def stage(name, status=0, seconds=10.0, counts=None, skips=(), notes=(), started=0):
    return {"name": name, "exit": status, "seconds": seconds, "counts": counts, "skips": list(skips),
            "notes": list(notes), "started": started}


def counts(**kw):
    return {c: kw.get(c, 0) for c in M.COLUMNS}


ALL_GREEN = [
    stage("lint", seconds=3.2),
    stage("cpython", seconds=372, counts=counts(passed=2900, skipped=2, xfailed=3)),
    stage("notebooks", seconds=65, counts=counts(passed=310)),
    stage("pyodide", seconds=130, counts=counts(passed=1500, skipped=20)),
    stage("browser", seconds=700, counts=counts(passed=60, skipped=4)),
]


def test_all_green_ends_like_pytest_and_exits_0():
    text = M.summary(ALL_GREEN)
    assert text.splitlines()[-1] == "========== 4770 passed, 26 skipped, 3 xfailed in 21m10s =========="
    assert "FAILED" not in text and not re.search(r"\bfailed", text.splitlines()[-1])
    assert M.exit_code(ALL_GREEN) == 0


def test_every_stage_has_a_row_with_its_counts_and_time():
    rows = {line.split()[0]: line.split() for line in M.summary(ALL_GREEN).splitlines()[3:8]}
    assert list(rows) == ["lint", "cpython", "notebooks", "pyodide", "browser"]
    assert rows["lint"] == ["lint", "ok", "-", "-", "-", "-", "-", "-", "3.2s"]
    assert rows["cpython"] == ["cpython", "ok", "2900", "0", "0", "2", "3", "0", "6m12s"]
    assert rows["browser"][-1] == "11m40s"


def test_a_failed_test_fails_its_stage_the_line_and_the_exit_code():
    records = [*ALL_GREEN[:2], stage("notebooks", status=1, seconds=60, counts=counts(passed=309, failed=1)),
               *ALL_GREEN[3:]]
    text = M.summary(records)
    assert "notebooks  FAILED" in text
    assert text.splitlines()[-1] == ("========== 1 failed, 4769 passed, 26 skipped, 3 xfailed in 21m05s; "
                                     "FAILED stage: notebooks ==========")
    assert M.exit_code(records) == 1


def test_a_stage_that_fails_without_a_failed_test_is_still_named():
    records = [stage("lint", status=1, seconds=2), *ALL_GREEN[1:],
               stage("late", status=2, seconds=1, counts=counts(passed=3))]
    text = M.summary(records)
    assert "lint: FAILED: exit 1, no test counts (see its output above)" in text
    assert "late: FAILED: exit 2" in text
    assert text.splitlines()[-1].endswith("; FAILED stages: lint, late ==========")
    assert " failed," not in text.splitlines()[-1]  # no test failed: the line does not invent one
    assert M.exit_code(records) == 1


def test_errors_are_counted_as_pytest_words_them():
    one = [stage("cpython", status=1, counts=counts(passed=5, error=1))]
    two = [stage("cpython", status=1, counts=counts(passed=5, error=2))]
    assert "5 passed, 1 error in" in M.summary(one).splitlines()[-1]
    assert "5 passed, 2 errors in" in M.summary(two).splitlines()[-1]


def test_skip_reasons_say_which_engine_or_model_was_left_out():
    why = "firefox is not in ENGINES (chromium): its tests were not run"
    records = [stage("browser", counts=counts(passed=3, skipped=12),
                     skips=[(why, 9), ("models/x missing: run `make models`", 3)],
                     notes=["engines: chromium (not firefox webkit: their tests are skipped)"])]
    lines = M.summary(records).splitlines()
    assert "  browser: engines: chromium (not firefox webkit: their tests are skipped)" in lines
    assert f"  browser: skipped 9: {why}" in lines
    assert "  browser: skipped 3: models/x missing: run `make models`" in lines


def test_many_skip_reasons_are_cut_with_the_rest_counted():
    skips = [(f"reason {i}", 10 - i) for i in range(9)]
    text = M.summary([stage("cpython", counts=counts(passed=1, skipped=sum(n for _, n in skips)), skips=skips)])
    assert "skipped 10: reason 0" in text and "reason 6" not in text
    assert "skipped 9 more, for 3 other reasons" in text


def test_no_stage_at_all_is_a_failure():
    assert M.exit_code([]) == 1
    assert "FAILED" in M.summary([]).splitlines()[-1]


def test_a_zero_exit_with_failures_counted_is_not_called_ok():
    records = [stage("odd", status=0, counts=counts(passed=1, failed=1))]
    assert M.failed(records[0]) == "failures counted"
    assert M.exit_code(records) == 1


@pytest.mark.parametrize("line,expected", [
    ("==== 3 failed, 10 passed, 2 skipped in 2.10s ====", {"failed": 3, "passed": 10, "skipped": 2}),
    ("12 passed, 1 xfailed, 2 warnings in 0.50s", {"passed": 12, "xfailed": 1}),
    ("===== 1 passed, 2 errors in 1.00s (0:00:01) =====", {"passed": 1, "error": 2}),
])
def test_pytest_closing_lines_are_read(line, expected):
    got = M.parse_closing_line(f"noise\n{line}\ntrailing words\n")
    assert {k: v for k, v in got.items() if v} == expected


def test_no_closing_line_means_no_counts():
    assert M.parse_closing_line("lint: all good\n") is None


def test_durations():
    assert [M.duration(s) for s in (0.04, 59.94, 60, 3599, 3600)] == ["0.0s", "59.9s", "1m00s", "59m59s", "1h00m00s"]


def test_merge_adds_up_several_runs():
    lines = [{"counts": {"passed": 2, "skipped": 1}, "skips": [["a", 1]]},
             {"counts": {"passed": 3, "failed": 1}, "skips": []}]
    got, skips = M.merge(lines)
    assert got == {"passed": 5, "skipped": 1, "failed": 1} and skips == [("a", 1)]


@pytest.mark.slow  # a nested pytest
def test_run_records_a_real_pytest_through_the_plugin_and_a_nested_one_writes_nothing(tmp_path):
    tests = tmp_path / "t"
    tests.mkdir()
    (tests / "test_some.py").write_text(
        "import os, subprocess, sys, pytest\n"
        "def test_ok():\n    assert 'AGENT_TEAM_STAGE_FILE' not in os.environ\n"
        "def test_bad():\n    assert False\n"
        "def test_left_out():\n    pytest.skip('firefox is not in ENGINES (chromium)')\n"
        "@pytest.mark.xfail(strict=True)\ndef test_known():\n    assert False\n")
    folder = tmp_path / "stages"
    command = [sys.executable, "-m", "pytest", "-p", "tools.pytest_stage", "-q", "-p", "no:cacheprovider",
               "--rootdir", str(tests), str(tests)]
    record = subprocess.run([sys.executable, "tools/make_summary.py", "run", "--dir", str(folder), "--name", "demo",
                             "--note", "a note", "--", *command], cwd=ROOT, capture_output=True, text=True)
    assert record.returncode == 0, record.stderr  # the runner goes on; the record holds the result
    assert "1 failed, 1 passed, 1 skipped, 1 xfailed" in record.stdout  # the stage's own output passed through
    saved = json.loads((folder / "demo.json").read_text())
    assert saved["exit"] == 1 and saved["notes"] == ["a note"]
    assert {k: v for k, v in saved["counts"].items() if v} == {"passed": 1, "failed": 1, "skipped": 1, "xfailed": 1}
    assert saved["skips"] == [["firefox is not in ENGINES (chromium)", 1]]
    shown = subprocess.run([sys.executable, "tools/make_summary.py", "print", "--dir", str(folder)],
                           cwd=ROOT, capture_output=True, text=True)
    assert shown.returncode == 1
    assert shown.stdout.splitlines()[-1].startswith("========== 1 failed, 1 passed, 1 skipped, 1 xfailed in ")
