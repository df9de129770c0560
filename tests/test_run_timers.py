"""The timer process applies due bots' moves and time limits, and leaves
rooms alone until something is due."""

import threading
import time

import pytest
from django.core.management import call_command
from django.db import connection

from rooms import actions, race
from rooms.models import Event, Room
from tests.room_helpers import RoomClock, apply_events, fresh_state, person, solution

pytestmark = pytest.mark.django_db(transaction=True)


def bot_race(clock) -> Room:
    ann = person("Ann")
    room = actions.create_room(ann, "Ann")
    actions.add_bot(room.code, ann, "hard")
    actions.start_game(room.code, ann)
    actions.deal_round(room.code, ann, "race", "small", 5)
    return Room.objects.get(pk=room.pk)


def bot_matches(room: Room) -> int:
    return Room.objects.get(pk=room.pk).current_round.racers.get(seat=1).matches


def test_it_moves_a_bot_whose_time_has_come(monkeypatch):
    clock = RoomClock(monkeypatch)
    room = bot_race(clock)
    clock.now = room.wake_at
    call_command("run_timers", "--once")
    assert bot_matches(room) == 1
    assert Room.objects.get(pk=room.pk).wake_at > clock.now


def test_it_leaves_a_room_alone_before_anything_is_due(monkeypatch):
    clock = RoomClock(monkeypatch)
    room = bot_race(clock)
    call_command("run_timers", "--once")
    assert bot_matches(room) == 0


def test_it_ends_the_race_when_the_time_limit_runs_out(monkeypatch):
    clock = RoomClock(monkeypatch)
    room = bot_race(clock)
    clock.to_race_ms(room, 5 * 60_000)
    call_command("run_timers", "--once")
    rnd = Room.objects.get(pk=room.pk).current_round
    assert rnd.status == "over"


def test_two_timers_at_once_apply_a_due_move_once(monkeypatch):
    """The second timer skips the room the first holds (PostgreSQL), or
    waits for it and then finds nothing due (SQLite)."""
    clock = RoomClock(monkeypatch)
    room = bot_race(clock)
    clock.now = room.wake_at
    run_due = race.run_due

    def slow_run_due(state, now):
        time.sleep(0.3)  # hold the room while the other timer arrives
        return run_due(state, now)

    monkeypatch.setattr(race, "run_due", slow_run_due)
    results = []

    def timer():
        try:
            results.append(actions.apply_due_timers(room.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=timer) for _ in range(2)]
    for t in threads:
        t.start()
        time.sleep(0.05)
    for t in threads:
        t.join()
    assert sorted(results) == [False, True]
    assert bot_matches(room) == 1


def test_a_pair_that_waits_for_the_timer_plays_on_from_the_bots_move(monkeypatch):
    """A move waits for the room the timer holds, then reads the racers as
    the bot's move left them: its event carries both moves, and replaying
    the events gives the state a fresh client sees."""
    clock = RoomClock(monkeypatch)
    room = bot_race(clock)
    before = fresh_state(room.code)
    clock.now = room.wake_at
    run_due = race.run_due

    def slow_run_due(state, now):
        time.sleep(0.3)  # hold the room while the pair arrives
        return run_due(state, now)

    monkeypatch.setattr(race, "run_due", slow_run_due)

    def timer():
        try:
            actions.apply_due_timers(room.pk)
        finally:
            connection.close()

    thread = threading.Thread(target=timer)
    thread.start()
    time.sleep(0.05)
    actions.take_pair(room.code, room.host, *solution(room)[0], 0)
    thread.join()
    events = Event.objects.filter(room=room).order_by("version")
    after = fresh_state(room.code)
    assert apply_events(before, [e.as_message() for e in events]) == after
    assert [r["matches"] for r in after["round"]["racers"]] == [1, 1]
