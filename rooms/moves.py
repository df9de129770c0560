"""A player's moves on the round in play, each one `round_action`."""

import secrets

from django.utils.translation import gettext

from accounts.models import Player
from games.engine.hint import Hint, HintSearch
from games.engine.hint import hint as engine_hint
from games.engine.safety import Safety
from games.errors import ActionError, Conflict, Refused
from rooms import clock, race, sql, together
from rooms.changes import (
    State,
    in_play,
    member_of,
    no_room,
    require_host,
    round_action,
)
from rooms.models import Room, Round
from rooms.sql import Writes
from sitewide.numerals import local_digits

# How often each player may pause one deal (the rules page says so): enough
# for the doorbell, too few to stop a game again and again.
PAUSES_PER_DEAL = 3


def take_pair(code: str, player: Player, a: int, b: int, move: int) -> Room:
    """A racer's pair on their own board; in Together, the pair from the
    shared pile on the player's own turn (`move` is not needed there)."""
    return round_action(
        code,
        player,
        lambda st, seat, room, now: race.take(st, seat, a, b, move, now),
        lambda st, seat, room, now: together.take_pair(st, seat, a, b, now),
    )


def undo(code: str, player: Player, move: int) -> Room:
    return round_action(
        code, player, lambda st, seat, room, now: race.undo(st, seat, move, now)
    )


def back_to_safety(code: str, player: Player, move: int) -> tuple[Room, Safety]:
    """Undo to the racer's latest clearable position: allowed in a race, as
    undos are (it is a run of them); Together has none. The search runs
    without the room's lock, like a hint; `move` then refuses the undos as
    stale if the racer moved meanwhile. Undecided or still clearable: no
    change. The answer comes back too, for the page to say what it found."""
    room, state, seat = _unlocked_round(code, player)
    if isinstance(state, together.Together):
        raise Refused("together", gettext("Together has no back to safety"))
    found = race.safety(state, seat, clock.current_time())
    if not found.pairs_back:
        return room, found
    room = round_action(
        code,
        player,
        lambda st, seat, room, now: race.back_to(st, seat, move, found.safe, now),
    )
    return room, found


def shuffle(code: str, player: Player) -> Room:
    seed = secrets.token_hex(8)
    return round_action(
        code, player, lambda st, seat, room, now: race.shuffle(st, seat, seed, now)
    )


def stop_here(code: str, player: Player) -> Room:
    return round_action(
        code, player, lambda st, seat, room, now: race.stop(st, seat, now)
    )


def _count_pause(seen: sql.Seen, old: State, new: State) -> Writes:
    """When a pause stops the clock, one more pause of this deal for the
    seat, refused past the limit (pausing a game already paused is
    harmless and free)."""
    if not new.paused or old.paused:
        return ()
    member, round_id = seen.member, seen.room.current_round_id
    # A player's read has their seat and its count; the round is in play.
    assert member is not None and round_id is not None
    used = member.pauses if member.pauses_round == round_id else 0
    if used >= PAUSES_PER_DEAL:
        raise Refused(
            "no_pauses_left",
            gettext("you have used your %(pauses)s pauses of this deal")
            % {"pauses": local_digits(PAUSES_PER_DEAL)},
        )
    return sql.pause_writes(seen.room.pk, member.seat, used + 1, round_id)


def pause(code: str, player: Player) -> Room:
    return round_action(
        code,
        player,
        lambda st, seat, room, now: race.pause(st, seat, now),
        lambda st, seat, room, now: together.pause(st, seat, now),
        extra=_count_pause,
    )


def resume(code: str, player: Player) -> Room:
    return round_action(
        code,
        player,
        lambda st, seat, room, now: race.resume(st, seat, now),
        lambda st, seat, room, now: together.resume(st, seat, now),
    )


def end_now(code: str, player: Player) -> Room:
    def change(st, seat, room, now):
        require_host(room, player)
        return race.end_now(st, seat, now)

    return round_action(code, player, change)


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
        return round_action(
            code,
            player,
            lambda st, seat, room, now: st,
            lambda st, seat, room, now: change(st, seat, now),
        )
    except ActionError:
        return None


def use_hint(code: str, player: Player, solve: HintSearch = engine_hint) -> Hint:
    """The hint for the player's own board. It changes nothing, so it takes
    no lock: the engine's search (`solve`; the sockets pass
    rooms.hints.solve, another process) runs without holding up the room."""
    _, state, seat = _unlocked_round(code, player)
    rules = together if isinstance(state, together.Together) else race
    return rules.hint(state, seat, clock.current_time(), solve)


def _unlocked_round(code: str, player: Player) -> tuple[Room, State, int]:
    """The round in play and the player's seat, read without a lock (for
    what only reads, or checks its answer again under the lock)."""
    room = Room.objects.open().filter(code=code).first()
    if room is None:
        raise no_room(code)
    member = member_of(room, player)
    play = in_play(room)
    if play is None:
        raise Conflict("no_race", gettext("no race is in progress"))
    return room, play.state, member.seat
