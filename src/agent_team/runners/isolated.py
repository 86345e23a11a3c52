"""The isolated runner (CPython, host side): the oracle, run on model-written code in another process.

Host-side only: this module starts a subprocess, which the engine's core never does; the
browser's kernel cannot use it. The child is started as ``python -I -S -B`` (no environment
variables read, no user site, no site module, no bytecode written) with an **empty environment**,
in its own session, with OS limits: CPU seconds, address space, no byte written to any file
(``RLIMIT_FSIZE`` 0), few open files, and a wall-clock deadline after which it is killed. Its
output is read as it comes and the child is killed once it passes :data:`OUTPUT_CAP`, so this
key-holding process never holds more than that. Before the code runs, :mod:`.confine`
confines it as far as this machine allows (:func:`isolation` says how, measured once, on first use):

- ``unshare -rn -i -p -f -m``: its own user, network, IPC, process and mount namespaces: no network
  (not even 127.0.0.1), no other process visible or signalled, no System V IPC object outliving
  the run, every mount read-only but a private 1 MB tmpfs on its working directory, no
  capabilities;
- Landlock (Linux 5.13+, no namespace needed): files written, made or removed only in its own
  folder, and no other process's ``/proc`` entries readable;
- a seccomp filter (x86-64, ARM64): no socket of any family (so no Unix socket either), no
  ``io_uring``, no signal to any process, no ``ptrace``.

Where ``unshare`` or the filter is refused, :func:`isolation` names what is then not enforced.
Inside, the child runs the same oracle (its step budget and static rules still apply); it reads
the source on stdin and writes the report as JSON on stdout. It is not a VM, so a kernel bug is
not contained; and a report forged by code that escaped the oracle's sandbox inside the child is
still believed (the key is safe, the verdict then is not).
"""

import collections
import functools
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from .namespaces import unshare, works
from .sources import PACKAGE

__all__ = ["isolation", "run_isolated", "run_python"]  # and ISOLATION, measured on first use (__getattr__)

PACKAGE_ROOT = str(PACKAGE.parent)  # the folder agent_team is imported from, put on the child's path
CONFINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "confine.py")
SECONDS = 10.0        # wall clock for one run, start-up included (read at call time)
CPU_SECONDS = 5
MEMORY_BYTES = 512 * 1024 * 1024
OUTPUT_CAP = 200_000  # bytes of report
ERROR_TAIL = 2000     # bytes of stderr kept (the last ones)
ALL_NAMESPACES = ("-rn", "-i", "-p", "-f", "--kill-child", "-m", "--mount-proc")

Isolation = collections.namedtuple("Isolation", "prefix steps says")

_CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
from agent_team import oracle
report = oracle.run_tests({"src/fizzbuzz.py": sys.stdin.read()})
sys.stdout.write(json.dumps(report))
"""


def _python(steps):
    return (sys.executable, "-I", "-S", "-B", CONFINE, ",".join(steps))


@functools.lru_cache(maxsize=None)
def isolation():
    """The strongest confinement this machine allows, tried once: (unshare prefix, confine steps, words)."""
    # in a folder of its own, as a run is: the private tmpfs goes over the working folder
    with tempfile.TemporaryDirectory(prefix="agent-team-probe-") as folder:
        kept = [step for step in ("landlock", "filter") if works((*_python([step]), "pass"), folder)]
        for name, flags, steps in (("user, network and process namespaces", ALL_NAMESPACES, ["readonly", *kept]),
                                   ("user and network namespaces", ("-rn",), kept)):
            prefix = unshare(*flags, then=(*_python(steps), "pass"), cwd=folder)
            if prefix:
                return Isolation(prefix, steps, _says(name, steps, pid="-p" in flags, ipc="-i" in flags, users=True))
    return Isolation([], kept, _says("none (no unshare allowed here)", kept, pid=False, ipc=False, users=False))


def _says(name, steps, pid, ipc, users):
    """What holds and what is not enforced, in words, for ``steps`` under these namespaces."""
    walled, filtered = "readonly" in steps or "landlock" in steps, "filter" in steps
    held = [("a read-only file system but a private working folder" if "readonly" in steps else
             "files written only in its own temporary folder (Landlock)")] if walled else []
    held += ["no network"] if users or filtered else []
    held += ["no socket, no signal, no ptrace (seccomp)"] if filtered else []
    held += ["no other process visible"] if pid else []
    lost = [] if walled else ["it can create empty files, empty and delete the user's files"]
    lost += [] if users or filtered else ["it has the network"]
    lost += [] if filtered else ["it can connect to Unix sockets"]
    lost += [] if pid or filtered else ["it can signal the parent"]
    lost += [] if ipc else ["it can leave System V shared memory or message queues behind"]
    lost += [] if users or "landlock" in steps else ["it can read the parent's /proc entries (keep keys out "
                                                    "of the environment)"]
    return f"{name}: {', '.join(held) or 'limits only'}" + (f"; not enforced here: {'; '.join(lost)}" if lost else "")


def __getattr__(name):  # ISOLATION is measured on first use, never at import
    if name == "ISOLATION":
        return isolation().says
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _limits():
    import resource

    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (32, 32))


def run_python(code, stdin="", *args, seconds=None):
    """Run ``code`` in the isolated child; ``(returncode, stdout, stderr)``, returncode None if it
    was stopped (stderr says why). The runner's one door."""
    seconds = SECONDS if seconds is None else seconds
    plan = isolation()
    workdir = tempfile.mkdtemp(prefix="agent-team-run-")
    try:
        proc = subprocess.Popen([*plan.prefix, *_python(plan.steps), code, *args], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={}, cwd=workdir,
                                preexec_fn=_limits, close_fds=True, start_new_session=True)
        try:
            out, err, stopped = _read(proc, stdin.encode(), time.monotonic() + seconds, seconds)
        finally:
            _kill(proc)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    out, err = out.decode(errors="replace"), err.decode(errors="replace")
    return (None, out, stopped) if stopped else (proc.returncode, out, err)


def _read(proc, stdin, deadline, seconds):
    """Feed stdin and read stdout (up to the cap) and stderr (its tail) as they come: (out, err, why stopped)."""
    out, err, pending = bytearray(), b"", memoryview(stdin)
    with selectors.DefaultSelector() as chosen:
        for pipe, event in ((proc.stdin, selectors.EVENT_WRITE), (proc.stdout, selectors.EVENT_READ),
                            (proc.stderr, selectors.EVENT_READ)):
            os.set_blocking(pipe.fileno(), False)
            chosen.register(pipe, event)
        while chosen.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                return out, err, f"killed after {seconds:g} s"
            for key, _ in chosen.select(left):
                pipe = key.fileobj
                try:
                    if pipe is proc.stdin:
                        pending = pending[os.write(pipe.fileno(), pending[:65536]):] if pending else pending
                        chunk = b"" if not pending else None
                    else:
                        chunk = os.read(pipe.fileno(), 65536)
                except BlockingIOError:
                    continue
                except BrokenPipeError:  # the child closed its stdin: the rest is not wanted
                    chunk = b""
                if chunk == b"":
                    chosen.unregister(pipe)
                    pipe.close()
                elif pipe is proc.stdout:
                    out += chunk
                    if len(out) > OUTPUT_CAP:
                        return out[:OUTPUT_CAP], err, f"stopped: it wrote more than {OUTPUT_CAP:,} bytes of output"
                elif pipe is proc.stderr:
                    err = (err + chunk)[-ERROR_TAIL:]
    try:  # every pipe closed: the child is ending, or holds on without output until the deadline
        proc.wait(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        return out, err, f"killed after {seconds:g} s"
    return out, err, None


def _kill(proc):
    """End the child's whole session (unshare, and with it the namespace, or the plain child)."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            proc.kill()
    proc.wait()
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        pipe.close()


def run_isolated(source):
    """The oracle's report on ``source``, computed in the isolated child; raises if there is none."""
    code, out, err = run_python(_CHILD, source, PACKAGE_ROOT)
    if code is None:
        raise RuntimeError(f"the isolated run was {err}" + (": the code ran too long" if "killed" in err else ""))
    if code != 0:
        last = (err.strip().splitlines() or ["no message"])[-1]
        raise RuntimeError(f"the isolated run ended with code {code} ({last})")
    try:
        return json.loads(out)
    except ValueError:
        raise RuntimeError("the isolated run wrote no report") from None
