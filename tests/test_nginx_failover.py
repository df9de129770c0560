"""The shipped nginx site (deploy/nginx/tiles.conf) in the moment of a
rolling upgrade that its passive health marks make dangerous: the machine
upgraded first is back, but nginx still counts it as failed because the
first request it sent there after its fail_timeout was a websocket, which
finishes only when it closes; then the next machine stops.

nginx answered every request in those seconds with 502 "no live
upstreams", and a page whose socket the stop had closed kept failing its
reconnects (tests/test_hosts.py's rolling upgrade, one run in four). With
each daphne listed again as a backup that is never marked, the daphne that
is back answers.

The two daphnes are stand-ins that answer any request with their name,
and a websocket handshake with 101 (then hold the socket): what nginx's
choice depends on, without a database.
"""

import asyncio
import socket
import ssl
import subprocess
import time
from pathlib import Path

from tests.nginx_site import fail_timeout_s, main_config, need, self_signed, site
from tests.services import free_port

SITE = "tiles.test"


class StandIn:
    """A daphne's port: closed (refused, as a stopped daphne's) or open."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.port = free_port()
        self.server: asyncio.Server | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    async def start(self) -> None:
        self.server = await asyncio.start_server(
            self._answer, "127.0.0.1", self.port, reuse_address=True
        )

    def stop(self) -> None:
        """Stop listening, as a daphne's stop does first; the sockets it
        holds stay open."""
        assert self.server is not None
        self.server.close()

    async def _answer(self, reader, writer) -> None:
        who = f"X-Daphne: {self.name}\r\n"
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                if b"upgrade: websocket" in head.lower():
                    writer.write(
                        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                        f"Connection: Upgrade\r\n{who}\r\n".encode()
                    )
                    await reader.read()  # held until nginx lets go
                    return
                writer.write(
                    f"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n{who}\r\n".encode()
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


class Nginx:
    def __init__(self, folder: Path, upstreams: list[str]) -> None:
        self.prefix = folder / "nginx"
        (folder / "public").mkdir()
        cert, key = self_signed(folder, SITE)
        self.port = free_port()
        text = site(
            upstreams=upstreams,
            cert=cert,
            key=key,
            public=folder / "public",
            ipv6=False,
            ports=(free_port(), self.port),
        )
        self.conf = main_config(self.prefix, text)
        self.tls = ssl.create_default_context()
        self.tls.check_hostname, self.tls.verify_mode = False, ssl.CERT_NONE

    def start(self) -> None:
        command = ["nginx", "-c", str(self.conf), "-p", str(self.prefix)]
        self.process = subprocess.Popen([*command, "-g", "daemon off;"])
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.5).close()
                return
            except OSError:
                assert time.monotonic() < deadline, "nginx never listened"
                assert self.process.poll() is None, "nginx exited"
                time.sleep(0.05)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)

    def errors(self) -> str:
        return (self.prefix / "logs" / "error.log").read_text()

    async def ask(self, path: str, upgrade: bool = False):
        """Status and daphne of one request on a connection of its own; the
        connection is returned open, so a websocket stays up."""
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", self.port, ssl=self.tls, server_hostname=SITE
        )
        headers = f"GET {path} HTTP/1.1\r\nHost: {SITE}\r\n"
        if upgrade:
            headers += "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            headers += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            headers += "Sec-WebSocket-Version: 13\r\n"
        writer.write(f"{headers}\r\n".encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 15)
        lines = head.decode().split("\r\n")
        who = next((x.split(": ")[1] for x in lines if x.startswith("X-Daphne")), "")
        return int(lines[0].split(" ")[1]), who, writer


async def until_marked(nginx: Nginx, daphne: StandIn) -> None:
    """Requests until one has tried `daphne`, refused, and nginx has taken
    it out of rotation (round robin reaches it within a few)."""
    for _ in range(6):
        status, who, writer = await nginx.ask("/")
        writer.close()
        assert (status, who) == (200, "b"), "the daphne that is up answers"
        if "temporarily disabled" in nginx.errors():
            assert daphne.address in nginx.errors()
            return
    raise AssertionError(f"nginx never marked {daphne.address}:\n{nginx.errors()}")


async def the_upgrade_moment(nginx: Nginx, a: StandIn, b: StandIn) -> list:
    await b.start()
    await until_marked(nginx, a)  # a: the first machine, stopped
    await a.start()  # back, on the new release
    # docs/DEPLOY.md's wait before the next machine: its mark has lapsed
    # (nginx counts whole seconds, so one more).
    await asyncio.sleep(fail_timeout_s() + 1.5)
    sockets = []
    for _ in range(6):
        status, who, writer = await nginx.ask("/ws/rooms/ABCDE/", upgrade=True)
        sockets.append(writer)
        assert status == 101, status
        if who == "a":
            break  # nginx's check of a: this socket, open for minutes
    else:
        raise AssertionError("no handshake reached the daphne that came back")
    b.stop()  # the next machine stops
    answers = []
    for path, upgrade in [("/", False), ("/ws/rooms/ABCDE/", True)] * 3:
        status, who, writer = await nginx.ask(path, upgrade)
        sockets.append(writer)
        answers.append((path, status, who))
    for writer in sockets:
        writer.close()
    return answers


def test_a_daphne_back_in_rotation_answers_when_the_next_machine_stops(tmp_path):
    need("nginx")
    need("openssl")
    a, b = StandIn("a"), StandIn("b")
    nginx = Nginx(tmp_path, [a.address, b.address])
    nginx.start()
    try:
        answers = asyncio.run(the_upgrade_moment(nginx, a, b))
    finally:
        nginx.stop()
    expected = [(path, 200 if path == "/" else 101, "a") for path, _, _ in answers]
    assert answers == expected, nginx.errors()[-2000:]
