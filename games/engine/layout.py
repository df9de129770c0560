"""Layout geometry: which spots cover, and block the sides of, which others.

Positions are (x, y, z) in half-tile units, as the spec defines them. The
relations are computed once per layout into bitmasks over tile indices (bit i
stands for the i-th position), so that the free rule is a few integer ANDs.
"""

from dataclasses import dataclass, field
from functools import cached_property

Position = tuple[int, int, int]

MAX_TILES = 144


class LayoutError(ValueError):
    """A layout that cannot be played; the message names the offending tiles."""


def _describe(index: int, pos: Position) -> str:
    return f"tile {index} at ({pos[0]}, {pos[1]}, {pos[2]})"


def covers(upper: Position, lower: Position) -> bool:
    """True when `upper` lies on `lower`, even partly."""
    return (
        upper[2] == lower[2] + 1
        and abs(upper[0] - lower[0]) < 2
        and abs(upper[1] - lower[1]) < 2
    )


def beside(a: Position, b: Position, dx: int) -> bool:
    """True when `b` touches `a`'s side at a.x + dx on the same level."""
    return b[2] == a[2] and b[0] == a[0] + dx and abs(b[1] - a[1]) < 2


def overlap(a: Position, b: Position) -> bool:
    return a[2] == b[2] and abs(a[0] - b[0]) < 2 and abs(a[1] - b[1]) < 2


def parse_positions(raw: object) -> tuple[Position, ...]:
    """Read [[x, y, z], ...], refusing anything that is not whole numbers."""
    if not isinstance(raw, list | tuple):
        raise LayoutError("positions must be a list of [x, y, z]")
    out = []
    for i, item in enumerate(raw):
        if (
            not isinstance(item, list | tuple)
            or len(item) != 3
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)
        ):
            raise LayoutError(f"tile {i}: {item!r} is not [x, y, z] in whole numbers")
        if item[2] < 0:
            raise LayoutError(f"{_describe(i, tuple(item))}: z must be 0 or more")
        out.append((item[0], item[1], item[2]))
    return tuple(out)


def validate(
    positions: tuple[Position, ...],
    labels: tuple[int, ...] | None = None,
    allow_empty: bool = False,
) -> None:
    """Raise LayoutError unless the spots make a playable layout.

    `labels` are the names used for tiles in messages (tile ids of a
    position); by default a tile is named by its index.
    """
    n = len(positions)
    name = labels or range(n)
    if n == 0 and not allow_empty:
        raise LayoutError("a layout needs at least two tiles")
    if n > MAX_TILES:
        raise LayoutError(f"{n} tiles; a layout holds at most {MAX_TILES}")
    if n % 2:
        raise LayoutError(f"{n} tiles; a layout needs an even number")
    seen: dict[tuple[int, int, int], int] = {}
    for i, pos in enumerate(positions):
        # Any overlapping spot lies in one of the 3x3 cells around this one.
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                j = seen.get((pos[0] + dx, pos[1] + dy, pos[2]))
                if j is not None:
                    raise LayoutError(
                        f"{_describe(name[j], positions[j])} and "
                        f"{_describe(name[i], pos)} "
                        f"overlap on level {pos[2]}"
                    )
        seen[pos] = i


@dataclass(frozen=True)
class Layout:
    slug: str
    name: str
    positions: tuple[Position, ...]
    # Tile names for error messages; None means the index names the tile.
    labels: tuple[int, ...] | None = field(default=None, repr=False, compare=False)
    # Relations as bitmasks over position indices; built in __post_init__.
    cover_mask: tuple[int, ...] = field(init=False, repr=False, compare=False)
    left_mask: tuple[int, ...] = field(init=False, repr=False, compare=False)
    right_mask: tuple[int, ...] = field(init=False, repr=False, compare=False)
    # Tiles whose freedom may change when this one goes: those it covers and
    # its side neighbours.
    affects_mask: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        validate(self.positions, self.labels, allow_empty=self.labels is not None)
        by_level: dict[int, list[int]] = {}
        for i, (_, _, z) in enumerate(self.positions):
            by_level.setdefault(z, []).append(i)
        cover, left, right, affects = [], [], [], []
        for pos in self.positions:
            c = lft = rgt = 0
            for j in by_level.get(pos[2] + 1, ()):
                if covers(self.positions[j], pos):
                    c |= 1 << j
            for j in by_level[pos[2]]:
                if beside(pos, self.positions[j], -2):
                    lft |= 1 << j
                elif beside(pos, self.positions[j], 2):
                    rgt |= 1 << j
            cover.append(c)
            left.append(lft)
            right.append(rgt)
        for i in range(len(self.positions)):
            a = left[i] | right[i]
            for j in by_level.get(self.positions[i][2] - 1, ()):
                if cover[j] >> i & 1:
                    a |= 1 << j
            affects.append(a)
        object.__setattr__(self, "cover_mask", tuple(cover))
        object.__setattr__(self, "left_mask", tuple(left))
        object.__setattr__(self, "right_mask", tuple(right))
        object.__setattr__(self, "affects_mask", tuple(affects))

    def __len__(self) -> int:
        return len(self.positions)

    @cached_property
    def all_mask(self) -> int:
        return (1 << len(self.positions)) - 1

    @cached_property
    def levels(self) -> int:
        return max((z for _, _, z in self.positions), default=-1) + 1

    @cached_property
    def width(self) -> int:
        """Width in tiles (half-tile units halved, rounded up)."""
        xs = [x for x, _, _ in self.positions]
        return (max(xs) - min(xs) + 2 + 1) // 2

    @cached_property
    def height(self) -> int:
        ys = [y for _, y, _ in self.positions]
        return (max(ys) - min(ys) + 2 + 1) // 2

    def is_free(self, i: int, standing: int) -> bool:
        if self.cover_mask[i] & standing:
            return False
        return not (self.left_mask[i] & standing and self.right_mask[i] & standing)

    def free_mask(self, standing: int) -> int:
        """All free tiles among `standing`."""
        return self.free_among(standing, standing)

    def free_among(self, candidates: int, standing: int) -> int:
        """The free tiles among `candidates`, tiles of `standing`."""
        # is_free inlined: every Board built (each move of a room, each
        # request of a solo game) runs this over all its standing tiles,
        # and the solver over the tiles each pair it takes might free.
        cover, left, right = self.cover_mask, self.left_mask, self.right_mask
        free = 0
        rest = candidates
        while rest:
            low = rest & -rest
            i = low.bit_length() - 1
            rest ^= low
            if not cover[i] & standing and not (
                left[i] & standing and right[i] & standing
            ):
                free |= low
        return free

    def peel_rounds(self, standing: int) -> list[int]:
        """For each standing tile, the round in which taking every free tile,
        round after round, would free it (0: free now). Tiles that lie
        alike tend to come free together, which is what the solver's
        searches over pairings start from."""
        rounds = [0] * len(self.positions)
        done = 0
        while standing:
            free = self.free_mask(standing)
            if not free:
                break
            rest = free
            while rest:
                low = rest & -rest
                rounds[low.bit_length() - 1] = done
                rest ^= low
            standing ^= free
            done += 1
        return rounds

    def blocked_reason(self, i: int, standing: int) -> str | None:
        """None if free, else "covered" or "sides" (held on both sides)."""
        if self.cover_mask[i] & standing:
            return "covered"
        if self.left_mask[i] & standing and self.right_mask[i] & standing:
            return "sides"
        return None
