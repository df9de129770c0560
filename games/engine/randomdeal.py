"""Deals with faces shuffled onto the spots at random, with no construction.

Unlike `generate_deal`, nothing here makes the result clearable: about 3% of
Turtle deals made this way cannot be cleared. That is what makes them the
honest test of the solver, so the benchmark and the solver tests use them.
"""

from games.engine.board import Board
from games.engine.deal import draw_face_pairs
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
