"""Bots: which pair a bot takes next, and how long it thinks first.

Pure: a board and a seeded Rng in, a decision out, so a race replays the
same with the same seeds. The levels differ in pace and in care:

* easy plays at a newcomer's pace, stops to look now and then, often grabs
  the first matching pair it sees and otherwise takes the most opening pair
  without checking that the pile stays clearable;
* medium is quicker, grabs less often, and otherwise plays the engine's hint;
* hard is quick and only ever takes a pair proved to keep the pile
  clearable, so from a clearable deal it never needs a shuffle.

A bot with no matching pair asks for a shuffle; the race stops it when the
shuffle cannot help.
"""

from dataclasses import dataclass

from games.engine.board import Board
from games.engine.hint import hint, rank_pairs
from games.engine.rng import Rng
from games.engine.solver import solve

Pair = tuple[int, int]

EASY, MEDIUM, HARD = "easy", "medium", "hard"
LEVELS = (EASY, MEDIUM, HARD)

TAKE, SHUFFLE = "take", "shuffle"

# A hard bot whose hint ran out of budget asks the solver with this many nodes.
HARD_SOLVE_BUDGET = 500_000


@dataclass(frozen=True)
class Pace:
    think_ms: tuple[int, int]  # each move takes this long, uniformly
    look_per_mille: int  # chance of a longer look before a move
    look_ms: tuple[int, int]  # extra time of such a look
    grab_per_mille: int  # chance of taking the first pair seen


PACES = {
    EASY: Pace((3500, 7000), 150, (4000, 10000), 350),
    MEDIUM: Pace((1800, 3500), 60, (2000, 5000), 150),
    HARD: Pace((800, 1600), 0, (0, 0), 0),
}


@dataclass(frozen=True)
class BotMove:
    kind: str  # TAKE or SHUFFLE
    pair: Pair | None = None


def _between(rng: Rng, bounds: tuple[int, int]) -> int:
    low, high = bounds
    return low + rng.below(high - low + 1)


def think_ms(level: str, rng: Rng) -> int:
    """How long the bot waits before its next move."""
    pace = PACES[level]
    ms = _between(rng, pace.think_ms)
    if rng.below(1000) < pace.look_per_mille:
        ms += _between(rng, pace.look_ms)
    return ms


def _careful_pair(board: Board, level: str) -> Pair:
    if level == EASY:
        return rank_pairs(board)[0]
    found = hint(board)
    if level == HARD and found.clearable is not True:
        # The hint could not prove its pair within budget: ask the solver for
        # a full clearing order and play its first pair (free by definition).
        result = solve(board.copy(), max_nodes=HARD_SOLVE_BUDGET)
        if result.solvable and result.solution:
            return tuple(sorted(result.solution[0]))
    return found.pair


def choose(board: Board, level: str, rng: Rng) -> BotMove:
    """The bot's next move on `board`."""
    pairs = board.free_pairs()
    if not pairs:
        return BotMove(SHUFFLE)
    if rng.below(1000) < PACES[level].grab_per_mille:
        return BotMove(TAKE, rng.choice(pairs))
    return BotMove(TAKE, _careful_pair(board, level))
