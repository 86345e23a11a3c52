"""Course progress (from :func:`agent_team.progress.status`) as HTML and text."""

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


def progress_html(parts, hints=None, predictions=None):
    """Every part's exercises as done / not yet, with the hints seen and the predictions made."""
    rows, done, total = [], 0, 0
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
                tag("p", "Run an exercise's grader cell to update this.", class_="at-muted-text"),
                label="course progress")


def progress_text(parts, hints=None, predictions=None):
    lines = []
    for part in parts:
        lines.append(f"{plain(part.get('title'))}: {part.get('done', 0)} of {part.get('total', 0)} done")
        for ex in part.get("exercises", ()):
            seen = _hint_note(hints, ex.get("id"))
            lines.append(f"  [{'x' if ex.get('done') else ' '}] {plain(ex.get('id'))} {plain(ex.get('title'))}"
                         + (f" ({seen})" if seen else ""))
    if predictions:
        lines.append(_predictions_line(predictions))
    return "\n".join(lines)
