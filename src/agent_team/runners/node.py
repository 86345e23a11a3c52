"""The class grader's runner: exercise jobs in Pyodide under Node.js, isolated from this machine (host side).

Each runner is one ``node`` process with Node's permission model switched on:
it may read only Pyodide's folder and the two runner scripts, write nothing,
start no process, and compile no code from strings; it starts with an empty
environment in an empty temporary folder. The engine's source is sent to it as
text (:mod:`.sources`), so no host folder is mounted. Inside, ``node_worker.mjs``
also removes the JavaScript doors Pyodide leaves open (``require``, ``fetch``,
``process``...) and :mod:`agent_team.classroom.inside` grades each job with fresh
interpreter state. Where the system allows an unprivileged network namespace
(``unshare -rn``, asked once in :mod:`.namespaces`), the runner gets no network
interface at all as well.

Jobs are dealt round-robin to ``workers`` runners that work in parallel.
"""

import json
import os
import shutil
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .namespaces import network_off
from .sources import PACKAGE, package_sources

__all__ = ["Limits", "find_pyodide", "run_jobs", "RunnerError"]

HERE = Path(__file__).resolve().parent
RUNNER, WORKER = HERE / "node_runner.mjs", HERE / "node_worker.mjs"


class RunnerError(RuntimeError):
    """The grading runner could not start (no Node.js, no Pyodide): nothing was graded."""


@dataclass
class Limits:
    """What one graded job may take: wall seconds, Pyodide's heap, and characters of output."""
    seconds: float = 30.0
    memory_mb: int = 1024
    output_chars: int = 1_000_000


def find_pyodide(explicit=None):
    """Pyodide's npm folder: ``--pyodide``, $AGENT_TEAM_PYODIDE, ./node_modules/pyodide, or the repo's."""
    candidates = [explicit, os.environ.get("AGENT_TEAM_PYODIDE"), Path.cwd() / "node_modules/pyodide",
                  PACKAGE.parents[1] / "node_modules/pyodide"]
    for candidate in candidates:
        if candidate and (Path(candidate) / "pyodide.mjs").is_file():
            return Path(candidate).resolve()
    raise RunnerError("Pyodide was not found: run `npm install pyodide@314.0.6` here (or `npm ci` in the "
                      "course repository), or pass --pyodide PATH/TO/node_modules/pyodide")


def command(pyodide):
    node = shutil.which("node")
    if not node:
        raise RunnerError("Node.js was not found: install Node.js 20 or newer (e.g. `apt-get install nodejs`)")
    version = ""
    try:
        version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout
        major = int(version.strip().lstrip("v").split(".")[0])
    except (OSError, ValueError, subprocess.SubprocessError):
        major = 0
    if major < 20:
        raise RunnerError(f"Node.js {version.strip() or '(unknown version)'} is too old: the grader needs 20 "
                          "or newer for its permission model (the isolation of learner code)")
    return [*network_off(), node, "--experimental-permission", f"--allow-fs-read={pyodide}/",
            f"--allow-fs-read={RUNNER}", f"--allow-fs-read={WORKER}",
            "--allow-worker", "--disallow-code-generation-from-strings", "--no-warnings",
            "--max-old-space-size=512", str(RUNNER), str(pyodide)]


def run_jobs(jobs, limits=None, workers=1, pyodide=None):
    """Grade ``jobs`` (dicts as ``inside.run`` reads them); returns one result dict per job, in order."""
    limits = limits or Limits()
    if not jobs:
        return []
    argv = command(find_pyodide(pyodide))
    files = package_sources()
    results = [None] * len(jobs)
    shares = [list(range(i, len(jobs), max(1, workers))) for i in range(max(1, min(workers, len(jobs))))]
    errors = []
    with ThreadPoolExecutor(max_workers=len(shares)) as pool:  # one Node process per share, side by side
        list(pool.map(lambda share: _share_or_error(argv, files, jobs, share, limits, results, errors), shares))
    if errors and all(r is None for r in results):
        raise RunnerError(errors[0])
    return [r or {"status": "crashed", "message": errors[0] if errors else "the runner stopped"}
            for r in results]


def _share_or_error(*args):
    """_run_share, whose failure leaves its jobs ungraded ("crashed", with the reason), not the class."""
    try:
        _run_share(*args)
    except (OSError, ValueError) as err:  # a pipe that broke, a RESULT line that is not JSON
        args[-1].append(f"the grading runner failed: {err!r}"[:500])


def _run_share(argv, files, jobs, share, limits, results, errors):
    payload = json.dumps({
        "files": files,
        "jobs": [{**jobs[i], "output_limit": limits.output_chars} for i in share],
        "limits": {"seconds": limits.seconds, "memory_mb": limits.memory_mb},
    })
    with tempfile.TemporaryDirectory(prefix="agent-team-grade-") as empty:
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, cwd=empty, env={}, text=True)
        except OSError as err:
            errors.append(f"could not start Node.js: {err}")
            return
        feeder = threading.Thread(target=_feed, args=(proc, payload))
        feeder.start()
        done = 0
        for line in proc.stdout:
            kind, _, body = line.partition(" ")
            if kind == "RESULT" and done < len(share):
                results[share[done]] = json.loads(body)
                done += 1
        feeder.join()
        stderr = proc.stderr.read()
        proc.wait()
        if done < len(share):
            errors.append(f"the grading runner stopped (exit {proc.returncode}): {stderr.strip()[-500:]}")


def _feed(proc, payload):
    try:
        proc.stdin.write(payload)
        proc.stdin.close()
    except OSError:
        pass
