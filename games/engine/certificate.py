"""Certificates that a position cannot be cleared, checkable without the solver.

Some positions are lost for a reason that needs no search at all: the tiles
of one matching group cannot be paired off, whichever way they are paired,
because in every pairing one pair has one tile lying (directly or through a
chain of tiles) on the other, and a tile can only be taken once nothing lies
on it. This module finds such a reason and checks one, using nothing but
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
"""

from collections.abc import Sequence

from games.engine.board import Board, iter_bits
from games.engine.faces import group_of

FORMAT = "mahjong-impossible/1"

Pair = tuple[int, int]


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


def find_certificate(board: Board, ids: Sequence[int] | None = None) -> dict | None:
    """A certificate that the board cannot be cleared, when a group's
    tiles prove it; `ids` names tiles as the JSON does (default: index)."""
    name = list(ids) if ids is not None else list(range(len(board.faces)))
    by_group: dict[int, list[int]] = {}
    for t in iter_bits(board.standing):
        by_group.setdefault(board.groups[t], []).append(t)
    for tiles in by_group.values():
        group = [name[t] for t in tiles]
        if len(tiles) % 2:
            return {"format": FORMAT, "rule": "odd-group", "group": group}
        if len(tiles) not in (2, 4):
            continue
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
                break
            pair, chain = found
            blocked.append(
                {"pair": [name[t] for t in pair], "chain": [name[t] for t in chain]}
            )
        else:
            return {
                "format": FORMAT,
                "rule": "no-pairing",
                "group": group,
                "blocked": blocked,
            }
    return None


# -- checking --------------------------------------------------------------


def _covers(upper: dict, lower: dict) -> bool:
    """The spec's covering, on two tiles of the JSON."""
    return (
        upper["z"] == lower["z"] + 1
        and abs(upper["x"] - lower["x"]) < 2
        and abs(upper["y"] - lower["y"]) < 2
    )


def check_certificate(tiles: Sequence[dict], certificate: object) -> str:
    """Check a certificate against a position's standing tiles (spec JSON
    objects); returns what it proves, or raises CertificateError."""
    if not isinstance(certificate, dict) or certificate.get("format") != FORMAT:
        raise CertificateError(f"not a certificate of format {FORMAT}")
    by_id = {t["id"]: t for t in tiles}
    group = certificate.get("group")
    if not isinstance(group, list) or not group or any(g not in by_id for g in group):
        raise CertificateError("'group' must list standing tile ids")
    kind = group_of(by_id[group[0]]["face"])
    members = sorted(t["id"] for t in tiles if group_of(t["face"]) == kind)
    if sorted(group) != members:
        raise CertificateError(
            f"the group must be every standing tile matching tile {group[0]}: {members}"
        )
    rule = certificate.get("rule")
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
    for pairing in pairings(sorted(group)):
        if not any(tuple(sorted(p)) in proved for p in pairing):
            raise CertificateError(f"nothing shows the pairing {list(pairing)} fails")
    return (
        f"every way to pair tiles {sorted(group)} puts one tile of a pair "
        "under the other"
    )


def _checked_chain(by_id: dict, entry: object) -> tuple[list, list]:
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
