"""Course progress (from :func:`agent_team.progress.status`) as HTML and text."""

from .html import badge, join, plain, table, tag, wrap

__all__ = ["progress_html", "progress_text"]


def progress_html(parts):
    """Every part's exercises as done / not yet."""
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
            rows.append([plain(part.get("title")) if i == 0 else "",
                         join([tag("b", plain(ex.get("id"))), " ", plain(ex.get("name"))]), mark, note])
    return wrap(tag("h3", "Your progress ", badge(f"{done} of {total} exercises done", "info")),
                table(["part", "exercise", "status", "notes"], rows, aria_label="course progress"),
                tag("p", "Run an exercise's grader cell to update this.", class_="at-muted-text"),
                label="course progress")


def progress_text(parts):
    lines = []
    for part in parts:
        lines.append(f"{plain(part.get('title'))}: {part.get('done', 0)} of {part.get('total', 0)} done")
        for ex in part.get("exercises", ()):
            lines.append(f"  [{'x' if ex.get('done') else ' '}] {plain(ex.get('id'))} {plain(ex.get('name'))}")
    return "\n".join(lines)
