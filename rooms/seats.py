"""Rooms and seats: create, join, bots, start, leave, the host's manners."""

from dataclasses import replace
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from accounts.models import Player
from config.numerals import local_digits
from games.errors import Conflict, Forbidden, Refused
from rooms import clock, race, together
from rooms.bots import EASY, HARD, LEVELS, MEDIUM
from rooms.changes import (
    Event,
    State,
    changes,
    emit,
    in_play,
    locked_room,
    member_of,
    members_of,
    require_host,
)
from rooms.models import NAME_MAX, Member, Room
from rooms.publish import unseated_on_commit
from rooms.sql import Writes
from rooms.state import members_json, room_json

MAX_SEATS = 8
MAX_BOTS = 3


def _clean_name(name: str) -> str:
    name = " ".join(str(name).split())[:NAME_MAX]
    if not name:
        raise Refused("bad_name", gettext("a display name is needed"))
    return name


def create_room(player: Player, name: str) -> Room:
    """A new room in its lobby, with `player` as its host in seat 0."""
    name = _clean_name(name)
    now = clock.current_time()
    for _ in range(10):
        try:
            with transaction.atomic():
                room = Room.objects.create(host=player, next_seat=1)
                Member.objects.create(room=room, seat=0, player=player, name=name)
                members = members_of(room)
                emit(
                    room,
                    [
                        ("room", room_json(room, members)),
                        ("members", members_json(members)),
                    ],
                    now,
                )
                return room
        except IntegrityError:
            continue  # the random code was taken: draw another
    raise RuntimeError("could not find a free room code")


def _seat(room: Room, **fields) -> Member:
    if room.members.count() >= MAX_SEATS:
        raise Conflict(
            "full",
            gettext("a room holds %(seats)s players and bots")
            % {"seats": local_digits(MAX_SEATS)},
        )
    member = Member.objects.create(room=room, seat=room.next_seat, **fields)
    room.next_seat += 1
    room.save(update_fields=["next_seat"])
    return member


def _late_racer(
    room: Room, member: Member, now: datetime
) -> tuple[list[Event], Writes]:
    """Seat a newcomer on the race in progress, if it is still young; in
    Together they watch this pile and play the next."""
    play = in_play(room)
    if play is None:
        return [], ()
    old = play.state
    new: State
    if isinstance(old, together.Together):
        new = together.watch(old, member.seat, member.name, member.bot_level)
    else:
        try:
            new = race.join(old, member.seat, member.name, member.bot_level, now)
        except Conflict:
            return [], ()  # too late: they race from the next deal on
    return changes(room, play.round_id, old, new)


def _require_welcome(room: Room, player: Player) -> None:
    if player.pk in room.removed:
        raise Forbidden("removed", gettext("the host removed you from this room"))
    if room.locked:
        raise Forbidden(
            "locked", gettext("the host has locked this room to new players")
        )


def join_room(code: str, player: Player, name: str) -> Room:
    """Take a seat (or change one's display name when already seated)."""
    name = _clean_name(name)
    with transaction.atomic():
        room = locked_room(code)
        now = clock.current_time()
        member = room.members.filter(player=player).first()
        events: list[Event] = []
        writes: Writes = ()
        if member is None:
            _require_welcome(room, player)
            member = _seat(room, player=player, name=name)
            events, writes = _late_racer(room, member, now)
        elif member.name != name:
            member.name = name
            member.save(update_fields=["name"])
        else:
            return room
        events.insert(0, ("members", members_json(members_of(room))))
        emit(room, events, now, writes=writes)
        return room


def _between_deals(code: str, player: Player) -> Room:
    """The room, locked, for its host to change its bots: never while a
    round is in play."""
    room = locked_room(code)
    require_host(room, player)
    if in_play(room) is not None:
        raise Conflict("racing", gettext("wait for the race to end"))
    return room


def bot_name(level: str, number: int) -> str:
    """The `number`th bot of a level in a room, named in the language of
    whoever adds it (as a person names themselves): "Easy bot", then "Easy
    bot 2" and on."""
    if number == 1:
        first = {
            EASY: gettext("Easy bot"),
            MEDIUM: gettext("Medium bot"),
            HARD: gettext("Hard bot"),
        }
        return first[level]
    numbered = {
        EASY: gettext("Easy bot %(number)s"),
        MEDIUM: gettext("Medium bot %(number)s"),
        HARD: gettext("Hard bot %(number)s"),
    }
    return numbered[level] % {"number": local_digits(number)}


def add_bot(code: str, player: Player, level: str) -> Room:
    if level not in LEVELS:
        raise Refused(
            "bad_level",
            gettext("a bot is one of %(levels)s") % {"levels": ", ".join(LEVELS)},
        )
    now = clock.current_time()
    with transaction.atomic():
        room = _between_deals(code, player)
        bots = [m for m in members_of(room) if m.is_bot]
        if len(bots) >= MAX_BOTS:
            raise Conflict(
                "too_many_bots",
                gettext("a room takes up to %(bots)s bots")
                % {"bots": local_digits(MAX_BOTS)},
            )
        taken = {m.name for m in bots}
        name, number = bot_name(level, 1), 2
        while name in taken:
            name, number = bot_name(level, number), number + 1
        _seat(room, bot_level=level, name=name)
        emit(room, [("members", members_json(members_of(room)))], now)
        return room


def remove_bot(code: str, player: Player, seat: int) -> Room:
    now = clock.current_time()
    with transaction.atomic():
        room = _between_deals(code, player)
        deleted, _ = room.members.filter(seat=seat).exclude(bot_level="").delete()
        if not deleted:
            raise Refused(
                "no_bot",
                gettext("no bot in seat %(seat)s") % {"seat": local_digits(seat)},
            )
        emit(room, [("members", members_json(members_of(room)))], now)
        return room


def start_game(code: str, player: Player) -> Room:
    """Everyone moves from the lobby to the game screen."""
    now = clock.current_time()
    with transaction.atomic():
        room = locked_room(code)
        require_host(room, player)
        if room.status != Room.Status.LOBBY:
            raise Conflict("started", gettext("the game has started"))
        room.status = Room.Status.GAME
        emit(room, [("room", room_json(room, members_of(room)))], now, "status")
        return room


def leave(code: str, player: Player) -> Room:
    """Give up one's seat. When the host leaves, the game ends for everyone
    and the room goes back to the lobby with the next person as host (or
    closes when only bots are left)."""
    with transaction.atomic():
        room = locked_room(code)
        _unseat(room, member_of(room, player), clock.current_time())
        return room


def remove_member(code: str, player: Player, seat: int) -> Room:
    """The host takes a person out of the room (as if they had left), and
    they cannot join it again. Bots go with remove_bot."""
    with transaction.atomic():
        room = locked_room(code)
        require_host(room, player)
        member = room.members.filter(seat=seat, bot_level="").first()
        if member is None:
            raise Refused(
                "no_person",
                gettext("nobody sits in seat %(seat)s") % {"seat": local_digits(seat)},
            )
        if member.player_id == player.pk:
            raise Refused(
                "host_seat", gettext("the host leaves with leave, not remove")
            )
        room.removed = [*room.removed, member.player_id]
        room.save(update_fields=["removed"])
        _unseat(room, member, clock.current_time())
        return room


def lock_room(code: str, player: Player, locked: bool) -> Room:
    """The host closes (or opens again) the room to new members; those
    seated stay."""
    now = clock.current_time()
    with transaction.atomic():
        room = locked_room(code)
        require_host(room, player)
        if room.locked == locked:
            return room
        room.locked = locked
        emit(room, [("room", room_json(room, members_of(room)))], now, "locked")
        return room


def _unseat(room: Room, member: Member, now: datetime) -> None:
    """Take `member` (a person) off the locked room, ending their part in
    the round; the host's leaving ends the round and passes the room on."""
    leaving_host = room.host_id == member.player_id
    events: list[Event] = []
    changed: list[str] = []
    writes: Writes = ()
    play = in_play(room)
    if play is not None:
        old = play.state
        new: State
        if isinstance(old, together.Together):
            new = together.leave(old, member.seat, now)
            if leaving_host:
                # The host's leaving ends the game where it stands.
                new = replace(
                    new, status=together.OVER, turn=None, clock=new.clock.stopped(now)
                )
        elif leaving_host:
            new = race.abandon(old, now)
        else:
            new = race.leave(old, member.seat, now)
        events, writes = changes(room, play.round_id, old, new)
    member.delete()
    members = members_of(room)
    if leaving_host:
        heir = next((m for m in members if not m.is_bot), None)
        room.host_id = heir.player_id if heir else None
        room.status = Room.Status.LOBBY if heir else Room.Status.CLOSED
        room.wake_at = None
        room.current_round = None
        changed = ["host", "status", "current_round"]
        events += [("room", room_json(room, members)), ("round", None)]
    events.append(("members", members_json(members)))
    emit(room, events, now, *changed, writes=writes)
    unseated_on_commit(room.code, member.seat)


def merge_player_seats(sender, source: Player, target: Player, **kwargs) -> None:
    """A guest signing in keeps their seats and rooms (listens to
    accounts.signals.player_merging). Where the account already has a seat
    in the same room, that seat is kept and the guest's goes."""
    taken = Member.objects.filter(player=target).values_list("room_id", flat=True)
    seats = Member.objects.filter(player=source)
    seats.filter(room_id__in=list(taken)).delete()
    seats.update(player=target)
    Room.objects.filter(host=source).update(host=target)
