"""The similarity report (:mod:`similarity`) as a page an instructor reads, or as JSON for scripts."""

import html
import json
from dataclasses import asdict

from .similarity import THRESHOLD

__all__ = ["as_html", "as_json"]


def as_json(report):
    return json.dumps({"known_sources_compared": report.known, "findings": [asdict(f) for f in report.findings],
                       "not_python": [asdict(c) for c in report.unparsed]}, indent=2)


def as_html(report, threshold=THRESHOLD):
    """A page an instructor reads: per exercise, each finding with both cells side by side."""
    def esc(text):
        return html.escape(text, quote=False)   # element text only: no attribute holds learner text
    out = ["<!doctype html><meta charset='utf-8'><title>Similar exercise cells</title><style>",
           "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;width:100%}",
           "td,th{border:1px solid #ccc;vertical-align:top;padding:.4em;width:50%}",
           "pre{margin:0;white-space:pre-wrap;font-size:.85em}</style>",
           "<h1>Similar exercise cells</h1>",
           f"<p>Cells compared on their syntax tree, names, literals, comments and formatting normalised; "
           f"threshold {threshold:g}. <b>ratio</b>: normalised, <b>as written</b>: names and literals kept. "
           "A likeness is a reason to look, never proof: short, tightly specified cells converge.</p>"]
    if not report.known:
        out.append("<p><b>The course's stubs and worked solutions were not compared</b> (no course notebooks "
                   "found: give <code>--course-notebooks DIR</code>).</p>")
    if not report.findings:
        out.append("<p>No two learners' cells are alike at this threshold.</p>")
    current = None
    for f in report.findings:
        if f.exercise != current:
            current = f.exercise
            out.append(f"<h2>Exercise {esc(f.exercise)}</h2>")
            stubs = [g.first.learner for g in report.findings if g.exercise == f.exercise and g.kind == "not attempted"]
            if stubs:
                out.append(f"<p>Not attempted (the course's stub, left as it was): {esc(', '.join(stubs))}.</p>")
        if f.kind == "not attempted":
            continue
        what = {"pair": "same cell", "worked solution": "matches the course's worked solution",
                "not attempted": "the course's stub, not attempted"}[f.kind]
        out.append(f"<h3>{esc(f.first.learner)} and {esc(f.second.learner)}: {what}, ratio {f.ratio:g}, "
                   f"as written {f.as_written:g}</h3><table><tr>")
        for c in (f.first, f.second):
            out.append(f"<th>{esc(c.learner)} <small>{esc(c.notebook)}</small></th>")
        out.append("</tr><tr>" + "".join(f"<td><pre>{esc(c.source)}</pre></td>" for c in (f.first, f.second)))
        out.append("</tr></table>")
    return "\n".join(out) + "\n"
