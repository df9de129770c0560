"""Admins can look at rooms, rounds and events, but not change them by hand."""

import pytest
from django.contrib.auth.models import User

from rooms.models import Room

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    client.force_login(User.objects.create_superuser("ada", "ada@example.org", "pw"))
    return client


def test_the_room_list_shows_each_room_by_code(admin_client):
    room = Room.objects.create()
    page = admin_client.get("/admin/rooms/room/")
    assert page.status_code == 200
    assert room.code in page.content.decode()
    assert admin_client.get(f"/admin/rooms/room/{room.pk}/change/").status_code == 200


def test_rooms_cannot_be_added_or_edited_in_the_admin(admin_client):
    room = Room.objects.create()
    assert admin_client.get("/admin/rooms/room/add/").status_code == 403
    response = admin_client.post(
        f"/admin/rooms/room/{room.pk}/change/", {"status": "closed"}
    )
    assert response.status_code == 403
    room.refresh_from_db()
    assert room.status == Room.Status.LOBBY


def test_rounds_and_events_are_listed(admin_client):
    assert admin_client.get("/admin/rooms/round/").status_code == 200
    assert admin_client.get("/admin/rooms/event/").status_code == 200
