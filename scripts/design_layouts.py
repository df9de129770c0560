"""Design the catalogue layouts and write them to games/engine/layouts/.

Run from the repository root: `.venv/bin/python scripts/design_layouts.py`.
Each layout is built from a few shapes (rectangles, rows of given widths,
half-step stacks), validated by the engine and proved clearable with
generate_deal before its file is written. The files are the source of truth
afterwards; this script only records how they were drawn.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.engine.deal import generate_deal  # noqa: E402
from games.engine.layout import Layout, LayoutError  # noqa: E402

OUT = ROOT / "games" / "engine" / "layouts"

Pos = tuple[int, int, int]


def rect(cols: int, rows: int, z: int, x: int = 0, y: int = 0) -> list[Pos]:
    """cols x rows tiles side by side, top-left tile at (x, y)."""
    return [(x + 2 * c, y + 2 * r, z) for r in range(rows) for c in range(cols)]


def rows(widths: list[int], z: int, cx: int, y: int = 0) -> list[Pos]:
    """Rows of the given widths centred on half-unit column cx (tile centre
    x + 1 == cx), one row every 2 units down from y."""
    out = []
    for r, w in enumerate(widths):
        left = cx - w  # centre of the row at cx, footprint 2 units per tile
        out += [(left + 2 * c, y + 2 * r, z) for c in range(w)]
    return out


def step_pyramid(cols: int, rows_: int, levels: int, x: int = 0, y: int = 0):
    """Each level one tile narrower and shallower, set half a tile in."""
    out = []
    for z in range(levels):
        out += rect(cols - z, rows_ - z, z, x + z, y + z)
    return out


def shift(ps: list[Pos], dx: int = 0, dy: int = 0, dz: int = 0) -> list[Pos]:
    return [(x + dx, y + dy, z + dz) for x, y, z in ps]


def mirror_x(ps: list[Pos], axis: int) -> list[Pos]:
    """Mirror across x == axis (tile at x covers x..x+2)."""
    return [(2 * axis - x - 2, y, z) for x, y, z in ps]


# -- the designs ------------------------------------------------------------


def tall_turtle() -> list[Pos]:
    """The turtle stood on end for phones: 87 + 36 + 16 + 4 + 1 on 8 columns."""
    body = rows([6] + [8] * 9 + [6], 0, cx=8, y=2)
    head = [(6, 0, 0), (8, 0, 0)]
    tail = [(7, 24, 0)]
    return (
        body
        + head
        + tail
        + rect(6, 6, 1, 2, 7)
        + rect(4, 4, 2, 4, 9)
        + rect(2, 2, 3, 6, 11)
        + [(7, 12, 4)]
    )


def tower() -> list[Pos]:
    """A tower in five storeys, each set back from the one below."""
    return (
        rect(6, 10, 0)
        + rect(5, 9, 1, 1, 1)
        + rect(4, 4, 2, 2, 6)
        + rect(3, 2, 3, 3, 9)
        + [(5, 10, 4)]
    )


def lantern() -> list[Pos]:
    return (
        rows([2, 4, 6, 6, 6, 6, 6, 4, 2], 0, cx=6)
        + rows([2, 4, 4, 4, 4, 2], 1, cx=6, y=3)
        + rows([2, 2, 2], 2, cx=6, y=5)
    )


def ladder() -> list[Pos]:
    """Two rails and rungs; rungs raised so each one rests on both rails."""
    rails = rect(1, 12, 0, 0, 0) + rect(1, 12, 0, 10, 0)
    rungs = []
    for r in range(0, 12, 2):
        rungs += rect(4, 1, 0, 2, 2 * r)
    return rails + rungs + rect(1, 12, 1, 0, 0) + rect(1, 12, 1, 10, 0)


def kite() -> list[Pos]:
    return (
        rows([1, 3, 5, 7, 5, 3, 1], 0, cx=7)
        + rows([2, 2, 2, 2, 2, 2, 2], 0, cx=7, y=14)[1::2]
        + rows([1, 3, 5, 3, 1], 1, cx=7, y=2)
        + [(6, 6, 2)]
    )


def hourglass() -> list[Pos]:
    return (
        rows([8, 6, 4, 2, 2, 2, 4, 6, 8], 0, cx=8)
        + rows([6, 4, 2, 2, 2, 4, 6], 1, cx=8, y=2)
        + rows([4, 2, 2, 2, 4], 2, cx=8, y=4)
    )


def column() -> list[Pos]:
    return (
        rect(3, 14, 0)
        + rect(3, 14, 1)[3:-3]
        + rect(2, 10, 2, 1, 4)
        + rect(1, 6, 3, 2, 8)
    )


def vase() -> list[Pos]:
    return (
        rows([4, 6, 8, 8, 8, 6, 4, 2, 2, 4, 6], 0, cx=8)
        + rows([4, 6, 6, 4], 1, cx=8, y=3)
        + rows([2, 2], 2, cx=8, y=5)
    )


def arrow() -> list[Pos]:
    return (
        rows([1, 3, 5, 7, 2, 2, 2, 2, 2, 2, 4, 6], 0, cx=7)
        + rows([1, 3, 5], 1, cx=7, y=3)
        + rows([2, 2, 2, 2], 1, cx=7, y=9)
        + rows([3], 2, cx=7, y=5)
    )


def cascade() -> list[Pos]:
    """Terraces stepping down the screen, like water over rocks."""
    return rect(5, 12, 0) + rect(5, 8, 1) + rect(5, 4, 2) + rect(3, 2, 3, 2, 0)


def stupa() -> list[Pos]:
    """A dome: 44 on the ground, 12 around the drum, a 2 x 2 harmika."""
    return (
        rows([4, 6, 8, 8, 8, 6, 4], 0, cx=8)
        + rows([2, 4, 4, 2], 1, cx=8, y=3)
        + rect(2, 2, 2, 6, 5)
    )


def durbar_square() -> list[Pos]:
    """A paved square with one great temple and two small shrines."""
    plaza = rect(10, 5, 0, 0, 2) + rect(4, 1, 0, 6, 0) + rect(4, 1, 0, 6, 12)
    great = rect(3, 3, 1, 7, 4) + rect(2, 2, 2, 8, 5) + [(9, 6, 3)]
    shrines = []
    for x in (1, 15):
        shrines += rect(2, 2, 1, x, 5) + [(x + 1, 6, 2)]
    return plaza + great + shrines


def pagoda() -> list[Pos]:
    """Five tiers, each set half a tile in, and two lamps at the gate."""
    return step_pyramid(8, 5, 5) + [(-2, 4, 0), (16, 4, 0)]


def pyramid() -> list[Pos]:
    return step_pyramid(8, 5, 4)


def fortress() -> list[Pos]:
    """Walls with four corner towers round a courtyard and a keep."""
    ground = rect(10, 8, 0)
    # The wall walk, with a gate in the middle of the front and back walls.
    ring = [
        (x, y, z)
        for x, y, z in rect(10, 8, 1)
        if (x in (0, 18) or y in (0, 14)) and x not in (8, 10)
    ]
    towers = [(1, 1, 2), (17, 1, 2), (1, 13, 2), (17, 13, 2)]
    keep = rect(2, 2, 1, 8, 6) + [(8, 7, 2), (10, 7, 2), (9, 7, 3), (9, 7, 4)]
    return ground + ring + towers + keep


def bridge() -> list[Pos]:
    """A deck on two piers, with a gate on each pier."""
    deck = rect(12, 2, 0, 0, 0)
    piers = rect(2, 2, 0, 4, 4) + rect(2, 2, 0, 16, 4)
    gates = rect(2, 2, 1, 4, 0) + rect(2, 2, 1, 16, 0)
    railing = rect(2, 2, 1, 10, 0)
    ends = [(-2, 1, 0), (24, 1, 0)]
    roofs = [(5, 1, 2), (17, 1, 2)]
    return deck + piers + gates + railing + ends + roofs


def spider() -> list[Pos]:
    """A body of two parts and eight legs bent like a spider's."""
    body = rect(4, 3, 0, 8, 6) + rect(4, 3, 1, 8, 6) + rect(2, 2, 2, 10, 7)
    head = rect(2, 1, 0, 10, 2) + rect(2, 1, 0, 10, 4)
    abdomen = rect(4, 2, 0, 8, 12)
    legs = []
    for y0, dy in ((2, -1), (6, -1), (8, 1), (12, 1)):
        leg = [(6, y0, 0), (4, y0 + dy, 0), (2, y0 + 2 * dy, 0), (0, y0 + 3 * dy, 0)]
        legs += leg + mirror_x(leg, 12)
    return body + head + abdomen + legs


DESIGNS = {
    # slug: (name, builder, expected tiles or None, portrait)
    "tall-turtle": ("Tall Turtle", tall_turtle, 144, True),
    "tower": ("Tower", tower, 128, True),
    "lantern": ("Lantern", lantern, None, True),
    "ladder": ("Ladder", ladder, None, True),
    "kite": ("Kite", kite, None, True),
    "hourglass": ("Hourglass", hourglass, None, True),
    "column": ("Column", column, None, True),
    "vase": ("Vase", vase, None, True),
    "arrow": ("Arrow", arrow, None, True),
    "cascade": ("Cascade", cascade, None, True),
    "stupa": ("Stupa", stupa, 60, False),
    "durbar-square": ("Durbar Square", durbar_square, 82, False),
    "pagoda": ("Pagoda", pagoda, 102, False),
    "pyramid": ("Pyramid", pyramid, 96, False),
    "fortress": ("Fortress", fortress, 120, False),
    "bridge": ("Bridge", bridge, 48, False),
    "spider": ("Spider", spider, 72, False),
}


def normalise(ps: list[Pos]) -> list[Pos]:
    """Move the layout so its smallest x and y are 0, sorted by level."""
    mx = min(p[0] for p in ps)
    my = min(p[1] for p in ps)
    return sorted(
        ((x - mx, y - my, z) for x, y, z in ps), key=lambda p: (p[2], p[1], p[0])
    )


def dump(slug: str, name: str, ps: list[Pos]) -> str:
    lines = ",\n".join(f"    [{x}, {y}, {z}]" for x, y, z in ps)
    head = json.dumps({"format": "mahjong-layout/1", "slug": slug, "name": name})
    return head[:-1] + ', "positions": [\n' + lines + "\n  ]\n}\n"


def main() -> None:
    only = set(sys.argv[1:])
    for slug, (name, build, expected, portrait) in DESIGNS.items():
        if only and slug not in only:
            continue
        ps = normalise(build())
        try:
            layout = Layout(slug=slug, name=name, positions=tuple(ps))
        except LayoutError as e:
            print(f"{slug:15} {len(ps):4} tiles: {e}")
            continue
        problems = []
        if expected is not None and len(ps) != expected:
            problems.append(f"{len(ps)} tiles, wanted {expected}")
        if portrait and not (layout.width <= 8 and layout.height > layout.width):
            problems.append(f"not portrait: {layout.width} x {layout.height}")
        generate_deal(layout, "design")  # raises if it cannot be cleared
        print(
            f"{slug:15} {len(ps):4} tiles {layout.levels} levels "
            f"{layout.width:2} x {layout.height:2} {'; '.join(problems)}"
        )
        if not problems:
            (OUT / f"{slug}.json").write_text(dump(slug, name, ps))


if __name__ == "__main__":
    main()
