"""Course progress (from :func:`agent_team.progress.status`) as HTML and text, with each part's
line and the part to continue with (from :mod:`agent_team.tally`: what the home page says too)."""

from .html import badge, join, plain, table, tag, wrap

__all__ = ["progress_html", "progress_text"]


def _hint_note(hints, ex_id):
    n = (hints or {}).get(ex_id, 0)
    return f"{n} hint{'s' if n != 1 else ''} seen" if n else ""


def _predictions_line(predictions):
    """``'Predictions: 3 of 5 right'``, or '' when none was made."""
    if not predictions:
        return ""
    right = sum(1 for p in predictions.values() if p.get("right"))
    return f"Predictions made before a run: {right} of {len(predictions)} right"


def _by_part(tallies, next_title):
    """``["Part 4: failure injection: 2 of 2 passed · ...", ...]`` for the parts begun, then where to go on."""
    lines = [f"{row['title']}: {row['line']}" for row in tallies or () if row.get("line")]
    if lines and next_title:
        lines.append(f"Next: {next_title}.")
    return lines


def progress_html(parts, hints=None, predictions=None, tallies=None, next_title=""):
    """Every part's exercises as done / not yet, with the hints seen and the predictions made;
    ``tallies`` (rows of :func:`agent_team.tally.by_part`, each with its ``line``): each part begun."""
    rows, done, total, by_part = [], 0, 0, _by_part(tallies, next_title)
    for part in parts:
        for i, ex in enumerate(part.get("exercises", ())):
            total += 1
            done += bool(ex.get("done"))
            mark = badge("done", "ok") if ex.get("done") else badge("not yet", "muted")
            tries = ex.get("attempts", 0)
            note = "" if not tries else (f"{tries} graded run{'s' if tries != 1 else ''}"
                                         + ("" if ex.get("passed") or not ex.get("done")
                                            else "; the last one did not pass"))
            note = "; ".join(x for x in (note, _hint_note(hints, ex.get("id"))) if x)
            rows.append([plain(part.get("title")) if i == 0 else "",
                         join([tag("b", plain(ex.get("id"))), " ", plain(ex.get("title"))]), mark, note])
    return wrap(tag("h3", "Your progress ", badge(f"{done} of {total} exercises done", "info")),
                table(["part", "exercise", "status", "notes"], rows, aria_label="course progress"),
                tag("p", _predictions_line(predictions)) if predictions else "",
                tag("ul", *(tag("li", plain(x)) for x in by_part)) if by_part else "",
                tag("p", "Run an exercise's grader cell to update this.", class_="at-muted-text"),
                label="course progress")


def progress_text(parts, hints=None, predictions=None, tallies=None, next_title=""):
    lines = []
    for part in parts:
        lines.append(f"{plain(part.get('title'))}: {part.get('done', 0)} of {part.get('total', 0)} done")
        for ex in part.get("exercises", ()):
            seen = _hint_note(hints, ex.get("id"))
            lines.append(f"  [{'x' if ex.get('done') else ' '}] {plain(ex.get('id'))} {plain(ex.get('title'))}"
                         + (f" ({seen})" if seen else ""))
    if predictions:
        lines.append(_predictions_line(predictions))
    return "\n".join(lines + _by_part(tallies, next_title))
