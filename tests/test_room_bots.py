"""Bots: pace by level, careful and careless pairs, and what a stuck bot does."""

from games.engine.board import Board
from games.engine.catalogue import get_layout
from games.engine.deal import generate_deal
from games.engine.rng import Rng
from rooms import bots
from tests.race_helpers import small_deal, stuck_pairs


def mean_think(level: str) -> float:
    rng = Rng("think", level)
    return sum(bots.think_ms(level, rng) for _ in range(400)) / 400


def witness_of(deal):
    return tuple(tuple(sorted(p)) for p in deal.solution)


def test_easy_thinks_longest_and_hard_shortest():
    easy, medium, hard = (mean_think(level) for level in bots.LEVELS)
    assert easy > medium > hard
    assert hard < 2000 and easy > 4000


def test_a_hard_bot_clears_every_deal_without_a_wrong_pair():
    """Played alone from the deal, a hard bot never meets a dead end."""
    for seed in range(5):
        deal = generate_deal(get_layout("turtle"), f"hard-{seed}")
        board = Board(deal.layout, deal.faces)
        rng = Rng("hard", seed)
        while not board.cleared:
            move = bots.choose(board, bots.HARD, rng, witness_of(deal))
            assert move.kind == bots.TAKE
            board.take(*move.pair)


def test_easy_and_medium_sometimes_grab_any_pair():
    deal = generate_deal(get_layout("turtle"), "grab")
    board = Board(deal.layout, deal.faces)
    witness = witness_of(deal)
    for level in (bots.EASY, bots.MEDIUM):
        rng = Rng("grab", level)
        picks = {bots.choose(board, level, rng, witness).pair for _ in range(200)}
        assert len(picks) > 1
    hard = {bots.choose(board, bots.HARD, Rng("h", k), witness).pair for k in range(50)}
    assert len(hard) == 1


def test_every_pair_a_bot_picks_is_free_and_matching():
    deal = small_deal()
    for level in bots.LEVELS:
        board = Board(deal.layout, deal.faces)
        rng = Rng("legal", level)
        while board.free_pairs():
            move = bots.choose(board, level, rng, witness_of(deal))
            board.take(*move.pair)


def test_a_bot_with_no_pair_asks_for_a_shuffle():
    deal = small_deal()
    board = Board(deal.layout, deal.faces)
    for pair in stuck_pairs():
        board.take(*pair)
    move = bots.choose(board, bots.MEDIUM, Rng("stuck"), witness_of(deal))
    assert move.kind == bots.SHUFFLE
