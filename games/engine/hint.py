"""The hint: a free pair that keeps the position clearable.

Candidates are ranked by how much they open up, so the hint also teaches a
good habit; the first one the solver shows to keep the pile clearable wins.
One solve of the position itself comes first: its solution proves a set of
pairs safe at once (with the pairing fixed, any free pair of it can go
first), which bounds how many candidates need a solve of their own.

A caller that knows a clearing (what is left of the deal's witness while
every pair taken so far was one of its pairs) passes it: once checked by
playing it out, its best-ranked free pair is safe with no search, and only
pairs ranked above it need one. The search, within its node budget, is
otherwise for positions play has led elsewhere.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from games.engine.board import Board, MoveError
from games.engine.solver import Solver, SolveResult

Pair = tuple[int, int]

# A hint must answer fast, whatever the position: every solver call it makes
# shares one node budget (a few hundredths of a second at most). Most
# positions are settled in a few hundred nodes; when the budget runs out the
# hint falls back to a pair it could not verify, and says so. In a hint the
# clause search (solver_clauses) joins at once rather than after 600 nodes:
# the positions left over are mostly piles that can no longer be cleared,
# which it proves fast. On the bench's 300 positions from random play, 300
# nodes left 18 hints unverified (p99 9 ms), 1,500 nodes 3, 3,000 one,
# 5,000 none, at p99 23 ms and at most about 50 ms; on 600 more positions,
# none at 3,000 or 5,000.
HINT_NODE_BUDGET = 5000
# Each ranked candidate gets at most this much of what is left, so one hard
# candidate cannot eat the budget of all the others.
CANDIDATE_NODES = 100


@dataclass(frozen=True)
class Hint:
    pair: Pair | None  # None when no two free tiles match
    # True: taking `pair` keeps the pile clearable. False: the pile can no
    # longer be cleared, and `pair` is just the most opening pair. None: the
    # budget ran out first, so `pair` is the most opening pair, unverified.
    clearable: bool | None


def opening(board: Board, pair: Pair) -> tuple[int, int]:
    """How much taking the free pair `pair` opens: tiles newly freed, then
    height. The board is back as it was afterwards."""
    a, b = pair
    before = board.free
    board.take(a, b)
    freed = (board.free & ~before).bit_count()
    board.undo()
    z = board.layout.positions
    return freed, z[a][2] + z[b][2]


def rank_pairs(board: Board) -> list[Pair]:
    """Free matching pairs, most opening first; ties in index order."""
    pairs = board.free_pairs()
    return sorted(pairs, key=lambda p: (*(-v for v in opening(board, p)), p))


def still_to_take(witness: Iterable[Pair], taken: Iterable[Pair]) -> list[Pair] | None:
    """The pairs of a clearing order not taken yet, when every pair taken so
    far was one of its pairs (in any order); None once play left it. With a
    pairing fixed, order does not matter, so those pairs still clear."""
    left = {(min(p), max(p)) for p in witness}
    for pair in taken:
        key = (min(pair), max(pair))
        if key not in left:
            return None
        left.remove(key)
    return sorted(left)


def clearing_order(board: Board, pairs: Iterable[Pair]) -> list[Pair] | None:
    """These pairs in an order that clears the board (each taken as soon as
    both tiles are free), or None when they do not clear it. With the
    pairing fixed that decides it: taking a pair never blocks another."""
    work = board.copy()
    todo = [(min(p), max(p)) for p in pairs]
    tiles = sorted(t for pair in todo for t in pair)
    if tiles != [i for i in range(len(board.faces)) if board.is_standing(i)]:
        return None
    order: list[Pair] = []
    while todo:
        rest = []
        for a, b in todo:
            try:
                work.take(a, b)
            except MoveError:
                rest.append((a, b))
            else:
                order.append((a, b))
        if len(rest) == len(todo):
            return None
        todo = rest
    return order


def clears(board: Board, pairs: Iterable[Pair]) -> bool:
    """Whether taking these pairs, each as soon as both tiles are free,
    clears the board."""
    return clearing_order(board, pairs) is not None


class HintSearch(Protocol):
    """What computes a hint: `hint` itself, or a stand-in that runs it
    elsewhere (rooms.hints sends it to a worker process)."""

    def __call__(
        self, board: Board, *, clearing: Iterable[Pair] | None = None
    ) -> Hint: ...


def hint(
    board: Board,
    budget: int = HINT_NODE_BUDGET,
    clearing: Iterable[Pair] | None = None,
) -> Hint:
    """The hint for this position. `clearing`: pairs the caller believes
    clear it (what is left of the deal's witness, say); checked by playing
    them out, and when they do clear, any free one of them is safe at once,
    with no search."""
    ranked = rank_pairs(board)
    if not ranked:
        return Hint(pair=None, clearable=False)
    if clearing is not None:
        known = list(clearing)
        if clears(board, known):
            # Its best-ranked free pair is safe at once (a clearing's first
            # pair is free, so there is one); a pair ranked above it, one that
            # opens more, is offered instead if the search shows it safe too.
            safe = {(min(p), max(p)) for p in known}
            pair = _first_safe(ranked, safe, _lazy_checks(board), budget)
            return Hint(pair=pair, clearable=True)
    # One Solver for the position and all its candidates: they share its
    # set-up and what it learns about dead positions.
    solver = Solver(board)
    whole = solver.solve(max_nodes=budget // 2, clauses_after=0)
    if whole.solvable is False:
        return Hint(pair=ranked[0], clearable=False)
    # With the pairing of a solution fixed, any of its pairs that is free now
    # can go first; the solution's first pair always is, so one is ranked.
    safe = {(min(p), max(p)) for p in whole.solution or ()}
    pair = _first_safe(ranked, safe, solver.solve, budget - whole.nodes)
    if pair is not None:
        return Hint(pair=pair, clearable=True)
    return Hint(pair=ranked[0], clearable=None)


class _Check(Protocol):
    """Solver.solve as _first_safe calls it: a check of one candidate."""

    def __call__(
        self, *, max_nodes: int, first: Pair, clauses_after: int
    ) -> SolveResult: ...


def _first_safe(
    ranked: list[Pair],
    safe: set[Pair],
    solve: _Check,
    left: int,
) -> Pair | None:
    """The first ranked pair that is known safe, or that `solve` shows safe
    (each check within CANDIDATE_NODES) while the budget lasts."""
    for pair in ranked:
        if pair in safe:
            return pair
        if left > 0:
            check = solve(
                max_nodes=min(CANDIDATE_NODES, left), first=pair, clauses_after=0
            )
            left -= check.nodes
            if check.solvable:
                return pair
    return None


def _lazy_checks(board: Board) -> _Check:
    """Solver.solve for the board, set up only if a check is asked for: a
    known clearing often holds the best-ranked pair, and then none is."""
    solver: Solver | None = None

    def solve(*, max_nodes: int, first: Pair, clauses_after: int) -> SolveResult:
        nonlocal solver
        if solver is None:
            solver = Solver(board)
        return solver.solve(
            max_nodes=max_nodes, first=first, clauses_after=clauses_after
        )

    return solve
