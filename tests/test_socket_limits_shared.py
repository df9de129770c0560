"""Socket and hint limits shared by every daphne process through Redis
(rooms/limits.py), and the hint search in a process of its own
(rooms/hints.py)."""

import os

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings

from games.engine.hint import hint as engine_hint
from rooms import hints, limits
from tests.room_helpers import guest_cookie_value
from tests.services import Daphne, needs_services, server_env
from tests.waiting import until
from tests.wsclient import Closed, WebSocket


async def counted(key: str, below: int) -> bool:
    """Whether Redis counts fewer than `below` sockets under `key`."""
    return await limits.CLIENTS.get().zcard(key) < below


def needs_redis() -> None:
    if not settings.REDIS_URL:
        if os.environ.get("CI") == "true":
            pytest.fail("REDIS_URL is not set; CI must provide it")
        pytest.skip("needs REDIS_URL")


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
async def test_a_players_sockets_are_counted_across_daphne_processes():
    needs_services("two daphne processes")
    from tests.test_two_daphne import seated_room

    room, ann, _ = await sync_to_async(seated_room)()
    cookie = await sync_to_async(guest_cookie_value)(ann)
    env = server_env()
    one, two = Daphne(env, "daphne one"), Daphne(env, "daphne two")
    try:
        one.wait_ready()
        two.wait_ready()
        held = []
        for _ in range(limits.SOCKETS_PER_SEAT):
            ws = await WebSocket.room(one.port, room.code, cookie)
            assert (await ws.recv_json())["type"] == "hello"
            held.append(ws)
        # The fifth, on the other process, is one too many all the same.
        extra = await WebSocket.room(two.port, room.code, cookie)
        refusal = await extra.recv_json()
        assert (refusal["type"], refusal["code"]) == ("error", "too_many_connections")
        with pytest.raises(Closed) as closed:
            await extra.recv_json()
        assert closed.value.code == 4409
        # One closes on the first process: the second lets a new one in.
        await held.pop().close()
        seat = limits.PREFIX + limits.seat_key(room.code, ann.pk)
        await until(
            lambda: counted(seat, below=limits.SOCKETS_PER_SEAT),
            "the closed socket's release in Redis",
        )
        again = await WebSocket.room(two.port, room.code, cookie)
        assert (await again.recv_json())["type"] == "hello"
        for ws in [*held, again]:
            await ws.close()
    finally:
        one.stop()
        two.stop()


async def test_a_dead_process_sockets_stop_counting(monkeypatch):
    """A process renews the entries of the sockets it holds; once it is
    gone (no renewals), they lapse and the player gets in elsewhere."""
    needs_redis()
    monkeypatch.setattr(limits, "HOLD_S", 2)
    monkeypatch.setattr(limits, "RENEW_S", 0.5)
    dying, other = limits.RedisSockets(), limits.RedisSockets()
    key = "seat:TESTS:1"
    await limits.CLIENTS.get().delete(limits.PREFIX + key)
    for _ in range(2):
        assert await dying.take(key, 2) is not None
    assert await other.take(key, 2) is None
    redis = limits.CLIENTS.get()
    entries = await redis.zrange(limits.PREFIX + key, 0, -1, withscores=True)
    first_hold_ends = max(end for _, end in entries)

    async def past_the_first_hold() -> bool:
        return (await redis.time())[0] > first_hold_ends

    await until(past_the_first_hold, "the end of the first hold")
    assert await other.take(key, 2) is None  # renewed, so still counted
    for task in dying.renewers.values():
        task.cancel()  # the process dies without closing its sockets

    async def let_in() -> bool:
        return await other.take(key, 2) is not None

    await until(let_in, "the dead process's sockets lapsing")


async def test_a_process_cut_off_past_the_hold_brings_nothing_back(monkeypatch):
    """A web machine whose network was cut for longer than the hold: its
    sockets stopped counting meanwhile (their pages reconnected elsewhere),
    and its first renewal once back must not count them again."""
    needs_redis()
    monkeypatch.setattr(limits, "HOLD_S", 2)
    monkeypatch.setattr(limits, "RENEW_S", 3600)  # renewed by hand below
    cut, other = limits.RedisSockets(), limits.RedisSockets()
    key = "seat:TESTS:2"
    redis = limits.CLIENTS.get()
    await redis.delete(limits.PREFIX + key)
    for _ in range(2):
        assert await cut.take(key, 3) is not None
    entries = await redis.zrange(limits.PREFIX + key, 0, -1, withscores=True)
    cut_hold_ends = max(end for _, end in entries)
    # The page's socket on the machine still up: renewed all along, so the
    # player's key lives on with the cut machine's entries in it.
    assert await other.take(key, 3) is not None

    async def past_the_cut_hold() -> bool:
        await other.renew_once()
        return (await redis.time())[0] > cut_hold_ends

    await until(past_the_cut_hold, "the end of the cut machine's hold")
    await cut.renew_once()  # its link is back
    assert await other.take(key, 3) is not None, "lapsed sockets counted again"


async def test_hint_buckets_are_shared_by_processes():
    needs_redis()
    player = 987_654_321
    await limits.CLIENTS.get().delete(f"{limits.PREFIX}hints:{player}")
    one, two = limits.RedisHints(), limits.RedisHints()
    answers = [await (one, two)[k % 2].allow(player) for k in range(4)]
    assert answers == [True] * limits.HINT_BURST + [False]
    # What Redis refused was not a hint: the second process's own bucket
    # is as full as its one allowed hint leaves it.
    assert two.local.buckets[player].tokens >= limits.HINT_BURST - 1 - 0.01


async def test_a_flood_of_hints_is_refused_without_asking_redis(monkeypatch):
    needs_redis()
    player = 987_654_322
    await limits.CLIENTS.get().delete(f"{limits.PREFIX}hints:{player}")
    hints_here = limits.RedisHints()
    for _ in range(limits.HINT_BURST):
        assert await hints_here.allow(player)
    asked = []
    real_get = limits.CLIENTS.get
    monkeypatch.setattr(limits.CLIENTS, "get", lambda: asked.append(1) or real_get())
    assert [await hints_here.allow(player) for _ in range(20)] == [False] * 20
    assert asked == []


def test_the_hint_process_answers_as_the_engine_and_survives_a_kill():
    from games.engine.board import Board
    from games.engine.catalogue import builtin_layouts
    from games.engine.deal import generate_deal

    layout = builtin_layouts()["turtle"]
    board = Board(layout, tuple(generate_deal(layout, 7).faces))
    pool = hints._executor()
    assert hints._ready.wait(30)
    assert hints.solve(board) == engine_hint(board)
    (worker,) = pool._processes.values()
    # Below daphne's priority, so moves get the CPU first on a busy machine.
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    expected = min(19, mine + hints.WORKER_NICENESS)
    assert os.getpriority(os.PRIO_PROCESS, worker.pid) == expected
    worker.kill()  # answered here meanwhile, and a new worker started
    worker.join()
    assert hints.solve(board) == engine_hint(board)
    assert hints._ready.wait(30)
    assert hints._executor() is not pool
    assert hints.solve(board) == engine_hint(board)
