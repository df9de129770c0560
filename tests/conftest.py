"""Fixtures shared by the room tests: Ann hosts a room that Bob joins, on a
clock the test moves by hand."""

from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.cache import cache
from django.core.management import call_command

from rooms import actions, limits
from sitewide.js_catalog import write_catalogs
from tests.room_helpers import RoomClock, person


@pytest.fixture
def clock(monkeypatch):
    return RoomClock(monkeypatch)


@pytest.fixture
def ann():
    return person("Ann")


@pytest.fixture
def bob():
    return person("Bob")


@pytest.fixture
def room(clock, ann, bob):
    """Ann hosts, Bob joins; both are on the game screen."""
    room = actions.create_room(ann, "Ann")
    actions.join_room(room.code, bob, "Bob")
    actions.start_game(room.code, ann)
    return room


@pytest.fixture(autouse=True)
def fresh_throttles():
    """Every test starts with no throttle counted (accounts/throttle.py keeps
    its counts in the cache, which outlives a test)."""
    cache.clear()
    yield


@pytest.fixture(autouse=True)
def fresh_socket_limits():
    """Sockets a test left open count for no later test (rooms.limits; in
    Redis, fresh_throttles' cache.clear() empties the database too)."""
    limits.LIMITS.reset()


def pytest_sessionstart(session) -> None:
    """Collect the static files when a source is newer than the manifest.

    Tests run with DEBUG off, as production does: pages name the hashed files
    of the manifest, and daphne serves them from STATIC_ROOT. Collecting
    takes seconds, so only when something changed.
    """
    # The JavaScript catalogues, from the compiled .mo files (make deps
    # writes them too; rewritten only where they changed).
    write_catalogs()
    manifest = settings.STATIC_ROOT / "staticfiles.json"
    built = manifest.stat().st_mtime if manifest.exists() else 0.0
    sources = (
        storage.path(path)
        for finder in finders.get_finders()
        for path, storage in finder.list(ignore_patterns=None)
    )
    if any(Path(source).stat().st_mtime > built for source in sources):
        call_command("collectstatic", "--noinput", verbosity=0)
