"""What the clock brings: time limits, bots' moves, turns running out."""

from rooms import clock, move_tx, race, sql, together
from rooms.changes import finish
from rooms.publish import publish_on_commit


def apply_due_timers(room_id: int) -> bool:
    """Apply what is due in one room: time limits, bots' moves and turns
    running out, as the round's rules say. Rooms locked by someone else
    are skipped (that one will see to it, and a second timer process never
    waits on the first); False when nothing was due or the room was busy."""
    now = clock.current_time()
    with move_tx.move() as move:
        locked = sql.lock_due(room_id, now, move)
        if locked is None:
            return False
        room = locked.room
        if locked.play is None:  # nothing in play: nothing to wake up for
            room.wake_at = None
            move.finish(sql.event_writes(room, [], now))
            return False
        play = locked.play
        new: race.Race | together.Together
        if isinstance(play.state, together.Together):
            new = together.run_due(play.state, now)
        else:
            new = race.run_due(play.state, now)
        messages = finish(move, room, play, new, now)
    publish_on_commit(room.code, messages)
    return True


def due_rooms(limit: int = 100, part: int = 0, parts: int = 1) -> list[int]:
    """Rooms with something due now, the most overdue first; with `parts`,
    only those whose id leaves `part` when divided by it."""
    return sql.due_rooms(clock.current_time(), limit, part, parts)
