"""The model in the tab's runtime on the built site: `intab/`, fetched only when a learner makes a model.

The site's plugin builds the page's module (website/extension/src/in-tab-engine.ts, with
@wllama/wllama bundled in) to lib/intab.js; this step puts it at `intab/intab.js` with the
runtime's WebAssembly beside it: wllama's own build (JSPI and Memory64: Chromium, Firefox 153+) and
its compat build for the engines without them (WebKit), both from npm (package-lock.json), so the
page never reaches the CDN wllama names by default. No page links to these files: the page imports
the module when the kernel asks for a model (website/extension/src/in-tab.ts), so a visit that makes
no model fetches none of them, and the service worker keeps them only once fetched.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FOLDER = "intab"
# what the site holds under intab/ -> where it comes from
FILES = {
    "intab.js": HERE / "extension" / "lib" / "intab.js",
    "wllama.wasm": ROOT / "node_modules" / "@wllama" / "wllama" / "esm" / "wasm" / "wllama.wasm",
    "compat/wllama.wasm": ROOT / "node_modules" / "@wllama" / "wllama-compat" / "wasm" / "wllama.wasm",
    "compat/wllama.js": ROOT / "node_modules" / "@wllama" / "wllama-compat" / "wasm" / "wllama.js",
}


def apply(out: Path) -> int:
    """Copy the runtime into the built site `out`; returns its size in bytes."""
    size = 0
    for name, source in FILES.items():
        if not source.is_file():
            sys.exit(f"{source} missing: run `npm ci` at the repository root (and npm run build in website/extension)")
        target = out / FOLDER / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
        size += target.stat().st_size
    return size
