"""bench/variants.py and the build's --without: a variant name says which start-up levers it leaves out,
and the build really leaves out those, and only those."""

import argparse

import pytest

from bench import variants
from website import levers


def test_names_map_to_levers():
    assert variants.levers_off("shipped") == []
    assert sorted(variants.levers_off("no-levers")) == sorted(levers.LEVERS)
    assert variants.levers_off("no-prewarm") == ["prewarm"]
    assert variants.levers_off("no-prewarm+no-snapshot") == ["prewarm", "snapshot"]


def test_a_variant_is_built_with_the_builds_own_option():
    assert variants.build_options("shipped") == []
    assert variants.build_options("no-prewarm+no-snapshot") == ["--without", "prewarm,snapshot"]
    assert levers.parse(variants.build_options("no-levers")[1]) == set(levers.LEVERS)


@pytest.mark.parametrize("name", ["prewarm", "no-snapshots", "no-prewarm+fast"])
def test_unknown_variant_says_what_exists(name):
    with pytest.raises(SystemExit, match="use shipped, no-levers or no-<lever>"):
        variants.levers_off(name)


@pytest.mark.parametrize("text", ["snapshots", "prewarm,fast"])
def test_an_unknown_lever_is_refused_by_the_build_with_the_list(text):
    with pytest.raises(argparse.ArgumentTypeError, match="the levers are prewarm, snapshot, service-worker"):
        levers.parse(text)
    with pytest.raises(ValueError, match="the levers are"):
        levers.apply(None, {}, without=frozenset(text.split(",")))


@pytest.mark.parametrize("without", [set(), {"prewarm"}, {"snapshot"}, {"service-worker"}, set(levers.LEVERS)])
def test_the_build_applies_every_lever_but_those_left_out(without, monkeypatch, tmp_path):
    (tmp_path / "jupyter-lite.json").write_text('{"jupyter-config-data": {"appVersion": "0.7"}}')
    applied = []
    for lever, module in [("prewarm", levers.prewarm), ("snapshot", levers.snapshot),
                          ("service-worker", levers.isolation)]:
        monkeypatch.setattr(module, "patch", lambda out, arg, lever=lever: applied.append((lever, out, arg)))
    levers.apply(tmp_path, {"packages": []}, without=frozenset(without))
    assert [lever for lever, _, _ in applied] == [lever for lever in levers.LEVERS if lever not in without]
    assert all(out == tmp_path for _, out, _ in applied)
    # the service worker is registered with the site's version (so JupyterLite keeps it)
    assert [arg for lever, _, arg in applied if lever == "service-worker"] == (
        [] if "service-worker" in without else ["0.7"])
