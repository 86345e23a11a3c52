"""The course's home page, the site's root: plain HTML readable at once, before any Python or
JupyterLab loads, built from the course's own data (`agent_team.course`'s parts and exercises,
each notebook's title and stated time), never by hand.

Pure: `course_data(notebooks)` reads the notebooks, `render(data, settings)` returns the page.
The page's script (website/extension/src/page/home.ts, built into lib/home.js) fills in what only
the browser knows: the learner's progress (the same record the progress widget reads, counted per
part as agent_team.tally counts it, with the rule for a prediction's part shipped here), the next
unfinished part, whether the browser keeps the work, and it prepares the kernel while
the learner reads (docs/site.md, "The home page"). `website/pages.py` writes the page into the
built site; the recap sheet and the instructors' page are rendered beside it (`sheets`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from string import Template

from agent_team import course, progress

from . import labfetch

TITLE = "A Team of Agents: Plan, Code, Review, Test"
# The pages as pages (website/templates/): read and edited as HTML and CSS, with `$slot`s filled here.
TEMPLATES = Path(__file__).resolve().parent / "templates"
HOME, SHEET, HEAD = (Template((TEMPLATES / f"{name}.html").read_text(encoding="utf-8").rstrip("\n"))
                     for name in ("home", "sheet", "head"))
# What the course is and who it is for: README.md's opening, for a learner.
TEACHES = ("An interactive course on orchestrating a team of role agents (a planner, a coder, a "
           "reviewer) with a supervisor written in code. The supervisor decides who speaks next, what "
           "each role may see and write, and when to stop; the only success signal is a test oracle the "
           "coder cannot lie to. The agents are scripted fakes, so the orchestration is what you build "
           "and get graded on; a real model can fill any role later, and the supervisor keeps it honest.")
FOR_WHOM = ("For programmers who read and write Python (functions, dicts, a loop) and want to build "
            "agent systems whose success is measured, not claimed. No account, no install, no model "
            "key: everything runs in this browser tab.")
# The browsers the kernel starts in: website/extension/src/capabilities.ts's TOO_OLD says the same
# (a test holds the two together).
BROWSERS = "Chrome or Edge 98+, Firefox 114+ or Safari 15.4+"
LAB = "lab/index.html"
TIME_RE = re.compile(r"\bAbout (\d+) minutes\b")
SCRIPT = "agent-team-home.js"
# JupyterLite's pages read the configuration of every index.html above them up to the one marked
# as its root (config-utils.js): the home page takes the place of that root page, so it keeps its mark.
JUPYTERLITE_ROOT = ('<script id="jupyter-config-data" type="application/json" '
                    'data-jupyter-lite-root=".">{}</script>')
SHEETS = {"recap.html": ("notebooks/recap.md", "The course on one page"),
          "teachers.html": ("docs/teachers.md", "For instructors: deploy the course, grade a class")}


@dataclass(frozen=True)
class Notebook:
    file: str                 # its name in the site's files: "01_architecture.ipynb"
    title: str                # its first heading
    minutes: int | None       # the time its opening states
    part: int | None = None   # its row in course.PARTS; None for the appendix
    exercises: tuple = field(default_factory=tuple)  # ((id, title), ...) from course.EXERCISES


def notebook_facts(path: Path) -> tuple[str, int | None]:
    """(title, minutes) from a notebook's first markdown cell: its `# ` heading and its
    "About N minutes"; a notebook without a heading stops the build (the home would lie)."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    text = next(("".join(c["source"]) for c in cells if c["cell_type"] == "markdown"), "")
    heading = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), None)
    if not heading:
        raise ValueError(f"{path}: its first markdown cell has no '# ' heading for the home page")
    found = TIME_RE.search(text)
    return heading, int(found.group(1)) if found else None


def course_data(notebooks: Path) -> list[Notebook]:
    """Every part of the course (course.PARTS, in order) and then the appendix: the learner's
    notebooks of `notebooks` that are not a part."""
    by_part = {p.notebook: p for p in course.PARTS}
    out = []
    for part in course.PARTS:
        path = notebooks / f"{part.notebook}.ipynb"
        if not path.exists():
            raise ValueError(f"{path}: part {part.number} of agent_team.course has no notebook")
        title, minutes = notebook_facts(path)
        out.append(Notebook(path.name, title, minutes, part.number,
                            tuple((e.id, e.title) for e in course.EXERCISES if e.part == part.number)))
    for path in sorted(notebooks.glob("*.ipynb")):
        if path.stem not in by_part:
            out.append(Notebook(path.name, *notebook_facts(path)))
    return out


def _e(text) -> str:
    return escape(str(text), quote=True)


def _open(file: str) -> str:
    return f"{LAB}?path={_e(file)}"


def _minutes(nb: Notebook) -> str:
    return f"about {nb.minutes} min" if nb.minutes else ""


def _part(nb: Notebook) -> str:
    key = f"part{nb.part}" if nb.part else "appendix"
    exercises = "".join(
        f'<li data-exercise="{_e(i)}"><span class="ex-id">{_e(i)}</span> {_e(t)} '
        f'<span class="badge muted" data-status>not graded yet</span></li>' for i, t in nb.exercises)
    what = (f'<ul class="exercises" aria-label="exercises of {_e(nb.title)}">{exercises}</ul>'
            if nb.exercises else '<p class="muted">Reading, with a few cells to run; no graded exercise.</p>')
    counts = (f'<p class="tally" data-tally="{key}" aria-live="polite"></p>' if nb.part else "")
    return (f'<li class="part" data-part="{key}" data-notebook="{_e(nb.file)}">'
            f'<h3><a href="{_open(nb.file)}">{_e(nb.title)}</a></h3>'
            f'<p class="meta">{_e(_minutes(nb))}{" · " if nb.minutes else ""}'
            f'{len(nb.exercises)} graded exercise{"s" if len(nb.exercises) != 1 else ""}</p>'
            f'{what}{counts}</li>')


def render(data: list[Notebook], settings: dict | None = None) -> str:
    """The whole home page. `settings` go to its script (website/extension/src/page/home.ts):
    the course's exercise ids by part, and the kernel's prewarm settings (None: no prewarm)."""
    parts = [nb for nb in data if nb.part]
    appendix = [nb for nb in data if not nb.part]
    total = sum(nb.minutes or 0 for nb in data)
    first = parts[0] if parts else data[0]
    config = {"exercises": {f"part{nb.part}": [i for i, _ in nb.exercises] for nb in parts},
              "keyParts": [list(rule) for rule in progress.KEY_PARTS],
              "notebooks": [nb.file for nb in data], "first": first.file, "lab": LAB,
              "hours": round(total / 60, 1), **(settings or {})}
    blob = json.dumps(config, separators=(",", ":")).replace("</", "<\\/")
    solutions = "".join(f'<li><a href="{_open("solutions/" + nb.file)}">{_e(nb.title)}</a></li>' for nb in data)
    return HOME.substitute(
        head=_head(TITLE), title=_e(TITLE), jupyterlite_root=JUPYTERLITE_ROOT, settings=blob, script=SCRIPT, lab=LAB,
        teaches=_e(TEACHES), for_whom=_e(FOR_WHOM), part_count=len(parts), hours=_e(config["hours"]),
        exercise_count=sum(len(nb.exercises) for nb in parts), first_href=_open(first.file),
        first_title=_e(first.title), parts="".join(_part(nb) for nb in parts),
        appendix="".join(_part(nb) for nb in appendix), solutions=solutions, browsers=_e(BROWSERS))


def sheet(markdown_html: str, title: str) -> str:
    """A page of the site around an already rendered markdown document (the recap, the instructors')."""
    return SHEET.substitute(head=_head(title), lab=LAB, body=markdown_html)


def _head(title: str) -> str:
    """What every page of the site starts its <head> with: its title and the course's look."""
    return HEAD.substitute(title=_e(title), style=STYLE)


def markdown(text: str) -> str:
    """Markdown to HTML for the sheets (mistune, a dependency of the site's build); links into the
    repository, which the site does not ship, become plain text."""
    import mistune

    html = mistune.create_markdown(plugins=["table"])(text)
    return re.sub(r'<a href="(?!https?:|#)[^"]*">(.*?)</a>', r"\1", html)


# The course's look, light and dark, inline in every page (one request less before the page shows).
STYLE = (TEMPLATES / "site.css").read_text(encoding="utf-8")


def prefetch_list(lab_page: str) -> list[str]:
    """JupyterLab's entry files as the lab page names them (relative to the site's root, query
    included, so that the page's own requests hit what the home page prefetched)."""
    found = re.findall(r'id="jupyter-lite-main" rel="preload" href="\.\./([^"]+)"', lab_page)
    found += re.findall(r"import\(\s*'\.\./(config-utils\.js[^']*)'", lab_page)
    return found


def publish(out: Path, root: Path, settings: dict) -> None:
    """Write the home page (in place of JupyterLite's redirect to lab/), its script and the sheets
    into the built site `out`, from the course's data and the repository `root`'s notebooks and docs.
    `settings`: the start-up levers' page settings (website/levers.py), for the page's script."""
    built = Path(__file__).resolve().parent / "extension" / "lib" / "home.js"
    if not built.exists():
        raise SystemExit(f"{built} missing: the site's plugin was not built (npm run build in website/extension)")
    (out / SCRIPT).write_text(built.read_text())
    extra = {k: v for k, v in settings.items() if k in ("prewarm", "isolation")}
    lite = json.loads((out / "jupyter-lite.json").read_text())["jupyter-config-data"]
    if lite.get("contentsStorageName"):
        extra["contentsStorageName"] = lite["contentsStorageName"]
    if "prewarm" in extra:
        # The entry files, then the chunks a notebook's JupyterLab asks for (website/labfetch.py).
        extra["prefetch"] = prefetch_list((out / "lab" / "index.html").read_text()) + labfetch.chunks(out)
    (out / "index.html").write_text(render(course_data(root / "notebooks"), extra))
    for name, (source, title) in SHEETS.items():
        (out / name).write_text(sheet(markdown((root / source).read_text(encoding="utf-8")), title))
