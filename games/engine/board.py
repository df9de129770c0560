"""A position in play: which tiles stand, which are free, take and undo.

Tiles are indices into the layout's positions. The free set is kept as a
bitmask and updated on each take from the few tiles the pair touched, since
taking tiles can only ever free others (freedom is monotone).
"""

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from games.engine.faces import GROUPS, group_of
from games.engine.layout import Layout

GROUP_INDEX = {g: i for i, g in enumerate(GROUPS)}


class MoveError(ValueError):
    """A pair that cannot be taken; `reason` says why in one word, and
    `tile` names the tile at fault when one is (to point at on screen)."""

    def __init__(self, reason: str, message: str, tile: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.tile = tile


def iter_bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@lru_cache(maxsize=256)
def _groups(faces: tuple[str, ...]) -> tuple[int, ...]:
    """Each tile's group number; a deal's boards are built again and again
    (every move of a room rebuilds its racer's), so they share this."""
    return tuple(GROUP_INDEX[group_of(f)] for f in faces)


@dataclass
class Board:
    layout: Layout
    faces: tuple[str, ...]
    standing: int = -1
    # The free tiles among `standing`, when the caller already knows them
    # (a copy, a position kept from an earlier move); else worked out here.
    free: int = -1
    history: list[tuple[int, int, int]] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        if len(self.faces) != len(self.layout):
            raise ValueError("one face per layout position is needed")
        if self.standing < 0:
            self.standing = self.layout.all_mask
        self.groups = _groups(self.faces)
        if self.free < 0:
            self.free = self.layout.free_mask(self.standing)

    # -- queries ---------------------------------------------------------
    @property
    def cleared(self) -> bool:
        return self.standing == 0

    def is_standing(self, i: int) -> bool:
        return 0 <= i < len(self.faces) and bool(self.standing >> i & 1)

    def free_tiles(self) -> list[int]:
        return list(iter_bits(self.free))

    def free_pairs(self) -> list[tuple[int, int]]:
        """Every matching pair of free tiles, in index order."""
        by_group: dict[int, list[int]] = {}
        for i in iter_bits(self.free):
            by_group.setdefault(self.groups[i], []).append(i)
        pairs = []
        for tiles in by_group.values():
            for k, a in enumerate(tiles):
                for b in tiles[k + 1 :]:
                    pairs.append((a, b))
        pairs.sort()
        return pairs

    def has_move(self) -> bool:
        seen = set()
        for i in iter_bits(self.free):
            g = self.groups[i]
            if g in seen:
                return True
            seen.add(g)
        return False

    def check_pair(self, a: int, b: int) -> None:
        """Raise MoveError unless a and b can be taken now."""
        if a == b:
            raise MoveError("same", "a tile cannot be paired with itself")
        for t in (a, b):
            if not self.is_standing(t):
                raise MoveError("gone", f"tile {t} is not on the board", t)
        for t in (a, b):
            reason = self.layout.blocked_reason(t, self.standing)
            if reason == "covered":
                raise MoveError("covered", f"tile {t} is covered", t)
            if reason == "sides":
                raise MoveError("sides", f"tile {t} is held on both sides", t)
        if self.groups[a] != self.groups[b]:
            raise MoveError(
                "mismatch", f"{self.faces[a]} does not match {self.faces[b]}"
            )

    # -- changes ---------------------------------------------------------
    def take(self, a: int, b: int) -> None:
        self.check_pair(a, b)
        self._remove(a, b)

    def _remove(self, a: int, b: int) -> None:
        """Take a pair already known to be legal."""
        self.history.append((a, b, self.free))
        gone = (1 << a) | (1 << b)
        self.standing &= ~gone
        lay = self.layout
        touched = (lay.affects_mask[a] | lay.affects_mask[b]) & self.standing
        free = self.free & ~gone
        self.free = free | lay.free_among(touched & ~free, self.standing)

    def undo(self) -> tuple[int, int]:
        a, b, free = self.history.pop()
        self.standing |= (1 << a) | (1 << b)
        self.free = free
        return a, b

    def copy(self) -> "Board":
        other = Board(self.layout, self.faces, self.standing, self.free)
        other.history = list(self.history)
        return other
