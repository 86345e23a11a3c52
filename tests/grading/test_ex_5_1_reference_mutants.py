"""Mutation testing of the 5.1 references: every mutant that behaves differently on an input the
exercise allows must be rejected by its grader.

tests/grading/mutation.py makes the mutants (flipped comparisons, negated conditions, moved
constants and bounds, dropped statements, ...). A mutant the grader accepts is either
equivalent on the exercise's inputs, listed below with the reason, or a grader bug.

Measured (the tests keep it true): the notebook's solution, 81 mutants, all rejected;
``review_gate``, 90 mutants, 49 rejected and 41 equivalent survivors, all in its reasons, risk
notes, suggested checks, proposal text, retry command and non-list input check (none of which
is part of the exercise's answer).
"""

import ast
import inspect
import types
from pathlib import Path

from agent_team.realteam import gate as gate_module
from agent_team.grading.gate import grade_gate, gate_cases, random_cases

from mutation import mutants, survivors

NOTEBOOK_05 = Path(__file__).resolve().parents[2] / "notebooks" / "source" / "05_real_team.py"


# --- 5.1: the notebook's solution ---------------------------------------------------------------

def notebook_solution():
    """The solution cell of exercise 5.1 (ACTIONS and gate), as source, from the notebook source."""
    text = NOTEBOOK_05.read_text(encoding="utf-8")
    tree = ast.parse(text)
    parts = [ast.get_source_segment(text, node) for node in tree.body
             if isinstance(node, ast.FunctionDef) and node.name == "gate"
             or isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "ACTIONS" for t in node.targets)]
    assert len(parts) == 2, "exercise 5.1's cell should define ACTIONS and gate"
    return "\n\n".join(parts)


def test_every_mutant_of_the_notebook_gate_is_rejected():
    source = notebook_solution()
    assert grade_gate(_load(source)).passed  # the solution itself
    found = mutants(source)
    assert len(found) >= 30
    alive = survivors(found, lambda m: grade_gate(m.load("gate")))
    assert alive == [], "\n".join(m.description for m in alive)
    assert f"the notebook's solution, {len(found)} mutants, all rejected" in " ".join(__doc__.split())


def _load(source):
    scope = {}
    exec(compile(source, "<exercise 5.1>", "exec"), scope)
    return scope["gate"]


# --- 5.1: the reference gate the grader compares with ----------------------------------------------

# review_gate also writes reasons, risk notes, suggested checks and the proposal's text, and
# checks its input; the exercise's answer is only passed/action/step for a list of outcomes.
EQUIVALENT = {
    "if not isinstance(outcomes, (list, tuple)):": "the exercise always passes a list",
    'raise ValueError(f"outcomes must be a list': "the error text for a non-list, never reached",
    'said = f" ({detail})" if detail else ""': "the text of a reason, not part of the answer",
    'note, more = _risk(step, risk) if status != "skipped"': "which steps get risk notes, not part of the answer",
    "if note:": "whether a risk note is kept, not part of the answer",
    "notes.append(note)": "a risk note, not part of the answer",
    "checks += [c for c in more + extra if c not in checks]": "suggested checks, not part of the answer",
    'text=text.format(step=step, detail=f" ({detail})" if detail else ""),':
        "the proposal's text, not part of the answer",
    'targets = [s[0] for s in steps[at:]] if kind == "cancelled"': "the retry command's steps, not part of the answer",
    "command=COMMAND.format(steps=targets), requires_approval=True)": "the retry command, not part of the answer",
}


def _light(**fields):
    return types.SimpleNamespace(**fields)


def _as_gate(review):
    """A learner-style gate from a (mutated) review_gate. Its answers are worked out up front, out of
    the grader's time limit: review_gate validates its input thoroughly and is slow when traced."""
    answers = {}
    for outcomes in [o for _, _, group in gate_cases() for _, o in group] + random_cases():
        key = repr(outcomes)
        try:
            decision = review(outcomes)
            proposal = decision.proposal
            answers[key] = {"passed": decision.passed, "action": proposal and proposal.action,
                            "step": proposal and proposal.step}
        except Exception as err:  # noqa: BLE001 -- a mutant that raises is answered by raising
            answers[key] = err

    def gate(outcomes):
        answer = answers[repr(outcomes)]
        if isinstance(answer, Exception):
            raise answer
        return answer
    return gate


def test_every_non_equivalent_mutant_of_review_gate_is_rejected():
    source = inspect.getsource(gate_module.review_gate)
    lines = source.splitlines()
    # cheap containers instead of the validated dataclasses: the same fields, a hundred times faster
    scope = dict(vars(gate_module), RetryProposal=_light,
                 GateDecision=lambda passed, proposal=None, **rest: _light(passed=passed, proposal=proposal))
    assert grade_gate(_as_gate(gate_module.review_gate)).passed
    found = mutants(source)
    alive = survivors(found, lambda m: grade_gate(_as_gate(m.load(namespace=scope))))
    unexplained = [m.description for m in alive
                   if not any(lines[int(m.description.split()[1].rstrip(":")) - 1].strip().startswith(key)
                              for key in EQUIVALENT)]
    assert unexplained == []
    # and every reason listed still explains some survivor (no stale entries)
    used = {key for m in alive for key in EQUIVALENT
            if lines[int(m.description.split()[1].rstrip(":")) - 1].strip().startswith(key)}
    assert used == set(EQUIVALENT)
    counts = f"{len(found)} mutants, {len(found) - len(alive)} rejected and {len(alive)} equivalent survivors"
    assert counts in " ".join(__doc__.split())
