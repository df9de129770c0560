"""What a room socket's actions get from the thread they run on
(`rooms.consumers.in_thread`): the socket's language, and Django's care of
the thread's database connection (a broken one is closed, and the next
call opens a new one)."""

import asyncio
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import OperationalError, connection
from django.utils import translation

from config.asgi import application
from rooms import actions, consumers
from rooms.consumers import in_thread
from tests.room_helpers import guest_cookie_value, person
from tests.services import terminate_backend
from tests.test_room_consumer import (  # noqa: F401  (fresh_layer: autouse)
    HOST,
    ORIGIN,
    connect,
    fresh_layer,
    racing_room,
    reply_to,
    version,
)

pytestmark = [pytest.mark.django_db(transaction=True)]


def needs_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("ends a PostgreSQL backend")


def backend_pid() -> int:
    """This thread's PostgreSQL backend (opening its connection if none)."""
    connection.ensure_connection()
    return connection.connection.info.backend_pid


def close() -> None:
    connection.close()  # this thread's (`connection.close` is the caller's)


def select_one() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return cursor.fetchone()[0]


async def test_a_connection_broken_in_a_call_is_replaced_for_the_next():
    needs_postgresql()
    one = ThreadPoolExecutor(max_workers=1)  # both calls on the one thread
    pids = []

    def broken() -> None:
        pids.append(backend_pid())
        terminate_backend(pids[0])
        select_one()

    try:
        with pytest.raises(OperationalError):
            await in_thread(broken, one)()
        # Closed after the failed call: the thread's next query reconnects.
        assert await in_thread(select_one, one)() == 1
        assert await in_thread(backend_pid, one)() != pids[0]
    finally:
        await in_thread(close, one)()
        one.shutdown()


async def test_a_backend_ended_mid_session_fails_one_move_only(monkeypatch):
    needs_postgresql()
    # Every action of the socket on one thread, so the move sent again runs
    # on the connection whose backend ended, unless it was replaced.
    one = ThreadPoolExecutor(max_workers=1)
    asyncio.get_running_loop().set_default_executor(one)
    room, ann, bob, pairs = await racing_room()
    take = consumers.ACTIONS["take"]
    pids = []

    def ended_once(*args, **kwargs):
        pids.append(backend_pid())
        if len(pids) == 1:
            terminate_backend(pids[0])
        return take(*args, **kwargs)

    monkeypatch.setitem(consumers.ACTIONS, "take", ended_once)
    ws, connected = await connect(room, ann)
    assert connected
    await ws.receive_json_from()  # hello
    await ws.receive_json_from()  # the state
    before = await version(room)
    pair = {"type": "take", "a": pairs[0][0], "b": pairs[0][1], "move": 0}
    error = await reply_to(ws, {**pair, "ref": 1})
    assert (error["type"], error["code"], error["ref"]) == ("error", "unavailable", 1)
    assert await version(room) == before
    ack = await reply_to(ws, {**pair, "ref": 2})
    assert (ack["type"], ack["ref"]) == ("ack", 2)
    assert ack["v"] == await version(room) > before
    assert pids[1] != pids[0]
    await ws.disconnect()
    one.submit(close).result()


@database_sync_to_async
def undealt_room():
    """Ann hosts and Bob joins; nothing is dealt."""
    ann, bob = person("Ann"), person("Bob")
    room = actions.create_room(ann, "Ann")
    actions.join_room(room.code, bob, "Bob")
    return room, bob


async def test_an_actions_refusal_is_worded_in_the_sockets_language():
    # Worded on the action's thread (rooms.moves), in the language the
    # socket's handshake set, for every message of the socket.
    room, bob = await undealt_room()
    cookie = await database_sync_to_async(guest_cookie_value)(bob)
    cookies = f"tiles_player={cookie}; django_language=ne".encode()
    headers = [HOST, ORIGIN, (b"cookie", cookies)]
    ws = WebsocketCommunicator(application, f"/ws/rooms/{room.code}/", headers)
    assert (await ws.connect())[0]
    await ws.receive_json_from()  # hello
    await ws.receive_json_from()  # the state
    for ref in (1, 2):
        refused = await reply_to(ws, {"type": "safety", "move": 0, "ref": ref})
        assert (refused["code"], refused["ref"]) == ("no_race", ref)
        assert refused["message"] == "अहिले कुनै दौड चलिरहेको छैन"
    await ws.disconnect()


MARK: ContextVar[str] = ContextVar("mark", default="unset")


def seen() -> tuple[str | None, str]:
    return translation.get_language(), MARK.get()


def sets_its_own() -> tuple[str | None, str]:
    translation.activate("en")
    MARK.set("the thread's")
    return seen()


async def test_a_call_has_the_callers_context_and_leaves_nothing():
    # asgiref's Local (the language) hides the loop thread's values from
    # other threads, unlike a context variable: `in_thread` sets it again.
    one = ThreadPoolExecutor(max_workers=1)
    try:
        MARK.set("the caller's")
        translation.activate("ne")
        assert await in_thread(seen, one)() == ("ne", "the caller's")
        # What the call sets stays in its copy: not the caller's, nor the
        # thread's for whatever it runs next.
        assert await in_thread(sets_its_own, one)() == ("en", "the thread's")
        assert seen() == ("ne", "the caller's")
        assert one.submit(seen).result() == (settings.LANGUAGE_CODE, "unset")
    finally:
        translation.deactivate()
        one.shutdown()
