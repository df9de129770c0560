"""Socket limits (issue 15, point 3): sockets per player in a room and per
address, hints per player, on top of each socket's own message rate.
Through the real ASGI application."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from rooms import limits
from tests.room_helpers import guest_cookie_value
from tests.test_room_consumer import (  # noqa: F401  (fresh_layer: autouse)
    HOST,
    ORIGIN,
    fresh_layer,
    joined,
    racing_room,
    reply_to,
)

pytestmark = [pytest.mark.django_db(transaction=True)]


def from_address(address: str):
    """The application as a client at `address` reaches it."""

    async def app(scope, receive, send):
        return await application({**scope, "client": (address, 5000)}, receive, send)

    return app


async def open_socket(room, player, address="10.0.0.1"):
    cookie = await database_sync_to_async(guest_cookie_value)(player)
    headers = [HOST, ORIGIN, (b"cookie", f"tiles_player={cookie}".encode())]
    ws = WebsocketCommunicator(
        from_address(address), f"/ws/rooms/{room.code}/", headers
    )
    connected, _ = await ws.connect()
    return ws, connected


async def test_one_player_has_a_few_sockets_to_a_room_and_no_more():
    room, ann, *_ = await racing_room()
    sockets = []
    for _ in range(limits.SOCKETS_PER_SEAT):
        ws, connected = await open_socket(room, ann)
        assert connected
        assert (await ws.receive_json_from())["type"] == "hello"
        sockets.append(ws)
    extra, connected = await open_socket(room, ann)
    refusal = await extra.receive_json_from()
    assert (refusal["type"], refusal["code"]) == ("error", "too_many_connections")
    closed = await extra.receive_output()
    assert (closed["type"], closed["code"]) == ("websocket.close", 4409)
    # One closes: a new one (a reload) is welcome again.
    await sockets.pop().disconnect()
    again, connected = await open_socket(room, ann)
    assert connected and (await again.receive_json_from())["type"] == "hello"
    for ws in [*sockets, again]:
        await ws.disconnect()


async def test_an_address_has_a_bounded_number_of_sockets(monkeypatch):
    monkeypatch.setattr(limits, "SOCKETS_PER_ADDRESS", 2)
    room, ann, bob, _ = await racing_room()
    first, ok1 = await open_socket(room, ann, "10.0.0.7")
    second, ok2 = await open_socket(room, bob, "10.0.0.7")
    assert ok1 and ok2
    third, ok3 = await open_socket(room, bob, "10.0.0.7")
    assert not ok3  # refused at the handshake, before any database work
    elsewhere, ok4 = await open_socket(room, bob, "10.0.0.8")
    assert ok4
    await first.disconnect()
    back, ok5 = await open_socket(room, bob, "10.0.0.7")
    assert ok5
    for ws in (second, elsewhere, back):
        await ws.disconnect()


async def test_hints_are_limited_per_player_across_their_sockets():
    room, ann, *_ = await racing_room()
    one, two = await joined(room, ann), await joined(room, ann)
    replies = []
    for k in range(limits.HINT_BURST + 1):
        ws = one if k % 2 else two
        replies.append(await reply_to(ws, {"type": "hint", "ref": k}))
    assert [r["type"] for r in replies] == ["hint"] * limits.HINT_BURST + ["error"]
    assert replies[-1]["code"] == "rate_limited"
    assert "hint" in replies[-1]["message"]
    await one.disconnect()
    await two.disconnect()
