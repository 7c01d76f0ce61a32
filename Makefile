# Two entry points for a fresh machine: `make run` (the main job) and `make test` (everything).
VENV ?= .venv
BIN := $(VENV)/bin
# Each phase of `make test` ends with one line "== phase NAME: wall, CPU, ok/failed".
PHASE := $(BIN)/python scripts/phase.py
# Each test process imports the sources and pytest rewrites each test module: with bytecode
# kept in __pycache__ (off where PYTHONDONTWRITEBYTECODE is set), only the first does it.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test lint typecheck jscheck unit screenshots

$(BIN)/spieltisch: pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $@

run: $(BIN)/spieltisch
	$(BIN)/spieltisch serve

# The checks (lint, types) run beside the tests, whose workers keep both cores busy: run first,
# alone, they left one core idle. Their output is kept and shown after the tests'; the exit
# status is the first failure's.
test: $(BIN)/spieltisch
	bash scripts/test-services.sh
	log=$$(mktemp); status=0; \
	$(MAKE) --no-print-directory lint typecheck >$$log 2>&1 & checks=$$!; \
	$(MAKE) --no-print-directory unit || status=$$?; \
	wait $$checks; checks=$$?; [ $$status -ne 0 ] || status=$$checks; \
	cat $$log; rm -f $$log; \
	exit $$status

lint: $(BIN)/spieltisch jscheck
	$(PHASE) lint sh -c "$(BIN)/ruff check src tests bench scripts && \
		$(BIN)/ruff format --check src tests bench scripts"

# The page modules marked `// @ts-check`, checked by TypeScript (pinned in package.json,
# installed by scripts/test-services.sh; nothing is built: the pages run as written).
jscheck:
	[ -x node_modules/.bin/tsc ] || npm ci --no-audit --no-fund
	node_modules/.bin/tsc -p jsconfig.json

typecheck: $(BIN)/spieltisch
	$(PHASE) typecheck $(BIN)/mypy

# The tests but the browser's on two workers (the leak matrix's cells of one system stay in one
# worker, see docs/architecture.md, "Tests"), then the browser tests on two workers of their
# own (a test module stays in one worker, with its server; each worker has its own Chromium;
# the modules go out in the order tests/browser/conftest.py sorts them, longest first) and
# their own pytest cache (their last failures for --lf). One after the other: each phase
# alone keeps both cores busy, and side by side their four workers and two browsers only
# contended for them. Both always run; the exit status is the first failure's.
unit: $(BIN)/spieltisch
	status=0; \
	$(PHASE) tests $(BIN)/pytest -n 2 --dist loadgroup -m "not browser" --ignore=tests/browser || status=$$?; \
	$(PHASE) browser-tests $(BIN)/pytest -n 2 --dist loadfile --no-loadscope-reorder -m browser -o cache_dir=.pytest_cache/browser tests/browser || { failed=$$?; [ $$status -ne 0 ] || status=$$failed; }; \
	exit $$status

# Refresh the screenshots in docs/screenshots from the browser tests.
screenshots: $(BIN)/spieltisch
	SPIELTISCH_SCREENSHOTS=1 $(BIN)/pytest tests/browser
