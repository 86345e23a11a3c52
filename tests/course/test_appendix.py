"""The frameworks appendix cites each framework's own documentation, imports none of them, states the
version it read, shows the course's idea in each one's API, and says true things about the course."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "notebooks" / "source"
# Under Pyodide only src/ and the tests are copied: no notebook sources there.
pytestmark = pytest.mark.skipif(not SOURCES.is_dir(), reason="the notebook sources are not here")
APPENDIX = next(iter(sorted(SOURCES.glob("*_frameworks.py"))), None)
SOURCE = APPENDIX.read_text(encoding="utf-8") if APPENDIX else ""

# Each framework, where its own documentation and repository live, and the name its tables use.
DOCS = {
    "Microsoft Agent Framework": ("https://learn.microsoft.com/en-us/agent-framework/",
                                  "https://github.com/microsoft/agent-framework", "https://github.com/microsoft/autogen"),
    # AG2, the community fork that kept AutoGen 0.2's API, is told apart in AutoGen's section, from its own README
    "AutoGen": ("https://microsoft.github.io/autogen/", "https://github.com/microsoft/autogen",
                "https://github.com/ag2ai/ag2"),
    "LangGraph": ("https://docs.langchain.com/oss/python/langgraph/", "https://github.com/langchain-ai/"),
    "CrewAI": ("https://docs.crewai.com/",),
    "MetaGPT": ("https://docs.deepwisdom.ai/", "https://github.com/geekan/MetaGPT/"),
    "ChatDev": ("https://github.com/OpenBMB/ChatDev",),
}
# Named in a paragraph of their own, not a full section with the eight ideas: each cites its own docs.
MENTIONS = {"One more: the OpenAI Agents SDK": ("https://openai.github.io/openai-agents-python/",)}
TABLE_NAMES = {"Microsoft Agent Framework": "Agent Framework", "ChatDev": "ChatDev 2.0"}


def sections():
    """``{framework: the text of its section}``, from the '## Name' headings."""
    parts = re.split(r"^# ## ", SOURCE, flags=re.M)
    return {part.split("\n", 1)[0].split(" (")[0].strip(): part for part in parts[1:]}


def code_cells():
    return [cell for cell in re.split(r"^# %%.*$", SOURCE, flags=re.M) if not cell.lstrip().startswith("# ")
            and cell.strip()]


def literal(name):
    """The value of a top-level ``NAME = {...}`` in the appendix's code cells."""
    for cell in code_cells():
        for node in ast.parse(cell).body:
            if isinstance(node, ast.Assign) and [t.id for t in node.targets if isinstance(t, ast.Name)] == [name]:
                return ast.literal_eval(node.value)
    raise AssertionError(f"the appendix defines no {name}")


def test_every_framework_section_links_its_own_documentation():
    found = sections()
    for name, prefixes in DOCS.items():
        assert name in found, f"no section for {name}"
        links = re.findall(r"\((https://[^)\s]+)\)", found[name])
        assert links, f"{name}: no link to a documentation page"
        assert all(link.startswith(prefixes) for link in links), (name, links)


def test_every_framework_states_the_version_read():
    table = SOURCE.split("| framework | version read | status |", 1)[1].split("\n#\n", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("# | ")]
    for name in DOCS:
        row = next((r for r in rows if name.split()[-1] in r), None)
        assert row, f"the version table has no row for {name}"
        assert re.search(r"\d+\.\d+", row), f"{name}: no version number in {row!r}"


def test_every_framework_shows_the_course_idea_in_its_own_api():
    for name, text in sections().items():
        if name not in DOCS:
            continue
        assert "**The course's idea in its API**" in text, name
        block = re.search(r"^# ```(python|yaml)\n(.*?)^# ```$", text, flags=re.M | re.S)
        assert block, f"{name}: no example block"
        body = "\n".join(line[2:] for line in block.group(2).splitlines())
        if block.group(1) == "python":
            ast.parse(body.replace("await ", ""))  # its shape is Python, whatever it imports
        assert "**What it leaves to you.**" in text, name


def test_the_tables_cover_every_framework_and_every_idea():
    ideas, pieces = literal("IDEAS"), literal("MODEL_PIECES")
    frameworks, model = literal("FRAMEWORKS"), literal("FRAMEWORKS_MODEL")
    names = [TABLE_NAMES.get(name, name) for name in DOCS]
    assert list(frameworks) == names and list(model) == names
    assert all(set(row) == set(ideas) for row in frameworks.values())
    assert all(len(row) == len(pieces) for row in model.values())
    assert set(literal("COURSE")) == set(ideas)
    assert "sandboxed execution" in ideas


def test_the_course_column_names_what_the_package_has():
    """The model pieces' course column is built from the package's own names, so a rename breaks here."""
    from agent_team.realteam.llm import llm_policy
    from agent_team.realteam.models import anthropic_messages, openai_chat, total_usage
    cell = next(c for c in code_cells() if "COURSE_MODEL" in c)
    for function in (llm_policy, anthropic_messages, openai_chat, total_usage):
        assert f"{function.__name__}.__name__" in cell


def test_no_framework_is_imported_or_installed():
    code = "\n".join(line for line in SOURCE.splitlines() if not line.startswith("#"))
    for name in ("autogen", "agent_framework", "langgraph", "crewai", "metagpt", "chatdev", "runtime", "camel"):
        assert not re.search(rf"^\s*(import|from)\s+{name}", code, flags=re.M | re.I), name
    assert "pip install" not in code and "micropip" not in code


def test_a_framework_named_in_passing_links_its_own_documentation():
    found = sections()
    for name, prefixes in MENTIONS.items():
        assert name in found, f"no paragraph for {name}"
        links = re.findall(r"\((https://[^)\s]+)\)", found[name])
        assert links and all(link.startswith(prefixes) for link in links), (name, links)
    sdk = found["One more: the OpenAI Agents SDK"]
    assert "handoff" in sdk and "guardrail" in sdk


def test_the_walks_corrections_to_the_map_hold():
    found = sections()
    autogen, langgraph = found["AutoGen"], found["LangGraph"]
    assert "AG2" in autogen and "0.2" in autogen  # the fork a learner meets in older tutorials
    handoffs = re.search(r"\*\*Handoffs\.\*\*(.*?)\n# \* ", autogen, flags=re.S).group(1)
    assert "agentchat-user-guide/swarm.html" in handoffs and "core-user-guide" not in handoffs
    assert "https://docs.langchain.com/oss/python/langgraph/interrupts" in langgraph
    assert re.search(r"runs again from its (start|beginning)", langgraph)
