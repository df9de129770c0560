"""The timer process applies due bots' moves and time limits, and leaves
rooms alone until something is due."""

import threading
import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rooms import actions, race, sql, timers
from rooms.management.commands import run_timers
from rooms.models import Event, Room
from tests.room_helpers import (
    RoomClock,
    apply_events,
    fresh_state,
    person,
    solution,
    spy_reads,
)

pytestmark = pytest.mark.django_db(transaction=True)


def bot_race(clock) -> Room:
    ann = person("Ann")
    room = actions.create_room(ann, "Ann")
    actions.add_bot(room.code, ann, "hard")
    actions.start_game(room.code, ann)
    actions.deal_round(room.code, ann, "race", "small", 5)
    return Room.objects.get(pk=room.pk)


def test_a_look_leaves_out_the_json_of_the_rooms_it_wrote(monkeypatch):
    """A look finds its due rooms in its own read, so it cannot name them
    beforehand: it leaves out the racers' JSON it keeps for the rooms it
    last wrote due by now, and so reads none of it again when nobody else
    moved there since."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite reads every column")
    clock = RoomClock(monkeypatch)
    rooms = [bot_race(clock) for _ in range(2)]
    clock.now = max(room.wake_at for room in rooms)
    assert run_timers._batch(0, 1, run_timers.BATCH) == 2
    read = spy_reads(monkeypatch)
    clock.now = max(
        Room.objects.filter(pk__in=[r.pk for r in rooms]).values_list(
            "wake_at", flat=True
        )
    )
    assert run_timers._batch(0, 1, run_timers.BATCH) == 2
    assert [bot_matches(room) for room in rooms] == [2, 2]
    racer = sql._reads().racer
    faces = [row[-len(racer) + racer.at("faces")] for row in read]
    assert len(faces) == 4  # two racers a room
    assert all(f is None for f in faces)


def bot_matches(room: Room) -> int:
    return Room.objects.get(pk=room.pk).current_round.racers.get(seat=1).matches


def test_it_moves_a_bot_whose_time_has_come(monkeypatch):
    clock = RoomClock(monkeypatch)
    room = bot_race(clock)
    clock.now = room.wake_at
    call_command("run_timers", "--once")
    assert bot_matches(room) == 1
    assert Room.objects.get(pk=room.pk).wake_at > clock.now


def test_it_leaves_a_room_alone_before_anything_is_due(monkeypatch):
    clock = RoomClock(monkeypatch)
    room = bot_race(clock)
    call_command("run_timers", "--once")
    assert bot_matches(room) == 0


def test_it_ends_the_race_when_the_time_limit_runs_out(monkeypatch):
    clock = RoomClock(monkeypatch)
    room = bot_race(clock)
    clock.to_race_ms(room, 5 * 60_000)
    call_command("run_timers", "--once")
    rnd = Room.objects.get(pk=room.pk).current_round
    assert rnd.status == "over"


class Holding:
    """The first call of race.run_due holds the room's lock until released:
    `held` says it has the lock, `release` lets it commit. Later calls run
    at once."""

    def __init__(self, monkeypatch) -> None:
        self.held = threading.Event()
        self.release = threading.Event()
        run_due = race.run_due

        def holding_run_due(state, now):
            if not self.held.is_set():
                self.held.set()
                assert self.release.wait(10), "never released"
            return run_due(state, now)

        monkeypatch.setattr(race, "run_due", holding_run_due)


def wait_until_blocked(thread: threading.Thread) -> None:
    """Return once `thread` waits for the room's lock (or has finished).
    PostgreSQL shows the waiting lock; SQLite waits inside BEGIN, which
    nothing shows, so there the thread gets a moment to get there (one
    arriving later still waits for the commit)."""
    if connection.vendor != "postgresql":
        thread.join(0.2)
        return
    with connection.cursor() as cursor:
        for _ in range(1000):
            cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
            if cursor.fetchone()[0] or not thread.is_alive():
                return
            time.sleep(0.01)
    raise AssertionError("the thread never waited for the lock")


def in_thread(fn, *args) -> threading.Thread:
    def run():
        try:
            fn(*args)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_two_timers_at_once_apply_a_due_move_once(monkeypatch):
    """The second timer skips the room the first holds (PostgreSQL), or
    waits for it and then finds nothing due (SQLite)."""
    clock = RoomClock(monkeypatch)
    room = bot_race(clock)
    clock.now = room.wake_at
    holding = Holding(monkeypatch)
    results = []

    def timer():
        results.append(actions.apply_due_timers(room.pk))

    first = in_thread(timer)
    assert holding.held.wait(10)
    second = in_thread(timer)
    wait_until_blocked(second)  # on PostgreSQL it skips: done at once
    holding.release.set()
    for t in (first, second):
        t.join()
    assert sorted(results) == [False, True]
    assert bot_matches(room) == 1


def test_a_pair_that_waits_for_the_timer_plays_on_from_the_bots_move(monkeypatch):
    """A move waits for the room the timer holds, then reads the racers as
    the bot's move left them: its event carries both moves, and replaying
    the events gives the state a fresh client sees."""
    clock = RoomClock(monkeypatch)
    room = bot_race(clock)
    before = fresh_state(room.code)
    clock.now = room.wake_at
    holding = Holding(monkeypatch)
    timer = in_thread(actions.apply_due_timers, room.pk)
    assert holding.held.wait(10)
    pair = in_thread(actions.take_pair, room.code, room.host, *solution(room)[0], 0)
    wait_until_blocked(pair)
    holding.release.set()
    for t in (timer, pair):
        t.join()
    events = Event.objects.filter(room=room).order_by("version")
    after = fresh_state(room.code)
    assert apply_events(before, [e.as_message() for e in events]) == after
    assert [r["matches"] for r in after["round"]["racers"]] == [1, 1]


def test_one_look_moves_the_bots_of_every_due_room_in_one_write(monkeypatch):
    """A busy timer's batch: every due room's bot moves with one read of
    them all and one pipeline of writes, each room's checked on its own (a
    round trip a room cost a bot's move most of its CPU), and each room's
    event is numbered and stored on its own."""
    clock = RoomClock(monkeypatch)
    rooms = [bot_race(clock) for _ in range(4)]
    clock.now = max(room.wake_at for room in rooms)
    with CaptureQueriesContext(connection) as queries:
        assert actions.apply_due([room.pk for room in rooms]) == 4
    if connection.vendor == "postgresql":  # SQLite writes a room at a time
        sent = [q["sql"] for q in queries.captured_queries]
        reads = [sql for sql in sent if sql.startswith("SELECT r.")]
        writes = [sql for sql in sent if sql.startswith("WITH")]
        assert (len(reads), len(writes)) == (1, 4)  # the writes pipelined
        assert [write.count("UPDATE rooms_room") for write in writes] == [1] * 4
        assert not [sql for sql in sent if sql.split()[0] in ("BEGIN", "COMMIT")]
    for room in rooms:
        assert bot_matches(room) == 1
        kinds = Event.objects.filter(room=room).order_by("version")
        assert kinds.last().kind == "race"


def test_a_look_finds_its_due_rooms_with_their_read(monkeypatch):
    """A look that finds rooms due is one read, which finds them and reads
    what is in play in them, and its writes: no query of its own for which
    rooms are due (a round trip a look)."""
    clock = RoomClock(monkeypatch)
    rooms = [bot_race(clock) for _ in range(3)]
    idle = bot_race(clock)  # its bot not due yet
    clock.now = max(room.wake_at for room in rooms)
    Room.objects.filter(pk=idle.pk).update(wake_at=clock.now + timedelta(seconds=1))
    with CaptureQueriesContext(connection) as queries:
        assert run_timers._batch(0, 1, run_timers.BATCH) == 3
    # Leaving out each deal's first read in this process (sql._dealt).
    sent = [
        q["sql"].split()[:2]
        for q in queries.captured_queries
        if not q["sql"].startswith('SELECT "rooms_round"')
    ]
    if connection.vendor == "postgresql":
        # The writes: one statement a room, in one pipeline (rooms.move_tx).
        assert sent == [["SELECT", 'r."id",'], *[["WITH", "checked"]] * 3]
    else:  # SQLite writes a room at a time, after the same one read
        assert [q for q in sent if q[0] == "SELECT"][0] == ["SELECT", 'r."id",']
    assert [bot_matches(room) for room in (*rooms, idle)] == [1, 1, 1, 0]


def test_a_room_that_breaks_stops_no_other_room(monkeypatch):
    """Its batch is rolled back and tried again room by room: the other
    rooms' bots move on that same look, and their events go out."""
    clock = RoomClock(monkeypatch)
    rooms = [bot_race(clock) for _ in range(3)]
    broken = Room.objects.get(pk=rooms[1].pk).current_round.seed
    run_due = race.run_due

    def breaking(state, now):
        if state.seed == broken:
            raise RuntimeError("a bug in one room")
        return run_due(state, now)

    monkeypatch.setattr(race, "run_due", breaking)
    sent = []
    monkeypatch.setattr("rooms.publish._send", lambda news: sent.extend(news))
    clock.now = max(room.wake_at for room in rooms)
    assert run_timers._batch(0, 1, run_timers.BATCH) == 3
    assert [bot_matches(room) for room in rooms] == [1, 0, 1]
    assert sorted(code for code, _ in sent) == sorted((rooms[0].code, rooms[2].code))


def test_a_look_takes_every_due_room_in_one_batch(monkeypatch):
    """The timer's one thread sees every due room in a look, so they come
    in as few transactions as the batch size allows."""
    clock = RoomClock(monkeypatch)
    rooms = [bot_race(clock) for _ in range(4)]
    clock.now = max(room.wake_at for room in rooms)
    batches = []
    apply_due = timers._apply_due

    def counted(read):
        done = apply_due(read)
        batches.append(done[1])  # the rooms its one read found
        return done

    monkeypatch.setattr(timers, "_apply_due", counted)
    call_command("run_timers", "--once")
    assert batches == [4]
    assert [bot_matches(room) for room in rooms] == [1, 1, 1, 1]


class Beats:
    def maybe(self) -> None:
        pass


def test_looks_keep_their_pace_when_a_look_takes_time(monkeypatch):
    """The wait after a look is what is left of the interval: a look that
    took most of it is followed by the next one an interval after it began,
    not a whole interval after it ended (a busy timer would be later by a
    look's work on every look)."""
    began = []
    stopping = threading.Event()

    def slow_look(part, parts, batch):
        began.append(time.monotonic())
        if len(began) == 4:
            stopping.set()
        time.sleep(0.15)
        return 0

    monkeypatch.setattr(run_timers, "_batch", slow_look)
    run_timers._serve(0, 1, 0.2, run_timers.BATCH, False, stopping, Beats())
    gaps = [b - a for a, b in zip(began, began[1:], strict=False)]
    assert len(gaps) == 3
    assert max(gaps) < 0.3  # 0.35 when each wait was the whole interval
