"""The isolated runner against code that has already escaped the oracle's sandbox (issue 34, item 2).

Each probe is run through the runner's own door, ``run_python``, as code past the oracle would
run: it tries to write, empty or delete the user's files, to connect to a Unix socket, to signal
the key-holding parent, and to flood it with output. Where a test names a level, the runner is
made to choose it as it would on a machine that refuses more (``unshare`` refused for some
flags), so the fallbacks are tested here too.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from agent_team.runners import isolated
from agent_team.runners.isolated import run_python

HERE = Path(__file__).resolve().parent
KEY = "sk-test-escapes-0123456789abcdefghij"
LEVELS = ["all namespaces", "network namespace only", "no unshare"]


@pytest.fixture
def level(request, monkeypatch):
    """The runner as it is on a machine that allows only ``request.param`` (re-measured, then forgotten)."""
    def allowed(*flags, then=("true",), cwd=None):
        if request.param == "no unshare" or (request.param == "network namespace only" and "-m" in flags):
            return []
        return real(*flags, then=then, cwd=cwd)
    real = isolated.unshare
    monkeypatch.setattr(isolated, "unshare", allowed)
    isolated.isolation.cache_clear()
    yield isolated.isolation()
    isolated.isolation.cache_clear()


def run_probe(probe, *args):
    code, out, err = run_python(textwrap.dedent(probe), "", *args, seconds=30)
    assert code == 0, err
    return json.loads(out)


@pytest.fixture
def victims(tmp_path):
    """A file with content in a folder under the system's /tmp and one in the user's home."""
    home = Path(tempfile.mkdtemp(prefix=".agent-team-victim-", dir=Path.home()))
    folders = [tmp_path, home]
    for folder in folders:
        (folder / "victim.txt").write_text("precious")
        folder.chmod(0o777)
    yield folders
    for path in sorted(home.rglob("*"), reverse=True):
        path.unlink() if not path.is_dir() or path.is_symlink() else path.rmdir()
    home.rmdir()


FILE_ATTACKS = """
import ctypes, json, os, sys
tried = {}
def attempt(name, action):
    try:
        action()
        tried[name] = "done"
    except OSError as err:
        tried[name] = type(err).__name__
for n, folder in enumerate(sys.argv[1:]):
    victim = os.path.join(folder, "victim.txt")
    attempt(f"{n} create empty", lambda: open(os.path.join(folder, "new.txt"), "x").close())
    attempt(f"{n} empty", lambda: open(victim, "w").close())
    attempt(f"{n} truncate", lambda: os.truncate(victim, 0))
    attempt(f"{n} rename", lambda: os.rename(victim, victim + ".moved"))
    attempt(f"{n} mkdir", lambda: os.mkdir(os.path.join(folder, "made")))
    attempt(f"{n} symlink", lambda: os.symlink(victim, os.path.join(folder, "link")))
    attempt(f"{n} delete", lambda: os.remove(victim))
attempt("private tmp", lambda: open(os.path.basename(sys.argv[1]) + "-escape", "x").close())  # its own folder
attempt("system tmp", lambda: open("/tmp/" + os.path.basename(sys.argv[1]) + "-escape", "x").close())
libc = ctypes.CDLL(None, use_errno=True)
# a user and mount namespace of its own (full capabilities there), then remount writable and retry
if libc.unshare(0x10000000 | 0x00020000) == 0:
    for n, folder in enumerate(sys.argv[1:]):
        libc.mount(None, folder.encode(), None, ctypes.c_ulong(32 | 4096), None)
        libc.mount(None, b"/", None, ctypes.c_ulong(32), None)
        attempt(f"{n} create after remount", lambda: open(os.path.join(folder, "new.txt"), "x").close())
print(json.dumps(tried))
"""


@pytest.mark.parametrize("level", LEVELS, indirect=True)
def test_escaped_code_cannot_create_empty_or_delete_the_users_files(level, victims):
    if "readonly" not in level.steps and "landlock" not in level.steps:
        pytest.skip(f"neither a mount namespace nor Landlock here: {level.says}")
    tried = run_probe(FILE_ATTACKS, *map(str, victims))
    # its own working folder is where it may create files (a private tmpfs, or Landlock's one place)
    assert tried.pop("private tmp") == "done"
    assert tried and all(outcome != "done" for outcome in tried.values()), tried
    for folder in victims:
        assert sorted(os.listdir(folder)) == ["victim.txt"], folder
        assert (folder / "victim.txt").read_text() == "precious"
    assert not os.path.exists(f"/tmp/{victims[0].name}-escape")   # and it is not the user's /tmp


@pytest.mark.parametrize("level", LEVELS, indirect=True)
def test_escaped_code_cannot_read_the_parents_environment(level, monkeypatch):
    if level.prefix == [] and "landlock" not in level.steps:
        pytest.skip(f"neither a user namespace nor Landlock here: {level.says}")
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    probe = """
    import json, os, sys
    tried = {}
    for name in ("environ", "mem"):  # (cmdline is anyone's to read: no key goes there)
        try:
            tried[name] = open(f"/proc/{sys.argv[1]}/{name}", "rb").read(4096).decode("latin-1")
        except OSError as err:
            tried[name] = type(err).__name__
    print(json.dumps(tried))
    """
    code, out, err = run_python(textwrap.dedent(probe), "", str(os.getpid()), seconds=30)
    assert code == 0 and KEY not in out and KEY not in err, err
    assert all(outcome in ("PermissionError", "FileNotFoundError") for outcome in json.loads(out).values()), out


def test_escaped_code_leaves_no_shared_memory_behind():
    plan = isolated.isolation()
    if "-p" not in plan.prefix:
        pytest.skip(f"not all namespaces here: {plan.says}")
    key = 0x5A7E0000 + os.getpid() % 0xFFFF
    made = run_probe(f"import ctypes\nprint(ctypes.CDLL(None).shmget({key}, 4096, 0o1666))")
    assert made >= 0   # it made one: in a namespace of its own, it must end with the run
    with open("/proc/sysvipc/shm") as segments:
        left = str(key) in [row.split()[0] for row in segments]
    if left:
        subprocess.run(["ipcrm", "-M", str(key)], check=False)
    assert not left, "a shared memory segment outlived the run"


SOCKET_ATTACKS = """
import json, socket, sys
tried = {}
for path in sys.argv[1:]:
    try:
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.settimeout(5)
        client.connect(path if path.startswith("/") else "\\0" + path)
        tried[path] = "connected"
    except OSError as err:
        tried[path] = type(err).__name__
print(json.dumps(tried))
"""


@pytest.mark.parametrize("level", LEVELS, indirect=True)
def test_escaped_code_cannot_connect_to_a_unix_socket(level, victims):
    if "filter" not in level.steps:
        pytest.skip(f"no seccomp filter here: {level.says}")
    listeners, paths = [], []
    try:
        for folder in victims:
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(str(folder / "door.sock"))
            os.chmod(folder / "door.sock", 0o777)
            listeners.append(listener)
            paths.append(str(folder / "door.sock"))
        abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        abstract.bind(f"\0agent-team-door-{os.getpid()}")
        listeners.append(abstract)
        paths.append(f"agent-team-door-{os.getpid()}")
        for listener in listeners:
            listener.listen(4)
            listener.setblocking(False)
        tried = run_probe(SOCKET_ATTACKS, *paths)
        assert all(outcome != "connected" for outcome in tried.values()), tried
        for listener in listeners:
            with pytest.raises(BlockingIOError):
                listener.accept()[0].close()
    finally:
        for listener in listeners:
            listener.close()


SIGNAL_ATTACKS = """
import json, os, signal, sys
parent, tried = int(sys.argv[1]), {}
for name, action in (("kill", lambda: os.kill(parent, signal.SIGUSR1)),
                     ("killpg", lambda: os.killpg(os.getpgid(parent), signal.SIGUSR1)),
                     ("pidfd", lambda: signal.pidfd_send_signal(os.pidfd_open(parent), signal.SIGUSR1))):
    try:
        action()
        tried[name] = "sent"
    except (OSError, AttributeError) as err:
        tried[name] = type(err).__name__
print(json.dumps(tried))
"""


@pytest.mark.parametrize("level", LEVELS, indirect=True)
def test_escaped_code_cannot_signal_the_parent(level):
    if "filter" not in level.steps and "-p" not in level.prefix:
        pytest.skip(f"neither a process namespace nor a seccomp filter here: {level.says}")
    received = []
    previous = signal.signal(signal.SIGUSR1, lambda *_: received.append(1))
    try:
        tried = run_probe(SIGNAL_ATTACKS, str(os.getpid()))
    finally:
        signal.signal(signal.SIGUSR1, previous)
    assert all(outcome != "sent" for outcome in tried.values()), tried
    assert received == []


FLOOD = """
import resource, json, sys
from agent_team.runners.isolated import OUTPUT_CAP, run_python
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
flood = "import sys\\nchunk = b'x' * (1 << 20)\\nfor _ in range(256): sys.stdout.buffer.write(chunk)"
code, out, err = run_python(flood)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"grew_kb": after - before, "code": code, "out": len(out), "err": err, "cap": OUTPUT_CAP}))
"""


def test_a_flood_of_output_is_cut_at_the_cap_while_it_is_read():
    # In a fresh interpreter, whose peak memory is this run's alone (256 MB once grew it by 765 MB).
    done = subprocess.run([sys.executable, "-c", FLOOD], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["grew_kb"] < 32 * 1024, seen
    assert seen["code"] is None and seen["out"] == seen["cap"], seen
    assert "stopped: it wrote more than 200,000 bytes of output" in seen["err"], seen


COUNT_STARTS = """
import subprocess
started = []
real = subprocess.Popen.__init__
def counted(self, args, *rest, **named):
    started.append(args)
    real(self, args, *rest, **named)
subprocess.Popen.__init__ = counted
from agent_team.runners import isolated, node
at_import = len(started)
first = isolated.isolation(), node.network_off()
measured = len(started)
again = isolated.isolation(), isolated.ISOLATION, node.network_off()
print(at_import, measured > 0, len(started) - measured)
"""


def test_the_unshare_probe_runs_once_on_first_use_never_at_import():
    done = subprocess.run([sys.executable, "-c", COUNT_STARTS], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "True", "0"], done.stdout


def test_where_nothing_is_allowed_the_runner_says_what_is_not_enforced(monkeypatch):
    monkeypatch.setattr(isolated, "unshare", lambda *flags, then=(), cwd=None: [])
    monkeypatch.setattr(isolated, "works", lambda argv, cwd=None: False)   # no Landlock, no seccomp either
    isolated.isolation.cache_clear()
    try:
        plan = isolated.isolation()
        assert (plan.prefix, plan.steps) == ([], []), plan
        for words in ("limits only", "create empty files, empty and delete the user's files", "has the network",
                      "Unix sockets", "signal the parent", "shared memory", "the parent's /proc entries"):
            assert words in plan.says, (words, plan.says)
        assert run_python("print('ran')")[:2] == (0, "ran\n")   # it still runs, with its limits
    finally:
        isolated.isolation.cache_clear()
