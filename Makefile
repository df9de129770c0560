# Two commands do everything on a fresh machine: `make run` and `make test`.
# Each installs what it needs on first use (venv, Python and npm packages).

PYTHON_BIN := $(shell scripts/find-python)
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint deps js check-python bench clean

check-python:
	@test -n "$(PYTHON_BIN)" || { echo "Python 3.12+ is required (see above)."; exit 1; }

$(VENV)/.installed: pyproject.toml | check-python
	test -x $(PY) || $(PYTHON_BIN) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --silent
	touch $@

# Each page's JavaScript as one minified bundle (esbuild), rebuilt when a
# source changes; static/js/ stays the source the node tests import.
JS_SOURCES := $(shell find static/js -name '*.js' -not -path 'static/js/tests/*')
static/dist/.built: node_modules/.installed $(JS_SOURCES)
	npm run --silent build
	touch $@

js: static/dist/.built

deps: $(VENV)/.installed node_modules/.installed static/dist/.built

run: deps
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_layouts
	$(PY) scripts/serve.py --host $(HOST) --port $(PORT)

test: deps
	$(PY) -m ruff check .
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) -m pytest -m "not browser" --ignore=tests/browser
	node --test static/js/tests/
	# Playwright's sync API and pytest-asyncio cannot share a process.
	$(PY) -m pytest tests/browser -m browser -p no:asyncio

lint: deps
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

bench: deps
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) node_modules staticfiles static/dist
