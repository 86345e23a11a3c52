"""The site variants `make bench` compares, by name: which start-up levers each one leaves out.

NAME is `shipped` (the site as `make site` builds it) or a `+`-joined list of levers to leave out,
e.g. `no-prewarm`, `no-snapshot`, `no-prewarm+no-service-worker+no-snapshot` (= `no-levers`).
The levers are the build's (website/levers.py); a variant is built by
`python -m website.build --without LEVER[,LEVER]` (:func:`build_options`).
"""

from __future__ import annotations

import sys

from website.levers import LEVERS

ALIASES = {"no-levers": "+".join(f"no-{lever}" for lever in sorted(LEVERS))}


def levers_off(name: str) -> list[str]:
    """The levers a variant name leaves out ([] for `shipped`); a clear error for a typo."""
    name = ALIASES.get(name, name)
    if name == "shipped":
        return []
    off = []
    for part in name.split("+"):
        lever = part.removeprefix("no-")
        if not part.startswith("no-") or lever not in LEVERS:
            sys.exit(f"unknown variant {part!r}: use shipped, no-levers or no-<lever> with a lever in "
                     f"{', '.join(LEVERS)}")
        off.append(lever)
    return off


def build_options(name: str) -> list[str]:
    """The options of `python -m website.build` that build the variant `name`."""
    off = levers_off(name)
    return ["--without", ",".join(off)] if off else []
