"""Tapping a tile on the canvas: a free one lifts, a blocked one shakes and the
table says which rule holds it (covered, or held on both sides)."""

import pytest

from tests.browser.conftest import DESKTOP
from tests.browser.helpers import blocked_tiles, free_button, the_run, wait_settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tap_first_tappable(page, tile_ids: list[int]) -> int:
    """Tap the first of these tiles that shows on screen; its id."""
    for tile_id in tile_ids:
        point = page.evaluate(f"window.tilesBoard.tappable({tile_id})")
        if point:
            page.mouse.click(point["x"], point["y"])
            return tile_id
    raise AssertionError(f"none of {tile_ids} can be tapped")


@pytest.mark.parametrize(
    ("reason", "words"), [("covered", "covered"), ("sides", "held on both sides")]
)
def test_a_blocked_tile_shakes_and_the_table_says_why(open_board, reason, words):
    # Turtle: the cap leaves corners of the tiles below it showing, so a
    # covered tile can be tapped.
    page = open_board("turtle", DESKTOP)
    candidates = blocked_tiles(the_run())[reason]
    shakes = page.evaluate("window.tilesBoard.shakes()")
    tap_first_tappable(page, candidates)
    message = page.locator("#message")
    message.wait_for(state="visible")
    assert words in message.inner_text()
    assert page.evaluate("window.tilesBoard.shakes()") == shakes + 1
    assert page.locator("#board").get_attribute("data-blocked") == reason
    # Nothing was picked up.
    assert page.locator('#free-tiles button[aria-pressed="true"]').count() == 0


def test_a_free_tile_lifts_when_tapped_and_drops_when_tapped_again(open_board):
    page = open_board("small")
    free = [
        int(v)
        for v in page.locator("#free-tiles button").evaluate_all(
            "buttons => buttons.map(b => b.dataset.tile)"
        )
    ]
    tile = tap_first_tappable(page, free)
    assert free_button(page, tile).get_attribute("aria-pressed") == "true"
    wait_settled(page)
    tap_first_tappable(page, [tile])
    assert free_button(page, tile).get_attribute("aria-pressed") == "false"


def test_tapping_the_table_puts_the_tile_down(open_board):
    page = open_board("small")
    first = page.locator("#free-tiles button").first
    first.dispatch_event("click")
    assert first.get_attribute("aria-pressed") == "true"
    box = page.locator("#board-view canvas").bounding_box()
    # The top left corner of the table is empty felt.
    page.mouse.click(box["x"] + 8, box["y"] + 8)
    assert page.locator('#free-tiles button[aria-pressed="true"]').count() == 0


def test_a_free_tile_that_does_not_match_is_picked_up_instead(open_board):
    page = open_board("small")
    buttons = page.locator("#free-tiles button")
    faces = buttons.evaluate_all("bs => bs.map(b => [b.dataset.tile, b.dataset.face])")
    (first, _), (other, _) = next(
        (x, y)
        for x in faces
        for y in faces
        if x[0] != y[0] and x[1].split("-")[0] != y[1].split("-")[0]
    )
    free_button(page, int(first)).dispatch_event("click")
    free_button(page, int(other)).dispatch_event("click")
    assert free_button(page, int(other)).get_attribute("aria-pressed") == "true"
    assert free_button(page, int(first)).get_attribute("aria-pressed") == "false"
    assert page.locator("#tiles-left").inner_text() == "32"
