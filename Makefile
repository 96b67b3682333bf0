# Two entry points: `make run` (the main job) and `make test` (the whole test suite).
# Both create and use a local virtual environment so they work on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint install system-deps

$(BIN)/activate:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

install: $(BIN)/activate
	$(BIN)/pip install --quiet -e '.[ai,tui,server,rl,openspiel,tablebase-cluster,dev]'
	# The engines' machine code, ahead of their first start (about a second once done).
	$(BIN)/doushouqi compile

run: install
	$(BIN)/doushouqi serve

lint: install
	$(BIN)/ruff check src tests bench tools
	$(BIN)/ruff format --check src tests bench tools
	$(BIN)/mypy
	$(BIN)/lint-imports
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir $(VENV)/site

system-deps:
	bash scripts/install-system-deps.sh

test: system-deps lint
	node --test tests/client/
	$(BIN)/pytest -q -n 2
