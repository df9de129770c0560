"""Decide whether a position can be cleared, and find a clearing order.

The search runs over moves, but few moves are ever branched on:

* Freedom is monotone (taking tiles never blocks another), so when every
  standing tile of a group is free, taking them all now cannot hurt; and once
  the pairing of a group is settled, taking a pair of it as soon as both
  tiles are free cannot hurt either.
* What really has to be chosen is the pairing inside each group of four
  (three ways). When a group of four has three free tiles, every pairing of
  it contains exactly one pair of those three, so branching over those pairs
  alone is complete: no other move needs trying at that node.
* Pairs that provably cannot be part of a clearing are banned: one tile lies
  on the other, or the pair must go both before and after some tile, or it
  conflicts with a pair already settled (see solver_prune). A group left with
  one possible pairing is settled; one left with none is dead.

Standing masks proved dead are remembered, so a position reached again by
another order is not searched twice.
"""

import time
from dataclasses import dataclass

from games.engine.board import Board, iter_bits
from games.engine.rng import Rng
from games.engine.solver_prune import Precedence, pair_conflicts

DEFAULT_MAX_NODES = 2_000_000

# A node whose subtree has taken this many nodes without a result gets the
# full precedence test (about as costly as 30 plain nodes) before its next
# branch. Cheap nodes settle the easy subtrees; the test cuts the big dead
# ones, which is where a plain search loses its time.
CHECK_AFTER = 40

# Restarts: the first attempt gets FIRST_BUDGET nodes, each next one twice
# as many, with the move order shaken by up to NOISE points of score. Dead
# positions found by any attempt stay known to the later ones.
FIRST_BUDGET = 100
NOISE = 12

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
        self.cover = lay.cover_mask
        self.left = lay.left_mask
        self.right = lay.right_mask
        self.affects = lay.affects_mask
        self.standing = board.standing
        self.free = lay.free_mask(board.standing)
        self.max_nodes = max_nodes
        self.nodes = 0
        self.dead: set[int] = set()
        by_group: dict[int, int] = {}
        for i in iter_bits(board.standing):
            by_group[board.groups[i]] = by_group.get(board.groups[i], 0) | (1 << i)
        self.members = [by_group[g] for g in sorted(by_group)]
        self.group_of = [0] * len(lay)
        for g, m in enumerate(self.members):
            for t in iter_bits(m):
                self.group_of[t] = g
        self.prec = Precedence(board.standing, lay)
        # Move order: tiles with more under them first, since they hold more.
        self.weight = [m.bit_count() for m in self.prec.below]

    def _number_pairs(self) -> bool:
        """Number every possible pair; False if some group has an odd count.

        In a group of four the pairs come in complements (k, k+1): the two
        pairs of one pairing. A group of two has one pair, its own complement.
        """
        self.pair_tiles: list[Pair] = []
        self.pair_group: list[int] = []
        self.pid: dict[Pair, int] = {}
        self.comp: list[int] = []
        for g, m in enumerate(self.members):
            tiles = list(iter_bits(m))
            if len(tiles) == 2:
                couples = [((tiles[0], tiles[1]),)]
            elif len(tiles) == 4:
                a, b, c, d = tiles
                couples = [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]
            else:
                return False
            for couple in couples:
                first = len(self.pair_tiles)
                for k, pair in enumerate(couple):
                    self.pid[pair] = first + k
                    self.pair_tiles.append(pair)
                    self.pair_group.append(g)
                    self.comp.append(first + len(couple) - 1 - k)
        self.pair_gbit = [1 << g for g in self.pair_group]
        # pairings[g]: (first pid, mask of both pids) for each pairing of g.
        self.pairings: list[list[tuple[int, int]]] = [[] for _ in self.members]
        for k, c in enumerate(self.comp):
            if k <= c:
                self.pairings[self.pair_group[k]].append((k, 1 << k | 1 << c))
        return True

    def _link_groups(self) -> None:
        """neighbours[h]: groups with a pair in conflict with a pair of h."""
        self.neighbours = []
        for h in range(len(self.members)):
            linked = 0
            for _, both in self.pairings[h]:
                for k in iter_bits(both):
                    for j in iter_bits(self.conflict[k]):
                        linked |= self.pair_gbit[j]
            self.neighbours.append(list(iter_bits(linked & ~(1 << h))))

    def run(self):
        if not self._number_pairs():
            return False
        banned, self.conflict, self.masks = pair_conflicts(
            self.prec, self.pair_tiles, self.pair_group, self.comp
        )
        self._link_groups()
        # The pair of a group of two is settled from the start.
        settle = 0
        for k in range(len(self.comp)):
            if self.comp[k] == k:
                settle |= 1 << k
        state = self._propagate(banned, settle, settle | banned, self.standing)
        if state is None:
            return False
        banned, settled = state
        every = (1 << len(self.members)) - 1
        budget = FIRST_BUDGET
        attempt = 0
        while True:
            self.noise = Rng("solve", attempt) if attempt else None
            self.stop = min(self.max_nodes, self.nodes + budget)
            try:
                return self.dfs(self.standing, self.free, banned, settled, every)
            except _Limit:
                if self.stop >= self.max_nodes:
                    raise
            attempt += 1
            budget *= 2

    def _propagate(self, banned: int, settled: int, news: int, standing: int):
        """Spread what newly banned or settled pairs imply; None when dead.

        A settled pair bans every pair it conflicts with, and the other
        pairings of its group. A banned pair takes its complement with it
        (they form one pairing). A group of four left with one pairing is
        settled; with none, or a group of two whose pair is banned, the
        position is dead. Then, group against group: a pairing of a group of
        four that conflicts with every pairing still open to some other group
        is banned too (arc consistency over the pairing choices).
        """
        comp, conflict, pair_group = self.comp, self.conflict, self.pair_group
        members, pairings, gbit = self.members, self.pairings, self.pair_gbit
        changed = 0
        while True:
            while news:
                low = news & -news
                news ^= low
                k = low.bit_length() - 1
                g = pair_group[k]
                if low & settled:
                    grow = conflict[k] & ~banned
                    for q, both in pairings[g]:
                        if not both & low:
                            grow |= both & ~banned
                    banned |= grow
                    news |= grow
                if not low & banned:
                    continue
                changed |= gbit[k]
                c = 1 << comp[k]
                if not banned & c:
                    banned |= c
                    news |= c
                open_ = [
                    (q, both)
                    for q, both in pairings[g]
                    if not banned >> q & 1 and members[g] & standing
                ]
                if not open_:
                    if members[g] & standing:
                        return None
                    continue
                if len(open_) == 1 and open_[0][1] & ~settled:
                    grow = open_[0][1] & ~settled
                    settled |= grow
                    news |= grow
            if not changed:
                return banned, settled
            low = changed & -changed
            changed ^= low
            h = low.bit_length() - 1
            if not members[h] & standing:
                continue
            held = [both for q, both in pairings[h] if not banned >> q & 1]
            for g in self.neighbours[h]:
                if (members[g] & standing).bit_count() != 4:
                    continue
                for q, both in pairings[g]:
                    if banned >> q & 1:
                        continue
                    c = 0
                    for k in iter_bits(both):
                        c |= conflict[k]
                    if all(c & other for other in held):
                        banned |= both
                        news |= both

    def _remove(self, standing: int, free: int, a: int, b: int) -> tuple[int, int]:
        gone = (1 << a) | (1 << b)
        standing &= ~gone
        free &= ~gone
        cover, left, right = self.cover, self.left, self.right
        for t in iter_bits((self.affects[a] | self.affects[b]) & standing & ~free):
            if not cover[t] & standing and not (
                left[t] & standing and right[t] & standing
            ):
                free |= 1 << t
        return standing, free

    def _safe_pairs(self, g: int, standing: int, free: int, banned: int, settled: int):
        """Pairs of group g that can be taken now without loss, or None.

        All standing tiles free: take them all (as an allowed pairing). Three
        of four free with one allowed pair among them, or a settled pair with
        both tiles free: take that pair.
        """
        s = self.members[g] & standing
        f = s & free
        if f & (f - 1) == 0:
            return None
        pid = self.pid
        if f == s:
            tiles = list(iter_bits(s))
            if len(tiles) == 2:
                return [(tiles[0], tiles[1])]
            a, b, c, d = tiles
            for p, q in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
                if not banned >> pid[p] & 1:
                    return [p, q]
            return None
        if s.bit_count() == 2:
            return None
        tiles = list(iter_bits(f))
        pairs = [
            (p, q)
            for i, p in enumerate(tiles)
            for q in tiles[i + 1 :]
            if not banned >> pid[(p, q)] & 1
        ]
        if len(pairs) == 1 and (len(tiles) == 3 or settled >> pid[pairs[0]] & 1):
            return pairs
        return None

    def _take(self, standing, free, banned, settled, a, b, path, todo):
        """Take a pair and spread the consequences; None when that is dead."""
        path.append((a, b))
        s2, f2 = self._remove(standing, free, a, b)
        todo |= 1 << self.group_of[a]
        for t in iter_bits(f2 & ~free):
            todo |= 1 << self.group_of[t]
        k = self.pid[(a, b)]
        news = (1 << k | 1 << self.comp[k]) & ~settled
        if news:
            state = self._propagate(banned, settled | news, news, s2)
            if state is None:
                return None
            for q in iter_bits((state[0] ^ banned) | (state[1] ^ settled)):
                todo |= self.pair_gbit[q]
            banned, settled = state
        return s2, f2, banned, settled, todo

    def stuck(self, standing: int, settled: int) -> bool:
        pairs = []
        for k in iter_bits(settled):
            a, b = self.pair_tiles[k]
            if standing >> a & 1 and standing >> b & 1:
                pairs.append((a, b, *self.masks[k]))
        return self.prec.cycle(standing, pairs)

    def dfs(self, standing: int, free: int, banned: int, settled: int, todo: int):
        path: list[Pair] = []
        # Safe moves first, group by group (lowest first), until none is left.
        while todo:
            low = todo & -todo
            todo ^= low
            g = low.bit_length() - 1
            pairs = self._safe_pairs(g, standing, free, banned, settled)
            if not pairs:
                continue
            for a, b in pairs:
                state = self._take(standing, free, banned, settled, a, b, path, todo)
                if state is None:
                    return False
                standing, free, banned, settled, todo = state
        if not standing:
            return path
        if standing in self.dead:
            return False
        self.nodes += 1
        if self.nodes >= self.stop:
            raise _Limit
        start = self.nodes
        children = []
        for a, b in self.moves(standing, free, banned):
            after: list[Pair] = []
            state = self._take(standing, free, banned, settled, a, b, after, 0)
            if state is None:
                continue
            gain = (state[1] & ~free).bit_count() * 4 + self.weight[a] + self.weight[b]
            if self.noise:
                gain += self.noise.below(NOISE)
            children.append((-gain, a, b, state))
        children.sort()
        checked = False
        for _, a, b, state in children:
            if not checked and self.nodes - start > CHECK_AFTER:
                checked = True
                if self.stuck(standing, settled):
                    break
            rest = self.dfs(*state)
            if rest is not False:
                return path + [(a, b)] + rest
        self.dead.add(standing)
        return False

    def moves(self, standing: int, free: int, banned: int) -> list[Pair]:
        """The moves to branch on; one of them comes next in any solution."""
        best: list[Pair] | None = None
        others: list[Pair] = []
        pid = self.pid
        for m in self.members:
            f = m & free
            if f & (f - 1) == 0:
                continue
            tiles = list(iter_bits(f))
            pairs = [
                (a, b)
                for i, a in enumerate(tiles)
                for b in tiles[i + 1 :]
                if not banned >> pid[(a, b)] & 1
            ]
            if len(tiles) == 3:
                if best is None or len(pairs) < len(best):
                    best = pairs
            else:
                others += pairs
        return best if best is not None else others
