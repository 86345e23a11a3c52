"""The layer that stopped a fault, read from a trace by the definitions part 4 prints (layers.py)."""

from agent_team.layers import DEFINITIONS, LAYERS, evidence, stopped_by
from agent_team.oracle import run_tests
from agent_team.policies import fake_coder, output
from agent_team.repo import SRC_PATH, initial_repo
from agent_team.supervisor import supervise


def test_every_layer_has_words_and_a_definition():
    assert tuple(DEFINITIONS) == LAYERS
    assert all(words and len(definition) > 40 for words, definition in DEFINITIONS.values())


def test_a_healthy_run_was_stopped_by_nothing():
    assert stopped_by(supervise(max_rounds=4)) == (None, "")
    assert evidence(supervise(max_rounds=4)) == {}


def test_the_oracle_counts_only_when_it_did_not_run_the_code_as_written():
    # These are the oracle's own words that layers.py reads: a refused source, a stopped loop.
    refused = run_tests({**initial_repo(), SRC_PATH: "import os\ndef fizzbuzz(n):\n    return 'x'\n"})
    looped = run_tests({**initial_repo(), SRC_PATH: "def fizzbuzz(n):\n    while True:\n        pass\n"})
    wrong = run_tests(initial_repo())
    assert all(c["error"].startswith("not run") for c in refused["cases"])
    assert " was stopped: " in looped["cases"][0]["error"] and looped["cases"][1]["error"].startswith("not run")
    assert not any(c["error"].startswith("not run") or " was stopped: " in c["error"]
                   for c in wrong["cases"] if c["error"])

    def coder(source):
        return lambda goal, view: output("coder", "x", [{"path": SRC_PATH, "content": source}])
    assert stopped_by(supervise(max_rounds=1, coder=coder("import os\n")))[0] == "oracle"
    assert stopped_by(supervise(max_rounds=1, coder=coder("def fizzbuzz(n):\n    return 'Fizz'\n")))[0] == "budget"


def test_the_first_layer_in_order_wins_and_budget_only_when_nothing_else_acted():
    def refused_then_wrong(goal, view):
        return output("coder", "x", [{"path": "tests/test_fizzbuzz.py", "content": ""}])
    run = supervise(max_rounds=2, coder=refused_then_wrong)
    assert run.status == "budget" and stopped_by(run)[0] == "allowlist" and "budget" not in evidence(run)


def test_what_a_role_returns_beyond_an_output_is_ignored_and_said_so():
    def chatty(goal, view):
        return {**fake_coder(goal, view), "tests": {"ok": True}, "verdict": "approve", 7: "seven"}
    run = supervise(max_rounds=4, coder=chatty)
    coder_turns = [e for e in run.trace if e["type"] == "turn" and e["role"] == "coder"]
    assert run.status == "pass" and all(e["ignored"] == ["<a int key>", "tests", "verdict"] for e in coder_turns)
    layer, said = stopped_by(run)
    assert layer == "supervisor" and "'tests', 'verdict'" in said
    plain = supervise(max_rounds=4)
    assert not any("ignored" in e for e in plain.trace)


def test_a_hostile_key_is_never_compared_or_printed():
    class Key:
        def __hash__(self):
            return 1

        def __eq__(self, other):
            raise RuntimeError("compared")

        def __str__(self):
            raise RuntimeError("printed")

    def coder(goal, view):
        return {**fake_coder(goal, view), Key(): 1}
    run = supervise(max_rounds=4, coder=coder)
    assert run.status == "pass"
    assert [e["ignored"] for e in run.trace if e.get("role") == "coder"][0] == ["<a Key key>"]
