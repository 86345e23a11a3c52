"""A class's grades as rows, and the ways to show them: a text table, Markdown, JSON, JUnit XML.

Pure functions of the rows (no files, no processes), so they are tested without Node. Points
(possible and earned) are set on the rows by :func:`points.apply`; rows without points show none.
"""

import json
from dataclasses import asdict, dataclass, field
from xml.etree import ElementTree as ET

from .exercises import EXERCISES
from .points import fmt

__all__ = ["Row", "all_passed", "best", "exercises_graded", "grid_table", "markdown", "to_json", "to_junit", "summary",
           "totals"]

# Worst last: when one learner hands in an exercise twice, the table shows the better one.
RANK = ("passed", "not yet", "not implemented", "timed out", "too much output", "out of memory",
        "error", "crashed", "missing", "unreadable", "no exercises", "skipped")
QUIET = ("passed", "no exercises")   # statuses that need no line under the table


@dataclass
class Row:
    learner: str
    notebook: str
    exercise: str          # "3.1"; "" when the problem is the whole notebook
    status: str            # one of RANK
    message: str = ""      # what went wrong, in words (for all but passed / not yet)
    first_failure: str = ""  # "feedback: In the seed example: ..." (the first failing check)
    note: str = ""
    seconds: float = 0.0
    checks: list = field(default_factory=list)
    points: float = 0.0    # what the exercise is worth (0: not scored)
    score: float = 0.0     # what this result earned of it (points.py says how)

    @property
    def passed(self):
        return self.status == "passed"

    def cell(self):
        """The table's short text for this exercise, with its points when it has them."""
        if self.status == "not yet" and self.first_failure:
            text = "not yet " + self.first_failure.split(":", 1)[0]
        else:
            text = {"passed": "pass"}.get(self.status, self.status)
        return f"{text} {fmt(self.score)}/{fmt(self.points)}" if self.points else text

    def detail(self):
        text = self.first_failure if self.status == "not yet" else self.message
        return " ".join(filter(None, [text, f"({self.note})" if self.note else ""]))


def from_result(learner, notebook, exercise_id, result, note=""):
    """A row from what ``inside.run`` (or the runner) said about one exercise."""
    checks = result.get("checks") or []
    failing = next((c for c in checks if c.get("passed") is False), None)
    first = ""
    if failing:
        detail = (failing.get("detail") or "").strip().splitlines()
        first = f"{failing['name']}: {detail[0] if detail else failing.get('requirement', '')}"
    status = result.get("status", "crashed")
    message = result.get("message") or _MESSAGES.get(status, "")
    note = "; ".join(filter(None, [note, result.get("hint", "")]))
    return Row(learner, notebook, exercise_id, status if status in RANK else "error", message, first, note,
               float(result.get("seconds") or 0.0), checks)


_MESSAGES = {
    "timed out": "the exercise did not finish within the time limit (a loop that never ends?)",
    "too much output": "the exercise printed more than the output limit",
    "out of memory": "the exercise used more memory than the limit",
    "crashed": "the exercise crashed the interpreter (as it would crash the browser's kernel)",
}


def all_passed(rows):
    return bool(rows) and all(r.passed or r.status in ("skipped", "no exercises") for r in rows)


def exercises_graded(rows):
    """The exercises this class was graded on (any learner handed one in), in course order."""
    order = [e.id for e in EXERCISES]
    return sorted({r.exercise for r in rows if r.exercise}, key=lambda x: order.index(x) if x in order else 99)


def best(rows):
    """``{(learner, exercise): row}``: a learner's best result of each exercise (handed in twice: the better)."""
    found = {}
    for r in rows:
        key = (r.learner, r.exercise)
        if key not in found or (RANK.index(r.status), -r.score) < (RANK.index(found[key].status), -found[key].score):
            found[key] = r
    return found


def totals(rows):
    """``{learner: (earned, possible)}`` over the exercises graded: one not handed in earns 0 of its points."""
    used, found = exercises_graded(rows), best(rows)
    possible = {ex: max((r.points for r in rows if r.exercise == ex), default=0.0) for ex in used}
    return {who: (round(sum(found[(who, ex)].score for ex in used if (who, ex) in found), 2),
                  sum(possible.values()))
            for who in sorted({r.learner for r in rows})}


def _grid(rows):
    """The exercises graded (course order), and one line per learner: its name, each exercise's cell, a total."""
    used, found = exercises_graded(rows), best(rows)
    scored = any(r.points for r in rows)
    sums = totals(rows)
    body = []
    for who in sorted({r.learner for r in rows}):
        line = [who, *[found[(who, ex)].cell() if (who, ex) in found else "-" for ex in used]]
        if scored:
            line.append(f"{fmt(sums[who][0])}/{fmt(sums[who][1])}")
        body.append(line)
    return used + (["total"] if scored else []), body


def grid_table(rows):
    """Learner x exercise, then one line per exercise that did not pass, saying why."""
    used, body = _grid(rows)
    head = ["learner", *used]
    widths = [max(len(line[i]) for line in [head, *body]) for i in range(len(head))]
    lines = ["  ".join(text.ljust(w) for text, w in zip(line, widths)).rstrip() for line in [head, *body]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    notes = [f"{r.learner} {r.exercise or '(notebook)'} [{r.notebook}]: {r.detail()}"
             for r in sorted(rows, key=lambda r: (r.learner, r.exercise))
             if (r.status not in QUIET or r.note) and r.detail()]
    if notes:
        lines += ["", *notes]
    lines += ["", summary(rows)]
    return "\n".join(lines)


def markdown(rows):
    """The same table in Markdown (for a CI job summary)."""
    used, body = _grid(rows)
    out = ["| learner | " + " | ".join(used) + " |", "|---" * (len(used) + 1) + "|"]
    out += ["| " + " | ".join(_md(c) for c in line) + " |" for line in body]
    details = [f"- **{_md(r.learner)} {r.exercise or 'notebook'}**: {_md(r.detail())}"
               for r in rows if r.status not in QUIET and r.detail()]
    return "\n".join(out + ([""] + details if details else []) + ["", summary(rows), ""])


def _md(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def summary(rows):
    graded = [r for r in rows if r.exercise]
    passed = sum(r.passed for r in graded)
    words = [f"{passed} of {len(graded)} exercises passed"]
    unread = sum(r.status == "unreadable" for r in rows)
    skipped = sum(r.status == "skipped" for r in rows)
    empty = sum(r.status == "no exercises" for r in rows)
    if any(r.points for r in rows):
        sums = totals(rows).values()
        words.append(f"{fmt(sum(s for s, _ in sums))} of {fmt(sum(p for _, p in sums))} points")
    if unread:
        words.append(f"{unread} file(s) could not be read")
    if skipped:
        words.append(f"{skipped} notebook(s) skipped (not from this course)")
    if empty:
        words.append(f"{empty} notebook(s) of the course with no exercises")
    return "; ".join(words) + "."


def to_json(rows):
    learners = {who: {"score": s, "possible": p} for who, (s, p) in totals(rows).items()}
    return json.dumps({"passed": all_passed(rows), "summary": summary(rows), "learners": learners,
                       "results": [{**asdict(r), "passed": r.passed} for r in rows]}, indent=2)


def _junit_kind(row):
    """What JUnit calls this row: None (passed), "skipped", "failure" (the code is wrong) or "error"."""
    if row.passed:
        return None
    return {"skipped": "skipped", "no exercises": "skipped", "not yet": "failure",
            "not implemented": "failure"}.get(row.status, "error")


def to_junit(rows):
    """JUnit XML: one test suite per learner, one test case per exercise."""
    suites = ET.Element("testsuites", name="agent_team.grade")
    sums = totals(rows)
    for who in sorted({r.learner for r in rows}):
        mine = [r for r in rows if r.learner == who]
        kinds = [_junit_kind(r) for r in mine]
        suite = ET.SubElement(suites, "testsuite", name=who, tests=str(len(mine)),
                              failures=str(kinds.count("failure")), errors=str(kinds.count("error")),
                              skipped=str(kinds.count("skipped")))
        if any(r.points for r in rows):
            _properties(suite, score=sums[who][0], points=sums[who][1])
        for r, kind in zip(mine, kinds):
            case = ET.SubElement(suite, "testcase", classname=who, name=f"exercise {r.exercise or '-'} "
                                 f"[{r.notebook}]", time=f"{r.seconds:.3f}")
            if r.points:
                _properties(case, score=r.score, points=r.points)
            if kind == "skipped":
                ET.SubElement(case, "skipped", message=r.message)
            elif kind:
                ET.SubElement(case, kind, message=r.detail() or r.status, type=r.status)
    return ET.tostring(suites, encoding="unicode")


def _properties(element, **values):
    """JUnit has no points: they go in <properties>, which CI systems that read JUnit keep."""
    props = ET.SubElement(element, "properties")
    for name, value in values.items():
        ET.SubElement(props, "property", name=name, value=fmt(value))
