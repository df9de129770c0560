"""Reading KMahjongg .layout files, both versions, into spec positions.

The files here are drawn the way KDE's shipped layouts are: a tile as `12`
over `43`, comment lines for the size and each level, every row as wide as
the grid, every level written out."""

import pytest

from games.engine.catalogue import get_layout
from games.engine.kmahjongg import (
    KMahjonggError,
    desktop_name,
    layout_from_kmahjongg,
)
from games.engine.kmahjongg import parse_positions as parse

# Two tiles side by side, two on top set half a tile to the right.
V11 = """kmahjongg-layout-v1.1
# a tiny test layout
w6
h2
d2
1212..
4343..
.1212.
.4343.
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
            0: ["..1212", "..4343", "..1212", "..4343"],
            2: [".......", "...12", "...43"],
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
    text = v10({0: ["12" * 17, "43" * 17]})
    with pytest.raises(KMahjonggError, match="wider than 32"):
        parse(text)


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty file"),
        ("kmahjongg-layout-v2.0\n", "expected kmahjongg-layout-v1.0"),
        ("kmahjongg-layout-v1.1\nw4\nh2\n1212\n4343\n", "missing d"),
        ("kmahjongg-layout-v1.1\nw4\nh2\nd1\n1212\n4343\n1212\n", "3 rows"),
        (
            "kmahjongg-layout-v1.1\nw4\nh2\nd1\n1212\n4.43\n",
            r"line 6, column 2: the tile at \(0, 0\) .* no right bottom quarter",
        ),
        (
            "kmahjongg-layout-v1.1\nw4\nh2\nd1\n12..\n43.2\n",
            "line 6, column 4: '2' belongs to no tile",
        ),
        ("kmahjongg-layout-v1.1\nw4\nh2\nd1\n12x.\n43..\n", "line 5, column 3: 'x'"),
    ],
)
def test_broken_files_are_refused_with_the_place(text, message):
    with pytest.raises(KMahjonggError, match=message):
        parse(text)


def test_a_file_drawing_an_odd_number_of_tiles_is_not_a_layout():
    text = "kmahjongg-layout-v1.1\nw2\nh2\nd1\n12\n43\n"
    with pytest.raises(ValueError, match="even number"):
        layout_from_kmahjongg(text, "one", "One")


QUARTER_CELLS = ((0, 0), (1, 0), (1, 1), (0, 1))


def kde_drawing(positions, version: str = "v1.1") -> str:
    """A layout drawn as KMahjongg's editor saves one (and as v1.0 files
    were): each tile's cells 1 and 2 on its row, 4 and 3 on the next."""
    width = max(x for x, _, _ in positions) + 2
    height = max(y for _, y, _ in positions) + 2
    depth = max(z for _, _, z in positions) + 1
    if version == "v1.0":
        assert width <= 32 and height <= 16 and depth <= 5
        width, height, depth = 32, 16, 5
    grid = [[["."] * width for _ in range(height)] for _ in range(depth)]
    for x, y, z in positions:
        for (dx, dy), digit in zip(QUARTER_CELLS, "1234", strict=True):
            grid[z][y + dy][x + dx] = digit
    lines = [f"kmahjongg-layout-{version}"]
    if version == "v1.1":
        lines += ["# Board size in quarter tiles", f"w{width}", f"h{height}"]
        lines += ["# Board depth", f"d{depth}"]
    for z, level in enumerate(grid):
        lines.append(f"# Level {z} -------------------------")
        lines += ["".join(row) for row in level]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "slug, version",
    # v1.0's fixed 32 x 16 grid holds the Turtle and the Pyramid, not Spider.
    [(s, v) for s in ("turtle", "pyramid") for v in ("v1.0", "v1.1")]
    + [("spider", "v1.1")],
)
def test_layouts_drawn_the_kde_way_read_back_in_both_versions(slug, version):
    """KDE's default.layout is our Turtle drawn this way, in v1.1."""
    layout = get_layout(slug)
    text = kde_drawing([(x + 1, y, z) for x, y, z in layout.positions], version)
    read = layout_from_kmahjongg(text, slug, "Read")
    assert sorted(read.positions) == sorted(layout.positions)


def test_a_quarter_with_the_wrong_digit_is_read_as_kmahjongg_reads_it():
    """KDE's castle.layout draws one tile `12` over `32`: KMahjongg counts a
    tile at each 1 and only needs the other cells filled, and so do we."""
    text = "kmahjongg-layout-v1.1\nw4\nh2\nd1\n1212\n3243\n"
    assert parse(text) == ((0, 0, 0), (2, 0, 0))


def test_the_old_34_drawing_is_read_too():
    assert parse("kmahjongg-layout-v1.1\nw2\nh2\nd1\n12\n34\n") == ((0, 0, 0),)


def test_more_tiles_than_a_set_are_refused_saying_why():
    positions = [(2 * i, 2 * j, 0) for i in range(15) for j in range(10)]
    with pytest.raises(KMahjonggError, match="150 tiles; a layout holds at most 144"):
        layout_from_kmahjongg(kde_drawing(positions), "big", "Big")


def test_the_desktop_file_gives_the_name():
    text = "[KMahjonggLayout]\nName=Castle\nName[de]=Burg\nFileName=castle.layout\n"
    assert desktop_name(text) == "Castle"
    assert desktop_name("[Other]\nName=No\n") is None
