"""Each notebook ends with a link to the next part and one back to the course's home page, and
every link a learner notebook's markdown makes to another file resolves on the site.

How the links behave in JupyterLab (checked by hand in Chromium against a built site, issue 35):
a relative link such as ``02_policies.ipynb`` is opened by JupyterLab as a file of the site's
contents, in a new tab of the lab, so it must name a file next to the notebook. A relative link
to a page of the site, ``../index.html``, would be opened the same way, as a file that is not
there, and nothing happens. The home link is left to the browser only when JupyterLab cannot
decode it as a path (its URL resolver treats a link ``decodeURI`` rejects as not local), hence the
``%`` in ``../index.html#%home``: the browser opens the home page, in a new tab, and the fragment
is not read by the home page. ``..`` is the site's root from every notebook page: JupyterLite's
pages (website/pages.py) sit one folder down, and the home page is the root's index.html.
"""

import json
import re
from pathlib import Path

import pytest

from website import home, pages

ROOT = Path(__file__).resolve().parents[2]
LEARNER = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SOLUTIONS = [ROOT / "notebooks" / "solutions" / p.name for p in LEARNER]
HOME = "../index.html#%home"
LINK = re.compile(r"\]\(([^)\s]+)\)|href=\"([^\"]+)\"")


def markdown(path):
    return ["".join(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"]
            if c["cell_type"] == "markdown"]


def links(text):
    return [a or b for a, b in LINK.findall(text)]


def left_to_the_browser(link):
    """True when JupyterLab's URL resolver leaves the link alone: JavaScript's decodeURI rejects it."""
    return bool(re.search(r"%(?![0-9A-Fa-f]{2})", link))


@pytest.mark.parametrize("form", ["learner", "solutions"])
@pytest.mark.parametrize("index", range(len(LEARNER)), ids=[p.stem for p in LEARNER])
def test_each_notebook_ends_with_the_next_part_and_the_home_page(index, form):
    path = (LEARNER if form == "learner" else SOLUTIONS)[index]
    last = links(markdown(path)[-1])
    assert HOME in last, f"{path.name}: its last cell links back to the home page ({HOME})"
    if index + 1 < len(LEARNER):
        assert LEARNER[index + 1].name in last, f"{path.name}: its last cell links to {LEARNER[index + 1].name}"
    for link in last:
        if link != HOME:
            assert (path.parent / link).is_file(), f"{path.name}: {link} is not next to it on the site"


@pytest.mark.parametrize("path", LEARNER, ids=[p.name for p in LEARNER])
def test_every_file_a_learner_notebook_links_to_is_there(path):
    for text in markdown(path):
        for link in links(text):
            if re.match(r"[a-z]+:|#", link) or left_to_the_browser(link):
                continue  # off the site, within the page, or a page of the site (the home link)
            assert (path.parent / link.split("#")[0]).is_file(), f"{path.name} links to {link}, which is not there"


def test_the_home_link_reaches_the_home_page_from_every_notebook_page():
    assert left_to_the_browser(HOME) and not left_to_the_browser("02_policies.ipynb")
    assert all("/" not in page for page in pages.PAGES)  # lab/index.html, notebooks/index.html: one down
    assert home.LAB.count("/") == 1  # the home page opens notebooks one folder down from itself
