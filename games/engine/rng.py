"""A small seeded random generator with a fixed algorithm (splitmix64).

Deals must come out byte for byte the same on every machine and Python
version, so nothing here leans on `random` (whose methods may change between
versions), on hash() (randomised per process) or on dict/set order.
"""

import hashlib
from collections.abc import Sequence
from typing import Any

_MASK = (1 << 64) - 1


class Rng:
    def __init__(self, *parts: object) -> None:
        # repr() keeps the int 7 and the string "7" apart.
        text = "\x1f".join(repr(p) for p in parts).encode()
        self.state = int.from_bytes(hashlib.sha256(text).digest()[:8], "big")

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in [0, n), by rejection so there is no modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            v = self.next64()
            if v < limit:
                return v % n

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice[T](self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]
