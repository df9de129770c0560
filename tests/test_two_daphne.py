"""Two daphne processes sharing Redis and PostgreSQL serve one race.

Ann (the host) is connected to one process, Bob to the other, a hard bot is
moved by a timer process of its own. Each sees the other's pairs and the
bot's arrive; then Ann's process dies mid-race, the bot plays on, Ann
reconnects to the other process with the version she had and catches up
with what she missed, and the race is played to its end.
"""

import asyncio
import time

import pytest
from asgiref.sync import sync_to_async

from rooms import actions
from tests.room_helpers import apply_events, guest_cookie_value, person, solution
from tests.services import Daphne, manage, needs_services, server_env
from tests.wsclient import Closed, WebSocket

WAIT_S = 15


class Seat:
    """One player's client: its socket and the state it has built."""

    def __init__(self, name: str, player, code: str) -> None:
        self.name, self.player, self.code = name, player, code
        self.state: dict | None = None
        self.early: dict[int, dict] = {}  # events ahead of a missing one
        self.refs = 0
        self.replies: dict = {}

    async def connect(self, server: Daphne) -> None:
        since = "" if self.state is None else f"?since={self.state['version']}"
        cookie = await sync_to_async(guest_cookie_value)(self.player)
        self.ws = await WebSocket.connect(
            "127.0.0.1",
            server.port,
            f"/ws/rooms/{self.code}/{since}",
            {
                "Origin": f"http://127.0.0.1:{server.port}",
                "Cookie": f"tiles_player={cookie}",
            },
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

    async def until(self, check, what: str) -> None:
        deadline = time.monotonic() + WAIT_S
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


def seated_room():
    ann, bob = person("Ann"), person("Bob")
    room = actions.create_room(ann, "Ann")
    actions.join_room(room.code, bob, "Bob")
    actions.add_bot(room.code, ann, "hard")
    actions.start_game(room.code, ann)
    return room, ann, bob


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
async def test_two_daphne_processes_serve_one_race():
    needs_services("two daphne processes")
    room, ann_player, bob_player = await sync_to_async(seated_room)()
    env = server_env()
    one, two = Daphne(env, "daphne one"), Daphne(env, "daphne two")
    timers = manage(["run_timers"], env)
    processes = [one, two, timers]
    try:
        one.wait_ready()
        two.wait_ready()
        ann = Seat("ann", ann_player, room.code)
        bob = Seat("bob", bob_player, room.code)
        await ann.connect(one)
        await bob.connect(two)
        deal = {"type": "deal", "mode": "race", "pile": "small", "limit": 0}
        assert (await ann.send(deal))["type"] == "ack"
        await bob.until(lambda: bob.state["round"], "the deal")
        pairs = await sync_to_async(solution)(room)
        await asyncio.sleep(1.6)  # the pile builds, then every clock starts

        # Each sees the other's pairs, across the two processes.
        for move, pair in enumerate(pairs[:6]):
            await ann.take(pair, move)
            await bob.until(lambda m=move: bob.racer(0)["matches"] == m + 1, "Ann")
            await bob.take(pair, move)
            await ann.until(lambda m=move: ann.racer(1)["matches"] == m + 1, "Bob")
        # The bot, moved by the timer process, shows on both.
        for seat in (ann, bob):
            await seat.until(lambda s=seat: s.racer(2)["matches"] >= 1, "the bot")

        # Ann's process dies; the race goes on without it.
        one.stop()
        await asyncio.wait_for(ann.task, WAIT_S)
        seen = ann.racer(2)["matches"]
        await bob.take(pairs[6], 6)
        await bob.until(lambda: bob.racer(2)["matches"] > seen, "the bot move on")
        await ann.connect(two)
        await ann.until(lambda: ann.racer(1)["matches"] == 7, "what she missed")
        assert ann.racer(2)["matches"] > seen

        # Both clear their piles on the surviving process; Ann ends the race.
        for move, pair in enumerate(pairs[6:], start=6):
            await ann.take(pair, move)
        for move, pair in enumerate(pairs[7:], start=7):
            await bob.take(pair, move)
        await ann.until(lambda: ann.racer(1)["status"] == "cleared", "Bob clear")
        if ann.state["round"]["status"] == "racing":
            assert (await ann.send({"type": "end_now"}))["type"] == "ack"
        for seat in (ann, bob):
            await seat.until(lambda s=seat: s.state["round"]["status"] == "over", "end")
        places = {s["seat"]: s["place"] for s in bob.state["round"]["standings"]}
        assert places[0] == 1 and places[1] == 2
        fresh = await sync_to_async(actions.snapshot)(room.code)
        assert bob.state["version"] == fresh[0].version
        for seat in (ann, bob):
            await seat.ws.close()
    except BaseException:
        print("\n".join(p.log() for p in processes))
        raise
    finally:
        for p in processes:
            p.stop()
