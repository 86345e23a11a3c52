"""The isolated runner (CPython, host side): the oracle, run on model-written code in another process.

Host-side only: this module starts a subprocess, which the engine's core never does; the
browser's kernel cannot use it. The child is started as ``python -I -S -B`` (no environment
variables read, no user site, no site module, no bytecode written) with an **empty environment**, in an empty
temporary directory, with OS limits: CPU seconds, address space, no file it may write
(``RLIMIT_FSIZE`` 0), few open files, and a wall-clock timeout after which it is killed.
Where the kernel allows unprivileged user namespaces, it also runs under ``unshare``
(:data:`ISOLATION` says which):

- ``-rn``: a new user and network namespace, so there is no network at all (not even
  127.0.0.1) and the parent's ``/proc/<pid>/environ`` and memory are out of reach;
- ``-p -f -m --mount-proc`` as well: a new process namespace, so no other process is visible.

Inside, the child runs the same oracle (its step budget and static rules still apply); it reads
the source on stdin and writes the report as JSON on stdout. What this does *not* guarantee:
without ``unshare`` a process of the same user can read the parent's ``/proc`` entries (keep
keys out of the environment then); it is not a VM, so a kernel bug is not contained; and a
report forged by code that escaped the oracle's sandbox inside the child is still believed
(the key is safe, the verdict then is not).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

__all__ = ["ISOLATION", "run_isolated", "run_python"]

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SECONDS = 10.0        # wall clock for one run, start-up included (read at call time)
CPU_SECONDS = 5
MEMORY_BYTES = 512 * 1024 * 1024
OUTPUT_CAP = 200_000  # bytes of report

_CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
from agent_team import oracle
report = oracle.run_tests({"src/fizzbuzz.py": sys.stdin.read()})
sys.stdout.write(json.dumps(report))
"""


def _probe(prefix):
    try:
        return subprocess.run([*prefix, "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def _isolation():
    """The strongest ``unshare`` this machine allows, as (name, command prefix)."""
    if shutil.which("unshare"):
        for name, prefix in (("user, network and process namespaces",
                              ["unshare", "-rn", "-p", "-f", "--kill-child", "-m", "--mount-proc"]),
                             ("user and network namespaces", ["unshare", "-rn"])):
            if _probe(prefix):
                return name, prefix
    return "none (no unshare allowed here): the child has the network and sees other processes", []


ISOLATION, _PREFIX = _isolation()


def _limits():
    import resource

    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (32, 32))


def run_python(code, stdin="", *args, seconds=None):
    """Run ``code`` in the isolated child; ``(returncode, stdout, stderr)``. The runner's one door."""
    seconds = SECONDS if seconds is None else seconds
    workdir = tempfile.mkdtemp(prefix="agent-team-run-")
    try:
        done = subprocess.run([*_PREFIX, sys.executable, "-I", "-S", "-B", "-c", code, *args], input=stdin,
                              capture_output=True, text=True, env={}, cwd=workdir, timeout=seconds,
                              preexec_fn=_limits, close_fds=True)
    except subprocess.TimeoutExpired:
        return None, "", f"killed after {seconds:g} s"
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return done.returncode, done.stdout[:OUTPUT_CAP], done.stderr[-2000:]


def run_isolated(source):
    """The oracle's report on ``source``, computed in the isolated child; raises if there is none."""
    code, out, err = run_python(_CHILD, source, PACKAGE_ROOT)
    if code is None:
        raise RuntimeError(f"the isolated run was {err}: the code ran too long")
    if code != 0:
        last = (err.strip().splitlines() or ["no message"])[-1]
        raise RuntimeError(f"the isolated run ended with code {code} ({last})")
    try:
        return json.loads(out)
    except ValueError:
        raise RuntimeError("the isolated run wrote no report") from None
