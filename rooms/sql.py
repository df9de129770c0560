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
- `read_seat` / `read_due` read a room (with the member's seat row) and
  what is in play in it (the round's row and a race's racers) in one
  statement, so from one snapshot, with no lock (rooms.move_tx).
  `load_play` reads a round by itself (hints, joins, deals);
- `race_writes`, `together_writes` and `pause_writes` give what saves
  what changed (`Write`), and `event_writes` the statements that store it
  with the events and the room's new version and revision, only if the
  room's revision is still the one read: a move finishes with them,
  `add_events` runs them for a change that holds the room's lock (one
  round trip on PostgreSQL).

Decoding is most of a read's CPU, so a process keeps what never changes
in a round after the deal (`_dealt`), and each racer's and each Together
round's state with the `revision` of the row it came from or was written
as (rooms.models.Revised): a row whose revision is the one kept is not
decoded again, and on PostgreSQL the read leaves its JSON out
(`Columns`). A racer's row that another process wrote since is decoded
from what its text gained since the last read (`_decoded`): the same
faces, a step or two more. The statements run on SQLite too (in a
transaction, which SQLite takes whole, see settings).
"""

import json
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache, lru_cache
from itertools import groupby
from operator import itemgetter
from typing import Any, NamedTuple, cast

from django.db import DEFAULT_DB_ALIAS, connection, models
from django.db.models import JSONField
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import (
    ForeignKeyDeferredAttribute,
)
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init
from psycopg.types.json import Jsonb

from games.play import Clock
from monitoring import metrics
from rooms import race, together_store
from rooms.models import (
    Appended,
    Dealt,
    Event,
    Member,
    Racer,
    Room,
    Round,
    new_revision,
    racer_fields,
    racer_state,
    round_fields,
    step_states,
)
from rooms.move_tx import RoundTransaction, Statement, execute_all, prepared
from rooms.move_tx import db as _db
from rooms.publish import Message
from rooms.together import Together

# What saves a change of the round in play, run after the room's check
# (`event_writes`).
Writes = Sequence["Write"]

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


@_per_model
def _field(model: type[models.Model], name: str) -> models.Field:
    return model._meta.get_field(name)


@_per_model  # the texts below are built once per process
def _column(model: type[models.Model], name: str, alias: str = "") -> str:
    column = _q(_field(model, name).column)
    return f"{alias}.{column}" if alias else column


class Columns:
    """Some of a model's concrete fields (all but `leave_out`) as a select
    list under a table alias, and rows of them back into instances, each
    value converted as Django's own queries convert it.

    Fields named in `raw` are left as the database sends them (JSON as
    its text: a racer's is decoded apart, `_decoded`).

    With `unless_kept` (a Revised model, on PostgreSQL) its JSON columns
    come back null from a row whose revision is among those the process
    keeps the state of (`kept_params`): PostgreSQL neither detoasts nor
    prints them, nor psycopg takes them in, for a state that is not decoded
    (a race's racers: a third of a read's CPU in PostgreSQL)."""

    def __init__(
        self,
        model: type[models.Model],
        alias: str,
        leave_out: Sequence[str] = (),
        unless_kept: bool = False,
        raw: Sequence[str] = (),
    ) -> None:
        fields = [f for f in model._meta.concrete_fields if f.name not in leave_out]
        self.model = model
        self.names = [f.attname for f in fields]
        self._at = {name: i for i, name in enumerate(self.names)}
        heavy = [f for f in fields if unless_kept and isinstance(f, JSONField)]
        self._marks = len(heavy)
        self._exprs = [
            _unless_kept(model, alias, f) if f in heavy else f"{alias}.{_q(f.column)}"
            for f in fields
        ]
        self.sql = ", ".join(self._exprs)
        # Whether each field's attribute is Django's plain one, which
        # __init__ sets as a value in the instance's __dict__ (`instance`).
        self._plain = all(
            type(_class_attribute(model, name)) in _PLAIN_ATTRIBUTES
            for name in self.names
        )
        self.converters = []
        for i, field in enumerate(fields):
            col = field.get_col(alias)
            found = [
                *connection.ops.get_db_converters(col),
                *col.get_db_converters(connection),
            ]
            if found and field.name not in raw:
                self.converters.append((i, col, found))

    def __len__(self) -> int:
        return len(self.names)

    def only_when(self, condition: str, keep: Sequence[str] = ()) -> str:
        """`sql` with each column (but those of `keep`, by attname) null
        unless `condition` holds: the rows a read repeats them on send
        nulls, which are neither printed nor taken in."""
        return ", ".join(
            expr if name in keep else f"CASE WHEN {condition} THEN {expr} END"
            for name, expr in zip(self.names, self._exprs, strict=True)
        )

    def kept_params(self, revisions: Sequence[int]) -> list:
        """The parameters of `sql`: the revisions whose rows' JSON columns
        are left out, once for each of those columns. As an array's text,
        which PostgreSQL takes for the column's type: a list would be sent
        typed by its items, and an empty one untyped, each type a statement
        psycopg prepares apart."""
        if not self._marks:
            return []
        return [f"{{{','.join(map(str, revisions))}}}"] * self._marks

    def at(self, name: str) -> int:
        """Where field `name` (its attname) is in a row."""
        return self._at[name]

    def values(self, row: Sequence[Any]) -> dict[str, Any]:
        """A row's values by attname, converted, without making an instance
        (Django's takes longer than the values: rooms.models.racer_state)."""
        return dict(zip(self.names, self._converted(row), strict=True))

    def instance(self, values: Sequence[Any]) -> Any:
        """The instance `Model.from_db` makes of a row. Made directly, as
        its __init__ would leave it (the state of a saved row, then each
        field's value under its attname: in __dict__, as every field
        here sets it, a foreign key's id too, with no object cached to
        clear on a new instance), unless something listens to its
        signals: __init__ takes several times as long, a room a read."""
        model = self.model
        listened = pre_init.has_listeners(model) or post_init.has_listeners(model)
        if listened or not self._plain:
            return model.from_db(DEFAULT_DB_ALIAS, self.names, self._converted(values))
        new = object.__new__(model)
        state = new._state = ModelState()
        state.adding, state.db = False, DEFAULT_DB_ALIAS
        new.__dict__.update(zip(self.names, self._converted(values), strict=True))
        return new

    def _converted(self, row: Sequence[Any]) -> list[Any]:
        values = list(row)
        if not self.converters:
            return values
        db = _db()
        for i, col, converters in self.converters:
            value = values[i]
            for convert in converters:
                value = convert(value, col, db)
            values[i] = value
        return values


_PLAIN_ATTRIBUTES = (DeferredAttribute, ForeignKeyDeferredAttribute)


def _class_attribute(model: type[models.Model], name: str) -> Any:
    return next(vars(k)[name] for k in model.__mro__ if name in vars(k))


def _unless_kept(model: type[models.Model], alias: str, field: models.Field) -> str:
    """A column, null when its row's revision is one of the parameter's."""
    revision = _column(model, "revision", alias)
    column = f"{alias}.{_q(field.column)}"
    return f"CASE WHEN {revision} = ANY(%s) THEN NULL ELSE {column} END"


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

    def play_params(self, kept: "Kept") -> list:
        """The parameters of `play`: the revisions of the rows whose JSON
        is left out."""
        revisions = list(kept)
        return [*self.round.kept_params(revisions), *self.racer.kept_params(revisions)]


@cache
def _reads() -> Reads:
    unless_kept = connection.vendor == "postgresql"
    return Reads(
        # A move never looks at the host's choices or the removed: their
        # JSON is left unread (deferred on the Room read).
        Columns(Room, "r", leave_out=("settings", "removed")),
        Columns(Member, "m"),
        Columns(Round, "rd", leave_out=_DEALT, unless_kept=unless_kept),
        Columns(Racer, "rc", unless_kept=unless_kept, raw=("faces", "steps")),
    )


@dataclass(frozen=True)
class InPlay:
    """The round in play in a locked room and its state, by its mode."""

    round_id: int
    state: race.Race | Together


@dataclass(frozen=True)
class Seen:
    """A room as a move read it (no lock: rooms.move_tx), with the player's
    seat in it (None: not a member, or the timer's read) and what is in
    play in it (None: no race or Together game on)."""

    room: Room
    member: Member | None
    play: InPlay | None


@cache
def _picked_room() -> str:
    """The room row of an id and a revision (the parameters)."""
    return f"{_column(Room, 'id')} = %s AND {_column(Room, 'revision')} = %s"


def _prep(model: type[models.Model], name: str, value: Any, db: Any = None) -> Any:
    """A field's value as sent to the database, as Django prepares it."""
    db = db or _db()
    if db.vendor == "postgresql" and type(value) in _PLAIN:
        as_sent = _plain(model, name, type(value))
        if as_sent is not None and (type(value) is not datetime or value.tzinfo):
            return as_sent(value)
    return _field(model, name).get_db_prep_save(value, db)


# Values whose preparation for PostgreSQL by fields of these classes is
# known, some ten of Django's Python calls each (a bot's move writes a
# dozen values): a bool and an aware datetime go as they are, an int
# wrapped in psycopg's type of the column (`Int8`...) for the server-side
# binding. (A str costs Django little.)
_PLAIN: dict[type, tuple[type[models.Field], ...]] = {
    int: (models.IntegerField, models.ForeignKey),
    bool: (models.BooleanField,),
    datetime: (models.DateTimeField,),
}


def _as_it_is(value: Any) -> Any:
    return value


@_per_model  # a move's few fields
def _plain(
    model: type[models.Model], name: str, kind: type
) -> Callable[[Any], Any] | None:
    """How field `name` prepares a value of type `kind` (one of `_PLAIN`'s)
    for PostgreSQL, as Django does; None when only Django knows. An int
    field wraps ints in the type of its answer for 1."""
    field = _field(model, name)
    if not isinstance(field, _PLAIN[kind]):
        return None
    if kind is not int:
        return _as_it_is
    wrapper = type(field.get_db_prep_save(1, _db()))
    return _as_it_is if wrapper is int else wrapper


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
def _play_joins() -> str:
    """The joins of a room `r` to what is in play in it: its round `rd`
    (nulls when none) and the round's racers `rc`."""
    round_of = _column(Room, "current_round", "r")
    racer_round = _column(Racer, "round", "rc")
    return (
        f" LEFT JOIN {Round._meta.db_table} rd ON rd.{_q('id')} = {round_of}"
        f" LEFT JOIN {Racer._meta.db_table} rc ON {racer_round} = rd.{_q('id')}"
    )


@cache
def _seat_read() -> str:
    """`read_seat`'s statement: one, so it reads one snapshot. Its rows
    come in no order: `read_seat` sorts the racers' few itself, which
    costs PostgreSQL a sort node to set up and run on every read."""
    reads = _reads()
    return (
        f"SELECT {reads.room.sql}, {reads.member.sql}, {reads.play}"
        f" FROM {Room._meta.db_table} r"
        f" LEFT JOIN {Member._meta.db_table} m"
        f" ON {_column(Member, 'room', 'm')} = r.{_q('id')}"
        f" AND {_column(Member, 'player', 'm')} = %s{_play_joins()}"
        f" WHERE {_column(Room, 'code', 'r')} = %s"
        f" AND {_column(Room, 'status', 'r')} <> %s"
    )


def read_seat(code: str, player_id: int, tx: RoundTransaction) -> Seen | None:
    """An open room, the player's seat in it (None when they have none) and
    what is in play; None when the room is missing or closed."""
    reads = _reads()
    kept = _kept_in([code])
    params = [*reads.play_params(kept), player_id, code]
    rows = tx.read((_seat_read(), [*params, Room.Status.CLOSED]))
    if not rows:
        return None
    width = len(reads.room)
    room = reads.room.instance(rows[0][:width])
    member_row = rows[0][width : width + len(reads.member)]
    member = None if member_row[0] is None else reads.member.instance(member_row)
    play = [row[width + len(reads.member) :] for row in rows]
    # By seat (a round with no racer yet has one row, its seat null).
    play.sort(key=itemgetter(len(reads.round) + reads.racer.at("seat")))
    return Seen(room, member, _in_play(play, kept, code))


def read_due(
    room_ids: Sequence[int], now: datetime, tx: RoundTransaction
) -> list[Seen]:
    """Those of `room_ids` whose wake_at has come and what is in play in
    each, in one statement (the timer's batch)."""
    among, ids = _among(room_ids)
    where = f"{among} AND {_column(Room, 'wake_at', 'r')} <= %s"
    params = [*ids, _prep(Room, "wake_at", now)]
    return _read_due(where, params, _kept_in(room_ids), tx)


def read_first_due(
    now: datetime, limit: int, part: int, parts: int, tx: RoundTransaction
) -> list[Seen]:
    """The rooms `due_rooms` finds, read as `read_due` reads them: a timer's
    look and its batch's read in one statement (one round trip less a
    look, and no list of ids sent back)."""
    params = [_prep(Room, "wake_at", now), parts, part, limit]
    kept = _kept_in(_woken_by(now, limit, part, parts))
    return _read_due(_first_due(), params, kept, tx)


@cache
def _first_due() -> str:
    """`read_first_due`'s condition on the rooms: the first due of a part."""
    wake_at = _column(Room, "wake_at")
    return (
        f"r.{_q('id')} IN (SELECT {_q('id')} FROM {Room._meta.db_table}"
        f" WHERE {wake_at} <= %s AND {_q('id')} %% %s = %s"
        f" ORDER BY {wake_at} LIMIT %s)"
    )


@lru_cache(maxsize=64)  # a few conditions (SQLite's, by the rooms' count)
def _due_read(where: str) -> str:
    """The text of `_read_due`'s statement on the rooms `where` picks."""
    reads = _reads()
    # A room's columns and its round's would come again on each of its
    # racers' rows: only its first row has them (the others its id alone,
    # to group by), so the others bring no values to send and convert
    # (the timestamps by Django's loader, in Python) that nothing reads.
    seat = _column(Racer, "seat", "rc")
    first = "row_number() OVER racers = 1"
    room = reads.room.only_when(first, keep=("id",))
    return (
        f"SELECT {room}, {reads.round.only_when(first)}, {reads.racer.sql}"
        f" FROM {Room._meta.db_table} r{_play_joins()}"
        f" WHERE {where}"
        f" WINDOW racers AS (PARTITION BY r.{_q('id')} ORDER BY {seat})"
        f" ORDER BY r.{_q('id')}, {seat}"
    )


def _read_due(
    where: str, params: list, kept: "Kept", tx: RoundTransaction
) -> list[Seen]:
    reads = _reads()
    rows = tx.read((_due_read(where), [*reads.play_params(kept), *params]))
    width, at_id = len(reads.room), reads.room.at("id")
    seen = []
    for _, group in groupby(rows, key=itemgetter(at_id)):
        room_rows = list(group)
        room = reads.room.instance(room_rows[0][:width])
        play = _in_play([row[width:] for row in room_rows], kept, room.pk)
        seen.append(Seen(room, None, play))
    return seen


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
        cursor.execute(sql, [*_reads().play_params({}), round_id])
        return _in_play(cursor.fetchall())


# States by (round id, seed[, seat]) with the revision of the row they
# were read from or written as: a racer's, a Together round's, and a
# race's round row (keyed "round", id, seed). The seed because SQLite
# reuses ids after a rollback. One entry a row, the last used last (the
# first dropped), keeps what the garbage collector walks few: a race of
# four takes five.
KEEP = 2048
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


# The round last seen in play in a room and its racers' seats, by what the
# room is read by (its code for a player's move, its id for the timer's):
# the next read of the room leaves out the JSON of the rows whose state is
# kept (`_kept_in`).
_seats_seen: dict[str | int, tuple[tuple[int, str], tuple[int, ...]]] = {}

# States kept, by the revision of their row: their key in `_kept` (a
# Together round's, or a racer's) and the state.
Kept = Mapping[int, tuple[tuple, Any]]


def _kept_in(rooms: Sequence[str | int]) -> Kept:
    """The states kept of the Together round or the racers last seen in
    play in `rooms`: their rows' JSON columns are left out of the read
    (`Columns`)."""
    kept = {}
    with _kept_lock:
        for room in rooms:
            seen = _seats_seen.get(room)
            if seen is None:
                continue
            round_key, seats = seen
            for key in (round_key, *((*round_key, seat) for seat in seats)):
                found = _kept.get(key)
                if found is not None:
                    kept[found[0]] = (key, found[1])
    return kept


# When each room a timer wrote is due next, as it wrote it, by id: a look
# that finds its due rooms in its own read (`read_first_due`) leaves out the
# JSON kept of the rooms it expects, not of every room it keeps (a long
# array of revisions costs PostgreSQL more to compare than the JSON saves).
_wakes: dict[int, datetime | None] = {}


def _wakes_at(room_id: int, wake_at: datetime | None) -> None:
    with _kept_lock:
        _wakes.pop(room_id, None)
        _wakes[room_id] = wake_at
        if len(_wakes) > KEEP:
            del _wakes[next(iter(_wakes))]


def _woken_by(now: datetime, limit: int, part: int, parts: int) -> list[int]:
    """The rooms `read_first_due` should find by what this process last
    wrote of them (a hint: another process may have changed a room since,
    which costs only its JSON), the most overdue first."""
    with _kept_lock:
        due = [
            (at, room)
            for room, at in _wakes.items()
            if at is not None and at <= now and room % parts == part
        ]
    return [room for _, room in sorted(due)[:limit]]


def _left_out(kept: Kept, revision: int, key: tuple) -> Any:
    """The state of a row whose JSON the read left out (its revision among
    `kept`), else None."""
    found = kept.get(revision)
    if found is None:
        return None
    if found[0] != key:
        raise RuntimeError(f"two rows of revision {revision}")
    return found[1]


def _see_seats(room: str | int, round_key: tuple[int, str], seats: tuple) -> None:
    with _kept_lock:
        _seats_seen.pop(room, None)
        _seats_seen[room] = (round_key, seats)
        if len(_seats_seen) > KEEP:
            del _seats_seen[next(iter(_seats_seen))]


def _in_play(
    rows: list[tuple], kept: Kept | None = None, room: str | int | None = None
) -> InPlay | None:
    """The round in play and its state from its rows (`Reads.play`, a row
    a racer: one row with no racer in Together); None when there is no
    round or it is over. The round's id, seed, status and revision are
    looked at as they came: a Together round whose state is kept, and a
    race's round row that is, are not decoded again, nor a row in `kept`
    (its JSON left out). `room`, what the room was read by, remembers the
    round and its seats for its next read."""
    columns = _reads().round
    first = rows[0] if rows else None
    if first is None or first[columns.at("id")] is None:
        return None
    if first[columns.at("status")] != Round.Status.RACING:
        return None
    round_id, seed = first[columns.at("id")], first[columns.at("seed")]
    revision, width = first[columns.at("revision")], len(columns)
    kept = kept or {}
    if first[columns.at("mode")] == Round.Mode.TOGETHER:
        if room is not None:
            _see_seats(room, (round_id, seed), ())
        shared = _left_out(kept, revision, (round_id, seed))
        if shared is None:
            shared = _kept_state((round_id, seed), revision)
        if shared is None:
            rnd = columns.instance(first[:width])
            shared = together_store.load(
                _dealt(round_id, seed).layout,
                rnd.seed,
                rnd.dealt_at,
                Clock(rnd.banked_ms, rnd.running_since),
                rnd.paused,
                rnd.together,
            )
            _keep((round_id, seed), revision, shared)
        return InPlay(round_id, shared)
    rnd = _kept_state(("round", round_id, seed), revision)
    if rnd is None:
        rnd = columns.instance(first[:width])
        _keep(("round", round_id, seed), revision, rnd)
    racers = [
        _racer((round_id, seed), row[width:], kept)
        for row in rows
        if row[width] is not None  # a round with no racer yet
    ]
    if room is not None:
        _see_seats(room, (round_id, seed), tuple(r.seat for r in racers))
    return InPlay(round_id, rnd.state(racers, _dealt(round_id, seed)))


def _racer(key: tuple[int, str], row: Sequence[Any], kept: Kept) -> race.Racer:
    """A racer's state from its row, decoded only when its revision is not
    the one kept."""
    columns = _reads().racer
    seat, revision = row[columns.at("seat")], row[columns.at("revision")]
    state = _left_out(kept, revision, (*key, seat))
    if state is not None:
        return state
    state = _kept_state((*key, seat), revision)
    if state is None:
        values = columns.values(row)
        faces, steps = _decoded((*key, seat), values["faces"], values["steps"])
        state = racer_state({**values, "faces": faces}, steps)
        _keep((*key, seat), revision, state)
    return state


# The JSON text of each racer's faces and undo log as last read, and what
# they decoded to, by the racer's key in `_kept`: in a room where others
# move, each read finds the other racers moved since, with the same faces
# and a log a step or two longer, and decodes only the new steps (a log of
# 72 steps takes 40 us to decode, the faces 10 us).
_texts: dict[tuple, tuple[str, tuple[str, ...], str, tuple[race.Step, ...]]] = {}


def _decoded(
    key: tuple, faces: str, steps: str
) -> tuple[tuple[str, ...], tuple[race.Step, ...]]:
    """A racer's faces and undo log from their JSON text, reusing what the
    last read of the racer decoded: the same faces' text, and the entries
    of a log whose text the new one extends."""
    with _kept_lock:
        last = _texts.get(key)
    if last is not None and last[0] == faces:
        faces_state = last[1]
    else:
        faces_state = tuple(json.loads(faces))
    if last is not None and last[2] == steps:
        steps_state = last[3]
    elif last is not None and _extends(steps, last[2]):
        tail = json.loads("[" + steps[len(last[2]) :])
        steps_state = last[3] + step_states(tail)
    else:
        steps_state = step_states(json.loads(steps))
    with _kept_lock:
        _texts.pop(key, None)
        _texts[key] = (faces, faces_state, steps, steps_state)
        if len(_texts) > KEEP:
            del _texts[next(iter(_texts))]
    return faces_state, steps_state


def _extends(text: str, last: str) -> bool:
    """Whether the JSON array `text` is the array `last` (not empty) with
    more entries after: `last` but its closing bracket, then a comma. A
    JSON value ends where its own text ends, so the entries up to there
    are `last`'s, and the rest, bracketed, are the new ones."""
    cut = len(last) - 1
    return (
        len(text) > cut > 1
        and last[cut] == "]"
        and text[cut] == ","
        and text.startswith(last[:cut])
    )


class Write(NamedTuple):
    """A statement that saves one row's change, written only when the
    room's check holds (`event_writes`): `gate` joins that condition on."""

    sql: str
    params: Sequence
    gate: str  # " AND " after an UPDATE's WHERE, " WHERE " after a SELECT


def _update(
    model: type[models.Model],
    where: Mapping[str, Any],
    new: Mapping[str, Any],
    old: Mapping[str, Any] | None = None,
    revision: int | None = None,
    db: Any = None,
) -> Write | None:
    """An UPDATE of the fields of `new` that differ from `old` (all of them
    without `old`) on the rows `where` picks (fields by name), and of a
    Revised row's `revision` with them; None when nothing differs. `db`:
    this thread's connection (`_db`) when the caller has it."""
    db = db or _db()
    found = _sets(model, new, old, revision, db)
    if found is None:
        return None
    sets, params = found
    params += [_prep(model, name, value, db) for name, value in where.items()]
    return Write(_update_sql(model, sets, tuple(where)), params, " AND ")


@_per_model  # a move's few shapes of UPDATE: their texts are built once
def _update_sql(model: type[models.Model], sets: str, where: tuple[str, ...]) -> str:
    conditions = " AND ".join(f"{_column(model, name)} = %s" for name in where)
    return f"UPDATE {model._meta.db_table} SET {sets} WHERE {conditions}"


def _sets(
    model: type[models.Model],
    new: Mapping[str, Any],
    old: Mapping[str, Any] | None,
    revision: int | None,
    db: Any,
) -> tuple[str, list] | None:
    """`_update`'s SET list and its parameters. A JSON list `Appended`
    (a move's new steps, on PostgreSQL: `racer_fields`) is added to the
    end of the column's rather than the whole list encoded, sent and
    parsed again."""
    shape, params = [], []
    for name, value in new.items():
        if old is not None and old.get(name) == value:
            continue
        shape.append((name, isinstance(value, Appended)))
        params.append(_prep(model, name, value, db))
    if not shape:
        return None
    if revision is not None:
        params.append(revision)
    return _set_list(model, tuple(shape), revision is not None), params


@_per_model  # by the fields set (and which are appended to): built once
def _set_list(
    model: type[models.Model], shape: tuple[tuple[str, bool], ...], revised: bool
) -> str:
    sets = []
    for name, appended in shape:
        column = _column(model, name)
        sets.append(f"{column} = {column} || %s" if appended else f"{column} = %s")
    if revised:
        sets.append(f"{_column(model, 'revision')} = %s")
    return ", ".join(sets)


class Encoded(str):
    """A JSON value already encoded as text (an event's data, encoded once
    for sending too): `_insert` sends that text as it is."""


def _encoded(text: Encoded, db: Any) -> Jsonb | str:
    if db.vendor == "postgresql":
        return Jsonb(text, dumps=lambda _: text)
    return text  # SQLite keeps JSON as text


def _insert(model: type[models.Model], row: Mapping[str, Any], db: Any = None) -> Write:
    """An INSERT of `row` (fields by name; the others take their defaults),
    every concrete field but the primary key, as a SELECT of its values so
    that a condition can follow (`Write.gate`)."""
    params = []
    db = db or _db()
    for field in _inserted(model):
        value = row[field.name] if field.name in row else field.get_default()
        if isinstance(value, Encoded):
            params.append(_encoded(value, db))
        else:
            params.append(_prep(model, field.name, value, db))
    return Write(_insert_sql(model), params, " WHERE ")


@_per_model
def _inserted(model: type[models.Model]) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


@_per_model
def _insert_sql(model: type[models.Model]) -> str:
    fields = _inserted(model)
    columns = ", ".join(_q(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    return f"INSERT INTO {model._meta.db_table} ({columns}) SELECT {marks}"


def race_writes(round_id: int, old: race.Race, new: race.Race) -> Writes:
    """The statements that write what changed from `old` to `new`: each
    racer that changed (a racer new to the race is added) and the round's
    status and clock. `add_events` runs them."""
    before = {r.seat: r for r in old.racers}
    writes: list[Write] = []
    added = []
    db = _db()
    grow = db.vendor == "postgresql"
    for racer in new.racers:
        prev = before.get(racer.seat)
        # A racer the change left alone is the same object: no fields to
        # compare (a bot's move changes one racer of four).
        if prev is racer or prev == racer:
            continue
        revision = new_revision()
        if prev is None:
            fields = racer_fields(racer)
            added.append({**fields, "round": round_id, "revision": revision})
        else:
            where = {"round": round_id, "seat": racer.seat}
            fields = racer_fields(racer, since=prev, grow=grow)
            update = _update(Racer, where, fields, revision=revision, db=db)
            if update is not None:
                writes.append(update)
        _keep((round_id, new.seed, racer.seat), revision, racer)
    writes += [_insert(Racer, row, db) for row in added]
    update = _update(
        Round,
        {"id": round_id},
        round_fields(new),
        round_fields(old),
        new_revision(),
        db,
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
    PostgreSQL. For a change holding the room's lock (rooms.changes), so
    the room's check holds."""
    changed = execute_all(event_writes(room, events, now, writes))
    if changed[0] != 1:
        raise RuntimeError(f"room {room.pk} changed under its lock")


def _event_data(message: Message) -> Encoded | None:
    return None if message.data_json is None else Encoded(message.data_json)


def event_writes(
    room: Room,
    events: list[Message],
    now: datetime,
    writes: Writes = (),
    skip_locked: bool = False,
) -> list[Statement]:
    """The statements of `add_events`, for a move to finish with. The first
    is the room's check: it writes the room's version and wake_at and moves
    its revision on only if the revision is still the one `room` was read
    with (with `skip_locked`, also only if no other transaction holds the
    room's row: the timer never waits); the rows it changed, one or none,
    tell which. The rest (`writes`, the events) are written only if it
    changed one (rooms.move_tx). On PostgreSQL they are all one statement, the check
    first and the others after it in its WITH (`_checked`): PostgreSQL
    runs one statement for a room rather than one a row."""
    revision, db = new_revision(), _db()
    wakes = {"version": room.version, "wake_at": room.wake_at}
    found = _sets(Room, wakes, None, revision, db)
    assert found is not None  # no `old`: every field is written
    sets, params = found
    skip = skip_locked and db.features.has_select_for_update_skip_locked
    check = (_check_sql(sets, skip), [*params, room.pk, room.revision])
    room.revision = revision
    if skip_locked:
        _wakes_at(room.pk, room.wake_at)
    rows = [*writes, *(_insert(Event, _event_row(room, e, now), db) for e in events)]
    if db.vendor == "postgresql":
        return [_checked(check, rows)]
    table = Room._meta.db_table
    gate = f"EXISTS (SELECT 1 FROM {table} WHERE {_picked_room()})"
    gated = [(w.sql + w.gate + gate, [*w.params, room.pk, revision]) for w in rows]
    return [check, *gated]


@cache  # by the room's fields set and whether it skips a locked row
def _check_sql(sets: str, skip_locked: bool) -> str:
    """The room's check (`event_writes`): its parameters are `sets`', then
    the room's id and the revision read."""
    table, picked = Room._meta.db_table, _picked_room()
    if skip_locked:
        room_id = _column(Room, "id")
        picked = (
            f"{room_id} = (SELECT {room_id} FROM {table}"
            f" WHERE {picked} FOR UPDATE SKIP LOCKED)"
        )
    return f"UPDATE {table} SET {sets} WHERE {picked}"


def _checked(check: Statement, writes: Sequence[Write]) -> Statement:
    """The room's check and `writes` in one statement: the check's row,
    when it changed one, is the statement's, and each write's condition is
    that it did. The check runs first (the statement reads its rows), so
    the room's row is locked before any other, as every change of a room
    locks it."""
    params = list(check[1])
    for write in writes:
        params += write.params
    return _checked_sql(check[0], tuple((w.sql, w.gate) for w in writes)), params


# A move writes a few shapes of rows (the racers that moved, the event):
# the text of each is built once, the last few hundred kept.
@lru_cache(maxsize=256)
def _checked_sql(check: str, writes: tuple[tuple[str, str], ...]) -> str:
    """`_checked`'s text."""
    parts = [f"checked AS ({check} RETURNING 1)"]
    for n, (sql, gate) in enumerate(writes):
        parts.append(f"w{n} AS ({sql}{gate}EXISTS (SELECT FROM checked))")
    return f"WITH {', '.join(parts)} SELECT 1 FROM checked"


def _event_row(room: Room, message: Message, now: datetime) -> dict[str, Any]:
    return {
        "room": room.pk,
        "version": message["v"],
        "kind": message["kind"],
        "created": now,
        "data": _event_data(message),
    }
