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


@lru_cache(maxsize=16)
def precedence(standing: int, layout) -> "Precedence":
    """The Precedence of a set of standing tiles, shared between solves.

    It depends on the spots alone, not the faces, so every fresh deal on a
    layout shares one, and so do a hint's checks of one position.
    """
    return Precedence(standing, layout)


class Precedence:
    def __init__(self, standing: int, layout) -> None:
        n = len(layout)
        tiles = list(iter_bits(standing))
        cover, left, right = layout.cover_mask, layout.left_mask, layout.right_mask
        up = {t: cover[t] & standing for t in tiles}
        down = {t: 0 for t in tiles}
        for t in tiles:
            for u in iter_bits(up[t]):
                down[u] |= 1 << t
        self.size = n
        self.down = [down.get(t, 0) for t in range(n)]
        self.above = _spread(closure(up), n)
        self.below = _spread(closure(down), n)
        self.lchain = _spread(closure({t: left[t] & standing for t in tiles}), n)
        self.rchain = _spread(closure({t: right[t] & standing for t in tiles}), n)
        self.left = [left[t] & standing for t in range(n)]
        self.right = [right[t] & standing for t in range(n)]
        self.z = [p[2] for p in layout.positions]
        # Tiles with neighbours on both sides: the only ones the side rule
        # of the free test can say anything about.
        self.middles = [t for t in tiles if self.left[t] and self.right[t]]
        self._masks: dict[tuple[int, int], tuple[int, int]] = {}

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

    def masks(self, a: int, b: int) -> tuple[int, int]:
        """(before, after): tiles that must go before / after the pair a, b."""
        got = self._masks.get((a, b))
        if got is None:
            got = self._masks[(a, b)] = self._work_out_masks(a, b)
        return got

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

    def order(self, standing: int, settled: list[tuple[int, int, int, int]]):
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


def _spread(d: dict[int, int], n: int) -> list[int]:
    return [d.get(t, 0) for t in range(n)]


def _reach(succ: dict[int, int], rep: dict[int, int], both: dict[int, int]):
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
    pair_group: list[int],
    comp: list[int],
) -> tuple[int, list[int], list[tuple[int, int]]]:
    """(banned, conflict, masks) for numbered pairs.

    banned: pairs that can never be taken; conflict[k]: pairs that cannot be
    in one clearing with pair k; masks[k]: its (before, after) masks.
    """
    n = len(pair_tiles)
    masks = [(0, 0)] * n
    tiles = [1 << a | 1 << b for a, b in pair_tiles]
    banned = 0
    for k, (a, b) in enumerate(pair_tiles):
        if not prec.pairable(a, b):
            banned |= 1 << k
            continue
        before, after = masks[k] = prec.masks(a, b)
        if before & after or tiles[k] & (before | after):
            banned |= 1 << k
    # Only pairs Q with P < Q can conflict with P, and P < Q needs a tile of Q,
    # or a tile that goes before Q, to go after P; or a tile of P to go before
    # Q. uses[t]: pairs using tile t; touching[t]: those and the pairs that
    # have t in their before mask.
    uses = [0] * prec.size
    for k, (a, b) in enumerate(pair_tiles):
        uses[a] |= 1 << k
        uses[b] |= 1 << k
    touching = uses[:]
    # Bits walked by hand in the loops below: this runs once per solve and
    # iter_bits was most of its cost.
    for k in range(n):
        m = masks[k][0]
        bit = 1 << k
        while m:
            low = m & -m
            m ^= low
            touching[low.bit_length() - 1] |= bit
    conflict = [0] * n
    for k in range(n):
        if banned >> k & 1:
            continue
        a, b = pair_tiles[k]
        before_k, after_k = masks[k]
        cand = touching[a] | touching[b]
        m = after_k
        while m:
            low = m & -m
            m ^= low
            cand |= touching[low.bit_length() - 1]
        cand &= ~banned & ~((1 << (k + 1)) - 1)
        group_k, comp_k, tiles_k = pair_group[k], comp[k], tiles[k]
        while cand:
            low = cand & -cand
            cand ^= low
            j = low.bit_length() - 1
            if pair_group[j] == group_k and j != comp_k:
                continue  # alternatives, never in one clearing anyway
            before_j, after_j = masks[j]
            if not (after_k & (tiles[j] | before_j) or tiles_k & before_j):
                continue
            if after_j & (tiles_k | before_k) or tiles[j] & before_k:
                conflict[k] |= low
                conflict[j] |= 1 << k
    return banned, conflict, masks
