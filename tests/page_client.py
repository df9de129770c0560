"""A player's page, as static/js/rooms/connection.js runs it, over TLS
through nginx: the same timings (a ping every 5 s; a reply awaited 10 s
with no word from the server closes the socket; reconnects after 0.5 s
doubling to 8 s, at once after a close 1012 or 1001 or giving up on a
silent server), the same `since` on
every reconnect, the same gap handling (tests/seat_client.py), and a player
who taps a pair again when the page says it was offline."""

import asyncio
import random
import ssl
import time

from tests.seat_client import Seat
from tests.wsclient import Closed, Refused, WebSocket

# static/js/rooms/connection.js
PING_S = 5.0
SILENT_S = 10.0
PROBE_S = 3.0
FIRST_RETRY_S = 0.5
MAX_RETRY_S = 8.0
AT_ONCE_S = 0.1
RESTART_CODES = (1012, 1001, "silent")
STOP_CODES = (4000, 4403, 4404)
OFFLINE = {"type": "error", "code": "offline", "message": "connection lost"}


class Page(Seat):
    def __init__(self, name: str, cookie: str, code: str, edge: str, site: str) -> None:
        super().__init__(name, cookie, code)
        self.edge, self.site = edge, site
        self.tls = ssl.create_default_context()
        self.tls.check_hostname = False
        self.tls.verify_mode = ssl.CERT_NONE
        self.seat: int | None = None
        self.upstream = ""  # the daphne this socket reached (nginx's header)
        self.online = asyncio.Event()
        self.pending: dict[str, asyncio.Future] = {}
        self.silent_at: float | None = None
        self.handshakes: list[tuple[float, float]] = []  # (started, seconds)
        self.acks: list[tuple[float, float]] = []  # (sent, acked) of moves
        self.drops: list[tuple[float, object]] = []  # (when, code or "silent")
        self.opened_once = False
        self.last_heard = 0.0
        self.errors: list[str] = []  # why handshakes failed
        self.seen: dict[int, float] = {}  # event version: wall time it came

    # -- the connection --------------------------------------------------
    def start(self) -> None:
        self.runner = asyncio.create_task(self._run())

    async def _run(self) -> None:
        retry = FIRST_RETRY_S
        while True:
            try:
                code = await self._one_socket()
            except (
                OSError,
                Refused,
                TimeoutError,
                asyncio.IncompleteReadError,
            ) as error:
                self.errors.append(repr(error)[:200])
                code = None
            if code in STOP_CODES:
                return
            if isinstance(code, int) and code >= 4000:
                self.errors.append(f"closed {code}")
            self.drops.append((time.monotonic(), code))
            if self.opened_once:
                retry = FIRST_RETRY_S
            if code in RESTART_CODES:
                await asyncio.sleep(AT_ONCE_S * (1 + random.random()))
            else:
                await asyncio.sleep(retry)
                retry = min(retry * 2, MAX_RETRY_S)

    async def _one_socket(self) -> object:
        """One socket, from its handshake to its end: the close code, or
        "silent" when the page gave up on it."""
        self.opened_once = False
        since = "" if self.state is None else f"?since={self.state['version']}"
        started = time.monotonic()
        try:
            self.ws = await WebSocket.connect(
                self.edge,
                443,
                f"/ws/rooms/{self.code}/{since}",
                {
                    "Host": self.site,
                    "Origin": f"https://{self.site}",
                    "Cookie": f"tiles_player={self.cookie}",
                },
                tls=self.tls,
            )
        finally:
            self.handshakes.append((started, time.monotonic() - started))
        self.opened_once = True
        self.upstream = self.ws.headers.get("x-upstream", "")
        self.silent_at = None
        self.last_heard = time.monotonic()
        if self.state is not None:
            self.online.set()  # onopen; a first socket waits for its state
        tasks = [
            asyncio.create_task(self._listen_until_closed()),
            asyncio.create_task(self._ping()),
            asyncio.create_task(self._watch()),
        ]
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            return next(iter(done)).result()
        finally:
            for task in tasks:
                task.cancel()
            self.online.clear()
            self.ws.writer.transport.abort()
            for future in self.pending.values():
                if not future.done():
                    future.set_result(OFFLINE)
            self.pending.clear()

    async def _listen_until_closed(self) -> object:
        try:
            while True:
                self._handle(await self.ws.recv_json(timeout=3600))
        except Closed as closed:
            return closed.code
        except (ConnectionError, asyncio.IncompleteReadError, ssl.SSLError):
            return None

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(PING_S)
            await self.request({"type": "ping"}, wait=False)

    async def _watch(self) -> object:
        while True:
            await asyncio.sleep(0.05)
            if self.silent_at is not None and time.monotonic() > self.silent_at:
                return "silent"

    def _handle(self, message: dict) -> None:
        self.silent_at = None  # the server is alive
        self.last_heard = time.monotonic()
        if message["type"] == "hello":
            self.seat = message["seat"]
        elif message["type"] == "events":
            # Wall time, comparable with the server's: hosts share a clock.
            now = time.time()
            for event in message["events"]:
                self.seen.setdefault(event["v"], now)
        super()._handle(message)
        if message["type"] == "state":
            self.online.set()
        future = self.pending.pop(message.get("ref"), None)
        if future and not future.done():
            future.set_result(message)
        if self.pending:
            self.silent_at = time.monotonic() + SILENT_S

    async def request(self, message: dict, wait: bool = True) -> dict:
        """Send; its reply, or `offline` when the socket ends first."""
        if not self.online.is_set():
            return OFFLINE
        self.refs += 1
        ref = f"{self.name}-{self.refs}"
        future = asyncio.get_running_loop().create_future()
        self.pending[ref] = future
        if self.silent_at is None:
            # 10 s after the server's last word, and at least a probe's time.
            now = time.monotonic()
            self.silent_at = max(self.last_heard + SILENT_S, now + PROBE_S)
        try:
            await self.ws.send_json({**message, "ref": ref})
        except (ConnectionError, RuntimeError):
            return OFFLINE
        return await future if wait else {}

    # -- the player --------------------------------------------------------
    async def take(self, pair, move: int) -> dict:
        """Tap a pair; tapped again whenever the page was offline (the
        server acknowledges a repeat of the last pair and changes nothing)."""
        while True:
            await self.online.wait()
            sent = time.monotonic()
            reply = await self.request(
                {"type": "take", "a": pair[0], "b": pair[1], "move": move}
            )
            if reply["type"] == "ack":
                self.acks.append((sent, time.monotonic()))
                return reply
            if reply.get("code") != "offline":
                return reply

    def next_ack_after(self, moment: float) -> float | None:
        """Seconds from `moment` to the ack of the first move tapped after it."""
        after = [acked for sent, acked in self.acks if sent >= moment]
        return min(after) - moment if after else None


async def all_online(pages: list[Page], timeout_s: float = 30) -> None:
    """Start every page and wait until each has its socket open; a page
    that never gets there fails the test with its last errors."""
    for page in pages:
        page.start()
    for page in pages:
        try:
            await asyncio.wait_for(page.online.wait(), timeout_s)
        except TimeoutError:
            message = f"{page.name} never online: {page.errors[-3:]}"
            raise AssertionError(message) from None
