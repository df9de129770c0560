"""A player's client for tests against real daphne processes: its socket,
the room state it builds from `state` and `events` (docs/protocol.md), and
its requests' replies by `ref`."""

import asyncio
import time

import pytest

from tests.room_helpers import apply_events
from tests.wsclient import Closed, WebSocket

WAIT_S = 15


class Seat:
    """One player's client: its socket and the state it has built."""

    def __init__(self, name: str, cookie: str, code: str) -> None:
        self.name, self.cookie, self.code = name, cookie, code
        self.state: dict | None = None
        self.early: dict[int, dict] = {}  # events ahead of a missing one
        self.refs = 0
        self.replies: dict = {}

    async def connect(self, port: int, host: str = "127.0.0.1") -> None:
        """Open a socket, asking for what happened since the state it has."""
        since = "" if self.state is None else f"?since={self.state['version']}"
        self.ws = await WebSocket.room(
            port, self.code, self.cookie, host=host, query=since
        )
        self.task = asyncio.create_task(self._listen())

    async def _listen(self) -> None:
        try:
            while True:
                self._handle(await self.ws.recv_json(timeout=120))
        except (Closed, ConnectionError, asyncio.IncompleteReadError):
            pass

    def _handle(self, message: dict) -> None:
        if message["type"] == "state":
            self.state = {k: message[k] for k in ("version", "room", "members")}
            self.state["round"] = message["round"]
        elif message["type"] == "events":
            self.early.update({e["v"]: e for e in message["events"]})
        if self.state is not None:
            self._apply_early()
        if message.get("ref") is not None:
            self.replies[message["ref"]] = message

    def _apply_early(self) -> None:
        """Apply the events that follow on, in order (they may arrive out
        of order from different processes); ask for any still missing."""
        while (event := self.early.pop(self.state["version"] + 1, None)) is not None:
            self.state = apply_events(self.state, [event])
        self.early = {v: e for v, e in self.early.items() if v > self.state["version"]}
        if self.early:
            since = self.state["version"]
            asyncio.get_running_loop().create_task(
                self.ws.send_json({"type": "sync", "since": since, "ref": "sync"})
            )

    async def send(self, message: dict) -> dict:
        self.refs += 1
        ref = f"{self.name}-{self.refs}"
        await self.ws.send_json({**message, "ref": ref})
        await self.until(lambda: ref in self.replies, f"a reply to {message}")
        return self.replies[ref]

    async def until(self, check, what: str, within: float = WAIT_S) -> None:
        deadline = time.monotonic() + within
        while not (self.state is not None and check()):
            if time.monotonic() > deadline:
                pytest.fail(f"{self.name} never saw {what}")
            await asyncio.sleep(0.02)

    def racer(self, seat: int) -> dict:
        return next(r for r in self.state["round"]["racers"] if r["seat"] == seat)

    async def take(self, pair, move: int) -> None:
        reply = await self.send(
            {"type": "take", "a": pair[0], "b": pair[1], "move": move}
        )
        assert reply["type"] == "ack", reply


async def start_race(host: Seat, other: Seat, solution) -> list:
    """The host deals a Small race; once both have it, a clearing order of
    the deal (from `await solution()`) when every clock has started."""
    deal = {"type": "deal", "mode": "race", "pile": "small", "limit": 0}
    assert (await host.send(deal))["type"] == "ack"
    await other.until(lambda: other.state["round"], "the deal")
    pairs = await solution()
    # The pile builds, then the clock starts at the time the deal names.
    for seat in (host, other):
        await seat.until(lambda s=seat: clock_started(s.state), "the clock start")
    return pairs


def clock_started(state: dict) -> bool:
    since = state["round"]["running_since"]
    return since is not None and since <= time.time() * 1000


async def take_in_turns(first: Seat, second: Seat, pairs, moves: range) -> None:
    """Seat 0 (`first`) and seat 1 take the same pairs in turn, each seeing
    the other's arrive before its own."""
    for move in moves:
        await first.take(pairs[move], move)
        await second.until(lambda m=move: second.racer(0)["matches"] == m + 1, "0")
        await second.take(pairs[move], move)
        await first.until(lambda m=move: first.racer(1)["matches"] == m + 1, "1")
