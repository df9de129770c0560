"""Bots: which pair a bot takes next, and how long it thinks first.

Pure: a board, the deal's clearing order (its witness) and a seeded Rng in,
a decision out, so a race replays the same with the same seeds. Deciding is
cheap on purpose: it runs under the room's lock, so no level searches.

* easy plays at a newcomer's pace, stops to look now and then, often grabs
  the first matching pair it sees and otherwise takes the pair that opens
  the most, without looking ahead;
* medium is quicker and grabs less; otherwise it takes a pair of the
  witness when one is free, else the most opening pair;
* hard is quick and plays the witness alone, which from the deal as dealt
  never takes a wrong pair (it never needs a shuffle). Off the witness (a
  pile it did not start) it asks the engine's hint, which keeps the pile
  clearable.

A bot with no matching pair asks for a shuffle; the race stops it when the
shuffle cannot help.
"""

from dataclasses import dataclass

from games.engine.board import Board
from games.engine.hint import hint, rank_pairs
from games.engine.rng import Rng

Pair = tuple[int, int]

EASY, MEDIUM, HARD = "easy", "medium", "hard"
# A bot decides under the room's lock, so its hint gets a tenth of a
# player's budget: a pair verified in under ten milliseconds or none.
BOT_HINT_BUDGET = 300
LEVELS = (EASY, MEDIUM, HARD)

TAKE, SHUFFLE = "take", "shuffle"


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


def _witness_pair(board: Board, witness: tuple[Pair, ...]) -> Pair | None:
    """The first pair of the clearing order that can be taken now: both
    tiles free and still alike (a shuffle re-lays the faces). Looked up
    tile by tile, which costs less than listing the board's free pairs."""
    free, groups = board.free, board.groups
    return next(
        (
            (a, b)
            for a, b in witness
            if free >> a & 1 and free >> b & 1 and groups[a] == groups[b]
        ),
        None,
    )


def _careful_pair(board: Board, level: str, witness: tuple[Pair, ...]) -> Pair:
    if level == EASY:
        return rank_pairs(board)[0]
    found = _witness_pair(board, witness)
    if found is not None:
        return found
    hinted = hint(board, budget=BOT_HINT_BUDGET).pair if level == HARD else None
    return hinted or rank_pairs(board)[0]


def choose(board: Board, level: str, rng: Rng, witness: tuple[Pair, ...]) -> BotMove:
    """The bot's next move on `board`; `witness` is the deal's clearing
    order, pairs as (low, high) tile indices. The free pairs are listed
    only for a grab, which picks among them."""
    if not board.has_move():
        return BotMove(SHUFFLE)
    if rng.below(1000) < PACES[level].grab_per_mille:
        return BotMove(TAKE, rng.choice(board.free_pairs()))
    return BotMove(TAKE, _careful_pair(board, level, witness))
