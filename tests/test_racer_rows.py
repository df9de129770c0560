"""A racer's row built and read a move at a time (rooms.models
`racer_fields`, rooms.sql `_decoded`): a move's write carries only what
changed from the state the row holds, its new steps appended, and a read
decodes only the text a racer's row gained since the last read. Either
must come to exactly what the whole row, built or decoded afresh, is."""

import json
from dataclasses import replace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rooms import actions, race, sql
from rooms.models import Appended, Racer, Room, racer_fields, step_states
from tests.room_helpers import RoomClock, person, solution

FACES = tuple(f"f{i % 9}" for i in range(16))
SHUFFLED = tuple(reversed(FACES))


def history() -> list[race.Racer]:
    """A racer's states through each kind of change of its row: pairs
    taken, a shuffle (new faces, a penalty), an undo of it, a pair after
    it, back to before the shuffle (the log cut), and an end."""
    racer = race.Racer(seat=2, name="Ann", faces=FACES, bot="hard", bot_at_ms=900)
    states = [racer]

    def then(**changes) -> None:
        states.append(replace(states[-1], **changes))

    for n in range(3):
        then(steps=(*states[-1].steps, race.taken(1000 * n, (2 * n, 2 * n + 1))))
    then(
        faces=SHUFFLED,
        steps=(*states[-1].steps, race.shuffled(3500, FACES)),
        penalty_ms=60_000,
        shuffles=1,
    )
    then(faces=FACES, steps=states[-1].steps[:-1])
    then(faces=SHUFFLED, steps=(*states[-2].steps, race.shuffled(3600, FACES)))
    then(steps=(*states[-1].steps, race.taken(4000, (6, 7))), bot_at_ms=5000)
    then(steps=states[-1].steps[:2], faces=FACES)
    then(status=race.STOPPED, end_ms=9000, bot_at_ms=None)
    return states


def written(row: dict, change: dict) -> dict:
    """A row once `change` (`racer_fields` since its state) is written."""
    row = dict(row)
    for name, value in change.items():
        row[name] = row[name] + value if isinstance(value, Appended) else value
    return row


@pytest.mark.parametrize("grow", [True, False])
def test_a_row_built_move_by_move_is_the_row_built_whole(grow):
    states = history()
    row = racer_fields(states[0])
    for before, after in zip(states, states[1:], strict=False):
        change = racer_fields(after, since=before, grow=grow)
        assert set(change) == {
            name for name, value in racer_fields(after).items() if row[name] != value
        }
        row = written(row, change)
        assert row == racer_fields(after)
        assert json.dumps(row) == json.dumps(racer_fields(after))


def test_only_a_log_that_grew_on_a_non_empty_one_is_appended():
    states = history()
    appended = [
        isinstance(racer_fields(after, since=before, grow=True).get("steps"), Appended)
        for before, after in zip(states, states[1:], strict=False)
    ]
    # The first pair is written whole (the log was empty), as are the
    # undo and the cut; the pairs and shuffles after the first grow it.
    assert appended == [False, True, True, True, False, True, True, False, False]


def decoded_afresh(faces: str, steps: str) -> tuple:
    return tuple(json.loads(faces)), step_states(json.loads(steps))


def texts(state: race.Racer, compact: bool = False) -> tuple[str, str]:
    row = racer_fields(state)
    separators = (",", ":") if compact else None
    return (
        json.dumps(row["faces"], separators=separators),
        json.dumps(row["steps"], separators=separators),
    )


@pytest.mark.parametrize("compact", [False, True])
def test_a_racer_read_again_decodes_to_what_its_whole_text_does(compact):
    key = ("test", "seed", 2)
    states = history()
    # Each state after each other, the history in order and out of it (a
    # read may miss any number of moves, or see an older row's text).
    orders = [states, states[::-1], states[::2] + states[1::2]]
    for order in orders:
        for state in order:
            faces, steps = texts(state, compact)
            got = sql._decoded(key, faces, steps)
            assert got == decoded_afresh(faces, steps)
            assert got == (state.faces, state.steps)
    sql._texts.pop(key, None)


def test_a_text_extends_another_only_past_its_last_entry():
    one = '[{"ms": 1, "pair": [0, 1]}]'
    two = '[{"ms": 1, "pair": [0, 1]}, {"ms": 2, "pair": [2, 3]}]'
    assert sql._extends(two, one)
    assert not sql._extends(one, one)
    assert not sql._extends(two, "[]")  # nothing kept to build on
    assert not sql._extends(two, '[{"ms": 1, "pair": [0, 1]} ]')
    assert not sql._extends(one, two)  # shorter: an undo
    assert not sql._extends('[{"ms": 1, "pair": [0, 9]}, {"ms": 2}]', one)


@pytest.mark.django_db(transaction=True)
def test_the_rows_a_race_writes_are_the_rows_of_its_states(monkeypatch):
    """On the database: rows written a step at a time (the log appended to
    on PostgreSQL), read back by another process that saw them a move ago
    (its texts kept, its states not), hold what a fresh row of each state
    holds, and decode to the states the moves made."""
    clock = RoomClock(monkeypatch)
    monkeypatch.setattr("rooms.publish._send", lambda rooms: None)
    ann, bob = person("Ann"), person("Bob")
    room = actions.create_room(ann, "Ann")
    actions.join_room(room.code, bob, "Bob")
    actions.start_game(room.code, ann)
    actions.deal_round(room.code, ann, "race", "small", 0)
    clock.advance(2000)
    pairs = solution(room)
    rnd = Room.objects.get(pk=room.pk).current_round
    moves = []
    for n, pair in enumerate(pairs[:4]):
        clock.advance(500)
        with CaptureQueriesContext(connection) as move:
            actions.take_pair(room.code, ann, *pair, n)
        moves += [q["sql"] for q in move]
        clock.advance(500)
        actions.take_pair(room.code, bob, *pair, n)
        if n == 2:
            actions.undo(room.code, bob, 3)
            actions.take_pair(room.code, bob, *pair, 2)
        sql._kept.clear()  # the next read is another process's
        state = sql.load_play(rnd.pk).state
        assert isinstance(state, race.Race)
        for racer in state.racers:
            row = Racer.objects.get(round=rnd, seat=racer.seat)
            fresh = racer_fields(racer)
            assert (row.faces, row.steps) == (fresh["faces"], fresh["steps"])
            assert row.matches == fresh["matches"] == n + 1
            assert row.state() == racer
    if connection.vendor == "postgresql":
        assert any('"steps" = "steps" ||' in q for q in moves)
    sql._kept.clear()
    sql._texts.clear()
    assert sql.load_play(rnd.pk) == sql.load_play(rnd.pk)
