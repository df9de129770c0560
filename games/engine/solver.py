"""Decide whether a position can be cleared, and find a clearing order.

The search runs over moves, but few moves are ever branched on:

* Freedom is monotone (taking tiles never blocks another), so when every
  standing tile of a group is free, taking them all now cannot hurt; and once
  the pairing of a group is settled, taking a pair of it as soon as both
  tiles are free cannot hurt either. These safe moves are made without
  branching.
* What really has to be chosen is the pairing inside each group of four
  (three ways). When a group of four has three free tiles, every pairing of
  it contains exactly one pair of those three, so branching over those pairs
  alone is complete: no other move needs trying at that node.
* Pairs that provably cannot be part of a clearing are banned before and
  during the search: one tile lies on the other, a tile must go both before
  and after the pair, two pairs must each go before the other, a pairing of
  one group clashes with every pairing left to another (see solver_prune).
  A group left with one possible pairing is settled; with none, dead.

Standing masks proved dead are remembered, so a position reached again by
another order is not searched twice; that table is kept across restarts.

Restarts are the other half. A search that goes wrong early spends its time
proving a big dead subtree that a different early choice avoids altogether,
so the search runs in short attempts with growing node budgets and a move
order shaken a little by a seeded generator (the same position always gets
the same attempts, so the result is deterministic). A proof of "cannot be
cleared" is an attempt that exhausts its tree within budget; before the
second attempt the root gets a full precedence analysis, which settles some
of those proofs outright.

On deals the first attempts do not settle, two searches over pairings take
turns with the attempts: a local search (solver_local), which only ever
finds clearings, and a search that learns a clause from every deadlock it
meets (solver_clauses), which decides the deals neither the attempts nor the
local search do, proofs of "cannot be cleared" above all.
"""

import time
from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import NamedTuple

from games.engine.board import Board, iter_bits
from games.engine.rng import Rng
from games.engine.solver_clauses import ClauseSearch, Found
from games.engine.solver_local import PairingSearch
from games.engine.solver_prune import pair_conflicts, precedence

# About 3-4 s of search in CPython on the development machine; no random
# Turtle deal of seeds 1..1000 needs more than 25,000 nodes (see
# docs/PERFORMANCE.md).
DEFAULT_MAX_NODES = 200_000

# Attempt budgets: FIRST_BUDGET nodes (a straight dive needs about 35), then
# each attempt GROWTH times the last. Many short attempts beat a few long
# ones on these deals (measured: at 20,000 nodes 10% undecided against 17%
# with budgets doubling from 1,000).
FIRST_BUDGET = 50
GROWTH = 1.1
# Move scores: FREED_WEIGHT per tile the move frees, PARTNER_WEIGHT more
# for each of those with another free tile of its group, plus the tiles under
# the pair, minus WAITING_WEIGHT per tile that must go before the other two
# tiles of the group (they now have to pair with each other). The first
# attempt (no noise, 50 nodes) clears 20% of seeds 1..1000 with the first
# two terms alone, 27% with the waiting term, 31% with the partner term too.
FREED_WEIGHT = 4
PARTNER_WEIGHT = 4
WAITING_WEIGHT = 2
# From the second attempt on, seeded noise of up to NOISE_FIRST points, NOISE_STEP
# more each attempt, at most NOISE_MAX, is added to the scores. Attempts that
# differ a lot find more ways through hard deals than attempts close to the
# first (noise of 40 to 100 points decided half of a sample of hard seeds, 8
# points a fifth), but the typical deal is found sooner with small noise
# (seeds 1..500: median 141-200 nodes with this ramp, 200-275 with 40 flat).
NOISE_FIRST = 10
NOISE_STEP = 1
NOISE_MAX = 60
# After LOCAL_AFTER nodes, a local search over pairings (solver_local) takes
# turns with the attempts; it finds clearings of hard deals the attempts
# miss, most medium ones sooner than the clause search below (180 of the
# 250 seeds of 1..1000 over 600 nodes), so each turn is LOCAL_SHARE times
# the attempt before it; LATE_SHARE once it has run LATE_STEPS steps, by
# when it has found most of what it finds. Its steps are counted as
# STEP_NODES nodes each, about what one costs in time (timed: 9-11 nodes a
# step on seeds 51, 90, 156 and 410; 8 and 10 gave the same times). The
# measurements behind these numbers, from before the clause search, are in
# docs/performance-log.md (fourth to ninth passes).
LOCAL_AFTER = 600
LOCAL_SHARE = 4
LATE_SHARE = 0.125
LATE_STEPS = 3000
STEP_NODES = 8
# After CLAUSES_AFTER nodes, the clause search over pairings (solver_clauses)
# takes turns too, CLAUSES_SHARE times the attempt before it each turn. It
# decides every deal the others leave (the proofs of unclearable deals
# above all: seed 90 in about 200 conflicts, where the attempts alone
# needed 500,129 nodes), and it is the fastest of the three on most slow
# deals, so it gets most of the time once a deal is slow: seeds 1..1000
# over 250 ms (two processes, idle) 16 with a share of 4, 12 with 8, 9 with
# 12, 6-7 with 24 to 48 (seeds the local search finds grow slower beyond);
# without the local search, 14. Its cost is counted by the removals its
# play-outs make, WORK_PER_NODE to a node (measured: 1.65 us a removal,
# all included, against 17.5 us a node of the attempts).
CLAUSES_AFTER = 600
CLAUSES_SHARE = 24
WORK_PER_NODE = 10

Pair = tuple[int, int]
# A position in the search and the groups worth a new look for safe moves:
# (standing, free, banned, settled, todo), as _take hands it on.
State = tuple[int, int, int, int, int]


@dataclass(frozen=True)
class SolveResult:
    # True with a full solution, False proved impossible, None at the node limit.
    solvable: bool | None
    solution: tuple[Pair, ...] | None
    nodes: int
    ms: float


class _Limit(Exception):
    pass


# A child's score, for sorting children: a C function, not a Python one.
_first = itemgetter(0)


def _second(item: tuple[int, Pair]) -> Pair:
    return item[1]


class Solver:
    """Solves a position, and positions one pair on from it.

    The set-up (pair numbering, conflicts, the analysis of the root) and the
    table of dead positions are shared by every call, which is what a hint
    needs: it checks several candidate pairs of one position.
    """

    def __init__(self, board: Board) -> None:
        self._search = _Search(board)

    def solve(
        self,
        max_nodes: int = DEFAULT_MAX_NODES,
        first: Pair | None = None,
        clauses_after: int = CLAUSES_AFTER,
    ) -> SolveResult:
        """Solve the position, or the one after taking the free pair `first`
        (its solution then starts with `first`); the board is only read.
        `clauses_after`: nodes before the clause search joins in."""
        start = time.perf_counter()
        search = self._search
        search.nodes = 0
        search.clauses_after = clauses_after
        try:
            found = search.run(max_nodes, first)
        except _Limit:
            found = None
        ms = (time.perf_counter() - start) * 1000
        if found is None:
            return SolveResult(None, None, search.nodes, ms)
        if found is False:
            return SolveResult(False, None, search.nodes, ms)
        return SolveResult(True, tuple(found), search.nodes, ms)


def solve(board: Board, max_nodes: int = DEFAULT_MAX_NODES) -> SolveResult:
    """Solve from board.standing; the board itself is only read."""
    return Solver(board).solve(max_nodes)


class Move(NamedTuple):
    """A pair as a node branches on it, with what scoring it needs."""

    pair: int  # its number
    bit: int  # 1 << its number
    tiles: int  # its two tiles' mask
    touched: int  # tiles whose freedom taking it may change
    under: int  # how many tiles lie under its two (through any chain)
    waiting: int  # the tiles that must go before its complement
    near: int  # the tiles whose standing decides which tiles it frees
    # (the tiles it frees, the groups whose free tiles it changes), by which
    # of `near` stand once it is taken.
    frees: dict[int, tuple[int, int]]


class _Shape(NamedTuple):
    """How a group's pairs are numbered. A tile is named by its index among
    the group's tiles (in ascending order), a pair by its offset from the
    group's first pair number."""

    pairs: tuple[Pair, ...]  # the two tiles of each pair
    comp: tuple[int, ...]  # each pair's complement
    firsts: tuple[int, ...]  # the first pair of each pairing
    tile_order: tuple[tuple[int, Pair], ...]  # (pair, its tiles) in tile order


def _shape(pairs: tuple[Pair, ...], comp: tuple[int, ...]) -> _Shape:
    firsts = tuple(k for k, c in enumerate(comp) if k <= c)
    return _Shape(pairs, comp, firsts, tuple(sorted(enumerate(pairs), key=_second)))


# A group of two: one pair, its own complement.
TWO = _shape(((0, 1),), (0,))
# A group of four tiles a < b < c < d: the pairings (a, b) (c, d), (a, c)
# (b, d) and (a, d) (b, c).
FOUR = _shape(((0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)), (1, 0, 3, 2, 5, 4))


class _Search:
    """The search behind Solver. State is passed down as ints: standing and
    free tile masks, and banned and settled masks over numbered pairs (bit k
    is pair k)."""

    def __init__(self, board: Board) -> None:
        lay = self.layout = board.layout
        self.affects = lay.affects_mask
        self.standing = board.standing
        self.prec = precedence(board.standing, lay)
        self.free = self.prec.free
        self.nodes = 0
        self.clauses_after = CLAUSES_AFTER
        self.dead: set[int] = set()
        # (banned, settled) at the root once worked out; None: dead there.
        self.root: tuple[int, int] | None = None
        self.root_done = False
        self.root_deduced = False
        # Each group's standing tiles, groups in order of their number.
        by_group: dict[int, list[int]] = {}
        groups = board.groups
        for i in self.prec.tiles:
            if groups[i] in by_group:
                by_group[groups[i]].append(i)
            else:
                by_group[groups[i]] = [i]
        self.group_tiles = [by_group[g] for g in sorted(by_group)]
        self.members = [sum(1 << t for t in ts) for ts in self.group_tiles]
        self.group_of = [0] * len(lay)
        # group_mask[t]: the standing tiles of t's group.
        self.group_mask = [0] * len(lay)
        for g, ts in enumerate(self.group_tiles):
            for t in ts:
                self.group_of[t] = g
                self.group_mask[t] = self.members[g]
        self.tile_gbit = [1 << g for g in self.group_of]
        # Tiles with more under them hold more up: take them early.
        self.weight = self.prec.under_count

    # -- setting up --------------------------------------------------------
    def _number_pairs(self) -> None:
        """Number every possible pair (groups of two or four tiles).

        A group's pairs have consecutive numbers. In a group of four they come
        in complements, the two pairs of one pairing (comp[k] is the other
        one). A group of two has one pair, its own complement.
        """
        self.pair_tiles: list[Pair] = []
        self.pair_group: list[int] = []
        self.comp: list[int] = []
        # g's pair numbers in tile order, which is the order ties in a move's
        # score keep.
        self.tile_order: list[list[int]] = []
        # pairings[g]: (first pair, mask of both pairs) for each pairing of g.
        self.pairings: list[list[tuple[int, int]]] = []
        self.group_pairs: list[int] = []
        for g, tiles in enumerate(self.group_tiles):
            first = len(self.pair_tiles)
            shape = TWO if len(tiles) == 2 else FOUR
            self.pair_tiles += [(tiles[i], tiles[j]) for i, j in shape.pairs]
            self.pair_group += [g] * len(shape.pairs)
            self.comp += [first + c for c in shape.comp]
            self.tile_order.append([first + k for k, _ in shape.tile_order])
            self.pairings.append(
                [
                    (first + k, (1 << k | 1 << shape.comp[k]) << first)
                    for k in shape.firsts
                ]
            )
            self.group_pairs.append(((1 << len(shape.pairs)) - 1) << first)
        self.pid = {pair: k for k, pair in enumerate(self.pair_tiles)}
        self.pair_gbit = [1 << g for g in self.pair_group]
        self.pairing_of = [1 << k | 1 << c for k, c in enumerate(self.comp)]
        # rivals[k]: the pairs of k's group outside its pairing.
        self.rivals = [
            self.group_pairs[g] & ~self.pairing_of[k]
            for k, g in enumerate(self.pair_group)
        ]

    def _link_groups(self) -> None:
        """neighbours[h]: other groups with a pair in conflict with one of h."""
        linked = [0] * len(self.members)
        # Conflicts are few (a pair in twelve has one), so go by those.
        for k, conflict in enumerate(self.conflict):
            h = self.pair_group[k]
            # A whole group at a time: its pairs are numbered in a row.
            while conflict:
                g = self.pair_group[(conflict & -conflict).bit_length() - 1]
                linked[h] |= 1 << g
                conflict &= ~self.group_pairs[g]
        self.neighbours = [list(iter_bits(m & ~(1 << h))) for h, m in enumerate(linked)]

    def _list_moves(self) -> None:
        """group_moves[g]: every pair of g in tile order, as a Move, so a node
        finds the free pairs of a group by masks alone and scores them from
        what each pair's tiles imply, worked out here once."""
        affects, weight, masks = self.affects, self.weight, self.masks
        near = self.prec.near
        self.group_moves = []
        for pairs in self.tile_order:
            moves = []
            for k in pairs:
                a, b = self.pair_tiles[k]
                moves.append(
                    Move(
                        k,
                        1 << k,
                        1 << a | 1 << b,
                        affects[a] | affects[b],
                        weight[a] + weight[b],
                        masks[self.comp[k]][0],
                        near[a] | near[b],
                        {},
                    )
                )
            self.group_moves.append(moves)
        self.move_of = {move.pair: move for moves in self.group_moves for move in moves}
        self.within: list[dict[int, list[Move]]] = [{} for _ in self.group_moves]

    def _moves_within(self, g: int, f: int) -> list[Move]:
        """g's moves with both tiles in f (two tiles or more), in tile order.

        Remembered in within[g][f], since a group has few sets of free
        tiles; callers look there first, and the list is never empty.
        """
        got = [move for move in self.group_moves[g] if move.tiles & f == move.tiles]
        self.within[g][f] = got
        return got

    def _set_up(self) -> None:
        """Number the pairs, find their conflicts, spread them at the root."""
        self.root_done = True
        self._number_pairs()
        banned, self.conflict, self.masks = pair_conflicts(
            self.prec, self.pair_tiles, self.rivals
        )
        self._link_groups()
        # What settling pair k bans: the pairs it conflicts with and the
        # other pairings of its group. What pairing k's clashes are.
        self.kill = [c | r for c, r in zip(self.conflict, self.rivals, strict=True)]
        self.clash = [
            self.conflict[k] | self.conflict[c] for k, c in enumerate(self.comp)
        ]
        self._list_moves()
        # The pair of a group of two is settled from the start.
        settle = 0
        for k, c in enumerate(self.comp):
            if c == k:
                settle |= 1 << k
        self.root = self._propagate(banned, settle, settle | banned, self.standing)

    def run(self, max_nodes: int, first: Pair | None) -> Found:  # noqa: C901 (one of the solver's long ones, read best whole)
        self.max_nodes = max_nodes
        counts = [m.bit_count() for m in self.members]
        if any(n % 2 for n in counts):
            return False
        standing, free = self.standing, self.free
        prefix: list[Pair] = []
        if max(counts, default=0) > 4:
            # Not from a real set (which has four of a group at most): no
            # pairing shortcuts, just every move.
            self.stop = self.max_nodes
            if first is not None:
                prefix.append(first)
                standing, free = self._remove(standing, free, *first)
            rest = self._every_move(standing, free)
            return rest if rest is False else prefix + rest
        if not self.root_done:
            self._set_up()
        if self.root is None:
            return False
        every = (1 << len(self.members)) - 1
        banned, settled = self.root
        todo = every
        if first is not None:
            a, b = sorted(first)
            k = self.pid[(a, b)]
            if banned >> k & 1:
                return False  # no clearing of the position takes this pair
            # By tiles, not through the move's remembered frees: the caller's
            # pair is not known to be free. Every group is in todo already.
            after = (*self._remove(standing, free, a, b), every)
            state = self._take(standing, free, banned, settled, k, prefix, todo, after)
            if state is None:
                return False
            standing, free, banned, settled, todo = state
        budget: float = FIRST_BUDGET
        attempt = 0
        clauses: ClauseSearch | None = None
        local: PairingSearch | None = None
        while True:
            if self.nodes >= self.max_nodes:
                # The last turn of the other searches used up the budget.
                raise _Limit
            self.noise = Rng("solve", attempt) if attempt else None
            self.noise_max = min(NOISE_MAX, NOISE_FIRST + NOISE_STEP * attempt)
            self.stop = min(self.max_nodes, self.nodes + int(budget))
            try:
                # Every group is in todo here, so none needs to be in `multi`.
                rest = self.dfs(standing, free, banned, settled, todo, 0)
            except _Limit:
                if self.stop >= self.max_nodes:
                    raise
            else:
                return rest if rest is False else prefix + rest
            if attempt == 0:
                # Not an easy one: worth the full analysis of where it starts.
                # At the root it runs once; what it finds holds for every
                # later call too.
                if first is not None:
                    state = self.deduce(standing, banned, settled)
                elif not self.root_deduced:
                    self.root_deduced = True
                    state = self.root = self.deduce(standing, banned, settled)
                else:
                    state = self.root
                if state is None:
                    return False
                banned, settled = state
            if self.nodes >= LOCAL_AFTER:
                if local is None:
                    domains = self.domains(standing, banned)
                    local = PairingSearch(self.layout, standing, domains, False)
                rest = self.local_turn(local, budget)
                if rest is not None:
                    return prefix + rest
            if self.nodes >= self.clauses_after:
                if clauses is None:
                    clauses = self.clause_search(standing, banned)
                rest = self.clause_turn(clauses, budget)
                if rest is not None:
                    return rest if rest is False else prefix + rest
            attempt += 1
            budget *= GROWTH

    def local_turn(self, local: PairingSearch, budget: float) -> list[Pair] | None:
        """Run the local search for its share of `budget` nodes."""
        share = LOCAL_SHARE if local.step < LATE_STEPS else LATE_SHARE
        steps = int(min(budget * share, self.max_nodes - self.nodes))
        steps //= STEP_NODES
        before = local.step
        found = local.run(steps)
        self.nodes += (local.step - before) * STEP_NODES
        return found

    def clause_search(self, standing: int, banned: int) -> ClauseSearch:
        """A ClauseSearch of the position, with the pairings and conflicts
        left once `banned` is struck out."""
        pair_tiles = self.pair_tiles
        clashes = []
        for k, conflict in enumerate(self.conflict):
            if not banned >> k & 1:
                for q in iter_bits(conflict & ~banned):
                    if k < q:
                        clashes.append((pair_tiles[k], pair_tiles[q]))
        domains = self.domains(standing, banned)
        return ClauseSearch(self.layout, standing, domains, clashes, self.prec.near)

    def clause_turn(self, clauses: ClauseSearch, budget: float) -> Found | None:
        """Run the clause search for its share of `budget` nodes."""
        nodes = min(budget * CLAUSES_SHARE, self.max_nodes - self.nodes)
        before = clauses.work
        found = clauses.run(int(nodes * WORK_PER_NODE))
        # A turn ends after the conflict that crosses its share, so it may
        # run a little over; the count stops at the limit, which callers
        # sharing one budget (the hint) rely on.
        spent = (clauses.work - before) // WORK_PER_NODE
        self.nodes = min(self.max_nodes, self.nodes + spent)
        return found

    def domains(self, standing: int, banned: int) -> list[list[tuple[Pair, ...]]]:
        """For each group, the pairings of its standing tiles not banned."""
        domains: list[list[tuple[Pair, ...]]] = []
        for g, m in enumerate(self.members):
            s = m & standing
            if s.bit_count() == 2:
                a, b = iter_bits(s)
                domains.append([((a, b),)])
            elif s:
                domains.append(
                    [
                        (self.pair_tiles[k], self.pair_tiles[self.comp[k]])
                        for k, _ in self.pairings[g]
                        if not banned >> k & 1
                    ]
                )
        return domains

    # -- what follows from banned and settled pairs -------------------------
    def _propagate(  # noqa: C901 (one of the solver's long ones, read best whole)
        self, banned: int, settled: int, news: int, standing: int
    ) -> tuple[int, int] | None:
        """Spread what newly banned or settled pairs imply; None when dead.

        A settled pair bans every pair it conflicts with, and the other
        pairings of its group. A banned pair takes its complement with it
        (they form one pairing). A group left with one pairing is settled;
        with none, the position is dead. Then, group against group: a
        pairing of a group of four that conflicts with every pairing still
        open to some other group is banned too (arc consistency).
        """
        pair_group, pairing_of, kill = self.pair_group, self.pairing_of, self.kill
        members, group_pairs, gbit = self.members, self.group_pairs, self.pair_gbit
        pairings, neighbours, clashes = self.pairings, self.neighbours, self.clash
        rivals, conflict = self.rivals, self.conflict
        changed = 0
        while True:
            while news:
                low = news & -news
                news ^= low
                k = low.bit_length() - 1
                if low & settled:
                    grow = kill[k] & ~banned
                    banned |= grow
                    news |= grow & conflict[k]
                    # The other pairings of k's group fall with it, and all
                    # that follows from them is that the group changed (their
                    # complements fall too, and what is left of the group is
                    # k's pairing, settled): they need no turn in the news.
                    if grow & rivals[k]:
                        changed |= gbit[k]
                if not low & banned:
                    continue
                changed |= gbit[k]
                rest = pairing_of[k] & ~banned
                banned |= rest
                news |= rest
                g = pair_group[k]
                if not members[g] & standing:
                    continue
                # Bans go by whole pairings, so once the news is spread what
                # is left of a group is a union of its pairings.
                allowed = group_pairs[g] & ~banned
                if not allowed:
                    return None
                one = pairing_of[(allowed & -allowed).bit_length() - 1]
                if allowed == one and one & ~settled:
                    settled |= one
                    news |= one
            if not changed:
                return banned, settled
            low = changed & -changed
            changed ^= low
            h = low.bit_length() - 1
            if not members[h] & standing or not neighbours[h]:
                continue
            held = [both for q, both in pairings[h] if not banned >> q & 1]
            for g in neighbours[h]:
                if (members[g] & standing).bit_count() != 4:
                    continue
                for q, both in pairings[g]:
                    if banned >> q & 1:
                        continue
                    clash = clashes[q]
                    for other in held:
                        if not clash & other:
                            break
                    else:
                        banned |= both
                        news |= both

    def deduce(  # noqa: C901 (one of the solver's long ones, read best whole)
        self, standing: int, banned: int, settled: int
    ) -> tuple[int, int] | None:
        """The full precedence analysis: (banned, settled) grown, or None.

        Orders the tiles as far as covers, rows and settled pairs force it
        (Precedence.order); a pair whose one tile must go before the other
        can never be taken, so it is banned, which may settle more groups and
        so force more order. Repeats until nothing changes. Costs a few
        milliseconds, so it runs once, at the root of a hard position.
        """
        pid = self.pid
        while True:
            pairs = []
            for k in iter_bits(settled):
                a, b = self.pair_tiles[k]
                if standing >> a & 1 and standing >> b & 1:
                    pairs.append((a, b, *self.masks[k]))
            found = self.prec.order(standing, pairs)
            if found is None:
                return None
            reach, rep = found
            news = 0
            for m in self.members:
                s = m & standing
                if s.bit_count() != 4:
                    continue
                tiles = list(iter_bits(s))
                for i, a in enumerate(tiles):
                    after_a = reach[rep.get(a, a)]
                    for b in tiles[i + 1 :]:
                        k = pid[(a, b)]
                        if banned >> k & 1:
                            continue
                        if after_a >> b & 1 or reach[rep.get(b, b)] >> a & 1:
                            news |= 1 << k
            if not news:
                return banned, settled
            before = settled
            state = self._propagate(banned | news, settled, news, standing)
            if state is None or state[1] == before:
                return state
            banned, settled = state

    # -- moves ---------------------------------------------------------------
    def _remove(self, standing: int, free: int, a: int, b: int) -> tuple[int, int]:
        gone = (1 << a) | (1 << b)
        standing &= ~gone
        free &= ~gone
        m = (self.affects[a] | self.affects[b]) & standing & ~free
        return standing, free | self.layout.free_among(m, standing)

    def _after(self, move: Move, standing: int, free: int) -> tuple[int, int, int]:
        """(standing, free, groups whose free tiles changed) once `move`, a
        pair of free tiles, is taken.

        Its tiles stand and are free, so ^ clears them as & ~ would, in fewer
        big-int operations. The free mask is always exactly the free tiles of
        the standing ones, so what the move frees depends on what stands
        near it alone, and is remembered by that.
        """
        s2 = standing ^ move.tiles
        got = move.frees.get(s2 & move.near)
        if got is None:
            got = self._frees(move, s2, free)
        freed, changed = got
        return s2, free ^ move.tiles | freed, changed

    def _frees(self, move: Move, s2: int, free: int) -> tuple[int, int]:
        """(the tiles taking `move` frees, the groups whose free tiles that
        changes), leaving s2 standing, from a position whose free tiles are
        `free`; remembered in move.frees."""
        tile_gbit = self.tile_gbit
        freed = self.layout.free_among(move.touched & s2 & ~free, s2)
        changed = tile_gbit[self.pair_tiles[move.pair][0]]
        for t in iter_bits(freed):
            changed |= tile_gbit[t]
        got = move.frees[s2 & move.near] = freed, changed
        return got

    def _safe_pairs(
        self, g: int, standing: int, free: int, banned: int, settled: int
    ) -> Sequence[int]:
        """Pairs (by number) of group g that can be taken now without loss.

        All standing tiles free: take them all (as an allowed pairing). Three
        of four free with one allowed pair among them, or a settled pair with
        both tiles free: take that pair. The caller has checked that g has
        two free tiles.
        """
        s = self.members[g] & standing
        f = s & free
        if s.bit_count() == 2:
            if f != s:
                return ()
            # The one move within the two tiles.
            (move,) = self.within[g].get(s) or self._moves_within(g, s)
            return (move.pair,)
        if f == s:
            for k, _ in self.pairings[g]:
                if not banned >> k & 1:
                    return (k, self.comp[k])
            return ()
        found = [
            move.pair
            for move in self.within[g].get(f) or self._moves_within(g, f)
            if not banned & move.bit
        ]
        if len(found) == 1 and (f.bit_count() == 3 or settled >> found[0] & 1):
            return found
        return ()

    def _take(
        self,
        standing: int,
        free: int,
        banned: int,
        settled: int,
        k: int,
        path: list[Pair],
        todo: int,
        after: tuple[int, int, int] | None = None,
    ) -> State | None:
        """Take pair k, settle its group, spread that; None when dead.

        `todo` collects the groups worth a new look for safe moves; `after`
        is what _after returns for the move, when already known (otherwise
        both tiles must be free).
        """
        pair = self.pair_tiles[k]
        path.append(pair)
        s2, f2, changed = after or self._after(self.move_of[k], standing, free)
        todo |= changed
        news = self.pairing_of[k] & ~settled
        if news:
            state = self._propagate(banned, settled | news, news, s2)
            if state is None:
                return None
            pair_group, group_pairs = self.pair_group, self.group_pairs
            m = (state[0] ^ banned) | (state[1] ^ settled)
            # A whole group at a time: its pairs are numbered in a row.
            while m:
                g = pair_group[(m & -m).bit_length() - 1]
                todo |= 1 << g
                m &= ~group_pairs[g]
            banned, settled = state
        return s2, f2, banned, settled, todo

    def moves(self, free: int, banned: int, multi: int) -> list[Move]:
        """The moves to branch on; one of them comes next in some clearing.

        Only groups of four have any (safe moves took the rest), and only
        those in `multi`, the groups with two free tiles or more. A group
        with three free tiles alone is enough, the one with fewest choices.
        """
        best: list[Move] | None = None
        others: list[Move] = []
        members, within = self.members, self.within
        while multi:
            low = multi & -multi
            multi ^= low
            g = low.bit_length() - 1
            f = members[g] & free
            candidates = within[g].get(f) or self._moves_within(g, f)
            if len(candidates) == 1:
                # Two free tiles, the common case: one pair, no list to build.
                if not banned & candidates[0].bit:
                    others.append(candidates[0])
                continue
            pairs = [move for move in candidates if not banned & move.bit]
            if f.bit_count() == 3:
                if best is None or len(pairs) < len(best):
                    best = pairs
            else:
                others += pairs
        return best if best is not None else others

    def _every_move(self, standing: int, free: int) -> Found:
        """Plain memoised search over all moves, for odd compositions."""
        if not standing:
            return []
        if standing in self.dead:
            return False
        self.nodes += 1
        if self.nodes >= self.stop:
            raise _Limit
        tiles = list(iter_bits(free))
        for i, a in enumerate(tiles):
            for b in tiles[i + 1 :]:
                if self.group_of[a] == self.group_of[b]:
                    rest = self._every_move(*self._remove(standing, free, a, b))
                    if rest is not False:
                        return [(a, b), *rest]
        self.dead.add(standing)
        return False

    def dfs(  # noqa: C901 (one of the solver's long ones, read best whole)
        self,
        standing: int,
        free: int,
        banned: int,
        settled: int,
        todo: int,
        multi: int,
    ) -> Found:
        """A clearing order from this position, or False if there is none.

        `multi`: the groups with two free tiles or more, as far as the groups
        not in `todo` go (every group whose free tiles change passes through
        todo, so the parent's answer holds for the rest).
        """
        path: list[Pair] = []
        members = self.members
        # Safe moves first, group by group (lowest first), until none is left.
        while todo:
            low = todo & -todo
            todo ^= low
            g = low.bit_length() - 1
            f = members[g] & free
            if f & (f - 1) == 0:
                multi &= ~low
                continue
            multi |= low
            for k in self._safe_pairs(g, standing, free, banned, settled):
                state = self._take(standing, free, banned, settled, k, path, todo)
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
        children = []
        group_mask, noise, noise_max = self.group_mask, self.noise, self.noise_max
        for move in self.moves(free, banned, multi):
            k, _, bits, _, under, waiting, near, frees = move
            # The position after the move (as _after, inlined: hot loop).
            s2 = standing ^ bits
            got = frees.get(s2 & near)
            if got is None:
                got = self._frees(move, s2, free)
            freed, changed = got
            f2 = free ^ bits | freed
            score = freed.bit_count() * FREED_WEIGHT + under
            # A freed tile whose group has another free tile makes a move.
            while freed:
                t = freed.bit_length() - 1
                low = 1 << t
                freed ^= low
                if group_mask[t] & f2 != low:
                    score += PARTNER_WEIGHT
            # The other two tiles of the group now have to pair with each
            # other: the more that must go before that pair, the riskier.
            score -= (waiting & s2).bit_count() * WAITING_WEIGHT
            if noise:
                score += noise.below(noise_max)
            children.append((-score, k, (s2, f2, changed)))
        children.sort(key=_first)
        for _, k, after in children:
            child = self._take(standing, free, banned, settled, k, [], 0, after)
            if child is None:
                continue
            rest = self.dfs(*child, multi)
            if rest is not False:
                return path + [self.pair_tiles[k]] + rest
        self.dead.add(standing)
        return False
