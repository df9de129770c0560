"""A move's reads and writes: one read, then one write that checks it.

A move reads its room and what is in play in it in one statement, with
no lock and no transaction around it: one statement sees one snapshot.
It works out the new state and then sends its writes, which move the
room's `revision` on only if it is still the one read and change nothing
otherwise (rooms.sql.event_writes: on PostgreSQL one statement, the
check first in its WITH). PostgreSQL runs a statement, or a pipeline of
several ended by one Sync, as one transaction, so a move is two round
trips (the read, the write) with no BEGIN or COMMIT: Django's connection
stays in autocommit, as Django left it. Every change to a room moves its
revision on (moves, the timer, and seats and deals in
`transaction.atomic` holding the room's lock), so a move whose check
failed lost a race to another change of the room; it wrote nothing and
is worked out again on a new read (up to `TRIES` times). What it saved
is published with `on_commit`, which runs at once outside `atomic`,
after the write.

Why not lock the room first, as seats and deals do: a lock must be taken
in a transaction, and psycopg sends the BEGIN of Django's `atomic` and
waits for it, then COMMIT is a round trip of its own; four round trips
against two, and the Python of each (issue 26). Two changes of one room
within the same millisecond are rare (a room's players and bots make a
few moves a second), and the one that loses costs one more read and
write (tests/test_move_races.py makes many).

The read and the write are bound on the server and prepared
(`prepared`). Within an outer `atomic` block (tests) the move runs in
`atomic` too, a savepoint as before; on SQLite, which takes a
transaction whole, in `atomic`, where its check always holds.
"""

import socket
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction
from django.db.backends.utils import CursorWrapper
from psycopg import Cursor

Statement = tuple[str, Sequence]

# How many times a move is tried before giving up: each lost try means
# another change of the room landed, so this many in a row means a fault
# (a check that can never hold), not a busy room.
TRIES = 20


def db() -> Any:
    """This thread's connection itself: `connection` is a proxy that finds
    it again on each use (an asgiref Local), a cost when a move uses it
    dozens of times."""
    return connections[DEFAULT_DB_ALIAS]


def prepared(conn: Any = None) -> CursorWrapper:
    """A cursor for the reads of a move. On PostgreSQL it binds parameters
    on the server, so psycopg prepares each of these fixed statements on
    its connection after a few uses (`prepare_threshold`, sitewide/env.py)
    and PostgreSQL no longer parses and plans them (a third of its CPU a
    move). Django's own cursor binds them on the client, which cannot
    prepare. `conn`: this thread's connection (`db`) when the caller has it."""
    conn = conn or db()
    if conn.vendor != "postgresql":
        return conn.cursor()
    conn.ensure_connection()
    cursor = Cursor(conn.connection)
    if conn.queries_logged:  # DEBUG, or a test counting queries
        return conn.make_debug_cursor(cursor)
    return conn.make_cursor(cursor)


def _bare(conn: Any) -> bool:
    """Whether a move's statements may run on psycopg's own cursors, which
    bind on the server as `prepared`'s do, without Django's wrapper: its
    layers around each call and each fetch (a dozen Python calls, and the
    timer's batch sends a statement a room) do nothing here but log (DEBUG,
    or a test counting queries) and refuse a statement in an `atomic` block
    that must roll back; the caller turns psycopg's errors into Django's,
    once (`wrap_database_errors`)."""
    return not (conn.queries_logged or conn.in_atomic_block)


# This thread's connection and the cursors of it `_cursors` lends.
_lent = threading.local()


def _cursors(conn: Any, count: int) -> tuple[list[Any], bool]:
    """`count` of `prepared`'s cursors, and whether they are the caller's
    to close. When `_bare` allows it, psycopg's own, the same ones each
    time on this thread's connection: making one is a map of adapters and
    a dozen Python calls, and the timer's batch uses one a room. Each
    statement starts a cursor afresh (its results, its rowcount), after an
    error too; a new connection gets cursors of its own."""
    if not _bare(conn):
        return [prepared(conn) for _ in range(count)], True
    conn.ensure_connection()
    pg = conn.connection
    kept: tuple[Any, list[Cursor]] | None = getattr(_lent, "cursors", None)
    if kept is None or kept[0] is not pg:
        kept = _lent.cursors = (pg, [])
    cursors = kept[1]
    while len(cursors) < count:
        cursors.append(Cursor(pg))
    return cursors[:count], False


# Linux's: a TCP socket holds what is sent until it is unset.
_CORK: int | None = getattr(socket, "TCP_CORK", None)


@contextmanager
def _one_packet(pg: Any) -> Iterator[None]:
    """The statements a pipeline sends within this go out together when it
    ends, over TCP on Linux. psycopg sends each as it is queued, a send()
    apiece, and over TCP each goes out at once (libpq turns Nagle off),
    the kernel carrying it to PostgreSQL there and then: half the CPU of
    the timer's batched write."""
    if _CORK is None:
        yield
        return
    sock = socket.socket(fileno=pg.pgconn.socket)
    try:
        if sock.family not in (socket.AF_INET, socket.AF_INET6):
            yield
            return
        sock.setsockopt(socket.IPPROTO_TCP, _CORK, 1)
        try:
            yield
        finally:
            # Sent now; a connection broken meanwhile has no socket left.
            with suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, _CORK, 0)
    finally:
        sock.detach()  # the socket stays libpq's


def execute_all(statements: Sequence[Statement]) -> list[int]:
    """Run statements in one round trip and one transaction; the rows each
    changed or returned (rooms.sql.event_writes's check returns its row).
    On PostgreSQL they are bound on the server, as the reads are, so psycopg
    prepares each text after a few uses (a race writes a handful of texts)
    and PostgreSQL no longer parses and plans the write of a move (0.3 ms
    of its CPU, a sixth); several (the timer's batch) go in one pipeline
    with one Sync, which PostgreSQL runs as one implicit transaction, as it
    ran one text of several before. Elsewhere
    one by one, in the caller's transaction (SQLite's is whole)."""
    conn = db()
    if conn.vendor != "postgresql":
        with conn.cursor() as cursor:
            changed = []
            for sql, params in statements:
                cursor.execute(sql, params)
                changed.append(cursor.rowcount)
            return changed
    cursors, own = _cursors(conn, len(statements))
    try:
        # Errors come at the pipeline's end, and from psycopg's own cursors
        # (`_bare`): they are turned into Django's own here.
        with conn.wrap_database_errors:
            if len(cursors) == 1:
                cursors[0].execute(*statements[0])
            else:
                with conn.connection.pipeline(), _one_packet(conn.connection):
                    for cursor, statement in zip(cursors, statements, strict=True):
                        cursor.execute(*statement)
        return [cursor.rowcount for cursor in cursors]
    finally:
        for cursor in cursors if own else ():
            cursor.close()


class RoundTransaction:
    """A change to the round in play, begun by `move()`: one `read`, then
    `write` the statements that save it."""

    def read(self, statement: Statement) -> list:
        """The rows of `statement`."""
        conn = db()
        if conn.vendor != "postgresql":
            with conn.cursor() as cursor:
                cursor.execute(*statement)
                return cursor.fetchall()
        (cursor,), own = _cursors(conn, 1)
        try:
            with conn.wrap_database_errors:
                cursor.execute(*statement)
                return cursor.fetchall()
        finally:
            if own:
                cursor.close()

    def write(
        self, statements: Sequence[Statement], checks: Sequence[int]
    ) -> list[bool]:
        """Run `statements` as one transaction; whether each of the checks
        (rooms.sql.event_writes's first statement, by its place among
        `statements`) held. Nothing to write: no round trip."""
        if not statements:
            return [True] * len(checks)
        changed = execute_all(statements)
        return [changed[at] > 0 for at in checks]


@contextmanager
def move() -> Iterator[RoundTransaction]:
    """One try of a move. A database error leaves no transaction open on
    PostgreSQL (the write's own ends with it); a connection it broke is
    closed, as `atomic` closes one, so the next move opens another."""
    conn = db()
    if conn.vendor != "postgresql" or conn.in_atomic_block:
        with transaction.atomic():
            yield RoundTransaction()
        return
    try:
        yield RoundTransaction()
    except DatabaseError:
        if not conn.is_usable():
            conn.close()
        raise
