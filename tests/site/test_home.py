"""website/home.py: the course's home page, rendered from the course's data (no browser)."""

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from agent_team import course
from website import home

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"


class Page(HTMLParser):
    """The page's elements, ids, links, and its text (outside scripts and styles)."""

    def __init__(self, html):
        super().__init__()
        self.ids, self.links, self.text, self.tags, self._skip = [], [], [], [], 0
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "a":
            self.links.append(attrs.get("href"))
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)

    @property
    def words(self):
        return " ".join(" ".join(self.text).split())


@pytest.fixture(scope="module")
def data():
    return home.course_data(NOTEBOOKS)


@pytest.fixture(scope="module")
def page(data):
    return Page(home.render(data, {"prewarm": {"static": "x", "comlink": "c.js", "coincident": "d.js",
                                               "options": {"packages": ["a"]}}}))


def test_every_part_of_the_course_then_the_appendix_in_order(data):
    assert [nb.part for nb in data if nb.part] == [p.number for p in course.PARTS]
    appendix = [nb.file for nb in data if not nb.part]
    assert len(appendix) == 1 and appendix[0].endswith("_frameworks.ipynb"), appendix
    for nb in data:
        if nb.part:
            assert [i for i, _ in nb.exercises] == [e.id for e in course.EXERCISES if e.part == nb.part]


def test_titles_and_times_come_from_the_notebooks(data):
    for nb in data:
        cells = json.loads((NOTEBOOKS / nb.file).read_text())["cells"]
        opening = "".join(cells[0]["source"])
        assert opening.startswith(f"# {nb.title}\n")
        assert f"About {nb.minutes} minutes" in opening


def test_the_page_shows_each_part_its_time_its_exercises_and_a_place_for_progress(data, page):
    words = page.words
    for nb in data:
        assert nb.title in words and f"about {nb.minutes} min" in words
        assert f"lab/index.html?path={nb.file}" in page.links
        for ex_id, title in nb.exercises:
            assert f"{ex_id} {title} not graded yet" in words
    tallies = [a["data-tally"] for t, a in page.tags if "data-tally" in a]
    assert tallies == [f"part{p.number}" for p in course.PARTS]
    total = sum(nb.minutes for nb in data)
    assert f"about {round(total / 60, 1)} hours in all, {len(course.EXERCISES)} graded exercises" in words


def test_the_page_says_what_the_course_is_and_how_the_site_works(page):
    words = page.words
    for needed in (home.TEACHES, home.FOR_WHOM, "It runs in your browser.", "Your work stays in this browser",
                   "Kernel → Interrupt Kernel", home.BROWSERS, "Safari clears it after 7 days",
                   "Worked solutions", "Every exercise solved", "For instructors", "agent-team-grade"):
        assert " ".join(needed.split()) in words, needed


def test_links_to_the_first_part_jupyterlab_the_recap_the_solutions_and_instructors(page):
    assert page.links.count("lab/index.html") >= 1 and "recap.html" in page.links and "teachers.html" in page.links
    start = next(a for t, a in page.tags if a.get("id") == "continue")
    assert start["href"] == "lab/index.html?path=01_architecture.ipynb"
    solutions = [link for link in page.links if "solutions/" in link]
    assert solutions == [f"lab/index.html?path=solutions/{p.name}" for p in sorted(NOTEBOOKS.glob("*.ipynb"))]
    for link in page.links:
        assert not re.match(r"https?:", link), f"a link off the site: {link}"


def test_the_page_leaves_its_place_for_my_work_and_loads_its_script(page):
    assert {"my-work", "kept", "persist", "persist-ask", "warm", "parts", "how", "instructors"} <= set(page.ids)
    assert ("script", {"src": home.SCRIPT, "defer": None}) in page.tags
    assert len(page.ids) == len(set(page.ids)), "an id used twice"


def test_the_scripts_settings_name_every_exercise_and_the_prewarm(data):
    html = home.render(data, {"prewarm": {"options": {"x": "</script><script>alert(1)"}}})
    blob = re.search(r'<script type="application/json" id="agent-team-home">(.*?)</script>', html, re.S).group(1)
    settings = json.loads(blob)
    assert settings["exercises"] == {f"part{p.number}": [e.id for e in course.EXERCISES if e.part == p.number]
                                     for p in course.PARTS}
    assert settings["prewarm"]["options"]["x"] == "</script><script>alert(1)"
    assert html.count("</script>") == 3  # the settings, the script, JupyterLite's root mark


def test_light_and_dark_and_narrow_screens():
    assert "prefers-color-scheme:dark" in home.STYLE and "min(100%," in home.STYLE
    assert ":focus-visible" in home.STYLE


def test_the_browsers_named_are_the_kernels_own():
    capabilities = (ROOT / "website/extension/src/capabilities.ts").read_text()
    assert home.BROWSERS in capabilities


def test_a_notebook_without_a_heading_stops_the_build(tmp_path):
    (tmp_path / "x.ipynb").write_text(json.dumps({"cells": [{"cell_type": "markdown", "source": ["no heading"]}]}))
    with pytest.raises(ValueError, match="no '# ' heading"):
        home.notebook_facts(tmp_path / "x.ipynb")


def test_a_part_without_its_notebook_stops_the_build(tmp_path):
    with pytest.raises(ValueError, match="part 1 of agent_team.course has no notebook"):
        home.course_data(tmp_path)


def test_the_sheets_render_markdown_and_drop_links_into_the_repository():
    html = home.markdown("# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[docs](site.md#x) and [web](https://e.org)\n")
    assert "<table>" in html and "<h1>T</h1>" in html
    assert "site.md" not in html and 'href="https://e.org"' in html
    assert "<title>Recap</title>" in home.sheet(html, "Recap")


def test_the_prefetched_files_are_the_lab_pages_own():
    lab = ('<link id="jupyter-lite-main" rel="preload" href="../build/lab/bundle.js?_=ab12" main="index" as="script">'
           "\n await import(\n  '../config-utils.js?_=ab12'\n );")
    assert home.prefetch_list(lab) == ["build/lab/bundle.js?_=ab12", "config-utils.js?_=ab12"]


def test_the_page_stays_jupyterlites_root(data):
    # lab/ and notebooks/ read the root page's configuration script: without it no notebook opens
    html = home.render(data, {})
    mark = r'<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root="\.">(.*?)</script>'
    found = re.search(mark, html, re.S)
    assert found and json.loads(found.group(1)) == {}
