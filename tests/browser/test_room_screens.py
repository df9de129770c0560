"""What matters is on screen without scrolling, on a phone upright and on its
side and on a laptop: Together's pile with the players' strip (points,
lead, whose turn it is lit); a race's standings and your best time once you
have cleared or stopped, and every racer's card; the TV page's cards and
counts and its turning pile, whole at every angle. Screenshots of each go
to tests/artifacts/."""

import pytest

from tests.browser.screens import (
    LAPTOP,
    SCREENS,
    clear,
    open_as,
    outside,
    play_to_a_dead_end,
    room_with,
    shown_count,
    tiles_outside,
    wait_for,
)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("screen", list(SCREENS))
def test_together_shows_the_pile_and_every_card_at_once(
    screen, chromium, pages, rooms_server, artifacts
):
    room, people = room_with("Ann", ["Bob", "Cat"], 3, "together", "big")
    page = open_as(
        chromium, pages, rooms_server, people["Ann"], f"/r/{room.code}", SCREENS[screen]
    )
    wait_for(page, "document.querySelectorAll('#t-strip li').length === 6")
    wait_for(page, "document.querySelector('#t-turn').textContent.startsWith('Your')")
    wait_for(page, "window.tilesRoom.together.scene?.idle === true")
    assert shown_count(page, "#t-strip li") == 6
    # The cards with their points and lead, whose turn it is (lit), the
    # countdown and the pile: all inside the screen.
    for what in (
        "#t-strip li",
        "#t-strip .seat-points",
        "#t-strip .seat-lead",
        "#t-turn",
        "#t-countdown",
        "#together .pile-wrap",
        "#t-pause",
    ):
        assert outside(page, what) == [], what
    assert page.locator("#t-strip li.turn").count() == 1
    assert tiles_outside(page, "tilesRoom.together.scene", "#together .pile-wrap") == []
    assert page.evaluate("document.scrollingElement.scrollHeight") <= page.evaluate(
        "innerHeight"
    )
    page.screenshot(path=artifacts / f"room-together-turn-{screen}.png")


@pytest.mark.parametrize("screen", list(SCREENS))
def test_a_finished_racer_sees_the_standings_and_best_time_and_every_card(
    screen, chromium, pages, rooms_server, artifacts
):
    room, people = room_with("Ann", ["Bob", "Cat", "Dee", "Eve"], 3, "race", "small")
    page = open_as(
        chromium, pages, rooms_server, people["Ann"], f"/r/{room.code}", SCREENS[screen]
    )
    wait_for(page, "document.querySelectorAll('#strip li').length === 8")
    clear(room, people["Ann"])
    wait_for(page, "!document.querySelector('#standings').hidden")
    wait_for(page, "window.tilesRoom.race.scene.idle === true")  # the last flight
    assert page.inner_text("#standings-title") == "Standings so far"
    assert page.inner_text("#standings-list").startswith("1. Ann: ")
    assert "Your best on this pile" in page.inner_text("#best")
    assert shown_count(page, "#strip li") == 8
    for what in ("#standings", "#standings li", "#best", "#strip li", "#strip li *"):
        assert outside(page, what) == [], what
    page.screenshot(path=artifacts / f"room-race-finished-{screen}.png")


@pytest.mark.parametrize("screen", ["phone", "laptop"])
def test_a_stuck_racer_is_told_and_stopping_shows_the_standings(
    screen, chromium, pages, rooms_server, artifacts
):
    room, people = room_with("Ann", ["Bob"], 1, "race", "big")
    page = open_as(
        chromium, pages, rooms_server, people["Ann"], f"/r/{room.code}", SCREENS[screen]
    )
    wait_for(page, "window.tilesRoom.race.scene?.n === 144")
    play_to_a_dead_end(room, people["Ann"])
    stuck = page.locator("#stuck")
    stuck.wait_for(state="visible", timeout=20_000)
    assert "No pairs left" in stuck.inner_text()
    assert outside(page, "#stuck, #stuck button") == []
    # A hint now says why it has no pair to show.
    page.click("#hint")
    page.locator("#race-message").filter(has_text="No pairs left").wait_for()
    page.screenshot(path=artifacts / f"room-race-stuck-{screen}.png")
    page.click("#stop")
    wait_for(page, "!document.querySelector('#standings').hidden")
    assert stuck.is_hidden()
    assert "stopped" in page.inner_text("#strip li[data-seat='0']")
    assert outside(page, "#standings, #standings li, #strip li") == []


@pytest.mark.parametrize("size", [LAPTOP, {"width": 1920, "height": 1080}])
def test_the_tv_shows_every_card_and_the_whole_turning_pile(
    size, chromium, pages, rooms_server, artifacts
):
    humans = ["Bob", "Cat", "Dee", "Eve"]
    room, people = room_with("Ann", humans, 3, "race", "big")
    tv = open_as(chromium, pages, rooms_server, None, f"/watch?code={room.code}", size)
    wait_for(tv, "document.querySelectorAll('#w-racers li').length === 8")
    wait_for(tv, "window.tilesWatch.view.scene?.idle === true", timeout=30_000)
    for what in ("#w-racers li", "#w-racers .seat-name", "#w-racers .seat-lead"):
        assert outside(tv, what) == [], what
    assert outside(tv, ".watch-pile, #w-leader") == []
    # However far the pile has turned, no tile leaves its frame.
    for _ in range(8):
        tv.evaluate("window.tilesWatch.view.scene.view.turn(Math.PI / 8)")
        wait_for(tv, "window.tilesWatch.view.scene.idle === true")
        assert tiles_outside(tv, "tilesWatch.view.scene", ".watch-pile") == []
    name = f"{size['width']}x{size['height']}"
    tv.screenshot(path=artifacts / f"watch-race-{name}.png")


def test_the_tv_shows_a_together_game_whole(chromium, pages, rooms_server, artifacts):
    room, people = room_with("Ann", ["Bob", "Cat"], 3, "together", "big")
    tv = open_as(
        chromium, pages, rooms_server, None, f"/watch?code={room.code}", LAPTOP
    )
    wait_for(tv, "document.querySelectorAll('#w-seats li').length === 6")
    wait_for(tv, "window.tilesWatch.view.scene?.idle === true", timeout=30_000)
    assert outside(tv, "#w-seats li, #w-seats .seat-points, .watch-pile, #w-turn") == []
    for _ in range(4):
        tv.evaluate("window.tilesWatch.view.scene.view.turn(Math.PI / 4)")
        wait_for(tv, "window.tilesWatch.view.scene.idle === true")
        assert tiles_outside(tv, "tilesWatch.view.scene", ".watch-pile") == []
    tv.screenshot(path=artifacts / "watch-together-1366x768.png")
