"""Processes that end cleanly (issue 25): nothing of the project outlives
the process that started it, however that process ends."""

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from asgiref.sync import sync_to_async

from rooms import actions, limits
from tests.room_helpers import guest_cookie_value, person
from tests.services import Daphne, needs_services, server_env
from tests.wsclient import Closed, WebSocket

ROOT = Path(__file__).resolve().parent.parent
HINT_WORKER = """
import time
from rooms import hints
hints.start()
while not hints._ready.is_set():
    time.sleep(0.05)
print("ready", flush=True)
time.sleep(60)
"""


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(c) for c in path.read_text().split()] if path.exists() else []


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_the_hint_worker_dies_with_its_daphne_even_on_kill_9():
    parent = subprocess.Popen(
        [sys.executable, "-c", HINT_WORKER],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    left: list[int] = []
    try:
        assert parent.stdout.readline().strip() == "ready"
        left = children(parent.pid)
        assert left, "the hint worker (and its resource tracker) run"
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 5
        while any(map(alive, left)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in left if alive(pid)], "orphaned hint workers"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for pid in left:  # what a failure left behind (these pids only)
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def seated_room():
    ann, bob = person("Ann"), person("Bob")
    room = actions.create_room(ann, "Ann")
    actions.join_room(room.code, bob, "Bob")
    return room, ann


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
async def test_sigterm_tells_each_socket_the_server_restarts_and_daphne_ends():
    """systemctl stop: every page gets close 1012 (it reconnects at once
    to another process) and daphne ends well within TimeoutStopSec."""
    needs_services("a daphne process")
    room, ann = await sync_to_async(seated_room)()
    daphne = Daphne(server_env())
    try:
        daphne.wait_ready()
        cookie = await sync_to_async(guest_cookie_value)(ann)
        ws = await WebSocket.room(daphne.port, room.code, cookie)
        while (await ws.recv_json())["type"] != "state":
            pass
        stopped = time.monotonic()
        daphne.proc.send_signal(signal.SIGTERM)
        with pytest.raises(Closed) as closed:
            while True:
                await ws.recv_json(timeout=15)
        assert closed.value.code == 1012
        told = time.monotonic() - stopped
        assert told < 1, f"the close came {told:.1f} s after SIGTERM"
        await asyncio.to_thread(daphne.proc.wait, unit_stop_seconds())
        assert time.monotonic() - stopped < unit_stop_seconds()
    finally:
        daphne.stop()


async def recv_until_closed(ws: WebSocket) -> int | None:
    with pytest.raises(Closed) as closed:
        while True:
            await ws.recv_json(timeout=15)
    return closed.value.code


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
async def test_a_socket_opened_while_daphne_stops_is_told_too_and_stops_counting():
    """nginx keeps connections open to each daphne for its next requests,
    so a handshake can reach a daphne after its stop began. That socket is
    told 1012 as well, and once the process is gone nothing of it counts
    against the player's sockets (rooms/limits.py): a player who came back
    through a few restarts was refused as having 4 sockets open."""
    needs_services("a daphne process")
    room, ann = await sync_to_async(seated_room)()
    seat = limits.PREFIX + limits.seat_key(room.code, ann.pk)
    counts = redis.Redis.from_url(os.environ["REDIS_URL"])
    daphne = Daphne(server_env())
    try:
        daphne.wait_ready()
        cookie = await sync_to_async(guest_cookie_value)(ann)
        site = f"127.0.0.1:{daphne.port}"
        # nginx's kept-alive connection: one request answered, left open.
        reader, writer = await asyncio.open_connection("127.0.0.1", daphne.port)
        writer.write(f"GET /healthz HTTP/1.1\r\nHost: {site}\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        assert b"transfer-encoding: chunked" in head.lower(), head
        await reader.readuntil(b"\r\n0\r\n\r\n")  # the last chunk
        ws = await WebSocket.room(daphne.port, room.code, cookie)
        while (await ws.recv_json())["type"] != "state":
            pass
        daphne.proc.send_signal(signal.SIGTERM)
        assert await recv_until_closed(ws) == 1012  # the stop has begun
        late = await WebSocket.over(
            reader,
            writer,
            site,
            f"/ws/rooms/{room.code}/",
            {"Origin": f"http://{site}", "Cookie": f"tiles_player={cookie}"},
        )
        assert await recv_until_closed(late) == 1012
        await asyncio.to_thread(daphne.proc.wait, unit_stop_seconds())
        assert counts.zcard(seat) == 0, counts.zrange(seat, 0, -1)
    finally:
        daphne.stop()
        counts.close()


def unit_stop_seconds() -> int:
    unit = (ROOT / "deploy/systemd/tiles-web@.service").read_text()
    return int(unit.split("TimeoutStopSec=")[1].split()[0])
