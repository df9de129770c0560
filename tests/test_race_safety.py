"""Back to safety in a race: a run of free undos to the racer's latest
clearable position, never past a shuffle (its 60 s stay); none in Together."""

import pytest

from games.engine.board import Board
from games.engine.rng import Rng
from games.engine.solver import solve
from games.errors import ActionError
from rooms import actions
from rooms import race as R
from rooms.models import Room
from tests.engine_helpers import replay
from tests.race_helpers import T0, at, small_deal, stuck_pairs
from tests.room_helpers import person

DEAL = small_deal()


def new_race():
    seats = [(0, "Ann", ""), (1, "Bob", "")]
    return R.deal(DEAL.layout, DEAL.faces, "race-1", seats, 0, T0, DEAL.solution)


def play(race, seat, pairs, ms=1000):
    for pair in pairs:
        race = R.take(race, seat, *pair, len(race.racer(seat).steps), at(ms))
        ms += 1000
    return race


def clearable(board: Board) -> bool:
    result = solve(board)
    return result.solvable is True and replay(board, result.solution).cleared


def back(race, seat, ms):
    found = R.safety(race, seat, at(ms))
    steps = len(race.racer(seat).steps)
    return R.back_to(race, seat, steps, found.safe, at(ms)), found


def test_back_to_safety_undoes_to_the_latest_clearable_position():
    race = play(new_race(), 0, stuck_pairs())
    after, found = back(race, 0, 30_000)
    ann = after.racer(0)
    assert found.exact and found.pairs_back > 0
    assert ann.matches == len(stuck_pairs()) - found.pairs_back
    assert clearable(ann.board(DEAL.layout))
    # The pair taken next in the history lost the pile.
    board = ann.board(DEAL.layout)
    board.take(*stuck_pairs()[ann.matches])
    assert solve(board).solvable is False
    # Free, as undos are: no penalty, Bob untouched.
    assert ann.penalty_ms == 0 and after.racer(1) == race.racer(1)


def stuck_line(board: Board, tries: int = 200) -> list:
    """Random free pairs until no two free tiles match: the shortest such
    line of a few random games."""
    best = None
    for attempt in range(tries):
        work, rng, line = board.copy(), Rng("race-safety", attempt), []
        while pairs := work.free_pairs():
            line.append(rng.choice(pairs))
            work.take(*line[-1])
        if not work.cleared and (best is None or len(line) < len(best)):
            best = line
    assert best is not None, "random play always cleared"
    return best


def test_going_back_keeps_a_shuffle_and_its_penalty():
    """The latest clearable position is never before the last shuffle (the
    shuffled pile clears, and every earlier position reaches it), so the
    undos stop at it at the earliest: its faces and 60 s stay."""
    stuck = play(new_race(), 0, stuck_pairs())
    race = R.shuffle(stuck, 0, "s", at(20_000))
    board = race.racer(0).board(DEAL.layout)
    race = play(race, 0, board.free_pairs()[:1], 21_000)
    assert R.safety(race, 0, at(22_000)).safe >= len(stuck_pairs())
    after = R.back_to(race, 0, len(race.racer(0).steps), len(stuck_pairs()), at(22_000))
    ann = after.racer(0)
    assert ann.steps == race.racer(0).steps[:-1]
    assert ann.faces == race.racer(0).faces != stuck.racer(0).faces
    assert ann.penalty_ms == R.SHUFFLE_PENALTY_MS


def test_back_to_safety_on_a_clearable_pile_is_nothing_to_do():
    race = play(new_race(), 0, DEAL.solution[:3])
    found = R.safety(race, 0, at(5000))
    assert found.clearable_now is True and found.pairs_back == 0


def test_a_stale_move_count_refuses_the_undos():
    race = play(new_race(), 0, stuck_pairs())
    with pytest.raises(R.Conflict):
        R.back_to(race, 0, 0, 1, at(30_000))


@pytest.mark.django_db
def test_in_a_room_it_is_a_race_move_and_together_has_none(room, ann, clock):
    actions.deal_round(room.code, ann, "race", "big", 0)
    room = Room.objects.get(pk=room.pk)
    clock.to_race_ms(room, 1000)
    rnd = room.current_round
    ann_racer = rnd.racers.get(seat=0)
    line = stuck_line(ann_racer.state().board(rnd.dealt().layout))
    for move, pair in enumerate(line):
        clock.advance(500)
        actions.take_pair(room.code, ann, *pair, move)
    actions.back_to_safety(room.code, ann, len(line))
    rnd = Room.objects.get(pk=room.pk).current_round
    now = rnd.racers.get(seat=0).state()
    assert now.matches < len(line)
    assert clearable(now.board(rnd.dealt().layout))
    other = actions.create_room(ann, "Ann")
    actions.join_room(other.code, person("Cat"), "Cat")
    actions.start_game(other.code, ann)
    actions.deal_round(other.code, ann, "together", "small", 0)
    with pytest.raises(ActionError) as e:
        actions.back_to_safety(other.code, ann, 0)
    assert e.value.code == "together"
