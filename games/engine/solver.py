"""Decide whether a position can be cleared, and find a clearing order.

First version: an exact depth-first search over moves with safe forced moves
and a table of standing masks already shown dead.
"""

import time
from dataclasses import dataclass

from games.engine.board import Board, iter_bits

DEFAULT_MAX_NODES = 2_000_000

Pair = tuple[int, int]


@dataclass(frozen=True)
class SolveResult:
    # True with a full solution, False proved impossible, None at the node limit.
    solvable: bool | None
    solution: tuple[Pair, ...] | None
    nodes: int
    ms: float


class _Limit(Exception):
    pass


def solve(board: Board, max_nodes: int = DEFAULT_MAX_NODES) -> SolveResult:
    start = time.perf_counter()
    search = _Search(board, max_nodes)
    try:
        found = search.run()
    except _Limit:
        found = None
    ms = (time.perf_counter() - start) * 1000
    if found is None:
        return SolveResult(None, None, search.nodes, ms)
    if found is False:
        return SolveResult(False, None, search.nodes, ms)
    return SolveResult(True, tuple(found), search.nodes, ms)


class _Search:
    def __init__(self, board: Board, max_nodes: int) -> None:
        lay = board.layout
        self.lay = lay
        self.standing = board.standing
        self.max_nodes = max_nodes
        self.nodes = 0
        self.dead: set[int] = set()
        members: dict[int, int] = {}
        for i in iter_bits(board.standing):
            members[board.groups[i]] = members.get(board.groups[i], 0) | (1 << i)
        self.members = [members[g] for g in sorted(members)]

    def run(self):
        for m in self.members:
            if m.bit_count() % 2:
                return False
        return self.dfs(self.standing, self.lay.free_mask(self.standing))

    def _remove(self, standing: int, free: int, a: int, b: int) -> tuple[int, int]:
        lay = self.lay
        gone = (1 << a) | (1 << b)
        standing &= ~gone
        free &= ~gone
        for t in iter_bits(
            (lay.affects_mask[a] | lay.affects_mask[b]) & ~free & standing
        ):
            if lay.is_free(t, standing):
                free |= 1 << t
        return standing, free

    def dfs(self, standing: int, free: int):
        path: list[Pair] = []
        # Safe moves: a group whose standing tiles are all free can go at once.
        changed = True
        while changed:
            changed = False
            for m in self.members:
                s = m & standing
                if s and s & free == s:
                    tiles = list(iter_bits(s))
                    for k in range(0, len(tiles), 2):
                        a, b = tiles[k], tiles[k + 1]
                        path.append((a, b))
                        standing, free = self._remove(standing, free, a, b)
                    changed = True
        if not standing:
            return path
        if standing in self.dead:
            return False
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _Limit
        for m in self.members:
            f = list(iter_bits(m & free))
            for i, a in enumerate(f):
                for b in f[i + 1 :]:
                    s2, f2 = self._remove(standing, free, a, b)
                    rest = self.dfs(s2, f2)
                    if rest is not False:
                        return path + [(a, b)] + rest
        self.dead.add(standing)
        return False
