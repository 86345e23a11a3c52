"""Inside the grading interpreter (Pyodide, started by ``runner.mjs``): grade one exercise.

This module runs learner code, so it only ever runs where that is safe: in the
Pyodide worker the classroom runner starts with Node's permission model (no
host files, no processes, no network). It never runs on the host.

Each job gets fresh interpreter state: modules imported since start-up
(``agent_team`` included) are forgotten and re-imported, the standard
library's module dictionaries and ``builtins`` are put back as they were, and
the job works in a new empty folder. So what one learner's code changes, the
next learner's grading never sees.
"""

import builtins
import io
import json
import os
import sys
import time
import types


_BASELINE = {}      # module name -> copy of its __dict__, taken before any job
_PATH = []
_COUNT = [0]
# Bound now: learner code may replace json.dumps or time.perf_counter before the result is written.
_dumps, _clock = json.dumps, time.perf_counter


ONLY_THE_CELL = ("Only the exercise cell (and the course's setup) runs when a class is graded: "
                 "define the helpers and imports your code needs in that cell.")


class TooMuchOutput(BaseException):
    """Raised in learner code that prints past the limit (a BaseException: ``except Exception`` lets it through)."""


class _CappedOutput(io.TextIOBase):
    """stdout/stderr for one job: counts what is written, keeps nothing, stops at the limit."""

    def __init__(self, limit):
        self.limit, self.size = limit, 0

    def writable(self):
        return True

    def write(self, text):
        self.size += len(str(text))
        if self.size > self.limit:
            raise TooMuchOutput()
        return len(text)


def snapshot():
    """Remember the clean state (called once, before any learner code).

    The engine is imported first, so every standard module it needs is in the snapshot: later jobs
    read only the engine's own files from disk (a fresh copy each time), nothing a learner could
    have planted in the in-memory file system.
    """
    _import_engine()
    _BASELINE.clear()
    for name, module in list(sys.modules.items()):
        if not name.startswith("agent_team") and module is not None and hasattr(module, "__dict__"):
            _BASELINE[name] = dict(module.__dict__)
    # The engine's folder is set per job; folders learners can write to are not searched at all.
    _PATH[:] = [p for p in sys.path if p.startswith("/lib/python") and "site-packages" not in p]
    for name in ("system", "popen"):  # Node refuses these anyway; refusing here avoids a fatal error
        if hasattr(os, name):
            setattr(os, name, _no_processes)
    _BASELINE["os"] = dict(os.__dict__)


def _no_processes(*args, **kwargs):
    raise PermissionError("the grader runs no other programs")


def _restore(engine_dir):
    sys.settrace(None)
    sys.setprofile(None)
    for name in [n for n in sys.modules if n not in _BASELINE]:
        del sys.modules[name]
    for name, saved in _BASELINE.items():
        module = sys.modules.get(name)
        if module is None or name == "sys":
            continue
        now = module.__dict__
        if len(now) != len(saved) or any(now.get(k, _restore) is not v for k, v in saved.items()):
            now.clear()  # compared by identity: a learner's __eq__ never runs here
            now.update(saved)
    sys.path[:] = [engine_dir, *_PATH]
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    _COUNT[0] += 1
    folder = f"/home/pyodide/job{_COUNT[0]}"
    os.makedirs(folder, exist_ok=True)
    os.chdir(folder)


def run(job_json):
    """Grade one exercise described by ``job_json``; return the result as JSON text."""
    job = json.loads(job_json)
    _restore(job["engine_dir"])
    out = _CappedOutput(job["output_limit"])
    start = _clock()
    sys.stdout = sys.stderr = out
    try:
        result = _grade(job)
    except TooMuchOutput:
        result = {"status": "too much output", "message": ""}
    except KeyboardInterrupt:
        result = {"status": "timed out", "message": ""}
    except BaseException as err:  # noqa: BLE001 -- SystemExit, a hostile exception: all data here
        result = {"status": "error", "message": f"grading stopped: {_describe(err)}"}
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    if out.size > out.limit:
        result = {"status": "too much output", "message": ""}
    result["output_chars"] = out.size
    result["seconds"] = round(_clock() - start, 3)
    return _dumps(result)


def _grade(job):
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    try:
        setup = compile(job["setup"], "<the course's setup>", "exec")
        exec(setup, namespace)
    except Exception as err:  # noqa: BLE001 -- whatever the setup raised, the exercise gets a sentence
        return {"status": "error", "message": f"the course's own setup failed ({_describe(err)}): "
                                              "is this the course's version of agent_team?"}
    try:
        code = compile(job["source"], f"<exercise {job['exercise']} cell>", "exec")
    except SyntaxError as err:
        return {"status": "error", "message": f"the exercise cell does not compile: {err.msg} "
                                              f"(line {err.lineno}); fix it and run the cell."}
    grading = _import_engine()
    before = _fingerprint()
    try:
        exec(code, namespace)
    except NotImplementedError:
        return {"status": "not implemented", "message": "the exercise cell still raises NotImplementedError."}
    except Exception as err:  # noqa: BLE001 -- learner code raises anything: it is data here
        hint = f" {ONLY_THE_CELL}" if isinstance(err, NameError) else ""
        return {"status": "error", "message": f"running the exercise cell raised {_describe(err)}.{hint}"}
    if job["name"] not in namespace:
        return {"status": "error", "message": f"the exercise cell ran but defines no `{job['name']}`: "
                                              "was it renamed?"}
    report = getattr(grading, job["grader"])(namespace[job["name"]])
    changed = _changed(before, _fingerprint())
    if changed:
        return {"status": "error", "message": f"the exercise cell changed the course's own code ({changed}), "
                                              "so its grade cannot be trusted: graded as failed."}
    checks = [{"name": c.name, "requirement": c.requirement, "passed": c.passed, "detail": c.detail}
              for c in report.checks]
    status = report.outcome  # the learner's report's own word (passed, not yet, ...), in the class table too
    named = any("NameError" in (c["detail"] or "") for c in checks if c["passed"] is False)
    return {"checks": checks, "status": status, "message": "", "hint": ONLY_THE_CELL if named else ""}


def _import_engine():
    """Import every engine module afresh, before the learner's code runs, so that any change it makes shows."""
    import importlib
    import pkgutil

    import agent_team
    for info in pkgutil.walk_packages(agent_team.__path__, "agent_team."):
        if not info.name.startswith(("agent_team.widgets", "agent_team.classroom", "agent_team.grade",
                                     "agent_team.__main__")):
            importlib.import_module(info.name)
    return importlib.import_module("agent_team.grading")


_CODE = (types.FunctionType, types.BuiltinFunctionType, types.ModuleType, type, property, staticmethod,
         classmethod)


def _fingerprint():
    """Identities of the code graders run: agent_team's functions, classes and their methods, builtins.

    Data (a module's counters, a class's current state) is left out: the engine may change it.
    """
    seen = {}
    for name, module in list(sys.modules.items()):
        if module is None or not (name.startswith("agent_team") or name in ("builtins", "json")):
            continue
        for key, value in list(vars(module).items()):
            if not isinstance(value, _CODE):
                continue
            seen[f"{name}.{key}"] = (id(value), id(getattr(value, "__code__", None)))
            if isinstance(value, type) and value.__module__ == name:
                for attr, member in list(vars(value).items()):
                    if isinstance(member, _CODE):
                        seen[f"{name}.{key}.{attr}"] = (id(member), id(getattr(member, "__code__", None)))
    return seen


def _changed(before, after):
    """The first name whose object was replaced or removed (new names are fine: modules import lazily)."""
    return next((k for k, v in before.items() if after.get(k) != v), "")


def _describe(err):
    from agent_team.limits import describe_error
    return describe_error(err)
