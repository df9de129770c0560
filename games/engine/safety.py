"""Was it winnable? The latest position of a history that can still be cleared.

A history is a deal's faces and the pairs taken, in order; position i is the
deal with the first i pairs taken. Clearability along a history only ever
falls: position i reaches position i + 1 by a legal move, so when i + 1 can
be cleared, so can i, and when i cannot, no later one can. The clearable
positions are therefore 0..t for one t, which is what both "back to safety"
(undo len(moves) - t pairs) and "where it turned" (pair t + 1 made the pile
unclearable) need.

So t is found by bisection, not by solving every position: the newest one
first (the usual question is "is it still fine?"), then halving the span
between the latest position known clearable and the earliest known dead. A
known clearing (what is left of the deal's witness while every pair taken
was one of its pairs) settles a prefix with no search at all. Every solve
draws from one node budget; when it runs out the answer says so, with the
span still open, and never guesses inside it.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.board import Board
from games.engine.hint import clearing_order, still_to_take
from games.engine.layout import Layout
from games.engine.solver import Solver

Pair = tuple[int, int]

# One request's share of search (about 17.5 us a node here): the bench's
# histories from random play need far less (see docs/PERFORMANCE.md), and a
# request must answer in well under a second whatever the history.
SAFETY_NODES = 20_000
# The clause search joins each probe at once, as in a hint: the positions
# that cost are the dead ones next to the turning point, which it proves
# fastest. On 150 histories of random play (the bench's, asked at the end)
# that took 48,593 nodes in all against 84,074 with the solver's default
# of 600 (p90 493 against 1,284, p99 5,235 against 6,449), the same answers,
# and no request left undecided against one.
CLAUSES_AFTER = 0


@dataclass(frozen=True)
class Safety:
    """What is known about a history's positions after the search."""

    moves: int  # pairs in the history
    # The latest position known clearable (pairs taken there), -1 if none is.
    safe: int
    # The earliest position known unclearable; moves + 1 when none is.
    dead: int
    # A clearing order from position `safe` (None when safe is -1).
    clearing: tuple[Pair, ...] | None
    nodes: int

    @property
    def exact(self) -> bool:
        """True when the latest clearable position is known for certain."""
        return self.dead == self.safe + 1

    @property
    def clearable_now(self) -> bool | None:
        if self.safe == self.moves:
            return True
        if self.dead <= self.moves:
            return False
        return None

    @property
    def pairs_back(self) -> int | None:
        """How many pairs to undo to reach the latest clearable position."""
        if not self.exact or self.safe < 0:
            return None
        return self.moves - self.safe

    @property
    def turned_at(self) -> int | None:
        """The pair (counted from 1) that made the pile unclearable, when
        one did: the pair after the latest clearable position."""
        if not self.exact or self.safe < 0 or self.safe == self.moves:
            return None
        return self.safe + 1


def position(layout: Layout, faces: tuple[str, ...], moves: Sequence[Pair]) -> Board:
    """The deal with these pairs taken (each checked as it is taken)."""
    board = Board(layout, faces)
    for a, b in moves:
        board.take(a, b)
    return board


def _witness_prefix(moves: Sequence[Pair], witness: Sequence[Pair]) -> int:
    """How many of the first moves are pairs of the witness."""
    left = {(min(p), max(p)) for p in witness}
    for k, (a, b) in enumerate(moves):
        if (min(a, b), max(a, b)) not in left:
            return k
        left.remove((min(a, b), max(a, b)))
    return len(moves)


def find_safety(
    layout: Layout,
    faces: tuple[str, ...],
    moves: Sequence[Pair],
    witness: Sequence[Pair] = (),
    budget: int = SAFETY_NODES,
) -> Safety:
    """Where along the history the pile could last be cleared.

    `witness`: a clearing order of the deal as these faces lie (pass none
    after a shuffle re-laid them). Each position is rebuilt from the deal,
    so the pairs are checked as they are taken (MoveError on a bad one).
    """
    n = len(moves)
    safe, dead, clearing, nodes = -1, n + 1, None, 0
    if witness:
        k = _witness_prefix(moves, witness)
        left = still_to_take(witness, moves[:k]) or []
        order = clearing_order(position(layout, faces, moves[:k]), left)
        if order is not None:
            safe, clearing = k, tuple(order)

    def probe(i: int) -> bool | None:
        nonlocal safe, dead, clearing, nodes
        result = Solver(position(layout, faces, moves[:i])).solve(
            max_nodes=max(1, budget - nodes), clauses_after=CLAUSES_AFTER
        )
        nodes += result.nodes
        if result.solvable:
            safe, clearing = i, result.solution
            # The history may go on along this clearing: each position it
            # reaches that way clears too, with no search.
            k = i + _witness_prefix(moves[i:dead], clearing)
            if k > i:
                left = still_to_take(clearing, moves[i:k]) or []
                order = clearing_order(position(layout, faces, moves[:k]), left)
                safe, clearing = k, tuple(order or ())
        elif result.solvable is False:
            dead = i
        return result.solvable

    # The newest position first, then halve the open span.
    if safe < n and probe(n) is None:
        return Safety(n, safe, dead, clearing, nodes)
    while dead - safe > 1 and nodes < budget:
        if probe((safe + dead) // 2) is None:
            break
    return Safety(n, safe, dead, clearing, nodes)
