"""The timer process applies due bots' moves and time limits, and leaves
rooms alone until something is due."""

import pytest
from django.core.management import call_command

from rooms import actions
from rooms.models import Room
from tests.room_helpers import RoomClock, person

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
