"""The JSON of ../shared/spec/deal-format.md: deals, positions, solve results.

Inside the engine a tile is an index into its layout's positions; in JSON it
has an `id`. For a deal the id is the index. A position read from JSON may
carry any ids, so it keeps them beside its board.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from games.engine.board import Board, iter_bits
from games.engine.deal import Deal
from games.engine.faces import FaceError, group_of
from games.engine.layout import Layout, LayoutError, parse_positions

DEAL_FORMAT = "mahjong-deal/1"
POSITION_FORMAT = "mahjong-position/1"


class FormatError(ValueError):
    """Input that does not follow the spec; the message says what is wrong."""


@dataclass
class Position:
    board: Board
    ids: tuple[int, ...]  # the JSON id of each board index

    def index_of(self, tile_id: int) -> int:
        try:
            return self.ids.index(tile_id)
        except ValueError:
            raise FormatError(f"no tile with id {tile_id}") from None

    def pairs_to_ids(self, pairs: Iterable[tuple[int, int]]) -> list[list[int]]:
        return [[self.ids[a], self.ids[b]] for a, b in pairs]


def deal_to_json(deal: Deal) -> dict[str, Any]:
    return {
        "format": DEAL_FORMAT,
        "layout": deal.layout.slug,
        "seed": deal.seed,
        "tiles": [
            {"id": i, "x": x, "y": y, "z": z, "face": deal.faces[i]}
            for i, (x, y, z) in enumerate(deal.layout.positions)
        ],
        "solution": [[a, b] for a, b in deal.solution],
    }


def position_from_json(data: object) -> Position:
    """Read a position (or a deal: its tiles are a position) from parsed JSON."""
    if not isinstance(data, dict):
        raise FormatError("a position must be a JSON object with a 'tiles' list")
    fmt = data.get("format", POSITION_FORMAT)
    if fmt not in (POSITION_FORMAT, DEAL_FORMAT):
        raise FormatError(f"unknown format {fmt!r}")
    tiles = data.get("tiles")
    if not isinstance(tiles, list):
        raise FormatError("'tiles' must be a list")
    ids, coords, faces = [], [], []
    for k, tile in enumerate(tiles):
        if not isinstance(tile, dict):
            raise FormatError(f"tiles[{k}] is not an object")
        tile_id = tile.get("id")
        if not isinstance(tile_id, int) or isinstance(tile_id, bool):
            raise FormatError(f"tiles[{k}] has no whole-number id")
        face = tile.get("face")
        try:
            group_of(face) if isinstance(face, str) else None
        except FaceError as e:
            raise FormatError(f"tile {tile_id}: {e}") from None
        if not isinstance(face, str):
            raise FormatError(f"tile {tile_id} has no face")
        ids.append(tile_id)
        coords.append([tile.get("x"), tile.get("y"), tile.get("z")])
        faces.append(face)
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise FormatError(f"tile id {dup} is used twice")
    try:
        positions = parse_positions(coords)
        layout = Layout(
            slug=str(data.get("layout", "position")),
            name="position",
            positions=positions,
            labels=tuple(ids),
        )
    except LayoutError as e:
        raise FormatError(str(e)) from None
    return Position(board=Board(layout, tuple(faces)), ids=tuple(ids))


def position_to_json(position: Position) -> dict[str, Any]:
    board = position.board
    return {
        "format": POSITION_FORMAT,
        "tiles": [
            {
                "id": position.ids[i],
                "x": board.layout.positions[i][0],
                "y": board.layout.positions[i][1],
                "z": board.layout.positions[i][2],
                "face": board.faces[i],
            }
            for i in iter_bits(board.standing)
        ],
    }
