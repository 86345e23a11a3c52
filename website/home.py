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

from agent_team import course, progress

from . import labfetch

TITLE = "A Team of Agents: Plan, Code, Review, Test"
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
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{_e(TITLE)}</title>
<link rel="manifest" href="manifest.webmanifest">
<style>{STYLE}</style>
{JUPYTERLITE_ROOT}
<script type="application/json" id="agent-team-home">{blob}</script>
<script src="{SCRIPT}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to the course</a>
<header>
<nav aria-label="site"><a href="#parts">Parts</a> <a href="recap.html">Recap sheet</a>
<a href="#how">How this site works</a> <a href="#instructors">Instructors</a>
<a href="{LAB}" id="open-lab">Open JupyterLab</a></nav>
<h1>{_e(TITLE)}</h1>
</header>
<main id="main">
<section aria-labelledby="about-h">
<h2 id="about-h">What you will learn</h2>
<p>{_e(TEACHES)}</p>
<p>{_e(FOR_WHOM)}</p>
<p>{len(parts)} parts and an appendix, about {_e(config["hours"])} hours in all,
{sum(len(nb.exercises) for nb in parts)} graded exercises.</p>
<p class="start"><a class="button" id="continue" href="{_open(first.file)}">Start with {_e(first.title)}</a>
<span id="continue-note" class="muted"></span></p>
<p id="warm" class="muted" role="status" aria-live="polite"></p>
</section>
<section id="parts" aria-labelledby="parts-h">
<h2 id="parts-h">The parts</h2>
<p id="progress-note" class="muted">Your progress shows here once you have run an exercise's grader cell.</p>
<ol class="parts">{"".join(_part(nb) for nb in parts)}</ol>
<h2>Appendix</h2>
<ul class="parts">{"".join(_part(nb) for nb in appendix)}</ul>
</section>
<section aria-labelledby="recap-h">
<h2 id="recap-h">The recap sheet</h2>
<p><a href="recap.html">The whole course on one printable page</a>: the state machine, the rules, the words.</p>
</section>
<section aria-labelledby="solutions-h">
<h2 id="solutions-h">Worked solutions</h2>
<p>Every exercise solved, with the notebooks run to the end: the answers. Try each exercise
(and its hints) first; open these to compare once you have passed, or when you are stuck for good.</p>
<details><summary>Show the worked solutions</summary><ul>{solutions}</ul></details>
</section>
<section id="my-work" aria-labelledby="my-work-h">
<h2 id="my-work-h">Your work</h2>
<p data-fallback>Your changed notebooks and your progress, as one zip file to keep or hand in: the
button below, or the one under the progress table at the end of each part (both save the same zip).</p>
</section>
<section id="kept" aria-labelledby="kept-h">
<h2 id="kept-h">Where your work is kept</h2>
<p>Your notebooks and your progress are saved in this browser, for this site's address only: not
on a server, and not in another browser or on another computer. Clearing this site's data in the
browser deletes them.</p>
<p id="persist" role="status" aria-live="polite">Some browsers clear a site's data when space runs
low, and Safari clears it after 7 days without a visit.</p>
<p>To keep a copy, download your work (above) from time to time, and always before a break of a week
or more in Safari.</p>
<p><button type="button" id="persist-ask" hidden>Ask this browser to keep my work</button></p>
</section>
<section id="how" aria-labelledby="how-h">
<h2 id="how-h">How this site works</h2>
<ul>
<li><strong>It runs in your browser.</strong> Python (Pyodide) runs in this tab: no server runs your
code, and nothing you type leaves the browser. The first visit downloads Python once (about 28 MB);
this page starts on it while you read.</li>
<li><strong>Your work stays in this browser</strong> (see above).</li>
<li><strong>A cell that never ends:</strong> Kernel → Interrupt Kernel (or the ■ button) stops it
and keeps your variables. Where the browser cannot interrupt, the notebook says so in one line:
then use Kernel → Restart Kernel and run the cells above again.</li>
<li><strong>Browsers:</strong> {_e(BROWSERS)}. Over plain <code>http://</code> from another
machine, Interrupt cannot stop a running cell.</li>
<li><strong>JupyterLab</strong> itself, with the file browser: <a href="{LAB}">open it</a>.</li>
</ul>
</section>
<section id="instructors" aria-labelledby="instructors-h">
<h2 id="instructors-h">For instructors</h2>
<p>This site is a folder of static files: copy it to any web host (GitHub Pages, a school's server,
a USB stick), under any path. <code>agent-team-grade</code> grades a class's notebooks or
<em>Download my work</em> zips with the same graders, one row per learner.</p>
<p><a href="teachers.html">Deploying the course and grading a class</a></p>
</section>
</main>
<footer><p class="muted">{_e(TITLE)} · runs entirely in this browser</p></footer>
</body>
</html>
"""


def sheet(markdown_html: str, title: str) -> str:
    """A page of the site around an already rendered markdown document (the recap, the instructors')."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{_e(title)}</title>
<style>{STYLE}</style>
</head>
<body>
<header><nav aria-label="site"><a href="./">Course home</a> <a href="{LAB}">Open JupyterLab</a></nav></header>
<main id="main" class="sheet">
{markdown_html}
</main>
</body>
</html>
"""


def markdown(text: str) -> str:
    """Markdown to HTML for the sheets (mistune, a dependency of the site's build); links into the
    repository, which the site does not ship, become plain text."""
    import mistune

    html = mistune.create_markdown(plugins=["table"])(text)
    return re.sub(r'<a href="(?!https?:|#)[^"]*">(.*?)</a>', r"\1", html)


# The course's look: the widgets' colours (render/html.py, render/diagram.py), light and dark.
STYLE = """
:root{--fg:#1d1d1f;--bg:#fff;--card:#f6f7f9;--line:rgba(127,127,127,.35);--link:#1559c1;--accent:#1a73e8;
--hot:#b35300;--muted:#5b5f66;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8ea;--bg:#121316;--card:#1c1e22;--link:#8ab4f8;
--accent:#8ab4f8;--hot:#f5a35c;--muted:#a6abb3}}
*{box-sizing:border-box}
body{margin:0;color:var(--fg);background:var(--bg);font-size:16px}
header,main,footer{max-width:60rem;margin:0 auto;padding:0 1rem}
h1{font-size:clamp(1.5rem,4vw,2.2rem);line-height:1.2;margin:.6em 0 .3em}
h2{font-size:1.3rem;margin:1.6em 0 .4em;border-bottom:2px solid var(--accent);padding-bottom:.15em}
h3{font-size:1.05rem;margin:0 0 .2em}
a{color:var(--link)}
a:focus-visible,button:focus-visible,summary:focus-visible{outline:3px solid var(--hot);outline-offset:2px}
nav{display:flex;flex-wrap:wrap;gap:.3rem 1rem;padding:.7rem 0;border-bottom:1px solid var(--line)}
nav #open-lab{margin-left:auto}
.skip{position:absolute;left:-999px;top:0;background:var(--bg);padding:.4rem}
.skip:focus{left:.5rem}
.button,button{display:inline-block;padding:.5em 1em;border-radius:6px;border:0;font:inherit;
background:var(--accent);color:var(--bg);text-decoration:none;font-weight:600;cursor:pointer}
button.quiet{background:transparent;color:var(--link);border:1px solid var(--line);padding:.2em .6em;font-weight:400}
ol.parts,ul.parts{list-style:none;padding:0;margin:0;display:grid;gap:.8rem;
grid-template-columns:repeat(auto-fill,minmax(min(100%,17rem),1fr))}
li.part{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.8rem}
.meta,.muted{color:var(--muted)}
.meta{margin:0 0 .4em;font-size:.9rem}
ul.exercises{padding-left:1.1rem;margin:.3em 0}
.ex-id{font-weight:700}
.badge{display:inline-block;padding:0 .45em;border-radius:8px;font-size:.8rem;font-weight:600}
.badge.ok{background:rgba(30,160,70,.22)}.badge.warn{background:rgba(230,150,0,.28)}
.badge.muted{background:rgba(127,127,127,.18);color:inherit}
.tally{font-size:.9rem;margin:.3em 0 0}
.tally:empty{display:none}
code{font-family:ui-monospace,monospace;font-size:.92em;background:rgba(127,127,127,.14);padding:0 .2em;
border-radius:3px}
details summary{cursor:pointer;font-weight:600}
.sheet table{border-collapse:collapse;display:block;overflow-x:auto}
.sheet th,.sheet td{border:1px solid var(--line);padding:2px 8px;text-align:left;vertical-align:top}
.sheet pre{overflow-x:auto;background:var(--card);padding:.5em}
.sheet pre code{background:none;padding:0}
footer{margin-top:2rem;padding-bottom:2rem;border-top:1px solid var(--line)}
@media print{nav,.skip{display:none}}
"""


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
