"""Decide a position by searching pairings and learning from each deadlock.

Once every group's pairing is fixed, taking free pairs of those pairings in
any order gets as far as any order would (freedom is monotone), so the
question is which pairing each group takes. That is a satisfiability
problem: one variable per pairing a group may still take, exactly one true
per group, and clauses saying which combinations cannot all hold. The
search here is conflict-driven clause learning (CDCL), as SAT solvers do it:
decide a group's pairing, propagate what the clauses imply, and on a
contradiction learn a clause that rules out its cause and jump back.

Clauses come from three places: pairs that must each go before the other
(solver_prune's conflicts, two pairings that can never both hold), the
one-pairing-per-group rule, and deadlocks found along the way.

**Deadlocks.** After each round of propagation the pile is played out as far
as the choices so far allow: a group whose pairing is chosen goes a pair at
a time, both tiles free; a group still open is let go tile by tile, a tile
as soon as it is free and some tile it may still pair with is free or gone.
That over-states what play can do, so when it gets stuck the tiles left, S,
block one another: each is covered or held on both sides by tiles of S, or
every tile it may pair with is in S and so blocked. No clearing can ever
touch S first, whatever the open groups choose, so the choices it relied on
(the chosen pairings of groups in S, the pairings ruled out for open groups
in S) cannot all hold: a clause. Before it is learned it is made shorter:
group by group, latest choice first, a group is let go as if open, and
when S (played out alone) still gets stuck the group's choice is left out.

When every group is chosen and nothing is left, the order of the pairs taken
is a clearing. When a contradiction needs no choice at all, there is none.

Exact, unlike the local search: a clause only ever rules out choices that
no clearing makes. Deterministic: no randomness, the same position gives the
same search. Resumable: run() stops at a work budget and carries on later.
"""

from typing import Literal

from games.engine.board import iter_bits
from games.engine.layout import Layout

Pair = tuple[int, int]
# A clearing order, or False when the position provably has none.
Found = list[Pair] | Literal[False]

# Restarts follow the Luby sequence (1 1 2 1 1 2 4 ...) times RESTART
# conflicts; learned clauses and each group's target pairing are kept.
RESTART = 32
# Each conflict multiplies the bump of the groups in it by BUMP, so recent
# conflicts weigh more when choosing which group to decide next.
BUMP = 1.05
# A deadlock's clause is shortened by letting go of its LET_GO latest
# choices at most, one play-out each; older ones stay in. On the 124 random
# Turtle seeds of 1..1000 the other searches take over 1,000 nodes on, 12
# took 21% less time than trying them all (8: 11% less, 16: 11% less), in
# about as many conflicts: the old choices seldom drop out, and the tries
# cost most of a conflict's time.
LET_GO = 12


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


class ClauseSearch:
    """CDCL over pairings; see the module's docstring.

    Literals are ints: 2v is "pairing v is taken", 2v + 1 "it is not".
    `work` counts its play-outs' removals (a pair, or a tile going alone),
    the measure of its cost.
    """

    def __init__(  # noqa: C901 (one of the solver's long ones, read best whole)
        self,
        layout: Layout,
        standing: int,
        domains: list[list[tuple[Pair, ...]]],
        clashes: list[tuple[Pair, Pair]],
        near: list[int],
    ) -> None:
        self.layout = layout
        self.near = near
        self.standing = standing
        self.tiles = list(iter_bits(standing))
        n = len(layout)
        # Groups and their variables.
        self.group_vars: list[list[int]] = []
        self.var_pairs: list[tuple[Pair, ...]] = []
        self.var_group: list[int] = []
        self.group_tiles: list[int] = []
        self.group_of = [-1] * n
        var_of: dict[Pair, int] = {}
        for pairings in domains:
            g = len(self.group_vars)
            tiles = 0
            vs = []
            for pairs in pairings:
                v = len(self.var_pairs)
                self.var_pairs.append(pairs)
                self.var_group.append(g)
                vs.append(v)
                for a, b in pairs:
                    var_of[a, b] = v
                    tiles |= 1 << a | 1 << b
            self.group_vars.append(vs)
            self.group_tiles.append(tiles)
            for t in iter_bits(tiles):
                self.group_of[t] = g
        nv = len(self.var_pairs)
        # mates[t]: the other tiles of t's group, any of which it may pair with
        # while its group is open.
        self.mates = [0] * n
        for tiles in self.group_tiles:
            for t in iter_bits(tiles):
                self.mates[t] = tiles & ~(1 << t)

        # The SAT state.
        self.clauses: list[list[int]] = []
        self.watches: list[list[int]] = [[] for _ in range(2 * nv)]
        self.value: list[bool | None] = [None] * nv
        self.level = [0] * nv
        self.reason: list[int | None] = [None] * nv
        self.trail: list[int] = []
        self.limits: list[int] = []
        self.head = 0
        self.activity = [0.0] * len(self.group_vars)
        self.bump = 1.0
        # Each group's pairing to try first: those of the deepest assignment
        # that played out with nothing stuck since the last restart (at
        # first, pairs of tiles peeled in close rounds). Against the last
        # pairing each group had (phase saving), on the 124 slowest seeds of
        # 1..1000: 14% fewer conflicts, 11% less time; seeds over 250 ms,
        # taking turns, 6 -> 4-5.
        self.target = self._paired_by_depth(standing)
        self.target_depth = -1
        self.conflicts = 0
        self.restarts = 0
        self.next_restart = RESTART
        self.work = 0
        self.answer: Found | None = None

        # The play-out: each tile's possible partners, whether it goes only
        # with its one chosen partner, and the choices each group relies on.
        self.options = list(self.mates)
        self.exact = [False] * n
        self.facts: dict[int, list[int]] = {}
        self.seen_values: list[tuple[bool | None, ...] | None] = [None] * len(
            self.group_vars
        )
        # Groups whose variables changed since the last play-out.
        self.changed = set(range(len(self.group_vars)))
        # The last play-out's removals in order (x, y; y == x when a tile
        # went alone), the position before each, and where it ended; where
        # each group first moved in it.
        self.removed: list[Pair] = []
        self.before: list[tuple[int, int]] = []
        self.end = standing, layout.free_mask(standing)
        self.first_move: dict[int, int] = {}
        # What taking tiles frees, by what stands near them.
        self.frees: dict[int, tuple[int, dict[int, tuple[int, tuple[int, ...]]]]] = {}

        for vs in self.group_vars:
            self._add([2 * v for v in vs])
            for i, v in enumerate(vs):
                for w in vs[i + 1 :]:
                    self._add([2 * v + 1, 2 * w + 1])
        seen = set()
        for p, q in clashes:
            v, w = var_of.get(p), var_of.get(q)
            if v is None or w is None or self.var_group[v] == self.var_group[w]:
                continue
            key = (v, w) if v < w else (w, v)
            if key not in seen:
                seen.add(key)
                self._add([2 * v + 1, 2 * w + 1])
        for vs in self.group_vars:
            if len(vs) == 1:
                self._assign(2 * vs[0], None)
        if any(not vs for vs in self.group_vars):
            self.answer = False

    def _paired_by_depth(self, standing: int) -> list[int]:
        """Each group's first pairing to try: the one pairing tiles that
        would come free in the nearest rounds if every free tile were taken,
        round after round (the local search's start, which finds clearings
        sooner than arbitrary pairings)."""
        depth = self.layout.peel_rounds(standing)
        return [
            min(
                vs,
                key=lambda v: sum(
                    abs(depth[a] - depth[b]) for a, b in self.var_pairs[v]
                ),
            )
            if vs
            else -1
            for vs in self.group_vars
        ]

    # -- clauses and propagation --------------------------------------------
    def _add(self, lits: list[int]) -> int:
        """Store a clause, watching its first two literals; its index."""
        i = len(self.clauses)
        self.clauses.append(lits)
        if len(lits) > 1:
            self.watches[lits[0] ^ 1].append(i)
            self.watches[lits[1] ^ 1].append(i)
        return i

    def _true(self, lit: int) -> bool | None:
        v = self.value[lit >> 1]
        return None if v is None else v != bool(lit & 1)

    def _assign(self, lit: int, reason: int | None) -> None:
        v = lit >> 1
        self.changed.add(self.var_group[v])
        self.value[v] = not lit & 1
        self.level[v] = len(self.limits)
        self.reason[v] = reason
        self.trail.append(lit)

    def _propagate(self) -> int | None:
        """Unit propagation; the index of a clause made false, or None.

        watches[l] holds the clauses watching the negation of l, the ones to
        look at once l is made true."""
        trail, clauses, true = self.trail, self.clauses, self._true
        while self.head < len(trail):
            lit = trail[self.head]
            self.head += 1
            false = lit ^ 1
            watching = self.watches[lit]
            i = 0
            while i < len(watching):
                c = clauses[watching[i]]
                if c[0] == false:
                    c[0], c[1] = c[1], c[0]
                if true(c[0]) is True:
                    i += 1
                    continue
                for k in range(2, len(c)):
                    if true(c[k]) is not False:
                        c[1], c[k] = c[k], c[1]
                        self.watches[c[1] ^ 1].append(watching[i])
                        watching[i] = watching[-1]
                        watching.pop()
                        break
                else:
                    if true(c[0]) is False:
                        return watching[i]
                    self._assign(c[0], watching[i])
                    i += 1
        return None

    def _analyse(self, conflict: int) -> tuple[list[int], int]:
        """The first-UIP clause learned from a false clause, and the level to
        jump back to."""
        here = len(self.limits)
        seen: set[int] = set()
        learned = [0]
        count = 0
        lit = -1
        i = len(self.trail) - 1
        clause = self.clauses[conflict]
        while True:
            for q in clause:
                v = q >> 1
                if q == lit or v in seen or self.level[v] == 0:
                    continue
                seen.add(v)
                self._bump(self.var_group[v])
                if self.level[v] == here:
                    count += 1
                else:
                    learned.append(q)
            while self.trail[i] >> 1 not in seen:
                i -= 1
            lit = self.trail[i]
            i -= 1
            count -= 1
            if not count:
                break
            reason = self.reason[lit >> 1]
            assert reason is not None
            clause = self.clauses[reason]
        learned[0] = lit ^ 1
        if len(learned) == 1:
            return learned, 0
        top = max(range(1, len(learned)), key=lambda j: self.level[learned[j] >> 1])
        learned[1], learned[top] = learned[top], learned[1]
        return learned, self.level[learned[1] >> 1]

    def _bump(self, g: int) -> None:
        self.activity[g] += self.bump
        if self.activity[g] > 1e100:
            self.activity = [a * 1e-100 for a in self.activity]
            self.bump *= 1e-100

    def _back_to(self, level: int) -> None:
        if len(self.limits) <= level:
            return
        start = self.limits[level]
        for lit in self.trail[start:]:
            v = lit >> 1
            self.changed.add(self.var_group[v])
            self.value[v] = None
            self.reason[v] = None
        del self.trail[start:], self.limits[level:]
        self.head = len(self.trail)

    # -- the play-out --------------------------------------------------------
    def _refresh(self, g: int) -> None:
        """Group g's options and facts, from the assignment."""
        options, exact, value = self.options, self.exact, self.value
        vs = self.group_vars[g]
        chosen = next((v for v in vs if value[v]), None)
        if chosen is not None:
            for a, b in self.var_pairs[chosen]:
                options[a], options[b] = 1 << b, 1 << a
                exact[a] = exact[b] = True
            self.facts[g] = [2 * chosen]
            return
        out = [2 * v + 1 for v in vs if value[v] is False]
        for t in iter_bits(self.group_tiles[g]):
            exact[t] = False
            options[t] = 0 if out else self.mates[t]
        if out:
            for v in vs:
                if value[v] is None:
                    for a, b in self.var_pairs[v]:
                        options[a] |= 1 << b
                        options[b] |= 1 << a
            self.facts[g] = out
        else:
            self.facts.pop(g, None)

    def _play_out(
        self,
        standing: int,
        free: int,
        options: list[int],
        exact: list[bool],
        removed: list[Pair] | None = None,
        before: list[tuple[int, int]] | None = None,
    ) -> tuple[int, int]:
        """Take what the options allow until stuck; (standing, free) then.

        A tile that goes only with its chosen partner goes with it once both
        are free; any other tile goes alone once it is free and a tile it may
        pair with is free or gone. The result does not depend on the order
        (each removal only makes more possible), which is what lets a new
        play-out resume the last one."""
        affects, free_among = self.layout.affects_mask, self.layout.free_among
        mates, near, frees = self.mates, self.near, self.frees
        queue = list(iter_bits(free & standing))
        work = 0
        while queue:
            x = queue.pop()
            if not (standing & free) >> x & 1:
                continue
            o = options[x]
            if exact[x]:
                if not o & free & standing:
                    continue
                y = o.bit_length() - 1
                gone = 1 << x | 1 << y
            else:
                if not o & (free | ~standing):
                    continue
                y = x
                gone = 1 << x
            if removed is not None and before is not None:
                before.append((standing, free))
                removed.append((x, y))
            work += 1
            standing ^= gone
            free ^= gone
            memo = frees.get(gone)
            if memo is None:
                memo = frees[gone] = near[x] | near[y], {}
            close, seen = memo
            key = standing & close
            got = seen.get(key)
            if got is None:
                # The free mask is always exact, so what a removal frees
                # depends only on what stands near it.
                freed = free_among(
                    (affects[x] | affects[y]) & standing & ~free, standing
                )
                got = seen[key] = freed, tuple(iter_bits(freed))
            free |= got[0]
            queue.extend(got[1])
            if x == y:
                # Its group's other tiles may go now that it is gone.
                queue.extend(iter_bits(mates[x] & free & standing))
        self.work += work
        return standing, free

    def _check(self) -> list[int] | None:
        """Play out the current choices: None if nothing is stuck (or the
        pile is cleared, self.answer then set), else a clause they break."""
        value = self.value
        changed = set()
        for g in self.changed:
            now = tuple(value[v] for v in self.group_vars[g])
            if now != self.seen_values[g]:
                self.seen_values[g] = now
                self._refresh(g)
                changed.add(g)
        self.changed.clear()
        start = self._still_valid(changed)
        if start < len(self.removed):
            standing, free = self.before[start]
            del self.removed[start:], self.before[start:]
            for g in [g for g, i in self.first_move.items() if i >= start]:
                del self.first_move[g]
        else:
            standing, free = self.end
        left, free = self._play_out(
            standing, free, self.options, self.exact, self.removed, self.before
        )
        self.end = left, free
        if not left and len(self.limits) > self.target_depth:
            self.target_depth = len(self.limits)
            for g, vs in enumerate(self.group_vars):
                for v in vs:
                    if value[v]:
                        self.target[g] = v
        for i in range(start, len(self.removed)):
            self.first_move.setdefault(self.group_of[self.removed[i][0]], i)
        if not left:
            if all(self.exact[t] for t in self.tiles):
                self.answer = self._clearing()
            return None
        return self._explain(left)

    def _still_valid(self, changed: set[int]) -> int:
        """How much of the last play-out the current choices still allow: the
        index of its first removal they do not.

        Removals before a changed group first moved never involved it, so
        they stand. Later ones of a changed group are checked one by one: a
        pair taken together must still be a pair it may take; a tile that
        went alone must still have a tile to pair with free or gone then,
        or, its pairing now chosen, be followed at once by its partner, free
        at the same time (the two are then one move)."""
        removed, before, group_of = self.removed, self.before, self.group_of
        options, exact = self.options, self.exact
        end = len(removed)
        i = min((self.first_move.get(g, end) for g in changed), default=end)
        while i < end:
            x, y = removed[i]
            if group_of[x] not in changed:
                i += 1
                continue
            o = options[x]
            if x != y:
                if not o >> y & 1:
                    return i
            elif exact[x]:
                if i + 1 == end:
                    return i
                z, w = removed[i + 1]
                if z != w or not o >> z & 1 or not before[i][1] >> z & 1:
                    return i
                i += 1
            else:
                standing, free = before[i]
                if not o & (free | ~standing):
                    return i
            i += 1
        return end

    def _clearing(self) -> list[Pair]:
        """The last play-out's removals as pairs, each where its first tile
        went (its partner was free then too)."""
        pairs = []
        gone = 0
        for x, _ in self.removed:
            if not gone >> x & 1:
                y = self.options[x].bit_length() - 1
                pairs.append((x, y))
                gone |= 1 << x | 1 << y
        return pairs

    def _explain(self, stuck: int) -> list[int]:
        """A short clause from the stuck tiles: groups let go in turn, latest
        choice first, while the rest still gets stuck on its own (played out
        from the stuck tiles alone: what was taken stays taken)."""
        options, exact = list(self.options), list(self.exact)
        level, facts = self.level, self.facts
        latest: dict[int, int] = {}
        for t in iter_bits(stuck):
            g = self.group_of[t]
            if g in facts and g not in latest:
                latest[g] = max(level[f >> 1] for f in facts[g])
        # Choices made before any decision never reach a learned clause.
        mates = self.mates
        free = self.layout.free_mask(stuck)
        order = sorted((g for g in latest if latest[g]), key=lambda g: -latest[g])
        for g in order[:LET_GO]:
            tiles = self.group_tiles[g]
            if not stuck & tiles:
                continue
            kept = [(t, options[t], exact[t]) for t in iter_bits(tiles)]
            for t, _, _ in kept:
                options[t], exact[t] = mates[t], False
            left, left_free = self._play_out(stuck, free, options, exact)
            if left:
                stuck, free = left, left_free
                del latest[g]
            else:
                for t, o, e in kept:
                    options[t], exact[t] = o, e
        clause = []
        for g in latest:
            if stuck & self.group_tiles[g]:
                clause += [f ^ 1 for f in facts[g]]
        return clause

    # -- the search ----------------------------------------------------------
    def run(self, work: int) -> Found | None:
        """A clearing, False when none exists, or None once `work` more
        removals have been played out without an answer (call again to go
        on)."""
        stop = self.work + work
        while self.answer is None:
            conflict = self._propagate()
            if conflict is None:
                clause = self._check()
                if self.answer is not None:
                    break
                if clause is not None:
                    conflict = self._learn_deadlock(clause)
                    if conflict is None:
                        continue
            if conflict is not None:
                self._resolve(conflict)
                if self.answer is not None:
                    break
                if self.work >= stop:
                    return None
                continue
            if self.conflicts >= self.next_restart:
                self.restarts += 1
                self.next_restart = self.conflicts + RESTART * luby(self.restarts + 1)
                self._back_to(0)
                self.target_depth = -1
                continue
            self._decide()
        return self.answer

    def _learn_deadlock(self, clause: list[int]) -> int | None:
        """Store a deadlock's clause (every literal false); the index to
        resolve, or None when it needed no decision (self.answer False)."""
        if not clause:
            self.answer = False
            return None
        clause.sort(key=lambda lit: -self.level[lit >> 1])
        top = self.level[clause[0] >> 1]
        if not top:
            self.answer = False
            return None
        # Its literals were all false before the last decisions: resolve it
        # at the level it became false.
        self._back_to(top)
        return self._add(clause)

    def _resolve(self, conflict: int) -> None:
        self.conflicts += 1
        if not self.limits:
            self.answer = False
            return
        learned, level = self._analyse(conflict)
        self._back_to(level)
        self._assign(learned[0], self._add(learned) if len(learned) > 1 else None)
        self.bump *= BUMP

    def _decide(self) -> None:
        """Take the open group most involved in recent conflicts, with its
        target pairing if still open."""
        value = self.value
        best, score = -1, -1.0
        for g, vs in enumerate(self.group_vars):
            if self.activity[g] > score and not any(value[v] for v in vs):
                best, score = g, self.activity[g]
        vs = self.group_vars[best]
        v = self.target[best]
        if value[v] is not None:
            v = next(w for w in vs if value[w] is None)
        self.limits.append(len(self.trail))
        self._assign(2 * v, None)
