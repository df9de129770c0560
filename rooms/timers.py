"""What the clock brings: time limits, bots' moves, turns running out."""

from collections.abc import Callable, Sequence
from datetime import datetime

from monitoring import metrics
from rooms import clock, move_tx, race, sql, together
from rooms.changes import State, ending
from rooms.publish import Message, publish_rooms_on_commit


def apply_due_timers(room_id: int) -> bool:
    """Apply what is due in one room (`apply_due`); False when nothing was
    due, nothing is in play, or another transaction holds the room."""
    return apply_due([room_id]) > 0


def apply_due(room_ids: Sequence[int]) -> int:
    """Apply what is due in these rooms: time limits, bots' moves and turns
    running out, as each round's rules say: one read of them all, then one
    pipeline that writes every room's change (a busy timer's batch: two round
    trips and one hand-over of the events for all of them). A room that
    changed since the read (a player's move came first) is read and
    applied once more; one whose row another transaction holds is left to
    the next look, as is one that changed again (a timer never waits on
    another). How many rooms had a round in play and were written."""
    if not room_ids:
        return 0
    written, _ = _apply_and_retry(lambda now, tx: sql.read_due(room_ids, now, tx))
    return written


def apply_first_due(limit: int = 100, part: int = 0, parts: int = 1) -> int:
    """`apply_due` on the rooms `due_rooms` would find, found by the batch's
    read itself (a look of the timer is one round trip when nothing is due,
    two when something is); how many rooms were due."""

    def read(now: datetime, tx: move_tx.RoundTransaction) -> list[sql.Seen]:
        seen = sql.read_first_due(now, limit, part, parts, tx)
        metrics.timer_lateness(now, [s.room.wake_at for s in seen if s.room.wake_at])
        return seen

    return _apply_and_retry(read)[1]


# Reads a batch of due rooms at `now` in a move's transaction.
Reader = Callable[[datetime, move_tx.RoundTransaction], list[sql.Seen]]


def _apply_and_retry(read: Reader) -> tuple[int, int]:
    """`_apply_due` once, and again on the rooms whose check failed: the
    rooms with a round in play written, and the rooms read first."""
    written, seen, lost = _apply_due(read)
    if lost:
        written += _apply_due(lambda now, tx: sql.read_due(lost, now, tx))[0]
    return written, seen


def _apply_due(read: Reader) -> tuple[int, int, list[int]]:
    """`apply_due`'s one try on the rooms `read` finds: how many rooms with
    a round in play it wrote, how many it read, and the rooms whose check
    failed."""
    now = clock.current_time()
    with move_tx.move() as tx:
        writes: list[move_tx.Statement] = []
        checks: list[int] = []
        # Each room's id and events (none: nothing in play), by its check.
        news: list[tuple[int, str, list[Message] | None]] = []
        for seen in read(now, tx):
            room, play = seen.room, seen.play
            checks.append(len(writes))
            if play is None:  # nothing in play: nothing to wake up for
                room.wake_at = None
                writes += sql.event_writes(room, [], now, skip_locked=True)
                news.append((room.pk, room.code, None))
                continue
            new = _run_due(play.state, now)
            messages, statements = ending(room, play, new, now, skip_locked=True)
            writes += statements
            news.append((room.pk, room.code, messages))
        written = tx.write(writes, checks)
        sent = [
            (code, messages)
            for (_, code, messages), w in zip(news, written, strict=True)
            if w and messages is not None
        ]
        publish_rooms_on_commit(sent)
    lost = [room_id for (room_id, _, _), w in zip(news, written, strict=True) if not w]
    return len(sent), len(news), lost


def _run_due(state: State, now) -> State:
    if isinstance(state, together.Together):
        return together.run_due(state, now)
    return race.run_due(state, now)


def due_rooms(limit: int = 100, part: int = 0, parts: int = 1) -> list[int]:
    """Rooms with something due now, the most overdue first; with `parts`,
    only those whose id leaves `part` when divided by it."""
    return sql.due_rooms(clock.current_time(), limit, part, parts)
