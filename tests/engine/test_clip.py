"""One way to shorten text: clip and safe_repr, and the engine's messages that use them."""

from agent_team.clip import ELLIPSIS, clip, safe_repr
from agent_team.limits import describe_error
from agent_team.oracle import short
from agent_team.render.html import plain
from agent_team.repo import PatchRejected, check_path


def test_clip_keeps_short_text_and_cuts_long_text_to_the_limit():
    assert clip("abc", 3) == "abc"
    assert clip("abcdef", 4) == "abc…" and len(clip("x" * 500, 80)) == 80
    assert clip(12345, 3) == "12…"
    assert clip("", 0) == "" and clip("ab", 0) == ELLIPSIS[:0] + "…"


def test_clip_can_say_how_long_the_text_was():
    assert clip("x" * 12_345, 5, count=True) == "xxxx… [12,345 characters]"
    assert clip("short", 5, count=True) == "short"


def test_safe_repr_survives_a_hostile_repr_and_is_clipped():
    class Hostile:
        def __repr__(self):
            raise RuntimeError("no")

    assert safe_repr(Hostile()) == "<Hostile whose repr failed>"
    assert safe_repr("x" * 1000, 20) == "'" + "x" * 18 + "…"
    assert len(safe_repr(list(range(10_000)), None)) > 1000


def test_every_shortened_message_uses_the_one_ellipsis():
    cut = [describe_error(ValueError("x" * 1000), limit=50), short("y" * 1000), short(list(range(1000))),
           plain("z" * 1000, limit=30)]
    try:
        check_path("/" + "p" * 300)
    except PatchRejected as err:
        cut.append(str(err))
    for text in cut:
        assert "…" in text and "..." not in text, text
