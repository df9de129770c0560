"""The clause search over pairings (games.engine.solver_clauses).

It answers False from learned clauses alone, so every clause must rule out
only choices no clearing makes: checked here against a full search on
positions small enough for one, with and without the root's analysis to
help it, run in one go and in small turns.
"""

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import solver
from games.engine.board import Board
from games.engine.catalogue import get_layout
from games.engine.randomdeal import random_position
from games.engine.solver import Solver, solve
from games.engine.solver_clauses import ClauseSearch, luby
from games.engine.solver_prune import precedence
from tests.engine_helpers import board_of, replay
from tests.test_solver import (
    SEEDS,
    SLUGS,
    clearing_by_brute_force,
    late_random_position,
)


def clause_search(board: Board, analysed: bool) -> ClauseSearch | None:
    """The clause search of a position, with the pairs the root's analysis
    bans struck out (analysed) or every pairing left in; None when the
    analysis alone proves the position dead."""
    search = Solver(board)._search
    search._set_up()
    if search.root is None:
        return None
    banned = search.root[0] if analysed else 0
    return search.clause_search(board.standing, banned)


def assert_answer(board: Board, found, expected: bool) -> None:
    assert found is not None
    assert (found is not False) is expected
    if expected:
        assert replay(board, found).cleared


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    slug=SLUGS,
    seed=SEEDS,
    left=st.integers(2, 11),
    analysed=st.booleans(),
)
def test_agrees_with_brute_force_on_random_late_positions(slug, seed, left, analysed):
    """4 to 22 tiles, faces reshuffled at random, so many positions cannot be
    cleared: the search must never prove a clearable one dead, and every
    clearing it gives must replay."""
    board = late_random_position(slug, seed, left)
    expected = clearing_by_brute_force(board.copy(), set()) is not None
    clauses = clause_search(board, analysed)
    if clauses is None:
        assert not expected
        return
    assert_answer(board, clauses.run(10**9), expected)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, left=st.integers(4, 11), turn=st.integers(1, 30))
def test_small_turns_give_the_one_run_answer(seed, left, turn):
    """run() stops at its work budget and goes on where it stopped: the same
    answer, in the same total work, as one run to the end."""
    board = late_random_position("turtle", seed, left)
    whole = clause_search(board, False)
    if whole is None:
        return
    expected = whole.run(10**9)
    bit = clause_search(board, False)
    found = None
    while found is None:
        found = bit.run(turn)
    assert found == expected
    assert bit.conflicts == whole.conflicts


class CheckedPlayOut(ClauseSearch):
    """Checks, after each play-out, that resuming the last one got exactly
    as far as playing out the same choices from the start."""

    def _check(self):
        clause = super()._check()
        start = self.standing, self.layout.free_mask(self.standing)
        fresh = self._play_out(*start, self.options, self.exact)[0]
        assert self.end[0] == fresh
        return clause


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, left=st.integers(20, 60))
def test_each_play_out_resumed_gets_as_far_as_one_from_the_start(seed, left):
    board = late_random_position("turtle", seed, left)
    plain = clause_search(board, False)
    if plain is None:
        return
    checked = CheckedPlayOut.__new__(CheckedPlayOut)
    checked.__dict__.update(clause_search(board, False).__dict__)
    assert checked.run(10**9) == plain.run(10**9)


def test_a_face_stacked_on_its_partner_is_a_deadlock_at_once():
    """The only pairing lies one tile on the other: stuck before any choice."""
    board = board_of(
        (0, 0, 0, "dots-1"),
        (0, 0, 1, "dots-1"),
    )
    near = precedence(board.standing, board.layout).near
    clauses = ClauseSearch(board.layout, board.standing, [[((0, 1),)]], [], near)
    assert clauses.run(10**9) is False
    assert clauses.conflicts == 0


def test_every_row_of_two_faces_four_times_each_agrees_with_brute_force():
    """All 70 ways to lay four of one face and four of another in a row of
    eight (only the ends are ever free, so most cannot be cleared, and some
    need clauses learned from deadlocks to prove it)."""
    learned = 0
    for spots in itertools.combinations(range(8), 4):
        faces = ["dots-1" if i in spots else "dots-2" for i in range(8)]
        board = board_of(*((2 * i, 0, 0, f) for i, f in enumerate(faces)))
        expected = clearing_by_brute_force(board.copy(), set()) is not None
        clauses = clause_search(board, False)
        assert_answer(board, clauses.run(10**9), expected)
        learned += clauses.conflicts > 0
    assert learned


def test_turtle_deals_no_earlier_search_decided_are_decided():
    """Seeds 90 and 410 stayed undecided at 200,000 nodes until the clause
    search: 90 cannot be cleared (a search over moves alone proved it in
    500,129 nodes), 410 can, and its clearing replays."""
    layout = get_layout("turtle")
    assert solve(random_position(layout, 90)).solvable is False
    result = solve(random_position(layout, 410))
    assert result.solvable is True
    assert replay(random_position(layout, 410), result.solution).cleared


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(slug=SLUGS, seed=SEEDS, left=st.integers(3, 9))
def test_the_solver_taking_turns_with_it_still_tells_the_truth(slug, seed, left):
    """The solver with attempts of one node, so the clause search does the
    work from the start, in short turns: every answer, for the position and
    for each free pair taken first (as a hint asks), is the brute force's."""
    board = late_random_position(slug, seed, left)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver, "FIRST_BUDGET", 1)
        patch.setattr(solver, "GROWTH", 1.0)
        patch.setattr(solver, "CLAUSES_AFTER", 0)
        answers_as_brute_force_does(board)


def answers_as_brute_force_does(board: Board) -> None:
    one = Solver(board)
    for a, b in [(None, None), *board.free_pairs()]:
        after = board.copy()
        if a is not None:
            after.take(a, b)
        expected = clearing_by_brute_force(after, set()) is not None
        result = one.solve(first=None if a is None else (a, b))
        assert result.solvable is expected
        if expected:
            assert replay(board, result.solution).cleared


def test_luby_sequence():
    assert [luby(i) for i in range(1, 16)] == [
        1,
        1,
        2,
        1,
        1,
        2,
        4,
        1,
        1,
        2,
        1,
        1,
        2,
        4,
        8,
    ]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, left=st.integers(12, 40), analysed=st.booleans())
def test_agrees_with_the_search_over_moves_on_bigger_positions(seed, left, analysed):
    """24 to 80 tiles of the Turtle, faces reshuffled: too many for a full
    search, so the solver's search over moves alone (no clause search) is
    the oracle where it decides; this is where learned clauses run long."""
    board = late_random_position("turtle", seed, left)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver, "CLAUSES_AFTER", 10**9)
        patch.setattr(solver, "LOCAL_AFTER", 10**9)
        expected = solve(board, max_nodes=100_000).solvable
    clauses = clause_search(board, analysed)
    if clauses is None:
        assert expected is not True
        return
    found = clauses.run(10**9)
    assert found is not None
    if expected is not None:
        assert_answer(board, found, expected)
    elif found is not False:
        assert replay(board, found).cleared
