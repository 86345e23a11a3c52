# One command per job. `make test` works on a fresh machine: it makes .venv and installs what it needs.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: test test-engine demo clean

test: $(STAMP)
	$(PY) -m pytest tests

# Only the engine's unit and property tests (fast).
test-engine: $(STAMP)
	$(PY) -m pytest tests -m "not notebooks"

demo: $(STAMP)
	$(PY) -m agent_team

$(STAMP): requirements.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet -e .
	touch $(STAMP)

clean:
	rm -rf $(VENV) dist build _output
