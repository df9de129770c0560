"""One member tries to slow their room: the others' acks, quiet and loud.

Starts one daphne process (as production runs it, on the configured
PostgreSQL and Redis), seats Ann, Bob and Cy in a room racing on a Big
pile, and has Ann and Bob each take a pair and undo it, over and over,
measuring every pair -> ack and undo -> ack. In the same run:

- quiet: nobody else does anything;
- loud: Cy (another process) opens `--sockets` sockets to the room at once
  (the server admits rooms.limits.SOCKETS_PER_SEAT of them) and every
  socket Cy still holds asks a hint every `--hint-every` s (0.1);

in turns, quiet first and last, `--rounds` loud phases. It prints the
others' ack p50/p99 in each phase and over all quiet and all loud phases,
and the ratio of the loud p99 to the quiet (the goal: under 1.5). Example:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tiles \\
    REDIS_URL=redis://127.0.0.1:6379/0 SECRET_KEY=bench \\
    .venv/bin/python bench/room_sockets.py --sockets 300 --phase 15

`--proxy` puts nginx in front, with deploy/nginx/tiles.conf's limits, as
production runs it (Cy then connects from an address of its own).
"""

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from asgiref.sync import sync_to_async  # noqa: E402

from accounts.models import Player  # noqa: E402
from bench.rooms import percentile  # noqa: E402
from rooms import actions  # noqa: E402
from rooms.models import Room  # noqa: E402
from tests.proxy import Nginx, nginx_binary  # noqa: E402
from tests.room_helpers import guest_cookie_value, solution  # noqa: E402
from tests.services import Daphne, server_env  # noqa: E402
from tests.wsclient import Closed, WebSocket  # noqa: E402


class Racer:
    """Takes its first pair and puts it back, again and again, timing acks."""

    def __init__(self, ws: WebSocket, pair: tuple[int, int]) -> None:
        self.ws, self.pair = ws, pair
        self.waiting: dict[int, asyncio.Future] = {}
        self.ref = 0

    def listen(self) -> None:
        """Once past hello and the state: replies reach their requests."""
        self.listener = asyncio.get_running_loop().create_task(self._listen())

    async def _listen(self) -> None:
        with contextlib.suppress(Closed, ConnectionError):
            while True:
                message = await self.ws.recv_json(timeout=600)
                future = self.waiting.pop(message.get("ref"), None)
                if future is not None and not future.done():
                    future.set_result(message)

    async def _ask(self, message: dict) -> float:
        self.ref += 1
        future = asyncio.get_running_loop().create_future()
        self.waiting[self.ref] = future
        start = time.perf_counter()
        await self.ws.send_json({**message, "ref": self.ref})
        reply = await asyncio.wait_for(future, 30)
        assert reply["type"] == "ack", reply
        return (time.perf_counter() - start) * 1000

    async def play(self, until: float, acks: list[float]) -> None:
        a, b = self.pair
        while time.monotonic() < until:
            acks.append(await self._ask({"type": "take", "a": a, "b": b, "move": 0}))
            acks.append(await self._ask({"type": "undo", "move": 1}))
            # Under the per-socket rate (8 a second), as a person would be.
            await asyncio.sleep(0.3)


async def loud_member(
    port: int,
    code: str,
    cookie: str,
    sockets: int,
    hint_s: float,
    until: float,
    source: str | None,
):
    """Cy: as many sockets as asked for, then hints from every one kept."""
    opened = await asyncio.gather(
        *(WebSocket.room(port, code, cookie, source=source) for _ in range(sockets)),
        return_exceptions=True,
    )
    kept = []
    for ws in opened:
        if isinstance(ws, WebSocket):
            try:
                for _ in range(2):  # hello, then the state (or 4409)
                    await ws.recv_json(timeout=10)
                kept.append(ws)
            except (Closed, ConnectionError, TimeoutError):
                ws.writer.close()
    refused = 0

    async def drain(ws):
        nonlocal refused
        try:
            while True:
                message = await ws.recv_json(timeout=600)
                if message.get("code") == "too_many_connections":
                    refused += 1
        except (Closed, ConnectionError, TimeoutError):
            pass

    async def hints(ws):
        with contextlib.suppress(Closed, ConnectionError):
            while time.monotonic() < until:
                if hint_s:
                    await ws.send_json({"type": "hint"})
                await asyncio.sleep(hint_s or 0.1)

    readers = [asyncio.create_task(drain(ws)) for ws in kept]
    await asyncio.gather(*(hints(ws) for ws in kept))
    for ws in kept:
        await ws.close()
    for reader in readers:
        reader.cancel()
    print(f"       Cy kept {len(kept)} of {sockets} sockets", flush=True)


def cy_process(*args) -> None:
    asyncio.run(loud_member(*args))


def seat_room() -> tuple[Room, list[Player], tuple[int, int]]:
    ann, bob, cy = (Player.objects.create(display_name=n) for n in ("Ann", "Bob", "Cy"))
    room = actions.create_room(ann, "Ann")
    actions.join_room(room.code, bob, "Bob")
    actions.join_room(room.code, cy, "Cy")
    actions.start_game(room.code, ann)
    actions.deal_round(room.code, ann, "race", "big", 0)
    rnd = Room.objects.get(pk=room.pk).current_round
    rnd.running_since = rnd.dealt_at  # no wait for the pile to build
    rnd.save()
    return room, [ann, bob, cy], tuple(solution(room)[0])


def summary(acks: list[float]) -> str:
    p50, p99 = percentile(acks, 50), percentile(acks, 99)
    return f"p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  (n={len(acks)})"


async def run(args) -> None:
    room, people, pair = await sync_to_async(seat_room)()
    cookies = [await sync_to_async(guest_cookie_value)(p) for p in people]
    server = Daphne(server_env(), "daphne", ("--proxy-headers",) if args.proxy else ())
    proxy = None
    try:
        await asyncio.get_running_loop().run_in_executor(None, server.wait_ready)
        port = server.port
        if args.proxy:
            binary = nginx_binary()
            if binary is None:
                raise SystemExit("--proxy needs nginx (apt-get install nginx-light)")
            proxy = Nginx(binary, server.port)
            proxy.wait_ready()
            port = proxy.port
        racers = [
            Racer(await WebSocket.room(port, room.code, c), pair) for c in cookies[:2]
        ]
        for racer in racers:  # hello and the state
            await racer.ws.recv_json()
            await racer.ws.recv_json()
            racer.listen()
        acks: dict[str, list[float]] = {"quiet": [], "loud": []}
        # Quiet and loud in turns, so the machine's own ups and downs (it
        # is shared) fall on both alike.
        for turn in range(2 * args.rounds + 1):
            name = "loud" if turn % 2 else "quiet"
            until = time.monotonic() + args.phase
            member = None
            if name == "loud":
                # A process of its own: Cy's handshakes must load the
                # server, not the loop that times Ann's and Bob's acks.
                member = multiprocessing.get_context("fork").Process(
                    target=cy_process,
                    args=(
                        port,
                        room.code,
                        cookies[2],
                        args.sockets,
                        args.hint_every,
                        until,
                        # Behind the proxy Cy is someone else, elsewhere.
                        "127.0.0.9" if args.proxy else None,
                    ),
                )
                member.start()
            phase: list[float] = []
            await asyncio.gather(*(r.play(until, phase) for r in racers))
            if member is not None:
                await asyncio.get_running_loop().run_in_executor(None, member.join)
            acks[name] += phase
            print(f"{name:6} {summary(phase)}", flush=True)
        quiet, loud = acks["quiet"], acks["loud"]
        print(f"all quiet {summary(quiet)}")
        print(f"all loud  {summary(loud)}")
        ratio = percentile(loud, 99) / percentile(quiet, 99)
        print(f"loud p99 / quiet p99: {ratio:.2f}")
    finally:
        if proxy is not None:
            proxy.stop()
        server.stop()
        await sync_to_async(Room.objects.filter(pk=room.pk).delete)()
        await sync_to_async(
            Player.objects.filter(pk__in=[p.pk for p in people]).delete
        )()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=300)
    parser.add_argument("--phase", type=float, default=15.0, help="seconds each")
    parser.add_argument("--rounds", type=int, default=2, help="loud phases")
    parser.add_argument(
        "--hint-every", type=float, default=0.1, help="seconds; 0: no hints"
    )
    parser.add_argument(
        "--proxy",
        action="store_true",
        help="through nginx with deploy/nginx/tiles.conf's limits, as deployed",
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
