# tdbook — one-command setup and runs. Needs only Python 3.11, git and make.
#   make figures   bootstrap, then execute every notebook (standard profile): figures/, data/results/, scoreboard
#   make test      bootstrap, then pytest: unit + property tests + every notebook in its quick profile
#   make lab       JupyterLab on working copies (build/lab/)      make bench   run benchmarks/
#   make book      the static site from the stored notebooks (build/book/), warnings as errors

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.tdbook-installed

.PHONY: all venv figures test lint lab bench env scoreboard book bib clean

all: test

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,book]'
	$(PY) -m ipykernel install --sys-prefix --name tdbook --display-name "Python (tdbook)" >/dev/null
	@touch $(STAMP)

venv: $(STAMP)

figures: $(STAMP)
	$(PY) -m tdbook run --profile standard

# The tests run in TEST_WORKERS processes (pytest-xdist; default one per core, CI has 2); a worker that runs out takes
# tests still queued for another (worksteal), the notebooks' quick runs queued last. TEST_WORKERS=0: one process.
TEST_WORKERS ?= auto
test: $(STAMP) lint
	$(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal

# The house rules a machine can check: lint and format (ruff) and the layers of the package (import-linter).
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

# JupyterLab on working copies in build/lab/ (notebooks/ is never written); LAB_ARGS go to jupyter lab,
# e.g. make lab LAB_ARGS="--port 8899 --IdentityProvider.token=secret --no-browser"
LAB_ARGS ?=
lab: $(STAMP)
	$(PY) -m tdbook lab $(LAB_ARGS)

bench: $(STAMP)
	@for b in benchmarks/bench_*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

scoreboard: $(STAMP)
	$(PY) -m tdbook scoreboard --claims

# The book: every stored notebook a chapter (never executed), the scoreboard linked to the sections that check each
# claim, the bibliography, guides and the package reference; Sphinx warnings are errors. `make test` builds it too
# (tests/test_book.py).  Open build/book/index.html.
book: $(STAMP)
	$(PY) -m tdbook.book build

# Regenerate book/references.bib from REFERENCES.md (the one source; tests/test_book.py checks they agree).
bib: $(STAMP)
	$(PY) -m tdbook.book bib --write

# Regenerate environment.yml from the pins in pyproject.toml (the one source of truth).
env: $(STAMP)
	$(PY) -m tdbook.envsync --write

clean:
	rm -rf build .pytest_cache
