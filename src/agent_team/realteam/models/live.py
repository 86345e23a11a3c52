"""Part 7's live cells: a run with your model shown as the recorded ones are, and an eval with progress.

The recorded cells and the live cells read a run through the same tables (:func:`team_table`,
:func:`eval_table`), so a live run shows as much as a recording. :func:`live_summary` adds the
cause when no call to the model succeeded: a stopped server otherwise ends a run with ``budget``
and ``calls: 0``, as if the model had failed the task. :func:`compare_live` is part 5's eval
one case at a time, saying which case it is on: a small model can take half a minute a case.
"""

import time

from ...trace import oracle_reports, turns
from .connection import why_no_answer

__all__ = ["live_summary", "compare_live", "team_table", "eval_table", "TEAM_HEADERS", "EVAL_HEADERS"]

TEAM_HEADERS = ["round", "role", "what it wrote", "verdict", "tests after the round"]
EVAL_HEADERS = ["case", "the gate", "the model", "agree", "final status", "why no advice"]


def live_summary(run, who):
    """How ``run`` ended, its tokens, and, when the model never answered, why (as *test connection* says)."""
    from . import total_usage
    lines = [f"{who}: {run.status} after {run.rounds} rounds | {run.stop_reason}",
             f"tokens: {total_usage(run)}"]
    why = why_no_answer(run)
    if why:
        lines.append(why)
    return "\n".join(lines)


def team_table(run):
    """One row per turn: who, what it wrote (the start of each file), the verdict, the tests after it."""
    reports = oracle_reports(run.trace)
    rows = []
    for e in turns(run.trace):
        wrote = "; ".join(f"{c['path']}: {c['after'][:40]!r}" for c in e.get("changes") or ()) or "nothing new"
        verdict = (e.get("verdict") or {}).get("verdict", "") if isinstance(e.get("verdict"), dict) else ""
        after = ""
        if e["round"] and e["round"] - 1 < len(reports):
            report = reports[e["round"] - 1]
            after = f"{report['passed']} of {len(report.get('cases') or ()) or 4} pass"
        rows.append([e["round"], e["role"], wrote, verdict, after])
    return rows


def eval_table(rows):
    """The eval's rows as the table shows them, the reason for a missing advice included."""
    return [[r["case"], r["gate"], r["model"], r["agree"], r["status"], r["error"]] for r in rows]


def compare_live(cases, model, *, seconds=60.0, say=None):
    """:func:`agent_team.realteam.advice.compare_reviewers`, one case at a time, saying each case before it waits."""
    from ..advice import compare_reviewers
    say = say or (lambda text: print(text, flush=True))  # flushed: the page shows it while the model works
    rows, started = [], time.monotonic()
    for number, case in enumerate(cases, 1):
        name = case[0] if isinstance(case, (list, tuple)) and case else case
        say(f"case {number} of {len(cases)}: {name} (asking the model; {time.monotonic() - started:.0f} s so far)")
        rows += compare_reviewers([case], model, seconds=seconds)
    say(f"done: {len(rows)} cases in {time.monotonic() - started:.0f} s")
    return rows
