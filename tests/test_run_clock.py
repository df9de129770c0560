"""The server keeps each run's clock; the client never sends a time."""

import pytest

from games.models import Run
from games.play import BUILD_DELAY_MS
from tests.run_helpers import Browser, FakeClock

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(monkeypatch):
    clock = FakeClock(monkeypatch)
    me = Browser()
    return clock, me, me.start().json()


def elapsed(me: Browser, run: dict) -> int:
    return me.get(run["id"]).json()["elapsed_ms"]


def test_the_clock_waits_for_the_pile_to_build(game):
    clock, me, run = game
    assert run["starts_in_ms"] == BUILD_DELAY_MS
    clock.advance(500)
    assert me.get(run["id"]).json()["starts_in_ms"] == BUILD_DELAY_MS - 500
    clock.advance(BUILD_DELAY_MS - 500)
    assert elapsed(me, run) == 0
    clock.advance(4000)
    assert elapsed(me, run) == 4000
    assert me.get(run["id"]).json()["starts_in_ms"] == 0


def test_pause_stops_the_clock_and_resume_starts_it_again(game):
    clock, me, run = game
    clock.advance(BUILD_DELAY_MS + 10_000)
    paused = me.act(run["id"], "pause").json()
    assert (paused["status"], paused["elapsed_ms"]) == ("paused", 10_000)
    clock.advance(3_600_000)
    assert elapsed(me, run) == 10_000
    assert me.start().json()["status"] == "paused"  # a reload stays paused
    resumed = me.act(run["id"], "resume").json()
    assert (resumed["status"], resumed["elapsed_ms"]) == ("playing", 10_000)
    clock.advance(2000)
    assert elapsed(me, run) == 12_000


def test_pause_and_resume_twice_change_nothing_more(game):
    clock, me, run = game
    clock.advance(BUILD_DELAY_MS + 1000)
    me.act(run["id"], "pause")
    clock.advance(1000)
    assert me.act(run["id"], "pause").json()["elapsed_ms"] == 1000
    me.act(run["id"], "resume")
    clock.advance(1000)
    assert me.act(run["id"], "resume").json()["elapsed_ms"] == 2000


def test_a_move_on_a_paused_run_starts_the_clock(game):
    clock, me, run = game
    clock.advance(BUILD_DELAY_MS + 1000)
    me.act(run["id"], "pause")
    clock.advance(50_000)
    pair = Run.objects.get(public_id=run["id"]).witness[0]
    taken = me.take(run, *pair).json()
    assert (taken["status"], taken["elapsed_ms"]) == ("playing", 1000)
    clock.advance(500)
    assert elapsed(me, run) == 1500


def test_times_sent_by_the_client_are_ignored(game):
    clock, me, run = game
    clock.advance(BUILD_DELAY_MS + 7000)
    pair = Run.objects.get(public_id=run["id"]).witness[0]
    body = {"a": pair[0], "b": pair[1], "move": 0, "elapsed_ms": 1}
    assert me.act(run["id"], "take", body).json()["elapsed_ms"] == 7000


def test_restart_starts_a_new_clock(game):
    clock, me, run = game
    clock.advance(60_000)
    me.act(run["id"], "restart")
    clock.advance(BUILD_DELAY_MS + 2000)
    assert elapsed(me, run) == 2000


def test_the_clock_stops_when_the_run_is_given_up(game):
    clock, me, run = game
    clock.advance(BUILD_DELAY_MS + 3000)
    assert me.act(run["id"], "give-up").json()["elapsed_ms"] == 3000
    clock.advance(60_000)
    assert elapsed(me, run) == 3000
