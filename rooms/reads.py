"""Reads of a room for sockets and watchers: a full state, or events since."""

from django.db import transaction

from rooms import race, together
from rooms.changes import members_of, no_room
from rooms.models import Member, Room, Round

# A client further behind than this many events gets a full state instead.
MAX_REPLAY = 500


def _round_state(rnd: Round) -> race.Race | together.Together:
    if rnd.is_together:
        return rnd.together_state()
    return rnd.state([r.state() for r in rnd.racers.all()])


def snapshot(
    code: str,
) -> tuple[Room, list[Member], Round | None, race.Race | together.Together | None]:
    """A consistent read of a room for a full state."""
    with transaction.atomic():
        # The lock waits out a change in progress, so the version read here
        # matches the rows read after it.
        room = Room.objects.select_for_update().filter(code=code).first()
        if room is None:
            raise no_room(code)
        members = members_of(room)
        rnd = room.current_round
        return room, members, rnd, _round_state(rnd) if rnd else None


def read_state(
    code: str,
) -> tuple[Room, list[Member], Round | None, race.Race | together.Together | None]:
    """A read of a room for watchers: no lock, so watchers never wait on the
    players or hold them up. The rows may be newer than the room's version
    read first, never older. A closed room is not found."""
    room = Room.objects.open().select_related("current_round").filter(code=code).first()
    if room is None:
        raise no_room(code)
    rnd = room.current_round
    return room, members_of(room), rnd, _round_state(rnd) if rnd else None


def events_since(room: Room, version: int) -> list[dict] | None:
    """The events after `version`, or None when they are no longer all kept
    or so many that a full state is smaller."""
    if room.version - version > MAX_REPLAY:
        return None
    rows = list(room.events.filter(version__gt=version).order_by("version"))
    if rows and rows[0].version != version + 1:
        return None
    return [e.as_message() for e in rows]
