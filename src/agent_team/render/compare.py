"""Two runs side by side, aligned by round, with the first divergence marked.

Events are grouped by their ``round``; within a round they are compared in
order. An injected fault that changed nothing (a tamper event with no
changes) is not a divergence, so a fault that waits for round 3 diverges at
round 3, not at round 1.
"""

import json

from ..trace import kind_of, last
from .event import event_html, event_summary
from .html import badge, join, plain, table, tag, wrap
from .trace import trace_of

__all__ = ["Alignment", "align", "first_divergence", "differing_fields", "compare_html", "compare_round_html",
           "compare_overview_html", "compare_text"]


# Thoughts and messages are narration, not control ("thoughts are traces"): two
# runs that differ only in what a role said about itself did the same things.
# (A message that *is* control, "escalate", shows up as the escalated flag.)
NARRATION = ("thought", "message")


def _key(event):
    if isinstance(event, dict):
        event = {k: v for k, v in event.items() if k not in NARRATION}
    try:
        return json.dumps(event, sort_keys=True, default=repr)
    except (TypeError, ValueError, RecursionError):
        return repr(event)


def differing_fields(a, b):
    """The fields in which two events differ (narration left out), in a stable order."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        return ["the whole event"]
    keys = list(dict.fromkeys([*a, *b]))
    return [k for k in keys if k not in NARRATION and _key({k: a.get(k)}) != _key({k: b.get(k)})]


def _matters(event):
    if kind_of(event) == "tamper":
        return bool(event.get("changes") or event.get("error"))
    return True


def _by_round(trace):
    groups = {}
    for i, event in enumerate(trace):
        if not _matters(event):
            continue
        rnd = event.get("round", 0) if isinstance(event, dict) else 0
        groups.setdefault(rnd if isinstance(rnd, int) else 0, []).append(i)
    return groups


class Alignment:
    """Two traces grouped by round, with the first divergence: ``divergence`` is
    ``{"round", "a", "b"}`` (trace indexes; None where one run has no event) or None."""

    def __init__(self, a, b):
        self.a, self.b = trace_of(a), trace_of(b)
        self.groups_a, self.groups_b = _by_round(self.a), _by_round(self.b)
        self.rounds = sorted(set(self.groups_a) | set(self.groups_b))
        self.divergence = None
        for rnd in self.rounds:
            ga, gb = self.groups_a.get(rnd, []), self.groups_b.get(rnd, [])
            for pos in range(max(len(ga), len(gb))):
                ia = ga[pos] if pos < len(ga) else None
                ib = gb[pos] if pos < len(gb) else None
                if ia is None or ib is None or _key(self.a[ia]) != _key(self.b[ib]):
                    self.divergence = {"round": rnd, "a": ia, "b": ib}
                    return

    def events(self, side, rnd):
        """The (trace index, event) pairs of one side in one round."""
        trace, groups = (self.a, self.groups_a) if side == "a" else (self.b, self.groups_b)
        return [(i, trace[i]) for i in groups.get(rnd, [])]


def align(a, b):
    return Alignment(a, b)


def first_divergence(a, b):
    """``{"round", "a", "b"}`` where two runs first differ, or None if they agree."""
    return Alignment(a, b).divergence


def _status(trace):
    stop = last(trace, "stop")
    return f"{plain(stop.get('status'))}: {plain(stop.get('stop_reason'))}" if stop else "(no stop event)"


def _lines_html(al, side, rnd):
    div = al.divergence
    lines = []
    for i, event in al.events(side, rnd):
        text = event_summary(event)
        if div and div[side] == i:
            lines.append(tag("div", tag("mark", "▶ " + text), class_="at-first-line"))
        else:
            lines.append(tag("div", text))
    if div and div["round"] == rnd and div[side] is None:
        lines.append(tag("div", tag("mark", "▶ (no event here)")))
    return join(lines) if lines else tag("span", "(nothing in this round)", class_="at-muted-text")


def compare_overview_html(al, labels=("run A", "run B")):
    """The overview table: one row per round, each run's events as one line each."""
    rows, classes = [], []
    div = al.divergence
    for rnd in al.rounds:
        rows.append([str(rnd), _lines_html(al, "a", rnd), _lines_html(al, "b", rnd)])
        classes.append("at-row-first" if div and div["round"] == rnd else None)
    head = [tag("p", tag("b", f"{labels[0]}: "), _status(al.a)),
            tag("p", tag("b", f"{labels[1]}: "), _status(al.b))]
    if div is None:
        head.append(tag("p", badge("same", "ok"), " The two runs did exactly the same things."))
    else:
        head.append(tag("p", badge("diverge", "warn"),
                        f" The runs first differ in round {div['round']} (marked ▶)."))
    return join(head + [table(["round", labels[0], labels[1]], rows, classes,
                              aria_label="the two runs by round")])


def compare_round_html(al, rnd, labels=("run A", "run B")):
    """One round of both runs side by side, every event in full."""
    cols = []
    for side, label in zip(("a", "b"), labels):
        blocks = [tag("h4", f"{label}, round {rnd}")]
        events = al.events(side, rnd)
        if not events:
            blocks.append(tag("p", "(nothing in this round)", class_="at-muted-text"))
        for i, event in events:
            marked = al.divergence and al.divergence[side] == i
            title = event_summary(event)
            blocks.append(tag("details", tag("summary", tag("mark", "▶ " + title) if marked else title),
                              event_html(event), open=bool(marked)))
        cols.append(tag("div", *blocks))
    div = al.divergence
    note = ""
    if div and div["round"] == rnd:
        if div["a"] is None or div["b"] is None:
            only = labels[0] if div["b"] is None else labels[1]
            note = tag("p", tag("b", "The first difference: "), f"only {only} has the marked step.")
        else:
            fields = differing_fields(al.a[div["a"]], al.b[div["b"]])
            note = tag("p", tag("b", "The first difference: "), "at the marked step the runs differ in ",
                       join([tag("code", f) if i == 0 else join([", ", tag("code", f)])
                             for i, f in enumerate(fields)]), ".")
    return join([note, tag("div", *cols, class_="at-side")])


def compare_html(a, b, labels=("run A", "run B"), round=None):  # noqa: A002 -- the course's word
    """Two runs compared: the overview, then one round side by side (the first divergent one by default)."""
    al = a if isinstance(a, Alignment) else Alignment(a, b)
    if round is None:
        round = al.divergence["round"] if al.divergence else (al.rounds[-1] if al.rounds else 0)  # noqa: A001 -- the parameter
    return wrap(tag("h3", f"{labels[0]} and {labels[1]}, side by side"),
                compare_overview_html(al, labels), compare_round_html(al, round, labels),
                label="two runs compared")


def compare_text(a, b, labels=("run A", "run B")):
    """Two runs compared, as plain text."""
    al = a if isinstance(a, Alignment) else Alignment(a, b)
    lines = [f"{labels[0]}: {_status(al.a)}", f"{labels[1]}: {_status(al.b)}"]
    div = al.divergence
    lines.append("The two runs did exactly the same things." if div is None
                 else f"The runs first differ in round {div['round']} (marked >>).")
    for rnd in al.rounds:
        lines.append(f"round {rnd}")
        for side, label in zip(("a", "b"), labels):
            for i, event in al.events(side, rnd):
                mark = ">>" if div and div[side] == i else "  "
                lines.append(f" {mark} {label}: {event_summary(event)}")
            if div and div["round"] == rnd and div[side] is None:
                lines.append(f" >> {label}: (no event here)")
    return "\n".join(lines)

