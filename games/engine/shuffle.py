"""Shuffle: re-lay the standing faces on the same spots so the pile clears.

The standing faces are first joined into pairs within their group (two
plain tiles of a face, or any two flowers, or any two seasons). The spots are
then cleared in a random order, two free spots at a time, and each removed
pair of spots gets a pair of faces: the order is a witness that the new
position clears. When the spots admit no clearing order at all (the last two
tiles stacked one on the other), no re-lay can help; that is reported as
`dead_spots` and the callers decide what to do.
"""

from dataclasses import dataclass

from games.engine.board import Board, iter_bits
from games.engine.construct import Pair, random_clearing
from games.engine.rng import Rng


class ShuffleError(ValueError):
    """The standing faces cannot be paired (a group has an odd count)."""


@dataclass(frozen=True)
class ShuffleResult:
    # Faces for every board index (those of taken tiles unchanged), or None
    # when the spots admit no clearing order.
    faces: tuple[str, ...] | None
    dead_spots: bool
    solution: tuple[Pair, ...] | None


def standing_face_pairs(board: Board) -> list[tuple[str, str]]:
    """The standing faces joined into matching pairs, in a fixed order."""
    by_group: dict[int, list[str]] = {}
    for i in iter_bits(board.standing):
        by_group.setdefault(board.groups[i], []).append(board.faces[i])
    pairs = []
    for group in sorted(by_group):
        faces = sorted(by_group[group])
        if len(faces) % 2:
            raise ShuffleError(f"an odd number of {faces[0]} tiles stand")
        pairs += [(faces[k], faces[k + 1]) for k in range(0, len(faces), 2)]
    return pairs


def shuffle(board: Board, seed: str | int) -> ShuffleResult:
    face_pairs = standing_face_pairs(board)
    rng = Rng("shuffle/1", seed)
    order = random_clearing(board.layout, board.standing, rng)
    if order is None:
        return ShuffleResult(faces=None, dead_spots=True, solution=None)
    rng.shuffle(face_pairs)
    faces = list(board.faces)
    for (a, b), (fa, fb) in zip(order, face_pairs, strict=True):
        if rng.below(2):
            fa, fb = fb, fa
        faces[a], faces[b] = fa, fb
    return ShuffleResult(faces=tuple(faces), dead_spots=False, solution=tuple(order))
