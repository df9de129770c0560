"""A room socket whose handshake meets an outage (issue 24, point 6): it
is closed with 4503 and a message, and what it counted is given back, so
the page's retries during the outage do not fill the seat for later."""

import pytest
from django.db import OperationalError

from accounts.socket_outage import CLOSE_TRY_AGAIN
from rooms import actions
from rooms.limits import SOCKETS_PER_SEAT
from tests.test_room_consumer import (  # noqa: F401  (fresh_layer: autouse)
    connect,
    fresh_layer,
    joined,
    racing_room,
)


async def closing_messages(ws) -> list[dict]:
    got = []
    while (output := await ws.receive_output(timeout=5))["type"] != "websocket.close":
        got.append(output)
    return [*got, output]


@pytest.mark.django_db(transaction=True)
async def test_a_database_failure_mid_handshake_says_try_again_and_counts_nothing(
    monkeypatch,
):
    room, ann, *_ = await racing_room()

    def cut(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    # The seat was read; the database goes as the socket registers.
    monkeypatch.setattr(actions, "open_connection", cut)
    for _ in range(SOCKETS_PER_SEAT + 2):
        ws, connected = await connect(room, ann)
        assert connected
        *sent, closed = await closing_messages(ws)
        assert closed["code"] == CLOSE_TRY_AGAIN
        assert '"code": "unavailable"' in sent[-1]["text"]
    monkeypatch.undo()
    ws = await joined(room, ann)  # not refused as a fifth socket (4409)
    await ws.disconnect()
