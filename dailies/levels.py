"""The 100 levels: what the level number alone decides.

Levels come in tiers of built-in layouts, each with at least as many tiles and
as many levels of pile as the tier before. Inside the whole ladder the share
of faces that come as all four copies climbs from none to all, so difficulty
grows on three counts at once: tiles, height, and pairings to get wrong.
Levels 90-100 are the full standard set with every face as four.

Only the engine's built-in files are used (never admin-edited rows), so the
spec of a level cannot change under anyone's feet.
"""

from dataclasses import dataclass

from games.engine.catalogue import get_layout
from games.engine.faces import GROUPS

LEVELS = 100
FULL_SET_FROM = 90

# (first level, layouts dealt in turn within the tier); tiles and pile
# heights never fall from one tier to the next (tests check it). Every
# layout is at most 8 columns wide and stands upright on a phone held as
# phones are (portrait), so no level is a strip of small tiles. A deal
# already stored keeps the layout it was made on (dailies.deals).
TIERS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (1, ("small",)),
    (11, ("kite",)),
    (21, ("arrow",)),
    (31, ("lantern",)),
    (41, ("vase",)),
    (51, ("hourglass",)),
    (61, ("column",)),
    (71, ("cascade",)),
    (81, ("tower",)),
    (FULL_SET_FROM, ("tall-turtle",)),
)


class UnknownLevel(LookupError):
    pass


@dataclass(frozen=True)
class LevelSpec:
    number: int
    layout_slug: str
    tiles: int
    levels: int
    quads: int
    seed: str


def _tier(n: int) -> tuple[int, tuple[str, ...]]:
    return max((t for t in TIERS if t[0] <= n), key=lambda t: t[0])


def quads_for(n: int, pairs: int) -> int:
    """How many faces come as all four tiles at level n, in a deal of `pairs`.

    The deal can hold between max(0, pairs - 36) and pairs // 2 groups of
    four; level n takes its share (n - 1) / (FULL_SET_FROM - 1) of that range,
    all of it from level FULL_SET_FROM on.
    """
    low, high = max(0, pairs - len(GROUPS)), pairs // 2
    share = min(n - 1, FULL_SET_FROM - 1)
    return low + (high - low) * share // (FULL_SET_FROM - 1)


def level_spec(n: int) -> LevelSpec:
    if not 1 <= n <= LEVELS:
        raise UnknownLevel(f"no level {n}: levels run from 1 to {LEVELS}")
    first, slugs = _tier(n)
    layout = get_layout(slugs[(n - first) % len(slugs)])
    return LevelSpec(
        number=n,
        layout_slug=layout.slug,
        tiles=len(layout),
        levels=layout.levels,
        quads=quads_for(n, len(layout) // 2),
        seed=f"level-{n}",
    )
