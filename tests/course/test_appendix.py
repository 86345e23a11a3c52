"""The frameworks appendix cites each framework's own documentation and imports none of them."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = (ROOT / "notebooks" / "source" / "08_frameworks.py").read_text(encoding="utf-8")
# Each framework and where its own documentation lives.
DOCS = {
    "AutoGen": "https://microsoft.github.io/autogen/",
    "LangGraph": ("https://langchain-ai.github.io/langgraph/", "https://docs.langchain.com/"),
    "CrewAI": "https://docs.crewai.com/",
    "MetaGPT": "https://docs.deepwisdom.ai/",
    "ChatDev": "https://github.com/OpenBMB/ChatDev/",
}


def sections():
    """``{framework: the text of its section}``, from the '## Name' headings."""
    parts = re.split(r"^# ## ", SOURCE, flags=re.M)
    return {part.split("\n", 1)[0].split(" (")[0].strip(): part for part in parts[1:]}


def test_every_framework_section_links_its_own_documentation():
    found = sections()
    for name, prefixes in DOCS.items():
        assert name in found, f"no section for {name}"
        links = re.findall(r"\((https://[^)\s]+)\)", found[name])
        assert links, f"{name}: no link to a documentation page"
        assert all(link.startswith(prefixes) for link in links), (name, links)


def test_no_framework_is_imported_or_installed():
    code = "\n".join(line for line in SOURCE.splitlines() if not line.startswith("#"))
    for name in ("autogen", "langgraph", "crewai", "metagpt", "chatdev", "camel"):
        assert not re.search(rf"^\s*(import|from)\s+{name}", code, flags=re.M | re.I), name
    assert "pip install" not in code and "micropip" not in code
