"""Every link the site shows resolves on the site, and the instructors' page holds no placeholder.

The site is laid out as website/build.py lays it out, without JupyterLite: the home page and its
sheets (website/home.py) at the root, JupyterLab's pages one folder down, and the notebooks folder
as shipped (website/contents.py, less what jupyter_lite_config.json leaves out) under `files/`.
Links are read from the pages, from every markdown cell of every shipped notebook and from their
stored HTML outputs. A notebook's link resolves as JupyterLab resolves it: next to the notebook in
`files/`, or, when JupyterLab leaves it to the browser (a `%` no URI decodes), from `lab/index.html`.
tests/course/test_part_links.py holds the closing links of each part; tests/course/test_docs_links.py
the repository's own docs, which may link into the repository: the site ships none of it.
"""

import json
import re
from html import unescape
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlsplit

import pytest

from website import contents, home, pages

ROOT = Path(__file__).resolve().parents[2]
HREF = re.compile(r'href="([^"]*)"')
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")
OFF_SITE = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:|#")   # https:, mailto:, data:, or within the page
IGNORED = [re.compile(p) for p in json.loads((ROOT / "jupyter_lite_config.json").read_text())
           ["LiteBuildConfig"]["extra_ignore_contents"]]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """{path on the site: its text or None} for every page and shipped file."""
    (staged,) = contents.stage([ROOT / "notebooks"], tmp_path_factory.mktemp("contents"))
    shipped = {}
    for path in staged.rglob("*"):
        rel = path.relative_to(staged).as_posix()
        if path.is_file() and not any(p.search("/" + rel) for p in IGNORED):
            shipped["files/" + rel] = path.read_text(encoding="utf-8") if path.suffix == ".ipynb" else None
    shipped["index.html"] = home.render(home.course_data(ROOT / "notebooks"))
    for name, (source, title) in home.SHEETS.items():
        shipped[name] = home.sheet(home.markdown((ROOT / source).read_text(encoding="utf-8")), title)
    for app in (*pages.PAGES, "tree"):
        shipped[f"{app}/index.html"] = ""
    shipped["manifest.webmanifest"] = None  # JupyterLite's, at the root (the home page names it)
    return shipped


def notebook_links(text):
    """The links of a notebook: in its markdown cells (Markdown or HTML) and its stored HTML outputs."""
    found = []
    for cell in json.loads(text)["cells"]:
        if cell["cell_type"] == "markdown":
            source = "".join(cell["source"])
            found += MD_LINK.findall(source) + HREF.findall(source)
        for output in cell.get("outputs", []):
            found += HREF.findall("".join(output.get("data", {}).get("text/html", "")))
    return [unescape(link) for link in found]


def resolves(site, page, link):
    """Whether `link`, shown on the site's `page`, opens something the site ships."""
    if OFF_SITE.match(link):
        return True
    if page.startswith("files/") and not re.search(r"%(?![0-9A-Fa-f]{2})", link):
        target = urljoin(page, link.split("#")[0])   # JupyterLab opens it from the contents
    else:
        base = "lab/index.html" if page.startswith("files/") else page
        target = urljoin(base, link)
    parts = urlsplit(target)
    opened = parts.path.lstrip("/") or "index.html"
    if opened.endswith("/"):
        opened += "index.html"
    if opened not in site:
        return False
    # lab/index.html?path=X opens the notebook X of the contents
    return all("files/" + p in site for p in parse_qs(parts.query).get("path", []))


def every_link(site):
    for page, text in sorted(site.items()):
        if text is None:
            continue
        for link in notebook_links(text) if page.endswith(".ipynb") else map(unescape, HREF.findall(text)):
            yield page, link


def test_the_site_shows_links_at_all(site):
    links = list(every_link(site))
    assert any(p == "index.html" and "path=01_architecture.ipynb" in link for p, link in links)
    assert any(p == "files/01_architecture.ipynb" and link == "02_policies.ipynb" for p, link in links)


def test_every_link_the_site_shows_opens_something_it_ships(site):
    broken = [f"{page}: {link}" for page, link in every_link(site) if not resolves(site, page, link)]
    assert not broken, "links to nothing on the site:\n" + "\n".join(broken)


def test_a_link_to_a_file_the_site_does_not_ship_is_found(site):
    assert not resolves(site, "files/solutions/05_real_team.ipynb", "recap.md")
    assert not resolves(site, "files/03_supervisor.ipynb", "../src/agent_team/supervisor.py")
    assert not resolves(site, "index.html", "lab/index.html?path=09_missing.ipynb")
    assert resolves(site, "files/solutions/05_real_team.ipynb", "../index.html#%home")
    assert resolves(site, "files/05_real_team.ipynb", "recap.md")


@pytest.mark.parametrize("name", sorted(home.SHEETS))
def test_a_sheet_neither_links_into_the_repository_nor_keeps_a_placeholder(name):
    import mistune

    source = (ROOT / home.SHEETS[name][0]).read_text(encoding="utf-8")
    links = HREF.findall(mistune.create_markdown(plugins=["table"])(source))
    # home.markdown turns such a link into bare words ("(site.md)"): the page says where, in words
    assert [link for link in links if not OFF_SITE.match(link)] == [], f"{name} links into the repository"
    shown = home.markdown(source)
    for placeholder in ("OWNER/REPO", "OWNER", "TODO", "XXX"):
        assert placeholder not in shown, f"{name} shows the placeholder {placeholder}"
