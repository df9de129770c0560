"""Load test of live rooms: N rooms of 4 racers on loopback, in steps.

Starts the servers the way production runs them (daphne processes sharing
Redis, one timer process or `--timers N` as on N web hosts), and for each
room count asked (`--rooms 20,200`, the default) seats that many rooms of
two scripted players and two bots on a Big pile, connects every scripted
player over a real websocket and lets them race at a steady pace for a
while. Measured over
that window, after a warm-up:

- pair -> ack: from sending a pair to its acknowledgement;
- pair -> strip: from sending a pair to the other scripted racer of the
  room (on the other daphne) receiving the event that shows it: how late
  the others see a move;
- pairs and bot moves a second (events no scripted player sent: is the
  timer keeping up?);
- how late the timer is: sampled four times a second, how long the most
  overdue room has waited past its `wake_at` (p99 and max);
- CPU a move (pairs plus bot moves), all-in and in parts, of this run's
  own processes only (bench/own_cpu.py): the daphnes and their children,
  the timer and its children, the PostgreSQL backends of the servers'
  connections (tagged through PGAPPNAME), and Redis's delta apart: Redis
  is one process shared with everyone on the machine.

Every step after the first is also shown against the first (ack and strip
p99 ratios) and checked: held when both are at most 2x the first's and
the timer's p99 lateness is under 100 ms. `--knee` steps the room count up
(20, 50, 100, 200, 300, 400, 600, ...) until a step does not hold and
prints the knee. Every figure is printed with the machine's load average
(it is shared) and the command that reruns it.

The players are this tree's own client (bench/ws_client.py, which shares
no code with the server); the tree measured (`--code TREE`, as
bench/compare.py runs an older commit) provides the servers, the rooms'
seating and its own test services. Uses the configured database
(DATABASE_URL; run `manage.py migrate` and `load_layouts` first) and
removes its rooms afterwards. Example:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tiles \\
    REDIS_URL=redis://127.0.0.1:6379/0 \\
    SECRET_KEY="$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')" \\
    .venv/bin/python bench/rooms.py --rooms 20,200 --duration 30
"""

import argparse
import asyncio
import collections
import contextlib
import itertools
import json
import math
import os
import random
import shlex
import socket
import sys
import time
from pathlib import Path

# The bench's own modules (this script's folder), whichever tree is run.
from own_cpu import Ledger, cpu_seconds, named, tree
from ws_client import RoomSocket, SocketClosed

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
from django.db import OperationalError, connection  # noqa: E402
from django.db.models import Min  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import Player  # noqa: E402
from rooms import actions  # noqa: E402
from rooms.models import Room  # noqa: E402
from tests.room_helpers import guest_cookie_value, solution  # noqa: E402
from tests.services import Daphne, manage, server_env  # noqa: E402

BOT_LEVELS = ("medium", "hard", "easy")
PER_SOURCE = 8  # scripted players a loopback address, well under the limit
KNEE_STEPS = (20, 50, 100, 200, 300, 400, 600, 800, 1000, 1500, 2000)
# Point 3 of issue 29: at N rooms, ack and strip p99 within this of the
# first step's, and every bot on time.
RATIO_LIMIT = 2.0
TIMER_LATE_LIMIT_MS = 100.0
ACK_TIMEOUT_S = 60
_CONNECTIONS = itertools.count()


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


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
        self.measuring = False
        self.ack_timeouts = 0  # racers that gave up waiting (ACK_TIMEOUT_S)

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

    def __init__(self, code, seat, pairs, port, stats, pace) -> None:
        self.code, self.seat, self.pairs = code, seat, pairs
        self.port, self.stats, self.pace = port, stats, pace
        self.acks: dict[int, asyncio.Future] = {}
        self.senders: dict[tuple[str, int], int] = {}
        # Each loopback address may hold only so many sockets on a server
        # (rooms.limits), as many players behind one address would: the
        # bench's players come from addresses of their own, a few each.
        n = next(_CONNECTIONS) // PER_SOURCE
        self.source = f"127.0.{1 + n // 250}.{2 + n % 250}"

    async def connect(self, cookie: str) -> None:
        self.ws = await RoomSocket.open(self.port, self.code, cookie, self.source)
        self.listener = asyncio.create_task(self.listen())

    async def listen(self) -> None:
        try:
            while True:
                message = await self.ws.receive()
                now = time.perf_counter()
                if message["type"] == "events" and self.stats.measuring:
                    for event in message["events"]:
                        self.stats.seen_at.append(
                            (self.code, self.seat, event["v"], now)
                        )
                future = self.acks.pop(message.get("ref"), None)
                if future is not None and not future.done():
                    future.set_result((message, now))
        except (SocketClosed, ConnectionError):
            pass

    async def race(self, until: float) -> None:
        await asyncio.sleep(random.uniform(0, self.pace))
        for move, (a, b) in enumerate(self.pairs):
            if time.perf_counter() >= until:
                return
            future = asyncio.get_running_loop().create_future()
            self.acks[move] = future
            sent = time.perf_counter()
            await self.ws.send(
                {"type": "take", "a": a, "b": b, "move": move, "ref": move}
            )
            try:
                reply, at = await asyncio.wait_for(future, ACK_TIMEOUT_S)
            except TimeoutError:
                # Far past breaking: this racer stops, the step is judged.
                self.stats.ack_timeouts += 1
                return
            if reply["type"] != "ack":
                raise RuntimeError(f"{self.code} seat {self.seat}: {reply}")
            if self.stats.measuring:
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
        # The round keeps its deal's clearing order (the witness); dealing
        # again to find it (`solution`) took most of seating's time.
        witness = Room.objects.get(pk=room.pk).current_round.witness
        pairs = [tuple(p) for p in witness] or solution(room)
        rooms.append((room, [(0, host, pairs), (1, guest, pairs)]))
    return rooms


def most_overdue_ms(room_ids: list[int]) -> float:
    """How far behind the timer is now: how long the most overdue of these
    rooms (a bot's move, a time limit) has waited past its `wake_at`."""
    now = timezone.now()
    due = Room.objects.filter(pk__in=room_ids, wake_at__lt=now)
    oldest = due.aggregate(oldest=Min("wake_at"))["oldest"]
    return 0.0 if oldest is None else (now - oldest).total_seconds() * 1000


def backends(tag: str) -> list[int]:
    """The PostgreSQL backends of the servers' connections (their libpq
    application_name is the run's tag; the bench's own connection is not)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s", [tag]
        )
        return [pid for (pid,) in cursor.fetchall()]


def sample(ledger: Ledger, room_ids: list[int], late_ms: list[float]) -> None:
    late_ms.append(most_overdue_ms(room_ids))
    ledger.sample()


async def watch(ledger: Ledger, room_ids: list[int], late_ms: list[float]) -> None:
    """Four times a second: how late the timer is, and every process's CPU
    (a database backend or hint worker may exit before the end)."""
    look = sync_to_async(sample, thread_sensitive=True)
    while True:
        await look(ledger, room_ids, late_ms)
        await asyncio.sleep(0.25)


def retire(rooms) -> None:
    """The timer leaves these rooms alone from now on (no bot moves on in a
    room nobody measures): no wake-up time. They are deleted once the
    servers have stopped; deleting them under a working timer deadlocks."""
    ids = [r.pk for r, _ in rooms]
    while Room.objects.filter(pk__in=ids, wake_at__isnull=False).exists():
        # The timer may be moving one of them, and set its next wake-up
        # after this: again until none is left.
        with contextlib.suppress(OperationalError):
            Room.objects.filter(pk__in=ids).update(wake_at=None)


def clean_up(rooms) -> None:
    players = [p.pk for _, seats in rooms for _, p, _ in seats]
    Room.objects.filter(pk__in=[r.pk for r, _ in rooms]).delete()
    Player.objects.filter(pk__in=players).delete()


def per_move_ms(seconds: float, moves: int) -> float:
    return round(1000 * seconds / moves, 3) if moves else math.nan


async def race_step(args, servers, ledger: Ledger, rooms) -> dict:
    """One step: these rooms race; the figures of its measured window."""
    stats = Stats()
    racers = []
    for n, (room, seats) in enumerate(rooms):
        for seat, player, pairs in seats:
            # The two scripted racers of a room on different daphnes: the
            # strip crosses Redis, as it does for most players.
            port = servers[(n + seat) % len(servers)].port
            racer = ScriptedRacer(room.code, seat, pairs, port, stats, args.pace)
            await racer.connect(await sync_to_async(guest_cookie_value)(player))
            racers.append(racer)
    await asyncio.sleep(2)  # piles build, first messages settle
    # Everyone races from here; the first seconds are left out (every bot
    # is overdue when the timer starts, and every cache is cold).
    until = time.perf_counter() + args.warmup + args.duration
    racing = [asyncio.create_task(r.race(until)) for r in racers]
    await asyncio.sleep(args.warmup)
    load0 = os.getloadavg()[0]
    await sync_to_async(ledger.start)()
    busy0, total0 = machine_busy()
    start = time.perf_counter()
    stats.measuring = True
    late_ms: list[float] = []
    watcher = asyncio.create_task(watch(ledger, [r.pk for r, _ in rooms], late_ms))
    await asyncio.gather(*racing)
    watcher.cancel()
    stats.measuring = False
    elapsed = time.perf_counter() - start
    await sync_to_async(ledger.sample)()
    busy1, total1 = machine_busy()
    load1 = os.getloadavg()[0]
    cpu = ledger.seconds()
    senders = {}
    for r in racers:
        senders.update(r.senders)
    strip = stats.strip_ms(senders)
    for r in racers:
        await r.ws.close()
        r.listener.cancel()
    pairs, bot_moves = len(stats.ack_ms), stats.others(senders)
    moves = pairs + bot_moves
    own = cpu["daphne"] + cpu["timer"] + cpu["database"]
    return {
        "rooms": len(rooms),
        "seconds": round(elapsed, 1),
        "load_1min": f"{load0:.2f}-{load1:.2f}",
        "machine_busy_pct": round(100 * (busy1 - busy0) / max(1, total1 - total0), 1),
        "pairs_per_s": round(pairs / elapsed, 1),
        # Events nobody scripted sent: the bots' moves (and time limits).
        "bot_moves_per_s": round(bot_moves / elapsed, 1),
        "ack_timeouts": stats.ack_timeouts,
        "ack_ms_p50": round(percentile(stats.ack_ms, 50), 1),
        "ack_ms_p99": round(percentile(stats.ack_ms, 99), 1),
        "strip_ms_p50": round(percentile(strip, 50), 1),
        "strip_ms_p99": round(percentile(strip, 99), 1),
        "strip_p99_over_ack_p99": round(
            percentile(strip, 99) / percentile(stats.ack_ms, 99), 2
        ),
        # The most overdue room, sampled: every bot moves on time when this
        # stays under 100 ms.
        "timer_late_ms_p99": round(percentile(late_ms, 99), 1),
        "timer_late_ms_max": round(max(late_ms, default=0.0), 1),
        # CPU per move (a pair or a bot's move), this run's processes only.
        "cpu_ms_per_move_all_in": per_move_ms(own + cpu["redis_shared"], moves),
        "cpu_ms_per_move_daphne": per_move_ms(cpu["daphne"], moves),
        "cpu_ms_per_move_timer": per_move_ms(cpu["timer"], moves),
        "cpu_ms_per_move_database": per_move_ms(cpu["database"], moves),
        # Redis is one server for the whole machine: others' traffic too.
        "cpu_ms_per_move_redis_shared": per_move_ms(cpu["redis_shared"], moves),
        "cpu_ms_per_move_without_redis": per_move_ms(own, moves),
        "cpu_cores_daphne": round(cpu["daphne"] / elapsed, 3),
        "cpu_cores_timer": round(cpu["timer"] / elapsed, 3),
        "cpu_cores_database": round(cpu["database"] / elapsed, 3),
        "cpu_cores_redis_shared": round(cpu["redis_shared"] / elapsed, 3),
        "cpu_cores_bench_client": round(cpu["bench_client"] / elapsed, 3),
    }


def judge(first: dict, step: dict) -> dict:
    """A step against the first: the ratios of point 3 and whether they hold."""
    ack = step["ack_ms_p99"] / first["ack_ms_p99"]
    strip = step["strip_ms_p99"] / first["strip_ms_p99"]
    broke = []
    if step["ack_timeouts"]:
        broke.append(f"{step['ack_timeouts']} acks over {ACK_TIMEOUT_S} s")
    if not ack <= RATIO_LIMIT:
        broke.append(f"ack p99 {ack:.2f}x")
    if not strip <= RATIO_LIMIT:
        broke.append(f"strip p99 {strip:.2f}x")
    if not step["timer_late_ms_p99"] < TIMER_LATE_LIMIT_MS:
        broke.append(f"timer late p99 {step['timer_late_ms_p99']} ms")
    return {
        "ack_p99_over_first": round(ack, 2),
        "strip_p99_over_first": round(strip, 2),
        "holds": not broke,
        "broke_on": ", ".join(broke),
    }


def wait_listening(server, timeout: float = 300) -> None:
    """Until a server takes connections. The tree's own `wait_ready` gives
    up after 30 s, which a start-up can take on a loaded, shared machine."""
    deadline = time.monotonic() + timeout
    while True:
        if server.proc.poll() is not None:
            raise SystemExit(f"{server.name} exited\n{server.log()}")
        try:
            socket.create_connection(("127.0.0.1", server.port), 0.5).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                message = f"{server.name} did not start\n{server.log()}"
                raise SystemExit(message) from None
            time.sleep(0.2)


def rerun_command() -> str:
    """How to get this figure again (the environment named, not its secrets)."""
    args = sys.argv[1:]
    if "--code" in args:  # a temporary folder: name what it was
        args[args.index("--code") + 1] = "TREE"
    return (
        "DATABASE_URL=... REDIS_URL=... SECRET_KEY=... .venv/bin/python "
        + shlex.join(["bench/rooms.py", *args])
    )


def show(step: dict) -> None:
    width = max(map(len, step))
    for key, value in step.items():
        print(f"  {key:<{width}}  {value}")


async def run(args, servers, ledger: Ledger, seated: list) -> list[dict]:
    steps: list[dict] = []
    counts = args.rooms or (KNEE_STEPS if args.knee else (20, 200))
    for count in counts:
        rooms = await sync_to_async(seat_rooms)(count, args.bots, args.pile)
        seated.extend(rooms)
        step = await race_step(args, servers, ledger, rooms)
        await sync_to_async(retire)(rooms)
        # The first step against itself: its ratios are 1, its timer checked.
        step.update(judge(steps[0] if steps else step, step))
        steps.append(step)
        if not args.json:
            print(f"{count} rooms:", flush=True)
            show(step)
        if args.knee and not step["holds"]:
            break
    return steps


def flat(steps: list[dict]) -> dict:
    """Every step's figures on one line for bench/compare.py, each keyed by
    its room count (ack_ms_p99@200); a count asked again is keyed by its
    turn too (ack_ms_p99@20#2), so no step overwrites another's figures."""
    figures: dict = {}
    turns: collections.Counter[int] = collections.Counter()
    for step in steps:
        turns[step["rooms"]] += 1
        turn = turns[step["rooms"]]
        key = f"{step['rooms']}#{turn}" if turn > 1 else f"{step['rooms']}"
        figures.update({f"{k}@{key}": v for k, v in step.items()})
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rooms",
        type=lambda s: [int(n) for n in s.split(",")],
        help="room counts measured in turn, the first the reference "
        "(default 20,200; with --knee the steps tried)",
    )
    parser.add_argument(
        "--knee",
        action="store_true",
        help=f"step up (default {KNEE_STEPS}) until a step does not hold",
    )
    parser.add_argument("--bots", type=int, default=2, choices=(0, 1, 2))
    parser.add_argument("--pile", default="big", choices=("big", "small"))
    parser.add_argument("--pace", type=float, default=2.5, help="s between pairs")
    parser.add_argument("--duration", type=float, default=30, help="s a step")
    parser.add_argument(
        "--warmup", type=float, default=5, help="s of racing before measuring"
    )
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument(
        "--timers", type=int, default=1, help="run_timers processes (web hosts)"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--code", help="another checkout of the app to run")
    args = parser.parse_args()
    if args.processes > 1 and not os.environ.get("REDIS_URL"):
        parser.error("several daphne processes need REDIS_URL")
    if connection.vendor != "postgresql":
        parser.error("the bench counts PostgreSQL backends: DATABASE_URL, please")

    # libpq names the servers' connections: their backends are the run's.
    tag = f"tiles-bench-{os.getpid()}"
    env = server_env(DEBUG="0", LOG_LEVEL="WARNING", PGAPPNAME=tag)
    servers = [Daphne(env, f"daphne {k}") for k in range(args.processes)]
    # Several timers, as on several web hosts, share the due rooms.
    timers = [manage(["run_timers"], env) for _ in range(args.timers)]
    ledger = Ledger(
        {
            "daphne": lambda: tree(s.proc.pid for s in servers),
            "timer": lambda: tree(t.proc.pid for t in timers),
            "database": lambda: backends(tag),
            "redis_shared": lambda: named("redis-server"),
            "bench_client": lambda: [os.getpid()],
        }
    )
    seated: list = []
    try:
        for server in servers:
            wait_listening(server)
        steps = asyncio.run(run(args, servers, ledger, seated))
    finally:
        for p in [*servers, *timers]:
            p.stop()
        clean_up(seated)
    held = [s["rooms"] for s in steps if s["holds"]]
    summary = {
        "rerun": rerun_command(),
        "load_avg_now": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "bench_client_cpu_s": round(cpu_seconds(os.getpid()), 1),
    }
    if args.knee:
        broke = [s for s in steps if not s["holds"]]
        # None: even the first step broke (the machine is too busy).
        summary["knee_rooms"] = held[-1] if held else None
        summary["knee_broke_at"] = (
            f"{broke[0]['rooms']} rooms: {broke[0]['broke_on']}" if broke else None
        )
    if args.json:
        print(json.dumps({**flat(steps), **summary}))
    else:
        show(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
