# Everything starts from a bare Python 3.11: the venv, the packages and the
# embedded PostgreSQL (the pgserver wheel) are installed on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: help install bytecode system-deps system-deps-plan node-tools map-assets run test test-fast test-live lint typecheck pytest bench fuzz lighthouse docs clean

# A bare `make` lists the targets: each one's `## line` below.
.DEFAULT_GOAL := help
help: ## list the targets (this)
	@echo "make TARGET, one of:"
	@grep -hE '^[a-z][a-z-]*:.*## ' $(MAKEFILE_LIST) \
		| sed -E 's/^([a-z-]+):.*## (.*)/\1\t\2/' | expand -t 14 | sed 's/^/  /'

# Some images set PYTHONDONTWRITEBYTECODE: then every Python process (each test worker, each
# server and command a test starts) compiles the app again and pytest rewrites every test
# module again. Here bytecode is kept (__pycache__/ is ignored by git).
unexport PYTHONDONTWRITEBYTECODE

# uv installs the packages (it fetches and unpacks them in parallel: about 10 s from its cache,
# where pip took 40 s); pip, which the venv brings, only installs uv, and installs the
# packages itself if uv cannot run here. uv first resolves from its cache alone (`--offline`:
# 1 s, where asking the index for every package took 4-8 s), and asks the index when its cache
# lacks a package or a version pyproject.toml wants. The offline attempt's failure is expected
# on a first install ("No solution found"): it is not shown, only what happens next; the
# index's errors are (they are real).
UV := $(BIN)/uv
UV_INSTALL := $(UV) pip install --quiet --python $(BIN)/python -e '.[dev]'
$(STAMP): pyproject.toml
	@echo "installing almanac and its packages into $(VENV) (a minute or two the first time)"
	@$(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check 'uv>=0.5'
	@$(UV_INSTALL) --offline 2>/dev/null \
		|| { echo "downloading the packages uv has not cached from the package index"; $(UV_INSTALL); } \
		|| $(BIN)/python -m pip install --quiet -e '.[dev]'
	@echo "installed: $$($(BIN)/python -m pip list --format=freeze --disable-pip-version-check 2>/dev/null | wc -l) packages in $(VENV)"
	@touch $(STAMP)

# The gazetteer's indexes prebuilt (app/geo/gazetteer.py): each process that places a venue
# reads them in a tenth of a second instead of building them for seconds.
GAZETTEER_INDEX := app/geo/gazetteer-index.json
$(GAZETTEER_INDEX): $(STAMP) app/geo/gazetteer.py
	@$(BIN)/python -m app.geo.gazetteer

install: $(STAMP) $(GAZETTEER_INDEX) ## create .venv with almanac and its packages (run, test do it too)

# Compiled once, on every core, before the tests' processes start (each would compile what
# it imports; up to date files are only looked at).
bytecode: install ## compile the Python files once, before the tests
	$(BIN)/python -m compileall -q -j 0 app tests bench migrations

# Tools the tests run for real (nginx with TLS in front of the app, Compose's `config`, a
# headless Chromium for the docs page and the public pages, PgBouncer in transaction mode, node
# for the WordPress client, the OpenAPI linter, axe-core and Lighthouse), from Debian's packages
# when missing; the package lists are refreshed only if the install fails. chromedriver comes in
# the package chromium-driver, node in nodejs. What is installed, and why, is said first.
#
# Compose: docs/operations.md's `docker compose` (v2) when the system has it or a package offers it
# (docker-compose-plugin from Docker's own apt repository, docker-compose-v2 on Ubuntu, Debian
# 13's docker-compose); else Debian 12's docker-compose, which is Compose v1 (1.29): the tests
# only ask it to check docker-compose.yml (`config`), which v1 reads as v2 does.
SYSTEM_TOOLS := nginx openssl chromium chromedriver pgbouncer node npm
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
APT_INSTALL := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends

# Sets $$packages (missing, as Debian names them) and $$compose (the Compose package among them).
define PLAN_SYSTEM_PACKAGES
PATH="$$PATH:/usr/sbin"; \
missing=$$(for tool in $(SYSTEM_TOOLS); do command -v $$tool >/dev/null || echo $$tool; done); \
packages=$$(echo $$missing | sed 's/chromedriver/chromium-driver/; s/\<node\>/nodejs/'); \
compose=""; \
if ! docker compose version >/dev/null 2>&1; then \
	for candidate in docker-compose-plugin docker-compose-v2; do \
		if apt-cache show $$candidate >/dev/null 2>&1; then compose=$$candidate; break; fi; \
	done; \
	if [ -z "$$compose" ] && ! command -v docker-compose >/dev/null; then compose=docker-compose; fi; \
fi; \
packages=$$(echo $$packages $$compose)
endef

# Says which packages and why (before `make test` starts its steps side by side, whose output
# comes once each is done).
define SAY_SYSTEM_PACKAGES
echo "the live tests run these tools for real; installing from the system's packages" \
	"($(strip $(SUDO) apt-get install)):" $$packages; \
version=$$(apt-cache policy docker-compose | awk '/Candidate:/ {print $$2}'); \
case "$$compose:$$version" in docker-compose:1.*) \
	echo "  docker-compose $$version is Compose v1: the system offers no v2 (docs/operations.md's" \
		"\`docker compose\`); the tests only check docker-compose.yml with it (\`config\`)," \
		"and v2 reads the same file";; \
esac
endef

system-deps: ## install the system tools the live tests use (apt; says what first)
	@$(PLAN_SYSTEM_PACKAGES); \
	if [ -n "$$packages" ]; then \
		$(SAY_SYSTEM_PACKAGES); \
		$(APT_INSTALL) $$packages || { $(SUDO) apt-get update -q && $(APT_INSTALL) $$packages; }; \
	fi

system-deps-plan:
	@$(PLAN_SYSTEM_PACKAGES); if [ -n "$$packages" ]; then $(SAY_SYSTEM_PACKAGES); fi

# axe-core 4.x for the public pages' accessibility tests (tests/live/test_pages_browser.py), from
# the npm registry at the version tests/browser/package-lock.json pins.
AXE := tests/browser/node_modules/axe-core/axe.min.js
$(AXE): tests/browser/package-lock.json
	cd tests/browser && npm ci --no-audit --no-fund
	touch $(AXE)

# Leaflet for the public pages' maps, from the npm registry at the version
# vendor/leaflet/package-lock.json pins, served by almanac itself (no CDN): only leaflet.js,
# leaflet.css and its images are copied into app/pages/static/leaflet/ (not committed). The
# map is an enhancement: without npm, or when the install fails, `make run` goes on and the
# map view is its list (app/pages/assets.py looks for the files at each start).
MAP_ASSETS_DIR := app/pages/static/leaflet
MAP_ASSETS := $(MAP_ASSETS_DIR)/leaflet.js
LEAFLET_DIST := vendor/leaflet/node_modules/leaflet/dist
$(MAP_ASSETS): vendor/leaflet/package-lock.json
	cd vendor/leaflet && npm ci --no-audit --no-fund
	rm -rf $(MAP_ASSETS_DIR) && mkdir -p $(MAP_ASSETS_DIR)
	cp -R $(LEAFLET_DIST)/leaflet.js $(LEAFLET_DIST)/leaflet.css $(LEAFLET_DIST)/images $(MAP_ASSETS_DIR)/

map-assets: ## Leaflet for the pages' maps (npm; without npm the map view is a list)
	@if command -v npm >/dev/null; then \
		$(MAKE) --no-print-directory $(MAP_ASSETS) \
			|| echo "Leaflet could not be installed: the map view shows its list (make map-assets to retry)"; \
	else \
		echo "npm not found: the map view shows its list (make system-deps installs npm, then make map-assets)"; \
	fi

# `make run PORT=8001` when 8000 is taken; HOST=0.0.0.0 to listen on every interface.
HOST ?= 127.0.0.1
PORT ?= 8000
run: install map-assets ## serve on http://127.0.0.1:8000 (PORT=8001, HOST=0.0.0.0 to change)
	$(BIN)/almanac serve --host $(HOST) --port $(PORT)

lint: install ## ruff format and check, the import contracts
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/lint-imports

typecheck: install ## mypy, strict, on app/
	$(BIN)/mypy

# The node packages of tests/live/test_clients.py (node-wpapi, Redocly's linter), exactly as locked.
NODE_TOOLS := tests/clients
$(NODE_TOOLS)/node_modules/.package-lock.json: $(NODE_TOOLS)/package-lock.json
	cd $(NODE_TOOLS) && npm ci --no-audit --no-fund

node-tools: system-deps $(NODE_TOOLS)/node_modules/.package-lock.json $(AXE) $(MAP_ASSETS) ## the node packages the live tests use (npm ci)

# In parallel: pytest-xdist, one worker per core, a database each (pyproject.toml addopts).
# The fast tests alone: the pure rules (tests/unit) and the API in process (tests/api).
test-fast: install ## the unit and in-process API tests
	$(BIN)/pytest tests/unit tests/api

# The tests against real servers, commands and tools (tests/live), once the tools are there.
# One worker more than the cores: these tests wait on the servers, browsers and commands they
# start, and the extra worker uses the CPU they leave (on 2 cores: 294 s against 322 s, the
# CPU busy 1.90 of 2 against 1.81; docs/performance.md).
LIVE_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
test-live: install system-deps node-tools ## the tests against real servers, tools, browsers
	$(BIN)/pytest tests/live -n $(LIVE_WORKERS)

# Every test, the fast ones first (a failure there stops before the servers start).
pytest: test-fast ## test-fast, then test-live
	$(MAKE) --no-print-directory test-live

# The checks, the fast tests and the tools' installs (apt, npm: waiting on disk and network
# more than on the CPU) side by side, each one's output in one piece; then the live tests.
test: install bytecode ## everything: lint, types, all tests (installs system tools)
	@$(MAKE) --no-print-directory system-deps-plan
	$(MAKE) --no-print-directory -j 4 --output-sync=target lint typecheck test-fast node-tools
	$(MAKE) --no-print-directory test-live

# Seeds a fresh (embedded, or BENCH_DATABASE_URL) database, serves it and prints a table;
# e.g. `make bench BENCH_ARGS="--events 1000000 --duration 20"`. Uses wrk when installed.
bench: install ## seed, serve and measure (BENCH_ARGS="--events 1000000")
	$(BIN)/python -m bench $(BENCH_ARGS)

# The fuzz test of `make test` at length: every phase (the whole coverage phase included) for
# both callers, more examples per operation and a random seed (shown on failure;
# FUZZ_SEED=<n> repeats a run). In one process, one caller after the other.
FUZZ_EXAMPLES ?= 100
FUZZ_SEED ?= random
fuzz: install ## the API fuzz test at length (FUZZ_EXAMPLES, FUZZ_SEED)
	ALMANAC_FUZZ_LONG=1 ALMANAC_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) ALMANAC_FUZZ_SEED=$(FUZZ_SEED) \
		$(BIN)/pytest tests/live/test_fuzz.py -v -n 0

# Lighthouse (npm, pinned in bench/lighthouse/) on the month, list and event pages of a seeded
# server, with Debian's Chromium: the four scores per page, mobile and desktop. Not part of
# `make test`: the performance score moves with the machine's load.
lighthouse: install system-deps ## Lighthouse scores of a seeded server's pages
	cd bench/lighthouse && npm ci --no-audit --no-fund
	$(BIN)/python -m bench.lighthouse $(LIGHTHOUSE_ARGS)

# The documentation site from docs/ (mkdocs-material, a dev package): `--strict` fails on a
# broken link or anchor between the pages. `.venv/bin/mkdocs serve` for live reload.
docs: install ## build the documentation site into site/ (mkdocs, strict)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

clean: ## remove .venv, the data in .almanac, caches and node packages
	rm -rf $(VENV) .almanac site .pytest_cache .mypy_cache .ruff_cache $(NODE_TOOLS)/node_modules \
		tests/browser/node_modules bench/lighthouse/node_modules vendor/leaflet/node_modules \
		$(MAP_ASSETS_DIR)
