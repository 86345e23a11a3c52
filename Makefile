# One command per job. `make test` works on a fresh machine: it makes .venv and installs what it needs.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

# The site (JupyterLite + Pyodide, fully offline): see "The site" in README.md.
SITE_STAMP := $(VENV)/.installed-site
NPM_STAMP  := node_modules/.installed
CHROMIUM   ?= /usr/bin/chromium
# The other engines of the browser tests and the bench (docs/browsers.md), all Debian's.
FIREFOX       ?= /usr/bin/firefox-esr
WEBKIT_DRIVER ?= /usr/bin/WebKitWebDriver
XVFB          ?= /usr/bin/Xvfb
ENGINES_DEPS  := $(CHROMIUM) $(FIREFOX) $(WEBKIT_DRIVER) $(XVFB)
PORT       ?= 8000
APT_GET    := DEBIAN_FRONTEND=noninteractive apt-get

.PHONY: test test-notebooks notebooks test-engine test-pythons test-pyodide test-browser site serve bench demo clean

# Engine and notebook tests (CPython), then the engine inside Pyodide (Node.js), then every
# notebook in a real browser against the built site.
test: $(STAMP) $(NPM_STAMP)
	$(PY) -m pytest tests
	$(MAKE) --no-print-directory test-notebooks
	$(MAKE) --no-print-directory test-pyodide test-browser

# Every notebook, learner and solution forms, executed and compared with its stored outputs.
test-notebooks: $(STAMP)
	AGENT_TEAM_PROGRESS=off $(PY) -m pytest --nbval -p no:cacheprovider notebooks/*.ipynb notebooks/solutions/*.ipynb

# Rebuild the notebooks from notebooks/source/ (both forms, executed): make notebooks [PARTS="01 03"].
notebooks: $(STAMP)
	AGENT_TEAM_PROGRESS=off $(PY) tools/notebooks.py build $(PARTS)

# Only the engine's unit and property tests (fast).
test-engine: $(STAMP)
	$(PY) -m pytest tests --ignore=tests/browser

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
	  PYTHONPATH=src $$venv/bin/python -m pytest -q -p no:cacheprovider tests/test_limits.py \
	    tests/test_runaway_learner_code.py || exit 1; \
	done

# The engine's pure tests inside Pyodide 314 under Node.js, offline (tests/pyodide/select.py says which).
test-pyodide: $(SITE_STAMP) $(NPM_STAMP)
	$(PY) site/wheels.py fetch >/dev/null
	node tests/pyodide/run.mjs

# Builds the site, serves it on 127.0.0.1 and runs every notebook in Chromium (tests/browser), and
# the learner's journey in Firefox ESR and WebKitGTK with and without SharedArrayBuffer (test_journey.py).
test-browser: $(SITE_STAMP) $(NPM_STAMP) $(ENGINES_DEPS)
	AGENT_TEAM_BROWSER_TESTS=1 CHROMIUM=$(CHROMIUM) FIREFOX=$(FIREFOX) WEBKIT_DRIVER=$(WEBKIT_DRIVER) \
	  $(PY) -m pytest tests/browser

# The deployable folder _output/ (always a clean build).
site: $(SITE_STAMP) $(NPM_STAMP)
	$(PY) site/build.py

# Build, then serve on http://127.0.0.1:$(PORT) (make serve PORT=9000 for another port).
serve: site
	$(PY) site/serve.py --port $(PORT)

# Start-up benchmark (not a test): bare Pyodide vs the course, cold and warm, shipped vs unpatched site,
# in Chromium; then cold and warm in Firefox and WebKitGTK against bare Pyodide in the same engine.
bench: $(SITE_STAMP) $(NPM_STAMP) $(ENGINES_DEPS)
	CHROMIUM=$(CHROMIUM) FIREFOX=$(FIREFOX) WEBKIT_DRIVER=$(WEBKIT_DRIVER) $(PY) bench/bench.py

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

$(NPM_STAMP): package.json package-lock.json site/extension/package.json $(wildcard site/extension/patches/*.patch)
	command -v npm >/dev/null || { $(APT_GET) update && $(APT_GET) install -y nodejs npm; }
	npm ci --no-audit --no-fund
	touch $(NPM_STAMP)

# Debian's Chromium (Playwright drives it; it cannot download a browser of its own here).
$(CHROMIUM):
	$(APT_GET) update && $(APT_GET) install -y chromium

# Firefox ESR (driven over WebDriver BiDi: tests/browser/bidi.py), WebKitGTK's WebDriver (it brings
# MiniBrowser) and the virtual display MiniBrowser needs.
$(FIREFOX):
	$(APT_GET) update && $(APT_GET) install -y firefox-esr
$(WEBKIT_DRIVER):
	$(APT_GET) update && $(APT_GET) install -y webkit2gtk-driver
$(XVFB):
	$(APT_GET) update && $(APT_GET) install -y xvfb

clean:
	rm -rf $(VENV) .venv-py* dist build _output node_modules
