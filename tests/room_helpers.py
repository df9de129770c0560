"""People, a fake clock and a client's view of a room, for the room tests."""

import copy
from datetime import timedelta

from django.core import signing

from accounts.models import Player
from accounts.players import GUEST_COOKIE_SALT
from games.engine.deal import generate_deal
from rooms import actions, clock, move_tx
from rooms.models import Room
from rooms.state import full_state
from tests.race_helpers import T0


class RoomClock:
    """Replaces the rooms' clock; time moves only when a test says so."""

    def __init__(self, monkeypatch, now=T0) -> None:
        self.now = now
        monkeypatch.setattr(clock, "current_time", lambda: self.now)

    def advance(self, ms: int) -> None:
        self.now += timedelta(milliseconds=ms)

    def to_race_ms(self, room: Room, ms: int) -> None:
        """Move to `ms` on the race clock of the room's round (never paused)."""
        rnd = room.current_round
        self.now = rnd.running_since + timedelta(milliseconds=ms - rnd.banked_ms)


def person(name: str) -> Player:
    return Player.objects.create(display_name=name)


def guest_cookie_value(player: Player) -> str:
    """The guest cookie a browser holds for `player` (as accounts sets it)."""
    return signing.TimestampSigner(salt=GUEST_COOKIE_SALT).sign(player.guest_token)


def solution(room: Room) -> tuple[tuple[int, int], ...]:
    """A clearing order of the room's current deal (its seed replays it)."""
    rnd = Room.objects.get(pk=room.pk).current_round
    return generate_deal(rnd.layout(), rnd.seed).solution


def fresh_state(code: str) -> dict:
    return full_state(*actions.snapshot(code))


def apply_events(state: dict, events: list[dict]) -> dict:
    """What a client does with events (docs/protocol.md, "Applying events"):
    skip versions it has, merge the rest in order."""
    state = copy.deepcopy(state)
    for event in events:
        if event["v"] <= state["version"]:
            continue
        assert event["v"] == state["version"] + 1, "a gap: the client would sync"
        kind, data = event["kind"], event["data"]
        if kind in ("room", "members", "round"):
            state[kind] = data
        elif kind == "race":
            rnd = state["round"]
            racers = {r["seat"]: r for r in rnd["racers"]}
            for patch in data["racers"]:
                if patch["seat"] in racers:
                    racers[patch["seat"]].update(patch)
                else:
                    rnd["racers"].append(patch)
            rnd.update({k: v for k, v in data.items() if k != "racers"})
        elif kind == "together":
            state["round"].update(data)
        state["version"] = event["v"]
    return state


def spy_reads(monkeypatch) -> list:
    """The rows of each move's read from here on."""
    read: list = []
    tx_read = move_tx.RoundTransaction.read

    def reading(tx, statement):
        rows = tx_read(tx, statement)
        read.extend(rows)
        return rows

    monkeypatch.setattr(move_tx.RoundTransaction, "read", reading)
    return read
