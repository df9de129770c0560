"""The storage options of the rows a move rewrites (migration
rooms/0008_move_storage): in place on PostgreSQL, and the migration
reverses and applies again on either database (on SQLite it does
nothing)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from rooms.models import Racer, Room

pytestmark = pytest.mark.django_db(transaction=True)

STORAGE = ("rooms", "0008_move_storage")


def _options() -> dict[str, object]:
    """The tables' fillfactor and the compression of the racer's JSON
    columns ('l' for lz4, '' for the default), as PostgreSQL has them:
    only the undo log, which a move rewrites, is lz4."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, reloptions FROM pg_class WHERE relname = ANY(%s)",
            [[Room._meta.db_table, Racer._meta.db_table]],
        )
        options: dict[str, object] = dict(cursor.fetchall())
        cursor.execute(
            "SELECT attname, attcompression FROM pg_attribute"
            " WHERE attrelid = %s::regclass AND attname = ANY(%s)",
            [Racer._meta.db_table, ["faces", "steps"]],
        )
        options.update(cursor.fetchall())
    return options


def _has_lz4() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings"
            " WHERE name = 'default_toast_compression'"
        )
        return cursor.fetchone()[0]


def _migrate(targets: list[tuple[str, str]]) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)


def test_reverses_and_applies_again() -> None:
    before = MigrationExecutor(connection).loader.graph
    leaves = before.leaf_nodes()
    _migrate([("rooms", "0007_room_revision")])
    if connection.vendor == "postgresql":
        assert _options() == {
            "rooms_room": None,
            "rooms_racer": None,
            "faces": "",
            "steps": "",
        }
    _migrate(leaves)
    assert STORAGE in MigrationExecutor(connection).loader.applied_migrations
    if connection.vendor == "postgresql":
        lz4 = "l" if _has_lz4() else ""
        assert _options() == {
            "rooms_room": None,
            "rooms_racer": ["fillfactor=50"],
            "faces": "",
            "steps": lz4,
        }
