# Two entry points: `make run` (the main job) and `make test` (the whole test suite).
# Both create and use a local virtual environment so they work on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint install install-server system-deps

$(BIN)/activate:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# What `make run` needs: the server and its AI engine, without the test, RL, OpenSpiel and Ray
# packages (README.md, "Install", has the sizes of both). Both installs then compile the
# engines' machine code ahead of their first start (`doushouqi compile`: about a second once done).
install-server: $(BIN)/activate
	$(BIN)/pip install --quiet -e '.[server,ai]'
	$(BIN)/doushouqi compile

# Everything: what `make test` checks.
install: $(BIN)/activate
	$(BIN)/pip install --quiet -e '.[ai,tui,server,rl,openspiel,tablebase-cluster,dev]'
	$(BIN)/doushouqi compile

run: install-server
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
	$(BIN)/pytest -q -n 2 --durations=30  # the slowest, so that CI shows what its time goes to
