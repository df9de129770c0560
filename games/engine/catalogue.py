"""The layouts shipped with the engine, as spec JSON files in layouts/."""

import json
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from games.engine.layout import Layout, LayoutError, parse_positions

LAYOUT_FORMAT = "mahjong-layout/1"


class UnknownLayout(LookupError):
    pass


def layout_from_json(data: object) -> Layout:
    """Build a Layout from the spec's layout object, validating it."""
    if not isinstance(data, dict):
        raise LayoutError("a layout must be a JSON object")
    fmt = data.get("format", LAYOUT_FORMAT)
    if fmt != LAYOUT_FORMAT:
        raise LayoutError(f"unknown layout format {fmt!r}")
    slug, name = data.get("slug"), data.get("name")
    if not isinstance(slug, str) or not slug:
        raise LayoutError("a layout needs a slug")
    if not isinstance(name, str) or not name:
        name = slug
    return Layout(
        slug=slug, name=name, positions=parse_positions(data.get("positions"))
    )


def layout_to_json(layout: Layout) -> dict[str, Any]:
    return {
        "format": LAYOUT_FORMAT,
        "slug": layout.slug,
        "name": layout.name,
        "positions": [list(p) for p in layout.positions],
    }


def _files() -> list[Traversable]:
    return sorted(
        (
            f
            for f in resources.files("games.engine").joinpath("layouts").iterdir()
            if f.name.endswith(".json")
        ),
        key=lambda f: f.name,
    )


@cache
def builtin_layouts() -> dict[str, Layout]:
    out = {}
    for f in _files():
        layout = layout_from_json(json.loads(f.read_text()))
        out[layout.slug] = layout
    return out


def get_layout(slug: str) -> Layout:
    try:
        return builtin_layouts()[slug]
    except KeyError:
        known = ", ".join(sorted(builtin_layouts()))
        raise UnknownLayout(f"unknown layout {slug!r} (known: {known})") from None
