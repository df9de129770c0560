"""How a move's statements reach the database: in two round trips on
PostgreSQL.

A move locks its room, reads the round's rows, works out the new state and
writes it. Inside Django's `atomic` that is five round trips (BEGIN, the
lock, the read, the writes, COMMIT): psycopg sends the BEGIN it owes an
`atomic` block on its own and waits for it, even in pipeline mode. Each
round trip waits for PostgreSQL's process to get a core, which on a busy
machine is most of what a move waits for. So on PostgreSQL `move()` begins
the transaction itself:

- `Move.read` sends BEGIN, the lock and the read in one pipeline, ending
  in one sync. The read is a statement of its own, run after the lock was
  granted, so in READ COMMITTED it sees what the last holder committed.
  The lock and the read are bound on the server and prepared (`prepared`).
- `Move.finish` sends the writes and COMMIT as one text.

Between the two, Django believes the connection is in autocommit (it is,
on psycopg's side: psycopg sends no BEGIN of its own). So nothing in that
stretch may use `transaction.atomic` (psycopg refuses to change autocommit
with a transaction open, so that fails loudly rather than committing) or
`on_commit` (it would run at once): the caller publishes after `move()`
has ended, and then `on_commit` runs at once, after COMMIT. Within an
outer `atomic` block (tests) the move is a savepoint instead, and
publishing waits for the outer commit, as `on_commit` does. Whatever
stops a move before its COMMIT (a refused move, an error) rolls it back
and leaves the connection usable; a connection that cannot even roll back
is closed, as `atomic` does. A move that ends early with nothing to write
commits its reads.

Other databases (SQLite), and a connection in manual transaction mode,
run the same statements one by one inside `atomic`.
"""

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from django.db import DatabaseError, connection, transaction
from django.db.backends.utils import CursorWrapper
from psycopg import ClientCursor, Cursor

Statement = tuple[str, Sequence]

_SAVEPOINT = "rooms_move"


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


class Move:
    """A move's transaction, begun by `move()`: one `read`, then `finish`
    to commit (leaving without it rolls back). This one runs inside
    `atomic`, each statement on its own."""

    def read(self, lock: Statement, read: Statement) -> tuple[list, list]:
        """Run `lock` and then `read`: the rows of each."""
        with prepared() as cursor:
            cursor.execute(*lock)
            locked = cursor.fetchall()
            cursor.execute(*read)
            return locked, cursor.fetchall()

    def finish(self, writes: Sequence[Statement]) -> None:
        """Run `writes` and commit (on leaving `move()` here)."""
        with connection.cursor() as cursor:
            execute_all(cursor, writes)


class _Pipelined(Move):
    """On PostgreSQL, as the module says: a transaction of our own when
    Django is in autocommit, else a savepoint in the transaction open."""

    def __init__(self) -> None:
        self.outermost = connection.get_autocommit()
        self.open = False  # begun by `read`, not yet ended by `finish`

    def read(self, lock: Statement, read: Statement) -> tuple[list, list]:
        begin = "BEGIN" if self.outermost else f"SAVEPOINT {_SAVEPOINT}"
        conn = connection.connection
        errors = connection.wrap_database_errors  # psycopg's, as Django's
        with errors, prepared() as locking, prepared() as reading:
            self.open = True
            # The pipeline's end sends the sync; errors surface there.
            with conn.pipeline():
                conn.execute(begin)
                locking.execute(*lock)
                reading.execute(*read)
            return locking.fetchall(), reading.fetchall()

    def finish(self, writes: Sequence[Statement]) -> None:
        end = "COMMIT" if self.outermost else f"RELEASE SAVEPOINT {_SAVEPOINT}"
        with connection.cursor() as cursor:
            execute_all(cursor, [*writes, (end, [])])
        self.open = False

    def rollback(self) -> None:
        conn = connection.connection
        if conn is None:  # closed after an error: nothing left open
            return
        try:
            with connection.wrap_database_errors:
                if self.outermost:
                    # psycopg's own: it also forgets the statements it
                    # prepared, as after any rollback.
                    conn.rollback()
                else:
                    conn.execute(f"ROLLBACK TO SAVEPOINT {_SAVEPOINT}")
                    conn.execute(f"RELEASE SAVEPOINT {_SAVEPOINT}")
        except DatabaseError:
            # The connection is broken: drop it, as `atomic` does; or,
            # inside an outer block, leave that block to roll back.
            if self.outermost:
                connection.close()
            else:
                transaction.set_rollback(True)
        self.open = False


@contextmanager
def move() -> Iterator[Move]:
    """A move's transaction; the caller publishes what it saved after this
    block ends without an error (then it is committed)."""
    pipelined = connection.vendor == "postgresql" and (
        connection.get_autocommit() or connection.in_atomic_block
    )
    if not pipelined:
        with transaction.atomic():
            yield Move()
        return
    tx = _Pipelined()
    try:
        yield tx
        if tx.open:
            # Left early (a Together round, a room not due): nothing was
            # written, and COMMIT ends it without psycopg forgetting its
            # prepared statements, as any rollback through it does.
            tx.finish(())
    except BaseException:
        if tx.open:
            tx.rollback()
        raise
