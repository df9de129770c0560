"""The deployment of docs/DEPLOY.md across hosts: two web hosts, each with
its daphne and its timer, and a data host running PostgreSQL and Redis,
reached over its address. The hosts are network namespaces this test makes
(tests/hosts.py) and removes, also when it fails.

A race with Ann on one web host and Bob on the other; then Ann's host loses
its network mid-race. Bob plays on; Ann's next pair gets no answer, so her
client reconnects to the other host, catches up and resends it; nothing
either of them had acknowledged is lost.
"""

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from tests.hosts import Network, missing_tools, postgres_bin
from tests.seat_client import Seat, start_race, take_in_turns
from tests.services import ROOT, Process

PORT = 8000
# The page's ping is answered well within this; silence means a dead host.
DEAD_S = 3.0
KEY = "multi-host-test-key-used-by-no-deployment-7c1e9a4f2b6d8e3a5c0f"
SEAT_ROOM = """
import json
from rooms import actions
from tests.room_helpers import guest_cookie_value, person
ann, bob = person("Ann"), person("Bob")
room = actions.create_room(ann, "Ann")
actions.join_room(room.code, bob, "Bob")
actions.start_game(room.code, ann)
print(json.dumps({"code": room.code, "ann": guest_cookie_value(ann),
                  "bob": guest_cookie_value(bob)}))
"""
SOLUTION = """
import json
from rooms.models import Room
from tests.room_helpers import solution
print(json.dumps(solution(Room.objects.get(code={code!r}))))
"""


@pytest.fixture
def network():
    lacking = missing_tools()
    if lacking:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the multi-host test needs {lacking}; CI must provide it")
        pytest.skip(f"the multi-host test needs {lacking}")
    network = Network(["db", "web1", "web2", "client"])
    try:
        network.make()
        yield network
    finally:
        network.remove()


class DataHost:
    """PostgreSQL and Redis on the data host, listening on its address only."""

    def __init__(self, network: Network) -> None:
        self.network = network
        self.address = network.addresses["db"]
        self.bin = postgres_bin()
        self.data = Path(tempfile.mkdtemp(prefix="tiles-hosts-pg-"))
        shutil.chown(self.data, "postgres", "postgres")
        self.redis: Process | None = None

    def postgres(self, *args: str, on_host: bool = False) -> None:
        prefix = self.network.exec("db") if on_host else []
        command = [*prefix, "runuser", "-u", "postgres", "--", *args]
        out = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            pytest.fail(f"{' '.join(args[:2])} failed:\n{out.stdout}{out.stderr}")

    def start(self) -> None:
        self.postgres(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust")
        with open(self.data / "pg_hba.conf", "a") as hba:
            hba.write(f"host all all {self.network.subnet} trust\n")
        settings = (
            f"-c listen_addresses={self.address} -c port=5432"
            f" -c unix_socket_directories={self.data} -c fsync=off"
            # A cut host's open transaction would hold its row locks until
            # TCP gives up; docs/DEPLOY.md sets the same on the server.
            " -c idle_in_transaction_session_timeout=10s"
        )
        self.postgres(
            str(self.bin / "pg_ctl"),
            *("-D", str(self.data), "-l", str(self.data / "log"), "-w"),
            *("-o", settings, "start"),
            on_host=True,
        )
        redis = ["redis-server", "--bind", self.address, "--port", "6379"]
        redis += ["--save", "", "--appendonly", "no", "--protected-mode", "no"]
        self.redis = Process([*self.network.exec("db"), *redis], {}, "redis")

    def env(self) -> dict[str, str]:
        mine = ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "TILES_HTTPS")
        env = {k: v for k, v in os.environ.items() if k not in mine}
        return {
            **env,
            "DATABASE_URL": f"postgres://postgres@{self.address}:5432/postgres",
            "REDIS_URL": f"redis://{self.address}:6379/0",
            "SECRET_KEY": KEY,
            "TILES_HTTPS": "0",
            "ALLOWED_HOSTS": ",".join(self.network.addresses.values()),
            "PYTHONUNBUFFERED": "1",
        }

    def stop(self) -> None:
        if self.redis:
            self.redis.stop()
        stop = [str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate"]
        subprocess.run(
            ["runuser", "-u", "postgres", "--", *stop, "stop"], capture_output=True
        )
        shutil.rmtree(self.data, ignore_errors=True)


def manage(network: Network, host: str, env: dict, *args: str) -> str:
    """A management command run on `host`; the last line it printed."""
    command = [*network.exec(host), sys.executable, "manage.py", *args]
    out = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    if out.returncode != 0:
        pytest.fail(f"manage.py {args[0]} on {host} failed:\n{out.stderr[-3000:]}")
    return (out.stdout.strip().splitlines() or [""])[-1]


def web_host(network: Network, host: str, env: dict) -> list[Process]:
    address = network.addresses[host]
    daphne = [sys.executable, "-m", "config.serve", "-b", address, "-p", str(PORT)]
    daphne += ["--verbosity", "0", "config.asgi:application"]
    timers = [sys.executable, "manage.py", "run_timers"]
    return [
        Process([*network.exec(host), *daphne], env, f"daphne on {host}"),
        Process([*network.exec(host), *timers], env, f"timers on {host}"),
    ]


def wait_listening(processes: list[Process]) -> None:
    deadline = time.monotonic() + 90
    for process in processes:
        while not any("Listening on TCP address" in line for line in process.lines):
            if process.proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"{process.name} did not start\n{process.log()}")
            time.sleep(0.1)


async def reply_within(seat: Seat, message: dict, seconds: float) -> dict | None:
    """Send; the reply, or None when none comes in `seconds` (a dead host)."""
    seat.refs += 1
    ref = f"{seat.name}-{seat.refs}"
    await seat.ws.send_json({**message, "ref": ref})
    deadline = time.monotonic() + seconds
    while ref not in seat.replies:
        if time.monotonic() > deadline:
            return None
        await asyncio.sleep(0.05)
    return seat.replies[ref]


def run_inside(network: Network, host: str, coroutine) -> None:
    """Run the clients on `host`, in a thread of their own."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            with network.inside(host):
                asyncio.run(coroutine)
        except BaseException as error:  # noqa: BLE001 (re-raised below)
            failure.append(error)

    thread = threading.Thread(target=run, name=f"clients on {host}")
    thread.start()
    thread.join(300)
    assert not thread.is_alive(), "the clients never finished"
    if failure:
        raise failure[0]


@pytest.mark.services
def test_a_race_across_two_web_hosts_survives_one_losing_its_network(network):
    data = DataHost(network)
    processes: list[Process] = []
    try:
        data.start()
        env = data.env()
        manage(network, "web1", env, "migrate", "--noinput")
        manage(network, "web1", env, "load_layouts")
        for host in ("web1", "web2"):
            processes += web_host(network, host, env)
        wait_listening([p for p in processes if p.name.startswith("daphne")])
        seats = json.loads(manage(network, "web1", env, "shell", "-c", SEAT_ROOM))

        def pairs() -> list[list[int]]:
            code = SOLUTION.format(code=seats["code"])
            return json.loads(manage(network, "web2", env, "shell", "-c", code))

        web1, web2 = network.addresses["web1"], network.addresses["web2"]
        run_inside(network, "client", race(network, seats, pairs, web1, web2))
    except BaseException:
        print("\n".join(p.log() for p in [*processes, data.redis] if p))
        raise
    finally:
        for process in processes:
            process.stop()
        data.stop()


async def race(network: Network, seats: dict, pairs, web1: str, web2: str) -> None:
    code = seats["code"]
    ann, bob = Seat("ann", seats["ann"], code), Seat("bob", seats["bob"], code)
    await ann.connect(PORT, web1)
    await bob.connect(PORT, web2)
    order = await start_race(ann, bob, lambda: asyncio.to_thread(pairs))
    # Each sees the other's pairs, across the hosts.
    await take_in_turns(ann, bob, order, range(3))

    network.cut("web1")
    # Bob's host goes on as if nothing happened.
    cut = time.monotonic()
    await bob.take(order[3], 3)
    assert time.monotonic() - cut < DEAD_S

    # Ann's pair goes nowhere; her client gives up on the silent host and
    # reconnects to the other with the version it has.
    assert await reply_within(ann, take(order[3], 3), DEAD_S) is None
    ann.task.cancel()
    ann.ws.writer.transport.abort()
    await ann.connect(PORT, web2)
    await ann.until(lambda: ann.racer(1)["matches"] == 4, "what she missed")
    assert ann.racer(0)["matches"] == 3, "her acknowledged pairs"
    await ann.take(order[3], 3)  # the resend: it had never arrived

    await take_in_turns(ann, bob, order, range(4, 6))

    # A new client on the surviving host sees every acknowledged pair.
    check = Seat("check", seats["ann"], code)
    await check.connect(PORT, web2)
    await check.until(lambda: check.state["round"] is not None, "the state")
    racers = {r["seat"]: r["matches"] for r in check.state["round"]["racers"]}
    assert racers == {0: 6, 1: 6}
    for seat in (ann, bob):
        await seat.until(
            lambda s=seat: s.state["version"] == check.state["version"], ""
        )
    for seat in (ann, bob, check):
        await seat.ws.close()


def take(pair, move: int) -> dict:
    return {"type": "take", "a": pair[0], "b": pair[1], "move": move}
