"""PostgreSQL storage options for the rows a move rewrites (issue 29).

Every move of a race updates its racer's row. PostgreSQL can update a
row "HOT" (heap-only: no new entry in any of the table's indexes) only
when the new version fits on the old one's page. Left full
(fillfactor 100), a racer's page often had no room for the new version
(84 % of updates HOT), so each of the others added an entry to all three
of the racer's indexes; half of each page left free makes them all HOT.
A room's row is left as it is: its update is HOT only when `wake_at`
(indexed, for the timer's due query) stays, and free space on its pages
moved that share only from 30 % to 31 % of room updates.

A racer's undo log `steps` is stored compressed once long, and a move
rewrites it (`steps || new`): PostgreSQL decompresses and compresses it
again, which lz4 does faster than the default pglz (such an update cost
its backend 0.73-0.76 of the CPU). `faces` keeps pglz: it is written
once a deal, and lz4 would store it a third bigger (925 bytes against
567), fewer rows a page. Values already stored keep their method.

Nothing to do on SQLite, which has neither option.
"""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

# The table a move updates, and the share of each new page filled by
# inserts (the rest kept for the rows' next versions).
FILLFACTOR = {"Racer": 50}
# The JSON column a move rewrites, compressed with lz4 when the server has it.
LZ4 = {"Racer": ("steps",)}


def _table(apps: StateApps, model: str) -> str:
    return apps.get_model("rooms", model)._meta.db_table


def _has_lz4(schema_editor: BaseDatabaseSchemaEditor) -> bool:
    """Whether the server was built with lz4 (it is an option of the
    build): only then is it a choice of `default_toast_compression`."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings"
            " WHERE name = 'default_toast_compression'"
        )
        row = cursor.fetchone()
    return bool(row and row[0])


def _set(
    apps: StateApps, schema_editor: BaseDatabaseSchemaEditor, forward: bool
) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    q = schema_editor.quote_name
    for model, percent in FILLFACTOR.items():
        option = f"SET (fillfactor = {percent})" if forward else "RESET (fillfactor)"
        schema_editor.execute(f"ALTER TABLE {q(_table(apps, model))} {option}")
    if not _has_lz4(schema_editor):
        return
    method = "lz4" if forward else "DEFAULT"
    for model, names in LZ4.items():
        fields = apps.get_model("rooms", model)._meta
        columns = ", ".join(
            f"ALTER COLUMN {q(fields.get_field(name).column)} SET COMPRESSION {method}"
            for name in names
        )
        schema_editor.execute(f"ALTER TABLE {q(_table(apps, model))} {columns}")


def forward(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _set(apps, schema_editor, forward=True)


def backward(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _set(apps, schema_editor, forward=False)


class Migration(migrations.Migration):
    dependencies = [
        ("rooms", "0007_room_revision"),
    ]

    operations = [
        migrations.RunPython(forward, backward, elidable=False),
    ]
