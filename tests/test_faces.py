"""Faces and matching exactly as the spec says."""

import pytest

from games.engine.faces import (
    FACES,
    FaceError,
    check_composition,
    full_set,
    matches,
)


def test_there_are_42_faces_and_144_tiles():
    assert len(FACES) == 42
    tiles = full_set()
    assert len(tiles) == 144
    assert all(tiles.count(f) == 4 for f in FACES if f[:6] not in ("flower", "season"))
    assert all(tiles.count(f) == 1 for f in FACES if f[:6] in ("flower", "season"))


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ("dots-5", "dots-5", True),
        ("dots-5", "dots-6", False),
        ("dots-5", "bamboo-5", False),
        ("flower-plum", "flower-orchid", True),
        ("season-spring", "season-winter", True),
        ("flower-plum", "season-spring", False),
        ("dragon-white", "dragon-white", True),
        ("dragon-white", "dragon-red", False),
        ("wind-east", "wind-west", False),
    ],
)
def test_matching(a, b, expected):
    assert matches(a, b) is expected
    assert matches(b, a) is expected


def test_an_unknown_face_is_refused():
    with pytest.raises(FaceError, match="unknown face 'dots-10'"):
        matches("dots-10", "dots-10")


def test_composition_accepts_whole_pairs_from_the_set():
    check_composition(full_set())
    check_composition(["dots-1"] * 2 + ["flower-plum", "flower-bamboo"])


@pytest.mark.parametrize(
    "faces, message",
    [
        (["dots-1"] * 3 + ["dots-2"], "dots-1 appears 3 times"),
        (["flower-plum", "flower-plum"], "at most once"),
        (["flower-plum", "season-spring"], "1 flowers"),
        (["dots-1"] * 6, "dots-1 appears 6 times"),
    ],
)
def test_composition_refuses_what_the_set_cannot_give(faces, message):
    with pytest.raises(FaceError, match=message):
        check_composition(faces)
