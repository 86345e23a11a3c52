"""A class's grades as rows, and the three ways to show them: a text table, JSON, JUnit XML.

Pure functions of the rows (no files, no processes), so they are tested without Node.
"""

import json
from dataclasses import asdict, dataclass, field
from xml.etree import ElementTree as ET

from .exercises import EXERCISES

__all__ = ["Row", "all_passed", "grid_table", "markdown", "to_json", "to_junit", "summary"]

# Worst last: when one learner hands in an exercise twice, the table shows the better one.
RANK = ("passed", "failed", "not implemented", "timed out", "too much output", "out of memory",
        "error", "crashed", "missing", "unreadable", "skipped")


@dataclass
class Row:
    learner: str
    notebook: str
    exercise: str          # "3.1"; "" when the problem is the whole notebook
    status: str            # one of RANK
    message: str = ""      # what went wrong, in words (for all but passed/failed)
    first_failure: str = ""  # "feedback: In the seed example: ..." (the first failing check)
    note: str = ""
    seconds: float = 0.0
    checks: list = field(default_factory=list)

    @property
    def passed(self):
        return self.status == "passed"

    def cell(self):
        """The table's short text for this exercise."""
        if self.status == "failed" and self.first_failure:
            return "FAIL " + self.first_failure.split(":", 1)[0]
        return {"passed": "pass", "failed": "FAIL"}.get(self.status, self.status)

    def detail(self):
        text = self.first_failure if self.status == "failed" else self.message
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
    return bool(rows) and all(r.passed or r.status == "skipped" for r in rows)


def _grid(rows):
    """The exercises graded (course order), and one line per learner: its name, then each exercise's cell."""
    order = [e.id for e in EXERCISES]
    used = sorted({r.exercise for r in rows if r.exercise}, key=lambda x: order.index(x) if x in order else 99)
    best = {}
    for r in rows:
        key = (r.learner, r.exercise)
        if key not in best or RANK.index(r.status) < RANK.index(best[key].status):
            best[key] = r
    return used, [[who, *[best[(who, ex)].cell() if (who, ex) in best else "-" for ex in used]]
                  for who in sorted({r.learner for r in rows})]


def grid_table(rows):
    """Learner x exercise, then one line per exercise that did not pass, saying why."""
    used, body = _grid(rows)
    head = ["learner", *used]
    widths = [max(len(line[i]) for line in [head, *body]) for i in range(len(head))]
    lines = ["  ".join(text.ljust(w) for text, w in zip(line, widths)).rstrip() for line in [head, *body]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    notes = [f"{r.learner} {r.exercise or '(notebook)'} [{r.notebook}]: {r.detail()}"
             for r in sorted(rows, key=lambda r: (r.learner, r.exercise))
             if (not r.passed or r.note) and r.detail()]
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
               for r in rows if not r.passed and r.detail()]
    return "\n".join(out + ([""] + details if details else []) + ["", summary(rows), ""])


def _md(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def summary(rows):
    graded = [r for r in rows if r.exercise]
    passed = sum(r.passed for r in graded)
    words = [f"{passed} of {len(graded)} exercises passed"]
    unread = sum(r.status == "unreadable" for r in rows)
    skipped = sum(r.status == "skipped" for r in rows)
    if unread:
        words.append(f"{unread} file(s) could not be read")
    if skipped:
        words.append(f"{skipped} notebook(s) skipped (not from this course)")
    return "; ".join(words) + "."


def to_json(rows):
    return json.dumps({"passed": all_passed(rows), "summary": summary(rows),
                       "results": [{**asdict(r), "passed": r.passed} for r in rows]}, indent=2)


def _junit_kind(row):
    """What JUnit calls this row: None (passed), "skipped", "failure" (the code is wrong) or "error"."""
    if row.passed:
        return None
    return {"skipped": "skipped", "failed": "failure", "not implemented": "failure"}.get(row.status, "error")


def to_junit(rows):
    """JUnit XML: one test suite per learner, one test case per exercise."""
    suites = ET.Element("testsuites", name="agent_team.grade")
    for who in sorted({r.learner for r in rows}):
        mine = [r for r in rows if r.learner == who]
        kinds = [_junit_kind(r) for r in mine]
        suite = ET.SubElement(suites, "testsuite", name=who, tests=str(len(mine)),
                              failures=str(kinds.count("failure")), errors=str(kinds.count("error")),
                              skipped=str(kinds.count("skipped")))
        for r, kind in zip(mine, kinds):
            case = ET.SubElement(suite, "testcase", classname=who, name=f"exercise {r.exercise or '-'} "
                                 f"[{r.notebook}]", time=f"{r.seconds:.3f}")
            if kind == "skipped":
                ET.SubElement(case, "skipped", message=r.message)
            elif kind:
                ET.SubElement(case, kind, message=r.detail() or r.status, type=r.status)
    return ET.tostring(suites, encoding="unicode")
