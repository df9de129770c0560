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
between the latest position known clearable and the earliest known dead.
(Tried and dropped, on the bench's histories: probing next to the latest
clearable position first, and a small budget per probe that lets cheaper
positions of the span go first; both took longer in all, and the second
left some requests undecided.)

Most positions need no search at all. A known clearing (the deal's witness,
or one the search found at an earlier position) is a pairing of the tiles:
at a later position, keep its pairs whose tiles both still stand and pair
the tiles whose partners went (two of a group at most, so they match);
when that pairing clears, so does the position (with a pairing fixed the
order is found greedily). Every solve draws from one node budget; when it
runs out the answer says so, with the span still open, and never guesses
inside it.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.board import Board, iter_bits
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
# ... but first each probe gets a short search without it: a clearable
# position is most often found in a few dozen nodes that way, where the
# clause search spends several times as long on it (measured on the
# bench's histories: position 2 of seed 51 found in 82 nodes, 17 ms,
# against undecided after 500 nodes, 96 ms, with the clause search from
# the start). On a dead position it costs these few nodes at most.
QUICK = 100


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


def _order(board: Board, pairs: Sequence[Pair]) -> list[Pair] | None:
    """These pairs (of every standing tile, each of one group) in an order
    that clears the board, or None when none does. With the pairing fixed,
    each round takes every pair whose two tiles are free: taking a pair
    never blocks another. Masks only: this runs for most positions asked."""
    lay, standing, free = board.layout, board.standing, board.free
    todo, order = list(pairs), []
    while todo:
        rest, gone = [], 0
        for a, b in todo:
            if free >> a & 1 and free >> b & 1:
                order.append((a, b))
                gone |= 1 << a | 1 << b
            else:
                rest.append((a, b))
        if not gone:
            return None
        standing &= ~gone
        touched = 0
        for t in iter_bits(gone):
            touched |= lay.affects_mask[t]
        free = free & ~gone | lay.free_among(touched & standing & ~free, standing)
        todo = rest
    return order


def _mended(board: Board, clearing: Sequence[Pair]) -> list[Pair]:
    """The pairing of a clearing of an earlier position of the board's
    history, mended where the player paired otherwise: its pairs whose
    tiles both stand, and the tiles whose partners went paired by group
    (two of a group at most, as the pairs taken were each of one group)."""
    pairs: list[Pair] = []
    orphans: dict[int, int] = {}
    for a, b in clearing:
        up_a, up_b = board.is_standing(a), board.is_standing(b)
        if up_a and up_b:
            pairs.append((a, b))
        elif up_a or up_b:
            t = a if up_a else b
            mate = orphans.pop(board.groups[t], None)
            if mate is None:
                orphans[board.groups[t]] = t
            else:
                pairs.append((mate, t))
    assert not orphans, "a clearing of a later position"
    return pairs


class _History:
    """One request's search: what is known about the positions so far."""

    def __init__(
        self, layout: Layout, faces: tuple[str, ...], moves: Sequence[Pair], budget: int
    ) -> None:
        self.layout, self.faces, self.moves, self.budget = layout, faces, moves, budget
        self.safe, self.dead = -1, len(moves) + 1
        self.clearing: tuple[Pair, ...] | None = None
        self.known: list[Sequence[Pair]] = []  # clearings found, newest last
        self.nodes = 0

    def board(self, i: int) -> Board:
        return position(self.layout, self.faces, self.moves[:i])

    def cleared_at(self, i: int, clearing: Sequence[Pair]) -> None:
        """Position i clears by `clearing`: so does every later one that
        its pairing, mended, clears (going up until one does not). While
        the history takes pairs of the pairing, the rest of its order
        still clears, with no check."""
        self.known.append(clearing)
        board = self.board(i)
        order, pairs = list(clearing), {(min(p), max(p)) for p in clearing}
        k = i
        while k + 1 < self.dead:
            a, b = self.moves[k]
            board.take(a, b)
            if (min(a, b), max(a, b)) not in pairs:
                mended = _order(board, _mended(board, order))
                if mended is None:
                    break
                order, pairs = mended, {(min(p), max(p)) for p in mended}
            else:
                pairs.remove((min(a, b), max(a, b)))
            k += 1
        self.safe = k
        self.clearing = tuple(p for p in order if (min(p), max(p)) in pairs)

    def without_search(self, i: int) -> bool:
        """Whether a known clearing, mended, clears position i."""
        board = self.board(i)
        for clearing in reversed(self.known):
            order = _order(board, _mended(board, clearing))
            if order is not None:
                self.cleared_at(i, order)
                return True
        return False

    def probe(self, i: int) -> bool | None:
        """Settle position i if the budget allows; None if it did not."""
        if self.without_search(i):
            return True
        solver = Solver(self.board(i))
        result = solver.solve(max_nodes=min(QUICK, self.left()), clauses_after=QUICK)
        self.nodes += result.nodes
        if result.solvable is None and self.nodes < self.budget:
            # The same solver: its set-up and dead positions carry over.
            result = solver.solve(max_nodes=self.left(), clauses_after=CLAUSES_AFTER)
            self.nodes += result.nodes
        if result.solvable:
            assert result.solution is not None
            self.cleared_at(i, result.solution)
        elif result.solvable is False:
            self.dead = i
        return result.solvable

    def left(self) -> int:
        return max(1, self.budget - self.nodes)

    def search(self) -> None:
        """The newest position first, then halve the open span."""
        n = len(self.moves)
        if self.safe < n and self.probe(n) is None:
            return
        while self.dead - self.safe > 1 and self.nodes < self.budget:
            if self.probe((self.safe + self.dead) // 2) is None:
                return


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
    history = _History(layout, faces, moves, budget)
    if witness:
        history.cleared_at(0, witness)
    history.search()
    return Safety(
        len(moves), history.safe, history.dead, history.clearing, history.nodes
    )
