"""A model in the tab (agent_team.realteam.models.tab) outside the site: one line saying where it runs and
what to use instead; a wrong argument said in words before anything else. The model itself runs
only in a browser's page: tests/browser/test_in_tab.py."""

import pytest

from agent_team.realteam.models import CannotRunHere, in_tab
from agent_team.realteam.models import tab as module

URL = "https://example.org/SmolLM2-135M-Instruct.Q4_1.gguf"


def test_outside_the_site_it_says_where_it_runs_and_what_to_use_instead():
    with pytest.raises(CannotRunHere) as caught:
        in_tab(URL)
    words = str(caught.value)
    assert "\n" not in words
    assert words.startswith("in_tab() runs only in the course's site")
    assert "openai_chat(" in words and "llama-server" in words


@pytest.mark.parametrize("kwargs, said", [
    ({"url": "model.gguf"}, "url must be the address of a GGUF file"),
    ({"url": None}, "url must be the address of a GGUF file"),
    ({"url": URL, "n_ctx": 100}, "n_ctx must be a whole number >= 256, not 100"),
    ({"url": URL, "max_tokens": 0}, "max_tokens must be a whole number >= 1, not 0"),
    ({"url": URL, "max_tokens": True}, "max_tokens must be a whole number >= 1, not True"),
    ({"url": URL, "threads": 0}, "threads must be a whole number >= 1, or None"),
    ({"url": URL, "temperature": 3}, "temperature must be a number from 0 to 2, not 3"),
    ({"url": URL, "seconds": 0}, "seconds must be a number > 0"),
])
def test_a_wrong_argument_is_said_in_words_before_the_platform_is_asked(kwargs, said):
    url = kwargs.pop("url")
    with pytest.raises(ValueError) as caught:
        in_tab(url, **kwargs)
    assert said in str(caught.value)


def test_a_model_made_from_an_answer_is_the_slot_s_prompt_to_str(monkeypatch):
    """What the page answers is what the slot reads: the role's schema asked, the text unflattened
    for the reviewer, the token counts on last_usage, a late answer a timeout in words."""
    asked = []

    def exchange(ask, seconds, progress=None):
        asked.append((ask, seconds))
        if ask["prompt"] == "late":
            return None
        return {"id": 1, "text": '{"role": "reviewer", "thought": "t", "verdict": "approve", "notes": "", '
                                 '"message": "m"}', "usage": {"prompt_tokens": 12, "completion_tokens": 7.5}}

    monkeypatch.setattr(module, "_exchange", exchange)
    reviewer = module.InTabModel(URL, {}, max_tokens=64, temperature=0.0, seconds=30.0).for_role("reviewer")
    text = reviewer("review this")
    assert '"path": "REVIEW.json"' in text
    assert asked[0][0]["schema"]["properties"]["verdict"]["enum"] == ["approve", "request_changes"]
    assert asked[0][0]["max_tokens"] == 64 and asked[0][1] == 31.0
    assert reviewer.last_usage == {"prompt_tokens": 12, "completion_tokens": None}
    assert reviewer.usage == [reviewer.last_usage]
    with pytest.raises(module.ModelError) as caught:
        reviewer("late")
    assert caught.value.failure == "timeout" and "did not finish within 30 s" in str(caught.value)
    assert repr(reviewer) == f"in_tab({URL!r}, role='reviewer')"
