"""A storm of websocket handshakes from one address is refused by the front
proxy, as deploy/nginx/tiles.conf ships it, before daphne does any work;
what gets past is still refused by the app past a seat's sockets (4409),
and everyone else plays on. A real nginx in front of a real daphne, the
client written from docs/protocol.md."""

import asyncio
import os
from collections.abc import Iterator

import pytest
from asgiref.sync import sync_to_async

from rooms import limits
from tests.proxy import Nginx, nginx_binary, shipped_setting
from tests.room_helpers import guest_cookie_value
from tests.services import Daphne, needs_services, server_env
from tests.test_two_daphne import seated_room
from tests.wsclient import Closed, Refused, WebSocket

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

cookie_of = sync_to_async(guest_cookie_value)


@pytest.fixture
def proxied() -> Iterator[int]:
    """A daphne as production runs it (--proxy-headers), behind nginx with
    the shipped limits: the port of nginx."""
    needs_services("a daphne process")
    binary = nginx_binary()
    if binary is None:
        reason = "nginx is not installed (apt-get install nginx-light)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    daphne = Daphne(server_env(), options=("--proxy-headers",))
    daphne.wait_ready()
    nginx = Nginx(binary, daphne.port)
    try:
        nginx.wait_ready()
        yield nginx.port
    finally:
        nginx.stop()
        daphne.stop()


def too_many(error: BaseException) -> bool:
    """A handshake refused by the proxy: 429, and when to try again."""
    return (
        isinstance(error, Refused)
        and " 429 " in error.status
        and error.headers.get("retry-after") == "10"
    )


async def first_message(ws: WebSocket) -> str:
    """hello, or the reason a socket is refused past the proxy."""
    message = await ws.recv_json()
    if message["type"] == "error":
        with pytest.raises(Closed) as closed:
            await ws.recv_json()
        assert closed.value.code == 4409
        return message["code"]
    return message["type"]


async def test_a_storm_from_one_address_is_refused_by_the_proxy(proxied):
    room, ann, bob = await sync_to_async(seated_room)()
    ann_cookie, bob_cookie = await cookie_of(ann), await cookie_of(bob)
    storm = await asyncio.gather(
        *(
            WebSocket.room(proxied, room.code, ann_cookie, source="127.0.0.7")
            for _ in range(60)
        ),
        return_exceptions=True,
    )
    opened = [ws for ws in storm if isinstance(ws, WebSocket)]
    refused = [e for e in storm if not isinstance(e, WebSocket)]
    # The proxy lets a burst through (and a handshake more should its rate
    # tick over meanwhile); the rest never reach daphne.
    burst = shipped_setting(r"zone=handshakes_per_address burst=(\d+)")
    assert burst + 1 <= len(opened) <= burst + 2
    assert all(too_many(e) for e in refused)
    # Past the proxy, the app still holds a seat to its sockets: the rest
    # are told why and closed.
    firsts = sorted(await asyncio.gather(*(first_message(ws) for ws in opened)))
    extra = len(opened) - limits.SOCKETS_PER_SEAT
    assert (
        firsts == ["hello"] * limits.SOCKETS_PER_SEAT + ["too_many_connections"] * extra
    )
    # Bob, from his own address, is let in at once.
    bob_ws = await WebSocket.room(proxied, room.code, bob_cookie, source="127.0.0.8")
    assert (await bob_ws.recv_json())["type"] == "hello"
    for ws in [*opened, bob_ws]:
        await ws.close()
