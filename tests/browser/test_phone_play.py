"""The Big pile (Turtle) on a 390x844 touch phone and a 1366x768 laptop: the
whole pile on screen and large, taps that pick the free tile they mean, a tap
on a blocked tile far from any free one says why, faces legible.

Screenshots of the solo Turtle on both screens are kept under tests/artifacts/.
"""

import math

import pytest

from tests.browser.conftest import PHONE
from tests.browser.helpers import blocked_tiles, the_run, wait_settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}
# scene.js's touch radius: a tap this far (CSS px) outside a free tile's top
# still picks it.
TOUCH_RADIUS = 14


@pytest.fixture
def open_turtle(open_board):
    """The solo Turtle in a fresh context, with touch on the phone."""
    return lambda viewport: open_board("turtle", viewport, touch=viewport == PHONE)


def free_ids() -> list[int]:
    run = the_run()
    blocked = blocked_tiles(run)
    held = set(blocked["covered"]) | set(blocked["sides"])
    return [t["id"] for t in run.tiles if t["id"] not in held]


def centres(page, ids: list[int]) -> dict[int, tuple[float, float]]:
    points = page.evaluate("ids => ids.map(id => window.tilesBoard.point(id))", ids)
    return {i: (p["x"], p["y"]) for i, p in zip(ids, points, strict=True)}


def lifted(page) -> list[int]:
    return [
        int(v)
        for v in page.locator('#free-tiles button[aria-pressed="true"]').evaluate_all(
            "bs => bs.map(b => b.dataset.tile)"
        )
    ]


@pytest.mark.parametrize(("name", "viewport"), [("phone", PHONE), ("laptop", LAPTOP)])
def test_the_whole_pile_is_on_screen_and_uses_it(
    open_turtle, artifacts, name, viewport
):
    page = open_turtle(viewport)
    page.screenshot(path=artifacts / f"turtle-{name}-after.png")
    pile = page.evaluate("window.tilesBoard.bounds()")
    canvas = page.locator("#board-view canvas").bounding_box()
    assert canvas["x"] >= 0 and canvas["y"] >= 0
    assert canvas["x"] + canvas["width"] <= viewport["width"]
    assert canvas["y"] + canvas["height"] <= viewport["height"]
    assert pile["left"] >= canvas["x"] and pile["top"] >= canvas["y"], pile
    assert pile["right"] <= canvas["x"] + canvas["width"], (pile, canvas)
    assert pile["bottom"] <= canvas["y"] + canvas["height"], (pile, canvas)
    # The pile uses the table: on the phone, before its view was turned, it
    # filled 86 % of the width and 34 % of the height.
    width = (pile["right"] - pile["left"]) / canvas["width"]
    height = (pile["bottom"] - pile["top"]) / canvas["height"]
    if name == "phone":
        assert width > 0.8 and height > 0.6, (width, height)
    else:
        assert height > 0.7, (width, height)
    assert page.evaluate("window.tilesBoard.turned()") == (name == "phone")


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP])
def test_a_tap_15px_off_a_free_tiles_centre_picks_that_tile(open_turtle, viewport):
    page = open_turtle(viewport)
    ids = free_ids()
    at = centres(page, ids)
    # Every free tile, in each direction where its own centre is clearly the
    # nearest free one to the tapped point.
    checked = 0
    tapped = []
    for tile in ids:
        x, y = at[tile]
        for dx, dy in ((15, 0), (-15, 0), (0, 15), (0, -15)):
            px, py = x + dx, y + dy
            others = min(math.dist((px, py), at[o]) for o in ids if o != tile)
            if others < 15 + 20:
                continue
            assert page.evaluate(f"window.tilesBoard.pickAt({px}, {py})") == tile
            checked += 1
            if len(tapped) < 4 and (not tapped or tapped[-1][0] != tile):
                tapped.append((tile, px, py))
    assert checked >= len(ids)
    # And real taps, as a finger makes them: the tile lifts, and the same tap
    # again puts it down (so that the next tile is not taken as its match).
    for tile, px, py in tapped:
        for expected in ([tile], []):
            if viewport == PHONE:
                page.touchscreen.tap(px, py)
            else:
                page.mouse.click(px, py)
            assert lifted(page) == expected
            wait_settled(page)


def test_quick_taps_80ms_apart_take_the_pairs_meant(open_turtle):
    page = open_turtle(PHONE)
    run = the_run()
    pairs = run.witness[:4]
    at = centres(page, [t for pair in pairs for t in pair])
    views = []
    for a, b in pairs:
        for tile in (a, b):
            views.append(page.evaluate("window.tilesBoard.stats().camera"))
            page.touchscreen.tap(*at[tile])
            page.wait_for_timeout(80)  # the pace under test, not a wait
    wait_settled(page)
    # The view held still under the fingers: it follows the smaller pile
    # once the taps pause (a view that moved took the neighbour instead).
    assert all(view == views[0] for view in views), views
    assert page.locator("#tiles-left").inner_text() == str(144 - 2 * len(pairs))
    taken = {frozenset(m) for m in the_run().moves}
    assert taken == {frozenset(p) for p in pairs}


def test_a_tap_on_a_blocked_tile_with_no_free_tile_near_shakes_and_says_why(
    open_turtle,
):
    page = open_turtle(PHONE)
    free = free_ids()
    held = blocked_tiles(the_run())["sides"]
    at = centres(page, free + held)
    # The held tile farthest from every free one.
    tile = max(held, key=lambda h: min(math.dist(at[h], at[f]) for f in free))
    assert min(math.dist(at[tile], at[f]) for f in free) > 2 * TOUCH_RADIUS + 20
    shakes = page.evaluate("window.tilesBoard.shakes()")
    page.touchscreen.tap(*at[tile])
    message = page.locator("#message")
    message.wait_for(state="visible")
    assert "held on both sides" in message.inner_text()
    assert page.evaluate("window.tilesBoard.shakes()") == shakes + 1
    assert lifted(page) == []


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP])
def test_rank_glyphs_are_at_least_9_css_px_at_the_default_view(open_turtle, viewport):
    page = open_turtle(viewport)
    ids = [t["id"] for t in the_run().tiles]
    sizes = page.evaluate("ids => ids.map(id => window.tilesBoard.glyph(id))", ids)
    heights = [s["h"] for s in sizes if s]
    # Suits and winds carry a glyph: 36 + 36 + 36 + 16 of the 144.
    assert len(heights) == 124
    assert min(heights) >= 9, sorted(heights)[:5]


def test_8_and_9_of_every_suit_differ_at_phone_size(open_turtle):
    page = open_turtle(PHONE)
    # The faces at the size a phone shows them (about 28 CSS px at 2x), as
    # light and dark pixels: the share of pixels where 8 and 9 differ. The
    # faces before had Characters 8 and 9 differ in 3 % (one Arabic numeral's
    # stroke); now their Chinese numerals (八, 九) differ too.
    differ = page.evaluate(
        """async () => {
          const atlas = window.tilesBoard.atlas();
          const size = 56;
          const [cw, ch] = atlas.cellSize;
          const pixels = (face) => {
            const [u, v] = atlas.cells.get(face);
            const c = document.createElement('canvas');
            c.width = c.height = size;
            const ctx = c.getContext('2d');
            const w = atlas.canvas.width * cw, h = atlas.canvas.height * ch;
            ctx.drawImage(atlas.canvas, u * atlas.canvas.width,
              (1 - v) * atlas.canvas.height - h, w, h, 0, 0, size, size);
            const d = ctx.getImageData(0, 0, size, size).data;
            const dark = [];
            for (let k = 0; k < d.length; k += 4) {
              dark.push(0.3 * d[k] + 0.59 * d[k + 1] + 0.11 * d[k + 2] < 170);
            }
            return dark;
          };
          const out = {};
          for (const suit of ['characters', 'dots', 'bamboo']) {
            const a = pixels(`${suit}-8`), b = pixels(`${suit}-9`);
            out[suit] = a.filter((x, k) => x !== b[k]).length / a.length;
          }
          return out;
        }"""
    )
    for suit, share in differ.items():
        assert share > 0.08, (suit, differ)
