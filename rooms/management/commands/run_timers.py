"""The timer process of live rooms: time limits and bots' moves.

Nothing ticks in memory: each room stores when it next needs attention
(`Room.wake_at`), and this loop applies whatever has come due, up to
`--batch` rooms in one transaction (one read, which also finds which
rooms are due, one checked write and one hand-over of the events for them
all: with many rooms due at once, most of a bot's move was the round trips
and statements of a transaction of its own). Rooms another timer process
holds are skipped rather than waited for, and a room already handled no
longer looks due, so any number of these can run side by side
(scripts/serve.py starts one). Runs until SIGTERM or Ctrl+C.

Within the process, `--workers` threads share the rooms by id, each looking
for its own due rooms in a loop of its own: no room is handled by two of
them at once, and a look that finds nothing due costs one small query,
with no hand-over between the event loop and a thread. One thread by
default: a transaction costs the timer about three times what a bot's move
in it does, so the fewer transactions the due moves come in the better,
and a second thread halves each look's batch (and doubles the looks) for
no more CPU, the rules running one thread at a time in Python anyway. The
event loop stays for publishing: the threads' events go out on it, so the
channel layer keeps one connection for the life of the process.
"""

import asyncio
import logging
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from django.core.management.base import BaseCommand
from django.db import close_old_connections, connections

from monitoring import metrics
from monitoring.heartbeats import Beater, Part
from rooms import actions, timers
from rooms.publish import handed_over, publish_from_this_loop
from sitewide.longlived import freeze_start_up

log = logging.getLogger("rooms.timers")

# Due rooms a transaction at most: each waits for the others of its batch
# to be worked out before its COMMIT, and a player's move in it waits too.
BATCH = 16


def _due(part: int, parts: int, batch: int) -> list[int]:
    try:
        return actions.due_rooms(limit=batch, part=part, parts=parts)
    except Exception:
        # The database went away for a moment: try again on the next look.
        log.exception("could not look for due rooms")
        close_old_connections()  # a broken connection is opened anew
        return []


def _apply(room_ids: list[int]) -> None:
    try:
        actions.apply_due(room_ids)
    except Exception:
        # One broken room must not stop the timers of all the others: its
        # batch is rolled back and tried again room by room.
        close_old_connections()
        if len(room_ids) == 1:
            log.exception("timers of room %s failed", room_ids[0])
            return
        for room_id in room_ids:
            _apply([room_id])


def _batch(part: int, parts: int, batch: int) -> int:
    """Apply up to `batch` of this thread's due rooms, found by the batch's
    own read; how many were due. Should that fail, the due rooms are
    looked for on their own and applied as before the fold, where one
    broken room is tried alone."""
    try:
        return timers.apply_first_due(limit=batch, part=part, parts=parts)
    except Exception:
        close_old_connections()
        room_ids = _due(part, parts, batch)
        _apply(room_ids)
        return len(room_ids)


def _serve(
    part: int,
    parts: int,
    interval: float,
    batch: int,
    once: bool,
    stopping: threading.Event,
    heartbeat: Beater,
) -> None:
    """One worker thread: apply its share of the due rooms every `interval`
    until stopped, up to `batch` rooms a transaction. Everything due by a
    look is applied in it, so a busy timer handles several batches a look
    (a bot's move may come up to one interval after its time, and the time
    a look takes, unnoticeable beside its seconds of thought). The looks
    keep their pace: the wait is what is left of the interval after the
    look, so a busy timer is not one look's work later each time."""
    try:
        while not stopping.is_set():
            started = time.monotonic()
            heartbeat.maybe()  # each look, from whichever thread; every few s
            while _batch(part, parts, batch) >= batch and not stopping.is_set():
                pass
            if once:
                return
            stopping.wait(max(0.0, interval - (time.monotonic() - started)))
    finally:
        connections.close_all()


class Command(BaseCommand):
    help = "Apply due time limits and bots' moves in live rooms, in a loop."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--interval",
            type=float,
            default=0.05,
            help="seconds between looks for due rooms (default 0.05)",
        )
        parser.add_argument(
            "--workers",
            type=int,
            # One: each thread's share of the due rooms makes its batches
            # (more threads, smaller batches: more transactions for the same
            # moves, and more looks when nothing is due).
            default=1,
            help="threads sharing the rooms, each on its own connection (default 1)",
        )
        parser.add_argument(
            "--batch",
            type=int,
            default=BATCH,
            help=f"due rooms applied in one transaction at most (default {BATCH})",
        )
        parser.add_argument(
            "--once", action="store_true", help="apply what is due now and exit"
        )

    def handle(
        self, *args, interval: float, workers: int, batch: int, once: bool, **options
    ):
        # As in config/asgi.py: what is loaded now lives as long as the
        # process, so the collector's passes need not walk it.
        freeze_start_up()
        metrics.serve(metrics.OpenRooms())
        asyncio.run(self._run(interval, max(1, workers), max(1, batch), once))

    async def _run(self, interval: float, workers: int, batch: int, once: bool) -> None:
        stopping = threading.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stopping.set)
        heartbeat = Beater(Part.TIMER)
        # Started from this loop, the threads publish onto it.
        publish_from_this_loop()
        with ThreadPoolExecutor(workers, thread_name_prefix="timer") as threads:
            serve = database_sync_to_async(
                _serve, thread_sensitive=False, executor=threads
            )
            await asyncio.gather(
                *(
                    serve(part, workers, interval, batch, once, stopping, heartbeat)
                    for part in range(workers)
                )
            )
            # Stopped cleanly: /healthz names the timer at once.
            stop = database_sync_to_async(
                heartbeat.stop, thread_sensitive=False, executor=threads
            )
            await stop()
        await handed_over()  # the last events, before the loop stops
