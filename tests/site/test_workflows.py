"""The CI workflows, run the way a hosted runner runs them: the Pages deploy
(.github/workflows/pages.yml) and the class-grading template (ci/agent-team-grade.yml).

Each workflow's YAML is read as the provider reads it, and every `run:` step of it runs as the
provider runs it: `bash --noprofile --norc -eo pipefail` on the step's script, in the checkout,
with the workflow's and the job's `env:` (their `${{ }}` expressions filled in), the runner's
variables (CI, GITHUB_*, RUNNER_TEMP, HOME), within the job's timeout-minutes. It runs as an
unprivileged user (`nobody`, through setpriv; no sudo either) in a copy of the checkout, with a
PATH that has what an `ubuntu-latest` runner has and not Debian's browsers: no firefox-esr,
WebKitWebDriver, Xvfb or chromium; Make's paths to Debian's Firefox ESR, WebKitWebDriver, Xvfb
and WebKit's introspection data point where the runner has nothing. Here Debian's Chromium stands
in for the runner's Google Chrome (a `google-chrome` on that PATH, and CHROMIUM points to it).

The `uses:` steps are not run; the harness does what each one leaves behind: actions/checkout
(a copy of the working tree's files that git does not ignore), actions/setup-python (a venv of Debian's
python3.11 first on PATH, writable as on the runner), actions/setup-node (Node.js 20 is on PATH),
the caches setup-python and setup-node restore (~/.cache/pip and ~/.npm, kept between runs in
CACHE), and the upload actions (the folders they would upload are checked to exist). Pages'
deploy job, which only uses actions/deploy-pages, is not run.

The downloads (PyPI, npm, pip's git+ URL) are real, through this machine's network settings (its
CA bundle, pip's and npm's configuration: the variables NETWORK matches are passed on). The
course repository that the grading template installs from GitHub is this working tree committed
into a local repository, which git's `url.<base>.insteadOf` (in the user's ~/.gitconfig) serves
for its github.com address.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
USER = "nobody"
# The user's ids, and nothing else: setpriv keeps the environment the step is given (runuser resets HOME).
AS_USER = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"]
# Kept between runs, as the runner's restored caches are (setup-python `cache: pip`, setup-node `cache: npm`).
CACHE = Path(os.environ.get("AGENT_TEAM_WORKFLOW_CACHE", "/var/tmp/agent-team-workflow-cache"))
# Debian's, not on a hosted runner: left out of the PATH the steps get.
NOT_ON_THE_RUNNER = {"firefox-esr", "firefox", "WebKitWebDriver", "MiniBrowser", "Xvfb", "xvfb-run", "chromium",
                     "chromedriver", "sudo"}
# Make's paths to Debian's packages (Makefile), where the runner has nothing.
ABSENT = {"FIREFOX": "/usr/bin/firefox-esr", "WEBKIT_DRIVER": "/usr/bin/WebKitWebDriver", "XVFB": "/usr/bin/Xvfb",
          "WEBKIT_TYPELIB": "/usr/lib/x86_64-linux-gnu/girepository-1.0/WebKit2-4.1.typelib"}
NETWORK = re.compile(r"CERT|CA_BUNDLE|SSL|PROXY|^PIP_|^npm_config_", re.IGNORECASE)
SETUP_PYTHON = "/usr/bin/python3.11"  # Debian's, readable by nobody (pyenv's live under /root)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                       reason="runs the workflows' steps as another user: needs root to switch to it"),
]


def load(path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def expand(text, context):
    """`${{ }}` expressions as the provider fills them in: a name from `context`, or `a || 'literal'`.
    Any other expression fails the test (the harness would not know what the runner makes of it)."""
    def one(match):
        value = ""
        for part in match[1].split("||"):
            part = part.strip()
            if part[:1] == "'" and part[-1:] == "'":
                value = part[1:-1]
            elif part in context:
                value = context[part]
            else:
                raise AssertionError(f"an expression this harness does not know: {match[0]}")
            if value:
                return value
        return value
    return EXPRESSION.sub(one, str(text))


def as_user(path):
    subprocess.run(["chown", "-R", f"{USER}:nogroup", str(path)], check=True)


def copy_checkout(dest):
    """actions/checkout: the working tree as the rest of the suite sees it (its files that git does
    not ignore: tracked or new), what a push of this tree would hold."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, check=True, capture_output=True).stdout
    for name in listed.decode().split("\0"):
        src = ROOT / name
        if name and src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name, follow_symlinks=False)


class Runner:
    """A hosted runner's job, here: its folders, its user, its PATH, its variables."""

    def __init__(self, base: Path, repository: str):
        self.base = base
        self.workspace = base / "work" / repository.split("/")[1]
        self.temp = base / "runner-temp"
        self.home = base / "home"
        self.bin = base / "runner-bin"
        self.python = base / "hostedtoolcache" / "python"
        for folder in (self.workspace, self.temp, self.home, self.bin, CACHE / "pip", CACHE / "npm"):
            folder.mkdir(parents=True, exist_ok=True)
        # The caches setup-python and setup-node restore where pip and npm look for them.
        (self.home / ".cache").mkdir()
        (self.home / ".cache" / "pip").symlink_to(CACHE / "pip")
        (self.home / ".npm").symlink_to(CACHE / "npm")
        # A PATH of what a runner has: every command of /usr/bin and /usr/sbin but Debian's browsers,
        # and the runner's Google Chrome (Debian's Chromium stands in for it).
        for folder in ("/usr/local/bin", "/usr/bin", "/usr/sbin"):
            for tool in sorted(Path(folder).iterdir()):
                link = self.bin / tool.name
                if tool.name not in NOT_ON_THE_RUNNER and not link.exists() and os.access(tool, os.X_OK):
                    link.symlink_to(tool)
        (self.bin / "google-chrome").symlink_to("/usr/bin/chromium")
        self.repository = repository
        self.log = []

    def setup_python(self):
        subprocess.run([*AS_USER, SETUP_PYTHON, "-m", "venv", str(self.python)],
                       check=True, capture_output=True, env=self.env())

    def env(self, extra=()):
        env = {
            "PATH": f"{self.python}/bin:{self.bin}", "HOME": str(self.home), "USER": USER, "LANG": "C.UTF-8",
            "CI": "true", "GITHUB_ACTIONS": "true", "RUNNER_OS": "Linux", "RUNNER_TEMP": str(self.temp),
            "GITHUB_WORKSPACE": str(self.workspace), "GITHUB_REPOSITORY": self.repository,
            "GITHUB_STEP_SUMMARY": str(self.temp / "step-summary.md"), "GITHUB_ENV": str(self.temp / "env"),
            "GITHUB_PATH": str(self.temp / "path"), "GITHUB_OUTPUT": str(self.temp / "output"),
        }
        # This machine's way to the network (its CA bundle, pip's and npm's settings), as a runner has its own.
        env.update({k: v for k, v in os.environ.items() if NETWORK.search(k)})
        env.update(extra)
        return env

    def run_steps(self, workflow, job_name, context, overrides=(), deadline_minutes=None):
        """Every `run:` step of the job, in order, until one fails: [(name, exit code, seconds, output)]."""
        job = workflow["jobs"][job_name]
        env = {k: expand(v, context) for k, v in {**workflow.get("env", {}), **job.get("env", {})}.items()}
        env.update(overrides)
        minutes = deadline_minutes or job.get("timeout-minutes", 360)
        deadline = time.monotonic() + minutes * 60
        results = []
        for number, step in enumerate(job["steps"]):
            if "run" not in step:
                continue
            script = self.temp / f"step-{number}.sh"
            script.write_text(expand(step["run"], context), encoding="utf-8")
            as_user(self.temp)
            step_env = {**env, **{k: expand(v, context) for k, v in step.get("env", {}).items()}}
            start = time.monotonic()
            # Its own session, so that a step past the job's timeout is stopped whole (make, node, Chrome).
            process = subprocess.Popen(
                [*AS_USER, "bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                cwd=self.workspace, env=self.env(step_env), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                text=True, errors="replace", start_new_session=True)
            try:
                output, _ = process.communicate(timeout=max(1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                output, _ = process.communicate()
                output += f"\n(stopped: past the job's timeout-minutes, {minutes})"
            seconds = time.monotonic() - start
            results.append((step.get("name", step["run"][:60]), process.returncode, seconds, output))
            print(f"step {step.get('name')!r}: exit {process.returncode} in {seconds:.0f} s")
            if process.returncode != 0:
                break
        return results


def failure(results):
    bad = [r for r in results if r[1] != 0]
    if not bad:
        return ""
    name, code, seconds, output = bad[0]
    return f"step {name!r} exited {code} after {seconds:.0f} s; its output ends:\n{output[-6000:]}"


@pytest.fixture
def runner_base():
    base = Path(tempfile.mkdtemp(prefix="agent-team-workflow-"))
    base.chmod(0o755)
    CACHE.mkdir(parents=True, exist_ok=True)
    as_user(CACHE)
    yield base
    shutil.rmtree(base, ignore_errors=True)


def uses(job):
    return [s["uses"].split("@")[0] for s in job["steps"] if "uses" in s]


def test_the_pages_workflow_builds_and_checks_the_site_on_a_stock_runner(runner_base):
    workflow = load(ROOT / ".github/workflows/pages.yml")
    build = workflow["jobs"]["build"]
    assert build["runs-on"] == "ubuntu-latest"
    # What the harness stands in for, and what it leaves (the deploy job: actions/deploy-pages only).
    assert uses(build) == ["actions/checkout", "actions/setup-python", "actions/setup-node",
                           "actions/upload-pages-artifact"]
    assert {s.get("uses", "").split("@")[0] for s in workflow["jobs"]["deploy"]["steps"]} == {"actions/deploy-pages"}
    python = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/setup-python"))
    assert str(python["with"]["python-version"]) == "3.11"

    runner = Runner(runner_base, "someone/agent-team-course")
    copy_checkout(runner.workspace)
    as_user(runner_base)
    runner.setup_python()
    assert build["env"]["CHROMIUM"] == "/usr/bin/google-chrome"
    overrides = {"CHROMIUM": str(runner.bin / "google-chrome"),
                 **{name: f"/runner-has-no{path}" for name, path in ABSENT.items()}}
    results = runner.run_steps(workflow, "build", {}, overrides)
    print("\n".join(f"{name}: exit {code}, {seconds:.0f} s" for name, code, seconds, _ in results))
    assert not failure(results), failure(results)
    assert len(results) == len([s for s in build["steps"] if "run" in s])

    # What actions/upload-pages-artifact would publish: the site, its home page, and nothing of the tests'.
    upload = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact"))
    site = runner.workspace / upload["with"]["path"]
    assert (site / "index.html").is_file() and (site / "lab" / "index.html").is_file()
    assert not (site / "files" / "smoke.ipynb").exists()
    # The check in Chrome really ran, and ran everything it names: no test skipped or deselected.
    check = results[-1][3]
    closing = [line for line in check.splitlines() if re.match(r"^=* ?\d+ passed", line.strip())]
    assert closing and re.match(r"^=* ?3 passed in ", closing[-1].strip()), check[-3000:]


def course_repository(base: Path):
    """The course as a learner's CI installs it: this working tree, committed, at one commit."""
    repo = base / "course" / "agent-team-course"
    repo.mkdir(parents=True)
    copy_checkout(repo)
    git = ["git", "-c", "user.name=harness", "-c", "user.email=harness@example.invalid", "-C", str(repo)]
    subprocess.run([*git, "init", "--quiet"], check=True)
    subprocess.run([*git, "add", "--all"], check=True)
    subprocess.run([*git, "commit", "--quiet", "-m", "the course under test"], check=True)
    return repo, subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()


def test_the_grading_template_grades_a_learners_repository_on_a_stock_runner(runner_base):
    workflow = load(ROOT / "ci/agent-team-grade.yml")
    job = workflow["jobs"]["grade"]
    assert uses(job) == ["actions/checkout", "actions/setup-python", "actions/setup-node", "actions/upload-artifact"]

    runner = Runner(runner_base, "someone/learner-repo")
    # The learner's repository: the course's notebooks, every exercise solved (the worked solutions).
    for path in sorted((ROOT / "notebooks" / "solutions").glob("*.ipynb")):
        (runner.workspace / "notebooks").mkdir(exist_ok=True)
        shutil.copy(path, runner.workspace / "notebooks" / path.name)
    repo, commit = course_repository(runner_base)
    # The course's github.com address, served from the local repository (pip clones it with git).
    (runner.home / ".gitconfig").write_text(
        f'[url "file://{repo.parent}/"]\n\tinsteadOf = https://github.com/someone/\n', encoding="utf-8")
    as_user(runner_base)
    runner.setup_python()
    context = {"vars.AGENT_TEAM_COURSE": f"someone/agent-team-course@{commit}",
               "github.repository": "someone/learner-repo"}
    results = runner.run_steps(workflow, "grade", context)
    print("\n".join(f"{name}: exit {code}, {seconds:.0f} s" for name, code, seconds, _ in results))
    assert not failure(results), failure(results)
    assert len(results) == len([s for s in job["steps"] if "run" in s])

    summary = (runner.temp / "step-summary.md").read_text(encoding="utf-8")
    assert "someone/learner-repo" in summary
    grades = json.loads((runner.workspace / "grades.json").read_text())
    (score,) = grades["learners"].values()
    assert score["score"] == score["possible"] > 0, grades["learners"]
    # What actions/upload-artifact would keep.
    upload = next(s for s in job["steps"] if s.get("uses", "").startswith("actions/upload-artifact"))
    for pattern in upload["with"]["path"].split():
        assert list(runner.workspace.glob(pattern.rstrip("/"))), pattern
