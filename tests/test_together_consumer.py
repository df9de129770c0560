"""Together over the room websocket, and the read-only watcher socket: turns
are enforced for the connection's own seat, the timer's timeouts reach
everyone, late arrivals watch, reconnects get the state without the bots'
plan, leaving the game screen skips a player, and watchers get updates but
can never act."""

import asyncio
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from rooms import actions, consumers
from rooms.models import Room
from rooms.publish import group_name
from rooms.together import DROP_GRACE_MS, TURN_MS
from tests.room_helpers import person
from tests.test_fanout_rooms import record

# fresh_layer: the same new in-memory channel layer per test (autouse).
from tests.test_room_consumer import (  # noqa: F401
    HOST,
    ORIGIN,
    connect,
    fresh_layer,
    joined,
    reply_to,
    version,
)

pytestmark = [pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def together_room():
    """Ann hosts, Bob joins, a Small pile is dealt for Together; built."""
    ann, bob = person("Ann"), person("Bob")
    room = actions.create_room(ann, "Ann")
    actions.join_room(room.code, bob, "Bob")
    actions.start_game(room.code, ann)
    actions.deal_round(room.code, ann, "together", "small", 0)
    rnd = Room.objects.get(pk=room.pk).current_round
    rnd.running_since = rnd.dealt_at  # no wait for the pile to build
    rnd.save()
    return room, ann, bob


@database_sync_to_async
def free_pair(room) -> list[int]:
    state = Room.objects.get(pk=room.pk).current_round.together_state()
    return list(state.board().free_pairs()[0])


@database_sync_to_async
def turn_seat(room) -> int | None:
    return Room.objects.get(pk=room.pk).current_round.together_state().turn_seat


@database_sync_to_async
def let_time_pass(room, ms: int) -> bool:
    """Move the game's clock `ms` on, then run the timer."""
    rnd = Room.objects.get(pk=room.pk).current_round
    rnd.running_since -= timedelta(milliseconds=ms)
    rnd.save()
    Room.objects.filter(pk=room.pk).update(wake_at=rnd.running_since)
    return actions.apply_due_timers(room.pk)


async def until_back(room, seat: int) -> None:
    """Wait for a reconnected socket's "back" to reach the game (the
    consumer sends it after the catch-up the test has already read)."""

    @database_sync_to_async
    def pending() -> bool:
        state = Room.objects.get(pk=room.pk).current_round.together_state()
        return state.seats[state.find(seat)].gone_at_ms is not None

    for _ in range(100):
        if not await pending():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the reconnect never counted as back")


async def settled(ws) -> None:
    """Wait until the socket's connect has finished: its last step marks
    the player back on the game screen, after the catch-up `joined` reads.
    Moving the clock before that lets the connect's own look at the state
    run the due turn, or hold the room's lock when the timer comes."""
    assert (await reply_to(ws, {"type": "ping", "ref": "p"}))["type"] == "pong"


async def run_out_the_turn(room) -> bool:
    """Move the game's clock past the turn's deadline, then run the timer."""
    return await let_time_pass(room, TURN_MS)


async def next_together(ws) -> dict:
    """The data of the next "together" event broadcast to `ws`."""
    while True:
        message = await ws.receive_json_from(timeout=3)
        if message["type"] != "events":
            continue
        for event in message["events"]:
            if event["kind"] == "together":
                return event["data"]


def take(pair, ref="t") -> dict:
    return {"type": "take", "a": pair[0], "b": pair[1], "move": 0, "ref": ref}


class TestTurns:
    async def test_only_the_seat_whose_turn_it_is_may_take(self):
        room, ann, bob = await together_room()
        ws_ann, ws_bob = await joined(room, ann), await joined(room, bob)
        pair = await free_pair(room)
        refused = await reply_to(ws_bob, take(pair))
        assert (refused["type"], refused["code"]) == ("error", "not_your_turn")
        ack = await reply_to(ws_ann, take(pair))
        assert ack["type"] == "ack"
        data = await next_together(ws_bob)
        assert data["moves"][0]["seat"] == 0 and data["turn_seat"] == 1
        assert "plan" not in data
        again = await reply_to(ws_ann, take(await free_pair(room)))
        assert again["code"] == "not_your_turn"
        await ws_ann.disconnect()
        await ws_bob.disconnect()

    async def test_no_message_names_a_seat_to_act_for(self):
        room, ann, bob = await together_room()
        ws = await joined(room, bob)
        message = {**take(await free_pair(room)), "seat": 0}
        assert (await reply_to(ws, message))["code"] == "bad_message"
        await ws.disconnect()

    async def test_the_hint_only_on_your_turn(self):
        room, ann, bob = await together_room()
        ws_ann, ws_bob = await joined(room, ann), await joined(room, bob)
        assert (await reply_to(ws_bob, {"type": "hint", "ref": 1}))["code"] == (
            "not_your_turn"
        )
        hint = await reply_to(ws_ann, {"type": "hint", "ref": 2})
        assert hint["type"] == "hint" and len(hint["pair"]) == 2
        await ws_ann.disconnect()
        await ws_bob.disconnect()

    async def test_a_turn_that_runs_out_reaches_everyone_through_the_timer(self):
        room, ann, bob = await together_room()
        ws = await joined(room, bob)
        await settled(ws)
        assert await run_out_the_turn(room)
        data = await next_together(ws)
        assert data["turn_seat"] == 1 and data["moves"] == []
        assert data["seats"][0]["turns"] == 1
        await ws.disconnect()


class TestComingAndGoing:
    async def test_a_late_arrival_watches_this_pile(self):
        room, ann, bob = await together_room()
        cat = await database_sync_to_async(_join)(room, "Cat")
        ws = await joined(room, cat)
        refused = await reply_to(ws, take(await free_pair(room)))
        assert refused["code"] == "not_seated"
        await ws.disconnect()

    async def test_a_reconnect_gets_the_state_without_the_plan(self):
        room, ann, bob = await together_room()
        ws, _ = await connect(room, ann)
        await ws.receive_json_from()
        state = await ws.receive_json_from()
        assert state["type"] == "state"
        assert state["round"]["mode"] == "together"
        assert "plan" not in json.dumps(state)
        assert [s["seat"] for s in state["round"]["seats"]] == [0, 1]
        await ws.disconnect()

    async def test_off_the_game_screen_the_turn_passes_and_comes_back(self):
        room, ann, bob = await together_room()
        ws_ann = await joined(room, ann)
        assert (await reply_to(ws_ann, {"type": "visible", "visible": False}))[
            "type"
        ] == "ack"
        assert await turn_seat(room) == 1
        await reply_to(ws_ann, {"type": "visible", "visible": True})
        ws_bob = await joined(room, bob)
        await reply_to(ws_bob, take(await free_pair(room)))
        assert await turn_seat(room) == 0
        await ws_ann.disconnect()  # a dropped socket: away after the grace
        assert await turn_seat(room) == 0
        assert await let_time_pass(room, DROP_GRACE_MS + 1)
        assert await turn_seat(room) == 1
        await ws_bob.disconnect()

    async def test_an_old_socket_ending_after_a_new_one_opened_keeps_the_turn(self):
        """A phone that lost its signal connects again at once, and the
        server sees its old socket end only later: Ann is still there."""
        room, ann, bob = await together_room()
        old = await joined(room, ann)
        await settled(old)
        new = await joined(room, ann)
        await settled(new)
        await old.disconnect()
        await let_time_pass(room, DROP_GRACE_MS + 1)
        assert await turn_seat(room) == 0
        await new.disconnect()  # her latest socket: this one counts
        assert await let_time_pass(room, DROP_GRACE_MS + 1)
        assert await turn_seat(room) == 1

    async def test_a_reload_on_your_turn_keeps_it(self):
        room, ann, bob = await together_room()
        ws_bob = await joined(room, bob)
        ws_ann = await joined(room, ann)
        await ws_ann.disconnect()  # the page reloads...
        await let_time_pass(room, DROP_GRACE_MS - 2000)
        ws_ann = await joined(room, ann)  # ...and is back within the grace
        await until_back(room, 0)
        await let_time_pass(room, 5000)
        assert await turn_seat(room) == 0
        assert (await reply_to(ws_ann, take(await free_pair(room))))["type"] == "ack"
        assert await turn_seat(room) == 1
        await ws_ann.disconnect()
        await ws_bob.disconnect()


def _join(room, name):
    player = person(name)
    actions.join_room(room.code, player, name)
    return player


async def watch(room):
    ws = WebsocketCommunicator(
        application, f"/ws/watch/{room.code}/", headers=[HOST, ORIGIN]
    )
    connected, _ = await ws.connect()
    assert connected
    return ws


class TestWatchers:
    async def test_a_watcher_gets_the_state_and_its_updates(self):
        room, ann, bob = await together_room()
        tv = await watch(room)
        assert (await tv.receive_json_from())["seat"] is None
        first = await tv.receive_json_from(timeout=3)
        assert first["type"] == "state" and first["watch"] is True
        assert first["version"] == await version(room)
        assert "plan" not in json.dumps(first)
        ws = await joined(room, ann)
        await reply_to(ws, take(await free_pair(room)))
        update = await tv.receive_json_from(timeout=3)
        assert update["type"] == "state"
        assert update["round"]["moves"][0]["seat"] == 0
        await ws.disconnect()
        await tv.disconnect()

    @pytest.mark.parametrize(
        "message",
        [
            {"type": "take", "a": 0, "b": 1, "move": 0},
            {"type": "pause"},
            {"type": "deal", "mode": "race", "pile": "small", "limit": 0},
            {"type": "leave"},
            {"type": "visible", "visible": False},
        ],
    )
    async def test_a_watcher_can_never_act(self, message):
        room, ann, bob = await together_room()
        tv = await watch(room)
        await tv.receive_json_from()
        await tv.receive_json_from(timeout=3)
        before = await version(room)
        await tv.send_json_to({**message, "ref": "w"})
        reply = await tv.receive_json_from()
        assert (reply["type"], reply["code"], reply["ref"]) == (
            "error",
            "watching",
            "w",
        )
        assert await version(room) == before
        await tv.disconnect()

    async def test_an_unknown_room_is_closed(self):
        room, *_ = await together_room()
        ws = WebsocketCommunicator(
            application, "/ws/watch/ZZZZZ/", headers=[HOST, ORIGIN]
        )
        await ws.connect()
        out = await ws.receive_output()
        assert (out["type"], out["code"]) == ("websocket.close", 4404)

    async def test_many_watchers_cost_the_players_nothing(self, monkeypatch):
        """Watchers never subscribe to the room's group (a move is sent to
        the players alone), and all the watchers of a room in a process share
        one read of the room every half second."""
        room, ann, bob = await together_room()
        reads = []
        real = consumers._open_room_version
        monkeypatch.setattr(
            consumers,
            "_open_room_version",
            lambda code: reads.append(code) or real(code),
        )
        joins = record(monkeypatch, "subscribe")
        ws = await joined(room, ann)
        tvs = [await watch(room) for _ in range(20)]
        for tv in tvs:
            await tv.receive_json_from()  # hello
            assert (await tv.receive_json_from(timeout=3))["type"] == "state"
        assert joins == [group_name(room.code)]  # Ann's socket only
        reads.clear()
        await asyncio.sleep(1.2)  # a window: the feed reads twice a second
        assert 1 <= len(reads) <= 3
        for tv in tvs:
            await tv.disconnect()
        await ws.disconnect()
        assert room.code not in consumers.WatchFeed.feeds
