"""Small piles for the Together tests, each built to hit one rule."""

from games.engine.layout import Layout
from rooms import together as T
from tests.race_helpers import T0, at

__all__ = ["T0", "at", "spread", "stacks", "game", "seats"]


def spread(faces: list[str]) -> tuple[Layout, tuple[str, ...]]:
    """Tiles far apart on one level: every tile is always free, so any two
    matching tiles make a pair and the pile never sticks."""
    positions = tuple((4 * i, 0, 0) for i in range(len(faces)))
    return Layout("spread", "Spread", positions), tuple(faces)


def stacks(levels: list[list[str]], loose: list[str]) -> tuple[Layout, tuple[str, ...]]:
    """Stacks of tiles (each listed bottom first) and loose tiles beside
    them. Indices run stack by stack, bottom up, then the loose tiles."""
    positions, faces = [], []
    for k, stack in enumerate(levels):
        for z, face in enumerate(stack):
            positions.append((4 * k, 0, z))
            faces.append(face)
    for k, face in enumerate(loose, start=len(levels)):
        positions.append((4 * k, 0, 0))
        faces.append(face)
    return Layout("stacks", "Stacks", tuple(positions)), tuple(faces)


def seats(*names: str) -> list[tuple[int, str, str]]:
    """Seats 0, 1, ... for people; a name that is a bot level is a bot."""
    levels = ("easy", "medium", "hard")
    return [(i, n, n if n in levels else "") for i, n in enumerate(names)]


def game(pile, *names: str, witness=()) -> T.Together:
    layout, faces = pile
    return T.deal(layout, faces, "together-1", seats(*names), T0, witness)
