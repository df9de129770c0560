# Two commands do everything on a fresh machine: `make run` and `make test`.
# Each installs what it needs on first use (venv, Python and npm packages).

# Looked for once: the sub-makes below inherit it.
ifndef PYTHON_BIN
PYTHON_BIN := $(shell scripts/find-python)
endif
export PYTHON_BIN
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint deps runtime-deps js lock check-python gettext messages bench clean \
	migrated

check-python:
	@test -n "$(PYTHON_BIN)" || { echo "Python 3.12+ is required (see above)."; exit 1; }

# The lock files (requirements/*.txt, with hashes) are what gets installed:
# the same versions on every machine, checked against their hashes.
# `make lock` writes them again from pyproject.toml.
#
# uv installs them (`uv pip install --require-hashes`, the same check as
# pip's) in seconds where pip took a minute and a half on a busy machine;
# the venv itself is made without pip (ensurepip alone took 18 s). uv comes
# from PyPI through the interpreter's own pip, pinned with its hashes in
# requirements/uv.txt, into .venv/uv (an interpreter without pip of its own
# lends it from a throwaway venv, .venv/pip). It compiles the bytecode at
# install, as pip did: without, every process compiles what it imports
# (2.5 s of CPU per start of Django where PYTHONDONTWRITEBYTECODE is set).
$(PY): | check-python
	$(PYTHON_BIN) -m venv --without-pip $(VENV)

UV := $(VENV)/uv/bin/uv
UV_INSTALL := $(UV) pip install --quiet --compile-bytecode --python $(PY) --require-hashes
$(UV): requirements/uv.txt | $(PY)
	pip="$(PYTHON_BIN) -m pip"; $$pip --version >/dev/null 2>&1 || \
		{ $(PYTHON_BIN) -m venv $(VENV)/pip && pip=$(VENV)/pip/bin/pip; }; \
	$$pip install --quiet --disable-pip-version-check --root-user-action=ignore \
		--no-deps --require-hashes --upgrade --target $(VENV)/uv -r requirements/uv.txt
	touch $@

# `make run` needs the runtime packages only; `make test` adds the dev tools
# (pip among them, for pip-compile).
$(VENV)/.runtime: requirements/runtime.txt | $(UV)
	$(UV_INSTALL) -r requirements/runtime.txt
	touch $@

$(VENV)/.dev: requirements/dev.txt $(VENV)/.runtime
	$(UV_INSTALL) -r requirements/dev.txt
	touch $@

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
# (sitewide/js_catalog.py). Written again when a catalogue or the languages change.
JS_CATALOGS := static/dist/i18n/.built
$(JS_CATALOGS): $(LOCALE_MO) config/settings.py | $(VENV)/.runtime
	$(PY) manage.py js_catalogs --verbosity 0
	touch $@

# After changing a string in the code: brings the catalogues up to date, then
# translate what scripts/check-messages reports as missing.
messages: deps
	MESSAGES_UPDATE=1 scripts/check-messages

js: static/dist/.built

runtime-deps: $(VENV)/.runtime node_modules/.installed static/dist/.built $(LOCALE_MO)

# Everything a developer needs (the test target's set).
deps: $(VENV)/.dev node_modules/.installed static/dist/.built $(LOCALE_MO) $(JS_CATALOGS)

# pip-tools, from PyPI alone (this machine's pip.conf adds local mirrors):
# the hashes written are PyPI's, for every file of each pinned release.
LOCK := PIP_CONFIG_FILE=/dev/null PIP_FIND_LINKS= $(VENV)/bin/pip-compile --quiet --generate-hashes \
	--strip-extras --allow-unsafe --no-emit-index-url --no-emit-find-links
lock: deps
	$(LOCK) -o requirements/runtime.txt pyproject.toml
	$(LOCK) --extra dev -o requirements/dev.txt pyproject.toml
	$(LOCK) -o requirements/uv.txt requirements/uv.in

# Hashed and compressed copies of the static files (sitewide/static.py), made
# again only when a source changed. The JavaScript catalogues are written
# first, in the same process: one start of Django fewer on the first run.
staticfiles/staticfiles.json: $(shell find static -type f) static/dist/.built \
		$(LOCALE_MO) config/settings.py | $(VENV)/.runtime
	$(PY) manage.py shell --no-imports -c "from django.core.management import \
		call_command as run; run('js_catalogs', verbosity=0); \
		run('collectstatic', interactive=False, verbosity=0)"
	touch $(JS_CATALOGS) $@

# The database brought up to date and given the built-in layouts, in one
# process: each start of Django costs seconds on a busy machine.
migrated: $(VENV)/.runtime
	$(PY) manage.py shell --no-imports -c "from django.core.management import \
		call_command as run; run('migrate', interactive=False); run('load_layouts')"

# What can run at once does (uv beside npm, collectstatic beside migrate):
# on a busy machine the parts share the cores better than one after another.
PARALLEL := $(MAKE) --no-print-directory --jobs=4 --output-sync=target

run:
	$(PARALLEL) runtime-deps staticfiles/staticfiles.json migrated
	$(PY) scripts/serve.py --host $(HOST) --port $(PORT)

test:
	$(PARALLEL) deps
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	# Imports point down: config, the apps, sitewide (pyproject.toml).
	$(VENV)/bin/lint-imports --no-cache
	npx eslint static/js
	# The JSDoc types (tsconfig.json) and the layout (.prettierrc.json).
	npx tsc -p . --noEmit
	npx prettier --check static/js
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
