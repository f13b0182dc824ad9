# Two commands do everything: `make play` and `make test`. Both set up .venv first when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup compiled play test lint bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,bots]'
	# An editable install leaves the project's own modules uncompiled (a normal install compiles them): compile
	# them now, so even a first run (or one with PYTHONDONTWRITEBYTECODE) starts from bytecode.
	$(BIN)/python -m compileall -q server clients protocol spins worlds > /dev/null
	touch $(STAMP)

# The engine's hot modules compiled with mypyc (server/compiled.py): done again only when their source has
# changed since (a minute); until then the engine runs from its source, as it always can. (Not `-m`: importing
# the package `server` imports the module first, and runpy warns of it.)
compiled: setup
	$(BIN)/python -c 'from server.compiled import main; main()'

play: compiled
	$(BIN)/curveship play cloak

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy server clients worlds spins protocol

test: compiled lint
	$(BIN)/pytest -n 2

bench: compiled
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .mypy_cache
