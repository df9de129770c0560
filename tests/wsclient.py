"""A small asyncio websocket client (RFC 6455), enough to talk to daphne.

The test suite and bench/rooms.py drive real daphne processes with it; the
project carries no websocket client package. Text frames only, client
frames masked, pings answered, fragmented messages joined.
"""

import asyncio
import base64
import contextlib
import hashlib
import json
import os
import ssl
import struct

_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
TEXT, CLOSE, PING, PONG, CONTINUATION = 0x1, 0x8, 0x9, 0xA, 0x0


class Refused(ConnectionError):
    """The server answered the handshake with something other than 101."""

    def __init__(self, status: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(status)
        self.status, self.headers = status, headers or {}


class Closed(ConnectionError):
    def __init__(self, code: int | None) -> None:
        super().__init__(f"websocket closed ({code})")
        self.code = code


class WebSocket:
    def __init__(self, reader, writer) -> None:
        self.reader, self.writer = reader, writer
        self.headers: dict[str, str] = {}  # the handshake's reply

    @classmethod
    async def room(
        cls,
        port: int,
        code: str,
        cookie: str,
        *,
        host: str = "127.0.0.1",
        query: str = "",
        source: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> "WebSocket":
        """A room's socket, as a page served from host:port opens it:
        same-site Origin, the guest or player cookie (and `headers`, such as
        a front proxy's)."""
        return await cls.connect(
            host,
            port,
            f"/ws/rooms/{code}/{query}",
            {
                "Origin": f"http://{host}:{port}",
                "Cookie": f"tiles_player={cookie}",
                **(headers or {}),
            },
            source,
        )

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        path: str,
        headers: dict[str, str] | None = None,
        source: str | None = None,
        tls: ssl.SSLContext | None = None,
    ) -> "WebSocket":
        """A websocket to host:port, from the local address `source` if
        given (any of 127.0.0.0/8 on loopback); over TLS with `tls`, to
        the site a Host header names if given (SNI too)."""
        local = None if source is None else (source, 0)
        headers = dict(headers or {})
        site = headers.pop("Host", f"{host}:{port}")
        reader, writer = await asyncio.open_connection(
            host,
            port,
            local_addr=local,
            ssl=tls,
            server_hostname=site.split(":")[0] if tls else None,
        )
        return await cls.over(reader, writer, site, path, headers)

    @classmethod
    async def over(
        cls, reader, writer, site: str, path: str, headers: dict[str, str]
    ) -> "WebSocket":
        """The handshake on a connection already open (as a proxy sends it
        on a kept-alive connection)."""
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: {site}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            *(f"{k}: {v}" for k, v in headers.items()),
        ]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        status = (await reader.readline()).decode()
        answer = {}
        while (line := (await reader.readline()).decode().strip()) != "":
            name, _, value = line.partition(":")
            answer[name.strip().lower()] = value.strip()
        if " 101 " not in status:
            writer.close()
            raise Refused(status.strip(), answer)
        expected = base64.b64encode(hashlib.sha1((key + _GUID).encode()).digest())
        if answer.get("sec-websocket-accept") != expected.decode():
            writer.close()
            raise Refused("bad Sec-WebSocket-Accept")
        ws = cls(reader, writer)
        ws.headers = answer
        return ws

    async def _send_frame(self, opcode: int, payload: bytes) -> None:
        head = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 1 << 16:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.writer.write(head + mask + masked)
        await self.writer.drain()

    async def send_text(self, text: str) -> None:
        await self._send_frame(TEXT, text.encode())

    async def send_json(self, message: dict) -> None:
        await self.send_text(json.dumps(message))

    async def _read_frame(self) -> tuple[bool, int, bytes]:
        b1, b2 = await self.reader.readexactly(2)
        n = b2 & 0x7F
        if n == 126:
            (n,) = struct.unpack(">H", await self.reader.readexactly(2))
        elif n == 127:
            (n,) = struct.unpack(">Q", await self.reader.readexactly(8))
        mask = await self.reader.readexactly(4) if b2 & 0x80 else None
        payload = await self.reader.readexactly(n)
        if mask:
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        return bool(b1 & 0x80), b1 & 0x0F, payload

    async def recv_text(self) -> str:
        parts: list[bytes] = []
        while True:
            try:
                fin, opcode, payload = await self._read_frame()
            except asyncio.IncompleteReadError:
                raise Closed(None) from None
            if opcode == PING:
                await self._send_frame(PONG, payload)
            elif opcode == CLOSE:
                code = struct.unpack(">H", payload[:2])[0] if payload else None
                raise Closed(code)
            elif opcode in (TEXT, CONTINUATION):
                parts.append(payload)
                if fin:
                    return b"".join(parts).decode()

    async def recv_json(self, timeout: float = 10) -> dict:
        return json.loads(await asyncio.wait_for(self.recv_text(), timeout))

    async def close(self) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self._send_frame(CLOSE, struct.pack(">H", 1000))
        self.writer.close()
