"""Broken websocket frames get the close code RFC 6455 gives them from a
real daphne as sitewide.serve starts it, never a TCP reset: a daphne
upgrade that changes how sitewide.serve reaches its websockets fails here."""

import asyncio
import os
import socket
import struct
from collections import deque

import pytest
from autobahn.websocket.protocol import TrafficStats
from twisted.internet import tcp
from twisted.internet.testing import MemoryReactor, StringTransport

from rooms import actions
from sitewide.serve import TilesWebSocketProtocol
from tests.room_helpers import guest_cookie_value, person
from tests.services import Daphne, needs_services, server_env
from tests.wsclient import TEXT, Closed, WebSocket

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _frame(payload: bytes, masked: bool = True) -> bytes:
    """One final text frame, as a client may (or, unmasked, may not) send."""
    head = bytes([0x80 | TEXT])
    bit = 0x80 if masked else 0
    n = len(payload)
    if n < 126:
        head += bytes([bit | n])
    elif n < 1 << 16:
        head += bytes([bit | 126]) + struct.pack(">H", n)
    else:
        head += bytes([bit | 127]) + struct.pack(">Q", n)
    if not masked:
        return head + payload
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


@pytest.fixture
def seated_cookie():
    ann = person("Ann")
    room = actions.create_room(ann, "Ann")
    return room.code, guest_cookie_value(ann)


@pytest.fixture
def daphne():
    needs_services("a real daphne")
    server = Daphne(server_env())
    server.wait_ready()
    yield server
    server.stop()


async def _close_code(server: Daphne, code: str, cookie: str, frame: bytes) -> int:
    ws = await WebSocket.room(server.port, code, cookie)
    try:
        for _ in range(2):  # hello and the room's state
            await ws.recv_json()
        ws.writer.write(frame)
        await ws.writer.drain()
        while True:
            await asyncio.wait_for(ws.recv_text(), 10)
    except Closed as closed:
        return closed.code
    finally:
        ws.writer.close()


@pytest.mark.parametrize(
    ("frame", "expected"),
    [
        (_frame(b"x" * (1024 * 1024)), 1009),
        (_frame(b'{"type": "ping", "ref": "\xff\xfe"}'), 1007),
        (_frame(b'{"type": "ping"}', masked=False), 1002),
    ],
    ids=["1 MB", "invalid UTF-8", "unmasked"],
)
async def test_a_broken_frame_gets_its_close_code(
    daphne, seated_cookie, frame, expected
):
    code, cookie = seated_cookie
    assert await _close_code(daphne, code, cookie, frame) == expected


def _open_socket() -> TilesWebSocketProtocol:
    """An open socket of the protocol sitewide.serve gives daphne, writing
    to memory; its queued frames are left for the test to look at."""
    socket = TilesWebSocketProtocol()
    socket.transport = StringTransport()
    socket.state = socket.STATE_OPEN
    socket.send_queue = deque()
    socket.logOctets = False
    socket.trafficStats = TrafficStats()
    socket.triggered = True  # autobahn's own writer of the queue is "busy"
    return socket


def test_a_frame_of_an_open_socket_is_written_at_once():
    socket = _open_socket()
    socket.sendData(b"one")
    assert socket.transport.value() == b"one"
    assert socket.trafficStats.outgoingOctetsWireLevel == 3


def test_a_frame_waits_behind_the_frames_queued_before_it():
    socket = _open_socket()
    socket.send_queue.append((b"first", False))
    socket.sendData(b"second")
    assert socket.transport.value() == b""
    assert [data for data, _ in socket.send_queue] == [b"first", b"second"]


@pytest.fixture
def tcp_socket():
    """An open socket of sitewide.serve's protocol on a real TCP-like
    connection (one end of a socket pair, as twisted wraps an accepted
    socket), with its peer to read what reached the wire."""
    ours, peer = socket.socketpair()
    ours.setblocking(False)
    peer.settimeout(1)
    ws = _open_socket()
    ws.transport = tcp.Connection(ours, ws, reactor=MemoryReactor())
    ws.transport.connected = True
    yield ws, peer
    ours.close()
    peer.close()


def test_a_frame_reaches_the_socket_without_a_turn_of_the_loop(tcp_socket):
    ws, peer = tcp_socket
    ws.sendData(b"one")
    ws.sendData(b"two")
    # Nothing ran the reactor: the frames are already on the wire, in order.
    assert peer.recv(16) == b"onetwo"
    assert not ws.transport.reactor.writers


def test_a_frame_goes_behind_what_twisted_still_buffers(tcp_socket):
    ws, peer = tcp_socket
    ws.transport.write(b"queued")  # twisted's own write: buffered for the loop
    ws.sendData(b"frame")
    with pytest.raises(TimeoutError):
        peer.recv(16)
    ws.transport.doWrite()  # the loop's turn: both, in order
    assert peer.recv(16) == b"queuedframe"


def test_what_the_socket_does_not_take_is_buffered(tcp_socket):
    ws, peer = tcp_socket
    big = b"x" * (8 * 1024 * 1024)  # more than a socket pair's buffer
    ws.sendData(big)
    assert ws.transport.reactor.writers  # the rest waits for the loop
    got = bytearray()
    while len(got) < len(big):
        got += peer.recv(1 << 20)
        ws.transport.doWrite()
    assert bytes(got) == big
