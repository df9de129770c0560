"""The free rule, case by case from the spec."""

import pytest

from games.engine.board import Board, MoveError
from games.engine.catalogue import get_layout
from games.engine.layout import Layout, LayoutError


def lay(*positions) -> Layout:
    return Layout(slug="t", name="t", positions=tuple(positions))


def free_set(layout: Layout) -> set[int]:
    free = layout.free_mask(layout.all_mask)
    return {i for i in range(len(layout)) if free >> i & 1}


def test_a_lone_row_is_free_only_at_its_ends():
    layout = lay((0, 0, 0), (2, 0, 0), (4, 0, 0), (6, 0, 0))
    assert free_set(layout) == {0, 3}


def test_a_neighbour_half_a_step_forward_still_blocks_that_side():
    # Tile 1 sits between 0 and 2, but 2 is half a step down: still blocks.
    layout = lay((0, 0, 0), (2, 0, 0), (4, 1, 0), (10, 0, 0))
    assert 1 not in free_set(layout)
    assert layout.blocked_reason(1, layout.all_mask) == "sides"


def test_a_neighbour_a_whole_step_forward_does_not_block():
    layout = lay((0, 0, 0), (2, 0, 0), (4, 2, 0), (10, 0, 0))
    assert 1 in free_set(layout)


def test_tiles_in_front_or_behind_never_block():
    layout = lay((0, 0, 0), (0, 2, 0), (0, 4, 0), (4, 0, 0))
    assert free_set(layout) == {0, 1, 2, 3}


def test_a_partial_cover_blocks():
    # The upper tile is shifted by half a tile both ways: it still covers.
    layout = lay((0, 0, 0), (1, 1, 1))
    assert layout.blocked_reason(0, layout.all_mask) == "covered"
    assert free_set(layout) == {1}


def test_a_tile_one_full_step_away_on_the_next_level_does_not_cover():
    layout = lay((0, 0, 0), (2, 0, 1))
    assert free_set(layout) == {0, 1}


def test_a_tile_two_levels_up_does_not_cover():
    layout = lay((0, 0, 0), (0, 0, 2))
    assert free_set(layout) == {0, 1}


def test_turtle_has_35_free_tiles_at_the_start():
    turtle = get_layout("turtle")
    assert len(turtle) == 144
    assert len(free_set(turtle)) == 35


def test_turtle_levels_and_left_end_tile():
    turtle = get_layout("turtle")
    levels = [sum(1 for p in turtle.positions if p[2] == z) for z in range(5)]
    assert levels == [87, 36, 16, 4, 1]
    # The lone tile at the left end sits between the two middle rows and
    # holds the first tile of both.
    end = turtle.positions.index((0, 7, 0))
    held = {turtle.positions[i] for i in range(144) if turtle.left_mask[i] >> end & 1}
    assert held == {(2, 6, 0), (2, 8, 0)}


def test_small_has_24_below_and_8_on_top():
    small = get_layout("small")
    assert sorted(p[2] for p in small.positions) == [0] * 24 + [1] * 8


@pytest.mark.parametrize(
    "positions, message",
    [
        (
            ((0, 0, 0), (1, 1, 0)),
            r"tile 0 at \(0, 0, 0\) and tile 1 at \(1, 1, 0\) overlap",
        ),
        (((0, 0, 0), (2, 0, 0), (4, 0, 0)), "3 tiles; a layout needs an even number"),
        (
            tuple((2 * i, 0, 0) for i in range(146)),
            "146 tiles; a layout holds at most 144",
        ),
        ((), "at least two tiles"),
    ],
)
def test_invalid_layouts_are_refused_with_the_tiles_named(positions, message):
    with pytest.raises(LayoutError, match=message):
        lay(*positions)


def test_taking_updates_the_free_set_and_undo_restores_it():
    layout = lay((0, 0, 0), (2, 0, 0), (4, 0, 0), (6, 0, 0), (2, 0, 1), (4, 0, 1))
    board = Board(layout, ("dots-1",) * 2 + ("dots-2",) * 2 + ("dots-1", "dots-2"))
    with pytest.raises(MoveError) as blocked:
        board.take(0, 1)
    assert blocked.value.reason == "covered"
    before = board.free
    board.take(4, 0)
    assert board.free == layout.free_mask(board.standing)
    board.undo()
    assert board.free == before and board.standing == layout.all_mask


@pytest.mark.parametrize(
    "a, b, reason, tile",
    [
        (0, 0, "same", None),
        (0, 3, "mismatch", None),
        (0, 1, "sides", 1),
        (1, 0, "sides", 1),
        (0, 9, "gone", 9),
    ],
)
def test_illegal_pairs_say_why_and_name_the_tile_at_fault(a, b, reason, tile):
    layout = lay((0, 0, 0), (2, 0, 0), (4, 0, 0), (6, 0, 0))
    board = Board(layout, ("dots-1", "dots-1", "dots-2", "dots-2"))
    with pytest.raises(MoveError) as err:
        board.take(a, b)
    assert (err.value.reason, err.value.tile) == (reason, tile)
    assert board.standing == layout.all_mask


def test_peeling_free_tiles_round_after_round_frees_a_row_from_its_ends():
    """A row of five with a tile on its middle: the ends and the top go in
    the first round, then each round frees the next tile in from each end."""
    layout = lay((0, 0, 0), (2, 0, 0), (4, 0, 0), (6, 0, 0), (8, 0, 0), (4, 0, 1))
    assert layout.peel_rounds(layout.all_mask) == [0, 1, 2, 1, 0, 0]
