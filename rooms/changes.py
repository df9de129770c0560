"""The one unit of change to a room, and what every action shares.

Each action runs in one transaction holding the room's row lock, so
everything that happens in one room is applied in one order, each change
on the state the last one left; the room's version counts the events.
Events are saved with their version in the same transaction and published
only after it commits. A change to the round in play (a person's move, a
bot's, a timer's) takes `round_action`'s path, or `ending`'s for the timer:
read in one statement built from the models (rooms.sql), the pure rule,
then the writes and events in one statement that runs only if nothing changed
the room since the read (rooms.move_tx: else it is tried again on a new
read), and publish once written. Seat changes and deals, which add and
remove rows of several kinds, take `room_change`'s: lock, read, apply,
write, number the events and publish after commit, through the ORM in a
`transaction.atomic` block, the round in play applied through
`Change.play`. Both move the room's revision on, which is how a move
learns that one of them came between its read and its write.
"""

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from accounts.models import Player
from games.errors import Conflict, Forbidden, NotFound, Refused
from rooms import clock, move_tx, race, sql, together
from rooms.models import Member, Room
from rooms.publish import Message, publish_on_commit
from rooms.sql import Writes
from rooms.state import race_patch, together_json

# An event before it is numbered: its kind and its data (a dict, a list or
# None, as docs/protocol.md has each kind).
Event = tuple[str, Any]


def no_room(code: str) -> NotFound:
    """The error for a room code that names no open room."""
    return NotFound(gettext("no room %(code)s") % {"code": code})


def _locked_room(code: str) -> Room:
    # The current round comes in the same query; only the room row is locked.
    rooms = Room.objects.open().select_related("current_round")
    room = rooms.select_for_update(of=("self",)).filter(code=code).first()
    if room is None:
        raise no_room(code)
    return room


def members_of(room: Room) -> list[Member]:
    return list(room.members.all())


def member_of(room: Room, player: Player) -> Member:
    member = room.members.filter(player=player).first()
    if member is None:
        raise Forbidden("not_member", gettext("you are not in this room"))
    return member


def require_host(room: Room, player: Player) -> None:
    if room.host_id != player.pk:
        raise Forbidden("not_host", gettext("only the host can do that"))


def in_play(room: Room) -> sql.InPlay | None:
    """The round in play in `room` and its state (None: no race or
    Together game on)."""
    if room.current_round_id is None:
        return None
    return sql.load_play(room.current_round_id)


def _numbered(room: Room, events: list[Event]) -> list[Message]:
    """Events as saved and sent, numbered on from the room's version (which
    this moves on)."""
    messages = []
    for kind, data in events:
        room.version += 1
        messages.append(Message(room.version, kind, data))
    return messages


State = race.Race | together.Together


def changes(
    room: Room, round_id: int, old: State, new: State
) -> tuple[list[Event], Writes]:
    """What changed from `old` to `new` in the round in play: the event
    players see (none when nothing changed, as for a retried message, or
    when only a Together connection did) and the statements that save it.
    Sets the room's wake_at for the new state."""
    if isinstance(new, together.Together) and isinstance(old, together.Together):
        room.wake_at = together.wake_at(new)
        if new == old:
            return [], ()
        writes = sql.together_writes((round_id, new.seed), new)
        if together.same_but_links(old, new):
            return [], writes  # a new connection of someone's: no news
        return [("together", together_json(new))], writes
    if not (isinstance(new, race.Race) and isinstance(old, race.Race)):
        raise TypeError("a round's state keeps its mode")
    room.wake_at = race.wake_at(new)
    if new == old:
        return [], ()
    return [("race", race_patch(old, new))], sql.race_writes(round_id, old, new)


@dataclass
class Change:
    """A seat change or a deal under way in `room_change`: the locked room,
    the time read after the lock, and what the action adds as it goes."""

    room: Room
    now: datetime
    events: list[Event] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)  # the room's fields set
    writes: list[sql.Write] = field(default_factory=list)

    def play(self, rule: Callable[[State], State]) -> None:
        """Apply `rule` to the round in play, if any: its event and rows
        join the change's."""
        play = in_play(self.room)
        if play is None:
            return
        events, writes = changes(self.room, play.round_id, play.state, rule(play.state))
        self.events += events
        self.writes += writes

    def room_fields(self, *names: str) -> None:
        """The room's fields the action set, saved with its version."""
        self.changed += names


@contextmanager
def room_change(code: str, host: Player | None = None) -> Iterator[Change]:
    """The unit of change for seats and deals: one transaction holding the
    room's row lock (only `host` may act, when given); the block applies
    the change and adds its events; they are numbered and stored with the
    room's version, its fields set and the round's rows, and published
    after commit. A block that adds no event changes nothing."""
    with transaction.atomic():
        room = _locked_room(code)
        if host is not None:
            require_host(room, host)
        # Read after the lock: changes to a room are applied in time order.
        change = Change(room, clock.current_time())
        yield change
        if change.events:
            emit(room, change.events, change.now, change.changed, change.writes)


def emit(
    room: Room,
    events: list[Event],
    now: datetime,
    changed: Sequence[str] = (),
    writes: Writes = (),
) -> None:
    """How a change in an ORM transaction ends (`room_change`, and a room
    being made): number and store `events` with the room's version and
    wake_at, the `changed` fields the action set and `writes` (a round's
    rows), and publish the events after commit."""
    messages = _numbered(room, events)
    sql.add_events(room, messages, now, writes)
    if changed:
        room.save(update_fields=list(changed))
    publish_on_commit(room.code, messages)


def finish(
    tx: move_tx.RoundTransaction,
    room: Room,
    play: sql.InPlay,
    new: State,
    now: datetime,
    writes: Writes = (),
) -> bool:
    """End a change to the round in play with its new state and any other
    `writes`, its events published once written; False when another change
    of the room came first (nothing written: try again)."""
    messages, statements = ending(room, play, new, now, writes)
    if not tx.write(statements, [0])[0]:
        return False
    publish_on_commit(room.code, messages)
    return True


def ending(
    room: Room,
    play: sql.InPlay,
    new: State,
    now: datetime,
    writes: Writes = (),
    skip_locked: bool = False,
) -> tuple[list[Message], list[move_tx.Statement]]:
    """What `finish` ends a change with: the events to publish and the
    statements that save them, the new state and `writes`, the room's check
    first (the timer sends several rooms' in one pipeline)."""
    events, saves = changes(room, play.round_id, play.state, new)
    messages = _numbered(room, events)
    statements = sql.event_writes(
        room, messages, now, [*writes, *saves], skip_locked=skip_locked
    )
    return messages, statements


# A rule applied to the round in play on behalf of a seat, by mode.
RaceChange = Callable[[race.Race, int, Room, datetime], race.Race]
TogetherChange = Callable[[together.Together, int, Room, datetime], together.Together]
# Statements that go with a change, from what the move read and both states.
Extra = Callable[[sql.Seen, State, State], Writes]


def round_action(
    code: str,
    player: Player,
    change: RaceChange,
    shared: TogetherChange | None = None,
    extra: Extra | None = None,
) -> Room:
    """The one unit of change to the round in progress, on behalf of
    `player`'s own seat (never a seat named by the client): read the room
    and what is in play in one statement, apply `change` in a race or
    `shared` in Together (None: the mode has no such action), write if
    nothing changed the room since the read (else all of it again on a new
    read), and publish once written (rooms.move_tx)."""
    for _ in range(move_tx.TRIES):
        with move_tx.move() as tx:
            seen = sql.read_seat(code, player.pk, tx)
            if seen is None:
                raise no_room(code)
            if seen.member is None:
                raise Forbidden("not_member", gettext("you are not in this room"))
            if seen.play is None:
                raise Conflict("no_race", gettext("no race is in progress"))
            # Read after the room: a change written is applied at a later
            # time than every change it read, so in time order.
            now, room, play = clock.current_time(), seen.room, seen.play
            seat, old = seen.member.seat, play.state
            new: State
            if not isinstance(old, together.Together):
                new = change(old, seat, room, now)
            elif shared is None:
                raise Refused(
                    "together", gettext("Together has no undo, shuffle or stop")
                )
            else:
                new = shared(old, seat, room, now)
            writes = extra(seen, old, new) if extra else ()
            if finish(tx, room, play, new, now, writes):
                return room
    raise RuntimeError(f"room {code} changed under each of {move_tx.TRIES} tries")
