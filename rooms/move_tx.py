"""A move's transaction: Django's `atomic`, with the lock and the read of
the move sent together.

A move locks its room, reads the round's rows, works out the new state and
writes it, in one `transaction.atomic` block; what it saved is published
with `on_commit`. On PostgreSQL the block takes four round trips: the
BEGIN psycopg sends for it (and waits for), the lock and the read sent
together in one psycopg pipeline (`RoundTransaction.read`), the writes in
one text (`execute_all`), and COMMIT. The read is a statement of its own,
run after the lock was granted, so in READ COMMITTED it sees what the last
holder committed. The lock and the read are bound on the server and
prepared (`prepared`). Within an outer `atomic` block (tests) the move is
a savepoint, as any `atomic` block is.
"""

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from django.db import connection, transaction
from django.db.backends.utils import CursorWrapper
from psycopg import ClientCursor, Cursor

Statement = tuple[str, Sequence]


def prepared() -> CursorWrapper:
    """A cursor for the reads of a move. On PostgreSQL it binds parameters
    on the server, so psycopg prepares each of these fixed statements on
    its connection after a few uses (`prepare_threshold`, sitewide/env.py)
    and PostgreSQL no longer parses and plans them (a third of its CPU a
    move). Django's own cursor binds them on the client, which cannot
    prepare, but sends several statements in one round trip
    (`execute_all`)."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    connection.ensure_connection()
    cursor = Cursor(connection.connection)
    if connection.queries_logged:  # DEBUG, or a test counting queries
        return connection.make_debug_cursor(cursor)
    return connection.make_cursor(cursor)


def execute_all(cursor, statements: Sequence[Statement]) -> None:
    """Run statements that return no rows in one round trip to the database
    where the driver allows it (psycopg binding the parameters itself, as
    Django's PostgreSQL backend has it by default), else one by one."""
    if isinstance(getattr(cursor, "cursor", None), ClientCursor):
        cursor.execute(
            "; ".join(sql for sql, _ in statements),
            [value for _, params in statements for value in params],
        )
        return
    for sql, params in statements:
        cursor.execute(sql, params)


class RoundTransaction:
    """A change to the round in play, begun by `move()`: one `read`, then
    `finish` with the writes; it commits when `move()`'s block ends."""

    def read(self, lock: Statement, read: Statement) -> tuple[list, list]:
        """Run `lock` and then `read`: the rows of each."""
        with prepared() as locking, prepared() as reading:
            if connection.vendor != "postgresql":
                locking.execute(*lock)
                reading.execute(*read)
                return locking.fetchall(), reading.fetchall()
            # psycopg's pipeline sends both and then waits for both answers;
            # errors surface as it ends, as Django's own.
            with connection.wrap_database_errors, connection.connection.pipeline():
                locking.execute(*lock)
                reading.execute(*read)
            return locking.fetchall(), reading.fetchall()

    def finish(self, writes: Sequence[Statement]) -> None:
        """Run `writes` (committed when `move()`'s block ends)."""
        if writes:
            with connection.cursor() as cursor:
                execute_all(cursor, writes)


@contextmanager
def move() -> Iterator[RoundTransaction]:
    """A move's transaction; what it saves is published with `on_commit`."""
    with transaction.atomic():
        yield RoundTransaction()
