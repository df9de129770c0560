"""Load test of live rooms: N rooms of 4 racers on loopback.

Starts the servers the way production runs them (daphne processes sharing
Redis, one timer process), seats N rooms of two scripted players and two
bots on a Big pile, connects every scripted player over a real websocket and
lets them race at a steady pace for a while. Measured over that window,
after a warm-up:

- pair -> ack: from sending a pair to its acknowledgement;
- pair -> strip: from sending a pair to the other scripted racer of the room
  receiving the event that shows it;
- messages a second through the servers (frames in and out), and the
  bots' moves a second (events no scripted player sent: is the timer
  keeping up?);
- how late the timer is: sampled four times a second, how long the most
  overdue room has waited past its `wake_at` (p99 and max);
- CPU of the server processes (daphne and the timer), in cores, and of the
  whole machine.

Uses the configured database (DATABASE_URL, else the embedded SQLite file;
run `manage.py migrate` first) and removes its rooms afterwards. Several
daphne processes need REDIS_URL. Example:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tiles \\
    REDIS_URL=redis://127.0.0.1:6379/0 \\
    SECRET_KEY="$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')" \\
    .venv/bin/python bench/rooms.py --rooms 100 --duration 60
"""

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import sys
import time
from pathlib import Path

# `--code TREE` runs another checkout's servers and rooms (bench/compare.py
# runs an older commit this way); it is read before Django starts.
ROOT = Path(__file__).resolve().parent.parent
if "--code" in sys.argv:
    ROOT = Path(sys.argv[sys.argv.index("--code") + 1]).resolve()
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from asgiref.sync import sync_to_async  # noqa: E402
from django.db.models import Min  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import Player  # noqa: E402
from rooms import actions  # noqa: E402
from rooms.models import Room  # noqa: E402
from tests.room_helpers import guest_cookie_value, solution  # noqa: E402
from tests.services import Daphne, manage, server_env  # noqa: E402
from tests.wsclient import Closed, WebSocket  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")
BOT_LEVELS = ("medium", "hard", "easy")
PER_SOURCE = 8  # scripted players a loopback address, well under the limit
_CONNECTIONS = itertools.count()


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def service_pids() -> list[int]:
    """PostgreSQL and Redis processes on this machine (read, never touched)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                name = (entry / "comm").read_text().strip()
            except OSError:
                continue
            if name in ("postgres", "redis-server"):
                pids.append(int(entry.name))
    return pids


def total_cpu(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        # A database backend may have exited since it was listed.
        with contextlib.suppress(OSError):
            total += cpu_seconds(pid)
    return total


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


class Stats:
    def __init__(self) -> None:
        self.ack_ms: list[float] = []
        self.sent_at: dict[tuple[str, int], float] = {}  # (room, version) -> t
        self.seen_at: list[tuple[str, int, int, float]] = []  # room, seat, v, t
        self.frames = 0
        self.measuring = False

    def others(self, senders: dict[tuple[str, int], int]) -> int:
        """Events seen that no scripted racer sent."""
        seen = {(code, v) for code, _, v, _ in self.seen_at}
        return len(seen - senders.keys())

    def strip_ms(self, senders: dict[tuple[str, int], int]) -> list[float]:
        out = []
        for code, seat, v, t in self.seen_at:
            sent = self.sent_at.get((code, v))
            if sent is not None and senders.get((code, v)) != seat:
                out.append((t - sent) * 1000)
        return out


class ScriptedRacer:
    """One player: takes the deal's clearing order, a pair every `pace` s."""

    def __init__(self, code, seat, player, pairs, server, stats, pace) -> None:
        self.code, self.seat, self.player = code, seat, player
        self.pairs, self.server, self.stats, self.pace = pairs, server, stats, pace
        self.acks: dict[int, asyncio.Future] = {}
        self.senders: dict[tuple[str, int], int] = {}
        # Each loopback address may hold only so many sockets on a server
        # (rooms.limits), as many players behind one address would: the
        # bench's players come from addresses of their own, a few each.
        n = next(_CONNECTIONS) // PER_SOURCE
        self.source = f"127.0.{1 + n // 250}.{2 + n % 250}"

    async def connect(self, cookie: str) -> None:
        self.ws = await WebSocket.room(
            self.server.port, self.code, cookie, source=self.source
        )
        self.listener = asyncio.create_task(self.listen())

    async def listen(self) -> None:
        try:
            while True:
                message = json.loads(await self.ws.recv_text())
                now = time.perf_counter()
                if self.stats.measuring:
                    self.stats.frames += 1
                if message["type"] == "events" and self.stats.measuring:
                    for event in message["events"]:
                        self.stats.seen_at.append(
                            (self.code, self.seat, event["v"], now)
                        )
                future = self.acks.pop(message.get("ref"), None)
                if future is not None and not future.done():
                    future.set_result((message, now))
        except (Closed, ConnectionError):
            pass

    async def race(self, until: float) -> None:
        await asyncio.sleep(random.uniform(0, self.pace))
        for move, (a, b) in enumerate(self.pairs):
            if time.perf_counter() >= until:
                return
            future = asyncio.get_running_loop().create_future()
            self.acks[move] = future
            sent = time.perf_counter()
            await self.ws.send_json(
                {"type": "take", "a": a, "b": b, "move": move, "ref": move}
            )
            reply, at = await asyncio.wait_for(future, 30)
            if reply["type"] != "ack":
                raise RuntimeError(f"{self.code} seat {self.seat}: {reply}")
            if self.stats.measuring:
                self.stats.frames += 1  # the pair sent
                self.stats.ack_ms.append((at - sent) * 1000)
                self.stats.sent_at[(self.code, reply["v"])] = sent
                self.senders[(self.code, reply["v"])] = self.seat
            await asyncio.sleep(self.pace * random.uniform(0.7, 1.3))


def seat_rooms(count: int, bots: int, pile: str) -> list[tuple[Room, list]]:
    """Rooms dealt and ready: (room, [(seat, player, pairs)]) each."""
    rooms = []
    for k in range(count):
        host = Player.objects.create(display_name=f"bench {k} a")
        guest = Player.objects.create(display_name=f"bench {k} b")
        room = actions.create_room(host, host.display_name)
        actions.join_room(room.code, guest, guest.display_name)
        for level in BOT_LEVELS[:bots]:
            actions.add_bot(room.code, host, level)
        actions.start_game(room.code, host)
        actions.deal_round(room.code, host, "race", pile, 0)
        pairs = solution(room)
        rooms.append((room, [(0, host, pairs), (1, guest, pairs)]))
    return rooms


def most_overdue_ms(room_ids: list[int]) -> float:
    """How far behind the timer is now: how long the most overdue of these
    rooms (a bot's move, a time limit) has waited past its `wake_at`."""
    now = timezone.now()
    due = Room.objects.filter(pk__in=room_ids, wake_at__lt=now)
    oldest = due.aggregate(oldest=Min("wake_at"))["oldest"]
    return 0.0 if oldest is None else (now - oldest).total_seconds() * 1000


async def watch_timer(room_ids: list[int], late_ms: list[float]) -> None:
    """A sample of how late the timer is, four times a second."""
    overdue = sync_to_async(most_overdue_ms, thread_sensitive=False)
    while True:
        late_ms.append(await overdue(room_ids))
        await asyncio.sleep(0.25)


def clean_up(rooms) -> None:
    players = [p.pk for _, seats in rooms for _, p, _ in seats]
    Room.objects.filter(pk__in=[r.pk for r, _ in rooms]).delete()
    Player.objects.filter(pk__in=players).delete()


async def run(args, servers, rooms) -> dict:
    stats = Stats()
    racers = []
    for n, (room, seats) in enumerate(rooms):
        for seat, player, pairs in seats:
            server = servers[(n + seat) % len(servers)]
            racer = ScriptedRacer(
                room.code, seat, player, pairs, server, stats, args.pace
            )
            await racer.connect(guest_cookie_value(player))
            racers.append(racer)
    await asyncio.sleep(2)  # piles build, first messages settle
    # Everyone races from here; the first seconds are left out (every bot
    # is overdue when the timer starts, and every cache is cold).
    until = time.perf_counter() + args.warmup + args.duration
    racing = [asyncio.create_task(r.race(until)) for r in racers]
    await asyncio.sleep(args.warmup)
    pids = [s.proc.pid for s in servers] + [args.timer_pid]
    cpu0 = {pid: cpu_seconds(pid) for pid in pids}
    services = service_pids()
    services0, client0 = total_cpu(services), cpu_seconds(os.getpid())
    busy0, total0 = machine_busy()
    start = time.perf_counter()
    stats.measuring = True
    late_ms: list[float] = []
    watcher = asyncio.create_task(watch_timer([r.pk for r, _ in rooms], late_ms))
    await asyncio.gather(*racing)
    watcher.cancel()
    stats.measuring = False
    elapsed = time.perf_counter() - start
    busy1, total1 = machine_busy()
    server_cpu = sum(cpu_seconds(pid) - cpu0[pid] for pid in pids)
    services_cpu = total_cpu(services) - services0
    client_cpu = cpu_seconds(os.getpid()) - client0
    senders = {}
    for r in racers:
        senders.update(r.senders)
    strip = stats.strip_ms(senders)
    for r in racers:
        await r.ws.close()
        r.listener.cancel()
    return {
        "rooms": len(rooms),
        "scripted_clients": len(racers),
        "bots": args.bots * len(rooms),
        "daphne_processes": len(servers),
        "seconds": round(elapsed, 1),
        "pairs_sent": len(stats.ack_ms),
        "pairs_per_s": round(len(stats.ack_ms) / elapsed, 1),
        # Events nobody scripted sent: the bots' moves (and time limits),
        # to check that the timer process keeps up.
        "bot_moves_per_s": round(stats.others(senders) / elapsed, 1),
        # The most overdue room, sampled: every bot moves on time when this
        # stays within the timer's look interval and a batch's work.
        "timer_late_ms_p99": round(percentile(late_ms, 99), 1),
        "timer_late_ms_max": round(max(late_ms, default=0.0), 1),
        "ack_ms_p50": round(percentile(stats.ack_ms, 50), 1),
        "ack_ms_p99": round(percentile(stats.ack_ms, 99), 1),
        "strip_ms_p50": round(percentile(strip, 50), 1),
        "strip_ms_p99": round(percentile(strip, 99), 1),
        "client_frames_per_s": round(stats.frames / elapsed, 1),
        "server_cpu_cores": round(server_cpu / elapsed, 2),
        "timer_cpu_cores": round(
            (cpu_seconds(args.timer_pid) - cpu0[args.timer_pid]) / elapsed, 2
        ),
        "postgres_redis_cpu_cores": round(services_cpu / elapsed, 2),
        "bench_client_cpu_cores": round(client_cpu / elapsed, 2),
        "machine_busy_pct": round(100 * (busy1 - busy0) / max(1, total1 - total0), 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--bots", type=int, default=2, choices=(0, 1, 2))
    parser.add_argument("--pile", default="big", choices=("big", "small"))
    parser.add_argument("--pace", type=float, default=2.5, help="s between pairs")
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument(
        "--warmup", type=float, default=5, help="s of racing before measuring"
    )
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--code", help="another checkout of the app to run")
    args = parser.parse_args()
    if args.processes > 1 and not os.environ.get("REDIS_URL"):
        parser.error("several daphne processes need REDIS_URL")

    env = server_env(DEBUG="0", LOG_LEVEL="WARNING")
    env["DATABASE_URL"] = os.environ.get("DATABASE_URL", "")
    if not env["DATABASE_URL"]:
        del env["DATABASE_URL"]  # the embedded SQLite file, as configured
    rooms = seat_rooms(args.rooms, args.bots, args.pile)
    servers = [Daphne(env, f"daphne {k}") for k in range(args.processes)]
    timer = manage(["run_timers"], env)
    args.timer_pid = timer.proc.pid
    try:
        for server in servers:
            server.wait_ready()
        result = asyncio.run(run(args, servers, rooms))
    finally:
        for p in [*servers, timer]:
            p.stop()
        clean_up(rooms)
    if args.json:
        print(json.dumps(result))
    else:
        width = max(map(len, result))
        for key, value in result.items():
            print(f"{key:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
