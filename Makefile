# One command serves, one command tests; both create .venv with the machine's python3.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8000
WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
COVERAGE_N ?= 200
COVERAGE_SEED ?= 1

.PHONY: help serve test lint typecheck openapi compliance fuzz soak bench coverage clean install install-test
.DEFAULT_GOAL := help

# Every target the user runs carries a `## description`; `make help` (or plain `make`) lists them.
help: ## list the targets with what each does
	@awk 'BEGIN {FS = ":[^#]*## "} /^[a-z][a-z-]*:.*## / {printf "  make %-13s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Editable installs, so the service finds the repository's scenarios/ folder.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(VENV)/.installed $@

install: $(VENV)/.installed ## create .venv and install the package (editable)
install-test: $(VENV)/.installed-test ## create .venv and install the package with its test tools

serve: install ## serve the API with gunicorn on 127.0.0.1:8000 (PORT=... and WORKERS=... change it)
	PORT=$(PORT) $(BIN)/dune-adjudicator serve --port $(PORT) --workers $(WORKERS)

test: install-test ## run the whole suite (compact progress, summary at the end), ruff check, mypy
	$(BIN)/python -m pytest
	$(BIN)/ruff check adjudicator api tests bench conftest.py
	$(BIN)/mypy --strict adjudicator

typecheck: install-test ## mypy --strict adjudicator
	$(BIN)/mypy --strict adjudicator

tools/node_modules/.installed: tools/package.json tools/package-lock.json
	npm ci --prefix tools --no-audit --no-fund --silent
	touch $@

lint: install-test tools/node_modules/.installed ## ruff check, ruff format --check, mypy --strict, Redocly spec lint
	$(BIN)/ruff check adjudicator api tests bench conftest.py
	$(BIN)/ruff format --check adjudicator api tests bench conftest.py
	$(BIN)/mypy --strict adjudicator
	tools/node_modules/.bin/redocly lint openapi/openapi.json --format=summary

openapi: install ## regenerate openapi/openapi.json after an API change
	$(BIN)/flask --app api:create_app openapi write --format json openapi/openapi.json

compliance: install ## regenerate COMPLIANCE.md from the registers and a fixture run
	$(BIN)/dune-adjudicator compliance --write

fuzz: install-test ## schemathesis and hostile-input probes against the live server
	$(BIN)/python bench/fuzz.py

soak: install-test ## 60 s of wrk load on the live server: throughput, latency, errors, memory
	command -v wrk >/dev/null || (apt-get update && apt-get install -y wrk)
	$(BIN)/python bench/soak.py

bench: install-test ## median engine and in-process request timings
	$(BIN)/python bench/run.py

coverage: install ## random rules-legal Battle phases per ruleset: share ruled end to end (COVERAGE_N, COVERAGE_SEED)
	COVERAGE_N=$(COVERAGE_N) COVERAGE_SEED=$(COVERAGE_SEED) $(BIN)/python bench/coverage.py --json bench/coverage.json

clean: ## remove .venv, caches and tools/node_modules
	rm -rf $(VENV) *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis tools/node_modules
