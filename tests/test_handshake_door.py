"""The door (config/handshake_refusal.py): a storm of websocket handshakes
is answered 429 in daphne's HTTP layer, before any work, while everyone
else plays on. On a real daphne, as a client written from
docs/protocol.md sees it."""

import asyncio

import pytest
from asgiref.sync import sync_to_async

from rooms import limits
from tests.room_helpers import guest_cookie_value
from tests.services import Daphne, needs_services, server_env
from tests.test_two_daphne import seated_room
from tests.wsclient import Closed, Refused, WebSocket

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

cookie_of = sync_to_async(guest_cookie_value)


async def welcome_again(port: int, code: str, cookie: str, via: dict) -> WebSocket:
    """A socket from the address `via` names, once the server has counted a
    close there: refused (429) until then, as a reconnecting client is."""
    deadline = asyncio.get_running_loop().time() + 10
    while True:
        try:
            ws = await WebSocket.room(port, code, cookie, **via)
        except Refused as refused:
            assert too_many(refused), refused
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.05)
            continue
        assert (await ws.recv_json())["type"] == "hello"
        return ws


def too_many(error: BaseException) -> bool:
    """A handshake refused at the door: 429, and when to try again."""
    return (
        isinstance(error, Refused)
        and " 429 " in error.status
        and error.headers.get("retry-after") == "10"
    )


async def first_message(ws: WebSocket) -> str:
    """hello, or the reason a socket is refused past the door."""
    message = await ws.recv_json()
    if message["type"] == "error":
        with pytest.raises(Closed) as closed:
            await ws.recv_json()
        assert closed.value.code == 4409
        return message["code"]
    return message["type"]


@pytest.fixture
def start_daphne():
    """Starts a daphne process with these options; all stop at the end."""
    needs_services("a daphne process")
    started = []

    def start(*options: str) -> Daphne:
        server = Daphne(server_env(), options=options)
        started.append(server)
        server.wait_ready()
        return server

    yield start
    for server in started:
        server.stop()


async def test_a_storm_from_one_device_is_refused_at_the_door(start_daphne):
    daphne = start_daphne()
    room, ann, bob = await sync_to_async(seated_room)()
    ann_cookie, bob_cookie = await cookie_of(ann), await cookie_of(bob)
    storm = await asyncio.gather(
        *(WebSocket.room(daphne.port, room.code, ann_cookie) for _ in range(60)),
        return_exceptions=True,
    )
    opened = [ws for ws in storm if isinstance(ws, WebSocket)]
    # A person's sockets and one more, to be told why; the rest never
    # reach the application.
    assert len(opened) == limits.HANDSHAKE_BURST
    assert all(too_many(e) for e in storm if not isinstance(e, WebSocket))
    # Read at once: a refused socket not answering the server's close in
    # time is dropped (a reset, which loses what was still unread).
    firsts = sorted(await asyncio.gather(*(first_message(ws) for ws in opened)))
    extra = limits.HANDSHAKE_BURST - limits.SOCKETS_PER_SEAT
    assert (
        firsts == ["hello"] * limits.SOCKETS_PER_SEAT + ["too_many_connections"] * extra
    )
    # Bob, on his own device, is let in at once.
    bob_ws = await WebSocket.room(daphne.port, room.code, bob_cookie)
    assert (await bob_ws.recv_json())["type"] == "hello"
    for ws in [*opened, bob_ws]:
        await ws.close()


def directly(address: str) -> dict:
    return {"source": address}


def behind_a_proxy(address: str) -> dict:
    return {"headers": {"X-Forwarded-For": address}}


@pytest.mark.parametrize(
    ("options", "reach", "address", "other"),
    [
        ((), directly, "127.0.0.7", "127.0.0.8"),
        # As production runs it behind nginx: the client's address is the
        # X-Forwarded-For the proxy sets.
        (("--proxy-headers",), behind_a_proxy, "203.0.113.7", "203.0.113.8"),
    ],
)
async def test_a_full_address_is_refused_at_the_door(
    start_daphne, options, reach, address, other
):
    """SOCKETS_PER_ADDRESS sockets from one address (8 people, 4 each):
    a ninth person there gets 429, the same person elsewhere gets in."""
    port = start_daphne(*options).port
    rooms = [await sync_to_async(seated_room)() for _ in range(5)]
    held = []
    for room, *people in rooms[:4]:
        for person in people:
            cookie = await cookie_of(person)
            for _ in range(limits.SOCKETS_PER_SEAT):
                ws = await WebSocket.room(port, room.code, cookie, **reach(address))
                assert (await ws.recv_json())["type"] == "hello"
                held.append(ws)
    assert len(held) == limits.SOCKETS_PER_ADDRESS
    room, ninth, _ = rooms[4]
    cookie = await cookie_of(ninth)
    with pytest.raises(Refused) as refused:
        await WebSocket.room(port, room.code, cookie, **reach(address))
    assert too_many(refused.value)
    elsewhere = await WebSocket.room(port, room.code, cookie, **reach(other))
    assert (await elsewhere.recv_json())["type"] == "hello"
    # One of the address's sockets closes: the address is welcome again.
    await held.pop().close()
    back = await welcome_again(port, room.code, cookie, reach(address))
    for ws in [*held, elsewhere, back]:
        await ws.close()
