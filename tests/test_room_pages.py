"""The room pages: host a room, join by code or by the invite link."""

import pytest

from rooms import actions
from rooms.models import Member, Room
from tests.room_helpers import person
from tests.run_helpers import Browser

pytestmark = pytest.mark.django_db


def test_the_rooms_page_offers_to_host_and_to_join():
    page = Browser().client.get("/rooms/")
    assert page.status_code == 200
    assert b'id="host-form"' in page.content and b'id="join-form"' in page.content


def test_hosting_seats_the_host_and_opens_the_room():
    me = Browser()
    response = me.form("/rooms/host", {"name": "Ann"})
    room = Room.objects.get()
    assert response.status_code == 302 and response.url == f"/r/{room.code}"
    assert Member.objects.get().name == "Ann"
    page = me.client.get(response.url)
    assert b'id="room"' in page.content and room.code.encode() in page.content


def test_joining_by_code_takes_the_next_seat():
    room = actions.create_room(person("Ann"), "Ann")
    bob = Browser()
    typed = f" {room.code.lower()} "
    response = bob.form("/rooms/join", {"code": typed, "name": "Bob"})
    assert response.url == f"/r/{room.code}"
    assert list(room.members.values_list("name", flat=True)) == ["Ann", "Bob"]


def test_a_wrong_code_is_explained():
    response = Browser().form("/rooms/join", {"code": "QQQQQ", "name": "Bob"})
    assert response.status_code == 400
    assert b"no room" in response.content


def test_the_invite_link_asks_a_newcomer_for_a_name_then_seats_them():
    room = actions.create_room(person("Ann"), "Ann")
    cat = Browser()
    page = cat.client.get(f"/r/{room.code}")
    assert b'id="join-form"' in page.content and b'id="room"' not in page.content
    response = cat.form(f"/r/{room.code}", {"name": "Cat"})
    assert response.url == f"/r/{room.code}"
    assert b'id="room"' in cat.client.get(response.url).content


def test_a_closed_or_unknown_room_is_not_found():
    ann = person("Ann")
    room = actions.create_room(ann, "Ann")
    actions.leave(room.code, ann)
    assert Browser().client.get(f"/r/{room.code}").status_code == 404
    assert Browser().client.get("/r/QQQQQ").status_code == 404


def test_the_room_page_and_the_tv_show_the_invite_link_as_a_qr_code():
    """The QR code is the invite link the page shows (the same modules as
    the link's own code), an SVG in the page with its accessible name."""
    import segno

    me = Browser()
    response = me.form("/rooms/host", {"name": "Ann"})
    code = response.url.rsplit("/", 1)[1]
    invite = f"http://testserver/r/{code}"
    modules = segno.make(invite, error="m", micro=False).svg_inline(scale=1)
    path = modules[modules.index(' d="') :].split('"')[1]
    for page in (
        me.client.get(response.url),
        me.client.get(f"/watch?code={code}"),
    ):
        html = page.content.decode()
        assert 'role="img" aria-label="QR code to join"' in html
        assert f'd="{path}"' in html and invite in html
