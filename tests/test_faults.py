"""The faults found from the outside (issue 15, point 6): each one answers
a clear error instead of a crash, a wrong status or a silent reset."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from rooms import actions, changes, consumers
from rooms.actions import MAX_SEATS
from tests.room_helpers import guest_cookie_value, person
from tests.run_helpers import Browser
from tests.test_room_consumer import (  # noqa: F401  (fresh_layer: autouse)
    HOST,
    ORIGIN,
    fresh_layer,
    joined,
    racing_room,
    reply_to,
)


@pytest.mark.django_db(transaction=True)
class TestSocket:
    @pytest.mark.parametrize("since", ["%C2%B2", "%E2%91%A0", "-1", "1e3", "9" * 40])
    async def test_a_since_that_is_not_plain_digits_gets_a_full_state(self, since):
        room, ann, *_ = await racing_room()
        cookie = await database_sync_to_async(guest_cookie_value)(ann)
        ws = WebsocketCommunicator(
            application,
            f"/ws/rooms/{room.code}/?since={since}",
            headers=[HOST, ORIGIN, (b"cookie", f"tiles_player={cookie}".encode())],
        )
        connected, _ = await ws.connect()
        assert connected
        assert (await ws.receive_json_from())["type"] == "hello"
        assert (await ws.receive_json_from())["type"] == "state"
        await ws.disconnect()

    async def test_nothing_is_sent_after_a_leave_closes_the_socket(self):
        room, ann, bob, _ = await racing_room()
        ws = await joined(room, bob)
        ack = await reply_to(ws, {"type": "leave", "ref": 1})
        assert ack["type"] == "ack"
        closed = await ws.receive_output()
        assert (closed["type"], closed["code"]) == ("websocket.close", 4000)
        # The leave's own events reach the group after the close.
        assert await ws.receive_nothing(timeout=0.5)

    async def test_a_binary_frame_is_told_to_send_text(self):
        room, ann, *_ = await racing_room()
        ws = await joined(room, ann)
        await ws.send_to(bytes_data=b'{"type": "ping"}')
        reply = await ws.receive_json_from()
        assert (reply["type"], reply["code"]) == ("error", "bad_message")
        assert "text" in reply["message"] and "1024" not in reply["message"]
        await ws.disconnect()

    @pytest.mark.parametrize(
        ("host", "origin", "allowed"),
        [
            (b"127.0.0.1:8000", b"http://127.0.0.1:8000", True),
            (b"127.0.0.1:8000", b"http://127.0.0.1:9000", False),
            (b"127.0.0.1:8000", b"http://127.0.0.1", False),
            (b"127.0.0.1", b"http://127.0.0.1:8000", False),
            (b"127.0.0.1:8000", b"https://127.0.0.1:8000", False),
            (b"evil.example", b"http://evil.example", False),
        ],
    )
    async def test_the_origin_must_be_this_sites_scheme_host_and_port(
        self, host, origin, allowed
    ):
        room, ann, *_ = await racing_room()
        cookie = await database_sync_to_async(guest_cookie_value)(ann)
        headers = [(b"host", host), (b"origin", origin)]
        headers.append((b"cookie", f"tiles_player={cookie}".encode()))
        ws = WebsocketCommunicator(application, f"/ws/rooms/{room.code}/", headers)
        connected, _ = await ws.connect()
        assert connected is allowed
        if connected:
            await ws.disconnect()


@pytest.mark.django_db
def test_joining_a_full_room_by_the_invite_link_answers_400_as_html():
    ann = person("Ann")
    room = actions.create_room(ann, "Ann")
    for n in range(1, MAX_SEATS):
        actions.join_room(room.code, person(f"P{n}"), f"P{n}")
    response = Browser().form(f"/r/{room.code}", {"name": "Cat"})
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert b'id="join-form"' in response.content
    assert b"holds 8" in response.content
    assert room.members.count() == MAX_SEATS


@pytest.mark.django_db
def test_a_blank_name_on_the_invite_link_answers_400_as_html():
    room = actions.create_room(person("Ann"), "Ann")
    response = Browser().form(f"/r/{room.code}", {"name": "   "})
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert b'id="join-form"' in response.content
    assert room.members.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    ["/r/%00AB", "/r/AB%00", "/r/A%20B", "/play/api/runs/%00", "/play/api/runs/r_%00x"],
)
def test_an_unroutable_id_answers_404(path):
    assert Browser().client.get(path).status_code == 404


@pytest.mark.django_db(transaction=True)
async def test_a_pong_carries_the_rooms_version_so_a_lost_event_is_noticed(
    monkeypatch,
):
    """Point 7: a change whose notification never arrived shows in the
    next pong's version, and sync brings it."""
    # The embedded setup's own look at the database would find it first.
    monkeypatch.setattr(consumers, "WATCH_S", 3600)
    room, ann, bob, _ = await racing_room()
    ws = await joined(room, ann)
    pong = await reply_to(ws, {"type": "ping", "ref": "p1"})
    had = pong["v"]
    monkeypatch.setattr(changes, "publish_on_commit", lambda code, events: None)
    await database_sync_to_async(actions.lock_room)(room.code, ann, True)
    assert await ws.receive_nothing(timeout=0.3)  # the notification was lost
    pong = await reply_to(ws, {"type": "ping", "ref": "p2"})
    assert pong["v"] == had + 1
    caught_up = await reply_to(ws, {"type": "sync", "since": had, "ref": "s"})
    assert [e["v"] for e in caught_up["events"]] == [had + 1]
    await ws.disconnect()
