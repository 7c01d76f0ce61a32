# Two entry points for a fresh machine: `make run` (the main job) and `make test` (everything).
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test lint typecheck jscheck unit screenshots

$(BIN)/spieltisch: pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $@

run: $(BIN)/spieltisch
	$(BIN)/spieltisch serve

test: $(BIN)/spieltisch
	bash scripts/test-services.sh
	$(MAKE) lint typecheck unit

lint: $(BIN)/spieltisch jscheck
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/ruff format --check src tests bench scripts

# The page modules marked `// @ts-check`, checked by TypeScript (pinned in package.json,
# installed by scripts/test-services.sh; nothing is built: the pages run as written).
jscheck:
	[ -x node_modules/.bin/tsc ] || npm ci --no-audit --no-fund
	node_modules/.bin/tsc -p jsconfig.json

typecheck: $(BIN)/spieltisch
	$(BIN)/mypy

# The tests but the browser's on two workers (the leak matrix's cells of one system stay in one
# worker, see docs/architecture.md, "Tests"), then the browser tests in one process. Both
# always run; the exit status is the first failure's.
unit: $(BIN)/spieltisch
	status=0; \
	$(BIN)/pytest -n 2 --dist loadgroup -m "not browser" || status=$$?; \
	$(BIN)/pytest -m browser || status=$$?; \
	exit $$status

# Refresh the screenshots in docs/screenshots from the browser tests.
screenshots: $(BIN)/spieltisch
	SPIELTISCH_SCREENSHOTS=1 $(BIN)/pytest tests/browser
