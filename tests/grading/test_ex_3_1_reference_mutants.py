"""Mutation testing of the 3.1 reference (``protocol.run_team``): every mutant is rejected by the grader.

tests/grading/mutation.py makes the mutants. Measured: 51 mutants, 51 rejected, no survivors.
"""

import inspect

from agent_team import protocol
from agent_team.grading import grade_run_team

from mutation import mutants, survivors


def test_every_mutant_of_the_run_team_reference_is_rejected():
    found = mutants(inspect.getsource(protocol.run_team))
    assert len(found) >= 45
    alive = survivors(found, lambda m: grade_run_team(m.load(namespace=vars(protocol))))
    assert alive == [], "\n".join(m.description for m in alive)
    assert f"{len(found)} mutants, {len(found)} rejected, no survivors" in " ".join(__doc__.split())
