"""Where a move skips Django's or psycopg's layers (rooms.sql, rooms.move_tx)
it must come out as those layers would: the values sent, the instances
read, the connection and its socket left as they were."""

import socket
from datetime import UTC, datetime

import pytest
from django.db import DatabaseError, connection, models
from django.db.models.signals import post_init

from rooms import move_tx, sql
from rooms.models import Event, Member, Racer, Room, Round
from tests.test_move_tx import assert_usable, racing, saved, sent  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

MODELS = (Room, Member, Round, Racer, Event)


def samples(field: models.Field) -> list:
    """Values of the kinds `sql._prep` sends as they are, and their near
    misses (a bool where an int goes, a naive datetime) that Django must
    still prepare."""
    if isinstance(field, models.DateTimeField):
        return [datetime(2026, 12, 4, 22, 0, 1, 5, tzinfo=UTC), datetime(2026, 1, 2)]
    if isinstance(field, models.BooleanField):
        return [True, False]
    if isinstance(field, (models.IntegerField, models.ForeignKey)):
        return [0, 7, 2**40]
    return []


@pytest.mark.filterwarnings("ignore:DateTimeField .* received a naive datetime")
def test_every_value_a_move_sends_is_what_django_would_send():
    checked = 0
    for model in MODELS:
        for field in model._meta.concrete_fields:
            for value in samples(field):
                ours = sql._prep(model, field.name, value)
                django = field.get_db_prep_save(value, connection)
                assert (type(ours), ours) == (type(django), django), (field, value)
                checked += 1
    assert checked > 40  # the models' ints, bools and times, not none


def test_a_read_row_is_the_instance_django_would_make(racing):  # noqa: F811
    room, ann, _, _ = racing
    reads = sql._reads()
    with move_tx.move() as tx:
        seen = sql.read_seat(room.code, ann.pk, tx)
    assert seen is not None and seen.member is not None
    for ours, model in ((seen.room, Room), (seen.member, Member)):
        django = model.objects.get(pk=ours.pk)
        columns = reads.room if model is Room else reads.member
        for name in columns.names:
            assert getattr(ours, name) == getattr(django, name), name
        assert (ours._state.adding, ours._state.db) == (False, "default")
    # A field left out of the read is loaded when asked for, as Django's.
    assert seen.room.settings == Room.objects.get(pk=room.pk).settings


def test_a_listener_to_a_models_signals_still_hears_of_each_instance(racing):  # noqa: F811
    room, ann, _, _ = racing
    heard = []

    def hear(sender, instance, **kwargs) -> None:
        heard.append(instance.pk)

    post_init.connect(hear, sender=Room)
    try:
        with move_tx.move() as tx:
            seen = sql.read_seat(room.code, ann.pk, tx)
    finally:
        post_init.disconnect(hear, sender=Room)
    assert seen is not None and heard == [room.pk]


def corked() -> int:
    """Whether this thread's connection's socket holds what is sent."""
    sock = socket.socket(fileno=connection.connection.pgconn.socket)
    try:
        return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_CORK)
    finally:
        sock.detach()


def needs_tcp() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("psycopg's pipeline, on PostgreSQL")
    connection.ensure_connection()
    sock = socket.socket(fileno=connection.connection.pgconn.socket)
    family = sock.family
    sock.detach()
    if family not in (socket.AF_INET, socket.AF_INET6):
        pytest.skip("PostgreSQL over a Unix socket: nothing to cork")


def test_a_batched_write_leaves_the_socket_sending_at_once(racing, sent):  # noqa: F811
    needs_tcp()
    # Corked while the pipeline's statements are queued: they go out as one.
    with move_tx._one_packet(connection.connection):
        assert corked() == 1
    assert move_tx.execute_all([("SELECT 1", []), ("SELECT 2", [])]) == [1, 1]
    assert corked() == 0
    # A statement that fails in the pipeline: the error is Django's, the
    # socket no longer corked and the connection usable for the next move.
    with pytest.raises(DatabaseError):
        move_tx.execute_all([("SELECT 1", []), ("SELECT 1 / 0", [])])
    assert corked() == 0
    assert_usable()


def test_a_move_after_its_connection_was_closed_gets_cursors_of_the_new_one(
    racing,  # noqa: F811
    sent,  # noqa: F811
):
    room, ann, _, _ = racing
    with move_tx.move() as tx:
        assert sql.read_seat(room.code, ann.pk, tx) is not None
    connection.close()
    before = saved(room)
    with move_tx.move() as tx:
        seen = sql.read_seat(room.code, ann.pk, tx)
    assert seen is not None and seen.room.version == before[0]
    assert_usable()
