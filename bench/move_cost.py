"""What one move costs the server process, apart from any load test.

One room of four racers on a Big pile (two scripted players and two bots,
one medium and one hard, as `bench/rooms.py` seats them), on the
configured database and channel layer. After a few warm-up calls of each
kind, it makes `--pairs` pairs through `actions.take_pair`, the players
taking turns, each on a worker thread of an event loop as a daphne
process runs it (`rooms.consumers.in_thread`: a thread hop with Django's
connection clean-up around it); then `--ticks` calls of
`actions.apply_due_timers` on one long-lived thread as `run_timers` runs
them, the clock set to the room's next wake-up before each, so each tick
moves the bots due then. Events are published on the event loop, as in
the servers.

The clock is the bench's own (`rooms.clock.current_time` replaced) and the
deal's seed is fixed, so every run makes the same moves. It reports
process CPU time per call (medians and means), wall-clock time per call
(median and 90th percentile: the CPU and every wait, round trips
included) and the CPU time of the
PostgreSQL backends serving it (their /proc/PID/schedstat), and with
`--round-trips` counts the messages exchanged with PostgreSQL per call (libpq's trace of
every connection): round trips (ReadyForQuery) and statements.

Instructions per action, steadier than CPU time on a shared machine:

    valgrind --tool=callgrind --callgrind-out-file=/tmp/x.%p.out \\
        .venv/bin/python bench/move_cost.py --pairs 40 --ticks 40
    valgrind ... bench/move_cost.py --pairs 0 --ticks 0

and the difference of the two totals (`callgrind_annotate x.out | head`)
divided by 80. Run on PostgreSQL and Redis as production does:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tiles_bench \\
    REDIS_URL=redis://127.0.0.1:6379/0 \\
    SECRET_KEY="$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')" \\
    .venv/bin/python bench/move_cost.py

It removes its room and players afterwards.
"""

import argparse
import asyncio
import contextlib
import importlib
import importlib.util
import json
import os
import secrets
import statistics
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from pathlib import Path

# `--code TREE` measures another checkout of the app (bench/compare.py
# runs an older commit this way); it is read before Django starts.
ROOT = Path(__file__).resolve().parent.parent
if "--code" in sys.argv:
    ROOT = Path(sys.argv[sys.argv.index("--code") + 1]).resolve()
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from channels.db import database_sync_to_async  # noqa: E402
from django.db.backends.signals import connection_created  # noqa: E402
from django.utils import timezone  # noqa: E402
from psycopg import pq  # noqa: E402

from accounts.models import Player  # noqa: E402
from games.play import BUILD_DELAY_MS  # noqa: E402
from rooms import actions, publish, sql  # noqa: E402
from rooms.consumers import in_thread  # noqa: E402
from rooms.management.commands import run_timers  # noqa: E402
from rooms.models import Event, Room  # noqa: E402
from tests.room_helpers import solution  # noqa: E402

SEED = "0123456789abcdef"
WARM_UP = 4  # calls of each kind before measuring: caches, connections
PAIR_GAP = timedelta(milliseconds=500)


class Clock:
    """The bench's own time, moved on by hand; and the room's next wake-up
    as the last action saved it."""

    def __init__(self, now: datetime) -> None:
        self.now = now
        self.wake_at: datetime | None = None
        self.wakes: dict[int, datetime | None] = {}  # every room's, by id

    def install(self) -> None:
        # An older tree (bench/compare.py) keeps it in rooms.actions.
        clock = importlib.util.find_spec("rooms.clock")
        owner = importlib.import_module("rooms.clock") if clock else actions
        owner.current_time = lambda: self.now
        saved = sql.event_writes

        def event_writes(room, *args, **kwargs):
            self.wake_at = self.wakes[room.pk] = room.wake_at
            return saved(room, *args, **kwargs)

        sql.event_writes = event_writes


def seat_room(mode: str) -> tuple[Room, list[Player], tuple]:
    """A race of two players and two bots, or a Together game of the two
    players taking turns (bots would take every other turn there)."""
    host = Player.objects.create(display_name="move cost a")
    guest = Player.objects.create(display_name="move cost b")
    room = actions.create_room(host, host.display_name)
    actions.join_room(room.code, guest, guest.display_name)
    if mode == "race":
        for level in ("medium", "hard"):
            actions.add_bot(room.code, host, level)
    actions.start_game(room.code, host)
    token_hex = secrets.token_hex
    secrets.token_hex = lambda n: SEED  # the same deal every run
    try:
        actions.deal_round(room.code, host, mode, "big", 0)
    finally:
        secrets.token_hex = token_hex
    return room, [host, guest], solution(room)


async def make_pairs(args, room, players, pairs, clock, first, count) -> list:
    """Pairs number first.. of the two players in turn; CPU time of each.
    In a race each takes the pairs of the solution on their own pile; in
    Together they take its pairs from the shared pile, turn about."""
    take = in_thread(actions.take_pair)
    spent = []
    for n in range(first, first + count):
        player, move = players[n % 2], n // 2
        if args.mode == "together":
            move = n
        clock.now += PAIR_GAP
        start = time.process_time(), time.perf_counter()
        await take(room.code, player, *pairs[move], move)
        spent.append(_since(start))
    return spent


def tick(room_id: int, clock: Clock, count: int) -> list:
    """Timer ticks at each next wake-up, on this one thread; CPU of each."""
    spent = []
    for _ in range(count):
        if clock.wake_at is None:
            break  # every bot has finished
        clock.now = max(clock.now, clock.wake_at)
        start = time.process_time(), time.perf_counter()
        actions.apply_due_timers(room_id)
        spent.append(_since(start))
    return spent


def timer_looks(rooms: list[int], clock: Clock, count: int) -> list:
    """Looks of the timer over `rooms`, each at the latest of their next
    wake-ups, so every room has a bot due, as the tree's `run_timers` makes
    them (a batch of rooms a transaction, or an older tree's room by room);
    CPU of each divided by the bot moves it made."""
    batch = getattr(run_timers, "BATCH", 1)
    spent = []
    for _ in range(count):
        wakes = [at for room_id in rooms if (at := clock.wakes.get(room_id))]
        if not wakes:
            break
        clock.now = max(clock.now, *wakes)
        events = Event.objects.filter(room_id__in=rooms).count()
        start = time.process_time(), time.perf_counter()
        due = [room_id for room_id in actions.due_rooms(limit=100) if room_id in rooms]
        for k in range(0, len(due), batch):
            if batch > 1:
                actions.apply_due(due[k : k + batch])
            else:
                actions.apply_due_timers(due[k])
        cpu, wall = _since(start)
        moves = Event.objects.filter(room_id__in=rooms).count() - events
        spent.append((cpu / max(1, moves), wall / max(1, moves)))
    return spent


def _since(start: tuple[float, float]) -> tuple[float, float]:
    """Process CPU time and wall-clock time since `start`."""
    return time.process_time() - start[0], time.perf_counter() - start[1]


async def measure(args, room, players, pairs, clock, trace, busy) -> dict:
    # Events go out on this loop, as a daphne process's do: a tree that
    # is told its loop is (config.asgi, run_timers); older ones found it.
    getattr(publish, "publish_from_this_loop", lambda: None)()
    timer = ThreadPoolExecutor(1, thread_name_prefix="timer")
    ticks = database_sync_to_async(tick, thread_sensitive=False, executor=timer)
    warm = args.warm_up
    await make_pairs(args, room, players, pairs, clock, 0, warm)
    await ticks(room.pk, clock, warm)
    marks = [trace.counts()]
    spent_pairs = await make_pairs(args, room, players, pairs, clock, warm, args.pairs)
    marks.append(trace.counts())
    spent_ticks = await ticks(room.pk, clock, args.ticks)
    marks.append(trace.counts())
    looks = database_sync_to_async(timer_looks, thread_sensitive=False, executor=timer)
    await looks(busy, clock, warm)
    marks.append(trace.counts())
    spent_looks = await looks(busy, clock, args.looks)
    marks.append(trace.counts())
    timer.shutdown()
    return {
        "take_pair": (spent_pairs, marks[1] - marks[0]),
        "apply_due_timers": (spent_ticks, marks[2] - marks[1]),
        # Per bot move, with --busy rooms due at once.
        "timer_look": (spent_looks, marks[4] - marks[3]),
    }


def summary(spent: list[tuple[float, float]], sent: Counter, traced: bool) -> dict:
    if not spent:
        return {"calls": 0}
    cpu, wall = zip(*spent, strict=True)
    out = {
        "calls": len(spent),
        "median_ms": round(1000 * statistics.median(cpu), 2),
        "mean_ms": round(1000 * statistics.fmean(cpu), 2),
        # Wall-clock time: the CPU plus every wait (round trips, threads).
        "wall_median_ms": round(1000 * statistics.median(wall), 2),
        "wall_p90_ms": round(1000 * statistics.quantiles(wall, n=10)[-1], 2),
        # CPU of the PostgreSQL backends serving this process, a call.
        "postgresql_mean_ms": round(sent.pop(CPU_NS, 0) / 1e6 / len(spent), 2),
    }
    if traced:
        # Per call: round trips, and the statements sent by their first word.
        out["postgresql"] = {k: round(v / len(spent), 2) for k, v in sent.items()}
    return out


CPU_NS = "backend CPU ns"


class Trace:
    """Every PostgreSQL connection opened from here on: its backend's CPU
    time, and with `on` libpq's trace of what it sent and received."""

    def __init__(self, on: bool, folder: Path) -> None:
        self.on = on
        self.folder = folder
        self.traced = []  # (psycopg connection, its backend's pid, trace file)
        connection_created.connect(self.follow, weak=False)

    def follow(self, sender, connection, **kwargs) -> None:
        if connection.vendor == "postgresql":
            conn = connection.connection
            path = self.folder / f"{len(self.traced)}.trace"
            self.traced.append((conn, conn.pgconn.backend_pid, path))
            if self.on:
                self._start(conn, path)

    @staticmethod
    def _start(conn, path: Path) -> None:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        conn.pgconn.trace(fd)
        conn.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)

    def counts(self) -> Counter:
        """The backends' CPU time so far; with the trace, ReadyForQuery (one
        a round trip) and the statements sent, by their first word. Called
        while no thread uses its connection."""
        counted = Counter()
        for conn, pid, path in self.traced:
            with contextlib.suppress(OSError):  # a connection closed since
                schedstat = Path(f"/proc/{pid}/schedstat").read_text()
                counted[CPU_NS] += int(schedstat.split()[0])
            if self.on and not conn.closed:
                conn.pgconn.untrace()  # flushes the file; then trace on
                self._start(conn, path)
        if not self.on:
            return counted
        for path in self.folder.glob("*.trace"):
            for line in path.read_text().splitlines():
                fields = line.split("\t")
                if len(fields) < 3:
                    continue
                if fields[2] == "ReadyForQuery":
                    counted["round trips"] += 1
                elif fields[2] == "Query":
                    for statement in fields[3].strip(' "').split(";"):
                        counted[statement.split()[0].upper()] += 1
                elif fields[2] == "Execute":  # parameters bound on the server
                    counted["bound on the server"] += 1
        return counted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=60)
    parser.add_argument("--ticks", type=int, default=60)
    parser.add_argument("--warm-up", type=int, default=WARM_UP)
    parser.add_argument(
        "--busy",
        type=int,
        default=16,
        help="rooms of two bots due at once in each timer look (default 16)",
    )
    parser.add_argument("--looks", type=int, default=20, help="timer looks over them")
    parser.add_argument("--mode", default="race", choices=("race", "together"))
    parser.add_argument("--code", help="another checkout of the app to measure")
    parser.add_argument(
        "--round-trips",
        action="store_true",
        help="count PostgreSQL round trips and statements (measured calls only)",
    )
    args = parser.parse_args()
    room, players, pairs = seat_room(args.mode)
    busy = [seat_room("race") for _ in range(args.busy)]
    per_pair = 1 if args.mode == "together" else 2  # players on one pile
    if (args.warm_up + args.pairs + per_pair - 1) // per_pair > len(pairs):
        parser.error(f"a Big pile has {len(pairs)} pairs")
    # Both players' piles built, past the deal's own time.
    clock = Clock(timezone.now() + timedelta(milliseconds=BUILD_DELAY_MS + 1000))
    clock.install()
    try:
        with tempfile.TemporaryDirectory(prefix="move-cost-") as folder:
            trace = Trace(args.round_trips, Path(folder))
            rooms = [r.pk for r, _, _ in busy]
            wakes = Room.objects.filter(pk__in=rooms).values_list("pk", "wake_at")
            clock.wakes.update(wakes)
            measured = measure(args, room, players, pairs, clock, trace, rooms)
            spent = asyncio.run(measured)
    finally:
        seated = [(room, players), *((r, p) for r, p, _ in busy)]
        Room.objects.filter(pk__in=[r.pk for r, _ in seated]).delete()
        Player.objects.filter(pk__in=[p.pk for _, ps in seated for p in ps]).delete()
    result = {kind: summary(*got, trace.on) for kind, got in spent.items()}
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
