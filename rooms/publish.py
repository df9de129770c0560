"""Telling connected clients that a room changed.

Only a notification: the events are already saved with their version
numbers, and the channel layers drop messages when a buffer is full, so a
client that misses one notices the gap in versions and asks for what it
missed (docs/protocol.md).

Actions run on worker threads of an event loop (a daphne process's, or the
timer process's). `async_to_sync` would hand the send to that loop and
keep the thread waiting for it, a hop there and back that cost about a
fifth of a move's CPU; the send is handed over and not waited for instead,
in order (the loop runs what it is handed in turn). The loop is the one
the work came from: whoever hands work to threads names its loop first
(`publish_from_this_loop`: config.asgi for every connection, run_timers
for its threads), and the name goes with the work into the thread, as
asgiref's sync_to_async runs it in a copy of the caller's context. Without
a loop (a management command, a test) it is sent before the call returns.
Each process hears a room once, however many of its sockets are in it
(sitewide.pubsub).
"""

import asyncio
import json
import logging
import os
import threading
from contextvars import ContextVar
from typing import Any

from asgiref.sync import async_to_sync
from django.db import transaction

from sitewide import pubsub

log = logging.getLogger(__name__)


class Message(dict[str, Any]):
    """A numbered event as saved and sent, {"v", "kind", "data"}, with its
    data encoded as JSON once (`data_json`, None for no data) for the
    database and every socket alike."""

    __slots__ = ("data_json",)

    def __init__(self, v: int, kind: str, data: Any) -> None:
        super().__init__(v=v, kind=kind, data=data)
        self.data_json = None if data is None else json.dumps(data)


def events_text(events: list[Message]) -> str:
    """The "events" message as every socket sends it, from the data
    already encoded (what json.dumps of the whole would give)."""
    parts = [
        f'{{"v": {e["v"]}, "kind": {json.dumps(e["kind"])}, "data": '
        f"{'null' if e.data_json is None else e.data_json}}}"
        for e in events
    ]
    return f'{{"type": "events", "events": [{", ".join(parts)}]}}'


def group_name(code: str) -> str:
    return f"room.{code}"


# The loop that handed this work to a thread, and the process it runs in
# (a forked process has a copy of the context but not the loop).
_home: ContextVar[tuple[asyncio.AbstractEventLoop, int] | None] = ContextVar(
    "publish_loop", default=None
)


def publish_from_this_loop() -> None:
    """Hand what the work started from here publishes to the running loop
    (call it in async code before handing work to threads)."""
    _home.set((asyncio.get_running_loop(), os.getpid()))


def _loop() -> asyncio.AbstractEventLoop | None:
    """The event loop this work came from, if it still runs."""
    home = _home.get()
    if home is None or home[1] != os.getpid() or not home[0].is_running():
        return None
    return home[0]


# Sends handed to a loop and not yet done: the loop keeps only a weak
# reference to its tasks.
_sending: set[asyncio.Task[None]] = set()


# A group message to send: the room's code, the message, and what it says
# (for the log, should it fail).
Send = tuple[str, dict[str, Any], str]


async def _group_send(sends: list[Send], once: bool = False) -> None:
    try:
        await pubsub.publish([message for _, message, _ in sends], once=once)
    except Exception:
        # What changed is committed: clients catch up on their next sync,
        # and a seat that left is refused on its socket's next action.
        told = ", ".join(f"room {code} {what}" for code, _, what in sends)
        log.exception("could not tell %s", told)


def _send_once(sends: list[Send]) -> None:
    async_to_sync(_group_send)(sends, once=True)


def _hand_over(sends: list[Send]) -> None:
    loop = _loop()
    if loop is None:
        send = _send_once
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            send(sends)
            return
        # This thread runs a loop of its own that is not asgiref's (a test
        # driving a browser through Playwright's sync API): async_to_sync
        # refuses to run inside it, so the send gets a thread of its own,
        # still sent before the call returns.
        worker = threading.Thread(target=send, args=(sends,))
        worker.start()
        worker.join()
        return

    def start() -> None:
        task = loop.create_task(_group_send(sends))
        _sending.add(task)
        task.add_done_callback(_sending.discard)

    # One hand-over for them all: every hand-over wakes the loop.
    loop.call_soon_threadsafe(start)


async def handed_over() -> None:
    """Wait for the sends handed to this loop so far: a process that stops
    its loop (`run_timers --once`) lets them go out first."""
    while _sending:
        await asyncio.gather(*_sending, return_exceptions=True)


def _send(rooms: list[tuple[str, list[Message]]]) -> None:
    # Encoded once here rather than once per connection: every member's
    # socket sends the same text.
    sends = [
        (
            code,
            {
                "type": "room.events",
                "group": group_name(code),
                "text": events_text(events),
                "last": events[-1]["v"],
            },
            "of its events",
        )
        for code, events in rooms
    ]
    _hand_over(sends)


def publish_on_commit(code: str, events: list[Message]) -> None:
    """Send `events` to the room's clients once the transaction commits, so
    nobody hears of a change that was rolled back."""
    publish_rooms_on_commit([(code, events)])


def publish_rooms_on_commit(rooms: list[tuple[str, list[Message]]]) -> None:
    """`publish_on_commit` for several rooms (room code, events) at once,
    handed to the event loop in one go."""
    news = [(code, events) for code, events in rooms if events]
    if news:
        transaction.on_commit(lambda: _send(news))


def _send_unseated(code: str, seat: int) -> None:
    message = {"type": "room.unseated", "group": group_name(code), "seat": seat}
    _hand_over([(code, message, f"that seat {seat} left")])


def unseated_on_commit(code: str, seat: int) -> None:
    """Once committed, close the sockets still open for a seat that left
    or was removed (another tab of theirs; the removed player's page)."""
    transaction.on_commit(lambda: _send_unseated(code, seat))


class PublishFromLoop:
    """ASGI middleware: what the work of a connection publishes (an action
    on a worker thread, a page's sync view) goes out on the loop serving
    the connection, handed over rather than waited for."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        publish_from_this_loop()
        await self.app(scope, receive, send)
