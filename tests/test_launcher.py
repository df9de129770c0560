"""scripts/serve.py in production shape (two daphne processes on one socket
and the timer process) survives a crash of any one of them.

kill -9 of the daphne a player is on mid-race: the other keeps serving its
player, the dead one is started again within 5 s, the player reconnects and
no acknowledged move is lost. kill -9 of the timer process during a Together
turn: it comes back and the turn runs out exactly once.
"""

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from datetime import datetime

import pytest
from asgiref.sync import sync_to_async

from rooms import actions
from tests.room_helpers import guest_cookie_value, person, solution
from tests.seat_client import WAIT_S, Seat, start_race, take_in_turns
from tests.services import Process, free_port, needs_services, server_env

# A dead daphne is started again after 0.5 s and listens about 1.5 s after
# it died (here, load 9 on 2 cores): "back" within 5 s, or, on a machine so
# busy that a first start took longer (13 s at load 15), no slower than that
# first start in the same run. READY_S only bounds the wait for its log
# line, so a slow start fails on the bound, not a hang.
BACK_S = 5.0
READY_S = 30.0
cookie = sync_to_async(guest_cookie_value)


class Serve(Process):
    """scripts/serve.py, whose log names each part's pid as it starts it."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        self.port = free_port()
        cmd = [sys.executable, "scripts/serve.py", "--port", str(self.port), *args]
        super().__init__(cmd, env, "serve.py")

    def pids(self, part: str) -> list[int]:
        found = (
            re.search(rf"started {part} \(pid (\d+)\)", line) for line in self.lines
        )
        return [int(m.group(1)) for m in found if m]

    def stamp(self, pattern: str, nth: int = 0) -> datetime:
        """The time on the nth log line matching `pattern`."""
        lines = [line for line in self.lines if re.search(pattern, line)]
        assert len(lines) > nth, f"no line {pattern!r}\n{self.log()}"
        return datetime.fromisoformat(lines[nth].split(" ", 1)[0])

    def listening(self) -> int:
        return sum("Listening on TCP address" in line for line in self.lines)

    async def until(self, check, what: str, within: float = 60.0) -> float:
        """Seconds until check() held; fails after `within`."""
        started = time.monotonic()
        while not check():
            if self.proc.poll() is not None:
                pytest.fail(f"serve.py exited while waiting for {what}\n{self.log()}")
            if time.monotonic() - started > within:
                pytest.fail(f"no {what} within {within} s\n{self.log()}")
            await asyncio.sleep(0.05)
        return time.monotonic() - started


def daphne_of(seat: Seat, server: Serve) -> int:
    """The pid of the daphne process holding this client's connection.

    Both ends are named: Linux hands one ephemeral port to connections to
    different servers, so a match on the client's port alone can be the
    machine's Redis or PostgreSQL talking to a namesake port (this test once
    killed CI's Redis that way)."""
    client_port = seat.ws.writer.get_extra_info("sockname")[1]
    ends = f"( sport = :{server.port} and dport = :{client_port} )"
    out = subprocess.run(
        ["ss", "-tnpH", "state", "established", ends],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    pid = int(re.search(r"pid=(\d+)", out).group(1))
    assert pid in server.pids("daphne-[12]"), f"{pid} is not serve.py's daphne"
    return pid


async def connect_until(seat: Seat, port: int) -> None:
    """Connect, retrying while the port refuses (a server starting)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        try:
            return await seat.connect(port)
        except (ConnectionError, OSError):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.1)


def two_players():
    ann, bob = person("Ann"), person("Bob")
    room = actions.create_room(ann, "Ann")
    actions.join_room(room.code, bob, "Bob")
    actions.start_game(room.code, ann)
    return room, ann, bob


@pytest.fixture
def serve():
    needs_services("serve.py in production shape")
    running = []

    def start() -> Serve:
        process = Serve(server_env(), "--processes", "2", "--parts", "web,timers")
        running.append(process)
        return process

    yield start
    for process in running:
        process.stop()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
async def test_a_killed_daphne_comes_back_and_its_player_loses_nothing(serve):
    room, ann_player, bob_player = await sync_to_async(two_players)()
    server = serve()
    try:
        await server.until(lambda: server.listening() == 2, "two daphne processes")
        ann = Seat("ann", await cookie(ann_player), room.code)
        bob = Seat("bob", await cookie(bob_player), room.code)
        await ann.connect(server.port)
        await bob.connect(server.port)
        # The kernel gives each connection to either process: Bob must be on
        # the one that survives.
        for _ in range(40):
            if daphne_of(bob, server) != daphne_of(ann, server):
                break
            await bob.ws.close()
            await bob.connect(server.port)
        victim = daphne_of(ann, server)
        assert daphne_of(bob, server) != victim, "both players stayed on one daphne"

        pairs = await start_race(ann, bob, lambda: sync_to_async(solution)(room))
        await take_in_turns(ann, bob, pairs, range(3))

        os.kill(victim, signal.SIGKILL)
        killed = time.monotonic()
        # The other process goes on serving its player at once.
        await bob.take(pairs[3], 3)
        assert time.monotonic() - killed < 2.0
        await asyncio.wait_for(ann.task, WAIT_S)

        # Ann's page reconnects (to whichever process the kernel picks) and
        # catches up with what she missed.
        await connect_until(ann, server.port)
        await ann.until(lambda: ann.racer(1)["matches"] == 4, "Bob's fourth pair")
        assert ann.racer(0)["matches"] == 3, "Ann's acknowledged pairs"
        await ann.take(pairs[3], 3)

        # The dead process is started again at once, and listens when its
        # imports are done (times from the log lines' own stamps).
        await server.until(lambda: server.listening() == 3, "it listening", READY_S)
        assert victim not in server.pids("daphne-[12]")[2:]
        died = server.stamp(r"WARNING serve .* stopped \(killed by signal 9\);")
        started = server.stamp(r"started daphne-\d \(pid", nth=2)
        listening = server.stamp("Listening on TCP address", nth=2)
        assert (started - died).total_seconds() < 1.0
        first_start = server.stamp("Listening on TCP address") - server.stamp(
            r"started daphne-\d \(pid"
        )
        back_within = max(BACK_S, first_start.total_seconds())
        assert (listening - died).total_seconds() < back_within
        print(
            f"daphne started again {(started - died).total_seconds():.1f} s after "
            f"it died, listening {(listening - died).total_seconds():.1f} s after"
        )

        fresh, *_ = await sync_to_async(actions.snapshot)(room.code)
        assert fresh.version == ann.state["version"]
        racers = {r["seat"]: r["matches"] for r in ann.state["round"]["racers"]}
        assert racers == {0: 4, 1: 4}
        for seat in (ann, bob):
            await seat.ws.close()
    except BaseException:
        print(server.log())
        raise


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
async def test_a_killed_timer_comes_back_and_the_turn_ends_once(serve):
    room, ann_player, bob_player = await sync_to_async(two_players)()
    server = serve()
    try:
        await server.until(lambda: server.listening() == 2, "two daphne processes")
        ann = Seat("ann", await cookie(ann_player), room.code)
        await ann.connect(server.port)
        deal = {"type": "deal", "mode": "together", "pile": "small", "limit": 0}
        assert (await ann.send(deal))["type"] == "ack"
        await ann.until(lambda: ann.state["round"], "the deal")
        assert ann.state["round"]["turn_seat"] == 0
        dealt_version = ann.state["version"]

        (timer,) = server.pids("timers")
        os.kill(timer, signal.SIGKILL)
        await server.until(lambda: len(server.pids("timers")) == 2, "a new timer", 5)

        # Nobody plays: Ann's 30 s run out, and the new timer passes the turn.
        await ann.until(
            lambda: ann.state["round"]["turn_seat"] == 1, "Bob's turn", within=45
        )
        passed_version = ann.state["version"]
        await asyncio.sleep(2)  # a window: a second pass of the turn shows in it
        seats = {s["seat"]: s for s in ann.state["round"]["seats"]}
        assert seats[0]["turns"] == 1 and seats[1]["turns"] == 0
        assert ann.state["round"]["turn_seat"] == 1
        fresh, *_ = await sync_to_async(actions.snapshot)(room.code)
        assert fresh.version == passed_version, "the turn was passed twice"
        assert passed_version > dealt_version
        await ann.ws.close()
    except BaseException:
        print(server.log())
        raise
