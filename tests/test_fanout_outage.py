"""A room socket open through a Redis restart (issue 29): what changed while
Redis was away shows in the next pong's version (the page then syncs), and
the room's later changes arrive live again, with no new handshake."""

import asyncio

import pytest
import redis
from django.contrib.auth import get_user_model

from sitewide.pubsub import decode, encode
from tests.outage_helpers import Device, daphne_on_own_redis
from tests.services import needs_services
from tests.test_outages import PASSWORD, host_room
from tests.waiting import until
from tests.wsclient import WebSocket


def join(port: int, code: str, name: str) -> None:
    device = Device(port)
    device.csrf_from("/rooms/")
    assert device.post("/rooms/join", {"code": code, "name": name}).status == 302


def subscribed(url: str, code: str) -> bool:
    """Whether some process listens to the room on this Redis."""
    with redis.Redis.from_url(url) as client:
        return bool(client.pubsub_channels(f"*room.{code}"))


async def next_events(ws: WebSocket) -> dict:
    while (message := await ws.recv_json(timeout=10))["type"] != "events":
        pass
    return message


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_socket_hears_its_room_again_after_redis_restarts():
    needs_services("the Redis restart")
    get_user_model().objects.create_user("ana", password=PASSWORD)
    with daphne_on_own_redis() as (own, daphne):
        ann = Device(daphne.port)
        code = host_room(ann)
        cookie = ann.cookie("tiles_player")

        async def run() -> None:
            ws = await WebSocket.room(daphne.port, code, cookie)
            assert (await ws.recv_json())["type"] == "hello"
            version = (await ws.recv_json())["version"]  # the full state
            await asyncio.to_thread(own.stop)
            # Bob's join is saved; its notification has nowhere to go.
            await asyncio.to_thread(join, daphne.port, code, "Bob")
            await asyncio.to_thread(own.start)
            await ws.send_json({"type": "ping", "ref": "p"})
            while (pong := await ws.recv_json())["type"] != "pong":
                pass
            assert pong["v"] > version  # behind: the page syncs
            # The subscription comes back by itself.
            await until(
                lambda: asyncio.to_thread(subscribed, own.url, code),
                "the room subscribed again",
            )
            await asyncio.to_thread(join, daphne.port, code, "Cleo")
            seen = await next_events(ws)
            assert seen["events"][-1]["v"] > pong["v"]
            await ws.close()

        asyncio.run(run())


def test_a_rooms_events_cross_redis_as_sent():
    text = '{"type": "events", "events": [{"v": 7, "kind": "x", "data": "a\\nü"}]}'
    message = {"type": "room.events", "group": "room.K7QX", "text": text, "last": 7}
    assert decode(encode(message).encode()) == message
    unseated = {"type": "room.unseated", "group": "room.K7QX", "seat": 2}
    assert decode(encode(unseated).encode()) == unseated
