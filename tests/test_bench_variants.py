"""bench/variants.py: which start-up levers a variant name switches off, and how."""

import sys
import types
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import variants  # noqa: E402


def test_names_map_to_levers():
    assert variants.levers_off("shipped") == []
    assert variants.levers_off("unpatched") == ["prewarm", "service-worker"]
    assert variants.levers_off("no-prewarm") == ["prewarm"]


@pytest.mark.parametrize("name", ["prewarm", "no-snapshot", "no-prewarm+fast"])
def test_unknown_variant_says_what_exists(name):
    with pytest.raises(SystemExit, match="use shipped, unpatched or no-<lever>"):
        variants.levers_off(name)


def test_switch_off_replaces_every_place_the_step_lives(monkeypatch):
    calls = []
    build = types.SimpleNamespace(patch_prewarm=lambda *a: calls.append("build"))
    worker = types.SimpleNamespace(patch=lambda *a: calls.append("kernel_worker"))
    monkeypatch.setitem(sys.modules, "kernel_worker", worker)
    variants.switch_off(build, "prewarm")
    build.patch_prewarm("out", {})
    worker.patch("out", {})
    assert calls == []


def test_a_lever_with_no_place_left_stops(monkeypatch):
    monkeypatch.delitem(sys.modules, "isolation", raising=False)
    with pytest.raises(SystemExit, match="update bench/variants.py"):
        variants.switch_off(types.SimpleNamespace(), "service-worker")
