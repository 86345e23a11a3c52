"""The roles of the team, as one table: everything else about a role is read from here.

One row per role says what it writes (its allowlist), what it is shown (its
view), when the supervisor gives it the floor, the system prompt a model in
its slot starts from, and where its state sits in the supervisor's diagram.
The repo's allowlists, the views, the supervisor's turn order, the LLM
prompts, the configuration, the handoffs, the diagram and the graders all
derive from these rows, so adding a role is a row here plus its policy (see
CONTRIBUTING.md). A role marked ``optional`` is not on the default team: it
speaks only in runs given a policy for it (``supervise(docs=my_docs_writer)``),
so adding one changes no run the course already shows.

This module imports nothing from the engine: it sits below everything else.
"""

from dataclasses import dataclass

__all__ = ["Role", "TABLE", "ROLES", "TURNS", "ALLOWLIST", "VIEW_FIELDS", "PROMPTS",
           "PLAN_PATH", "SRC_PATH", "REVIEW_PATH", "role", "roles_at"]

# The files the roles write. The test file is written by no role, so it is not here (see repo.py).
PLAN_PATH = "PLAN.md"
SRC_PATH = "src/fizzbuzz.py"
REVIEW_PATH = "REVIEW.json"

# When a role speaks, in the supervisor's round (see supervisor.py):
# "plan": once before the first round, and again before a coder turn if a file it writes is empty;
# "code": every round, before the tests run; "review": every round, after the tests ran.
TURNS = ("plan", "code", "review")


@dataclass(frozen=True)
class Role:
    """One role slot. ``state`` is its node in the supervisor's state machine (and in the trace)."""

    name: str
    turn: str              # one of TURNS
    state: str             # "PLAN", "CODE", "REVIEW": the diagram node and the trace's state
    writes: frozenset      # its allowlist
    sees: tuple            # the facts of its view (see views.py for what each one holds)
    prompt: str            # the default system prompt for a model in this slot
    node: tuple = (0, 0)   # where its state is drawn in the supervisor's diagram (x, y)
    optional: bool = False  # True: not on the default team; it speaks only when given a policy

    def __post_init__(self):
        if self.turn not in TURNS:
            raise ValueError(f"role {self.name!r}: turn is {self.turn!r}; write one of {', '.join(TURNS)}")
        if not self.writes:
            raise ValueError(f"role {self.name!r} writes nothing; give it the one file it owns")


TABLE = (
    Role("planner", "plan", "PLAN", frozenset({PLAN_PATH}), ("goal", "test_spec", "plan"),
         "You are the planner. Write PLAN.md and nothing else: three to five short bullet steps "
         "that refer to the test spec. Do not write any Python.", node=(200, 110)),
    Role("coder", "code", "CODE", frozenset({SRC_PATH}), ("goal", "plan", "source", "last_tests", "review"),
         "You are the coder. Write src/fizzbuzz.py and nothing else, following PLAN.md and the "
         "test spec. Answer with JSON patches only.", node=(360, 110)),
    Role("reviewer", "review", "REVIEW", frozenset({REVIEW_PATH}),
         ("goal", "plan", "source", "last_tests", "past_verdicts"),
         "You are the reviewer. Write REVIEW.json and nothing else. When the tests pass, "
         "approve, however plain the code looks.", node=(660, 110)),
    # a new role: one more row here (see CONTRIBUTING.md)
)

ROLES = tuple(r.name for r in TABLE)                       # the role names, in table order
ALLOWLIST = {r.name: r.writes for r in TABLE}              # role -> the paths it may write
VIEW_FIELDS = {r.name: r.sees for r in TABLE}              # role -> the facts it is shown
PROMPTS = {r.name: r.prompt for r in TABLE}                # role -> its default system prompt


def role(name):
    """The row of the role called ``name``; a clear error for any other name."""
    for row in TABLE:
        if row.name == name:
            return row
    raise KeyError(f"there is no role {name!r}; the roles are {', '.join(ROLES)}")


def roles_at(turn):
    """The names of the roles that speak at ``turn`` (one of TURNS), in table order."""
    return tuple(r.name for r in TABLE if r.turn == turn)
