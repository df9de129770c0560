"""Reading KMahjongg `.layout` text files into the spec's positions.

The format draws each level from above on a grid of half-tile cells. A tile
fills four cells, drawn `12` over `43` as KDE's own files and KMahjongg's
editor write them: `1` top-left, `2` top-right, `3` bottom-right, `4`
bottom-left; `.` is an empty cell and lines starting with `#` are comments.
KMahjongg itself counts a tile at each `1` and reads the other digits only
as "filled", and one of KDE's shipped files (castle.layout) has a `32`
where `43` belongs; so a tile's other three cells must each hold a 2, 3 or
4, but not necessarily the right one. A filled cell that belongs to no tile
is refused, with its line and column. The first line names the version:

- `kmahjongg-layout-v1.0`: a fixed grid of 32 x 16 cells and 5 levels;
- `kmahjongg-layout-v1.1`: the size comes next, as lines `w<cells>`,
  `h<cells>` and `d<levels>`.

Then come the levels, bottom first, each `h` rows of at most `w` cells
(shorter rows are padded with empty cells). A tile's top-left cell is its
position in half-tile units, exactly as the spec counts, so nothing is scaled.

Layouts of more than MAX_TILES tiles (KDE ships some of up to 228) are
refused, saying why: KMahjongg fills them by dealing faces more than four
times, which the spec's faces (each at most four times in one deal) and the
deal's witness cannot express.

A layout's `.desktop` file carries its display name (`Name=` in the
`[KMahjonggLayout]` group); `desktop_name` reads it.
"""

from games.engine.layout import MAX_TILES, Layout, LayoutError, Position

V10 = "kmahjongg-layout-v1.0"
V11 = "kmahjongg-layout-v1.1"
V10_SIZE = (32, 16, 5)  # width and height in cells, depth in levels
# Which corner of a tile each digit is, as (dx, dy) from the top-left cell.
QUARTERS = {"1": (0, 0), "2": (1, 0), "3": (1, 1), "4": (0, 1)}
# The cells a tile fills besides its top-left one.
OTHERS = ((1, 0), (0, 1), (1, 1))


class KMahjonggError(LayoutError):
    """A file that is not a KMahjongg layout; the message says where."""


def _content_lines(text: str) -> list[tuple[int, str]]:
    """(line number, text) of every line that is not a comment or blank."""
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if line and not line.startswith("#"):
            out.append((number, line))
    return out


def _read_size(lines: list[tuple[int, str]]) -> tuple[tuple[int, int, int], int]:
    """The v1.1 `w`, `h`, `d` lines: the size and how many lines they took."""
    size: dict[str, int] = {}
    used = 0
    for number, line in lines:
        key, value = line[:1], line[1:]
        if key not in ("w", "h", "d") or not value.isdigit():
            break
        if key in size:
            raise KMahjonggError(f"line {number}: {key} is given twice")
        size[key] = int(value)
        used += 1
    missing = [k for k in ("w", "h", "d") if k not in size]
    if missing:
        raise KMahjonggError(
            f"a {V11} file must give its size: missing {', '.join(missing)}"
        )
    if not all(size.values()):
        raise KMahjonggError("width, height and depth must be at least 1")
    return (size["w"], size["h"], size["d"]), used


def parse_positions(text: str) -> tuple[Position, ...]:
    """The tiles drawn in a KMahjongg layout, sorted by level, row, column."""
    lines = _content_lines(text)
    if not lines:
        raise KMahjonggError("empty file")
    header = lines[0][1].strip()
    if header == V10:
        (width, height, depth), skip = V10_SIZE, 1
    elif header == V11:
        (width, height, depth), used = _read_size(lines[1:])
        skip = 1 + used
    else:
        raise KMahjonggError(
            f"line {lines[0][0]}: expected {V10} or {V11}, got {header[:40]!r}"
        )
    grid = lines[skip:]
    # Whole levels only, so a missing row cannot shift the levels above it;
    # empty levels at the top may be left out.
    if len(grid) % height or len(grid) > height * depth:
        raise KMahjonggError(
            f"{len(grid)} rows of cells; levels of {height} rows, "
            f"at most {depth} of them, are needed"
        )
    # cells[(x, y, z)] = digit, for every non-empty cell.
    cells: dict[Position, str] = {}
    for k, (number, row) in enumerate(grid):
        if len(row) > width:
            raise KMahjonggError(f"line {number}: {len(row)} cells, wider than {width}")
        z, y = divmod(k, height)
        for x, ch in enumerate(row):
            if ch == ".":
                continue
            if ch not in QUARTERS:
                raise KMahjonggError(f"line {number}, column {x + 1}: {ch!r}")
            cells[(x, y, z)] = ch
    return _tiles_from_cells(cells, height, grid)


def _tiles_from_cells(
    cells: dict[Position, str], height: int, grid: list[tuple[int, str]]
) -> tuple[Position, ...]:
    """A tile at each `1`, refusing a tile that is not whole and any filled
    cell no tile claims."""

    def where(x: int, y: int, z: int) -> str:
        return f"line {grid[z * height + y][0]}, column {x + 1}"

    tiles = []
    claimed: set[Position] = set()
    for (x, y, z), ch in sorted(
        cells.items(), key=lambda c: (c[0][2], c[0][1], c[0][0])
    ):
        if ch != "1":
            continue
        for dx, dy in OTHERS:
            cell = (x + dx, y + dy, z)
            if cells.get(cell, "1") == "1" or cell in claimed:
                raise KMahjonggError(
                    f"{where(*cell)}: the tile at ({x}, {y}) on level {z} "
                    f"has no {'right' if dx else 'left'} "
                    f"{'bottom' if dy else 'top'} quarter (a 2, 3 or 4)"
                )
            claimed.add(cell)
        claimed.add((x, y, z))
        tiles.append((x, y, z))
    stray = sorted(set(cells) - claimed, key=lambda c: (c[2], c[1], c[0]))
    if stray:
        x, y, z = stray[0]
        raise KMahjonggError(
            f"{where(x, y, z)}: {cells[stray[0]]!r} belongs to no tile"
        )
    return tuple(tiles)


def desktop_name(text: str) -> str | None:
    """The untranslated `Name=` of a KMahjongg `.desktop` file, if any."""
    group = None
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            group = line[1:-1]
        elif group == "KMahjonggLayout" and line.startswith("Name="):
            return line[len("Name=") :].strip() or None
    return None


def layout_from_kmahjongg(text: str, slug: str, name: str) -> Layout:
    """A Layout from a KMahjongg file, moved so its top-left tile is at 0, 0."""
    positions = parse_positions(text)
    if not positions:
        raise KMahjonggError("the file draws no tiles")
    if len(positions) > MAX_TILES:
        raise KMahjonggError(
            f"the file draws {len(positions)} tiles; a layout holds at most "
            f"{MAX_TILES}, the tiles of one set: KMahjongg fills bigger layouts "
            "by dealing faces more than four times, which a deal here never does"
        )
    mx = min(p[0] for p in positions)
    my = min(p[1] for p in positions)
    return Layout(
        slug=slug,
        name=name,
        positions=tuple((x - mx, y - my, z) for x, y, z in positions),
    )
