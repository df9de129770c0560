"""A move's rows, read and written with statements built from the models.

Every pair and bot move runs this path, hundreds of times a second with a
hundred rooms on one machine. Django builds each query anew, which costs
more CPU than the database spends running it (1.5 ms to compile the query
that finds a seat and locks its room, 0.4 ms to run it), so the path of a
move builds its statements here, from the models' metadata: each model's
concrete fields, their columns and their conversions to and from the
database. The rows come back as model instances (`Model.from_db`). A field
added to Room, Member, Round or Racer is read and written here with no
change to this module.

- `due_rooms` finds the rooms the timer process must see to;
- `lock_seat` / `lock_due` lock the room row and read it (with the
  member's seat row), then, in the same round trip on PostgreSQL
  (rooms.move_tx), read what is in play: the round's row and a race's
  racers. The read is a second statement on purpose: in PostgreSQL, a
  statement that waited for a row lock sees the locked row as the last
  writer left it but the other rows of its join as they were when it
  began, so rows read in the locking statement could be stale.
  `load_play` reads a round by itself, without a lock (hints, joins,
  deals);
- `race_writes`, `together_writes` and `pause_writes` give the statements
  that save what changed, and `event_writes` those that store the events
  and the room's new version: a move finishes with them, `add_events`
  runs them (one round trip on PostgreSQL).

Decoding is most of a read's CPU, so a process keeps what never changes
in a round after the deal (`_dealt`), and each racer's and each Together
round's state with the `revision` of the row it came from or was written
as (rooms.models.Revised): a row whose revision is the one kept is not
decoded again. The statements run on SQLite too (without row locks: its
transactions are taken whole, see settings).
"""

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache, lru_cache
from itertools import groupby
from operator import itemgetter
from typing import Any, cast

from django.db import connection, models
from django.db.models import JSONField
from psycopg.types.json import Jsonb

from games.play import Clock
from monitoring import metrics
from rooms import race, together_store
from rooms.models import (
    Dealt,
    Event,
    Member,
    Racer,
    Room,
    Round,
    new_revision,
    racer_fields,
    round_fields,
)
from rooms.move_tx import RoundTransaction, Statement, execute_all, prepared
from rooms.publish import Message
from rooms.together import Together

# Statements with their parameters, run together by `add_events` or
# `RoundTransaction.finish`.
Writes = Sequence[Statement]

# Round fields that never change after the deal: read once per process
# (`_dealt`), not with every move.
_DEALT = ("layout_slug", "layout_name", "positions", "faces", "witness")


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _per_model[**P, R](build: Callable[P, R]) -> Callable[P, R]:
    """`functools.cache` for what is built from a model class, once per
    process, keeping the parameters' types: Django is untyped here, and mypy
    takes a model class (type[Any]) for unhashable."""
    return cast(Callable[P, R], cache(build))


@_per_model  # the texts below are built once per process
def _column(model: type[models.Model], name: str, alias: str = "") -> str:
    column = _q(model._meta.get_field(name).column)
    return f"{alias}.{column}" if alias else column


class Columns:
    """Some of a model's concrete fields (all but `leave_out`) as a select
    list under a table alias, and rows of them back into instances, each
    value converted as Django's own queries convert it."""

    def __init__(
        self, model: type[models.Model], alias: str, leave_out: Sequence[str] = ()
    ) -> None:
        fields = [f for f in model._meta.concrete_fields if f.name not in leave_out]
        self.model = model
        self.names = [f.attname for f in fields]
        self._at = {name: i for i, name in enumerate(self.names)}
        self.sql = ", ".join(f"{alias}.{_q(f.column)}" for f in fields)
        self.converters = []
        for i, field in enumerate(fields):
            col = field.get_col(alias)
            found = [
                *connection.ops.get_db_converters(col),
                *col.get_db_converters(connection),
            ]
            if found:
                self.converters.append((i, col, found))

    def __len__(self) -> int:
        return len(self.names)

    def at(self, name: str) -> int:
        """Where field `name` (its attname) is in a row."""
        return self._at[name]

    def instance(self, values: Sequence[Any]) -> Any:
        values = list(values)
        for i, col, converters in self.converters:
            value = values[i]
            for convert in converters:
                value = convert(value, col, connection)
            values[i] = value
        return self.model.from_db(connection.alias, self.names, values)


@dataclass(frozen=True)
class Reads:
    """The select lists of a move's reads, built once per process."""

    room: Columns
    member: Columns
    round: Columns
    racer: Columns

    @property
    def play(self) -> str:
        """The columns of a read of what is in play: a row a racer (one row
        with no racer in Together)."""
        return f"{self.round.sql}, {self.racer.sql}"


@cache
def _reads() -> Reads:
    return Reads(
        # A move never looks at the host's choices or the removed: their
        # JSON is left unread (deferred on the Room read).
        Columns(Room, "r", leave_out=("settings", "removed")),
        Columns(Member, "m"),
        Columns(Round, "rd", leave_out=_DEALT),
        Columns(Racer, "rc"),
    )


@dataclass(frozen=True)
class InPlay:
    """The round in play in a locked room and its state, by its mode."""

    round_id: int
    state: race.Race | Together


@dataclass(frozen=True)
class Locked:
    """A room whose row this transaction has locked, with the player's
    seat in it (None: not a member, or the timer's lock) and what is in
    play in it, read after the lock (None: no race or Together game on)."""

    room: Room
    member: Member | None
    play: InPlay | None


def _for_update(skip_locked: bool = False) -> str:
    if not connection.features.has_select_for_update:
        return ""  # SQLite: the transaction itself is exclusive
    return " FOR UPDATE OF r SKIP LOCKED" if skip_locked else " FOR UPDATE OF r"


def _prep(model: type[models.Model], name: str, value: Any) -> Any:
    return model._meta.get_field(name).get_db_prep_save(value, connection)


@cache
def _in_play_of(where: str) -> str:
    """The end of a read of what is in play in the rooms `where` picks."""
    round_of = _column(Room, "current_round", "r")
    racer_round = _column(Racer, "round", "rc")
    return (
        f" FROM {Room._meta.db_table} r"
        f" JOIN {Round._meta.db_table} rd ON rd.{_q('id')} = {round_of}"
        f" LEFT JOIN {Racer._meta.db_table} rc ON {racer_round} = rd.{_q('id')}"
        f" WHERE {where} ORDER BY r.{_q('id')}, {_column(Racer, 'seat', 'rc')}"
    )


@cache
def _seat_statements() -> tuple[str, str]:
    """`lock_seat`'s lock and read."""
    reads = _reads()
    room_code = _column(Room, "code", "r")
    lock = (
        f"SELECT {reads.room.sql}, {reads.member.sql}"
        f" FROM {Room._meta.db_table} r"
        f" LEFT JOIN {Member._meta.db_table} m"
        f" ON {_column(Member, 'room', 'm')} = r.{_q('id')}"
        f" AND {_column(Member, 'player', 'm')} = %s"
        f" WHERE {room_code} = %s AND {_column(Room, 'status', 'r')} <> %s"
    )
    read = f"SELECT {reads.play}{_in_play_of(f'{room_code} = %s')}"
    return lock + _for_update(), read


def lock_seat(code: str, player_id: int, tx: RoundTransaction) -> Locked | None:
    """Lock an open room and read the player's seat in it (None when they
    have none) and what is in play; None when the room is missing or
    closed."""
    reads = _reads()
    lock_sql, read_sql = _seat_statements()
    lock = (lock_sql, [player_id, code, Room.Status.CLOSED])
    rows, read_rows = tx.read(lock, (read_sql, [code]))
    if not rows:
        return None
    width = len(reads.room)
    room = reads.room.instance(rows[0][:width])
    member_row = rows[0][width:]
    member = None if member_row[0] is None else reads.member.instance(member_row)
    return Locked(room, member, _in_play(read_rows))


def lock_due(
    room_ids: Sequence[int], now: datetime, tx: RoundTransaction
) -> list[Locked]:
    """Lock those of `room_ids` whose wake_at has come and read what is in
    play in each, all in one round trip (the timer's batch), leaving out
    the rooms another transaction holds (that one sees to them, and a
    timer never waits on another)."""
    reads = _reads()
    among, ids = _among(room_ids)
    sql = (
        f"SELECT {reads.room.sql} FROM {Room._meta.db_table} r"
        f" WHERE {among} AND {_column(Room, 'wake_at', 'r')} <= %s"
        f" ORDER BY r.{_q('id')}"
    )
    lock = (sql + _for_update(skip_locked=True), [*ids, _prep(Room, "wake_at", now)])
    read = f"SELECT r.{_q('id')}, {reads.play}{_in_play_of(among)}"
    rows, read_rows = tx.read(lock, (read, ids))
    # The read cannot wait for the lock's answer in the same round trip, so
    # it reads every room asked for: those the lock skipped are left out.
    plays = {
        room_id: [row[1:] for row in group]
        for room_id, group in groupby(read_rows, key=itemgetter(0))
    }
    locked = []
    for row in rows:
        room = reads.room.instance(row)
        locked.append(Locked(room, None, _in_play(plays.get(room.pk, []))))
    return locked


def _among(room_ids: Sequence[int]) -> tuple[str, list]:
    """`r.id` among `room_ids`, and its parameters: one array on PostgreSQL,
    so the statement's text (prepared once) is the same for any count."""
    if connection.vendor == "postgresql":
        return f"r.{_q('id')} = ANY(%s)", [list(room_ids)]
    marks = ", ".join(["%s"] * len(room_ids))
    return f"r.{_q('id')} IN ({marks})", list(room_ids)


def due_rooms(now: datetime, limit: int, part: int, parts: int) -> list[int]:
    """Rooms whose wake_at has come, the most overdue first, among those
    whose id leaves `part` when divided by `parts` (the timer's threads
    share the rooms that way; each looks many times a second)."""
    wake_at = _column(Room, "wake_at")
    with prepared() as cursor:
        cursor.execute(
            f"SELECT {_q('id')}, {wake_at} FROM {Room._meta.db_table}"
            f" WHERE {wake_at} <= %s AND {_q('id')} %% %s = %s"
            f" ORDER BY {wake_at} LIMIT %s",
            [_prep(Room, "wake_at", now), parts, part, limit],
        )
        found = cursor.fetchall()
    field = Room._meta.get_field("wake_at")
    col = field.get_col(Room._meta.db_table)
    converters = [
        *connection.ops.get_db_converters(col),
        *col.get_db_converters(connection),
    ]
    times = []
    for _, wake_at in found:
        for convert in converters:
            wake_at = convert(wake_at, col, connection)
        times.append(wake_at)
    metrics.timer_lateness(now, times)
    return [room_id for room_id, _ in found]


@lru_cache(maxsize=512)
def _dealt(round_id: int, seed: str) -> Dealt:
    """A round's part that never changes after the deal. Keyed by the seed
    too, so a reused id (SQLite reuses them after a rollback) cannot bring
    back another round's deal."""
    return Round.objects.only(*_DEALT).get(pk=round_id, seed=seed).dealt()


def load_play(round_id: int) -> InPlay | None:
    """A round in play and its state, read without a lock; None when the
    round is over."""
    sql = f"SELECT {_reads().play}{_in_play_of(f'rd.{_q("id")} = %s')}"
    with prepared() as cursor:
        cursor.execute(sql, [round_id])
        return _in_play(cursor.fetchall())


# States by (round id, seed[, seat]) with the revision of the row they
# were read from or written as: a racer's, a Together round's. The seed
# because SQLite reuses ids after a rollback. One entry a row, the last
# used last (the first dropped), keeps what the garbage collector walks
# few.
KEEP = 1024
_kept: dict[tuple, tuple[int, Any]] = {}
_kept_lock = threading.Lock()


def _kept_state(key: tuple, revision: int) -> Any:
    with _kept_lock:
        kept = _kept.get(key)
    return kept[1] if kept is not None and kept[0] == revision else None


def _keep(key: tuple, revision: int, state: Any) -> None:
    with _kept_lock:
        _kept.pop(key, None)
        _kept[key] = (revision, state)
        if len(_kept) > KEEP:
            del _kept[next(iter(_kept))]


def _in_play(rows: list[tuple]) -> InPlay | None:
    """The round in play and its state from its rows (`Reads.play`, a row
    a racer: one row with no racer in Together); None when there is no
    round or it is over."""
    if not rows:
        return None
    reads = _reads()
    width = len(reads.round)
    rnd: Round = reads.round.instance(rows[0][:width])
    if rnd.status != Round.Status.RACING:
        return None
    dealt = _dealt(rnd.pk, rnd.seed)
    if rnd.together is not None:  # Together's column, null in a race
        key = (rnd.pk, rnd.seed)
        shared = _kept_state(key, rnd.revision)
        if shared is None:
            shared = together_store.load(
                dealt.layout,
                rnd.seed,
                rnd.dealt_at,
                Clock(rnd.banked_ms, rnd.running_since),
                rnd.paused,
                rnd.together,
            )
            _keep(key, rnd.revision, shared)
        return InPlay(rnd.pk, shared)
    racers = [
        _racer((rnd.pk, rnd.seed), row[width:])
        for row in rows
        if row[width] is not None  # a round with no racer yet
    ]
    return InPlay(rnd.pk, rnd.state(racers, dealt))


def _racer(key: tuple[int, str], row: Sequence[Any]) -> race.Racer:
    """A racer's state from its row, decoded only when its revision is not
    the one kept."""
    columns = _reads().racer
    seat, revision = row[columns.at("seat")], row[columns.at("revision")]
    state = _kept_state((*key, seat), revision)
    if state is None:
        state = columns.instance(row).state()
        _keep((*key, seat), revision, state)
    return state


def _update(
    model: type[models.Model],
    where: Mapping[str, Any],
    new: Mapping[str, Any],
    old: Mapping[str, Any] | None = None,
    revision: int | None = None,
) -> Statement | None:
    """An UPDATE of the fields of `new` that differ from `old` (all of them
    without `old`) on the rows `where` picks (fields by name), and of a
    Revised row's `revision` with them; None when nothing differs. On
    PostgreSQL a JSON list that only grew (a move adds
    a step to the undo log) gets its new items appended rather than the
    whole list encoded, sent and parsed again."""
    sets, params = [], []
    appends = connection.vendor == "postgresql"
    for name, value in new.items():
        was = None if old is None else old.get(name)
        if old is not None and was == value:
            continue
        field = model._meta.get_field(name)
        column = _column(model, name)
        grew = (
            appends
            and isinstance(field, JSONField)
            and isinstance(was, list)
            and isinstance(value, list)
            and len(value) > len(was) > 0
            and value[: len(was)] == was
        )
        if grew:
            sets.append(f"{column} = {column} || %s")
            value = value[len(cast(list, was)) :]
        else:
            sets.append(f"{column} = %s")
        params.append(field.get_db_prep_save(value, connection))
    if not sets:
        return None
    if revision is not None:
        sets.append(f"{_column(model, 'revision')} = %s")
        params.append(revision)
    conditions = [f"{_column(model, name)} = %s" for name in where]
    params += [_prep(model, name, value) for name, value in where.items()]
    return (
        f"UPDATE {model._meta.db_table} SET {', '.join(sets)}"
        f" WHERE {' AND '.join(conditions)}",
        params,
    )


class Encoded(str):
    """A JSON value already encoded as text (an event's data, encoded once
    for sending too): `_insert` sends that text as it is."""


def _encoded(text: Encoded) -> Jsonb | str:
    if connection.vendor == "postgresql":
        return Jsonb(text, dumps=lambda _: text)
    return text  # SQLite keeps JSON as text


def _insert(model: type[models.Model], rows: Sequence[Mapping[str, Any]]) -> Statement:
    """One INSERT of `rows` (fields by name; the others take their
    defaults), every concrete field but the primary key."""
    fields = _inserted(model)
    params = []
    for row in rows:
        for field in fields:
            value = row[field.name] if field.name in row else field.get_default()
            if isinstance(value, Encoded):
                params.append(_encoded(value))
            else:
                params.append(field.get_db_prep_save(value, connection))
    return _insert_sql(model, len(rows)), params


@_per_model
def _inserted(model: type[models.Model]) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


@_per_model
def _insert_sql(model: type[models.Model], rows: int) -> str:
    fields = _inserted(model)
    marks = f"({', '.join(['%s'] * len(fields))})"
    columns = ", ".join(_q(f.column) for f in fields)
    return (
        f"INSERT INTO {model._meta.db_table} ({columns})"
        f" VALUES {', '.join([marks] * rows)}"
    )


def race_writes(round_id: int, old: race.Race, new: race.Race) -> Writes:
    """The statements that write what changed from `old` to `new`: each
    racer that changed (a racer new to the race is added) and the round's
    status and clock. `add_events` runs them."""
    before = {r.seat: r for r in old.racers}
    writes = []
    added = []
    for racer in new.racers:
        prev = before.get(racer.seat)
        if prev == racer:
            continue
        revision = new_revision()
        fields = racer_fields(racer)
        if prev is None:
            added.append({**fields, "round": round_id, "revision": revision})
        else:
            where = {"round": round_id, "seat": racer.seat}
            update = _update(Racer, where, fields, racer_fields(prev), revision)
            if update is not None:
                writes.append(update)
        _keep((round_id, new.seed, racer.seat), revision, racer)
    if added:
        writes.append(_insert(Racer, added))
    update = _update(
        Round, {"id": round_id}, round_fields(new), round_fields(old), new_revision()
    )
    if update is not None:
        writes.append(update)
    return writes


def together_writes(key: tuple[int, str], new: Together) -> Writes:
    """The statement that writes a Together state on its round `key` (id,
    seed)."""
    revision = new_revision()
    _keep(key, revision, new)
    update = _update(Round, {"id": key[0]}, round_fields(new), revision=revision)
    assert update is not None  # no `old`: every field is written
    return [update]


def pause_writes(room_id: int, seat: int, pauses: int, round_id: int) -> Writes:
    """The statement that counts a seat's pauses of a deal."""
    where = {"room": room_id, "seat": seat}
    update = _update(Member, where, {"pauses": pauses, "pauses_round": round_id})
    assert update is not None
    return [update]


def add_events(
    room: Room, events: list[Message], now: datetime, writes: Writes = ()
) -> None:
    """Store numbered events and the room's version and wake_at, after
    `writes` (a round's rows, from `race_writes`): all in one round trip on
    PostgreSQL."""
    with connection.cursor() as cursor:
        execute_all(cursor, event_writes(room, events, now, writes))


def _event_data(message: Message) -> Encoded | None:
    return None if message.data_json is None else Encoded(message.data_json)


def event_writes(
    room: Room, events: list[Message], now: datetime, writes: Writes = ()
) -> list[Statement]:
    """The statements of `add_events`, for a move to finish with."""
    version = {"version": room.version, "wake_at": room.wake_at}
    statements = [*writes, _update(Room, {"id": room.pk}, version)]
    if events:
        # One statement for any number of events (a move makes one).
        rows = [
            {
                "room": room.pk,
                "version": e["v"],
                "kind": e["kind"],
                "created": now,
                "data": _event_data(e),
            }
            for e in events
        ]
        statements.append(_insert(Event, rows))
    return [s for s in statements if s is not None]
