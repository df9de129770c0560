"""The hint: a free pair that keeps the position clearable.

Candidates are ranked by how much they open up, so the hint also teaches a
good habit; the first one the solver shows to keep the pile clearable wins.
One solve of the position itself comes first: its solution proves a set of
pairs safe at once (with the pairing fixed, any free pair of it can go
first), which bounds how many candidates need a solve of their own.
"""

from dataclasses import dataclass

from games.engine.board import Board
from games.engine.solver import solve

Pair = tuple[int, int]

# Node budget for each solver call made by a hint. A hint must answer fast;
# when a check runs out of budget the candidate is passed over, not trusted.
HINT_NODE_BUDGET = 50_000


@dataclass(frozen=True)
class Hint:
    pair: Pair | None  # None when no two free tiles match
    # True: taking `pair` keeps the pile clearable. False: the pile can no
    # longer be cleared, and `pair` is just the most opening pair. None: the
    # solver ran out of budget everywhere, so `pair` is unverified.
    clearable: bool | None


def opening(board: Board, pair: Pair) -> tuple[int, int]:
    """How much taking `pair` opens: tiles newly freed, then height."""
    a, b = pair
    before = board.free
    board._remove(a, b)
    freed = (board.free & ~before).bit_count()
    board.undo()
    z = board.layout.positions
    return freed, z[a][2] + z[b][2]


def rank_pairs(board: Board) -> list[Pair]:
    """Free matching pairs, most opening first; ties in index order."""
    pairs = board.free_pairs()
    return sorted(pairs, key=lambda p: (*(-v for v in opening(board, p)), p))


def hint(board: Board, budget: int = HINT_NODE_BUDGET) -> Hint:
    ranked = rank_pairs(board)
    if not ranked:
        return Hint(pair=None, clearable=False)
    work = board.copy()
    whole = solve(work, max_nodes=budget)
    if whole.solvable is False:
        return Hint(pair=ranked[0], clearable=False)
    safe: set[Pair] = set()
    if whole.solvable:
        safe = {tuple(sorted(p)) for p in whole.solution or ()}
    for pair in ranked:
        if pair in safe:
            return Hint(pair=pair, clearable=True)
        work._remove(*pair)
        verdict = solve(work, max_nodes=budget).solvable
        work.undo()
        if verdict:
            return Hint(pair=pair, clearable=True)
    # Only reachable when the whole-position solve ran out of budget.
    return Hint(pair=ranked[0], clearable=None)
