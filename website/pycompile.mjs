// Byte-compile wheels for the site's Pyodide, inside that Pyodide (Node.js), so the bytecode
// matches its Python 3.14 exactly: `node website/pycompile.mjs OUT_DIR [--keep-source] WHEEL...`.
//
// Why: PyPI wheels carry .py only, so the kernel compiled IPython, prompt_toolkit, jedi, ... from
// source on every page load (~3 s of the kernel's start). Pyodide's own builds ship .pyc instead;
// this does the same. Default: each .py becomes a sourceless .pyc beside it (as Pyodide does);
// with --keep-source (used for agent_team, whose tracebacks learners read) the .py stays and an
// unchecked-hash .pyc goes to __pycache__. Without it, test folders (*/tests/*) are left out too,
// as Pyodide's own builds do. RECORD is rewritten; zip entries get a fixed date.
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";
import path from "node:path";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const outDir = path.resolve(args.shift());
const keepSource = args[0] === "--keep-source" ? (args.shift(), true) : false;
const wheels = args.map((w) => path.resolve(w));
mkdirSync(outDir, { recursive: true });

const pyodideDir = path.resolve(here, "../node_modules/pyodide") + "/";
const pyodide = await loadPyodide({ indexURL: pyodideDir, packageBaseUrl: pyodideDir });
const { FS } = pyodide;
FS.mkdirTree("/out");
FS.mount(FS.filesystems.NODEFS, { root: outDir }, "/out");
const dirs = [...new Set(wheels.map((w) => path.dirname(w)))];
dirs.forEach((d, i) => {
  FS.mkdirTree(`/in${i}`);
  FS.mount(FS.filesystems.NODEFS, { root: d }, `/in${i}`);
});
const inputs = wheels.map((w) => `/in${dirs.indexOf(path.dirname(w))}/${path.basename(w)}`);
pyodide.globals.set("INPUTS", pyodide.toPy(inputs));
pyodide.globals.set("KEEP_SOURCE", keepSource);
await pyodide.runPythonAsync(`
import base64, hashlib, importlib.util, io, py_compile, zipfile, sys
from pathlib import PurePosixPath

DATE = (2020, 2, 2, 0, 0, 0)
# Left out: jedi's stubs for third-party libraries (django, requests, ...) that the site does not
# ship: 1,126 of jedi's 1,880 files, the slowest wheel to install at kernel start.
# jedi lists those folders, so each keeps one small file.
DROP = ("jedi/third_party/typeshed/third_party/", "jedi/third_party/django-stubs/")
KEEP_NOTE = b"Stubs for third-party libraries left out of this site's jedi (website/pycompile.mjs).\\n"

def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"

def compile_source(name, source):
    code = compile(source, name, "exec", dont_inherit=True, optimize=0)
    mode = py_compile.PycInvalidationMode.UNCHECKED_HASH
    return importlib._bootstrap_external._code_to_hash_pyc(
        code, importlib.util.source_hash(source), checked=False) if KEEP_SOURCE else \\
        importlib._bootstrap_external._code_to_timestamp_pyc(code, 0, 0)

for src in INPUTS:
    files = {}
    with zipfile.ZipFile(src) as zin:
        for info in zin.infolist():
            if not info.is_dir():
                files[info.filename] = zin.read(info)
    record = next(n for n in files if n.endswith(".dist-info/RECORD"))
    out = {}
    for prefix in DROP:
        if any(n.startswith(prefix) for n in files):
            out[prefix + "LEFT_OUT.txt"] = KEEP_NOTE
    for name, data in files.items():
        top = name.split("/")[0]
        if name.startswith(DROP):
            continue
        if not KEEP_SOURCE and "tests" in name.split("/")[1:-1] and not top.endswith(".dist-info"):
            continue
        if name.endswith(".py") and not top.endswith((".dist-info", ".data")):
            try:
                pyc = compile_source(name, data)
            except SyntaxError:  # e.g. a template or Python-2-only file: ship it as it is
                out[name] = data
                continue
            p = PurePosixPath(name)
            if KEEP_SOURCE:
                out[name] = data
                tag = sys.implementation.cache_tag
                out[str(p.parent / "__pycache__" / f"{p.stem}.{tag}.pyc")] = pyc
            else:
                out[str(p.with_suffix(".pyc"))] = pyc
        elif name != record:
            out[name] = data
    out[record] = ("\\n".join([record_line(n, d) for n, d in out.items()] + [f"{record},,", ""])).encode()
    dest = "/out/" + src.rsplit("/", 1)[1]
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as zout:
        for name in sorted(out, key=lambda n: (n.startswith(record.split("/")[0]), n)):
            info = zipfile.ZipInfo(name, DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zout.writestr(info, out[name])
    print(f"compiled {dest[5:]}")
`);
