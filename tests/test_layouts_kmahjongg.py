"""Reading KMahjongg .layout files, both versions, into spec positions."""

import pytest

from games.engine.kmahjongg import KMahjonggError, layout_from_kmahjongg
from games.engine.kmahjongg import parse_positions as parse

# Two tiles side by side, two on top set half a tile to the right.
V11 = """kmahjongg-layout-v1.1
# a tiny test layout
w6
h2
d2
1212..
3434..
.1212.
.3434.
"""


def v10(levels: dict[int, list[str]]) -> str:
    """A v1.0 file: 5 levels of 16 rows of 32 cells, the given rows filled."""
    lines = ["kmahjongg-layout-v1.0", "# made for a test"]
    for z in range(5):
        rows = levels.get(z, [])
        lines += [row.ljust(32, ".") for row in rows]
        lines += ["." * 32] * (16 - len(rows))
    return "\n".join(lines) + "\n"


def test_v11_reads_the_size_lines_and_each_level():
    assert parse(V11) == ((0, 0, 0), (2, 0, 0), (1, 0, 1), (3, 0, 1))


def test_a_layout_drawn_away_from_the_corner_moves_to_the_origin():
    rows = V11.splitlines()
    shifted = [rows[0], rows[1], "w8", "h3", "d2"]
    shifted += [".." * 4] + [".." + r for r in rows[5:7]]
    shifted += [".." * 4] + [".." + r for r in rows[7:9]]
    layout = layout_from_kmahjongg("\n".join(shifted), "tiny", "Tiny")
    assert layout.positions == ((0, 0, 0), (2, 0, 0), (1, 0, 1), (3, 0, 1))
    assert layout.levels == 2 and layout.name == "Tiny"


def test_v10_is_a_32_by_16_grid_of_5_levels():
    text = v10(
        {
            0: ["..1212", "..3434", "..1212", "..3434"],
            2: [".......", "...12", "...34"],
        }
    )
    positions = parse(text)
    assert positions == (
        (2, 0, 0),
        (4, 0, 0),
        (2, 2, 0),
        (4, 2, 0),
        (3, 1, 2),
    )


def test_v10_rows_wider_than_32_cells_are_refused():
    text = v10({0: ["12" * 17, "34" * 17]})
    with pytest.raises(KMahjonggError, match="wider than 32"):
        parse(text)


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty file"),
        ("kmahjongg-layout-v2.0\n", "expected kmahjongg-layout-v1.0"),
        ("kmahjongg-layout-v1.1\nw4\nh2\n1212\n3434\n", "missing d"),
        ("kmahjongg-layout-v1.1\nw4\nh2\nd1\n1212\n3434\n1212\n", "3 rows"),
        ("kmahjongg-layout-v1.1\nw4\nh2\nd1\n1212\n3.34\n", "has no 4"),
        ("kmahjongg-layout-v1.1\nw4\nh2\nd1\n12..\n34.2\n", "belongs to no tile"),
        ("kmahjongg-layout-v1.1\nw4\nh2\nd1\n12x.\n34..\n", "'x'"),
    ],
)
def test_broken_files_are_refused_with_the_place(text, message):
    with pytest.raises(KMahjonggError, match=message):
        parse(text)


def test_a_file_drawing_an_odd_number_of_tiles_is_not_a_layout():
    text = "kmahjongg-layout-v1.1\nw2\nh2\nd1\n12\n34\n"
    with pytest.raises(ValueError, match="even number"):
        layout_from_kmahjongg(text, "one", "One")
