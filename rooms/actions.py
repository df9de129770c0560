"""Every change to a room and every read of one, by name: what the sockets,
the pages and the timer call.

The work is done by job: rooms.changes (the one unit of change, shared by
all), rooms.seats, rooms.deals, rooms.moves, rooms.timers and rooms.reads.
The time always comes from rooms.clock, never from a client.
"""

from rooms.deals import MODES, PILES, deal_round
from rooms.moves import (
    PAUSES_PER_DEAL,
    back_to_safety,
    drop_connection,
    end_now,
    open_connection,
    pause,
    resume,
    set_away,
    shuffle,
    stop_here,
    take_pair,
    undo,
    use_hint,
)
from rooms.reads import MAX_REPLAY, events_since, read_state, snapshot
from rooms.seats import (
    MAX_BOTS,
    MAX_SEATS,
    add_bot,
    create_room,
    join_room,
    leave,
    lock_room,
    merge_player_seats,
    remove_bot,
    remove_member,
    start_game,
)
from rooms.timers import apply_due, apply_due_timers, due_rooms

__all__ = [
    "MAX_BOTS",
    "MAX_REPLAY",
    "MAX_SEATS",
    "MODES",
    "PAUSES_PER_DEAL",
    "PILES",
    "add_bot",
    "apply_due",
    "apply_due_timers",
    "back_to_safety",
    "create_room",
    "deal_round",
    "drop_connection",
    "due_rooms",
    "end_now",
    "events_since",
    "join_room",
    "leave",
    "lock_room",
    "merge_player_seats",
    "open_connection",
    "pause",
    "read_state",
    "remove_bot",
    "remove_member",
    "resume",
    "set_away",
    "shuffle",
    "snapshot",
    "start_game",
    "stop_here",
    "take_pair",
    "undo",
    "use_hint",
]
