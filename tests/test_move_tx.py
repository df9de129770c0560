"""A move's read and write (rooms.move_tx) and its statements (rooms.sql),
built from the models. A move that stops before its write, or whose write
fails, changes nothing, publishes nothing and leaves the connection
usable; a move whose room changed between its read and its write writes
nothing and is applied again to what the other change left."""

import threading

import pytest
from django.db import DatabaseError, OperationalError, connection, transaction
from django.test.utils import CaptureQueriesContext

from games.errors import Refused
from rooms import actions, race, sql
from rooms.models import Event, Racer, Room, Round
from tests.room_helpers import (
    RoomClock,
    apply_events,
    fresh_state,
    person,
    solution,
    spy_reads,
)
from tests.services import terminate_backend
from tests.test_run_timers import in_thread

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sent(monkeypatch) -> list:
    """What is published, by room code."""
    published = []
    monkeypatch.setattr(
        "rooms.publish._send",
        lambda rooms: published.extend(events for _, events in rooms),
    )
    return published


def dealt(monkeypatch, mode: str) -> tuple:
    """Ann and Bob in a round of `mode` on a small pile, the boards built."""
    clock = RoomClock(monkeypatch)
    ann, bob = person("Ann"), person("Bob")
    room = actions.create_room(ann, "Ann")
    actions.join_room(room.code, bob, "Bob")
    actions.start_game(room.code, ann)
    actions.deal_round(room.code, ann, mode, "small", 0)
    clock.advance(2000)
    return Room.objects.get(pk=room.pk), ann, bob, clock


@pytest.fixture
def racing(monkeypatch):
    """Ann and Bob racing on a small pile, both boards built."""
    return dealt(monkeypatch, "race")


def saved(room: Room) -> tuple:
    """Everything a move writes: the room's version and wake-up, its
    events, the round's clock and each racer's row."""
    room = Room.objects.get(pk=room.pk)
    rnd = room.current_round
    racers = rnd.racers.order_by("seat").values_list(
        "seat", "status", "steps", "penalty_ms", "matches", "bot_at_ms"
    )
    return (
        room.version,
        room.wake_at,
        Event.objects.filter(room=room).count(),
        (rnd.status, rnd.banked_ms, rnd.running_since, rnd.paused),
        list(racers),
    )


def assert_usable() -> None:
    """The connection is out of any transaction, as Django believes, and
    answers."""
    assert connection.get_autocommit() and not connection.in_atomic_block
    if connection.vendor == "postgresql":
        status = connection.connection.info.transaction_status
        assert status == status.IDLE
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_a_refused_pair_changes_nothing_and_the_next_pair_is_taken(racing, sent):
    room, ann, _, clock = racing
    before = saved(room)
    first = solution(room)[0]
    with pytest.raises(Refused):
        actions.take_pair(room.code, ann, first[0], first[0], 0)
    assert saved(room) == before
    assert sent == []
    assert_usable()
    actions.take_pair(room.code, ann, *first, 0)
    assert saved(room)[4][0][4] == 1  # Ann's matches
    assert [e["kind"] for e in sent[0]] == ["race"]


def test_an_error_after_the_read_writes_and_publishes_nothing(
    racing, sent, monkeypatch
):
    room, ann, _, _ = racing
    before = saved(room)

    def broken(*args):
        raise RuntimeError("between the read and the writes")

    monkeypatch.setattr(race, "take", broken)
    with pytest.raises(RuntimeError):
        actions.take_pair(room.code, ann, *solution(room)[0], 0)
    assert saved(room) == before
    assert sent == []
    assert_usable()
    # No lock is left behind: another transaction takes the room's.
    with transaction.atomic():
        locked = Room.objects.select_for_update(nowait=True).get(pk=room.pk)
    assert locked.version == before[0]


def test_a_write_that_fails_leaves_nothing_half_written(racing, sent, monkeypatch):
    """The racer's row is written before the statement that fails, in the
    same text, which PostgreSQL runs as one transaction: none of it
    stays."""
    room, ann, _, _ = racing
    before = saved(room)
    event_writes = sql.event_writes

    def failing(*args, **kwargs):
        return [*event_writes(*args, **kwargs), ("UPDATE no_such_table SET x = 1", [])]

    monkeypatch.setattr(sql, "event_writes", failing)
    with pytest.raises(DatabaseError):
        actions.take_pair(room.code, ann, *solution(room)[0], 0)
    assert saved(room) == before
    assert sent == []
    assert_usable()
    monkeypatch.setattr(sql, "event_writes", event_writes)
    actions.take_pair(room.code, ann, *solution(room)[0], 0)
    assert saved(room)[4][0][4] == 1


def test_a_connection_lost_before_a_pair_fails_that_pair_only(racing, sent):
    """As when PostgreSQL restarted since the connection's last use: the
    pair fails with Django's error (rooms.consumers answers it), the
    connection is dropped, and the next pair opens a new one."""
    if connection.vendor != "postgresql":
        pytest.skip("ends a PostgreSQL backend")
    room, ann, _, _ = racing
    before = saved(room)
    first = solution(room)[0]
    pid = connection.connection.info.backend_pid

    terminate_backend(pid)
    with pytest.raises(OperationalError):
        actions.take_pair(room.code, ann, *first, 0)
    assert sent == []
    assert saved(room) == before
    actions.take_pair(room.code, ann, *first, 0)
    assert saved(room)[4][0][4] == 1


def test_a_pair_whose_room_changed_after_its_read_is_taken_on_the_new_state(
    racing, sent, monkeypatch
):
    """Bob's pair lands while Ann's is being worked out from what she read:
    her write finds the room changed and writes nothing, and her pair is
    read and taken again after Bob's. Versions follow on, and the events
    replay to what a fresh client sees."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite takes a move's transaction whole: Bob's would wait")
    room, ann, bob, _ = racing
    before = fresh_state(room.code)
    take = race.take
    held, release = threading.Event(), threading.Event()
    calls = []

    def holding_take(state, seat, *args):
        calls.append(seat)
        if not held.is_set():
            held.set()  # Ann's first try waits between its read and write
            assert release.wait(10), "never released"
        return take(state, seat, *args)

    monkeypatch.setattr(race, "take", holding_take)
    pair = solution(room)[0]
    first = in_thread(actions.take_pair, room.code, ann, *pair, 0)
    assert held.wait(10)
    actions.take_pair(room.code, bob, *pair, 0)
    release.set()
    first.join()
    assert calls == [0, 1, 0]  # Ann's pair was worked out twice
    events = [e.as_message() for e in Event.objects.filter(room=room)]
    after = fresh_state(room.code)
    assert apply_events(before, events) == after
    assert [r["matches"] for r in after["round"]["racers"]] == [1, 1]
    published = [e["v"] for batch in sent for e in batch]
    assert published == [before["version"] + 1, before["version"] + 2]


def test_a_pair_is_one_read_and_one_write_with_no_transaction_of_its_own(racing):
    """Two round trips: no BEGIN, SAVEPOINT or COMMIT; on PostgreSQL the
    write is one statement (the room's check, the racer's row, the
    event)."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs a move in a transaction it takes whole")
    room, ann, bob, _ = racing
    pair = solution(room)[0]
    actions.take_pair(room.code, bob, *pair, 0)  # the deal's part is kept
    with CaptureQueriesContext(connection) as move:
        actions.take_pair(room.code, ann, *pair, 0)
    said = [q["sql"].split()[0].upper() for q in move.captured_queries]
    assert said == ["SELECT", "WITH"]
    write = move.captured_queries[1]["sql"]
    assert write.count("UPDATE rooms_racer") == write.count("INSERT INTO") == 1


def test_inside_an_outer_transaction_a_refused_pair_leaves_it_usable(racing, sent):
    """Within an `atomic` block (as the other tests run) the move is a
    savepoint: refused, it is undone and the block goes on; taken, it is
    published when the block commits."""
    room, ann, _, _ = racing
    before = saved(room)
    first = solution(room)[0]
    with transaction.atomic():
        with pytest.raises(Refused):
            actions.take_pair(room.code, ann, first[0], first[0], 0)
        assert saved(room) == before
        actions.take_pair(room.code, ann, *first, 0)
        assert sent == []
    assert [e["kind"] for e in sent[0]] == ["race"]
    assert saved(room)[4][0][4] == 1
    assert_usable()


def prepared_statements() -> int:
    """The move's read prepared on this connection."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
            ['%WHERE r."code" = $_ AND%'],
        )
        return cursor.fetchone()[0]


def test_the_read_is_prepared_after_a_few_moves(racing):
    """PostgreSQL parses and plans them once per connection (psycopg's
    prepared statements, which Django leaves off unless told); a Together
    move runs the same statements and keeps them (a rollback through
    psycopg would drop them)."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's prepared statements")
    room, ann, _, clock = racing
    for move, pair in enumerate(solution(room)[:6]):
        clock.advance(1000)
        actions.take_pair(room.code, ann, *pair, move)
    assert prepared_statements() == 1
    together = actions.create_room(ann, "Ann")
    actions.start_game(together.code, ann)
    actions.deal_round(together.code, ann, "together", "small", 0)
    actions.pause(together.code, ann)
    assert Room.objects.get(pk=together.pk).current_round.paused
    assert prepared_statements() == 1


def columns(model) -> set[str]:
    return {f.column for f in model._meta.concrete_fields}


def test_a_move_reads_and_writes_every_column_the_models_have(racing):
    """Adding a field to Racer or Round takes a model field and a
    migration: a deal's and a move's statements are built from the models,
    so they name each column (a racer's row is added whole, and read whole
    with the round's)."""
    room, ann, _, clock = racing
    other = actions.create_room(ann, "Ann")
    actions.start_game(other.code, ann)
    with CaptureQueriesContext(connection) as deal:
        actions.deal_round(other.code, ann, "race", "small", 0)
    insert = next(q["sql"] for q in deal if "INSERT INTO rooms_racer" in q["sql"])
    insert = insert[insert.index("INSERT INTO rooms_racer") :]
    added = insert.split("(", 1)[1].split(")", 1)[0]
    assert {name.strip(' "') for name in added.split(",")} == columns(Racer) - {"id"}
    clock.advance(1000)
    with CaptureQueriesContext(connection) as move:
        actions.take_pair(room.code, ann, *solution(room)[0], 0)
    read = next(q["sql"] for q in move if "JOIN rooms_racer" in q["sql"])
    named = {f"rc.{c}" for c in columns(Racer)}
    named |= {f"rd.{c}" for c in columns(Round)} - {
        "rd.layout_slug",
        "rd.layout_name",
        "rd.positions",
        "rd.faces",
        "rd.witness",
    }
    assert {name for name in named if name not in read.replace('"', "")} == set()


def test_a_move_reads_whole_only_the_racers_this_process_has_not_kept(
    racing, monkeypatch
):
    """PostgreSQL leaves out the JSON of a racer whose state this process
    keeps under the row's revision. Bob's pair taken by another process
    (here: his state kept from before it) is read whole, and Ann's move
    plays on from it: what the process then holds is what a fresh read
    decodes."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite reads every column")
    room, ann, bob, clock = racing
    pairs = solution(room)
    actions.take_pair(room.code, ann, *pairs[0], 0)
    rnd = Room.objects.get(pk=room.pk).current_round
    bob_key = (rnd.pk, rnd.seed, 1)
    before_bob = sql._kept[bob_key]
    clock.advance(1000)
    actions.take_pair(room.code, bob, *pairs[0], 0)
    sql._kept[bob_key] = before_bob  # as if another process took it
    read = spy_reads(monkeypatch)
    clock.advance(1000)
    actions.take_pair(room.code, ann, *pairs[1], 1)
    racer = sql._reads().racer
    at = -len(racer)
    left_out = {
        row[at + racer.at("seat")]: row[at + racer.at("faces")] is None for row in read
    }
    assert left_out == {0: True, 1: False}  # Ann's kept, Bob's not
    kept = sql.load_play(rnd.pk)
    sql._kept.clear()
    assert kept == sql.load_play(rnd.pk)
    assert [r.matches for r in kept.state.racers] == [2, 1]


def test_a_together_move_leaves_out_the_shared_state_it_keeps(monkeypatch):
    """Together's state is the round's own JSON: left out of the read when
    this process keeps it under the round's revision (it wrote the last
    move), read whole when another process's move changed it since."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite reads every column")
    room, ann, bob, clock = dealt(monkeypatch, "together")
    pairs = solution(room)
    actions.take_pair(room.code, ann, *pairs[0], 0)
    read = spy_reads(monkeypatch)
    clock.advance(1000)
    actions.take_pair(room.code, bob, *pairs[1], 1)
    rnd = sql._reads().round
    at = len(sql._reads().room) + len(sql._reads().member) + rnd.at("together")
    assert read[0][at] is None
    sql._kept.clear()  # as if Bob's move was another process's
    read.clear()
    clock.advance(1000)
    actions.take_pair(room.code, ann, *pairs[2], 2)
    assert read[0][at] is not None
    round_id = Room.objects.get(pk=room.pk).current_round_id
    kept = sql.load_play(round_id)
    sql._kept.clear()
    assert kept == sql.load_play(round_id)
