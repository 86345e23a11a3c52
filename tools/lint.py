"""`make lint`: ruff with the rules in pyproject.toml, then one rule ruff has not: a noqa says why.

A marker names the codes it silences and, after them, the reason, for the next reader to judge:
`# noqa: BLE001 -- a grader must return a report, whatever happened`. A bare `# noqa` or a list
of codes alone fails. The files checked are the ones ruff checks (`ruff check --show-files`), so
its excludes hold here too.

    python tools/lint.py
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOQA = re.compile(r"#\s*noqa\b(?P<codes>:?\s*[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)?(?P<rest>.*)$", re.IGNORECASE)


def ruff(*args):
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, text=True, capture_output=True)


def unexplained(path):
    """``(line number, line)`` of every noqa in ``path`` that does not say why."""
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        match = NOQA.search(line)
        if match and not (match["codes"] and re.search(r"[a-z]", match["rest"])):
            found.append((number, line.strip()))
    return found


def main():
    checked = ruff("check")
    if "No module named ruff" in checked.stderr:
        sys.exit("ruff is not installed here: `make lint` installs requirements.txt, which pins it")
    sys.stdout.write(checked.stdout)
    sys.stderr.write(checked.stderr)
    listed = ruff("check", "--show-files")
    if listed.returncode:
        sys.stderr.write(listed.stderr)
        return listed.returncode
    files = [Path(name) for name in listed.stdout.splitlines() if name.endswith(".py")]
    bare = [(path, number, line) for path in files for number, line in unexplained(path)]
    for path, number, line in bare:
        print(f"{path.relative_to(ROOT)}:{number}: a noqa names its codes, then says why "
              f"(`# noqa: E402 -- the path is set above`): {line}")
    return checked.returncode or (1 if bare else 0)


if __name__ == "__main__":
    sys.exit(main())
