"""What the browser tests do to a board page, and how they read it back."""

import struct
import zlib

from games.engine.board import iter_bits
from games.engine.formats import position_from_json
from games.models import Run


def wait_settled(page, timeout: float = 30_000) -> None:
    """Wait until no request is in flight and no animation runs."""
    page.wait_for_function(
        "() => window.tilesBoard && document.querySelector('#board').dataset.busy"
        " === '0' && window.tilesBoard.idle()",
        timeout=timeout,
    )


def free_button(page, tile_id: int):
    return page.locator(f'#free-tiles button[data-tile="{tile_id}"]')


def pick(page, tile_id: int) -> None:
    """Press a free tile's button in the hidden list, as assistive tech would.

    The list is visually hidden (clipped to a pixel), so a pointer click
    would land on the canvas; the button's own click event is what a screen
    reader sends.
    """
    free_button(page, tile_id).dispatch_event("click")


def take(page, a: int, b: int) -> None:
    pick(page, a)
    pick(page, b)


def the_run() -> Run:
    return Run.objects.get()


def blocked_tiles(run: Run) -> dict[str, list[int]]:
    """Tile ids of the run's standing tiles by blocked reason, from the engine."""
    position = position_from_json({"tiles": run.tiles})
    board = position.board
    for a, b in run.moves:
        board.take(position.index_of(a), position.index_of(b))
    out: dict[str, list[int]] = {"covered": [], "sides": []}
    for i in iter_bits(board.standing):
        reason = board.layout.blocked_reason(i, board.standing)
        if reason:
            out[reason].append(position.ids[i])
    return out


def click_tile(page, tile_id: int) -> None:
    """Click (tap) where the tile is drawn on the canvas."""
    point = page.evaluate(f"window.tilesBoard.point({tile_id})")
    page.mouse.click(point["x"], point["y"])


# --- pixels -------------------------------------------------------------------
def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def png_pixels(data: bytes) -> tuple[int, int, list[bytearray], int]:
    """Decode an 8-bit RGB or RGBA PNG (as Chromium writes screenshots).

    Returns width, height, rows of raw bytes and bytes per pixel; enough to
    look at colours without an imaging library.
    """
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    width = height = bpp = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), "only 8-bit RGB(A) PNGs"
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                line[x] = (line[x] + _paeth(a, b, c)) & 255
        rows.append(line)
        prev = line
    return width, height, rows, bpp


def colour_stats(png: bytes, step: int = 3) -> dict:
    """Sampled colour facts: how varied the image is, how much is tile ivory."""
    width, height, rows, bpp = png_pixels(png)
    lum, ivory, colours = [], 0, set()
    for y in range(0, height, step):
        row = rows[y]
        for x in range(0, width, step):
            r, g, b = row[x * bpp], row[x * bpp + 1], row[x * bpp + 2]
            lum.append(0.299 * r + 0.587 * g + 0.114 * b)
            colours.add((r >> 4, g >> 4, b >> 4))
            if r > 190 and g > 180 and b > 150 and r >= b:
                ivory += 1
    mean = sum(lum) / len(lum)
    variance = sum((v - mean) ** 2 for v in lum) / len(lum)
    return {
        "variance": variance,
        "colours": len(colours),
        "ivory": ivory / len(lum),
    }
