"""bench/variants.py: which start-up levers a variant name switches off, and how."""

import importlib
import sys
import types
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import variants  # noqa: E402


def test_names_map_to_levers():
    assert variants.levers_off("shipped") == []
    assert variants.levers_off("no-levers") == ["prewarm", "service-worker", "snapshot"]
    assert variants.levers_off("no-prewarm") == ["prewarm"]


@pytest.mark.parametrize("name", ["prewarm", "no-snapshots", "no-prewarm+fast"])
def test_unknown_variant_says_what_exists(name):
    with pytest.raises(SystemExit, match="use shipped, no-levers or no-<lever>"):
        variants.levers_off(name)


def test_switch_off_makes_the_step_build_calls_a_no_op(monkeypatch):
    monkeypatch.syspath_prepend(str(variants.SITE))
    build = importlib.import_module("build")
    for lever, (module_name, func) in variants.LEVERS.items():
        module = sys.modules[module_name]
        # build.py must call the step through its module, or replacing it would change nothing
        assert f"{module_name}.{func}(" in Path(build.__file__).read_text(), lever
        calls = []
        monkeypatch.setattr(module, func, lambda *a: calls.append(lever))  # noqa: B023 -- called in this iteration
        variants.switch_off(lever)
        getattr(module, func)("out", {})
        assert calls == []


def test_a_lever_with_no_place_left_stops(monkeypatch):
    monkeypatch.setitem(sys.modules, "isolation", types.SimpleNamespace())
    with pytest.raises(SystemExit, match="update bench/variants.py"):
        variants.switch_off("service-worker")
