"""Fixtures shared by the room tests: Ann hosts a room that Bob joins, on a
clock the test moves by hand."""

import pytest
from django.core.cache import cache

from rooms import actions, limits
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


@pytest.fixture(autouse=True)
def fresh_socket_limits(monkeypatch):
    """Sockets a test left open count for no later test (rooms.limits)."""
    monkeypatch.setattr(limits, "SOCKETS", limits.SocketCounts())
    monkeypatch.setattr(limits, "HINTS", limits.HintBuckets())
