"""``python -m agent_team``: run the default team and narrate its trace round by round.

    python -m agent_team                 # the healthy team, max_rounds=4
    python -m agent_team --max-rounds 1  # watch the budget stop it
    python -m agent_team --fault "coder edits tests"
"""

import argparse
import sys

from .faults import FAULTS, run_fault
from .supervisor import supervise
from .trace import kind_of


def narrate(event):
    """One trace event as a line or two of plain English."""
    kind, state = event["type"], event["state"]
    if kind == "start":
        return f"START  goal: {event['goal']}  (max_rounds={event['max_rounds']})"
    if kind == "turn":
        role = event["role"]
        wrote = ", ".join(c["path"] for c in event["changes"]) or "nothing"
        line = f"{state:<6} {role} says {event['message'] or event['thought']!r}; wrote {wrote}"
        if event.get("error"):
            line += f"\n       refused: {event['error']}"
        if event.get("verdict"):
            line += f"\n       verdict: {event['verdict']['verdict']} ({event['verdict']['notes']})"
        return line
    if kind == "tests":
        t = event["tests"]
        line = f"{state:<6} oracle: {t['passed']} passed, {t['failed']} failed"
        return line + "".join(f"\n       - {e}" for e in t["errors"][:3])
    if kind == "tamper":
        return f"{state:<6} injected fault changed: {', '.join(c['path'] for c in event['changes']) or 'nothing'}"
    return f"{state:<6} status={event['status']}: {event['stop_reason']}"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m agent_team", description=__doc__.splitlines()[0])
    parser.add_argument("--max-rounds", type=int, default=4, help="coder turns allowed (default 4)")
    parser.add_argument("--fault", choices=sorted(FAULTS), help="inject one of the course's faults")
    args = parser.parse_args(argv)
    result = (run_fault(args.fault, max_rounds=args.max_rounds) if args.fault
              else supervise(max_rounds=args.max_rounds))
    current = None
    for event in result.trace:
        if event["round"] != current and kind_of(event) != "stop":
            current = event["round"]
            print(f"\n--- round {current} ---" if current else "--- setup ---")
        decision = event.get("decision")
        print(narrate(event) + (f"\n       next: {decision}" if decision and kind_of(event) != "stop" else ""))
    print(f"\nFinal src/fizzbuzz.py:\n{result.repo['src/fizzbuzz.py']}")
    return 0 if result.status == "pass" else 1


if __name__ == "__main__":
    sys.exit(main())
