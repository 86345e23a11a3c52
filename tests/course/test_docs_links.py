"""The docs a newcomer reads stay short and lead somewhere: README.md fits in 150 lines, and every
relative link in README.md, docs/*.md, CONTRIBUTING.md and bench/README.md points at a file that
exists (and, for a Markdown file with a #fragment, at one of its headings)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
if not README.exists():  # a copy of the package and its tests (the recipe test's) has no docs
    pytest.skip("README.md is not in this copy of the repository", allow_module_level=True)

PAGES = [README, ROOT / "CONTRIBUTING.md", ROOT / "bench" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)
CODE_SPAN = re.compile(r"`[^`\n]*`")


def links(page):
    """The link targets written in ``page``, leaving out code blocks and code spans."""
    text = CODE_SPAN.sub("", FENCE.sub("", page.read_text(encoding="utf-8")))
    return LINK.findall(text)


def anchors(page):
    """The #fragments GitHub gives the headings of a Markdown file."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    headings = re.findall(r"^#{1,6}\s+(.+?)\s*$", text, re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}


def test_the_readme_fits_in_150_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines; move the detail into docs/ and link it"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_points_at_something_that_exists(page):
    assert page.exists(), f"{page.relative_to(ROOT)} is missing"
    broken = []
    for target in links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...: not a file of this repository
            continue
        path, _, fragment = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif fragment and file.suffix == ".md" and fragment not in anchors(file):
            broken.append(f"{target}: {file.name} has no heading #{fragment}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_link_check_sees_links_and_catches_a_missing_file(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Top\n[ok](#top) [gone](nothing.md) `[code](not-a-link.md)`\n", encoding="utf-8")
    assert links(page) == ["#top", "nothing.md"] and anchors(page) == {"top"}
