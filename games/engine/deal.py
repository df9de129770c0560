"""Seeded deal generation, clearable by construction.

A deal is made by clearing the empty spots in a random order (two free spots
at a time) and then giving each removed pair of spots a pair of matching
faces. The removal order is kept as the witness `solution`.
"""

from dataclasses import dataclass

from games.engine.construct import Pair, random_clearing
from games.engine.faces import GROUPS, group_faces
from games.engine.layout import Layout
from games.engine.rng import Rng


class DealError(ValueError):
    pass


@dataclass(frozen=True)
class Deal:
    layout: Layout
    seed: str | int
    faces: tuple[str, ...]  # the face on each layout position; id = index
    solution: tuple[Pair, ...]


def draw_face_pairs(
    pairs: int, rng: Rng, quads: int | None = None
) -> list[tuple[str, str]]:
    """Choose `pairs` pairs of faces from the 144-tile set.

    With `quads` None the pairs are a random draw from the set's 72 pairs.
    Otherwise exactly `quads` groups come as all four tiles (two pairs) and
    the rest as single pairs of other groups: the difficulty knob, since a
    group of four can be paired up wrongly and a lone pair cannot.
    """
    if not 0 < pairs <= 72:
        raise DealError(f"{pairs} pairs; a deal holds 1 to 72")
    order = list(GROUPS)
    rng.shuffle(order)
    if quads is None:
        every = [(g, k) for g in GROUPS for k in (0, 1)]
        rng.shuffle(every)
        chosen = sorted(every[:pairs], key=lambda gk: (GROUPS.index(gk[0]), gk[1]))
        return [_pair_of(g, k) for g, k in chosen]
    singles = pairs - 2 * quads
    if quads < 0 or singles < 0 or quads + singles > len(GROUPS):
        raise DealError(
            f"{quads} groups of four do not fit a deal of {pairs} pairs "
            f"(between {max(0, pairs - len(GROUPS))} and {pairs // 2})"
        )
    out = []
    for g in order[:quads]:
        out += [_pair_of(g, 0), _pair_of(g, 1)]
    for g in order[quads : quads + singles]:
        out.append(_pair_of(g, rng.below(2)))
    return out


def _pair_of(group: str, k: int) -> tuple[str, str]:
    """The k-th pair (0 or 1) of a group's four faces."""
    faces = group_faces(group)
    return faces[2 * k], faces[2 * k + 1]


def generate_deal(layout: Layout, seed: str | int, quads: int | None = None) -> Deal:
    """The deal for this layout and seed: the same on every machine."""
    rng = Rng("deal/1", layout.slug, seed, quads)
    order = random_clearing(layout, layout.all_mask, rng)
    if order is None:
        raise DealError(f"layout {layout.slug!r} cannot be cleared in any order")
    face_pairs = draw_face_pairs(len(order), rng, quads)
    rng.shuffle(face_pairs)
    faces: list[str] = [""] * len(layout)
    for (a, b), (fa, fb) in zip(order, face_pairs, strict=True):
        if rng.below(2):
            fa, fb = fb, fa
        faces[a], faces[b] = fa, fb
    return Deal(layout=layout, seed=seed, faces=tuple(faces), solution=tuple(order))
