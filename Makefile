# One command serves, one command tests; both create .venv with the machine's python3.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8000
WORKERS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: serve test lint typecheck openapi compliance fuzz soak bench clean install install-test

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

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

serve: install
	PORT=$(PORT) $(BIN)/dune-adjudicator serve --port $(PORT) --workers $(WORKERS)

test: install-test
	$(BIN)/python -m pytest
	$(BIN)/ruff check adjudicator api tests bench conftest.py
	$(BIN)/mypy --strict adjudicator

tools/node_modules/.installed: tools/package.json tools/package-lock.json
	npm ci --prefix tools --no-audit --no-fund --silent
	touch $@

lint: install-test tools/node_modules/.installed
	$(BIN)/ruff check adjudicator api tests bench conftest.py
	$(BIN)/ruff format --check adjudicator api tests bench conftest.py
	$(BIN)/mypy --strict adjudicator
	tools/node_modules/.bin/redocly lint openapi/openapi.json --format=summary

openapi: install
	$(BIN)/flask --app api:create_app openapi write --format json openapi/openapi.json

compliance: install
	$(BIN)/dune-adjudicator compliance --write

fuzz: install-test
	$(BIN)/python bench/fuzz.py

soak: install-test
	command -v wrk >/dev/null || (apt-get update && apt-get install -y wrk)
	$(BIN)/python bench/soak.py

bench: install-test
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis tools/node_modules
