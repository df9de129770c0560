"""The rows of a move, read and written with fixed SQL statements.

Every pair and every bot move runs this path, hundreds of times a second
with a hundred rooms on one machine. Django builds each query anew, which
costs more CPU than the database spends running it (1.5 ms to compile the
query that finds a seat and locks its room, 0.4 ms to run it by hand), so
the path of a move uses plain statements instead:

- `due_rooms` finds the rooms the timer process must see to;
- `lock_seat` / `lock_due` lock the room row and read it (with the
  member's seat, their pause count and the round's mode) into a RoomRow,
  then, in the same round trip on PostgreSQL (a Move, rooms.move_tx),
  read what is in play: the round's changing columns (a Together state
  among them) and a race's racers, into RoundRow and RacerRow. The read
  is a second statement on purpose: in PostgreSQL, a statement that waited
  for a row lock sees the locked row as the last writer left it but the
  other rows of its join as they were when it began, so rows read in the
  locking statement could be stale. `load_play` reads a round by itself,
  without a lock (hints, joins, deals);
- `race_writes`, `together_writes` and `pause_writes` give the statements
  that save what changed, and `event_writes` those that store the events
  and the room's new version: a Move finishes with them, `add_events`
  runs them (one round trip on PostgreSQL).

The round's fixed columns (the layout snapshot, faces as dealt, the
witness) are read once per process (`_dealt`), each racer's state is kept
with the row it came from (`_racer`), and a Together state with the text
it was written as (`_together`). The statements run on SQLite
too (without row locks: its transactions are taken whole, see settings).
"""

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from itertools import groupby
from operator import itemgetter
from typing import NamedTuple, overload

from django.db import connection
from django.utils import timezone

from games.play import Clock
from monitoring import metrics
from rooms import race, together, together_store
from rooms.models import Dealt, Room, Round, racer_state, step_states
from rooms.move_tx import Move, Statement, execute_all, prepared
from rooms.publish import Message
from rooms.together import Together

# The JSON columns come as text: `_racer` compares them with the last read.
# A racer's faces only once shuffled: until then they are the round's as
# dealt (a shuffle counts even when undone, so no shuffle means none ever
# happened), and four racers' faces were most of the text a move read.
_RACER_COLUMNS = (
    "rc.seat, rc.name, rc.bot_level, rc.status,"
    " CASE WHEN rc.shuffles = 0 THEN NULL ELSE CAST(rc.faces AS TEXT) END,"
    " CAST(rc.steps AS TEXT), rc.penalty_ms, rc.shuffles, rc.end_ms, rc.bot_at_ms"
)


# Statements with their parameters, run together by `add_events` or
# `Move.finish`.
Writes = Sequence[Statement]


class RoomRow(NamedTuple):
    """The columns a lock reads: the room's, its round's mode, and (for a
    player's lock) their seat and pause count."""

    id: int
    code: str
    host_id: int | None
    status: str
    version: int
    current_round_id: int | None
    locked: bool
    mode: str | None  # the current round's mode; None with no round
    seat: int | None  # None: not a member (or the timer's lock)
    pauses: int | None
    pauses_round: int | None


class RoundRow(NamedTuple):
    """A round's changing columns (`_ROUND_COLUMNS`)."""

    id: int
    mode: str
    seed: str
    dealt_at: datetime
    limit_ms: int | None
    status: str
    banked_ms: int
    running_since: datetime | None
    paused: bool
    together: str | None  # Together's state as JSON text; None in a race


class RacerRow(NamedTuple):
    """A racer's columns (`_RACER_COLUMNS`), as compared with the last read."""

    seat: int
    name: str
    bot_level: str
    status: str
    faces: str | None  # None until shuffled: the round's faces as dealt
    steps: str
    penalty_ms: int
    shuffles: int
    end_ms: int | None
    bot_at_ms: int | None


@dataclass(frozen=True)
class InPlay:
    """The round in play in a locked room and its state, by its mode."""

    round_id: int
    state: race.Race | Together


@dataclass(frozen=True)
class Locked:
    """A room whose row this transaction has locked, with what is in play
    in it, read after the lock (None: no race or Together game on)."""

    room: Room  # id, code, host, status, version, current round (not saved)
    row: RoomRow
    play: InPlay | None


def _for_update(skip_locked: bool = False) -> str:
    if not connection.features.has_select_for_update:
        return ""  # SQLite: the transaction itself is exclusive
    return " FOR UPDATE OF r SKIP LOCKED" if skip_locked else " FOR UPDATE OF r"


@overload
def _aware(value: datetime) -> datetime: ...
@overload
def _aware(value: datetime | None) -> datetime | None: ...
def _aware(value: datetime | None) -> datetime | None:
    # SQLite stores UTC without its zone.
    if value is None or timezone.is_aware(value):
        return value
    return value.replace(tzinfo=UTC)


def _when(value: datetime | None):
    return connection.ops.adapt_datetimefield_value(value)


def _room(row: RoomRow) -> Room:
    return Room(
        id=row.id,
        code=row.code,
        host_id=row.host_id,
        status=row.status,
        version=row.version,
        current_round_id=row.current_round_id,
        locked=row.locked,
    )


_ROOM_COLUMNS = (
    "r.id, r.code, r.host_id, r.status, r.version, r.current_round_id,"
    " r.locked, rd.mode"
)


def lock_seat(code: str, player_id: int, move: Move) -> Locked | None:
    """Lock an open room and read the player's seat in it (`row.seat`, None
    when they have none) and what is in play; None when the room is
    missing or closed."""
    sql = (
        f"SELECT {_ROOM_COLUMNS}, m.seat, m.pauses, m.pauses_round"
        " FROM rooms_room r"
        " LEFT JOIN rooms_member m ON m.room_id = r.id AND m.player_id = %s"
        " LEFT JOIN rooms_round rd ON rd.id = r.current_round_id"
        " WHERE r.code = %s AND r.status <> %s"
    )
    lock = (sql + _for_update(), [player_id, code, Room.Status.CLOSED])
    return _lock(lock, "r.code = %s", code, move)


def lock_due(room_ids: Sequence[int], now: datetime, move: Move) -> list[Locked]:
    """Lock those of `room_ids` whose wake_at has come and read what is in
    play in each, all in one round trip (the timer's batch), leaving out
    the rooms another transaction holds (that one sees to them, and a
    timer never waits on another)."""
    among, ids = _among(room_ids)
    sql = (
        f"SELECT {_ROOM_COLUMNS}, NULL, NULL, NULL FROM rooms_room r"
        " LEFT JOIN rooms_round rd ON rd.id = r.current_round_id"
        f" WHERE {among} AND r.wake_at <= %s ORDER BY r.id"
    )
    lock = (sql + _for_update(skip_locked=True), [*ids, _when(now)])
    read = f"SELECT r.id, {_ROUND_COLUMNS}, {_RACER_COLUMNS}{_in_play_of(among)}"
    rows, read_rows = move.read(lock, (read, ids))
    # The read cannot wait for the lock's answer in the same round trip, so
    # it reads every room asked for: those the lock skipped are left out.
    plays = {
        room_id: [row[1:] for row in group]
        for room_id, group in groupby(read_rows, key=itemgetter(0))
    }
    locked = []
    for row in rows:
        room_row = RoomRow._make(row)
        play = _in_play(plays.get(room_row.id, []))
        locked.append(Locked(_room(room_row), room_row, play))
    return locked


def _among(room_ids: Sequence[int]) -> tuple[str, list]:
    """`r.id` among `room_ids`, and its parameters: one array on PostgreSQL,
    so the statement's text (prepared once) is the same for any count."""
    if connection.vendor == "postgresql":
        return "r.id = ANY(%s)", [list(room_ids)]
    return f"r.id IN ({', '.join(['%s'] * len(room_ids))})", list(room_ids)


def _in_play_of(where: str) -> str:
    """The end of a read of what is in play in the rooms `where` picks: a
    row a racer (one row with no racer in Together), room by room."""
    return (
        " FROM rooms_room r JOIN rooms_round rd ON rd.id = r.current_round_id"
        " LEFT JOIN rooms_racer rc ON rc.round_id = rd.id"
        f" WHERE {where} ORDER BY r.id, rc.seat"
    )


def _lock(lock: Statement, where: str, key, move: Move) -> Locked | None:
    """Run a lock of one room and then the read of the round in play in it
    (`where` finds the room by `key`: the lock's result cannot be a
    parameter of a statement sent with it)."""
    read = f"SELECT {_ROUND_COLUMNS}, {_RACER_COLUMNS}{_in_play_of(where)}"
    rows, read_rows = move.read(lock, (read, [key]))
    if not rows:
        return None
    room_row = RoomRow._make(rows[0])
    return Locked(_room(room_row), room_row, _in_play(read_rows))


def due_rooms(now: datetime, limit: int, part: int, parts: int) -> list[int]:
    """Rooms whose wake_at has come, the most overdue first, among those
    whose id leaves `part` when divided by `parts` (the timer's threads
    share the rooms that way; each looks many times a second)."""
    with prepared() as cursor:
        cursor.execute(
            "SELECT id, wake_at FROM rooms_room WHERE wake_at <= %s"
            " AND id %% %s = %s ORDER BY wake_at LIMIT %s",
            [_when(now), parts, part, limit],
        )
        found = cursor.fetchall()
    metrics.timer_lateness(now, [_aware(wake_at) for _, wake_at in found])
    return [room_id for room_id, _ in found]


@lru_cache(maxsize=512)
def _dealt(round_id: int, seed: str) -> Dealt:
    """A round's part that never changes after the deal. Keyed by the seed
    too, so a reused id (SQLite reuses them after a rollback) cannot bring
    back another round's deal."""
    fields = ("layout_slug", "layout_name", "positions", "faces", "witness")
    row = Round.objects.filter(pk=round_id, seed=seed).values(*fields).get()
    return Round(**row).dealt()


_ROUND_COLUMNS = (
    "rd.id, rd.mode, rd.seed, rd.dealt_at, rd.limit_ms, rd.status, rd.banked_ms,"
    " rd.running_since, rd.paused, CAST(rd.together AS TEXT)"
)
_ROUND_WIDTH = len(RoundRow._fields)


def load_play(round_id: int) -> InPlay | None:
    """A round in play and its state, read without a lock; None when the
    round is over."""
    sql = (
        f"SELECT {_ROUND_COLUMNS}, {_RACER_COLUMNS}"
        " FROM rooms_round rd LEFT JOIN rooms_racer rc ON rc.round_id = rd.id"
        " WHERE rd.id = %s ORDER BY rc.seat"
    )
    with prepared() as cursor:
        cursor.execute(sql, [round_id])
        return _in_play(cursor.fetchall())


def _in_play(rows: list[tuple]) -> InPlay | None:
    """The round in play and its state from its rows (`_ROUND_COLUMNS` and
    `_RACER_COLUMNS`, a row a racer: one row with no racer in Together);
    None when there is no round or it is over."""
    if not rows:
        return None
    first = RoundRow._make(rows[0][:_ROUND_WIDTH])
    if first.status != Round.Status.RACING:
        return None
    dealt = _dealt(first.id, first.seed)
    clock = Clock(first.banked_ms, _aware(first.running_since))
    dealt_at = _aware(first.dealt_at)
    if first.together is not None:  # Together's column, null in a race
        shared = _together((first.id, first.seed), first, dealt, clock, dealt_at)
        return InPlay(first.id, shared)
    key = (first.id, first.seed)
    racers = [
        _racer((*key, racer.seat), racer, dealt.faces)
        for racer in (RacerRow._make(row[_ROUND_WIDTH:]) for row in rows)
        if racer.seat is not None  # a round with no racer yet
    ]
    rnd = Round(
        id=first.id,
        mode=first.mode,
        seed=first.seed,
        status=first.status,
        dealt_at=dealt_at,
        limit_ms=first.limit_ms,
        banked_ms=first.banked_ms,
        running_since=clock.running_since,
        paused=bool(first.paused),
    )
    return InPlay(first.id, rnd.state(racers, dealt))


# Racers' states by (round id, seed, seat), with the row each was read from
# (the seed because SQLite reuses ids after a rollback, and a new round's
# row reads the same as an old one's until a shuffle shows its faces). A
# move changes one racer's row, most often by adding one step to the end of
# its undo log: the other racers of the room are reused as they are, and the
# changed one decodes only its new step and shares the rest with its last
# state. One entry a racer, and shared steps, keep the objects the garbage
# collector walks few (a cache of every row version held ten times more,
# and each move added some forty objects for the next collection to walk).
KEEP_RACERS = 1024
_kept: dict[tuple[int, str, int], tuple[RacerRow, race.Racer]] = {}
_kept_lock = threading.Lock()


def _racer(
    key: tuple[int, str, int], row: RacerRow, dealt: tuple[str, ...]
) -> race.Racer:
    """A racer's state from its row's columns (`_RACER_COLUMNS`); `dealt`,
    the round's faces as dealt."""
    with _kept_lock:
        kept = _kept.pop(key, None)
    if kept is not None and kept[0] == row:
        racer = kept[1]
    else:
        racer = _decoded(row, kept, dealt)
    with _kept_lock:
        _kept[key] = (row, racer)  # last in: the last to be dropped
        if len(_kept) > KEEP_RACERS:
            del _kept[next(iter(_kept))]
    return racer


def _decoded(
    row: RacerRow, kept: tuple[RacerRow, race.Racer] | None, dealt: tuple[str, ...]
) -> race.Racer:
    if kept is None:
        faces = _faces(row.faces, dealt)
        steps = step_states(json.loads(row.steps))
    else:
        kept_row, last = kept
        same_faces = row.faces == kept_row.faces
        faces = last.faces if same_faces else _faces(row.faces, dealt)
        steps = _steps(row.steps, kept_row.steps, last.steps)
    return racer_state(
        row.seat,
        row.name,
        row.bot_level,
        row.status,
        faces,
        steps,
        row.penalty_ms,
        row.shuffles,
        row.end_ms,
        row.bot_at_ms,
    )


def _faces(text: str | None, dealt: tuple[str, ...]) -> tuple[str, ...]:
    """A racer's faces from their JSON text; None: as dealt."""
    return dealt if text is None else tuple(json.loads(text))


def _steps(
    text: str, kept_text: str, kept: tuple[race.Step, ...]
) -> tuple[race.Step, ...]:
    """The undo log from its JSON text, reusing the steps of the last text
    read when the new one starts with all of them: JSON text that begins
    with a whole array's elements and a comma holds those same elements
    first."""
    if text == kept_text:
        return kept
    head = kept_text[:-1] + ", "  # "[a, b" + ", ": only when kept has steps
    if kept and text.startswith(head):
        return kept + step_states(json.loads("[" + text[len(head) :]))
    return step_states(json.loads(text))


def _steps_json(steps: Sequence[race.Step]):
    """Undo log entries as the `steps` column holds them (a JSON array)."""
    entries = [
        {"ms": ms, "pair": list(pair)}
        if pair is not None
        else {"ms": ms, "faces": list(faces_before or ())}
        for ms, pair, faces_before in steps
    ]
    return connection.ops.adapt_json_value(entries, None)


def _steps_update(prev: race.Racer, racer: race.Racer) -> tuple[str, object]:
    """How an update sets a racer's undo log: the expression and its value.
    On PostgreSQL a log that only grew (a move adds a step) gets its new
    steps appended, rather than the whole log encoded, sent and parsed
    again; on SQLite `||` would join two texts."""
    kept = len(prev.steps)
    if connection.vendor == "postgresql" and racer.steps[:kept] == prev.steps:
        return "steps || %s", _steps_json(racer.steps[kept:])
    return "%s", _steps_json(racer.steps)


def _racer_values(racer: race.Racer, steps) -> list:
    return [
        racer.status,
        steps,
        racer.penalty_ms,
        racer.shuffles,
        racer.end_ms,
        racer.bot_at_ms,
        racer.matches,
    ]


def race_writes(round_id: int, old: race.Race, new: race.Race) -> Writes:
    """The statements that write what changed from `old` to `new`: each
    racer that changed (the faces, a long list, only when a shuffle or its
    undo changed them; a racer new to the race is added) and the round's
    status and clock. `add_events` runs them."""
    before = {r.seat: r for r in old.racers}
    json_value = connection.ops.adapt_json_value
    writes = []
    for racer in new.racers:
        prev = before.get(racer.seat)
        if prev == racer:
            continue
        faces = json_value(list(racer.faces), None)  # sent when new or changed
        if prev is None:
            values = _racer_values(racer, _steps_json(racer.steps))
            writes.append(
                (
                    "INSERT INTO rooms_racer (round_id, seat, name, bot_level,"
                    " status, steps, penalty_ms, shuffles, end_ms, bot_at_ms,"
                    " matches, faces)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    [round_id, racer.seat, racer.name, racer.bot, *values, faces],
                )
            )
            continue
        set_steps, steps = _steps_update(prev, racer)
        values = _racer_values(racer, steps)
        set_faces, params = "", values
        if prev.faces != racer.faces:
            set_faces, params = ", faces = %s", [*values, faces]
        writes.append(
            (
                f"UPDATE rooms_racer SET status = %s, steps = {set_steps},"
                " penalty_ms = %s, shuffles = %s, end_ms = %s, bot_at_ms = %s,"
                f" matches = %s{set_faces} WHERE round_id = %s AND seat = %s",
                [*params, round_id, racer.seat],
            )
        )
    if (new.status, new.clock, new.paused) != (old.status, old.clock, old.paused):
        writes.append(
            (
                "UPDATE rooms_round SET status = %s, banked_ms = %s,"
                " running_since = %s, paused = %s WHERE id = %s",
                [
                    new.status,
                    new.clock.banked_ms,
                    _when(new.clock.running_since),
                    new.paused,
                    round_id,
                ],
            )
        )
    return writes


# Together states by (round id, seed), with the JSON text each was written
# as (rooms.together_store.dumps prints it as jsonb does): when a move reads
# back the text the last one wrote in this process, the state is known
# without decoding it again. One entry a round, as for racers.
_kept_together: dict[tuple[int, str], tuple[str, Together]] = {}


def _together(
    key: tuple[int, str], row: RoundRow, dealt: Dealt, clock: Clock, dealt_at: datetime
) -> Together:
    """A Together state from its round's row."""
    assert row.together is not None
    with _kept_lock:
        kept = _kept_together.get(key)
    if kept is not None and kept[0] == row.together:
        state = kept[1]
        # Its other columns are written with the text, but check them.
        if state.clock == clock and state.paused == bool(row.paused):
            return state
    return together_store.load(
        dealt.layout,
        row.seed,
        dealt_at,
        clock,
        bool(row.paused),
        json.loads(row.together),
    )


def together_writes(key: tuple[int, str], new: Together) -> Writes:
    """The statement that writes a Together state on its round `key` (id,
    seed): the columns `Round.set_together` sets, without building a
    Round."""
    text = together_store.dumps(new)
    with _kept_lock:
        _kept_together.pop(key, None)
        _kept_together[key] = (text, new)  # last in: the last to be dropped
        if len(_kept_together) > KEEP_RACERS:
            del _kept_together[next(iter(_kept_together))]
    playing = new.status == together.PLAYING
    json_text = "CAST(%s AS jsonb)" if connection.vendor == "postgresql" else "%s"
    return [
        (
            "UPDATE rooms_round SET status = %s, banked_ms = %s, running_since = %s,"
            f" paused = %s, together = {json_text} WHERE id = %s",
            [
                Round.Status.RACING if playing else Round.Status.OVER,
                new.clock.banked_ms,
                _when(new.clock.running_since),
                new.paused,
                text,
                key[0],
            ],
        )
    ]


def pause_writes(room_id: int, seat: int, pauses: int, round_id: int) -> Writes:
    """The statement that counts a seat's pauses of a deal."""
    return [
        (
            "UPDATE rooms_member SET pauses = %s, pauses_round = %s"
            " WHERE room_id = %s AND seat = %s",
            [pauses, round_id, room_id, seat],
        )
    ]


def add_events(
    room: Room, events: list[Message], now: datetime, writes: Writes = ()
) -> None:
    """Store numbered events and the room's version and wake_at, after
    `writes` (a round's rows, from `race_writes`): all in one round trip on
    PostgreSQL."""
    with connection.cursor() as cursor:
        execute_all(cursor, event_writes(room, events, now, writes))


def event_writes(
    room: Room, events: list[Message], now: datetime, writes: Writes = ()
) -> list[Statement]:
    """The statements of `add_events`, for a Move to finish with."""
    created = _when(now)
    statements = [
        *writes,
        (
            "UPDATE rooms_room SET version = %s, wake_at = %s WHERE id = %s",
            [room.version, _when(room.wake_at), room.pk],
        ),
    ]
    if events:
        # One statement for any number of events (a move makes one). The
        # data goes as the JSON text it was encoded to once for sending
        # too; SQLite keeps JSON as that text.
        data = "CAST(%s AS jsonb)" if connection.vendor == "postgresql" else "%s"
        rows = ", ".join([f"(%s, %s, %s, {data}, %s)"] * len(events))
        values = [
            value
            for e in events
            for value in (room.pk, e["v"], e["kind"], e.data_json, created)
        ]
        insert = "INSERT INTO rooms_event (room_id, version, kind, data, created)"
        statements.append((f"{insert} VALUES {rows}", values))
    return statements
