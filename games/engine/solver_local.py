"""Look for a clearing by local search over pairings, for the solver's hard deals.

Once every group's pairing is fixed (which tile goes with which), the order of
the moves no longer matters: freedom is monotone, so taking any free pair of
those pairings, again and again, gets as far as any order of them would. One
pairing per group can therefore be judged by that greedy closure alone: it
clears the position (a solution) or it gets stuck with some tiles left.

The search keeps one such assignment and improves it a group at a time. Where
the closure gets stuck, each free tile waits for a partner that is not free;
only a new pairing of such a group can take that tile next, so those groups
are the ones tried. The first change seen that leaves fewer tiles is made,
else the one leaving fewest, with a short tabu on changing a group back and a
little seeded noise to get off plateaus.

It starts from each group's tiles paired by how deep they lie (the round in
which peeling every free tile, again and again, would free each). Each time a
run of steps ends, it starts again, in turn from random pairings and from
the best assignment seen so far with a few of its stuck groups changed at
random (iterated local search).

It never proves anything: a position it fails on may still be clearable.
Deterministic: the same position, pairings and seed give the same steps.
"""

from games.engine.board import iter_bits
from games.engine.layout import Layout
from games.engine.rng import Rng
from games.engine.solver_prune import near_mask

Pair = tuple[int, int]
# One group's possible pairings: each a tuple of its pairs (one pair for a
# group of two, two for a group of four).
Pairings = list[tuple[Pair, ...]]

# A group changed is not changed again for TABU steps, unless that leaves
# fewer tiles than ever. One step in RANDOM_PERCENT takes a random change.
TABU = 7
RANDOM_PERCENT = 10
# Noise added to the tiles a change leaves, so ties are broken at random.
JITTER = 3
# The search starts over every RUN steps: where it finds a clearing at all,
# it mostly does so early in a run (20 hard seeds, three generator seeds
# each, at most 1,500 steps: 52 of 60 found with runs of 200 growing by 30%,
# 48 with one long run, in a fifth more steps). Every other run starts
# from the best assignment seen (fewest tiles left) with KICK random changes
# among the groups it leaves standing, the others from random pairings: on
# 26 hard clearable seeds, eight generator seeds each, at most 2,000 steps,
# with the start by depth, 171 of 208 found against 157 with every run from
# random pairings (2, 3 and 5 changes, runs of 50 to 300 steps: much the
# same). Every run from the best alone did as well there, but lost seeds 81
# and 141 of 1..1000 to the node limit: it strays too little.
RUN = 200
KICK = 3


class PairingSearch:
    """A local search over one pairing per group, resumable: run() carries on
    where the last call stopped."""

    def __init__(
        self, layout: Layout, standing: int, domains: list[Pairings], seed: object
    ) -> None:
        self.layout = layout
        self.affects = layout.affects_mask
        self.standing = standing
        self.free = layout.free_mask(standing)
        self.domains = [d for d in domains if d]
        self.group_of = [0] * len(layout)
        # tiles[g]: group g's tiles, as a mask.
        self.tiles = [0] * len(self.domains)
        for g, pairings in enumerate(self.domains):
            for a, b in pairings[0]:
                self.group_of[a] = self.group_of[b] = g
                self.tiles[g] |= 1 << a | 1 << b
        self.rng = Rng("pairing-search", seed)
        # A tile of no group given keeps a partner that is never free (the
        # bit past the layout's last), so it is never taken.
        self.partner = [len(layout)] * len(layout)
        # frees[both tiles of a pair]: (near, {what of near stands: the
        # tiles taking the pair frees, as a mask and as a tuple}).
        self.frees: dict[int, tuple[int, dict[int, tuple[int, tuple[int, ...]]]]] = {}
        cover, left, right = layout.cover_mask, layout.left_mask, layout.right_mask
        self.near = [near_mask(m, cover, left, right) for m in self.affects]
        self.step = 0
        # The best assignment seen: its choices, and the tiles it leaves.
        self.elite: list[int] | None = None
        self.elite_left = 0
        self.runs = 1
        self.choice = self._paired_by_depth(standing)
        self._start()

    def _paired_by_depth(self, standing: int) -> list[int]:
        """For each group, the pairing whose pairs join tiles freed closest
        together if every free tile were taken, round after round (ties by a
        coin). Tiles that lie alike tend to come free together, so the
        search finds clearings from these pairings sooner than from random
        ones: on 26 hard clearable seeds, eight generator seeds each, 37 of
        208 found within 50 steps against 26, 97 within 200 against 66."""
        depth = self.layout.peel_rounds(standing)
        choice = []
        for pairings in self.domains:
            costs = [
                2 * sum(abs(depth[a] - depth[b]) for a, b in pairs) + self.rng.below(2)
                for pairs in pairings
            ]
            choice.append(costs.index(min(costs)))
        return choice

    def _restart(self) -> None:
        """Start again: from random pairings every other time, else from the
        best assignment seen, with KICK random changes among the groups of
        the tiles it leaves (random pairings too should none of those groups
        have another pairing)."""
        assert self.elite is not None
        self.runs += 1
        groups = 0
        for t in iter_bits(self.elite_left):
            groups |= 1 << self.group_of[t]
        open_ = [g for g in iter_bits(groups) if len(self.domains[g]) > 1]
        if self.runs % 2 and open_:
            self.choice = list(self.elite)
            for _ in range(KICK):
                g = open_[self.rng.below(len(open_))]
                c = self.rng.below(len(self.domains[g]) - 1)
                self.choice[g] = c + (c >= self.choice[g])
        else:
            self.choice = [self.rng.below(len(d)) for d in self.domains]
        self._start()

    def _start(self) -> None:
        """A run from self.choice, with no memory of earlier runs but the
        best assignment."""
        for g, c in enumerate(self.choice):
            self._pair_up(self.domains[g][c])
        self._close_all()
        self.best = self.now.bit_count()
        self.tabu = [-TABU - 1] * len(self.domains)
        self._note_best()
        self.run_end = self.step + RUN

    def _note_best(self) -> None:
        if self.elite is None or self.now.bit_count() < self.elite_left.bit_count():
            self.elite = list(self.choice)
            self.elite_left = self.now

    def run(self, steps: int) -> list[Pair] | None:
        """A clearing order found within `steps` more steps, or None."""
        for _ in range(steps):
            if not self.now:
                return self.order
            self.step += 1
            if self.step >= self.run_end:
                self._restart()
                continue
            changes = self._changes()
            if not changes:
                # Every group stuck has one pairing left: nothing to change.
                self._restart()
                continue
            g, c = self._pick(changes)
            self._change(g, c)
            self.tabu[g] = self.step
            self.best = min(self.best, self.now.bit_count())
            self._note_best()
        return self.order if not self.now else None

    # -- the greedy closure --------------------------------------------------
    def _pair_up(self, pairs: tuple[Pair, ...]) -> None:
        partner = self.partner
        for a, b in pairs:
            partner[a] = b
            partner[b] = a

    def _close_all(self) -> None:
        """Work out the closure of the current pairings from the start,
        keeping the order of its moves and the position before each."""
        queue = self._ready(self.standing, self.free)
        self.order: list[Pair] = []
        self.before: list[tuple[int, int, int]] = []
        self.now, self.now_free = self._close(
            self.standing, self.free, queue, self.order, self.before
        )
        # first[g]: index in order of the first move of group g.
        self.first: dict[int, int] = {}
        for i, (a, _) in enumerate(self.order):
            self.first.setdefault(self.group_of[a], i)

    def _ready(self, standing: int, free: int) -> list[int]:
        """Free standing tiles whose partner is free too, one of each pair."""
        partner = self.partner
        return [
            t
            for t in iter_bits(free & standing)
            if t < partner[t] and free >> partner[t] & 1
        ]

    def _close(
        self,
        standing: int,
        free: int,
        queue: list[int],
        order: list[Pair] | None = None,
        before: list[tuple[int, int, int]] | None = None,
    ) -> tuple[int, int]:
        """Take free pairs of the current pairings until none is left; the
        (standing, free) reached. queue: tiles whose partner is free too, at
        least one of each such pair (taken tiles in it are skipped)."""
        affects, free_among = self.affects, self.layout.free_among
        partner, frees = self.partner, self.frees
        while queue:
            if order is not None:
                # The pairs ready here, so that a trial change resuming
                # from this position need not look through every free tile.
                ready = 0
                for t in queue:
                    ready |= 1 << t
            a = queue.pop()
            if not standing >> a & 1:
                continue
            b = partner[a]
            if order is not None and before is not None:
                before.append((standing, free, ready))
                order.append((a, b))
            gone = 1 << a | 1 << b
            # Both stand and are free: ^ clears them.
            standing ^= gone
            free ^= gone
            memo = frees.get(gone)
            if memo is None:
                memo = frees[gone] = self.near[a] | self.near[b], {}
            near, seen = memo
            key = standing & near
            got = seen.get(key)
            if got is None:
                # The free mask is always exact, so which tiles were free
                # before depends on what stands near too: the tiles newly
                # freed can be kept, as a mask and one by one.
                touched = (affects[a] | affects[b]) & standing
                freed = free_among(touched, standing) & ~free
                got = seen[key] = freed, tuple(iter_bits(freed))
            freed, tiles = got
            free |= freed
            for t in tiles:
                if free >> partner[t] & 1:
                    queue.append(t)
        return standing, free

    def _left_after(self, g: int, c: int) -> int:
        """Tiles the closure leaves with group g's pairing changed to c.

        The moves before g's first one stay possible whatever g's pairing,
        so the closure resumes from the position before that move (or from
        where it got stuck, if g never moved).
        """
        pairs = self.domains[g][c]
        old = self.domains[g][self.choice[g]]
        self._pair_up(pairs)
        _, standing, free, queue = self._resume(g, pairs)
        left = self._close(standing, free, queue)[0].bit_count()
        self._pair_up(old)
        return left

    def _change(self, g: int, c: int) -> None:
        """Change group g's pairing to c, working the closure out again from
        g's first move on (any order of the same moves would do: the tiles
        it leaves are the same)."""
        pairs = self.domains[g][c]
        self.choice[g] = c
        self._pair_up(pairs)
        i, standing, free, queue = self._resume(g, pairs)
        del self.order[i:], self.before[i:]
        # The positions kept noted g's tiles as ready by their old partners.
        tiles, before = self.tiles[g], self.before
        for j, (s, f, ready) in enumerate(before):
            before[j] = s, f, ready & ~tiles | _ready_among(pairs, f)
        first = self.first
        for h in [h for h, j in first.items() if j >= i]:
            del first[h]
        self.now, self.now_free = self._close(
            standing, free, queue, self.order, self.before
        )
        for j in range(i, len(self.order)):
            first.setdefault(self.group_of[self.order[j][0]], j)

    def _resume(
        self, g: int, pairs: tuple[Pair, ...]
    ) -> tuple[int, int, int, list[int]]:
        """Where the closure picks up with g's pairing now `pairs`: the
        index in `order` of g's first move (the end, if g never moved), the
        position there, and the tiles of the pairs ready there, g's own
        worked out afresh."""
        i = self.first.get(g)
        if i is None:
            i, standing, free, ready = len(self.order), self.now, self.now_free, 0
        else:
            standing, free, ready = self.before[i]
            ready &= ~self.tiles[g]
        ready |= _ready_among(pairs, free)
        return i, standing, free, list(iter_bits(ready))

    # -- steps ---------------------------------------------------------------
    def _changes(self) -> list[tuple[int, int]]:
        """(group, pairing) for every other pairing of a group with a free
        tile where the closure got stuck."""
        seen = 0
        changes = []
        for t in iter_bits(self.now_free & self.now):
            g = self.group_of[t]
            if seen >> g & 1:
                continue
            seen |= 1 << g
            for c in range(len(self.domains[g])):
                if c != self.choice[g]:
                    changes.append((g, c))
        return changes

    def _pick(self, changes: list[tuple[int, int]]) -> tuple[int, int]:
        rng = self.rng
        if rng.below(100) < RANDOM_PERCENT:
            return changes[rng.below(len(changes))]
        best_key, best = None, changes[0]
        here = self.now.bit_count()
        # From a random place in the list, so that no group is always tried
        # first.
        i = rng.below(len(changes))
        for g, c in changes[i:] + changes[:i]:
            left = self._left_after(g, c)
            key = left + rng.below(JITTER)
            # A group changed lately may only improve to a new best.
            tabu = self.step - self.tabu[g] <= TABU and left >= self.best
            if left < here and not tabu:
                # The first improvement seen is taken: most steps of a run
                # improve (the closure left, from a random start), and
                # trying every change for the best one costs each of them
                # (steps) the whole list.
                return g, c
            if tabu:
                key += len(self.group_of)
            if best_key is None or key < best_key:
                best_key, best = key, (g, c)
        return best


def _ready_among(pairs: tuple[Pair, ...], free: int) -> int:
    """Those of `pairs` whose two tiles are free, each by its first tile."""
    ready = 0
    for a, b in pairs:
        if free >> a & 1 and free >> b & 1:
            ready |= 1 << a
    return ready
