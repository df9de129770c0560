"""Many changes of one room at once (rooms.move_tx: a move reads without a
lock and writes only if nothing changed the room since): every pair
lands once, on the state the changes before it left, and the events,
numbered without a gap, replay to what a fresh client sees."""

import threading

import pytest
from django.db import connection

from rooms import actions
from rooms.models import Event, Room
from tests.room_helpers import RoomClock, apply_events, fresh_state, person, solution

pytestmark = pytest.mark.django_db(transaction=True)

PAIRS = 8


@pytest.fixture
def sent(monkeypatch) -> list:
    """The versions published, in the order they were handed over."""
    published = []
    lock = threading.Lock()

    def send(rooms):
        with lock:
            published.extend(e["v"] for _, events in rooms for e in events)

    monkeypatch.setattr("rooms.publish._send", send)
    return published


def test_three_players_and_the_timer_at_once_lose_no_pair(monkeypatch, sent):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite takes each move's transaction whole: no race")
    clock = RoomClock(monkeypatch)
    people = [person(name) for name in ("Ann", "Bob", "Cy")]
    room = actions.create_room(people[0], "Ann")
    for someone in people[1:]:
        actions.join_room(room.code, someone, someone.display_name)
    actions.add_bot(room.code, people[0], "hard")
    actions.start_game(room.code, people[0])
    actions.deal_round(room.code, people[0], "race", "small", 0)
    clock.advance(2000)
    room = Room.objects.get(pk=room.pk)
    before = fresh_state(room.code)
    sent.clear()  # the seats' and the deal's
    pairs = solution(room)[:PAIRS]
    start = threading.Barrier(len(people) + 1)
    players_done = threading.Event()
    errors: list[BaseException] = []

    def play(player) -> None:
        try:
            start.wait()
            for move, pair in enumerate(pairs):
                actions.take_pair(room.code, player, *pair, move)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    def timer() -> None:
        try:
            start.wait()
            while not players_done.is_set():
                clock.advance(50)  # the bot's moves come due as time goes
                actions.apply_due_timers(room.pk)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=play, args=(p,)) for p in people]
    ticking = threading.Thread(target=timer)
    for thread in [*threads, ticking]:
        thread.start()
    for thread in threads:
        thread.join(60)
    players_done.set()
    ticking.join(60)
    assert errors == []
    after = fresh_state(room.code)
    racers = {r["seat"]: r["matches"] for r in after["round"]["racers"]}
    assert [racers[seat] for seat in (0, 1, 2)] == [PAIRS] * 3
    assert racers[3] > 0  # the bot moved in between
    versions = list(
        Event.objects.filter(room=room)
        .order_by("version")
        .values_list("version", flat=True)
    )
    new = [v for v in versions if v > before["version"]]
    assert new == list(range(before["version"] + 1, after["version"] + 1))
    assert sorted(sent) == new  # each published once, only what was written
    events = Event.objects.filter(room=room).order_by("version")
    assert apply_events(before, [e.as_message() for e in events]) == after
