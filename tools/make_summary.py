"""`make test` says what it ran: each stage's result, its counts and its time, in one table.

`make test` runs every stage (lint, the CPython suite, the notebooks under nbval, the engine in
Pyodide, the browser), each through `run`, even after one has failed, and ends with `print`, which
shows the table and exits 1 when any stage failed (so make, and a CI that runs it, fail too):

    python tools/make_summary.py run --dir build/stages --name lint -- python tools/lint.py
    python tools/make_summary.py print --dir build/stages

`run` passes the command's output through, times it, and writes `<dir>/<name>.json`: the exit
code, the seconds, any `--note`, and the counts. A pytest stage's counts and skip reasons come
from tools/pytest_stage.py (the plugin the Makefile loads into every pytest), through the file
named by AGENT_TEAM_STAGE_FILE; a stage whose pytest runs elsewhere (Pyodide's, under Node.js)
is read from pytest's own closing line in its output. `run` itself exits 0: the record holds
the result, and make goes on to the next stage.

`summary(records)` is a pure function from those records to the text (tests/site/test_make_summary.py).
Its last line reads like pytest's ("2 failed, 3301 passed, 40 skipped in 20m31s"), summed over
the stages, and names every stage that failed, with or without failed tests.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

# The order of pytest's own closing line; "error" is spelt "errors" there when more than one.
ORDER = ("failed", "passed", "skipped", "deselected", "xfailed", "xpassed", "error")
COLUMNS = ("passed", "failed", "error", "skipped", "xfailed", "xpassed")
SKIP_LINES = 6  # skip reasons shown per stage, most frequent first
CHUNK = 64 * 1024  # bytes of a stage's output read at a time, and kept to find its closing line
# pytest's closing line, with its rules of "=" or without them (under -q).
CLOSING = re.compile(r"^(?:=+ )?(?P<body>(?:\d+ [a-z]+(?:, )?)+) in [\d.]+s(?: \([^)]*\))?(?: =+)?$")
COUNT = re.compile(r"(\d+) (passed|failed|skipped|errors?|xfailed|xpassed|deselected|warnings?)")


def parse_closing_line(text):
    """Counts from the last pytest closing line in `text` ("=== 3 failed, 10 passed in 2.1s ==="),
    or None when there is none."""
    for line in reversed(text.splitlines()):
        match = CLOSING.match(line.strip())
        if match:
            counts = dict.fromkeys(COLUMNS + ("deselected",), 0)
            for number, word in COUNT.findall(match["body"]):
                word = {"errors": "error", "warnings": "warning", "warning": "warning"}.get(word, word)
                if word in counts:
                    counts[word] = int(number)
            return counts
    return None


def merge(lines):
    """One stage's counts and skip reasons from the plugin's JSON lines (one per pytest run)."""
    counts, skips = Counter(), Counter()
    for line in lines:
        counts.update(line.get("counts", {}))
        skips.update(dict((reason, n) for reason, n in line.get("skips", [])))
    return dict(counts), sorted(skips.items(), key=lambda kv: (-kv[1], kv[0]))


def duration(seconds):
    seconds = float(seconds)
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, rest = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes}m{rest:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m{rest:02d}s"


def failed(record):
    """Why this stage failed ('' when it did not)."""
    counts = record.get("counts") or {}
    bad = counts.get("failed", 0) + counts.get("error", 0)
    if record.get("exit", 1) != 0:
        return f"exit {record.get('exit')}" if not bad else "failed"
    if bad:  # a zero exit with failures counted would be a lie somewhere: say it
        return "failures counted"
    return ""


def closing_line(records):
    """The last line: the counts summed over every stage, as pytest words them, and the time."""
    total = Counter()
    for record in records:
        total.update(record.get("counts") or {})
    words = []
    for key in ORDER:
        n = total.get(key, 0)
        if n:
            words.append(f"{n} {'errors' if key == 'error' and n != 1 else key}")
    seconds = sum(float(r.get("seconds", 0)) for r in records)
    body = f"{', '.join(words) or 'no tests ran'} in {duration(seconds)}"
    bad = [r["name"] for r in records if failed(r)]
    if bad:
        body += f"; FAILED stage{'s' if len(bad) > 1 else ''}: {', '.join(bad)}"
    elif not records:
        body = "no stage ran: FAILED"
    return f"========== {body} =========="


def summary(records):
    """The table of `make test`'s stages (records in the order they ran) and the closing line."""
    lines = ["", "=" * 30 + " make test: what ran " + "=" * 30]
    width = max([len(r["name"]) for r in records] + [5])
    head = f"{'stage':<{width}}  {'result':<8}" + "".join(f"{c:>9}" for c in COLUMNS) + f"{'time':>10}"
    lines.append(head)
    for record in records:
        why = failed(record)
        result = "FAILED" if why else "ok"
        counts = record.get("counts")
        cells = "".join(f"{(counts or {}).get(c, 0) if counts is not None else '-':>9}" for c in COLUMNS)
        lines.append(f"{record['name']:<{width}}  {result:<8}{cells}{duration(record.get('seconds', 0)):>10}")
    for record in records:
        notes = []
        why = failed(record)
        if why and why != "failed":
            counted = "" if record.get("counts") is not None else ", no test counts (see its output above)"
            notes.append(f"FAILED: {why}{counted}")
        notes += list(record.get("notes", []))
        skips = record.get("skips") or []
        for reason, n in skips[:SKIP_LINES]:
            notes.append(f"skipped {n}: {reason}")
        if len(skips) > SKIP_LINES:
            rest = sum(n for _, n in skips[SKIP_LINES:])
            notes.append(f"skipped {rest} more, for {len(skips) - SKIP_LINES} other reasons")
        for note in notes:
            lines.append(f"  {record['name']}: {note}")
    lines.append(closing_line(records))
    return "\n".join(lines)


def exit_code(records):
    return 1 if not records or any(failed(r) for r in records) else 0


def read_records(folder):
    records = []
    for path in Path(folder).glob("*.json"):
        records.append(json.loads(path.read_text(encoding="utf-8")))
    return sorted(records, key=lambda r: r.get("started", 0))


def run(folder, name, command, notes=()):
    """Runs one stage, passing its output through; writes its record; returns the record."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    plugin_file = folder / f"{name}.pytest.jsonl"
    plugin_file.unlink(missing_ok=True)
    env = dict(os.environ, AGENT_TEAM_STAGE_FILE=str(plugin_file.resolve()))
    print(f"\n===== stage {name}: {' '.join(command)}", flush=True)
    started = time.time()
    start = time.monotonic()
    tail = bytearray()  # the output's last bytes, where a closing line is
    try:
        process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    except OSError as e:
        print(f"stage {name}: cannot start {command[0]}: {e}", flush=True)
        status = 127
    else:
        # Passed through as it comes, not line by line: pytest's progress dots are one line that
        # ends only after 72 tests, which in the browser stage is half an hour of silence.
        while chunk := os.read(process.stdout.fileno(), CHUNK):
            sys.stdout.buffer.write(chunk)
            sys.stdout.buffer.flush()
            tail += chunk
            del tail[:-CHUNK]
        status = process.wait()
    seconds = time.monotonic() - start
    record = {"name": name, "command": " ".join(command), "exit": status, "seconds": round(seconds, 1),
              "started": started, "notes": list(notes), "counts": None, "skips": []}
    if plugin_file.exists():
        lines = [json.loads(x) for x in plugin_file.read_text(encoding="utf-8").splitlines() if x.strip()]
        record["counts"], record["skips"] = merge(lines)
    else:
        record["counts"] = parse_closing_line(tail.decode("utf-8", "replace"))
    (folder / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return record


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("run", help="run one stage and record it")
    one.add_argument("--dir", required=True)
    one.add_argument("--name", required=True)
    one.add_argument("--note", action="append", default=[], help="a line the summary shows for this stage")
    one.add_argument("command", nargs=argparse.REMAINDER)
    show = sub.add_parser("print", help="print the table; exit 1 when a stage failed")
    show.add_argument("--dir", required=True)
    args = parser.parse_args(argv)
    if args.what == "run":
        command = args.command[1:] if args.command[:1] == ["--"] else args.command
        if not command:
            parser.error("run: no command after --")
        run(args.dir, args.name, command, args.note)
        return 0
    records = read_records(args.dir)
    print(summary(records))
    return exit_code(records)


if __name__ == "__main__":
    sys.exit(main())
