"""Commitments to a deal's witness: proof that it was fixed in advance.

When a daily or a level is dealt, a secret random salt is drawn and the
SHA-256 of the encoding below is published with the deal; the witness and
the salt are shown only once the deal may be revealed. Anyone can then hash
the encoding again and compare (docs/fair-deals.md shows how with standard
tools), and replay the witness to see that the deal clears.

The encoding (version `mahjong-commitment/1`) is UTF-8 text, one item a
line, each line ending in a newline:

    mahjong-commitment/1
    <salt>
    tile <id> <x> <y> <z> <face>      one line per tile, in the deal's order
    pair <a> <b>                      one line per pair of the witness, in order

So it binds the whole deal (every spot and face) as well as the clearing;
the salt, 64 hex digits, keeps the witness from being guessed from the hash.
"""

import hashlib
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

Pair = tuple[int, int]

SCHEME = "mahjong-commitment/1"


def new_salt() -> str:
    return secrets.token_hex(32)


def encoding(
    tiles: Iterable[Mapping[str, Any]], solution: Iterable[Pair], salt: str
) -> bytes:
    """The committed text for a deal's tiles (spec JSON objects) and witness."""
    lines = [SCHEME, salt]
    lines += [f"tile {t['id']} {t['x']} {t['y']} {t['z']} {t['face']}" for t in tiles]
    lines += [f"pair {a} {b}" for a, b in solution]
    return "".join(line + "\n" for line in lines).encode("utf-8")


def commitment(
    tiles: Iterable[Mapping[str, Any]], solution: Iterable[Pair], salt: str
) -> str:
    """The SHA-256 of the encoding, as 64 hex digits."""
    return hashlib.sha256(encoding(tiles, solution, salt)).hexdigest()
