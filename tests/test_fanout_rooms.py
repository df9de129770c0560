"""A process hears each room once (issue 29): its sockets of a room share
one subscription, every one of them gets each move, and the subscription
goes with the room's last socket."""

import asyncio
import time

import pytest
from channels.db import database_sync_to_async

from rooms import actions, consumers
from rooms.publish import group_name
from sitewide import pubsub
from tests.test_room_consumer import (  # noqa: F401  (fresh_layer: autouse)
    connect,
    fresh_layer,
    joined,
    racing_room,
    reply_to,
    version,
)

pytestmark = [pytest.mark.django_db(transaction=True)]


def record(monkeypatch, name: str) -> list[str]:
    """The groups the process's fan-out `name`s (subscribe, unsubscribe),
    over Redis or the in-memory layer alike."""
    calls: list[str] = []
    for bus in (pubsub.RedisBus, pubsub.LayerBus):
        real = getattr(bus, name)

        async def recording(self, group, real=real):
            calls.append(group)
            await real(self, group)

        monkeypatch.setattr(bus, name, recording)
    return calls


async def test_every_socket_of_a_room_sees_a_move_through_one_subscription(
    monkeypatch,
):
    room, ann, bob, pairs = await racing_room()
    adds, discards = (
        record(monkeypatch, "subscribe"),
        record(monkeypatch, "unsubscribe"),
    )
    # Bob's other tabs too: four sockets of the room in this process.
    sockets = [await joined(room, ann), *[await joined(room, bob) for _ in range(3)]]
    assert adds == [group_name(room.code)]
    a, b = pairs[0]
    ack = await reply_to(sockets[0], {"type": "take", "a": a, "b": b, "move": 0})
    assert ack["v"] == await version(room)
    for ws in sockets[1:]:
        seen = await ws.receive_json_from(timeout=3)
        assert (seen["type"], seen["events"][-1]["v"]) == ("events", ack["v"])
    for ws in sockets:
        await ws.disconnect()
    assert discards == [group_name(room.code)]
    assert pubsub.fanout().listeners == {}


async def test_a_socket_still_hears_its_room_after_the_first_one_closed():
    room, ann, bob, pairs = await racing_room()
    first, second = await joined(room, ann), await joined(room, bob)
    await first.disconnect()
    await database_sync_to_async(actions.take_pair)(room.code, ann, *pairs[0], 0)
    seen = await second.receive_json_from(timeout=3)
    assert (seen["type"], seen["events"][-1]["v"]) == ("events", await version(room))
    await second.disconnect()


async def test_a_consumer_cancelled_while_it_stops_its_reader_still_ends():
    """daphne's shutdown cancels every socket's consumer and waits for them
    all: one that swallowed the cancel while it stopped its room's reader
    held the process up until systemd killed it, 15 s later."""

    async def slow_to_stop():
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            await asyncio.sleep(0.2)  # a connection closing
            raise

    reader = asyncio.create_task(slow_to_stop())
    await asyncio.sleep(0)
    consumer = asyncio.create_task(pubsub.stopped(reader))
    await asyncio.sleep(0.05)
    consumer.cancel()
    with pytest.raises(asyncio.CancelledError):
        await consumer


async def test_a_move_made_while_a_socket_connects_comes_in_its_state(monkeypatch):
    """The room is heard from before the state is read, but its messages
    wait for the state: hello, then the state, and no event it holds."""
    room, ann, bob, pairs = await racing_room()
    read = consumers._catch_up

    def moved_meanwhile(code, since):
        actions.take_pair(code, bob, *pairs[0], 0)
        time.sleep(0.3)  # its event reaches this process meanwhile
        return read(code, since)

    monkeypatch.setattr(consumers, "_catch_up", moved_meanwhile)
    ws, connected = await connect(room, ann)
    assert connected
    assert (await ws.receive_json_from())["type"] == "hello"
    state = await ws.receive_json_from()
    assert (state["type"], state["version"]) == ("state", await version(room))
    assert await ws.receive_nothing(timeout=0.5)
    await ws.disconnect()
