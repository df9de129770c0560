"""Rooms and seats: create, join, bots, start, leave, the host's manners."""

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from accounts.models import Player
from games.errors import Conflict, Forbidden, Refused
from rooms import clock, race, together
from rooms.bots import EASY, HARD, LEVELS, MEDIUM
from rooms.changes import (
    Change,
    State,
    emit,
    in_play,
    member_of,
    members_of,
    room_change,
)
from rooms.models import NAME_MAX, Member, Room
from rooms.publish import unseated_on_commit
from rooms.state import members_json, room_json
from sitewide.numerals import local_digits

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


def _late_racer(member: Member, now: datetime) -> Callable[[State], State]:
    """Seat a newcomer on the race in progress, if it is still young; in
    Together they watch this pile and play the next."""

    def rule(old: State) -> State:
        if isinstance(old, together.Together):
            return together.watch(old, member.seat, member.name, member.bot_level)
        try:
            return race.join(old, member.seat, member.name, member.bot_level, now)
        except Conflict:
            return old  # too late: they race from the next deal on

    return rule


def refusal(room: Room, player: Player | None) -> Forbidden | None:
    """Why `player` (not seated; None: a visitor with no player yet) may not
    join `room`, or None. A person the host removed is refused by their
    player (their cookie or account); the removal also locked the room, so
    a fresh cookie is refused as a newcomer until the host opens it."""
    if player is not None and player.pk in room.removed:
        return Forbidden("removed", gettext("The host removed you from this room."))
    if room.locked:
        return Forbidden(
            "locked",
            gettext("The host has locked this room: nobody new can join for now."),
        )
    return None


def _require_welcome(room: Room, player: Player) -> None:
    if (refused := refusal(room, player)) is not None:
        raise refused


def join_room(code: str, player: Player, name: str) -> Room:
    """Take a seat (or change one's display name when already seated)."""
    name = _clean_name(name)
    with room_change(code) as change:
        room = change.room
        member = room.members.filter(player=player).first()
        if member is None:
            _require_welcome(room, player)
            member = _seat(room, player=player, name=name)
            change.events.append(("members", members_json(members_of(room))))
            change.play(_late_racer(member, change.now))
        elif member.name != name:
            member.name = name
            member.save(update_fields=["name"])
            change.events.append(("members", members_json(members_of(room))))
    return room


def _between_deals(room: Room) -> None:
    """The host changes the room's bots only while no round is in play."""
    if in_play(room) is not None:
        raise Conflict("racing", gettext("wait for the race to end"))


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
    with room_change(code, host=player) as change:
        room = change.room
        _between_deals(room)
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
        change.events.append(("members", members_json(members_of(room))))
    return room


def remove_bot(code: str, player: Player, seat: int) -> Room:
    with room_change(code, host=player) as change:
        room = change.room
        _between_deals(room)
        deleted, _ = room.members.filter(seat=seat).exclude(bot_level="").delete()
        if not deleted:
            raise Refused(
                "no_bot",
                gettext("no bot in seat %(seat)s") % {"seat": local_digits(seat)},
            )
        change.events.append(("members", members_json(members_of(room))))
    return room


def start_game(code: str, player: Player) -> Room:
    """Everyone moves from the lobby to the game screen."""
    with room_change(code, host=player) as change:
        room = change.room
        if room.status != Room.Status.LOBBY:
            raise Conflict("started", gettext("the game has started"))
        room.status = Room.Status.GAME
        change.room_fields("status")
        change.events.append(("room", room_json(room, members_of(room))))
    return room


def leave(code: str, player: Player) -> Room:
    """Give up one's seat. When the host leaves, the game ends for everyone
    and the room goes back to the lobby with the next person as host (or
    closes when only bots are left)."""
    with room_change(code) as change:
        member = member_of(change.room, player)
        _unseat(change, member)
    unseated_on_commit(change.room.code, member.seat)  # after the events
    return change.room


def remove_member(code: str, player: Player, seat: int) -> Room:
    """The host takes a person out of the room (as if they had left), and
    they cannot join it again by their cookie or account. The room locks
    too: with a fresh cookie they would be a newcomer, and newcomers now
    wait for the host's say (opening the room lets everyone in, them
    included). Bots go with remove_bot."""
    with room_change(code, host=player) as change:
        room = change.room
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
        room.locked = True
        change.room_fields("removed", "locked")
        _unseat(change, member)
        change.events.append(("room", room_json(room, members_of(room))))
    unseated_on_commit(room.code, member.seat)  # after the events
    return room


def lock_room(code: str, player: Player, locked: bool) -> Room:
    """The host closes (or opens again) the room to new members; those
    seated stay. Opening it is the host's say that everyone may come in,
    those removed before included."""
    with room_change(code, host=player) as change:
        room = change.room
        if room.locked != locked:
            room.locked = locked
            if not locked:
                room.removed = []
            change.room_fields("locked", "removed")
            change.events.append(("room", room_json(room, members_of(room))))
    return room


def _unseat(change: Change, member: Member) -> None:
    """Take `member` (a person) off the locked room, ending their part in
    the round; the host's leaving ends the round and passes the room on.
    The caller closes the seat's sockets once the change is published."""
    room, now = change.room, change.now
    leaving_host = room.host_id == member.player_id

    def rule(old: State) -> State:
        if isinstance(old, together.Together):
            new = together.leave(old, member.seat, now)
            if leaving_host:
                # The host's leaving ends the game where it stands.
                return replace(
                    new, status=together.OVER, turn=None, clock=new.clock.stopped(now)
                )
            return new
        if leaving_host:
            return race.abandon(old, now)
        return race.leave(old, member.seat, now)

    change.play(rule)
    member.delete()
    members = members_of(room)
    if leaving_host:
        heir = next((m for m in members if not m.is_bot), None)
        room.host_id = heir.player_id if heir else None
        room.status = Room.Status.LOBBY if heir else Room.Status.CLOSED
        room.wake_at = None
        room.current_round = None
        change.room_fields("host", "status", "current_round")
        change.events += [("room", room_json(room, members)), ("round", None)]
    change.events.append(("members", members_json(members)))


def merge_player_seats(sender, source: Player, target: Player, **kwargs) -> None:
    """A guest signing in keeps their seats and rooms (listens to
    accounts.signals.player_merging). Where the account already has a seat
    in the same room, that seat is kept and the guest's goes."""
    taken = Member.objects.filter(player=target).values_list("room_id", flat=True)
    seats = Member.objects.filter(player=source)
    seats.filter(room_id__in=list(taken)).delete()
    seats.update(player=target)
    Room.objects.filter(host=source).update(host=target)
