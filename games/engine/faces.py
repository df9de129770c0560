"""The 42 faces, the 144-tile set, and which faces match.

Flowers match any flower and seasons any season, never each other; every
other face matches only itself. Matching is by *group*: the group of a face is
the face itself, or "flower" or "season".
"""

from collections import Counter
from typing import Final

SUITS: Final = ("characters", "dots", "bamboo")
WINDS: Final = ("wind-east", "wind-south", "wind-west", "wind-north")
DRAGONS: Final = ("dragon-red", "dragon-green", "dragon-white")
FLOWERS: Final = (
    "flower-plum",
    "flower-orchid",
    "flower-chrysanthemum",
    "flower-bamboo",
)
SEASONS: Final = ("season-spring", "season-summer", "season-autumn", "season-winter")

SUIT_FACES: Final = tuple(f"{suit}-{n}" for suit in SUITS for n in range(1, 10))
# Faces of which the full set has four identical copies.
REGULAR_FACES: Final = SUIT_FACES + WINDS + DRAGONS
FACES: Final = REGULAR_FACES + FLOWERS + SEASONS
FACE_SET: Final = frozenset(FACES)

FLOWER: Final = "flower"
SEASON: Final = "season"
# The 36 groups: 34 regular faces plus the flower and season groups.
GROUPS: Final = REGULAR_FACES + (FLOWER, SEASON)


class FaceError(ValueError):
    """A face code that is not one of the 42."""


def group_of(face: str) -> str:
    """The matching group of a face: tiles match when their groups are equal."""
    if face.startswith("flower-"):
        group = FLOWER
    elif face.startswith("season-"):
        group = SEASON
    else:
        group = face
    if face not in FACE_SET:
        raise FaceError(f"unknown face {face!r}")
    return group


def matches(a: str, b: str) -> bool:
    return group_of(a) == group_of(b)


def group_faces(group: str) -> tuple[str, ...]:
    """The faces that make up the four tiles of a group in the full set."""
    if group == FLOWER:
        return FLOWERS
    if group == SEASON:
        return SEASONS
    return (group,) * 4


def full_set() -> list[str]:
    """The 144 tiles of the standard set, in a fixed order."""
    return [face for group in GROUPS for face in group_faces(group)]


def check_composition(faces: list[str]) -> None:
    """Raise FaceError unless `faces` is whole pairs drawn from the full set.

    Each regular face 0, 2 or 4 times; each flower and season at most once,
    and 0, 2 or 4 flowers (likewise seasons).
    """
    counts = Counter(faces)
    for face in counts:
        group_of(face)
    for face in REGULAR_FACES:
        if counts[face] not in (0, 2, 4):
            raise FaceError(f"{face} appears {counts[face]} times; must be 0, 2 or 4")
    for name, members in ((FLOWER, FLOWERS), (SEASON, SEASONS)):
        for face in members:
            if counts[face] > 1:
                raise FaceError(f"{face} appears {counts[face]} times; at most once")
        total = sum(counts[face] for face in members)
        if total not in (0, 2, 4):
            raise FaceError(f"{total} {name}s; must be 0, 2 or 4")
