"""What must happen before and after a pair is taken, worked out once.

For a pair P of tiles taken together, some tiles provably go before P and
some after P, on any legal play from the position:

* tiles on top of either tile (through any chain) go before;
* tiles under either tile (through any chain) go after;
* if both tiles lie in one row with tiles between them, those inner tiles are
  held on both sides until P goes, so they (and what lies under them) go
  after; and each end of P then has a standing neighbour on its inner side,
  so it must be freed from its outer side: the whole row beyond each end goes
  before.

Two pairs conflict when each must go before the other; they can never both be
part of a clearing. A pair that must go before itself (a tile both before and
after it) can never be taken at all. These facts hold for as long as the
tiles of both pairs stand, so the search can use them at any depth.

Every mask here is over the tiles standing at the root. Later on, a tile
above a standing tile still stands, and so does each tile of a row chain
running out from a standing tile towards another standing tile, which is why
the root masks stay true (ANDed with what still stands).
"""

from functools import lru_cache

from games.engine.board import iter_bits
from games.engine.layout import Layout


def closure(start: dict[int, int]) -> dict[int, int]:
    """Transitive closure of a relation given as tile -> mask of next tiles."""
    done: dict[int, int] = {}

    def visit(t: int) -> int:
        if t not in done:
            m = start[t]
            for u in iter_bits(start[t]):
                m |= visit(u)
            done[t] = m
        return done[t]

    for t in start:
        visit(t)
    return done


# (before, after) masks, never takeable, tiles of before, tiles of after.
PairFacts = tuple[tuple[int, int], bool, tuple[int, ...], tuple[int, ...]]


@lru_cache(maxsize=16)
def precedence(standing: int, layout: Layout) -> "Precedence":
    """The Precedence of a set of standing tiles, shared between solves.

    It depends on the spots alone, not the faces, so every fresh deal on a
    layout shares one, and so do a hint's checks of one position.
    """
    return Precedence(standing, layout)


class Precedence:
    def __init__(self, standing: int, layout: Layout) -> None:
        n = len(layout)
        tiles = list(iter_bits(standing))
        cover, left, right = layout.cover_mask, layout.left_mask, layout.right_mask
        up = {t: cover[t] & standing for t in tiles}
        down = {t: 0 for t in tiles}
        for t in tiles:
            for u in iter_bits(up[t]):
                down[u] |= 1 << t
        self.size = n
        self.tiles = tiles
        # The free tiles among them: a fresh deal's, shared as the rest is.
        self.free = layout.free_mask(standing)
        self.down = [down.get(t, 0) for t in range(n)]
        self.above = _spread(closure(up), n)
        self.below = _spread(closure(down), n)
        self.under_count = [m.bit_count() for m in self.below]
        # near[t]: the tiles whose standing decides whether the tiles that
        # taking t may free are free (those tiles, what covers and flanks
        # them); the solver remembers what a move frees by them.
        self.near = [
            near_mask(layout.affects_mask[t], cover, left, right) for t in range(n)
        ]
        self.lchain = _spread(closure({t: left[t] & standing for t in tiles}), n)
        self.rchain = _spread(closure({t: right[t] & standing for t in tiles}), n)
        self.left = [left[t] & standing for t in range(n)]
        self.right = [right[t] & standing for t in range(n)]
        self.z = [p[2] for p in layout.positions]
        # Tiles with neighbours on both sides: the only ones the side rule
        # of the free test can say anything about.
        self.middles = [t for t in tiles if self.left[t] and self.right[t]]
        self._facts: dict[tuple[int, int], PairFacts] = {}

    def pairable(self, a: int, b: int) -> bool:
        """False when one tile lies on the other through a chain of covers."""
        return not (self.below[a] >> b & 1 or self.below[b] >> a & 1)

    def inner(self, a: int, b: int) -> int:
        """Tiles between a (on the left) and b in a row, held while both stand."""
        m = self.rchain[a] & self.lchain[b]
        ends_l, ends_r = m | 1 << a, m | 1 << b
        while m:
            keep = 0
            for t in iter_bits(m):
                if self.left[t] & ends_l and self.right[t] & ends_r:
                    keep |= 1 << t
            if keep == m:
                break
            m, ends_l, ends_r = keep, keep | 1 << a, keep | 1 << b
        return m

    def facts(self, pair: tuple[int, int]) -> PairFacts:
        """What taking the pair implies, worked out once per pair of spots:
        its (before, after) masks ((0, 0) when one tile lies on the other),
        whether it can never be taken, and the tiles of each mask."""
        got = self._facts.get(pair)
        if got is None:
            got = self._facts[pair] = self._work_out_facts(*pair)
        return got

    def _work_out_facts(self, a: int, b: int) -> PairFacts:
        if not self.pairable(a, b):
            return (0, 0), True, (), ()
        before, after = self._work_out_masks(a, b)
        # Never takeable: a tile must go both before and after the pair, or a
        # tile of the pair must go before or after it.
        if before & after or (1 << a | 1 << b) & (before | after):
            return (before, after), True, (), ()
        return (before, after), False, tuple(iter_bits(before)), tuple(iter_bits(after))

    def _work_out_masks(self, a: int, b: int) -> tuple[int, int]:
        before = self.above[a] | self.above[b]
        after = self.below[a] | self.below[b]
        if self.z[a] == self.z[b]:
            for lo, hi in ((a, b), (b, a)):
                if not self.rchain[lo] >> hi & 1:
                    continue
                mid = self.inner(lo, hi)
                for t in iter_bits(mid):
                    after |= 1 << t | self.below[t]
                if self.right[lo] & (mid | 1 << hi):
                    before |= self.lchain[lo]
                if self.left[hi] & (mid | 1 << lo):
                    before |= self.rchain[hi]
        for t in iter_bits(before & ~(self.above[a] | self.above[b])):
            before |= self.above[t]
        return before, after

    def order(  # noqa: C901 (one of the solver's long ones, read best whole)
        self, standing: int, settled: list[tuple[int, int, int, int]]
    ) -> tuple[dict[int, int], dict[int, int]] | None:
        """What must go after what, or None if the settled pairs cannot all go.

        Returns (reach, rep): reach[rep.get(t, t)] is the mask of tiles that
        must go strictly after tile t.

        settled: (a, b, before, after) for each settled pair still standing.
        Builds "goes strictly before" between events (a settled pair is one
        event, any other tile its own) from covers and the pairs' masks, and
        adds the side rule: a tile held on both sides that goes before some
        right neighbour must be freed from the left, so its left neighbours
        go before it (and the mirror image). A cycle means no order exists.
        """
        rep: dict[int, int] = {}
        both: dict[int, int] = {}
        succ: dict[int, int] = {}
        down = self.down
        for t in iter_bits(standing):
            succ[t] = down[t] & standing
        for a, b, _, after in settled:
            ab = 1 << a | 1 << b
            rep[b] = a
            both[a] = both[b] = ab
            succ[a] |= succ.pop(b) | after & standing
        for a, b, before, _ in settled:
            ab = 1 << a | 1 << b
            for u in iter_bits(before & standing):
                succ[rep.get(u, u)] |= ab
        middles = [t for t in self.middles if standing >> t & 1]
        left, right = self.left, self.right
        while True:
            reach = _reach(succ, rep, both)
            if reach is None:
                return None
            grown = False
            for x in middles:
                rx = reach[rep.get(x, x)] | both.get(x, 1 << x)
                lx, rgt = left[x] & standing, right[x] & standing
                late_l, late_r = lx & rx, rgt & rx
                if late_l and late_r:
                    return None
                for side in (lx if late_r else 0, rgt if late_l else 0):
                    for u in iter_bits(side):
                        ru = rep.get(u, u)
                        if not reach[ru] >> x & 1:
                            succ[ru] |= 1 << x
                            grown = True
            if not grown:
                return reach, rep


def near_mask(
    affected: int,
    cover: tuple[int, ...],
    left: tuple[int, ...],
    right: tuple[int, ...],
) -> int:
    """The tiles whose standing decides which of `affected` are free: those
    tiles and what covers and flanks them."""
    near = affected
    for u in iter_bits(affected):
        near |= cover[u] | left[u] | right[u]
    return near


def _spread(d: dict[int, int], n: int) -> list[int]:
    return [d.get(t, 0) for t in range(n)]


def _reach(
    succ: dict[int, int], rep: dict[int, int], both: dict[int, int]
) -> dict[int, int] | None:
    """Tiles strictly after each event, or None if some event is after itself."""
    reach: dict[int, int] = {}
    active: set[int] = set()

    def visit(r: int) -> int | None:
        active.add(r)
        acc = succ[r]
        for u in iter_bits(succ[r]):
            ru = rep.get(u, u)
            if ru in active:
                return None
            got = reach.get(ru)
            if got is None:
                got = visit(ru)
                if got is None:
                    return None
            acc |= got | both.get(ru, 1 << ru)
        active.discard(r)
        reach[r] = acc
        return acc

    for r in succ:
        if r not in reach and visit(r) is None:
            return None
    for r, m in reach.items():
        if m & both.get(r, 1 << r):
            return None
    return reach


def pair_conflicts(
    prec: Precedence,
    pair_tiles: list[tuple[int, int]],
    rivals: list[int],
) -> tuple[int, list[int], list[tuple[int, int]]]:
    """(banned, conflict, masks) for numbered pairs.

    banned: pairs that can never be taken; conflict[k]: pairs that cannot be
    in one clearing with pair k; masks[k]: its (before, after) masks.
    rivals[k]: the pairs of k's group outside its pairing, never in one
    clearing with it anyway, so left out of its conflicts.
    """
    facts = [prec.facts(pair) for pair in pair_tiles]
    masks = [f[0] for f in facts]
    banned = 0
    # P must go before Q when a tile of Q, or a tile that goes before Q, goes
    # after P, or a tile of P goes before Q; two pairs conflict when each must
    # go before the other. Tables by tile over the pairs still allowed: uses[t]
    # (pairs taking t), waits[t] (pairs t must go before), holds[t] (pairs t
    # must go after); then the pairs P goes before, and those before P, are
    # unions of table rows over the few tiles of P's own masks.
    size = prec.size
    uses, waits, holds = [0] * size, [0] * size, [0] * size
    for k, (a, b) in enumerate(pair_tiles):
        bit = 1 << k
        _, never, before_tiles, after_tiles = facts[k]
        if never:
            banned |= bit
            continue
        uses[a] |= bit
        uses[b] |= bit
        for t in before_tiles:
            waits[t] |= bit
        for t in after_tiles:
            holds[t] |= bit
    conflict = [0] * len(pair_tiles)
    for k, (a, b) in enumerate(pair_tiles):
        if banned >> k & 1:
            continue
        _, _, before_tiles, after_tiles = facts[k]
        goes_before = waits[a] | waits[b]
        for t in after_tiles:
            goes_before |= uses[t] | waits[t]
        comes_after = holds[a] | holds[b]
        for t in before_tiles:
            comes_after |= uses[t] | holds[t]
        conflict[k] = goes_before & comes_after & ~rivals[k]
    return banned, conflict, masks
