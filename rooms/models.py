"""Live rooms: the room and its seats, the rounds dealt in it (each racer's
state, or a Together game's), and the numbered log of events the clients
follow.

The rows are the authority; the channel layer only tells clients that
something changed. Rules live in rooms.race and rooms.together; changes go
through rooms.actions (under the room's row lock), never by saving these
directly.
"""

import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import models

from games.engine.layout import Layout
from games.play import Clock, layout_of
from rooms import race, together_store
from rooms.together import PLAYING as TOGETHER_PLAYING
from rooms.together import Together

# No look-alike letters or digits (0/O, 1/I/L, 2/Z, 5/S, 8/B).
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 5
NAME_MAX = 32


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_revision() -> int:
    """A row's new revision: any number its last one is not. Random rather
    than counted, so a write that was rolled back, or one made from a stale
    copy of the row, cannot bring back a number another write used."""
    return random.getrandbits(62)


class Revised(models.Model):
    """A row whose `revision` changes with every write: rooms.sql keeps the
    state it last decoded from a row under that number, so an unchanged row
    is not decoded again, and a room's is what a move's write checks to know
    that nothing changed the room since the move read it (rooms.move_tx).
    Writes through `save` and through rooms.sql's statements set it; nothing
    else may write these rows."""

    revision = models.BigIntegerField(default=0, db_default=0)

    class Meta:
        abstract = True

    def save(self, *args, **kwargs) -> None:
        self.revision = new_revision()
        fields = kwargs.get("update_fields")
        if fields is not None:
            kwargs["update_fields"] = [*fields, "revision"]
        super().save(*args, **kwargs)


class RoomQuerySet(models.QuerySet):
    def open(self) -> "RoomQuerySet":
        """Rooms not closed: the only ones anyone may find, join or watch."""
        return self.exclude(status=Room.Status.CLOSED)


class Room(Revised):
    class Status(models.TextChoices):
        LOBBY = "lobby"
        GAME = "game"  # everyone on the game screen; rounds are dealt here
        CLOSED = "closed"

    # Unique through a constraint in Meta: a unique field would also get a
    # second index on PostgreSQL, for LIKE on its prefix, which nothing asks
    # (admin's search is a substring), and every update that cannot stay in
    # place (a bot's move changes the indexed wake_at) adds an entry to each.
    code = models.CharField(max_length=CODE_LENGTH, default=new_code)
    host = models.ForeignKey(
        "accounts.Player", null=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(
        max_length=8, choices=Status.choices, default=Status.LOBBY
    )
    # The host's last choices for a deal: {"mode", "pile", "limit"}.
    settings = models.JSONField(default=dict)
    # The number of the last event; each event gets the next one.
    version = models.PositiveBigIntegerField(default=0)
    next_seat = models.PositiveIntegerField(default=0)
    current_round = models.ForeignKey(
        "Round", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # When run_timers must next look at this room (a time limit, a bot's
    # move); null when nothing is due.
    wake_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The host's manners: a locked room takes no new members, and a person
    # the host removed (their Player id here) cannot join again.
    locked = models.BooleanField(default=False)
    removed = models.JSONField(default=list)
    created = models.DateTimeField(auto_now_add=True)

    objects = RoomQuerySet.as_manager()

    class Meta(Revised.Meta):
        abstract = False
        constraints = [models.UniqueConstraint(fields=["code"], name="one_room_a_code")]

    def __str__(self) -> str:
        return f"room {self.code} ({self.status})"


class Member(models.Model):
    """A seat in a room: a person (a Player) or a bot of some level."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="members")
    # Join order; never reused within a room, so a seat names one member.
    seat = models.PositiveIntegerField()
    player = models.ForeignKey(
        "accounts.Player", null=True, blank=True, on_delete=models.CASCADE
    )
    bot_level = models.CharField(max_length=8, blank=True)
    name = models.CharField(max_length=NAME_MAX)
    joined = models.DateTimeField(auto_now_add=True)
    # Pauses this member made in the round `pauses_round` (a Round's id):
    # counted per deal (rooms.moves.PAUSES_PER_DEAL).
    pauses = models.PositiveSmallIntegerField(default=0)
    pauses_round = models.PositiveBigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["room", "seat"], name="one_member_a_seat"),
            models.UniqueConstraint(
                fields=["room", "player"],
                condition=models.Q(player__isnull=False),
                name="one_seat_a_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.seat} in {self.room_id})"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)


@dataclass(frozen=True)
class Dealt:
    """What never changes in a round after the deal."""

    layout: Layout
    faces: tuple[str, ...]  # as dealt
    witness: tuple[tuple[int, int], ...]  # the engine's clearing order


class Round(Revised):
    """One deal in a room, played by the rules its `mode` names: a race (each
    seat's pile in Racer rows) or Together (one shared pile, its state in
    `together`). `status` is "racing" while either is in play."""

    class Status(models.TextChoices):
        RACING = race.RACING
        OVER = race.OVER

    class Mode(models.TextChoices):
        RACE = "race"
        TOGETHER = "together"

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.RACE)
    pile = models.CharField(max_length=16)
    layout_slug = models.CharField(max_length=64)
    layout_name = models.CharField(max_length=100)
    positions = models.JSONField()  # [[x, y, z], ...]: a snapshot of the layout
    seed = models.CharField(max_length=32)
    faces = models.JSONField()  # as dealt
    witness = models.JSONField(default=list)  # the engine's clearing order
    status = models.CharField(
        max_length=8, choices=Status.choices, default=Status.RACING
    )
    dealt_at = models.DateTimeField()
    limit_ms = models.PositiveIntegerField(null=True, blank=True)
    banked_ms = models.BigIntegerField(default=0)
    running_since = models.DateTimeField(null=True, blank=True)
    paused = models.BooleanField(default=False)
    # Together only: the seats, moves, turn and current faces (the clock is
    # in the fields above); see rooms.together_store. Null for a race.
    together = models.JSONField(null=True, blank=True)

    class Meta(Revised.Meta):
        abstract = False
        constraints = [
            models.UniqueConstraint(
                fields=["room", "number"], name="one_round_a_number"
            )
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.room_id} ({self.status})"

    def layout(self) -> Layout:
        positions = tuple(tuple(p) for p in self.positions)
        return layout_of(self.layout_slug, self.layout_name, positions)

    def dealt(self) -> Dealt:
        return Dealt(
            self.layout(), tuple(self.faces), tuple(tuple(p) for p in self.witness)
        )

    def state(self, racers: list[race.Racer], dealt: Dealt | None = None) -> race.Race:
        """The race on this round with `racers`; `dealt` saves building the
        round's fixed part again when the caller kept it."""
        dealt = dealt or self.dealt()
        return race.Race(
            layout=dealt.layout,
            faces=dealt.faces,
            seed=self.seed,
            dealt_at=self.dealt_at,
            clock=Clock(self.banked_ms, self.running_since),
            limit_ms=self.limit_ms,
            racers=tuple(racers),
            status=self.status,
            paused=self.paused,
            witness=dealt.witness,
        )

    def set_state(self, state: race.Race) -> None:
        """Copy the race-wide part of a new state onto this row (not saved)."""
        for name, value in round_fields(state).items():
            setattr(self, name, value)

    @property
    def is_together(self) -> bool:
        return self.mode == self.Mode.TOGETHER

    def together_state(self) -> Together:
        return together_store.load(
            self.layout(),
            self.seed,
            self.dealt_at,
            Clock(self.banked_ms, self.running_since),
            self.paused,
            self.together,
        )

    def set_together(self, state: Together) -> None:
        """Copy a Together state onto this row (not saved)."""
        for name, value in round_fields(state).items():
            setattr(self, name, value)


def round_fields(state: race.Race | Together) -> dict[str, Any]:
    """The fields of a Round that its state in play sets, by name."""
    fields: dict[str, Any] = {
        "banked_ms": state.clock.banked_ms,
        "running_since": state.clock.running_since,
        "paused": state.paused,
    }
    if isinstance(state, Together):
        playing = state.status == TOGETHER_PLAYING
        fields["status"] = Round.Status.RACING if playing else Round.Status.OVER
        fields["together"] = together_store.dump(state)
    else:
        fields["status"] = state.status
    return fields


class Racer(Revised):
    """One seat's own copy of a round's pile."""

    class Status(models.TextChoices):
        PLAYING = race.PLAYING
        CLEARED = race.CLEARED
        STOPPED = race.STOPPED
        TIMED_OUT = race.TIMED_OUT
        LEFT = race.LEFT

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="racers")
    seat = models.PositiveIntegerField()
    name = models.CharField(max_length=NAME_MAX)
    bot_level = models.CharField(max_length=8, blank=True)
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.PLAYING
    )
    faces = models.JSONField()  # current faces, after any shuffles
    # The undo log: {"ms", "pair": [a, b]} for a pair taken, {"ms", "faces":
    # [...]} for a shuffle (the faces it replaced).
    steps = models.JSONField(default=list)
    penalty_ms = models.PositiveBigIntegerField(default=0)
    shuffles = models.PositiveIntegerField(default=0)
    end_ms = models.PositiveBigIntegerField(null=True, blank=True)
    bot_at_ms = models.PositiveBigIntegerField(null=True, blank=True)
    # Kept for queries and the admin; the rules count from `steps`.
    matches = models.PositiveIntegerField(default=0)

    class Meta(Revised.Meta):
        abstract = False
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="one_racer_a_seat")
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.round_id} ({self.status})"

    def state(self) -> race.Racer:
        fields = self._meta.concrete_fields
        return racer_state({f.attname: getattr(self, f.attname) for f in fields})


def racer_state(
    row: Mapping[str, Any], steps: tuple[race.Step, ...] | None = None
) -> race.Racer:
    """The state a Racer row holds, from its fields' values by attname (the
    instance's, or a move's read's, which makes no instance: rooms.sql);
    `steps`, the undo log's entries when the caller decoded them."""
    return race.Racer(
        seat=row["seat"],
        name=row["name"],
        faces=tuple(row["faces"]),
        bot=row["bot_level"],
        status=row["status"],
        steps=step_states(row["steps"]) if steps is None else steps,
        penalty_ms=row["penalty_ms"],
        shuffles=row["shuffles"],
        end_ms=row["end_ms"],
        bot_at_ms=row["bot_at_ms"],
    )


class Appended(list):
    """The entries a JSON list column gets after those it holds: what a
    racer's undo log that only grew is written as (`racer_fields`)."""


def _racer_values(state: race.Racer) -> dict[str, Any]:
    """A Racer row's fields from `state`, by name, the JSON ones still the
    state's tuples: two states of a move share the tuples of what the move
    left alone, so comparing them is cheap."""
    return {
        "seat": state.seat,
        "name": state.name,
        "bot_level": state.bot,
        "status": state.status,
        "faces": state.faces,
        "steps": state.steps,
        "penalty_ms": state.penalty_ms,
        "shuffles": state.shuffles,
        "end_ms": state.end_ms,
        "bot_at_ms": state.bot_at_ms,
        "matches": state.matches,
    }


def racer_fields(
    state: race.Racer, since: race.Racer | None = None, grow: bool = False
) -> dict[str, Any]:
    """The fields of a Racer row that hold `state` (Racer.state's inverse),
    by name. With `since`, the state the row holds now, only those whose
    value differs; and with `grow`, an undo log that only grew on a
    non-empty one comes as its new entries (`Appended`). A move adds one
    step to a log of up to 72 pairs and the shuffles: its write neither
    builds nor compares nor encodes the whole log."""
    fields = _racer_values(state)
    if since is not None:
        was = _racer_values(since)
        fields = {name: v for name, v in fields.items() if v != was[name]}
    if "faces" in fields:
        fields["faces"] = list(state.faces)
    if "steps" in fields:
        was_steps = since.steps if since is not None and grow else ()
        kept = len(was_steps)
        if 0 < kept < len(state.steps) and state.steps[:kept] == was_steps:
            fields["steps"] = Appended(map(step_json, state.steps[kept:]))
        else:
            fields["steps"] = [step_json(step) for step in state.steps]
    return fields


def step_json(step: race.Step) -> dict[str, Any]:
    """An entry of the undo log as its JSON (see Racer.steps)."""
    ms, pair, faces_before = step
    if pair is not None:
        return {"ms": ms, "pair": list(pair)}
    return {"ms": ms, "faces": list(faces_before or ())}


def step_states(steps: list[dict]) -> tuple[race.Step, ...]:
    """The undo log's entries from their JSON (see Racer.steps)."""
    return tuple(
        race.taken(s["ms"], tuple(s["pair"]))
        if "pair" in s
        else race.shuffled(s["ms"], tuple(s["faces"]))
        for s in steps
    )


class Event(models.Model):
    """What clients follow: every change to a room, numbered in order.

    A client that missed some (a reconnect, a dropped message) asks for the
    events after the last version it has, or gets a full state."""

    # No index of its own: every move inserts an event, and the unique
    # (room, version) below already serves lookups by room.
    room = models.ForeignKey(
        Room, on_delete=models.CASCADE, related_name="events", db_index=False
    )
    version = models.PositiveBigIntegerField()
    kind = models.CharField(max_length=16)
    data = models.JSONField(null=True)  # null: "no round" for a round event
    created = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["room", "version"], name="one_event_a_version"
            )
        ]

    def __str__(self) -> str:
        return f"{self.room_id} v{self.version} {self.kind}"

    def as_message(self) -> dict:
        return {"v": self.version, "kind": self.kind, "data": self.data}


def epoch_ms(when: datetime | None) -> int | None:
    return None if when is None else int(when.timestamp() * 1000)
