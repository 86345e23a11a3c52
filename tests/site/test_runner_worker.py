"""The browser runner's script (website/runner-worker.js) and the site's service worker
(website/service-worker.js) are type-checked by tsc as they are shipped.

Both are plain JavaScript (the site serves them unchanged), so their types are JSDoc comments,
checked by website/tsconfig.json; the browser runs the runner in tests/browser/test_models.py, and
the service worker's rules run in Node.js in tests/site/test_offline.py.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TSC = ROOT / "node_modules" / ".bin" / "tsc"
SCRIPT = "runner-worker.js"
SERVICE_WORKER = "service-worker.js"

needs_tsc = pytest.mark.skipif(shutil.which("node") is None or not TSC.exists(),
                               reason="needs Node.js and `npm ci` (node_modules/.bin/tsc)")


def tsc(folder):
    done = subprocess.run([str(TSC), "-p", str(folder)], capture_output=True, text=True, timeout=300, cwd=folder)
    return done.returncode, done.stdout + done.stderr


@needs_tsc
def test_the_runner_worker_script_type_checks():
    code, said = tsc(ROOT / "website")
    assert code == 0, said


def mutant(tmp_path, script, good, bad):
    """A copy of website/'s checked scripts and configuration in which `script` has `bad` for `good`."""
    for name in (SCRIPT, SERVICE_WORKER):
        source = (ROOT / "website" / name).read_text()
        if name == script:
            assert source.count(good) == 1
            source = source.replace(good, bad)
        (tmp_path / name).write_text(source)
    shutil.copy(ROOT / "website" / "tsconfig.json", tmp_path / "tsconfig.json")
    (tmp_path / "node_modules").symlink_to(ROOT / "node_modules")  # Pyodide's types, as in the repository


@needs_tsc
@pytest.mark.parametrize("script,good,bad,error", [
    # a reply of a number where a string is due
    (SCRIPT, "reply(JSON.stringify({booted: true}));", "reply(1);", "TS2345"),
    # a siteFile that returns a number where its JSDoc says a string
    (SERVICE_WORKER, "return FILES.has(path) ? path : '';", "return FILES.has(path) ? path : 0;", "TS2322"),
], ids=["runner worker", "service worker"])
def test_a_type_error_in_a_site_script_is_caught(tmp_path, script, good, bad, error):
    # the same configuration over a copy with one type error in it
    mutant(tmp_path, script, good, bad)
    code, said = tsc(tmp_path)
    assert code != 0 and error in said and script in said, said
    assert said.count("error TS") == 1, said
