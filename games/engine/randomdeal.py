"""Positions made at random, the honest test of the solver and the hint.

`random_position`: faces shuffled onto the spots with no construction.
Unlike `generate_deal`, nothing makes the result clearable: about 3% of
Turtle deals made this way cannot be cleared. `played_at_random`: a
constructed deal after some random pairs, as a careless player leaves it
(often a pile that can no longer be cleared). The benchmark and the tests
use both.
"""

from games.engine.board import Board
from games.engine.deal import draw_face_pairs, generate_deal
from games.engine.layout import Layout
from games.engine.rng import Rng


def random_position(layout: Layout, seed: str | int) -> Board:
    """The layout full, faces drawn as whole pairs and shuffled onto it.

    On a 144-spot layout the draw is the whole set.
    """
    rng = Rng("random-position/1", layout.slug, seed)
    faces = [f for pair in draw_face_pairs(len(layout) // 2, rng) for f in pair]
    rng.shuffle(faces)
    return Board(layout, tuple(faces))


def played_at_random(layout: Layout, seed: int) -> Board:
    """A constructed deal after 0 to 39 free pairs taken at random."""
    board = Board(layout, generate_deal(layout, seed).faces)
    rng = Rng("bench-hint", seed)
    for _ in range(rng.below(40)):
        pairs = board.free_pairs()
        if not pairs:
            break
        board.take(*rng.choice(pairs))
    return board
