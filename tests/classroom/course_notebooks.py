"""What the classroom tests share: the course's built notebooks that have no exercises (the appendix,
whatever its number), and a learner's wrong 3.1."""

import json
from pathlib import Path

from agent_team import course

ROOT = Path(__file__).resolve().parents[2]


def without_exercises():
    parts = {e.part for e in course.EXERCISES}
    return [p for p in sorted((ROOT / "notebooks").glob("*.ipynb"))
            if json.loads(p.read_text(encoding="utf-8"))["metadata"]["agent_team"]["part"] not in parts]


# A 3.1 that never passes the reviewer's feedback on to the coder: graded, and not full marks.
WRONG_RUN_TEAM = '''
def run_team(task, planner, coder, reviewer, tester, max_rounds):
    plan = planner(task)
    log = [("planner", plan)]
    for _ in range(max_rounds):
        code = coder(task, plan, "")          # never passes the feedback on
        log.append(("coder", code))
        review = reviewer(code)
        log.append(("reviewer", review))
        if review.startswith("APPROVE"):
            result = tester(code)
            log.append(("tester", result))
            if result.startswith("PASS"):
                return code, log
    return None, log
'''
