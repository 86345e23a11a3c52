"""Collect a class's work: notebooks, folders and "download my work" zips -> exercises to grade.

Every input ends up as :class:`Job` (an exercise cell found, ready to run) or
:class:`Problem` (what could not be graded, and why, in words an instructor can
act on). Nothing here runs learner code.
"""

import ast
import json
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from .. import course
from .exercises import EXERCISES, cell_tag, for_part

__all__ = ["Job", "Problem", "collect"]

COURSE = "agent_team"          # the key of the course's notebook metadata
MAGIC = re.compile(r"^(\s*)[%!]")     # IPython-only lines: plain Python cannot run them


@dataclass
class Job:
    learner: str
    notebook: str
    exercise: object   # an Exercise
    source: str
    note: str = ""


@dataclass
class Problem:
    learner: str
    notebook: str
    exercise: str      # "" when the whole notebook is the problem
    status: str        # "missing", "unreadable", "no exercises", "skipped"
    message: str


def collect(paths, learner=None):
    """``(jobs, problems)`` for every notebook in ``paths`` (files, folders, zips)."""
    jobs, problems = [], []
    for who, label, read in _notebooks(paths):
        who = learner or who
        try:
            nb = _parse(read())
            found, missing = _exercises(who, label, nb)
        except ValueError as err:
            problems.append(Problem(who, label, "", "unreadable", str(err)))
            continue
        except Exception as err:  # noqa: BLE001 -- one odd file must not cost the class its grades
            problems.append(Problem(who, label, "", "unreadable",
                                    f"not a notebook this grader can read ({type(err).__name__}: {err})"))
            continue
        jobs += found
        problems += missing
    return jobs, problems


def _notebooks(paths):
    """``(learner, label, read)`` for every notebook; a bad path is a problem, not an exception."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for file in sorted(path.rglob("*")):
                if ".ipynb_checkpoints" in file.parts:
                    continue
                if file.suffix == ".ipynb":
                    rel = file.parent.relative_to(path).parts   # class/alice/notebooks/x.ipynb: alice
                    who = rel[0] if rel else path.resolve().name
                    yield who, str(file), file.read_bytes
                elif file.suffix == ".zip":
                    yield from _zip(file)
        elif path.suffix == ".zip":
            yield from _zip(path)
        elif path.exists():
            yield path.resolve().parent.name, str(path), path.read_bytes
        else:
            yield path.stem, str(path), _fail(f"{path} does not exist")


def _zip(path):
    try:
        archive = zipfile.ZipFile(path)
        names = archive.namelist()
    except (OSError, zipfile.BadZipFile) as err:
        yield path.stem, str(path), _fail(f"not a readable zip file ({err})")
        return
    inner = [n for n in names if n.endswith(".ipynb") and ".ipynb_checkpoints" not in n
             and not n.startswith("__MACOSX/")]
    if not inner:
        yield path.stem, str(path), _fail("the zip holds no notebooks (.ipynb files)")
    for name in sorted(inner):  # one zip, one learner: alice.zip is alice's work
        yield path.stem, f"{path}:{name}", (lambda n=name: archive.read(n))


def _fail(message):
    def read():
        raise ValueError(message)
    return read


def _parse(data):
    try:
        nb = json.loads(data.decode("utf-8") if isinstance(data, bytes) else data)
    except UnicodeDecodeError:
        raise ValueError("not a notebook: the file is not text (UTF-8)") from None
    except json.JSONDecodeError as err:
        raise ValueError(f"not a notebook: broken JSON at line {err.lineno} ({err.msg}); "
                         "was the file cut short or edited by hand?") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise ValueError("not a notebook: the JSON has no list of cells")
    return nb


def _cells(nb):
    """``(source, tags)`` of every code cell; odd values (a hand-edited file) count as empty."""
    for cell in nb["cells"]:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            source = cell.get("source", "")
            text = "".join(s for s in source if isinstance(s, str)) if isinstance(source, list) else \
                source if isinstance(source, str) else ""
            meta = cell.get("metadata")
            tags = meta.get("tags") if isinstance(meta, dict) else None
            yield text, [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else []


def _part(label, nb, cells):
    """Which part of the course this notebook is, or None when it is not one of ours.

    Everything comes from the course's table (course.py): the part the course's builder stamps
    in the notebook's metadata, the notebook names of its parts, and its exercises' tags and
    definitions. A part the table adds is recognised with no change here.
    """
    meta = nb.get("metadata")
    meta = meta.get(COURSE) if isinstance(meta, dict) else None
    if isinstance(meta, dict) and isinstance(meta.get("part"), int) and not isinstance(meta["part"], bool):
        return meta["part"]   # the builder stamps every notebook of the course, appendix included
    for exercise in EXERCISES:
        if any(cell_tag(exercise.id) in tags for _, tags in cells):
            return exercise.part
    for part in course.PARTS:  # "03_supervisor (1)" too: a browser's name for a second download
        if _stem(label).startswith(part.notebook):
            return part.number
    for exercise in EXERCISES:
        if any(_defines(text, exercise.defines) for text, _ in cells):
            return exercise.part
    return None


def _exercises(who, label, nb):
    cells = list(_cells(nb))
    part = _part(label, nb, cells)
    meta = nb.get("metadata")
    meta = meta.get(COURSE) if isinstance(meta, dict) else None
    copy_of = meta.get("copy_of") if isinstance(meta, dict) else None
    if isinstance(copy_of, str):  # website/extension/src/mywork/carry.ts, asCopy
        return [], [Problem(who, label, "", "skipped",
                            f"an old copy of {copy_of} that the course site kept when the learner updated, "
                            f"reset or imported over it; {copy_of} itself is graded")]
    if part is None:
        return [], [Problem(who, label, "", "skipped",
                            "not a notebook of this course: it has no agent_team metadata, no cell "
                            "tagged exercise-N.M and defines none of the exercises; nothing graded")]
    if not for_part(part):
        return [], [Problem(who, label, "", "no exercises",
                            f"a notebook of this course (part {part}) with no exercises: nothing to grade")]
    jobs, problems = [], []
    for exercise in for_part(part):
        tagged = [text for text, tags in cells if cell_tag(exercise.id) in tags]
        note = ""
        if not tagged:
            tagged = [text for text, _ in cells if _defines(text, exercise.defines)]
            if tagged:
                note = (f"no cell is tagged {cell_tag(exercise.id)} (an older version of the notebook?): "
                        f"graded the cell that defines `{exercise.defines}`")
        if not tagged:
            problems.append(Problem(who, label, exercise.id, "missing",
                f"exercise {exercise.id} not found: no cell is tagged {cell_tag(exercise.id)} and no cell "
                f"defines `{exercise.defines}`. Was the cell deleted, or `{exercise.defines}` renamed?"))
            continue
        if len(tagged) > 1:
            note = f"{len(tagged)} cells hold exercise {exercise.id}; graded the last one"
        jobs.append(Job(who, label, exercise, _plain_python(tagged[-1]), note))
    own = next((p.notebook for p in course.PARTS if p.number == part), None)
    if not jobs and not (own and _stem(label).startswith(own)):
        # Stamped with a part number, but neither that part's name nor any of its exercises: a notebook of
        # an older version of the course whose part was renumbered (07_frameworks, once part 7 changed).
        return [], [Problem(who, label, "", "no exercises",
                            f"stamped as part {part}, but not named {own or 'as a part of the course'} and holding "
                            f"none of its exercises ({', '.join(e.id for e in for_part(part))}): a notebook of "
                            "an older version of the course, or one whose exercise cells were deleted? "
                            "nothing to grade")]
    return jobs, problems


def _stem(label):
    """``03_supervisor`` of ``class/ann/03_supervisor.ipynb`` or ``ann.zip:notebooks/03_supervisor.ipynb``."""
    return Path(label.split(":")[-1]).stem


def _defines(text, name):
    """Whether a cell's top level defines ``name`` (a def, a class or an assignment)."""
    try:
        tree = ast.parse(_plain_python(text))
    except (SyntaxError, ValueError):
        return re.search(rf"^(def\s+{re.escape(name)}\b|{re.escape(name)}\s*=)", text, re.M) is not None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            return True
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return True
    return False


def _plain_python(text):
    """IPython's ``%magic`` and ``!shell`` lines become ``pass`` (same line numbers)."""
    return "\n".join(MAGIC.sub(r"\1pass  # ", line) if MAGIC.match(line) else line
                     for line in text.splitlines())
