"""Telling connected clients that a room changed.

Only a notification: the events are already saved with their version
numbers, and the channel layers drop messages when a buffer is full, so a
client that misses one notices the gap in versions and asks for what it
missed (docs/protocol.md).
"""

import json
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)


def group_name(code: str) -> str:
    return f"room.{code}"


def _send(code: str, events: list[dict]) -> None:
    # Encoded once here rather than once per connection: every member's
    # socket sends the same text.
    message = {
        "type": "room.events",
        "text": json.dumps({"type": "events", "events": events}),
        "last": events[-1]["v"],
    }
    try:
        async_to_sync(get_channel_layer().group_send)(group_name(code), message)
    except Exception:
        # The change is committed; clients catch up on their next sync.
        log.exception("could not publish events of room %s", code)


def publish_on_commit(code: str, events: list[dict]) -> None:
    """Send `events` to the room's clients once the transaction commits, so
    nobody hears of a change that was rolled back."""
    if events:
        transaction.on_commit(lambda: _send(code, events))


def _send_unseated(code: str, seat: int) -> None:
    message = {"type": "room.unseated", "seat": seat}
    try:
        async_to_sync(get_channel_layer().group_send)(group_name(code), message)
    except Exception:
        # The seat is gone either way: its socket's next action is refused.
        log.exception("could not tell room %s that seat %s left", code, seat)


def unseated_on_commit(code: str, seat: int) -> None:
    """Once committed, close the sockets still open for a seat that left
    or was removed (another tab of theirs; the removed player's page)."""
    transaction.on_commit(lambda: _send_unseated(code, seat))
