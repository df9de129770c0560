"""Taps on a room's piles answer as the solo board's do: in Together, a tap
on a covered or side-held tile shakes it and the page says which rule holds
it; and a pile the next deal does not show is given back (its canvas gone)."""

import pytest

from games.engine.board import iter_bits
from rooms import actions
from rooms.models import Room
from tests.browser.screens import (
    LAPTOP,
    PHONE_UP,
    clear,
    off_loop,
    open_as,
    room_with,
    wait_for,
)

pytestmark = pytest.mark.browser


def _blocked(code: str) -> dict[str, list[int]]:
    """The shared pile's standing tiles by blocked reason, from the engine."""
    board = Room.objects.get(code=code).current_round.together_state().board()
    out: dict[str, list[int]] = {"covered": [], "sides": []}
    for i in iter_bits(board.standing):
        reason = board.layout.blocked_reason(i, board.standing)
        if reason:
            out[reason].append(i)
    return out


@pytest.mark.parametrize(
    ("reason", "words", "screen"),
    [("covered", "covered", "laptop"), ("sides", "held on both sides", "phone")],
)
def test_together_a_blocked_tile_shakes_and_says_why(
    reason, words, screen, chromium, pages, rooms_server, artifacts
):
    room, people = room_with("Ann", ["Bob"], 0, "together", "big")
    viewport = PHONE_UP if screen == "phone" else LAPTOP
    page = open_as(
        chromium, pages, rooms_server, people["Ann"], f"/r/{room.code}", viewport
    )
    # Ann sat down first: the first turn is hers, once the pile has built.
    wait_for(page, "document.querySelector('#t-turn').textContent.startsWith('Your')")
    wait_for(page, "window.tilesRoom.together.scene.idle === true")
    candidates = off_loop(_blocked, room.code)[reason]
    tile = next(
        (
            (i, point)
            for i in candidates
            if (
                point := page.evaluate(
                    f"window.tilesRoom.together.scene.tappablePoint({i})"
                )
            )
        ),
        None,
    )
    assert tile is not None, f"no {reason} tile shows on screen"
    page.mouse.click(tile[1]["x"], tile[1]["y"])
    wait_for(page, "document.querySelector('#t-message').textContent !== ''")
    assert words in page.inner_text("#t-message")
    assert page.evaluate("window.tilesRoom.together.scene.shakes") == 1
    assert page.locator("#t-pile").get_attribute("data-blocked") == reason
    # Nothing was picked up.
    assert page.evaluate("window.tilesRoom.together.selected") == -1
    page.screenshot(path=artifacts / f"room-together-{reason}-{screen}.png")


def test_a_race_pile_goes_when_the_next_deal_is_together(chromium, pages, rooms_server):
    room, people = room_with("Ann", ["Bob"], 0, "race", "small")
    page = open_as(
        chromium, pages, rooms_server, people["Ann"], f"/r/{room.code}", LAPTOP
    )
    wait_for(page, "window.tilesRoom.race.scene?.n === 32")
    assert page.locator("#board canvas").count() == 1
    # Ann clears her pile, then ends the race for Bob too, and deals Together.
    clear(room, people["Ann"])
    off_loop(actions.end_now, room.code, people["Ann"])
    wait_for(page, "!document.querySelector('#deal-form').hidden")
    page.check("#deal-form input[value=together]")
    page.select_option("#deal-form select[name=pile]", "small")
    page.click("#deal")
    wait_for(page, "window.tilesRoom.together.scene?.n === 32")
    # One pile on the page: the race's canvas (and its WebGL context) went.
    assert page.locator("canvas").count() == 1
    assert page.evaluate("window.tilesRoom.race.scene") is None
