"""Clearing orders for spots alone, faces aside.

Both deal generation and shuffle work the same way: find an order in which
the spots can be cleared two free ones at a time, then give each pair of spots
a pair of matching faces. That order is then a witness that the result clears.
"""

from games.engine.board import iter_bits
from games.engine.layout import Layout
from games.engine.rng import Rng

Pair = tuple[int, int]

# Random removal almost never sticks on real layouts; when it does, a fresh
# attempt nearly always gets through.
RANDOM_ATTEMPTS = 64


def random_clearing(layout: Layout, standing: int, rng: Rng) -> list[Pair] | None:
    """Remove random pairs of free spots until none stand; None if stuck."""
    for _ in range(RANDOM_ATTEMPTS):
        order = _one_attempt(layout, standing, rng)
        if order is not None:
            return order
    return exact_clearing(layout, standing)


def _one_attempt(layout: Layout, standing: int, rng: Rng) -> list[Pair] | None:
    order: list[Pair] = []
    free = layout.free_mask(standing)
    while standing:
        spots = list(iter_bits(free))
        if len(spots) < 2:
            return None
        a = spots.pop(rng.below(len(spots)))
        b = spots[rng.below(len(spots))]
        order.append((a, b))
        gone = (1 << a) | (1 << b)
        standing &= ~gone
        free &= ~gone
        for t in iter_bits(
            (layout.affects_mask[a] | layout.affects_mask[b]) & standing
        ):
            if layout.is_free(t, standing):
                free |= 1 << t
    return order


# A cap on the exact search, so a pathological layout cannot hang a request.
EXACT_NODE_LIMIT = 200_000


def exact_clearing(layout: Layout, standing: int) -> list[Pair] | None:
    """Search for a way to empty the spots; None when none is found.

    Spots with no faces are rarely hard: what sinks them is a stack that must
    be taken down faster than the free tiles beside it allow. The search
    memoises dead masks and stops at EXACT_NODE_LIMIT, reporting None.
    """
    dead: set[int] = set()
    nodes = 0

    def search(mask: int) -> list[Pair] | None:
        nonlocal nodes
        if not mask:
            return []
        if mask in dead or nodes >= EXACT_NODE_LIMIT:
            return None
        nodes += 1
        spots = list(iter_bits(layout.free_mask(mask)))
        for i, a in enumerate(spots):
            for b in spots[i + 1 :]:
                rest = search(mask & ~((1 << a) | (1 << b)))
                if rest is not None:
                    return [(a, b), *rest]
        dead.add(mask)
        return None

    return search(standing)
