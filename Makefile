# Two commands do everything on a fresh machine: `make run` and `make test`.
# Each installs what it needs on first use (venv, Python and npm packages).

PYTHON_BIN := $(shell scripts/find-python)
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint deps check-python gettext messages bench clean

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

deps: $(VENV)/.installed node_modules/.installed $(LOCALE_MO)

# After changing a string in the code: brings the catalogues up to date, then
# translate what scripts/check-messages reports as missing.
messages: deps
	MESSAGES_UPDATE=1 scripts/check-messages

run: deps
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_layouts
	$(PY) scripts/serve.py --host $(HOST) --port $(PORT)

test: deps
	$(PY) -m ruff check .
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
	rm -rf $(VENV) node_modules staticfiles
