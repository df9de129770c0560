"""Deals and positions for the race tests: a Small deal, its clearing order,
and a sequence of legal pairs that leaves the pile with no free match."""

from datetime import UTC, datetime, timedelta
from functools import cache

from games.engine.board import Board
from games.engine.catalogue import get_layout
from games.engine.deal import Deal, generate_deal
from games.engine.rng import Rng
from games.play import BUILD_DELAY_MS

T0 = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)
# The moment the pile has built and every clock starts.
START = T0 + timedelta(milliseconds=BUILD_DELAY_MS)
SEED = "race-1"


@cache
def small_deal(seed: str = SEED) -> Deal:
    return generate_deal(get_layout("small"), seed)


def at(ms: int) -> datetime:
    """`ms` milliseconds of race clock after the start (when never paused)."""
    return START + timedelta(milliseconds=ms)


@cache
def stuck_pairs(seed: str = SEED) -> tuple[tuple[int, int], ...]:
    """Legal pairs, taken at random, after which no two free tiles match."""
    deal = small_deal(seed)
    for attempt in range(1000):
        board = Board(deal.layout, deal.faces)
        rng = Rng("stuck", attempt)
        taken = []
        while board.free_pairs():
            pair = rng.choice(board.free_pairs())
            board.take(*pair)
            taken.append(pair)
        if not board.cleared:
            return tuple(taken)
    raise AssertionError("no stuck position found")
