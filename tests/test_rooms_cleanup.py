"""Rooms nobody has used for a week are forgotten, with all they hold;
a room in use is never touched."""

from datetime import timedelta

import pytest
from django.utils import timezone

from rooms import actions
from rooms.models import Event, Member, Racer, Room, Round
from rooms.tasks import IDLE_DAYS, forget_idle_rooms
from tests.room_helpers import person

pytestmark = pytest.mark.django_db


def played_room(clock, host_name: str) -> Room:
    """A room with a guest, a bot and a race dealt: rows in every table."""
    host, guest = person(host_name), person("Guest")
    room = actions.create_room(host, host_name)
    actions.join_room(room.code, guest, "Guest")
    actions.add_bot(room.code, host, "easy")
    actions.start_game(room.code, host)
    actions.deal_round(room.code, host, "race", "small", 0)
    return room


def test_a_room_idle_for_a_week_goes_with_everything_in_it(clock):
    clock.now = timezone.now() - timedelta(days=IDLE_DAYS, hours=1)
    idle = played_room(clock, "Idle")
    clock.now = timezone.now() - timedelta(days=IDLE_DAYS - 1)
    kept = played_room(clock, "Kept")

    assert forget_idle_rooms() == 1

    assert list(Room.objects.values_list("code", flat=True)) == [kept.code]
    for model in (Member, Round, Event):
        assert not model.objects.filter(room=idle.pk).exists()
        assert model.objects.filter(room=kept.pk).exists()
    assert not Racer.objects.filter(round__room=idle.pk).exists()
    assert forget_idle_rooms() == 0


def test_one_recent_move_keeps_an_old_room(clock):
    clock.now = timezone.now() - timedelta(days=30)
    room = played_room(clock, "Ann")
    clock.now = timezone.now()
    actions.pause(room.code, room.host)

    assert forget_idle_rooms() == 0
    assert Room.objects.filter(pk=room.pk).exists()


def test_a_room_without_events_counts_from_its_creation(clock):
    room = actions.create_room(person("Ann"), "Ann")
    Event.objects.filter(room=room).delete()
    assert forget_idle_rooms() == 0
    Room.objects.filter(pk=room.pk).update(
        created=timezone.now() - timedelta(days=IDLE_DAYS + 1)
    )
    assert forget_idle_rooms() == 1
