"""The bench's own websocket client: raw asyncio, RFC 6455, nothing of the app.

bench/rooms.py plays rooms through it against any commit's servers
(bench/compare.py runs an older tree's daphne), so it imports none of the
app's modules and none of its test helpers: the tree measured provides
only the server. It speaks what a browser would: an HTTP upgrade with the
page's Origin and the player's cookie, masked text frames out, text
frames in (pings answered, fragments joined).
"""

import asyncio
import base64
import hashlib
import json
import os

# RFC 6455's key suffix and opcodes.
ACCEPT_SUFFIX = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
OP_CONTINUE, OP_TEXT, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x8, 0x9, 0xA


class SocketClosed(ConnectionError):
    """The server closed the socket (or the connection dropped)."""


def _masked(payload: bytes, mask: bytes) -> bytes:
    # One big-integer XOR rather than a byte loop: the client shares the
    # machine's two cores with the servers it measures.
    n = len(payload)
    key = int.from_bytes((mask * (n // 4 + 1))[:n], "big")
    return (int.from_bytes(payload, "big") ^ key).to_bytes(n, "big")


def frame(opcode: int, payload: bytes) -> bytes:
    """A client frame: final, masked."""
    n = len(payload)
    if n < 126:
        length = bytes([0x80 | n])
    elif n < 65536:
        length = bytes([0x80 | 126]) + n.to_bytes(2, "big")
    else:
        length = bytes([0x80 | 127]) + n.to_bytes(8, "big")
    mask = os.urandom(4)
    return bytes([0x80 | opcode]) + length + mask + _masked(payload, mask)


class RoomSocket:
    """One player's socket to a room (`/ws/rooms/CODE/`)."""

    def __init__(self, reader: asyncio.StreamReader, writer) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(
        cls, port: int, code: str, cookie: str, source: str | None = None
    ) -> "RoomSocket":
        """From loopback address `source` (any of 127.0.0.0/8) if given."""
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", port, local_addr=None if source is None else (source, 0)
        )
        key = base64.b64encode(os.urandom(16))
        request = (
            f"GET /ws/rooms/{code}/ HTTP/1.1\r\n"
            f"Host: 127.0.0.1:{port}\r\n"
            f"Origin: http://127.0.0.1:{port}\r\n"
            f"Cookie: tiles_player={cookie}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key.decode()}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        )
        writer.write(request.encode())
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        accept = base64.b64encode(hashlib.sha1(key + ACCEPT_SUFFIX).digest())
        if " 101 " not in head.split("\r\n")[0] or accept.decode() not in head:
            writer.close()
            raise ConnectionError(f"refused: {head.splitlines()[0]}")
        return cls(reader, writer)

    async def send(self, message: dict) -> None:
        self.writer.write(frame(OP_TEXT, json.dumps(message).encode()))
        await self.writer.drain()

    async def receive(self) -> dict:
        """The next message, as JSON."""
        pieces = []
        try:
            while True:
                first, second = await self.reader.readexactly(2)
                n = second & 0x7F
                if n >= 126:
                    size = 2 if n == 126 else 8
                    n = int.from_bytes(await self.reader.readexactly(size), "big")
                payload = await self.reader.readexactly(n)  # servers never mask
                opcode = first & 0x0F
                if opcode == OP_PING:
                    self.writer.write(frame(OP_PONG, payload))
                elif opcode == OP_CLOSE:
                    raise SocketClosed(payload[:2].hex())
                elif opcode in (OP_TEXT, OP_CONTINUE):
                    pieces.append(payload)
                    if first & 0x80:
                        return json.loads(b"".join(pieces))
        except asyncio.IncompleteReadError:
            raise SocketClosed("dropped") from None

    async def close(self) -> None:
        try:
            self.writer.write(frame(OP_CLOSE, (1000).to_bytes(2, "big")))
            await self.writer.drain()
        except ConnectionError:
            pass
        self.writer.close()
