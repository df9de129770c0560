"""The watch page: a room's code, then its game read-only, with no seat."""

import pytest
from django.templatetags.static import static

from rooms import actions
from tests.room_helpers import person

pytestmark = pytest.mark.django_db


def test_it_asks_for_a_room_code(client):
    page = client.get("/watch")
    assert page.status_code == 200
    assert b'id="watch-form"' in page.content


def test_a_code_opens_the_room_read_only_without_a_seat(client):
    room = actions.create_room(person("Ann"), "Ann")
    page = client.get("/watch", {"code": f" {room.code.lower()} "})
    assert page.status_code == 200
    assert f'data-code="{room.code}"'.encode() in page.content
    assert static("dist/watch.js").encode() in page.content
    assert room.members.count() == 1


@pytest.mark.parametrize("code", ["ZZZZZ", ""])
def test_an_unknown_or_missing_code_is_refused(client, code):
    page = client.get("/watch", {"code": code})
    assert page.status_code == 400
    assert b'id="watch-form"' in page.content
