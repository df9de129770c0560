# Two commands do everything on a fresh machine: `make run` and `make test`.
# Each installs what it needs on first use (venv, Python and npm packages).

PYTHON_BIN := $(shell scripts/find-python)
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint deps runtime-deps js lock check-python gettext messages bench clean

check-python:
	@test -n "$(PYTHON_BIN)" || { echo "Python 3.12+ is required (see above)."; exit 1; }

# The lock files (requirements/*.txt, with hashes) are what gets installed:
# the same versions on every machine, checked against their hashes.
# `make lock` writes them again from pyproject.toml.
$(PY): | check-python
	$(PYTHON_BIN) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# `make run` needs the runtime packages only; `make test` adds the dev tools.
$(VENV)/.runtime: requirements/runtime.txt | $(PY)
	$(PY) -m pip install --quiet --require-hashes -r requirements/runtime.txt
	touch $@

$(VENV)/.dev: requirements/dev.txt | $(PY)
	$(PY) -m pip install --quiet --require-hashes -r requirements/dev.txt
	touch $@ $(VENV)/.runtime

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --silent
	touch $@

# The translations: locale/*/LC_MESSAGES/*.po are kept in git, the .mo files
# Django reads are compiled from them here (never committed). GNU gettext does
# both jobs (msgfmt compiles, xgettext finds strings for the check below).
gettext:
	@command -v msgfmt >/dev/null && command -v xgettext >/dev/null || \
	{ test "$$(id -u)" = 0 && apt-get update -qq && apt-get install -y -qq gettext >/dev/null; } || \
	{ echo "GNU gettext is required: apt-get install gettext"; exit 1; }

LOCALE_MO := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/*.po))
locale/%.mo: locale/%.po | gettext
	msgfmt --check -o $@ $<

# Each page's JavaScript as one minified bundle (esbuild), rebuilt when a
# source changes; static/js/ stays the source the node tests import.
JS_SOURCES := $(shell find static/js -name '*.js' -not -path 'static/js/tests/*')
static/dist/.built: node_modules/.installed $(JS_SOURCES)
	npm run --silent build
	touch $@

# Each language's JavaScript strings (Django's JavaScriptCatalog, from the
# compiled djangojs .mo) as a static file in static/dist/i18n/, so
# collectstatic hashes it and pages cache it like the bundles
# (config/js_catalog.py). Written again when a catalogue or the languages change.
JS_CATALOGS := static/dist/i18n/.built
$(JS_CATALOGS): $(LOCALE_MO) config/settings.py | $(VENV)/.runtime
	$(PY) manage.py js_catalogs --verbosity 0
	touch $@

# After changing a string in the code: brings the catalogues up to date, then
# translate what scripts/check-messages reports as missing.
messages: deps
	MESSAGES_UPDATE=1 scripts/check-messages

js: static/dist/.built

runtime-deps: $(VENV)/.runtime node_modules/.installed static/dist/.built $(LOCALE_MO) $(JS_CATALOGS)

# Everything a developer needs (the test target's set).
deps: $(VENV)/.dev node_modules/.installed static/dist/.built $(LOCALE_MO) $(JS_CATALOGS)

# pip-tools, from PyPI alone (this machine's pip.conf adds local mirrors):
# the hashes written are PyPI's, for every file of each pinned release.
LOCK := PIP_CONFIG_FILE=/dev/null PIP_FIND_LINKS= $(VENV)/bin/pip-compile --quiet --generate-hashes \
	--strip-extras --allow-unsafe --no-emit-index-url --no-emit-find-links
lock: deps
	$(LOCK) -o requirements/runtime.txt pyproject.toml
	$(LOCK) --extra dev -o requirements/dev.txt pyproject.toml

# Hashed and compressed copies of the static files (config/static.py), made
# again only when a source changed.
staticfiles/staticfiles.json: $(shell find static -type f) static/dist/.built $(JS_CATALOGS)
	$(PY) manage.py collectstatic --noinput --verbosity 0

run: runtime-deps staticfiles/staticfiles.json
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_layouts
	$(PY) scripts/serve.py --host $(HOST) --port $(PORT)

test: deps
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	npx eslint static/js
	$(PY) manage.py makemigrations --check --dry-run
	scripts/check-messages
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
