"""The browser runner's script (website/runner-worker.js) is type-checked by tsc as it is shipped.

It is plain JavaScript (the site serves it unchanged, with its content security policy), so its
types are JSDoc comments, checked by website/tsconfig.json; the browser runs it in
tests/browser/test_models.py.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TSC = ROOT / "node_modules" / ".bin" / "tsc"
SCRIPT = "runner-worker.js"

needs_tsc = pytest.mark.skipif(shutil.which("node") is None or not TSC.exists(),
                               reason="needs Node.js and `npm ci` (node_modules/.bin/tsc)")


def tsc(folder):
    done = subprocess.run([str(TSC), "-p", str(folder)], capture_output=True, text=True, timeout=300, cwd=folder)
    return done.returncode, done.stdout + done.stderr


@needs_tsc
def test_the_runner_worker_script_type_checks():
    code, said = tsc(ROOT / "website")
    assert code == 0, said


@needs_tsc
def test_a_type_error_in_the_runner_worker_script_is_caught(tmp_path):
    # the same configuration over a copy that replies with a number where a string is due
    source = (ROOT / "website" / SCRIPT).read_text()
    assert "reply(JSON.stringify({booted: true}));" in source
    (tmp_path / SCRIPT).write_text(source.replace("reply(JSON.stringify({booted: true}));", "reply(1);"))
    shutil.copy(ROOT / "website" / "tsconfig.json", tmp_path / "tsconfig.json")
    (tmp_path / "node_modules").symlink_to(ROOT / "node_modules")  # Pyodide's types, as in the repository
    code, said = tsc(tmp_path)
    assert code != 0 and "TS2345" in said and SCRIPT in said, said
    assert said.count("error TS") == 1, said
