"""Hints: a pair that keeps the pile clearable, chosen the same way every time."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.board import Board
from games.engine.catalogue import get_layout
from games.engine.deal import generate_deal
from games.engine.formats import position_from_json
from games.engine.hint import (
    HINT_NODE_BUDGET,
    Hint,
    clears,
    hint,
    rank_pairs,
    still_to_take,
)
from games.engine.randomdeal import played_at_random
from games.engine.solver import Solver, solve
from tests.engine_helpers import board_of

CASES = Path(__file__).parent / "fixtures" / "cases"


def partway(slug: str, seed: int, taken: int) -> Board:
    deal = generate_deal(get_layout(slug), seed)
    board = Board(deal.layout, deal.faces)
    for a, b in deal.solution[:taken]:
        board.take(a, b)
    return board


@settings(max_examples=25, deadline=None)
@given(
    slug=st.sampled_from(["small", "turtle"]),
    seed=st.integers(0, 10**6),
    frac=st.floats(0, 0.9),
)
def test_the_hinted_pair_keeps_the_pile_clearable(slug, seed, frac):
    """Partway through a deal's witness: told what is left of it, the hint
    is always verified; on its own (search within a budget) it is verified
    or says it could not be, and is never wrong."""
    taken = int(frac * len(get_layout(slug)) / 2)
    board = partway(slug, seed, taken)
    witness = generate_deal(get_layout(slug), seed).solution
    before = (board.standing, board.free)
    told = hint(board, clearing=still_to_take(witness, witness[:taken]))
    alone = hint(board)
    assert (board.standing, board.free) == before, "a hint must not move tiles"
    assert told.clearable is True
    assert alone.clearable is not False
    for h in (told, alone):
        assert h.pair in board.free_pairs()
        if h.clearable:
            after = board.copy()
            after.take(*h.pair)
            assert solve(after).solvable is True


@pytest.mark.parametrize("slug", ["small", "turtle"])
def test_told_a_clearing_the_hint_still_prefers_what_opens_most(slug):
    """Seed 0's own clearing order does not hold the pair that opens most:
    the hint offers that pair all the same, once the solver shows it safe,
    and the clearing's own best pair only when the budget is spent."""
    deal = generate_deal(get_layout(slug), 0)
    board = Board(deal.layout, deal.faces)
    witness = {tuple(sorted(p)) for p in deal.solution}
    most = rank_pairs(board)[0]
    assert most not in witness
    assert hint(board, clearing=deal.solution) == Hint(pair=most, clearable=True)
    after = board.copy()
    after.take(*most)
    assert solve(after).solvable is True
    spent = hint(board, budget=0, clearing=deal.solution)
    assert spent.clearable is True
    assert spent.pair in witness
    assert spent.pair == next(p for p in rank_pairs(board) if p in witness)


def test_what_is_left_of_a_witness_is_known_only_while_play_follows_it():
    witness = [(0, 5), (1, 2), (3, 4)]
    assert still_to_take(witness, [(2, 1)]) == [(0, 5), (3, 4)]
    assert still_to_take(witness, [(2, 1), (0, 3)]) is None


def stacked_dragons() -> Board:
    """Two dragons, one lying on the other, and a pair of winds: the pile
    can never be cleared."""
    return board_of(
        (0, 0, 0, "dragon-red"),
        (0, 0, 1, "dragon-red"),
        (4, 0, 0, "wind-east"),
        (8, 0, 0, "wind-east"),
    )


def test_a_claimed_clearing_that_does_not_clear_is_not_believed():
    # No clearing exists, whatever the caller claims.
    board = stacked_dragons()
    assert not clears(board, [(2, 3), (0, 1)])
    assert hint(board, clearing=[(2, 3), (0, 1)]) == Hint((2, 3), False)
    # Pairs that do not match, or leave a tile out, are not believed either.
    faces = ["dots-1", "dots-1", "dots-2", "dots-2"]
    spread = board_of(*((4 * i, 0, 0, f) for i, f in enumerate(faces)))
    assert not clears(spread, [(0, 2), (1, 3)])
    assert not clears(spread, [(0, 1)])
    assert clears(spread, [(0, 1), (2, 3)])


def test_the_same_position_always_gets_the_same_hint():
    board = partway("turtle", 11, 20)
    assert hint(board) == hint(board.copy()) == hint(partway("turtle", 11, 20))


def test_the_pair_that_frees_the_most_tiles_is_preferred():
    # Two safe pairs: the dots-1 pair frees the two tiles it holds on the
    # right; the dots-9 pair at the far ends of another row frees one each.
    board = board_of(
        (0, 0, 0, "dots-1"),
        (2, 0, 0, "dots-2"),
        (4, 0, 0, "dots-2"),
        (6, 0, 0, "dots-1"),
        (0, 4, 0, "dots-9"),
        (2, 4, 0, "dots-3"),
        (4, 4, 0, "dots-3"),
        (6, 4, 0, "dots-9"),
        (0, 8, 1, "dots-1"),
        (0, 8, 0, "dots-5"),
        (4, 8, 0, "dots-5"),
        (4, 8, 1, "dots-1"),
    )
    h = hint(board)
    assert h.clearable is True
    # Tiles 8 and 11 each sit on a tile: taking them frees two, and so do
    # 0+3 and 4+7; the tie is broken by height, so the raised pair wins.
    assert h.pair == (8, 11)


def test_when_nothing_keeps_it_clearable_the_flag_says_so():
    board = stacked_dragons()
    h = hint(board)
    assert h.pair == (2, 3)
    assert h.clearable is False


def test_no_free_pair_gives_no_hint():
    board = board_of((0, 0, 0, "dots-1"), (4, 0, 0, "dots-2"))
    assert hint(board).pair is None


@pytest.mark.parametrize("seed", ["149", "202", "467", "475"])
def test_a_hint_on_a_hard_position_stays_within_its_budget(seed, monkeypatch):
    """Hard random positions: the hint still answers within its node budget,
    with a free matching pair, verified or flagged as not verified."""
    spent = []
    real_solve = Solver.solve

    def counting_solve(self, max_nodes, first=None, **kwargs):
        result = real_solve(self, max_nodes, first, **kwargs)
        spent.append(result.nodes)
        return result

    monkeypatch.setattr(Solver, "solve", counting_solve)
    case = json.loads((CASES / f"turtle-random-seed{seed}.json").read_text())
    board = position_from_json(case).board
    h = hint(board)
    assert sum(spent) <= HINT_NODE_BUDGET
    assert h.pair in board.free_pairs()
    if h.clearable is True:
        board.take(*h.pair)
        assert solve(board).solvable is not False


@pytest.mark.parametrize("seed", [8, 44, 108, 181, 292])
def test_hints_the_old_budget_left_unverified_are_verified(seed):
    """Positions from random play where a hint of 300 nodes could not tell
    (mostly piles that can no longer be cleared): with the clause search
    in the hint they get a verified answer, and it is the truth."""
    board = played_at_random(get_layout("turtle"), seed)
    found = hint(board)
    assert found.clearable is not None
    assert found.pair in board.free_pairs()
    if found.clearable:
        board.take(*found.pair)
    assert solve(board).solvable is found.clearable
