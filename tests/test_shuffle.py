"""Shuffle re-lays the standing faces on the same spots, clearably."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.board import Board, iter_bits
from games.engine.catalogue import get_layout
from games.engine.construct import exact_clearing
from games.engine.deal import generate_deal
from games.engine.faces import group_of
from games.engine.shuffle import shuffle
from tests.engine_helpers import board_of, replay


def standing_faces(board: Board, faces) -> Counter:
    return Counter(faces[i] for i in iter_bits(board.standing))


@settings(max_examples=30, deadline=None)
@given(
    slug=st.sampled_from(["small", "turtle"]),
    seed=st.integers(0, 10**6),
    taken=st.integers(0, 60),
    play_seed=st.integers(0, 10**6),
)
def test_a_shuffled_position_clears_with_the_same_faces(slug, seed, taken, play_seed):
    deal = generate_deal(get_layout(slug), seed)
    board = Board(deal.layout, deal.faces)
    # Take pairs by a different rule than the witness, so groups get split.
    for _ in range(taken):
        pairs = board.free_pairs()
        if not pairs:
            break
        board.take(*pairs[play_seed % len(pairs)])
    result = shuffle(board, play_seed)
    if result.dead_spots:
        # Legitimate only when the spots themselves cannot be emptied.
        assert exact_clearing(board.layout, board.standing) is None
        return
    assert standing_faces(board, result.faces) == standing_faces(board, board.faces)
    gone = [i for i in range(len(board.faces)) if not board.standing >> i & 1]
    assert all(result.faces[i] == board.faces[i] for i in gone)
    relaid = Board(board.layout, result.faces, board.standing)
    assert replay(relaid, result.solution).cleared


def test_a_split_group_is_joined_back_into_pairs():
    # One pair of each flower kind left: plum with orchid must stay a pair.
    board = board_of(
        (0, 0, 0, "flower-plum"),
        (2, 0, 0, "dots-1"),
        (4, 0, 0, "dots-1"),
        (6, 0, 0, "flower-orchid"),
    )
    result = shuffle(board, 3)
    faces = result.faces
    for a, b in result.solution:
        assert group_of(faces[a]) == group_of(faces[b])


def test_two_tiles_stacked_admit_no_order():
    board = board_of((0, 0, 0, "dots-1"), (0, 0, 1, "dots-1"))
    result = shuffle(board, 1)
    assert result.dead_spots and result.faces is None


def test_the_same_seed_gives_the_same_shuffle():
    deal = generate_deal(get_layout("turtle"), 4)
    board = Board(deal.layout, deal.faces)
    assert shuffle(board, "a") == shuffle(board, "a")
    assert shuffle(board, "a").faces != shuffle(board, "b").faces
