"""The room websocket: who may connect, catching up, moves and their
replies, validation, rate limiting; through the real ASGI application
(origin check and cookies included)."""

import json

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.db import OperationalError

from config.asgi import application
from rooms import actions, consumers
from rooms.models import Room
from tests.room_helpers import guest_cookie_value, person, solution

pytestmark = [pytest.mark.django_db(transaction=True)]

ORIGIN = (b"origin", b"http://127.0.0.1")
# The site a handshake is sent to (browsers always send Host).
HOST = (b"host", b"127.0.0.1")


@pytest.fixture(autouse=True)
def fresh_layer():
    """A new in-memory channel layer for each test's event loop."""
    channel_layers.backends = {}
    yield
    channel_layers.backends = {}


@database_sync_to_async
def racing_room(bots=0):
    """Ann hosts, Bob joins, a Small pile is dealt; the pile has built."""
    ann, bob = person("Ann"), person("Bob")
    room = actions.create_room(ann, "Ann")
    actions.join_room(room.code, bob, "Bob")
    actions.start_game(room.code, ann)
    for _ in range(bots):
        actions.add_bot(room.code, ann, "hard")
    actions.deal_round(room.code, ann, "race", "small", 0)
    rnd = Room.objects.get(pk=room.pk).current_round
    rnd.running_since = rnd.dealt_at  # no wait for the pile to build
    rnd.save()
    return room, ann, bob, solution(room)


@database_sync_to_async
def version(room) -> int:
    return Room.objects.get(pk=room.pk).version


async def connect(room, player, since=None, origin=ORIGIN):
    path = f"/ws/rooms/{room.code}/" + ("" if since is None else f"?since={since}")
    headers = [HOST, origin] if origin else [HOST]
    if player is not None:
        cookie = await database_sync_to_async(guest_cookie_value)(player)
        headers.append((b"cookie", f"tiles_player={cookie}".encode()))
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await ws.connect()
    return ws, connected


async def joined(room, player, since=None):
    """A connected socket, past its hello and catch-up messages."""
    ws, connected = await connect(room, player, since)
    assert connected
    hello = await ws.receive_json_from()
    assert hello["type"] == "hello"
    await ws.receive_json_from()
    return ws


async def reply_to(ws, message):
    """The reply to `message`, skipping events broadcast meanwhile (those
    carry no "ref")."""
    await ws.send_json_to(message)
    while True:
        reply = await ws.receive_json_from()
        if "ref" in reply:
            return reply


class TestConnecting:
    async def test_a_member_gets_their_seat_and_a_full_state(self):
        room, ann, bob, _ = await racing_room()
        ws, connected = await connect(room, bob)
        assert connected
        assert (await ws.receive_json_from())["seat"] == 1
        state = await ws.receive_json_from()
        assert state["type"] == "state"
        assert state["version"] == await version(room)
        assert [r["seat"] for r in state["round"]["racers"]] == [0, 1]
        await ws.disconnect()

    async def test_a_client_that_has_a_version_gets_the_events_after_it(self):
        room, ann, bob, _ = await racing_room()
        v = await version(room)
        ws, _ = await connect(room, ann, since=v - 1)
        await ws.receive_json_from()
        caught_up = await ws.receive_json_from()
        assert caught_up["type"] == "events"
        assert [e["v"] for e in caught_up["events"]] == [v]
        await ws.disconnect()

    async def test_a_client_too_far_behind_gets_a_full_state(self):
        room, ann, bob, _ = await racing_room()
        ws, _ = await connect(room, ann, since=10_000)
        await ws.receive_json_from()
        assert (await ws.receive_json_from())["type"] == "state"
        await ws.disconnect()

    async def test_someone_not_seated_is_told_and_closed(self):
        room, *_ = await racing_room()
        stranger = await database_sync_to_async(person)("Eve")
        for player in (stranger, None):
            ws, connected = await connect(room, player)
            out = await ws.receive_output()
            assert (out["type"], out["code"]) == ("websocket.close", 4403)

    async def test_a_foreign_or_missing_origin_is_refused(self):
        room, ann, *_ = await racing_room()
        for origin in ((b"origin", b"http://evil.example"), None):
            ws, connected = await connect(room, ann, origin=origin)
            assert not connected


class TestMoves:
    async def test_a_pair_is_acknowledged_and_the_others_see_it(self):
        room, ann, bob, pairs = await racing_room()
        ws_ann, ws_bob = await joined(room, ann), await joined(room, bob)
        ack = await reply_to(
            ws_ann, {"type": "take", "a": pairs[0][0], "b": pairs[0][1], "move": 0}
        )
        assert ack["type"] == "ack"
        assert ack["v"] == await version(room)
        seen = await ws_bob.receive_json_from()
        assert seen["type"] == "events"
        (event,) = seen["events"]
        assert event["v"] == ack["v"] and event["kind"] == "race"
        assert event["data"]["racers"][0]["seat"] == 0
        assert event["data"]["racers"][0]["matches"] == 1
        await ws_ann.disconnect()
        await ws_bob.disconnect()

    async def test_a_refused_pair_gets_an_error_and_changes_nothing(self):
        room, ann, bob, pairs = await racing_room()
        ws = await joined(room, ann)
        before = await version(room)
        a = pairs[0][0]
        error = await reply_to(
            ws, {"type": "take", "a": a, "b": a, "move": 0, "ref": "m1"}
        )
        assert (error["type"], error["code"], error["ref"]) == ("error", "same", "m1")
        assert await version(room) == before
        await ws.disconnect()

    async def test_a_move_the_database_fails_can_be_sent_again(self, monkeypatch):
        # As when PostgreSQL restarted since the worker's connection was
        # last used: the first query of the move fails, nothing commits.
        room, ann, bob, pairs = await racing_room()
        take = consumers.ACTIONS["take"]
        calls = []

        def broken_once(*args, **kwargs):
            calls.append(args)
            if len(calls) == 1:
                raise OperationalError("server closed the connection unexpectedly")
            return take(*args, **kwargs)

        monkeypatch.setitem(consumers.ACTIONS, "take", broken_once)
        ws = await joined(room, ann)
        before = await version(room)
        pair = {"type": "take", "a": pairs[0][0], "b": pairs[0][1], "move": 0}
        error = await reply_to(ws, {**pair, "ref": 1})
        assert error["type"] == "error" and error["ref"] == 1
        assert error["code"] == "unavailable"
        assert await version(room) == before
        # The socket stayed open: the same pair, sent again, is taken.
        ack = await reply_to(ws, {**pair, "ref": 2})
        assert (ack["type"], ack["ref"]) == ("ack", 2)
        assert ack["v"] == await version(room) > before
        await ws.disconnect()

    async def test_the_hint_is_sent_to_the_asker_only(self):
        room, ann, bob, pairs = await racing_room()
        ws = await joined(room, ann)
        hint = await reply_to(ws, {"type": "hint", "ref": 7})
        assert hint["type"] == "hint" and hint["ref"] == 7
        assert len(hint["pair"]) == 2
        await ws.disconnect()

    async def test_only_the_host_may_deal(self):
        room, ann, bob, _ = await racing_room()
        ws = await joined(room, bob)
        deal = {"type": "deal", "mode": "race", "pile": "small", "limit": 0}
        assert (await reply_to(ws, deal))["code"] == "not_host"
        await ws.disconnect()

    async def test_sync_sends_what_was_missed(self):
        room, ann, bob, pairs = await racing_room()
        ws = await joined(room, ann)
        v = await version(room)
        await database_sync_to_async(actions.take_pair)(room.code, bob, *pairs[0], 0)
        await ws.receive_json_from()  # the live event
        reply = await reply_to(ws, {"type": "sync", "since": v - 1})
        assert [e["v"] for e in reply["events"]] == [v, v + 1]
        await ws.disconnect()

    async def test_changes_made_in_another_process_still_arrive(
        self, monkeypatch, settings
    ):
        """With the in-memory layer, a change published by another process
        (the timer) never reaches this one: the connection looks itself."""
        settings.CHANNEL_LAYERS = {
            "default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}
        }
        channel_layers.backends = {}
        room, ann, bob, pairs = await racing_room()
        ws = await joined(room, ann)
        monkeypatch.setattr("rooms.publish._send", lambda rooms: None)
        await database_sync_to_async(actions.take_pair)(room.code, bob, *pairs[0], 0)
        seen = await ws.receive_json_from(timeout=3)
        assert seen["type"] == "events"
        assert seen["events"][-1]["v"] == await version(room)
        await ws.disconnect()

    async def test_leaving_closes_the_socket(self):
        room, ann, bob, _ = await racing_room()
        ws = await joined(room, bob)
        assert (await reply_to(ws, {"type": "leave"}))["type"] == "ack"
        assert (await ws.receive_output())["type"] == "websocket.close"


BAD_MESSAGES = [
    "not json",
    json.dumps([1, 2]),
    json.dumps({"type": "explode"}),
    json.dumps({"type": "take", "a": 1, "b": 2}),
    json.dumps({"type": "take", "a": "1", "b": 2, "move": 0}),
    json.dumps({"type": "take", "a": 1, "b": 2, "move": True}),
    json.dumps({"type": "take", "a": 1, "b": 999, "move": 0}),
    json.dumps({"type": "take", "a": 1, "b": 2, "move": 0, "seat": 1}),
    json.dumps({"type": "deal", "mode": "race", "pile": "small", "limit": 7}),
    json.dumps({"type": "ping", "ref": {"x": 1}}),
    json.dumps({"type": "ping", "pad": "x" * 2000}),
]


class TestValidation:
    @pytest.mark.parametrize("text", BAD_MESSAGES)
    async def test_a_bad_message_gets_an_error_and_changes_nothing(self, text):
        room, ann, *_ = await racing_room()
        ws = await joined(room, ann)
        before = await version(room)
        await ws.send_to(text_data=text)
        reply = await ws.receive_json_from()
        assert (reply["type"], reply["code"]) == ("error", "bad_message")
        assert await version(room) == before
        await ws.disconnect()

    async def test_a_flood_is_refused_then_closed(self):
        room, ann, *_ = await racing_room()
        ws = await joined(room, ann)
        for _ in range(60):
            await ws.send_json_to({"type": "ping"})
        kinds = []
        while True:
            out = await ws.receive_output(timeout=2)
            if out["type"] == "websocket.close":
                assert out["code"] == 4429
                break
            kinds.append(json.loads(out["text"]).get("code", "pong"))
        assert kinds.count("pong") <= 30
        assert "rate_limited" in kinds
