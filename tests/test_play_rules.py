"""The run rules (games.play) as a pure state machine, with a hand-held clock."""

from datetime import UTC, datetime, timedelta

import pytest

from games import play
from games.engine.catalogue import get_layout
from games.engine.deal import generate_deal
from games.errors import Conflict, Refused

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def at(ms: int) -> datetime:
    return T0 + timedelta(milliseconds=ms)


def dealt(can_shuffle: bool = True):
    deal = generate_deal(get_layout("small"), "rules-1")
    return play.deal(deal.layout, deal.faces, can_shuffle, T0), deal.solution


def blocked(state: play.RunState, reason: str) -> int:
    board = state.board()
    return next(
        i
        for i in range(len(board.faces))
        if board.layout.blocked_reason(i, board.standing) == reason
    )


def test_the_clock_starts_after_the_build_delay():
    """Nothing is counted while the pile builds itself on screen."""
    state, _ = dealt()
    assert state.clock.elapsed_ms(at(play.BUILD_DELAY_MS)) == 0
    assert state.clock.elapsed_ms(at(play.BUILD_DELAY_MS + 2500)) == 2500


def test_a_move_during_the_build_starts_the_clock_at_once():
    state, solution = dealt()
    state = play.take(state, *solution[0], move=0, now=at(500))
    assert state.clock.elapsed_ms(at(1500)) == 1000


def test_pause_stops_the_clock_and_resume_restarts_it():
    state, _ = dealt()
    state = play.pause(state, at(11_500))
    assert state.status == play.PAUSED
    assert state.clock.elapsed_ms(at(999_999)) == 10_000
    state = play.resume(state, at(100_000))
    assert state.clock.elapsed_ms(at(103_000)) == 13_000


def test_clearing_along_the_witness_wins_and_stops_the_clock():
    state, solution = dealt()
    for n, (a, b) in enumerate(solution):
        state = play.take(state, a, b, move=n, now=at(2000 + 1000 * n))
    assert state.status == play.WON
    last = 2000 + 1000 * (len(solution) - 1)
    assert state.clock.elapsed_ms(at(10**7)) == last - play.BUILD_DELAY_MS
    assert state.clean


@pytest.mark.parametrize("reason", ["covered", "sides"])
def test_a_blocked_tile_is_refused_and_named(reason):
    state, _ = dealt()
    tile = blocked(state, reason)
    free = state.board().free_tiles()[0]
    with pytest.raises(Refused) as e:
        play.take(state, free, tile, move=0, now=at(2000))
    assert (e.value.code, e.value.tile) == (reason, tile)


def test_a_mismatch_is_refused():
    state, _ = dealt()
    board = state.board()
    free = board.free_tiles()
    a, b = next(
        (a, b) for a in free for b in free if board.groups[a] != board.groups[b]
    )
    with pytest.raises(Refused) as e:
        play.take(state, a, b, move=0, now=at(2000))
    assert e.value.code == "mismatch"


def test_a_stale_move_count_is_a_conflict():
    state, solution = dealt()
    state = play.take(state, *solution[0], move=0, now=at(2000))
    with pytest.raises(Conflict) as e:
        play.take(state, *solution[1], move=0, now=at(3000))
    assert e.value.code == "stale"


def test_repeating_the_last_take_changes_nothing():
    """A retried request is answered with the state it already made."""
    state, solution = dealt()
    state = play.take(state, *solution[0], move=0, now=at(2000))
    b, a = solution[0]
    assert play.take(state, a, b, move=0, now=at(9000)) is state


def test_undo_puts_the_last_pair_back_and_keeps_the_run_clean():
    state, solution = dealt()
    state = play.take(state, *solution[0], move=0, now=at(2000))
    state = play.undo(state, move=1, now=at(3000))
    assert state.moves == ()
    assert state.undos == 1
    assert state.clean
    with pytest.raises(Refused) as e:
        play.undo(state, move=0, now=at(3000))
    assert e.value.code == "empty"


def test_a_hint_is_counted_and_spoils_the_clean_clear():
    state, _ = dealt()
    state, found = play.hint(state, at(2000))
    assert found.pair in [tuple(p) for p in state.board().free_pairs()]
    assert found.clearable is True
    assert state.hints == 1
    assert not state.clean


def test_shuffle_re_lays_the_standing_faces_where_allowed():
    state, solution = dealt()
    state = play.take(state, *solution[0], move=0, now=at(2000))
    shuffled = play.shuffle(state, "s1", at(3000))
    assert shuffled.shuffles == 1 and not shuffled.clean
    assert sorted(shuffled.faces) == sorted(state.faces)
    for tile in state.moves[0]:
        assert shuffled.faces[tile] == state.faces[tile]
    fixed, _ = dealt(can_shuffle=False)
    with pytest.raises(Refused) as e:
        play.shuffle(fixed, "s1", at(3000))
    assert e.value.code == "no_shuffle"


def test_restart_deals_the_same_faces_with_a_new_clock():
    state, solution = dealt()
    state = play.take(state, *solution[0], move=0, now=at(2000))
    state = play.shuffle(state, "s1", at(3000))
    again = play.restart(state, at(60_000))
    assert again.faces == again.initial_faces
    assert again.moves == ()
    assert again.clock.elapsed_ms(at(60_000 + play.BUILD_DELAY_MS)) == 0
    assert again.shuffles == 1  # help used on this deal stays counted


def test_nothing_but_a_restart_happens_after_the_end():
    state, solution = dealt()
    lost = play.give_up(state, at(5000))
    assert lost.status == play.LOST
    for event in (
        lambda s: play.take(s, *solution[0], move=0, now=at(6000)),
        lambda s: play.undo(s, move=0, now=at(6000)),
        lambda s: play.hint(s, at(6000)),
        lambda s: play.pause(s, at(6000)),
    ):
        with pytest.raises(Conflict) as e:
            event(lost)
        assert e.value.code == "finished"


def test_a_finished_run_restarts_from_the_deal():
    state, solution = dealt()
    state = play.take(state, *solution[0], move=0, now=at(2000))
    state, _ = play.hint(state, at(2500))
    again = play.restart(play.give_up(state, at(3000)), at(4000))
    assert (again.status, again.moves, again.hints) == (play.PLAYING, (), 1)
