"""Which confinement this machine allows, asked once and only when a runner first needs it (host side).

Two runners start model- or learner-written code in another process: the isolated runner
(:mod:`.isolated`) and the class grader's Node.js runner (:mod:`.node`). Both
ask here whether ``unshare`` works for an unprivileged user (a kernel or a container may refuse
user namespaces, e.g. some CI runners). The answer is computed on the first call, never at
import, and kept for the life of the interpreter: one probe per command line.
"""

import functools
import shutil
import subprocess

__all__ = ["network_off", "unshare", "works"]


@functools.lru_cache(maxsize=None)
def works(argv, cwd=None):
    """True if the command ``argv`` (a tuple) exits with 0 within 10 s, run in ``cwd``; asked once."""
    try:
        return subprocess.run(list(argv), capture_output=True, stdin=subprocess.DEVNULL, env={}, cwd=cwd,
                              timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def unshare(*flags, then=("true",), cwd=None):
    """``[unshare, *flags]`` if this machine lets ``unshare *flags`` run ``then`` (in ``cwd``); else ``[]``."""
    path = shutil.which("unshare")
    if path and works((path, *flags, *then), cwd):
        return [path, *flags]
    return []


def network_off():
    """The prefix that gives a command a user and network namespace of its own (no network), or ``[]``."""
    return unshare("-rn")
