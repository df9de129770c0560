"""Bots of Together mode: which pair a bot takes on its turn, how long it
waits first, and the plan that lets them see cheaply which pairs keep the
pile clearable.

Pure: a board, the room's plan, the pair's worth and a seeded Rng in, a pair
out. A bot decides under the room's lock, so no level runs an open-ended
search:

* easy takes any free pair it sees, at random;
* medium takes a pair that keeps the pile clearable: the engine's hint,
  answered from the plan while the plan holds (a free pair of a proved
  clearing is exactly what the hint looks for);
* hard takes the pair worth the most to it (its points, the set bonus and a
  stuck penalty counted), ties going to a pair that keeps the pile
  clearable, then to index order.

The plan is a pairing of the standing tiles that is known to clear: the
deal's clearing order at first, the shuffle's after a re-lay. With the
pairing fixed the order no longer matters (freedom only grows as tiles go),
so any free pair of the plan is safe to take, and checking a pairing is one
greedy pass instead of a search.
"""

from collections.abc import Callable

from games.engine.board import Board
from games.engine.hint import hint, rank_pairs
from games.engine.rng import Rng
from games.engine.solver import solve

Pair = tuple[int, int]

EASY, MEDIUM, HARD = "easy", "medium", "hard"
LEVELS = (EASY, MEDIUM, HARD)

# How long a bot waits on its turn before taking its pair, uniformly within
# these bounds: shorter for harder bots, always well inside the 30 s turn.
THINK_MS = {EASY: (3000, 6000), MEDIUM: (2000, 4000), HARD: (1000, 2500)}

# Node budget of each solver call a bot makes once the plan is lost. Small on
# purpose: a check that runs out is treated as "not known to be safe".
BOT_SOLVE_BUDGET = 2_000


def think_ms(level: str, rng: Rng) -> int:
    low, high = THINK_MS[level]
    return low + rng.below(high - low + 1)


# -- the plan --------------------------------------------------------------


def _both_free(board: Board, pair: Pair) -> bool:
    return bool(board.free >> pair[0] & 1 and board.free >> pair[1] & 1)


def plan_clears(board: Board, plan: tuple[Pair, ...]) -> bool:
    """True when taking the plan's pairs, each as soon as it is free, clears
    the standing tiles; with a fixed pairing no other order does better."""
    work = board.copy()
    rest = list(plan)
    while rest:
        free = next((p for p in rest if _both_free(work, p)), None)
        if free is None:
            return False
        work.take(*free)
        rest.remove(free)
    return work.cleared


def plan_after(board: Board, plan: tuple[Pair, ...], pair: Pair) -> tuple[Pair, ...]:
    """The plan once `pair` has been taken (`board` is the position after).

    A pair of the plan just leaves it. Any other pair of the group joins the
    two tiles it split from into a pair of their own; that new pairing is
    kept if it still clears. Otherwise the plan is lost: ()."""
    pair = (min(pair), max(pair))
    if not plan:
        return ()
    if pair in plan:
        return tuple(p for p in plan if p != pair)
    partner = {}
    for x, y in plan:
        partner[x], partner[y] = y, x
    a, b = pair
    c, d = partner.get(a), partner.get(b)
    if c is None or d is None:
        return ()
    rest = tuple(p for p in plan if a not in p and b not in p)
    joined = tuple(sorted((*rest, (min(c, d), max(c, d)))))
    return joined if plan_clears(board, joined) else ()


def _keeps_clearable(board: Board, plan: tuple[Pair, ...], pair: Pair) -> bool:
    if plan:
        return pair in plan
    work = board.copy()
    work.take(*pair)
    return solve(work, max_nodes=BOT_SOLVE_BUDGET).solvable is True


# -- choices ---------------------------------------------------------------


def safe_pair(board: Board, plan: tuple[Pair, ...]) -> Pair:
    """Medium's pair: the engine's hint, from the plan while it holds (the
    most opening free pair of the plan, as the hint would rank it)."""
    if plan:
        ranked = rank_pairs(board)
        found = next((p for p in ranked if p in plan), None)
        if found is not None:
            return found
    pair = hint(board, budget=BOT_SOLVE_BUDGET).pair
    # The board has a free pair (see choose), so the hint names one.
    assert pair is not None
    return pair


def best_pair(
    board: Board, plan: tuple[Pair, ...], worth: Callable[[Pair], int]
) -> Pair:
    """Hard's pair: the most worth; among equals one that keeps the pile
    clearable, then the lowest indices."""
    values = {p: worth(p) for p in board.free_pairs()}
    top = max(values.values())
    best = [p for p, v in values.items() if v == top]
    return next((p for p in best if _keeps_clearable(board, plan, p)), best[0])


def choose(
    board: Board,
    level: str,
    rng: Rng,
    plan: tuple[Pair, ...],
    worth: Callable[[Pair], int],
) -> Pair:
    """The bot's pair on `board`, which always has a free pair (a stuck pile
    is re-laid at once). `worth` is what a pair would bring this bot."""
    if level == EASY:
        return rng.choice(board.free_pairs())
    if level == MEDIUM:
        return safe_pair(board, plan)
    return best_pair(board, plan, worth)
