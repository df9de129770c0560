"""The timer process of live rooms: time limits and bots' moves.

Nothing ticks in memory: each room stores when it next needs attention
(`Room.wake_at`), and this loop applies whatever has come due, room by room,
each in its own transaction under the room's row lock. Rooms another timer
process holds are skipped rather than waited for, and a room already handled
no longer looks due, so any number of these can run side by side
(scripts/serve.py starts one). Runs until SIGTERM or Ctrl+C.
"""

import asyncio
import contextlib
import logging
import signal

from channels.db import database_sync_to_async
from django.core.management.base import BaseCommand

from rooms import actions

log = logging.getLogger("rooms.timers")


def _due() -> list[int]:
    try:
        return actions.due_rooms()
    except Exception:
        # The database went away for a moment: try again on the next tick.
        log.exception("could not look for due rooms")
        return []


def _apply(room_id: int) -> bool:
    try:
        return actions.apply_due_timers(room_id)
    except Exception:
        # One broken room must not stop the timers of all the others.
        log.exception("timers of room %s failed", room_id)
        return False


def _apply_all(room_ids: list[int]) -> int:
    """Apply what is due in each room, one transaction each; how many
    changed. One call per worker thread and tick rather than one per room:
    each call from the event loop to a thread costs a hop and a database
    health check."""
    return sum(_apply(room_id) for room_id in room_ids)


class Command(BaseCommand):
    help = "Apply due time limits and bots' moves in live rooms, in a loop."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--interval",
            type=float,
            default=0.05,
            help="seconds to wait when nothing was due (default 0.05)",
        )
        parser.add_argument(
            "--tick",
            type=float,
            default=0.02,
            help="seconds between looks while rooms keep coming due (default"
            " 0.02): each look applies every room due by then, so a busy timer"
            " handles several rooms a call rather than looking again after"
            " every move",
        )
        parser.add_argument(
            "--workers",
            type=int,
            default=4,
            help="rooms handled at once, each on its own connection (default 4)",
        )
        parser.add_argument(
            "--once", action="store_true", help="apply what is due now and exit"
        )

    def handle(
        self, *args, interval: float, tick: float, workers: int, once: bool, **options
    ):
        asyncio.run(self._loop(interval, tick, max(1, workers), once))

    async def _loop(
        self, interval: float, tick: float, workers: int, once: bool
    ) -> None:
        # Events are published from the worker threads onto this loop, which
        # lives as long as the process, so the channel layer keeps its
        # connections open.
        stopping = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stopping.set)
        find = database_sync_to_async(_due)
        apply = database_sync_to_async(_apply_all, thread_sensitive=False)
        while not stopping.is_set():
            due = await find()
            # The most overdue rooms come first and are dealt out in turn.
            shares = [due[k::workers] for k in range(workers)]
            changed = sum(await asyncio.gather(*(apply(s) for s in shares if s)))
            if once:
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stopping.wait(), tick if changed else interval)
