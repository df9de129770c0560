"""Every change to a room: validate, lock, apply the rules, save, publish.

Each action runs in one transaction holding the room's row lock
(select_for_update), so everything that happens in one room is applied in
one order, each change on the state the last one left; the room's version
counts the events. Events are saved with their version in the same
transaction and published only after it commits. The time always comes from
`current_time()`, never from a client.
"""

import secrets
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Player
from config.numerals import local_digits
from games.engine.deal import generate_deal
from games.engine.hint import Hint
from games.layouts import playable_layout
from rooms import move_tx, race, sql, together
from rooms.bots import LEVELS
from rooms.models import NAME_MAX, Member, Room, Round
from rooms.publish import publish_on_commit, unseated_on_commit
from rooms.race import Conflict, RaceError, Refused
from rooms.sql import Writes
from rooms.state import (
    members_json,
    race_patch,
    room_json,
    round_json,
    together_json,
)

MAX_SEATS = 8
MAX_BOTS = 3
# The two piles a host picks from, by the layouts' slugs.
PILES = {"big": "turtle", "small": "small"}
MODES = tuple(Round.Mode.values)
# A client further behind than this many events gets a full state instead.
MAX_REPLAY = 500
# How often each player may pause one deal (the rules page says so): enough
# for the doorbell, too few to stop a game again and again.
PAUSES_PER_DEAL = 3


class NotFound(RaceError):
    def __init__(self, message: str = "no such room") -> None:
        super().__init__("not_found", message)


class Forbidden(RaceError):
    pass


def current_time() -> datetime:
    """The server's clock; tests replace it to drive rooms through time."""
    return timezone.now()


# -- loading and saving ----------------------------------------------------


def _locked(code: str) -> Room:
    # The current round comes in the same query; only the room row is locked.
    rooms = Room.objects.select_related("current_round").select_for_update(of=("self",))
    room = rooms.filter(code=code).first()
    if room is None or room.status == Room.Status.CLOSED:
        raise NotFound(f"no room {code!r}")
    return room


def _members(room: Room) -> list[Member]:
    return list(room.members.all())


def _member(room: Room, player: Player) -> Member:
    member = room.members.filter(player=player).first()
    if member is None:
        raise Forbidden("not_member", gettext("you are not in this room"))
    return member


def _require_host(room: Room, player: Player) -> None:
    if room.host_id != player.pk:
        raise Forbidden("not_host", gettext("only the host can do that"))


def _racing_round(room: Room) -> tuple[Round, list[race.Racer]] | None:
    rnd = room.current_round
    if rnd is None or rnd.status != Round.Status.RACING:
        return None
    return rnd, _racers(rnd)


def _racers(rnd: Round) -> list[race.Racer]:
    return [r.state() for r in rnd.racers.all()]


def _numbered(room: Room, events: list[tuple[str, dict]]) -> list[dict]:
    """Events as saved and sent, numbered on from the room's version (which
    this moves on)."""
    messages = []
    for kind, data in events:
        room.version += 1
        messages.append({"v": room.version, "kind": kind, "data": data})
    return messages


def _emit(
    room: Room,
    events: list[tuple[str, dict]],
    now: datetime,
    *changed: str,
    writes: Writes = (),
) -> None:
    """Number and store events, and publish them after commit. Saves the
    room's version and wake_at (which change with the events), plus the
    `changed` fields the action set; `writes` (a race's rows, from
    _save_race) go to the database with them."""
    messages = _numbered(room, events)
    sql.add_events(room, messages, now, writes)
    if changed:
        room.save(update_fields=changed)
    publish_on_commit(room.code, messages)


def _save_race(
    room: Room, round_id: int, old: race.Race, new: race.Race, writes: list
) -> tuple[str, dict] | None:
    """What changed between two states: its statements added to `writes`
    (for _emit, which sends them with the events in one round trip), and
    the "race" event; None when nothing changed (a retried message)."""
    room.wake_at = race.wake_at(new)
    if new == old:
        return None
    writes += sql.race_writes(round_id, old, new)
    return ("race", race_patch(old, new))


def _save_together(
    room: Room, rnd: Round, old: together.Together, new: together.Together
) -> tuple[str, dict] | None:
    """Write a new Together state; the "together" event, or None when nothing
    players see changed."""
    room.wake_at = together.wake_at(new)
    if new == old:
        return None
    rnd.set_together(new)
    fields = ["status", "banked_ms", "running_since", "paused", "together"]
    rnd.save(update_fields=fields)
    if together.unlinked(new) == together.unlinked(old):
        return None  # a new connection of someone's: saved, but no news
    return ("together", together_json(new))


def _save_state(
    room: Room,
    rnd: Round,
    old: race.Race | together.Together,
    new: race.Race | together.Together,
    writes: list,
) -> tuple[str, dict] | None:
    if rnd.is_together:
        return _save_together(room, rnd, old, new)
    return _save_race(room, rnd.pk, old, new, writes)


def _in_play(
    locked: sql.Locked,
) -> tuple[Round, race.Race | together.Together] | None:
    """The round in play in a locked room, with its state; None when no race
    or Together game is in progress. Read after the lock, so it is what the
    last change left."""
    round_id = locked.room.current_round_id
    if locked.mode == Round.Mode.TOGETHER:
        rnd = Round.objects.get(pk=round_id)
        if rnd.status != Round.Status.RACING:
            return None
        return rnd, rnd.together_state()
    if locked.mode is None:
        return None
    return sql.load_race(round_id)


RaceChange = Callable[[race.Race, int, Room, datetime], race.Race]
TogetherChange = Callable[[together.Together, int, Room, datetime], together.Together]


def _round_action(
    code: str,
    player: Player,
    change: RaceChange,
    shared: TogetherChange | None = None,
) -> Room:
    """Apply one change to the round in progress, on behalf of `player`'s own
    seat (never a seat named by the client): `change` in a race, `shared` in
    Together (None: the mode has no such action)."""
    room = _race_move(code, player, change)
    if room is None:  # a Together game
        room = _orm_round_action(code, player, change, shared)
    return room


def _race_move(code: str, player: Player, change: RaceChange) -> Room | None:
    """A change to a race: the path of every pair, in two round trips on
    PostgreSQL (rooms.move_tx). None, having changed nothing, when the
    room's round is a Together game."""
    with move_tx.move() as move:
        locked = sql.lock_seat(code, player.pk, move)
        room = _member_room(locked, code)
        if locked.mode == Round.Mode.TOGETHER:
            return None
        if locked.racing is None:
            raise Conflict("no_race", gettext("no race is in progress"))
        # Read after the lock: changes to a room are applied in time order.
        now = current_time()
        rnd, old = locked.racing
        new = change(old, locked.seat, room, now)
        messages = _finish_race(move, room, rnd, old, new, now)
    publish_on_commit(room.code, messages)  # committed by now
    return room


def _finish_race(
    move: move_tx.Move,
    room: Room,
    rnd: Round,
    old: race.Race,
    new: race.Race,
    now: datetime,
) -> list[dict]:
    """Finish a move with what changed from `old` to `new`; the events to
    publish once `move` has ended."""
    writes = []
    event = _save_race(room, rnd.pk, old, new, writes)
    messages = _numbered(room, [event] if event else [])
    move.finish(sql.event_writes(room, messages, now, writes))
    return messages


def _member_room(locked: sql.Locked | None, code: str) -> Room:
    if locked is None:
        raise NotFound(f"no room {code!r}")
    if locked.seat is None:
        raise Forbidden("not_member", gettext("you are not in this room"))
    return locked.room


def _orm_round_action(
    code: str,
    player: Player,
    change: RaceChange,
    shared: TogetherChange | None,
) -> Room:
    """`_round_action` in Together, whose state is read and written through
    the ORM (and in a race dealt since `_race_move` looked)."""
    with transaction.atomic():
        locked = sql.lock_seat(code, player.pk)
        room, seat = _member_room(locked, code), locked.seat
        now = current_time()
        current = _in_play(locked)
        if current is None:
            raise Conflict("no_race", gettext("no race is in progress"))
        rnd, old = current
        if not rnd.is_together:
            new = change(old, seat, room, now)
        elif shared is None:
            raise Refused("together", gettext("Together has no undo, shuffle or stop"))
        else:
            new = shared(old, seat, room, now)
        writes = []
        event = _save_state(room, rnd, old, new, writes)
        _emit(room, [event] if event else [], now, writes=writes)
        return room


# -- rooms and seats -------------------------------------------------------


def _clean_name(name: str) -> str:
    name = " ".join(str(name).split())[:NAME_MAX]
    if not name:
        raise Refused("bad_name", gettext("a display name is needed"))
    return name


def create_room(player: Player, name: str) -> Room:
    """A new room in its lobby, with `player` as its host in seat 0."""
    name = _clean_name(name)
    now = current_time()
    for _ in range(10):
        try:
            with transaction.atomic():
                room = Room.objects.create(host=player, next_seat=1)
                Member.objects.create(room=room, seat=0, player=player, name=name)
                members = _members(room)
                _emit(
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
    room: Room, member: Member, now: datetime, writes: list
) -> tuple[str, dict] | None:
    """Seat a newcomer on the race in progress, if it is still young; in
    Together they watch this pile and play the next."""
    current = _racing_round(room)
    if current is None:
        return None
    rnd, rows = current
    if rnd.is_together:
        old = rnd.together_state()
        new = together.watch(old, member.seat, member.name, member.bot_level)
        return _save_together(room, rnd, old, new)
    old = rnd.state(rows)
    try:
        new = race.join(old, member.seat, member.name, member.bot_level, now)
    except Conflict:
        return None  # too late: they race from the next deal on
    return _save_race(room, rnd.pk, old, new, writes)


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
        room = _locked(code)
        now = current_time()
        member = room.members.filter(player=player).first()
        events, writes = [], []
        if member is None:
            _require_welcome(room, player)
            member = _seat(room, player=player, name=name)
            events.append(_late_racer(room, member, now, writes))
        elif member.name != name:
            member.name = name
            member.save(update_fields=["name"])
        else:
            return room
        events.insert(0, ("members", members_json(_members(room))))
        _emit(room, [e for e in events if e], now, writes=writes)
        return room


def add_bot(code: str, player: Player, level: str) -> Room:
    if level not in LEVELS:
        raise Refused("bad_level", f"a bot is one of {', '.join(LEVELS)}")
    now = current_time()
    with transaction.atomic():
        room = _locked(code)
        _require_host(room, player)
        if _racing_round(room) is not None:
            raise Conflict("racing", gettext("wait for the race to end"))
        bots = [m for m in _members(room) if m.is_bot]
        if len(bots) >= MAX_BOTS:
            raise Conflict(
                "too_many_bots",
                gettext("a room takes up to %(bots)s bots")
                % {"bots": local_digits(MAX_BOTS)},
            )
        taken = {m.name for m in bots}
        name = f"{level.capitalize()} bot"
        number = 2
        while name in taken:
            name, number = f"{level.capitalize()} bot {number}", number + 1
        _seat(room, bot_level=level, name=name)
        _emit(room, [("members", members_json(_members(room)))], now)
        return room


def remove_bot(code: str, player: Player, seat: int) -> Room:
    now = current_time()
    with transaction.atomic():
        room = _locked(code)
        _require_host(room, player)
        if _racing_round(room) is not None:
            raise Conflict("racing", gettext("wait for the race to end"))
        deleted, _ = room.members.filter(seat=seat).exclude(bot_level="").delete()
        if not deleted:
            raise Refused("no_bot", f"no bot in seat {seat}")
        _emit(room, [("members", members_json(_members(room)))], now)
        return room


def start_game(code: str, player: Player) -> Room:
    """Everyone moves from the lobby to the game screen."""
    now = current_time()
    with transaction.atomic():
        room = _locked(code)
        _require_host(room, player)
        if room.status != Room.Status.LOBBY:
            raise Conflict("started", gettext("the game has started"))
        room.status = Room.Status.GAME
        _emit(room, [("room", room_json(room, _members(room)))], now, "status")
        return room


def deal_round(code: str, player: Player, mode: str, pile: str, limit: int) -> Room:
    """A new pile for everyone seated; the host's choices are kept."""
    if mode not in MODES:
        raise Refused("bad_mode", f"the mode is one of {', '.join(MODES)}")
    if pile not in PILES:
        raise Refused("bad_pile", f"the pile is one of {', '.join(PILES)}")
    if limit not in race.LIMIT_MINUTES:
        raise Refused("bad_limit", f"the time limit is one of {race.LIMIT_MINUTES}")
    layout = playable_layout(PILES[pile])
    seed = secrets.token_hex(8)
    deal = generate_deal(layout, seed)
    now = current_time()
    with transaction.atomic():
        room = _locked(code)
        _require_host(room, player)
        if room.status != Room.Status.GAME:
            raise Conflict("not_started", gettext("start the game first"))
        if _racing_round(room) is not None:
            raise Conflict("racing", gettext("a race is in progress"))
        members = _members(room)
        # Members come in seat order, which is join order: Together's turns.
        seats = [(m.seat, m.name, m.bot_level) for m in members]
        if mode == Round.Mode.TOGETHER:
            state = together.deal(layout, deal.faces, seed, seats, now, deal.solution)
            witness, limit_ms = state.plan, None
        else:
            state = race.deal(
                layout, deal.faces, seed, seats, limit, now, deal.solution
            )
            witness, limit_ms = state.witness, state.limit_ms
        last = room.rounds.order_by("-number").values_list("number", flat=True)
        rnd = Round.objects.create(
            room=room,
            number=(last.first() or 0) + 1,
            mode=mode,
            pile=pile,
            layout_slug=layout.slug,
            layout_name=layout.name,
            positions=[list(p) for p in layout.positions],
            seed=seed,
            faces=list(deal.faces),
            witness=[list(p) for p in witness],
            dealt_at=now,
            limit_ms=limit_ms,
        )
        if mode == Round.Mode.TOGETHER:
            rnd.set_together(state)
            rnd.save()
            room.wake_at = together.wake_at(state)
            writes = []
        else:
            rnd.set_state(state)
            rnd.save()
            writes = sql.race_writes(rnd.pk, replace(state, racers=()), state)
            room.wake_at = race.wake_at(state)
        room.current_round = rnd
        room.settings = {"mode": mode, "pile": pile, "limit": limit}
        _emit(
            room,
            [("room", room_json(room, members)), ("round", round_json(rnd, state))],
            now,
            "current_round",
            "settings",
            writes=writes,
        )
        return room


def leave(code: str, player: Player) -> Room:
    """Give up one's seat. When the host leaves, the game ends for everyone
    and the room goes back to the lobby with the next person as host (or
    closes when only bots are left)."""
    with transaction.atomic():
        room = _locked(code)
        _unseat(room, _member(room, player), current_time())
        return room


def remove_member(code: str, player: Player, seat: int) -> Room:
    """The host takes a person out of the room (as if they had left), and
    they cannot join it again. Bots go with remove_bot."""
    with transaction.atomic():
        room = _locked(code)
        _require_host(room, player)
        member = room.members.filter(seat=seat, bot_level="").first()
        if member is None:
            raise Refused("no_person", f"nobody sits in seat {seat}")
        if member.player_id == player.pk:
            raise Refused(
                "host_seat", gettext("the host leaves with leave, not remove")
            )
        room.removed = [*room.removed, member.player_id]
        room.save(update_fields=["removed"])
        _unseat(room, member, current_time())
        return room


def lock_room(code: str, player: Player, locked: bool) -> Room:
    """The host closes (or opens again) the room to new members; those
    seated stay."""
    now = current_time()
    with transaction.atomic():
        room = _locked(code)
        _require_host(room, player)
        if room.locked == locked:
            return room
        room.locked = locked
        _emit(room, [("room", room_json(room, _members(room)))], now, "locked")
        return room


def _unseat(room: Room, member: Member, now: datetime) -> None:
    """Take `member` (a person) off the locked room, ending their part in
    the round; the host's leaving ends the round and passes the room on."""
    leaving_host = room.host_id == member.player_id
    events, changed, writes = [], [], []
    current = _racing_round(room)
    if current is not None and current[0].is_together:
        rnd = current[0]
        old = rnd.together_state()
        new = together.leave(old, member.seat, now)
        if leaving_host:
            # The host's leaving ends the game where it stands.
            new = replace(
                new, status=together.OVER, turn=None, clock=new.clock.stopped(now)
            )
        events.append(_save_together(room, rnd, old, new))
    elif current is not None:
        rnd, rows = current
        old = rnd.state(rows)
        if leaving_host:
            new = race.abandon(old, now)
        else:
            new = race.leave(old, member.seat, now)
        events.append(_save_race(room, rnd.pk, old, new, writes))
    member.delete()
    members = _members(room)
    if leaving_host:
        heir = next((m for m in members if not m.is_bot), None)
        room.host_id = heir.player_id if heir else None
        room.status = Room.Status.LOBBY if heir else Room.Status.CLOSED
        room.wake_at = None
        room.current_round = None
        changed = ["host", "status", "current_round"]
        events += [("room", room_json(room, members)), ("round", None)]
    events.append(("members", members_json(members)))
    _emit(room, [e for e in events if e], now, *changed, writes=writes)
    unseated_on_commit(room.code, member.seat)


# -- a racer's moves -------------------------------------------------------


def take_pair(code: str, player: Player, a: int, b: int, move: int) -> Room:
    """A racer's pair on their own board; in Together, the pair from the
    shared pile on the player's own turn (`move` is not needed there)."""
    return _round_action(
        code,
        player,
        lambda st, seat, room, now: race.take(st, seat, a, b, move, now),
        lambda st, seat, room, now: together.take_pair(st, seat, a, b, now),
    )


def undo(code: str, player: Player, move: int) -> Room:
    return _round_action(
        code, player, lambda st, seat, room, now: race.undo(st, seat, move, now)
    )


def back_to_safety(code: str, player: Player, move: int) -> Room:
    """Undo to the racer's latest clearable position: allowed in a race, as
    undos are (it is a run of them); Together has none. The search runs
    without the room's lock, like a hint; `move` then refuses the undos as
    stale if the racer moved meanwhile. Undecided or still clearable: no
    change."""
    rnd, rows, seat = _unlocked_round(code, player)
    if rnd.is_together:
        raise Refused("together", gettext("Together has no back to safety"))
    found = race.safety(rnd.state(rows), seat, current_time())
    if not found.pairs_back:
        return rnd.room
    return _round_action(
        code,
        player,
        lambda st, seat, room, now: race.back_to(st, seat, move, found.safe, now),
    )


def shuffle(code: str, player: Player) -> Room:
    seed = secrets.token_hex(8)
    return _round_action(
        code, player, lambda st, seat, room, now: race.shuffle(st, seat, seed, now)
    )


def stop_here(code: str, player: Player) -> Room:
    return _round_action(
        code, player, lambda st, seat, room, now: race.stop(st, seat, now)
    )


def _count_pause(room: Room, seat: int) -> None:
    """One more pause of this deal for the seat; refused past the limit.
    Runs under the room's lock, inside the pause's transaction."""
    member = room.members.get(seat=seat)
    if member.pauses_round != room.current_round_id:
        member.pauses, member.pauses_round = 0, room.current_round_id
    if member.pauses >= PAUSES_PER_DEAL:
        raise Refused(
            "no_pauses_left",
            gettext("you have used your %(pauses)s pauses of this deal")
            % {"pauses": local_digits(PAUSES_PER_DEAL)},
        )
    member.pauses += 1
    member.save(update_fields=["pauses", "pauses_round"])


def _counted(pause_of):
    """A pause change that counts the seat's pause when it stops the clock
    (pausing a game already paused is harmless and free)."""

    def change(st, seat, room, now):
        new = pause_of(st, seat, now)
        if new.paused and not st.paused:
            _count_pause(room, seat)
        return new

    return change


def pause(code: str, player: Player) -> Room:
    # Through the ORM rather than a race's two-round-trip path: a pause is
    # rare, and it writes the member's count in the same transaction.
    return _orm_round_action(
        code, player, _counted(race.pause), _counted(together.pause)
    )


def resume(code: str, player: Player) -> Room:
    return _round_action(
        code,
        player,
        lambda st, seat, room, now: race.resume(st, seat, now),
        lambda st, seat, room, now: together.resume(st, seat, now),
    )


def end_now(code: str, player: Player) -> Room:
    def change(st, seat, room, now):
        _require_host(room, player)
        return race.end_now(st, seat, now)

    return _round_action(code, player, change)


def set_away(code: str, player: Player, away: bool) -> Room | None:
    """In Together, a player who leaves the game screen is skipped until
    back. Elsewhere it changes nothing; None when the room or seat is gone,
    or no Together game is on."""
    return _presence(
        code, player, lambda st, seat, now: together.set_away(st, seat, away, now)
    )


def open_connection(code: str, player: Player, link: str) -> Room | None:
    """In Together, a player's socket `link` opened: back on the game
    screen, and the socket whose drop counts. As set_away otherwise."""
    return _presence(
        code, player, lambda st, seat, now: together.connected(st, seat, link, now)
    )


def drop_connection(code: str, player: Player, link: str) -> Room | None:
    """In Together, a player whose latest socket, `link`, dropped counts as
    away unless they reconnect within together.DROP_GRACE_MS (the timer
    applies it); an older socket's drop changes nothing. As set_away
    otherwise."""
    return _presence(
        code, player, lambda st, seat, now: together.drop(st, seat, now, link)
    )


def _presence(code: str, player: Player, change) -> Room | None:
    in_play = Room.objects.filter(
        code=code,
        current_round__mode=Round.Mode.TOGETHER,
        current_round__status=Round.Status.RACING,
    )
    if not in_play.exists():
        return None  # no lock taken for the sockets of a race or a lobby
    try:
        return _orm_round_action(
            code,
            player,
            lambda st, seat, room, now: st,
            lambda st, seat, room, now: change(st, seat, now),
        )
    except RaceError:
        return None


def use_hint(code: str, player: Player) -> Hint:
    """The hint for the player's own board. It changes nothing, so it takes
    no lock: the engine's search runs without holding up the room."""
    rnd, rows, seat = _unlocked_round(code, player)
    if rnd.is_together:
        return together.hint(rnd.together_state(), seat, current_time())
    return race.hint(rnd.state(rows), seat, current_time())


def _unlocked_round(code: str, player: Player) -> tuple[Round, list, int]:
    """The round in play and the player's seat, read without a lock (for
    what only reads, or checks its answer again under the lock)."""
    room = Room.objects.filter(code=code).first()
    if room is None or room.status == Room.Status.CLOSED:
        raise NotFound(f"no room {code!r}")
    member = _member(room, player)
    current = _racing_round(room)
    if current is None:
        raise Conflict("no_race", gettext("no race is in progress"))
    return (*current, member.seat)


# -- the timer -------------------------------------------------------------


def apply_due_timers(room_id: int) -> bool:
    """Apply what is due in one room: time limits and bots' moves. Rooms
    locked by someone else are skipped (that one will see to it, and a
    second timer process never waits on the first); False when nothing was
    due or the room was busy."""
    now = current_time()
    done = _due_race(room_id, now)
    if done is None:  # a Together game
        done = _due_orm(room_id, now)
    return done


def _due_race(room_id: int, now: datetime) -> bool | None:
    """`apply_due_timers` in a race, on the path of a pair (`_race_move`);
    None, having changed nothing, in a Together game."""
    with move_tx.move() as move:
        locked = sql.lock_due(room_id, now, move)
        if locked is None:
            return False
        if locked.mode == Round.Mode.TOGETHER:
            return None
        room = locked.room
        if locked.racing is None:  # nothing in play: nothing to wake up for
            room.wake_at = None
            move.finish(sql.event_writes(room, [], now))
            return False
        rnd, old = locked.racing
        messages = _finish_race(move, room, rnd, old, race.run_due(old, now), now)
    publish_on_commit(room.code, messages)
    return True


def _due_orm(room_id: int, now: datetime) -> bool:
    """`apply_due_timers` in Together, through the ORM (and in a race dealt
    since `_due_race` looked). `_due_race` has just held the room and let
    it go: whoever took it in between (a player's move) is waited for
    rather than skipped, so that the due turn is not left to the timer's
    next look; if that was another timer, the room is no longer due when
    the lock comes."""
    with transaction.atomic():
        locked = sql.lock_due(room_id, now, wait=True)
        if locked is None:
            return False
        room = locked.room
        current = _in_play(locked)
        if current is None:
            room.wake_at = None
            room.save(update_fields=["wake_at"])
            return False
        rnd, old = current
        rules = together if rnd.is_together else race
        writes = []
        event = _save_state(room, rnd, old, rules.run_due(old, now), writes)
        _emit(room, [event] if event else [], now, writes=writes)
        return True


def due_rooms(limit: int = 100, part: int = 0, parts: int = 1) -> list[int]:
    """Rooms with something due now, the most overdue first; with `parts`,
    only those whose id leaves `part` when divided by it."""
    return sql.due_rooms(current_time(), limit, part, parts)


# -- accounts ---------------------------------------------------------------


def merge_player_seats(sender, source: Player, target: Player, **kwargs) -> None:
    """A guest signing in keeps their seats and rooms (listens to
    accounts.signals.player_merging). Where the account already has a seat
    in the same room, that seat is kept and the guest's goes."""
    taken = Member.objects.filter(player=target).values_list("room_id", flat=True)
    seats = Member.objects.filter(player=source)
    seats.filter(room_id__in=list(taken)).delete()
    seats.update(player=target)
    Room.objects.filter(host=source).update(host=target)


# -- reading ---------------------------------------------------------------


def _round_state(rnd: Round) -> race.Race | together.Together:
    if rnd.is_together:
        return rnd.together_state()
    return rnd.state(_racers(rnd))


def snapshot(
    code: str,
) -> tuple[Room, list[Member], Round | None, race.Race | together.Together | None]:
    """A consistent read of a room for a full state."""
    with transaction.atomic():
        # The lock waits out a change in progress, so the version read here
        # matches the rows read after it.
        room = Room.objects.select_for_update().filter(code=code).first()
        if room is None:
            raise NotFound(f"no room {code!r}")
        members = _members(room)
        rnd = room.current_round
        return room, members, rnd, _round_state(rnd) if rnd else None


def read_state(
    code: str,
) -> tuple[Room, list[Member], Round | None, race.Race | together.Together | None]:
    """A read of a room for watchers: no lock, so watchers never wait on the
    players or hold them up. The rows may be newer than the room's version
    read first, never older. A closed room is not found."""
    room = (
        Room.objects.select_related("current_round")
        .exclude(status=Room.Status.CLOSED)
        .filter(code=code)
        .first()
    )
    if room is None:
        raise NotFound(f"no room {code!r}")
    rnd = room.current_round
    return room, _members(room), rnd, _round_state(rnd) if rnd else None


def events_since(room: Room, version: int) -> list[dict] | None:
    """The events after `version`, or None when they are no longer all kept
    or so many that a full state is smaller."""
    if room.version - version > MAX_REPLAY:
        return None
    rows = list(room.events.filter(version__gt=version).order_by("version"))
    if rows and rows[0].version != version + 1:
        return None
    return [e.as_message() for e in rows]
