"""Certificates that a position cannot be cleared, checkable without the solver.

Some positions are lost for a reason that needs no search: whichever way
some matching groups are paired, the pairs cannot all be taken in any
order. This module finds such a reason and checks one, using nothing but
the spec's geometry (docs/certificates.md has the JSON form, for outside
tools).

Rules (the certificate's `rule`):

* `odd-group`: a matching group has an odd number of standing tiles, so
  they can never all be paired.
* `no-pairing`: for each way to pair the group's standing tiles (one for
  two tiles, three for four), a pair of it with a `chain` of tile ids from
  one tile to the other, each tile covering the next as the spec defines
  covering. A tile under another is never free while that one stands, and
  the one on top must go with it: so that pair can never be taken, no
  pairing works, and the group stays.
* `no-order`: some groups, and `cases`: each a few pairs of those groups
  with `facts` that, if those pairs were all taken, some tile would have to
  go before itself. Every way to pair the groups contains the pairs of some
  case. A fact is a chain of tiles each going no later than the next (by
  covering, by being taken together, by a row held on both sides, by the
  side rule of freedom), with at least one step strictly later.

Finding: the solver's root analysis (solver_prune) says which pairs can
never be taken and which pairs cannot both be; a propagation over the
groups' pairings, keeping which groups each conclusion leaned on, finds a
set of groups with no pairing left. Only then are the facts worked out,
here, from the geometry alone, for the few pairs the proof needs: the
solver guides, but nothing it says goes into a certificate unchecked.
"""

from collections.abc import Iterator, Sequence
from itertools import product
from typing import Any

from games.engine.board import Board, iter_bits
from games.engine.faces import group_of
from games.engine.solver_prune import pair_conflicts, precedence

FORMAT = "mahjong-impossible/1"

Pair = tuple[int, int]
Json = dict[str, Any]

# A `no-order` certificate names at most this many groups: the checker goes
# through every way to pair them (3 ** 8 = 6561 at most, cut short as soon
# as a case matches), and a person reading one wants it short.
MAX_GROUPS = 8
# The deeper analysis has the solver order the tiles (about 10 ms on a
# full Turtle) at most this many times per position. Measured: every
# certificate it found on the late positions and the Turtle deals of
# docs/certificates.md needed one; more only cost time where none exists.
MAX_ORDERS = 8


class CertificateError(ValueError):
    """A certificate that does not prove what it claims; says why."""


def pairings(tiles: Sequence[int]) -> list[tuple[Pair, ...]]:
    """Every way to split two or four tiles into pairs."""
    if len(tiles) == 2:
        return [((tiles[0], tiles[1]),)]
    a, b, c, d = tiles
    return [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]


# -- finding ---------------------------------------------------------------


def _chain(board: Board, top: int, bottom: int) -> list[int] | None:
    """Tiles from `top` down to `bottom`, each covering the next, through
    standing tiles only; None when `top` does not lie above `bottom`."""
    cover = board.layout.cover_mask
    # Walk up from the bottom tile: who covers it, who covers those...
    came_from = {bottom: -1}
    todo = [bottom]
    while todo:
        t = todo.pop()
        if t == top:
            path = [t]
            while came_from[path[-1]] != -1:
                path.append(came_from[path[-1]])
            return path
        for up in iter_bits(cover[t] & board.standing):
            if up not in came_from:
                came_from[up] = t
                todo.append(up)
    return None


def _stacked(board: Board, a: int, b: int) -> list[int] | None:
    return _chain(board, a, b) or _chain(board, b, a)


def find_certificate(board: Board, ids: Sequence[int] | None = None) -> Json | None:
    """A certificate that the board cannot be cleared, when a group's
    tiles prove it or some groups' pairs cannot be ordered; `ids` names
    tiles as the JSON does (default: index)."""
    name = list(ids) if ids is not None else list(range(len(board.faces)))
    by_group: dict[int, list[int]] = {}
    for t in iter_bits(board.standing):
        by_group.setdefault(board.groups[t], []).append(t)
    for tiles in by_group.values():
        if len(tiles) % 2:
            group = [name[t] for t in tiles]
            return {"format": FORMAT, "rule": "odd-group", "group": group}
    for tiles in by_group.values():
        if len(tiles) in (2, 4) and (found := _no_pairing(board, tiles, name)):
            return found
    if any(len(tiles) > 4 for tiles in by_group.values()):
        return None  # not from a real set: the solver's analysis skips it too
    return _Groups(board, list(by_group.values())).certificate(name)


def _no_pairing(board: Board, tiles: list[int], name: list[int]) -> Json | None:
    """The `no-pairing` certificate of a group, when covering chains alone
    stop each of its pairings."""
    blocked = []
    for pairing in pairings(tiles):
        found = next(
            (
                (pair, chain)
                for pair in pairing
                if (chain := _stacked(board, *pair)) is not None
            ),
            None,
        )
        if found is None:
            return None
        pair, chain = found
        blocked.append(
            {"pair": [name[t] for t in pair], "chain": [name[t] for t in chain]}
        )
    return {
        "format": FORMAT,
        "rule": "no-pairing",
        "group": [name[t] for t in tiles],
        "blocked": blocked,
    }


class _Groups:
    """The groups' pairings, and which of them clash, from the solver's
    root analysis; propagated to a set of groups with no pairing left."""

    def __init__(self, board: Board, groups: list[list[int]]) -> None:
        self.geometry = _Geometry(board)
        self.groups = groups
        self.pairs: list[Pair] = []
        self.pair_group: list[int] = []
        # options[g]: g's pairings, each as the numbers of its pairs.
        self.options: list[list[tuple[int, ...]]] = []
        rivals: list[int] = []
        for g, tiles in enumerate(groups):
            first = len(self.pairs)
            mine: list[tuple[int, ...]] = []
            for pairing in pairings(tiles):
                start = len(self.pairs)
                mine.append(tuple(range(start, start + len(pairing))))
                self.pairs += pairing
            self.pair_group += [g] * (len(self.pairs) - first)
            everyone = ((1 << len(self.pairs)) - 1) ^ ((1 << first) - 1)
            for option in mine:
                own = sum(1 << k for k in option)
                rivals += [everyone & ~own] * len(option)
            self.options.append(mine)
        self.standing = board.standing
        self.prec = prec = precedence(board.standing, board.layout)
        self.banned, self.conflict, _ = pair_conflicts(prec, self.pairs, rivals)
        # Refutations the geometry bore out: pair numbers -> facts.
        self.proved: dict[tuple[int, ...], list[Fact]] = {}
        self.orders = 0

    def alone(self, g: int, i: int) -> tuple[int, ...] | None:
        """The pairs that stop pairing i of group g by itself, if any."""
        option = self.options[g][i]
        for k in option:
            if self.banned >> k & 1:
                return (k,)
        for k in option:
            for q in option:
                if self.conflict[k] >> q & 1:
                    return tuple(sorted((k, q)))
        return None

    def clash(self, g: int, i: int, h: int, j: int) -> tuple[int, ...] | None:
        """Two pairs, one of each pairing, that cannot both be taken."""
        for k in self.options[g][i]:
            for q in self.options[h][j]:
                if self.conflict[k] >> q & 1:
                    return tuple(sorted((k, q)))
        return None

    def refute(self, pairs: Sequence[int]) -> tuple[int, ...] | None:
        """The pairs (of `pairs`) a cycle of order needs, once the geometry
        shows one; None when it shows none."""
        order = _Order(self.geometry, [self.pairs[k] for k in pairs])
        facts = order.refute()
        if facts is None:
            return None
        used = order.used(facts)
        stop = tuple(k for k in sorted(pairs) if self.pairs[k] in used)
        self.proved.setdefault(stop, facts)
        return stop

    def dead_end(self) -> list[int] | None:
        """Groups that together have no pairing left, or None.

        Arc consistency: a pairing goes when it is stopped by itself, or
        clashes with every pairing left to some other group. Then, while
        the budget lasts, the order of the settled groups' pairs with each
        pairing left to another (the solver's deeper analysis at the root).
        Each group keeps the groups its losses leaned on, so that when one
        runs out of pairings those (and it) are a set the checker can go
        through.
        """
        n = len(self.groups)
        left = [
            {i for i in range(len(opts)) if self.alone(g, i) is None}
            for g, opts in enumerate(self.options)
        ]
        leaned: list[set[int]] = [set() for _ in range(n)]
        linked = [[h for h in range(n) if self._linked(g, h)] for g in range(n)]
        todo = set(range(n))
        while True:
            for g in range(n):
                if not left[g]:
                    return sorted(leaned[g] | {g})
            if todo:
                h = todo.pop()
                for g in linked[h]:
                    gone = {
                        i
                        for i in left[g]
                        if all(self.clash(g, i, h, j) is not None for j in left[h])
                    }
                    if gone:
                        left[g] -= gone
                        leaned[g] |= leaned[h] | {h}
                        todo.add(g)
                continue
            deeper = self._deeper(left, leaned)
            if isinstance(deeper, list):
                return deeper
            if not deeper:
                return None
            todo |= deeper

    def _deeper(
        self, left: list[set[int]], leaned: list[set[int]]
    ) -> list[int] | set[int]:
        """The deeper analysis, once round: the groups of a dead end, or the
        groups that lost a pairing to the order of the settled pairs (none:
        nothing more to find, or the budget is spent)."""
        settled = [
            k
            for g, opts in enumerate(left)
            if len(opts) == 1
            for k in self.options[g][min(opts)]
        ]

        def lean(stop: tuple[int, ...]) -> set[int]:
            groups = {self.pair_group[k] for k in stop}
            return groups.union(*(leaned[h] for h in groups))

        if self.orders >= MAX_ORDERS:
            return set()
        found = self.ordered(settled)
        if found is None:
            stop = self.refute(settled)
            return sorted(lean(stop)) if stop is not None else set()
        reach, rep = found
        changed: set[int] = set()
        open_groups = [g for g, opts in enumerate(left) if len(opts) > 1]

        def drop(g: int, i: int, stop: tuple[int, ...]) -> None:
            left[g].discard(i)
            leaned[g] |= lean(stop) - {g}
            changed.add(g)

        # First a pair of an open pairing whose one tile must go after the
        # other, by that order alone; then each open pairing added to it.
        for g, i, k in self._late_pairs(open_groups, left, reach, rep):
            if i in left[g] and (stop := self.refute([*settled, k])) is not None:
                drop(g, i, stop)
        if changed:
            return changed
        for g in open_groups:
            for i in sorted(left[g]):
                if self.orders >= MAX_ORDERS:
                    return changed
                option = [*settled, *self.options[g][i]]
                if self.ordered(option) is None and (stop := self.refute(option)):
                    drop(g, i, stop)
        return changed

    def _late_pairs(
        self,
        open_groups: list[int],
        left: list[set[int]],
        reach: dict[int, int],
        rep: dict[int, int],
    ) -> Iterator[tuple[int, int, int]]:
        """(group, pairing, pair) for the pairs of open pairings whose one
        tile goes after the other in the order `reach`."""
        for g in open_groups:
            for i in sorted(left[g]):
                for k in self.options[g][i]:
                    a, b = self.pairs[k]
                    if reach[rep.get(a, a)] >> b & 1 or reach[rep.get(b, b)] >> a & 1:
                        yield g, i, k

    def ordered(
        self, pairs: Sequence[int]
    ) -> tuple[dict[int, int], dict[int, int]] | None:
        """The solver's order of the tiles if `pairs` are all taken (tiles
        after each event, the event of each paired tile), or None when it
        finds none."""
        self.orders += 1
        settled = []
        for k in pairs:
            (before, after), never, _, _ = self.prec.facts(self.pairs[k])
            if never:
                return None
            settled.append((*self.pairs[k], before, after))
        found: tuple[dict[int, int], dict[int, int]] | None = self.prec.order(
            self.standing, settled
        )
        return found

    def _linked(self, g: int, h: int) -> bool:
        theirs = sum(1 << k for option in self.options[h] for k in option)
        return h != g and any(
            self.conflict[k] & theirs for option in self.options[g] for k in option
        )

    def stops(self, involved: list[int]) -> list[tuple[int, ...]]:
        """Every way the involved groups' pairings are known to stop, fewest
        pairs first: the solver's (by itself, against one pairing of another
        group) and those the geometry has already borne out."""
        found = set(self.proved)
        for g in involved:
            for i in range(len(self.options[g])):
                if (why := self.alone(g, i)) is not None:
                    found.add(why)
                for h in involved:
                    for j in range(len(self.options[h])):
                        if h > g and (why := self.clash(g, i, h, j)) is not None:
                            found.add(why)
        mine = {k for g in involved for option in self.options[g] for k in option}
        return sorted((s for s in found if set(s) <= mine), key=lambda s: (len(s), s))

    def certificate(self, name: list[int]) -> Json | None:
        involved = self.dead_end()
        if involved is None or len(involved) > MAX_GROUPS:
            return None
        stops = self.stops(involved)
        cases: list[tuple[int, ...]] = []
        for choice in product(*(self.options[g] for g in involved)):
            taken = {k for option in choice for k in option}
            if any(set(stop) <= taken for stop in cases):
                continue
            stop = next(
                (got for s in stops if set(s) <= taken and (got := self._borne(s))),
                None,
            )
            if stop is None:
                return None
            cases.append(stop)
        return {
            "format": FORMAT,
            "rule": "no-order",
            "groups": [[name[t] for t in self.groups[g]] for g in involved],
            "cases": [
                _case_json([self.pairs[k] for k in stop], self.proved[stop], name)
                for stop in cases
            ],
        }

    def _borne(self, stop: tuple[int, ...]) -> tuple[int, ...] | None:
        """A refutation the solver named, as the geometry bears it out (it
        may need fewer of the pairs), or None."""
        if stop in self.proved:
            return stop
        return self.refute(stop)


# A step from one tile to the next in a fact: how the first goes no later
# than the second. ("covers",) | ("pair",) | ("row", path) |
# ("side", r, fact or None).
Link = tuple[Any, ...]
# An edge of the order: from tile, to tile, link, round it was added in.
Edge = tuple[int, int, Link, int]
# A fact: the chain of tiles and the links between them.
Fact = tuple[list[int], list[Link]]


class _Geometry:
    """Covers and side neighbours among the standing tiles."""

    def __init__(self, board: Board) -> None:
        lay, standing = board.layout, board.standing
        self.tiles = list(iter_bits(standing))
        self.up = {t: lay.cover_mask[t] & standing for t in self.tiles}
        self.left = {t: lay.left_mask[t] & standing for t in self.tiles}
        self.right = {t: lay.right_mask[t] & standing for t in self.tiles}
        self.z = {t: lay.positions[t][2] for t in self.tiles}


def _walk(step: dict[int, int], start: int) -> dict[int, int]:
    """Tiles reached from `start` by steps, each with the tile it came from."""
    came = {start: -1}
    todo = [start]
    while todo:
        t = todo.pop()
        for u in iter_bits(step[t]):
            if u not in came:
                came[u] = t
                todo.append(u)
    return came


def _back(came: dict[int, int], t: int) -> list[int]:
    path = [t]
    while came[path[-1]] != -1:
        path.append(came[path[-1]])
    return path[::-1]


class _Order:
    """What must go before what if `pairs` are all taken, as a graph over
    events (a pair is one event, any other tile its own); a cycle in it
    refutes the pairs. Each edge keeps the geometry that justifies it."""

    def __init__(self, geo: _Geometry, pairs: list[Pair]) -> None:
        self.geo = geo
        self.partner: dict[int, int] = {}
        for a, b in pairs:
            self.partner[a], self.partner[b] = b, a
        self.pairs = pairs
        # edges[e][f]: (from tile, to tile, link, round it was added in).
        self.edges: dict[int, dict[int, Edge]] = {self.ev(t): {} for t in geo.tiles}

    def ev(self, t: int) -> int:
        return min(t, self.partner.get(t, t))

    def add(self, u: int, v: int, link: Link, rnd: int) -> bool:
        row = self.edges[self.ev(u)]
        if self.ev(v) in row:
            return False
        row[self.ev(v)] = (u, v, link, rnd)
        return True

    def refute(self) -> list[Fact] | None:
        """Facts ending in a tile going before itself, or None."""
        geo = self.geo
        for t in geo.tiles:
            for u in iter_bits(geo.up[t]):
                self.add(u, t, ("covers",), 0)
        for a, b in self.pairs:
            if geo.z[a] == geo.z[b]:
                for lo, hi in ((a, b), (b, a)):
                    self._held(lo, hi)
        middles = [t for t in geo.tiles if geo.left[t] and geo.right[t]]
        rnd = 0
        while (cycle := self._cycle()) is None:
            rnd += 1
            if not self._sides(middles, rnd):
                return None
        return _Proof(self).facts(cycle)

    def _sides(self, middles: list[int], rnd: int) -> bool:
        """One round of the side rule: a tile that goes while a neighbour on
        one side still stands must be freed from the other side, so its
        neighbours there go first. False when it adds nothing."""
        geo = self.geo
        reach = self._reach()
        grown = False
        for x in middles:
            after = reach[self.ev(x)]
            for near, far in ((geo.left, geo.right), (geo.right, geo.left)):
                late = next(
                    (
                        r
                        for r in iter_bits(far[x])
                        if self.partner.get(x) == r or after >> self.ev(r) & 1
                    ),
                    None,
                )
                if late is not None:
                    for u in iter_bits(near[x]):
                        grown |= self.add(u, x, ("side", late), rnd)
        return grown

    def _held(self, lo: int, hi: int) -> None:
        """The tiles of the row between lo and its partner hi (to its right):
        held on both sides until the pair goes, so they go after it."""
        geo = self.geo
        from_lo = _walk(geo.right, lo)
        if hi not in from_lo:
            return
        from_hi = _walk(geo.left, hi)
        for t in from_lo.keys() & from_hi.keys() - {lo, hi}:
            path = _back(from_lo, t) + _back(from_hi, t)[::-1][1:]
            self.add(lo, t, ("row", path), 0)

    def _reach(self) -> dict[int, int]:
        """Events strictly after each event, as masks (the graph is acyclic)."""
        reach: dict[int, int] = {}

        def visit(e: int) -> int:
            if e not in reach:
                m = 0
                for f in self.edges[e]:
                    m |= 1 << f | visit(f)
                reach[e] = m
            return reach[e]

        for e in self.edges:
            visit(e)
        return reach

    def _cycle(self) -> list[Edge] | None:
        """The edges of a cycle, or None."""
        state: dict[int, int] = {}  # 1: on the path, 2: done
        path: list[Edge] = []

        def visit(e: int) -> list[Edge] | None:
            state[e] = 1
            for f, edge in self.edges[e].items():
                path.append(edge)
                if state.get(f) == 1:
                    start = next(i for i, (u, *_) in enumerate(path) if self.ev(u) == f)
                    return path[start:]
                if f not in state and (found := visit(f)) is not None:
                    return found
                path.pop()
            state[e] = 2
            return None

        for e in self.edges:
            if e not in state and (found := visit(e)) is not None:
                return found
        return None

    def used(self, facts: list[Fact]) -> set[Pair]:
        """The pairs the facts lean on: taken together, held rows, sides
        held by a partner, and where chains meet by a partner."""
        used: set[Pair] = set()

        def meet(a: int, b: int) -> None:
            if a != b:
                used.add((min(a, b), max(a, b)))

        for chain, links in facts:
            for u, v, link in zip(chain, chain[1:], links, strict=False):
                if link[0] == "pair":
                    meet(u, v)
                elif link[0] == "row":
                    meet(u, link[1][-1])
                elif link[0] == "side":
                    r, k = link[1], link[2]
                    if k is None:
                        meet(v, r)
                    else:
                        meet(v, facts[k][0][0])
                        meet(r, facts[k][0][-1])
        last = facts[-1][0]
        meet(last[0], last[-1])
        return used

    def path(self, x: int, r: int, before: int) -> list[Edge]:
        """Edges from x's event to r's, using edges of rounds before `before`."""
        came: dict[int, Edge | None] = {self.ev(x): None}
        todo = [self.ev(x)]
        goal = self.ev(r)
        while goal not in came:
            e = todo.pop(0)
            for f, edge in self.edges[e].items():
                if edge[3] < before and f not in came:
                    came[f] = edge
                    todo.append(f)
        edges = []
        while (step := came[goal]) is not None:
            edges.append(step)
            goal = self.ev(step[0])
        return edges[::-1]


class _Proof:
    """Facts in an order each may lean on the earlier ones."""

    def __init__(self, order: _Order) -> None:
        self.order = order
        self.out: list[Fact] = []
        self.done: dict[tuple[int, int, int], int] = {}

    def facts(self, cycle: list[Edge]) -> list[Fact]:
        self.fact(cycle)
        return self.out

    def fact(self, edges: list[Edge]) -> int:
        chain = [edges[0][0]]
        links: list[Link] = []
        for u, v, link, rnd in edges:
            if chain[-1] != u:
                chain.append(u)
                links.append(("pair",))
            if link[0] == "side":
                x, r = v, link[1]
                if self.order.partner.get(x) == r:
                    link = ("side", r, None)
                else:
                    key = (x, r, rnd)
                    if key not in self.done:
                        self.done[key] = self.fact(self.order.path(x, r, rnd))
                    link = ("side", r, self.done[key])
            chain.append(v)
            links.append(link)
        self.out.append((chain, links))
        return len(self.out) - 1


def _case_json(pairs: list[Pair], facts: list[Fact], name: list[int]) -> Json:
    def link_json(link: Link) -> str | Json:
        if link[0] == "row":
            return {"row": [name[t] for t in link[1]]}
        if link[0] == "side":
            side: Json = {"side": name[link[1]]}
            if link[2] is not None:
                side["fact"] = link[2]
            return side
        return str(link[0])

    return {
        "pairs": [[name[a], name[b]] for a, b in pairs],
        "facts": [
            {"chain": [name[t] for t in chain], "by": [link_json(k) for k in links]}
            for chain, links in facts
        ],
    }


# -- checking --------------------------------------------------------------


def _covers(upper: Json, lower: Json) -> bool:
    """The spec's covering, on two tiles of the JSON."""
    return bool(
        upper["z"] == lower["z"] + 1
        and abs(upper["x"] - lower["x"]) < 2
        and abs(upper["y"] - lower["y"]) < 2
    )


def _blocks(side: int, by: Json, tile: Json) -> bool:
    """The spec's side blocking: `by` blocks `tile` on the left (side -1)
    or on the right (side 1)."""
    return bool(
        by["z"] == tile["z"]
        and by["x"] == tile["x"] + 2 * side
        and abs(by["y"] - tile["y"]) < 2
    )


def _group(by_id: dict[Any, Json], group: object) -> list[Any]:
    """A listed group, checked to be every standing tile of its kind."""
    if not isinstance(group, list) or not group or any(g not in by_id for g in group):
        raise CertificateError("a group must list standing tile ids")
    kind = group_of(by_id[group[0]]["face"])
    members = sorted(t for t in by_id if group_of(by_id[t]["face"]) == kind)
    if sorted(group) != members:
        raise CertificateError(
            f"the group must be every standing tile matching tile {group[0]}: {members}"
        )
    return sorted(group)


def check_certificate(tiles: Sequence[Json], certificate: object) -> str:
    """Check a certificate against a position's standing tiles (spec JSON
    objects); returns what it proves, or raises CertificateError."""
    if not isinstance(certificate, dict) or certificate.get("format") != FORMAT:
        raise CertificateError(f"not a certificate of format {FORMAT}")
    by_id = {t["id"]: t for t in tiles}
    try:
        return _check(by_id, certificate)
    except (TypeError, KeyError) as e:
        # An id that is a list, a tile without "x": not a certificate.
        raise CertificateError(f"malformed certificate: {e!r}") from None


def _check(by_id: dict[Any, Json], certificate: Json) -> str:
    rule = certificate.get("rule")
    if rule == "no-order":
        return _check_no_order(by_id, certificate)
    group = _group(by_id, certificate.get("group"))
    if rule == "odd-group":
        if len(group) % 2 == 0:
            raise CertificateError(f"the group has {len(group)} tiles, an even number")
        return f"{len(group)} tiles of one kind can never all be paired"
    if rule != "no-pairing":
        raise CertificateError(f"unknown rule {rule!r}")
    if len(group) not in (2, 4):
        raise CertificateError("a no-pairing group has two or four tiles")
    proved = {}
    for entry in certificate.get("blocked") or []:
        pair, chain = _checked_chain(by_id, entry)
        proved[tuple(sorted(pair))] = chain
    for pairing in pairings(group):
        if not any(tuple(sorted(p)) in proved for p in pairing):
            raise CertificateError(f"nothing shows the pairing {list(pairing)} fails")
    return f"every way to pair tiles {group} puts one tile of a pair under the other"


def _checked_chain(
    by_id: dict[Any, Json], entry: object
) -> tuple[list[Any], list[Any]]:
    if not isinstance(entry, dict):
        raise CertificateError("each 'blocked' entry is an object")
    pair, chain = entry.get("pair"), entry.get("chain")
    if not (isinstance(pair, list) and len(pair) == 2 and isinstance(chain, list)):
        raise CertificateError("a 'blocked' entry needs a 'pair' and a 'chain'")
    if len(chain) < 2 or sorted((chain[0], chain[-1])) != sorted(pair):
        raise CertificateError(
            f"the chain {chain} must run from one tile of {pair} to the other"
        )
    if any(t not in by_id for t in chain):
        raise CertificateError(f"the chain {chain} names a tile that is not standing")
    for upper, lower in zip(chain, chain[1:], strict=False):
        if not _covers(by_id[upper], by_id[lower]):
            raise CertificateError(f"tile {upper} does not cover tile {lower}")
    return pair, chain


def _check_no_order(by_id: dict[Any, Json], certificate: Json) -> str:
    """Every way to pair the groups contains a case's pairs, and each case's
    facts end in a tile that would have to go before itself."""
    raw = certificate.get("groups")
    if not isinstance(raw, list) or not raw or len(raw) > MAX_GROUPS:
        raise CertificateError(f"'groups' must list 1 to {MAX_GROUPS} groups")
    groups = [_group(by_id, g) for g in raw]
    if len({g[0] for g in groups}) < len(groups):
        raise CertificateError("a group is listed twice")
    if any(len(g) not in (2, 4) for g in groups):
        raise CertificateError("a no-order group has two or four tiles")
    cases = certificate.get("cases")
    if not isinstance(cases, list):
        raise CertificateError("'cases' must be a list")
    tile_group = {t: i for i, g in enumerate(groups) for t in g}
    stopped = [_checked_case(by_id, tile_group, case) for case in cases]
    for choice in product(*(pairings(g) for g in groups)):
        taken = {frozenset(p) for pairing in choice for p in pairing}
        if not any(stop <= taken for stop in stopped):
            shown = [sorted(p) for pairing in choice for p in pairing]
            raise CertificateError(f"no case covers the pairing {shown}")
    return (
        f"every way to pair tiles {groups} has pairs that no order of play can "
        "take all of"
    )


def _checked_case(
    by_id: dict[Any, Json], tile_group: dict[Any, int], case: object
) -> frozenset[frozenset[Any]]:
    """The pairs a case refutes, once its facts hold."""
    if not isinstance(case, dict) or not isinstance(case.get("pairs"), list):
        raise CertificateError("each case is an object with 'pairs'")
    partner: dict[Any, Any] = {}
    for pair in case["pairs"]:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise CertificateError(f"a pair is two tile ids, not {pair!r}")
        a, b = pair
        if a not in tile_group or tile_group.get(b) != tile_group[a] or a == b:
            raise CertificateError(f"{pair} is not a pair of one listed group")
        if a in partner or b in partner:
            raise CertificateError(f"the case's pairs share a tile: {pair}")
        partner[a], partner[b] = b, a
    facts = case.get("facts")
    if not isinstance(facts, list) or not facts:
        raise CertificateError("each case needs its 'facts'")
    check = _FactCheck(by_id, partner)
    for fact in facts:
        check.fact(fact)
    first, last = check.proved[-1]
    if not check.same(first, last):
        raise CertificateError(
            f"the case's last fact, from tile {first} to {last}, is not a cycle"
        )
    return frozenset(frozenset(p) for p in case["pairs"])


class _FactCheck:
    """A case's facts, checked in order: each (first, last) proved means
    the first tile goes strictly before the last, if the case's pairs
    (`partner`) are all taken."""

    def __init__(self, by_id: dict[Any, Json], partner: dict[Any, Any]) -> None:
        self.by_id = by_id
        self.partner = partner
        self.proved: list[tuple[Any, Any]] = []

    def same(self, a: Any, b: Any) -> bool:
        """One tile, or a pair of the case: taken in one move."""
        return bool(a == b or self.partner.get(a) == b)

    def fact(self, fact: object) -> None:
        index = len(self.proved)
        if not isinstance(fact, dict):
            raise CertificateError(f"fact {index} is not an object")
        chain, links = fact.get("chain"), fact.get("by")
        if not (
            isinstance(chain, list)
            and isinstance(links, list)
            and len(chain) == len(links) + 1 >= 2
        ):
            raise CertificateError(f"fact {index} needs a chain and one 'by' per step")
        if any(t not in self.by_id for t in chain):
            raise CertificateError(f"fact {index} names a tile that is not standing")
        strict = False
        for u, v, link in zip(chain, chain[1:], links, strict=False):
            where = f"fact {index}, {u} to {v}"
            if link == "pair":
                if self.partner.get(u) != v:
                    raise CertificateError(f"{where}: not a pair of the case")
                continue
            strict = True
            if link == "covers":
                if not _covers(self.by_id[u], self.by_id[v]):
                    raise CertificateError(f"{where}: tile {u} does not cover tile {v}")
            elif isinstance(link, dict) and "row" in link:
                self.row(u, v, link["row"], where)
            elif isinstance(link, dict) and "side" in link:
                self.side(u, v, link, where)
            else:
                raise CertificateError(f"{where}: unknown step {link!r}")
        if not strict:
            raise CertificateError(f"fact {index} has no step that goes strictly later")
        self.proved.append((chain[0], chain[-1]))

    def side(self, u: Any, v: Any, link: Json, where: str) -> None:
        """u flanks v on one side and `side` on the other, and that one
        still stands when v goes (v's partner, or an earlier fact from v to
        it): v must be freed from u's side, after u."""
        by_id, r = self.by_id, link["side"]
        if r not in by_id:
            raise CertificateError(f"{where}: tile {r} is not standing")
        if not any(
            _blocks(s, by_id[u], by_id[v]) and _blocks(-s, by_id[r], by_id[v])
            for s in (-1, 1)
        ):
            raise CertificateError(
                f"{where}: tiles {u} and {r} do not flank tile {v} on both sides"
            )
        k = link.get("fact")
        if k is None:
            if self.partner.get(v) != r:
                raise CertificateError(f"{where}: tile {r} is not {v}'s partner")
        elif not (
            isinstance(k, int)
            and not isinstance(k, bool)
            and 0 <= k < len(self.proved)
            and self.same(self.proved[k][0], v)
            and self.same(self.proved[k][1], r)
        ):
            raise CertificateError(
                f"{where}: 'fact' must be an earlier fact from {v} to {r}"
            )

    def row(self, u: Any, v: Any, row: object, where: str) -> None:
        """`row` runs from u to its partner through v, each tile blocking
        the one before on the same side: until the pair goes, the first
        inner tile to go would be held on both sides, so v goes after u."""
        if not (
            isinstance(row, list)
            and len(row) >= 3
            and row[0] == u
            and u in self.partner
            and row[-1] == self.partner[u]
            and v in row[1:-1]
        ):
            raise CertificateError(
                f"{where}: the row must run from {u} to its partner through {v}"
            )
        if any(t not in self.by_id for t in row):
            raise CertificateError(
                f"{where}: the row names a tile that is not standing"
            )
        tiles = [self.by_id[t] for t in row]
        if not any(
            all(_blocks(s, b, a) for a, b in zip(tiles, tiles[1:], strict=False))
            for s in (-1, 1)
        ):
            raise CertificateError(
                f"{where}: the row {row} is not one row of neighbours"
            )
