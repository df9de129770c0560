"""Back to safety over a room's socket: the `safety` message is a racer's
move like `undo` (acknowledged, validated), whose ack says what the search
found; while the pile can still be cleared it changes nothing."""

import pytest

from tests.test_room_consumer import (  # noqa: F401 (fixture)
    fresh_layer,
    joined,
    racing_room,
    reply_to,
    version,
)

pytestmark = [pytest.mark.django_db(transaction=True)]


async def test_safety_on_a_clearable_pile_is_acknowledged_and_changes_nothing():
    room, ann, bob, pairs = await racing_room()
    ws = await joined(room, ann)
    a, b = pairs[0]
    await reply_to(ws, {"type": "take", "a": a, "b": b, "move": 0, "ref": 1})
    before = await version(room)
    ack = await reply_to(ws, {"type": "safety", "move": 1, "ref": 2})
    assert (ack["type"], ack["ref"], ack["v"]) == ("ack", 2, before)
    # The page says so: no need to go back.
    assert ack["safety"] == {"exact": True, "clearable_now": True, "pairs_back": 0}
    assert await version(room) == before
    await ws.disconnect()


async def test_a_safety_message_without_its_move_is_refused():
    room, ann, bob, pairs = await racing_room()
    ws = await joined(room, ann)
    error = await reply_to(ws, {"type": "safety", "ref": 3})
    assert (error["type"], error["ref"]) == ("error", 3)
    await ws.disconnect()
