"""What the clock brings: time limits, bots' moves, turns running out."""

from collections.abc import Sequence

from rooms import clock, move_tx, race, sql, together
from rooms.changes import State, ending
from rooms.publish import Message, publish_rooms_on_commit


def apply_due_timers(room_id: int) -> bool:
    """Apply what is due in one room (`apply_due`); False when nothing was
    due, nothing is in play, or another transaction holds the room."""
    return apply_due([room_id]) > 0


def apply_due(room_ids: Sequence[int]) -> int:
    """Apply what is due in these rooms: time limits, bots' moves and turns
    running out, as each round's rules say, all in one transaction holding
    the rooms' row locks (a busy timer's batch: one lock and read, one
    COMMIT, one hand-over of the events for all of them). Rooms locked by
    someone else are skipped (that one will see to them, and a second
    timer never waits on the first). How many rooms had a round in play."""
    if not room_ids:
        return 0
    now = clock.current_time()
    sent: list[tuple[str, list[Message]]] = []
    with move_tx.move() as tx:
        writes: list[move_tx.Statement] = []
        for locked in sql.lock_due(room_ids, now, tx):
            room, play = locked.room, locked.play
            if play is None:  # nothing in play: nothing to wake up for
                room.wake_at = None
                writes += sql.event_writes(room, [], now)
                continue
            messages, statements = ending(room, play, _run_due(play.state, now), now)
            writes += statements
            sent.append((room.code, messages))
        tx.finish(writes)
        publish_rooms_on_commit(sent)
    return len(sent)


def _run_due(state: State, now) -> State:
    if isinstance(state, together.Together):
        return together.run_due(state, now)
    return race.run_due(state, now)


def due_rooms(limit: int = 100, part: int = 0, parts: int = 1) -> list[int]:
    """Rooms with something due now, the most overdue first; with `parts`,
    only those whose id leaves `part` when divided by it."""
    return sql.due_rooms(clock.current_time(), limit, part, parts)
