"""The timer process of live rooms: time limits and bots' moves.

Nothing ticks in memory: each room stores when it next needs attention
(`Room.wake_at`), and this loop applies whatever has come due, room by room,
each under the room's row lock. Rooms another timer process holds are
skipped rather than waited for, and a room already handled no longer looks
due, so any number of these can run side by side (scripts/serve.py starts
one). Runs until SIGTERM or Ctrl+C.
"""

import asyncio
import contextlib
import logging
import signal

from asgiref.sync import sync_to_async
from django.core.management.base import BaseCommand
from django.db import close_old_connections, connections

from rooms import actions

log = logging.getLogger("rooms.timers")


def tick() -> int:
    """Apply everything due now; the number of rooms changed."""
    changed = 0
    for room_id in actions.due_rooms():
        try:
            changed += actions.apply_due_timers(room_id)
        except Exception:
            # One broken room must not stop the timers of all the others.
            log.exception("timers of room %s failed", room_id)
    return changed


def _tick_safely() -> int:
    try:
        return tick()
    except Exception:
        # The database went away for a moment: reconnect on the next tick.
        log.exception("timer tick failed")
        close_old_connections()
        return 0


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
            "--once", action="store_true", help="apply what is due now and exit"
        )

    def handle(self, *args, interval: float, once: bool, **options) -> None:
        asyncio.run(self._loop(interval, once))

    async def _loop(self, interval: float, once: bool) -> None:
        # Ticks run in one worker thread (one database connection); events
        # are published from it onto this loop, which lives as long as the
        # process, so the channel layer keeps its connections.
        stopping = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stopping.set)
        step = sync_to_async(_tick_safely, thread_sensitive=True)
        while not stopping.is_set():
            changed = await step()
            if once:
                break
            if not changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stopping.wait(), interval)
        # Hang up on the database before exiting, not after.
        await sync_to_async(connections.close_all, thread_sensitive=True)()
