"""Commitments to a deal and its witness: proof that both were fixed in advance.

A daily or a level is dealt from a per-deal seed that only the site can
compute (`deal_seed`: HMAC-SHA256 of the deal's public seed under a site
secret), so neither the public code nor the public seed gives the deal or
its witness ahead of time. The SHA-256 of the encoding below is published
with the deal (a daily's a week before its day); the witness and the deal
seed are shown only once the deal may be revealed. Anyone can then hash the
encoding again and compare, deal the board again from the deal seed with
`generate_deal`, and replay the witness (docs/fair-deals.md shows how with
standard tools).

The encoding is UTF-8 text, one item a line, each line ending in a newline:

    mahjong-commitment/2              the scheme
    <deal seed>                       64 hex digits
    tile <id> <x> <y> <z> <face>      one line per tile, in the deal's order
    pair <a> <b>                      one line per pair of the witness, in order

So it binds the whole deal (every spot and face), its clearing and the seed
it was dealt from; the seed, unguessable until it is shown, keeps the
witness from being guessed from the hash. Deals stored before deal seeds
existed keep scheme `mahjong-commitment/1`: the same text with a random
salt of 64 hex digits in place of the seed, which deals nothing.
"""

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

Pair = tuple[int, int]

SCHEME = "mahjong-commitment/1"  # second line: a random salt
SEEDED_SCHEME = "mahjong-commitment/2"  # second line: the deal seed
SCHEMES = (SCHEME, SEEDED_SCHEME)


def new_salt() -> str:
    return secrets.token_hex(32)


def deal_seed(secret: str, layout_slug: str, seed: str | int) -> str:
    """The seed a deal is drawn from: 64 hex digits that the public seed
    alone does not give. repr() keeps the int 7 and the string "7" apart,
    as the engine's Rng does."""
    message = f"deal-seed/1\x1f{layout_slug}\x1f{seed!r}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def encoding(
    tiles: Iterable[Mapping[str, Any]],
    solution: Iterable[Pair],
    salt: str,
    scheme: str = SCHEME,
) -> bytes:
    """The committed text for a deal's tiles (spec JSON objects) and witness;
    `salt` is the salt or the deal seed, as the scheme says."""
    if scheme not in SCHEMES:
        raise ValueError(f"unknown commitment scheme {scheme!r}")
    lines = [scheme, salt]
    lines += [f"tile {t['id']} {t['x']} {t['y']} {t['z']} {t['face']}" for t in tiles]
    lines += [f"pair {a} {b}" for a, b in solution]
    return "".join(line + "\n" for line in lines).encode("utf-8")


def commitment(
    tiles: Iterable[Mapping[str, Any]],
    solution: Iterable[Pair],
    salt: str,
    scheme: str = SCHEME,
) -> str:
    """The SHA-256 of the encoding, as 64 hex digits."""
    return hashlib.sha256(encoding(tiles, solution, salt, scheme)).hexdigest()
