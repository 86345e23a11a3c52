"""Mutation testing of exercise 7.1's solution: every mutant of the notebook's ``retry_or_stop``
that answers differently on an input the exercise allows must be rejected by the grader.

tests/grading/mutation.py makes the mutants (flipped comparisons, negated conditions, moved
constants and bounds, dropped statements, ...). A mutant the grader accepted would be either
equivalent on the exercise's inputs or a grader bug; there are none.

Measured (the test keeps it true): the notebook's solution, 157 mutants, all rejected.
"""

from grader_helpers import solution
from mutation import Mutant, mutants, survivors

from agent_team.grading import grade_retry_or_stop


def test_every_mutant_of_the_notebook_solution_is_rejected():
    source = solution("07_real_model.py", "def retry_or_stop")
    found = mutants(source)
    assert grade_retry_or_stop(Mutant("unmutated", source).load("retry_or_stop")).passed
    alive = survivors(found, lambda m: grade_retry_or_stop(m.load("retry_or_stop")))
    assert alive == [], "\n".join(m.description for m in alive)
    assert f"the notebook's solution, {len(found)} mutants, all rejected" in " ".join(__doc__.split())
