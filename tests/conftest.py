"""Fixtures shared by the room tests: Ann hosts a room that Bob joins, on a
clock the test moves by hand."""

import pytest
from django.core.cache import cache

from rooms import actions
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
    """Every test starts with no throttle counted (config/throttle.py keeps
    its counts in the cache, which outlives a test)."""
    cache.clear()
    yield
