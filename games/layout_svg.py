"""Top views of a layout as SVG, one drawing per level, for the admin.

Each drawing shows that level's tiles solid over the levels below in outline,
so an admin can see what rests on what. Only numbers go into the markup.
"""

from games.engine.layout import Layout

UNIT = 9  # pixels per half-tile unit


def level_svg(layout: Layout, z: int) -> str:
    xs = [x for x, _, _ in layout.positions]
    ys = [y for _, y, _ in layout.positions]
    x0, y0 = min(xs), min(ys)
    width = (max(xs) - x0 + 2) * UNIT
    height = (max(ys) - y0 + 2) * UNIT
    shapes = []
    for i, (x, y, tz) in enumerate(layout.positions):
        if tz > z:
            continue
        cls = "here" if tz == z else "below"
        shapes.append(
            f'<rect class="{cls}" x="{(x - x0) * UNIT + 1}" y="{(y - y0) * UNIT + 1}" '
            f'width="{2 * UNIT - 2}" height="{2 * UNIT - 2}" rx="2">'
            f"<title>tile {i} ({x}, {y}, {tz})</title></rect>"
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="level {z}">'
        "<style>.here{fill:#f4ead5;stroke:#5a4632}"
        ".below{fill:none;stroke:#c9c2b6;stroke-dasharray:2 2}</style>"
        + "".join(shapes)
        + "</svg>"
    )


def top_views(layout: Layout) -> list[tuple[int, str]]:
    """(level, svg) for each level, bottom first."""
    return [(z, level_svg(layout, z)) for z in range(layout.levels)]


def pile_svg(layout: Layout, unit: int = 5) -> str:
    """The whole pile from above, as a small picture for choosing a layout:
    each level lighter than the one below and nudged up and left, the way
    the 3D board shows height."""
    xs = [x for x, _, _ in layout.positions]
    ys = [y for _, y, _ in layout.positions]
    x0, y0 = min(xs), min(ys)
    lift = unit // 2 or 1  # how far each level is nudged, in pixels
    top = layout.levels - 1
    width = (max(xs) - x0 + 2) * unit + 2
    height = (max(ys) - y0 + 2) * unit + top * lift + 2
    shades = ("#cfc4ad", "#ddd3bd", "#e9e0cb", "#f3ecd9", "#fbf6e8")
    shapes = []
    for x, y, z in sorted(layout.positions, key=lambda p: (p[2], p[1], p[0])):
        shapes.append(
            f'<rect x="{(x - x0) * unit + 1 - z * lift + top * lift // 2}" '
            f'y="{(y - y0) * unit + 1 + (top - z) * lift}" '
            f'width="{2 * unit - 1}" height="{2 * unit - 1}" rx="1" '
            f'fill="{shades[min(z, len(shades) - 1)]}"/>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" aria-hidden="true">'
        '<g stroke="#6b5a44" stroke-width="0.6">' + "".join(shapes) + "</g></svg>"
    )
