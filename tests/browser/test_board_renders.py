"""The board page draws a lit pile of readable tiles on phone and desktop.

Screenshots of each board at the start and part way through are kept under
tests/artifacts/ for people to look at.
"""

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.helpers import (
    blocked_tiles,
    colour_stats,
    take,
    the_run,
    wait_settled,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("name", "viewport", "slug"),
    [("phone", PHONE, "small"), ("desktop", DESKTOP, "turtle")],
)
def test_the_pile_is_drawn_and_screenshots_are_kept(
    open_board, artifacts, name, viewport, slug
):
    page = open_board(slug, viewport)
    canvas = page.locator("#board-view canvas")
    box = canvas.bounding_box()
    assert box["width"] > 300 and box["height"] > 300
    stats = colour_stats(canvas.screenshot())
    # A blank or single-colour canvas has no variance; the pile is ivory
    # tiles with coloured faces on a green table.
    assert stats["variance"] > 200, stats
    assert stats["colours"] > 40, stats
    assert stats["ivory"] > 0.05, stats
    page.screenshot(path=artifacts / f"board-{name}-start.png")

    run = the_run()
    pairs = run.witness[: len(run.witness) // 2]
    for a, b in pairs:
        take(page, a, b)
    wait_settled(page)
    left = len(run.tiles) - 2 * len(pairs)
    assert page.locator("#tiles-left").inner_text() == str(left)
    page.screenshot(path=artifacts / f"board-{name}-mid.png")


def test_the_free_list_mirrors_the_engine(open_board):
    page = open_board("small")
    run = the_run()
    blocked = blocked_tiles(run)
    shown = {
        int(v)
        for v in page.locator("#free-tiles button").evaluate_all(
            "buttons => buttons.map(b => b.dataset.tile)"
        )
    }
    standing = {t["id"] for t in run.tiles}
    assert shown == standing - set(blocked["covered"]) - set(blocked["sides"])
    label = page.locator("#free-tiles button").first.inner_text()
    assert "level 1" in label or "level 2" in label
    assert "column" in label and "row" in label


def test_the_shading_button_turns_blocked_shading_off_and_on(open_board):
    page = open_board("turtle", DESKTOP)
    canvas = page.locator("#board-view canvas")
    shaded = colour_stats(canvas.screenshot())["ivory"]
    page.keyboard.press("b")
    wait_settled(page)
    assert page.locator("#shading").get_attribute("aria-pressed") == "false"
    # Most of a fresh Turtle is blocked: unshaded, far more of it is ivory.
    plain = colour_stats(canvas.screenshot())["ivory"]
    assert plain > shaded * 1.5, (shaded, plain)
    page.reload()
    wait_settled(page)
    assert page.locator("#shading").get_attribute("aria-pressed") == "false"
    page.keyboard.press("b")
    wait_settled(page)
    again = colour_stats(canvas.screenshot())["ivory"]
    assert again < plain / 1.5, (again, plain)
