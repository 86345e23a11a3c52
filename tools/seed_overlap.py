"""Keep the course in its own words: no run of 12 words may match the design notes.

The design notes (the seeds) are not part of this repository, so what we keep is
a fingerprint of them: one short hash per run of 12 consecutive words, in
``tests/course/data/seed_shingles.txt``. Words are compared after normalising case and
punctuation (only letters and digits count), so a copied sentence is caught even
with different capitals, commas or markdown around it.

    python tools/seed_overlap.py update DIR   # refingerprint the seeds in DIR (e.g. ../shared/seeds)
    python tools/seed_overlap.py check        # list every matching run in the course's text
"""

import hashlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FINGERPRINT = ROOT / "tests" / "course" / "data" / "seed_shingles.txt"
RUN = 12  # words: long enough to be a copied phrase, not a shared term like "run_tests(repo)"
WORD = re.compile(r"[a-z0-9]+")


def words(text):
    """The text's words, lower-cased, punctuation and markup dropped."""
    return WORD.findall(text.lower())


def digest(run):
    """A short hash of one run of words (40 bits: a false match anywhere in the course is ~1 in 10,000)."""
    return hashlib.blake2b(" ".join(run).encode(), digest_size=5).hexdigest()


def runs(text, n=RUN):
    """``[(index, words)]`` for every run of ``n`` consecutive words."""
    w = words(text)
    return [(i, w[i:i + n]) for i in range(len(w) - n + 1)]


def course_texts():
    """The files whose prose must be our own: every notebook source and the recap sheet."""
    return sorted((ROOT / "notebooks" / "source").glob("*.py")) + sorted((ROOT / "notebooks").glob("*.md"))


def load_fingerprint(path=FINGERPRINT):
    lines = path.read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def matches(text, fingerprint):
    """Every stretch of ``text`` made of matching runs, merged, as readable strings."""
    hits = [i for i, run in runs(text) if digest(run) in fingerprint]
    merged = []
    for i in hits:
        if merged and i <= merged[-1][1] + 1:
            merged[-1][1] = i
        else:
            merged.append([i, i])
    w = words(text)
    return [" ".join(w[a:b + RUN]) for a, b in merged]


def update(seeds_dir):
    seeds = sorted(Path(seeds_dir).glob("[0-9]*.txt"))
    if not seeds:
        raise SystemExit(f"no seed files (NNN_*.txt) in {seeds_dir}")
    hashes = sorted({digest(run) for p in seeds for _, run in runs(p.read_text(encoding="utf-8"))})
    FINGERPRINT.parent.mkdir(parents=True, exist_ok=True)
    FINGERPRINT.write_text(f"# {len(hashes)} hashes of the {RUN}-word runs of {len(seeds)} design notes; "
                           "made by tools/seed_overlap.py update\n" + "\n".join(hashes) + "\n", encoding="utf-8")
    print(f"wrote {len(hashes)} hashes to {FINGERPRINT.relative_to(ROOT)}")


def check():
    fingerprint = load_fingerprint()
    found = [(p, m) for p in course_texts() for m in matches(p.read_text(encoding="utf-8"), fingerprint)]
    for path, text in found:
        print(f"{path.relative_to(ROOT)}: {text}")
    return found


if __name__ == "__main__":
    if sys.argv[1:2] == ["update"] and len(sys.argv) == 3:
        update(sys.argv[2])
    elif sys.argv[1:] == ["check"]:
        sys.exit(1 if check() else 0)
    else:
        sys.exit(__doc__)
