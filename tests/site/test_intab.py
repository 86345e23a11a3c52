"""The model in the tab's runtime as the site ships it (website/intab.py): wllama's bundle names its CDN
only for the compat files the page replaces with the site's own, and nothing else of another origin."""

import shutil

import pytest

from website import check, intab


def test_the_runtime_names_no_cdn_but_the_compat_default_it_replaces(tmp_path):
    built = intab.FILES["intab.js"]
    if not built.is_file():
        pytest.skip(f"{built} is not built (npm run build in website/extension)")
    text = built.read_text()
    assert "cdn.jsdelivr.net/npm/@wllama/wllama-compat@" in text  # the default setCompat replaces
    assert "compat/wllama.wasm" in text  # the site's own, which the page sets instead
    (tmp_path / intab.FOLDER).mkdir()
    shutil.copy(built, tmp_path / intab.FOLDER / "intab.js")
    assert check.cdn_references(tmp_path) == []
    (tmp_path / intab.FOLDER / "other.js").write_text('fetch("https://cdn.jsdelivr.net/npm/other@1/x.js")')
    assert len(check.cdn_references(tmp_path)) == 1  # any other CDN address is still found


def test_the_runtime_s_files_come_from_npm():
    if not (intab.ROOT / "node_modules").is_dir():
        pytest.skip("needs `npm ci` (node_modules), as the site's build does")
    missing = [str(path) for name, path in intab.FILES.items() if name != "intab.js" and not path.is_file()]
    assert missing == [], "npm ci at the repository root installs @wllama/wllama and @wllama/wllama-compat"
