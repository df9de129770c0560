"""The timer process was down (issue 15, point 5): what came due while it
was away happens once when it is back, and the next player's 30 s start
then, not in the past; bots' moves due meanwhile do not cascade. On the
rooms' fake clock, through the timer's own entry point."""

import pytest

from rooms import actions
from rooms.bots import HARD, PACES
from rooms.models import Room
from rooms.together import TURN_MS
from tests.test_together_actions import deal, shared

pytestmark = pytest.mark.django_db

OUTAGE_MS = 40_000


def test_a_turn_overdue_in_an_outage_ends_once_and_the_next_starts_now(
    room, ann, bob, clock
):
    room = deal(room, ann, clock, at_ms=10_000)  # Ann's turn, 20 s left
    clock.to_race_ms(room, 10_000 + OUTAGE_MS)  # nobody ran the timer
    assert actions.apply_due_timers(room.pk)
    rnd = shared(room)
    assert [s["turns"] for s in rnd["seats"]] == [1, 0]
    assert rnd["moves"] == []
    # Bob gets his whole 30 s from now.
    assert rnd["turn_seat"] == 1
    assert rnd["deadline_ms"] == 10_000 + OUTAGE_MS + TURN_MS
    assert not actions.apply_due_timers(room.pk)  # nothing more is due
    clock.advance(TURN_MS - 1)
    assert not actions.apply_due_timers(room.pk)
    assert shared(room)["turn_seat"] == 1


def test_a_bot_due_in_an_outage_moves_once_then_thinks_from_now(room, ann, bob, clock):
    actions.add_bot(room.code, ann, "hard")
    room = deal(room, ann, clock)
    # Ann and Bob let their turns run out; the bot's comes, then the timer
    # is down for 40 s.
    clock.to_race_ms(room, TURN_MS)
    actions.apply_due_timers(room.pk)
    clock.to_race_ms(room, 2 * TURN_MS + 1000)
    actions.apply_due_timers(room.pk)
    assert shared(room)["turn_seat"] == 2
    back_ms = 2 * TURN_MS + 1000 + OUTAGE_MS
    clock.to_race_ms(room, back_ms)
    assert actions.apply_due_timers(room.pk)
    rnd = shared(room)
    assert [m["seat"] for m in rnd["moves"]] == [2]
    assert rnd["turn_seat"] == 0
    assert rnd["deadline_ms"] == back_ms + TURN_MS


def test_a_racing_bot_makes_one_move_after_an_outage(room, ann, clock):
    actions.add_bot(room.code, ann, "hard")
    actions.deal_round(room.code, ann, "race", "small", 0)
    room = Room.objects.get(pk=room.pk)
    clock.to_race_ms(room, OUTAGE_MS)  # the bot was due many times over
    assert actions.apply_due_timers(room.pk)
    rnd = Room.objects.get(pk=room.pk).current_round
    racer = rnd.state(list(rnd.racers.all())).racer(2)
    assert len(racer.steps) == 1
    assert racer.bot_at_ms >= OUTAGE_MS + PACES[HARD].think_ms[0]
