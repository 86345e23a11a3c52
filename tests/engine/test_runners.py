"""The runners' shared pieces that need no process: the package's source as text, and which runner the oracle uses.

Pure, so it also runs inside Pyodide; the runners themselves are tested where they run
(tests/models: the CPython runner; tests/classroom: Node; tests/browser: the browser's worker).
"""

from pathlib import Path

import agent_team
from agent_team import oracle
from agent_team.realteam.models.isolation import protect, refuse
from agent_team.repo import initial_repo
from agent_team.runners.sources import package_sources

PACKAGE = Path(agent_team.__file__).parent


def test_the_package_source_is_every_module_and_recording_by_its_path_under_agent_team():
    sources = package_sources()
    modules = {path.relative_to(PACKAGE.parent).as_posix() for path in PACKAGE.rglob("*.py")
               if "__pycache__" not in path.parts}
    folder = PACKAGE / "realteam" / "recordings"
    recordings = {f"agent_team/realteam/recordings/{path.name}" for path in folder.glob("*.json")}
    assert recordings and set(sources) == modules | recordings
    assert "agent_team/oracle.py" in sources and "agent_team/runners/sources.py" in sources
    assert list(sources) == sorted(sources, key=lambda name: PACKAGE.parent.joinpath(name))
    assert sources["agent_team/oracle.py"] == (PACKAGE / "oracle.py").read_text(encoding="utf-8")


def test_the_oracle_says_which_runner_it_uses_and_a_model_never_loosens_it():
    previous = oracle.run_elsewhere(None)
    try:
        assert oracle.current_runner() is None
        oracle.run_elsewhere(refuse)
        assert oracle.current_runner() is refuse
        protect(has_key=True)   # a keyed model made now keeps the runner already chosen
        assert oracle.current_runner() is refuse
        assert oracle.run_tests(initial_repo()) == refuse(initial_repo()["src/fizzbuzz.py"])
    finally:
        oracle.run_elsewhere(previous)
