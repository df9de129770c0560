"""The room socket speaks the language of the page that opened it: its
language cookie, else the browser's Accept-Language."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from rooms import actions, consumers, limits
from tests.room_helpers import guest_cookie_value
from tests.test_room_consumer import (  # noqa: F401  (fresh_layer: autouse)
    HOST,
    ORIGIN,
    connect,
    fresh_layer,
    racing_room,
    reply_to,
)

pytestmark = [pytest.mark.django_db(transaction=True)]


async def refusal_for(room, player, extra_headers, cookie_extra=""):
    """Opens one socket more than a player may have: the refusal's words."""
    cookie = await database_sync_to_async(guest_cookie_value)(player)
    cookies = f"tiles_player={cookie}{cookie_extra}".encode()
    headers = [HOST, ORIGIN, (b"cookie", cookies), *extra_headers]
    sockets = []
    for _ in range(limits.SOCKETS_PER_SEAT + 1):
        ws = WebsocketCommunicator(application, f"/ws/rooms/{room.code}/", headers)
        await ws.connect()
        sockets.append(ws)
        reply = await ws.receive_json_from()
    for ws in sockets:
        await ws.disconnect()
    assert reply["code"] == "too_many_connections"
    return reply["message"]


async def test_the_language_cookie_decides_the_sockets_words():
    room, ann, *_ = await racing_room()
    nepali = await refusal_for(room, ann, [], "; django_language=ne")
    count = str(limits.SOCKETS_PER_SEAT).translate(
        str.maketrans("0123456789", "०१२३४५६७८९")
    )
    assert nepali == f"यो कोठामा तपाईंका {count} वटा जडान पहिल्यै छन्"


async def test_without_a_cookie_the_browsers_language_decides():
    room, ann, *_ = await racing_room()
    asked = [(b"accept-language", b"ne-NP,ne;q=0.9")]
    assert "जडान" in await refusal_for(room, ann, asked)
    english = await refusal_for(room, ann, [(b"accept-language", b"en-US")])
    assert english.startswith("you have")


async def test_a_socket_reads_its_language_once(monkeypatch):
    """Its cookie and headers came with the handshake: read once, not again
    for every frame and every event of the room that every member's
    socket forwards (they were a few per cent of a server's CPU)."""
    reads = []
    scope_language = consumers.scope_language

    def counted(scope):
        reads.append(scope)
        return scope_language(scope)

    monkeypatch.setattr(consumers, "scope_language", counted)
    room, ann, bob, pairs = await racing_room()
    ws, connected = await connect(room, bob)
    assert connected
    await ws.receive_json_from()  # hello
    await ws.receive_json_from()  # the state
    take = database_sync_to_async(actions.take_pair)
    for move, pair in enumerate(pairs[:3]):
        await take(room.code, ann, *pair, move)
        assert (await ws.receive_json_from())["type"] == "events"
    wrong = {"type": "take", "a": pairs[0][0], "b": pairs[0][0], "move": 0}
    refused = await reply_to(ws, {**wrong, "ref": "r"})
    assert refused["type"] == "error"
    await ws.disconnect()
    assert len(reads) == 1
