"""The course's built notebooks that have no exercises (the appendix, whatever its number)."""

import json
from pathlib import Path

from agent_team import course

ROOT = Path(__file__).resolve().parents[2]


def without_exercises():
    parts = {e.part for e in course.EXERCISES}
    return [p for p in sorted((ROOT / "notebooks").glob("*.ipynb"))
            if json.loads(p.read_text(encoding="utf-8"))["metadata"]["agent_team"]["part"] not in parts]
