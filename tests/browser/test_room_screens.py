"""What matters is on screen without scrolling, on a phone upright and on its
side and on a laptop: Together's pile with the players' strip (points,
lead, whose turn it is lit); a race's standings and your best time once you
have cleared or stopped, and every racer's card; the TV page's cards and
counts and its pile, whole and filling most of the stage. Screenshots go
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
    page.wait_for_timeout(700)  # the last pair's flight
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


# The share of the stage (#w-stage) the TV's 3D pile covers, across or down:
# the box round every standing tile's corners as drawn.
PILE_SHARE = """() => {
  const scene = window.tilesWatch.view.scene;
  const stage = document.querySelector('#w-stage').getBoundingClientRect();
  let [l, t, r, b] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < scene.n; i++) {
    if (!scene.shown[i]) continue;
    for (const [u, v] of [[-1, -1], [1, -1], [-1, 1], [1, 1]]) {
      const p = scene.screenPoint(i, u, v);
      [l, t] = [Math.min(l, p.x), Math.min(t, p.y)];
      [r, b] = [Math.max(r, p.x), Math.max(b, p.y)];
    }
  }
  return Math.max((r - l) / stage.width, (b - t) / stage.height);
}"""


@pytest.mark.parametrize("size", [LAPTOP, {"width": 1920, "height": 1080}])
def test_the_tv_shows_every_card_and_the_leaders_pile_large(
    size, chromium, pages, rooms_server, artifacts
):
    humans = ["Bob", "Cat", "Dee", "Eve"]
    room, people = room_with("Ann", humans, 3, "race", "big")
    tv = open_as(chromium, pages, rooms_server, None, f"/watch?code={room.code}", size)
    wait_for(tv, "document.querySelectorAll('#w-racers li').length === 8")
    wait_for(tv, "window.tilesWatch.view.scene?.idle === true", timeout=30_000)
    for what in ("#w-racers li", "#w-racers .seat-name", "#w-racers .seat-lead"):
        assert outside(tv, what) == [], what
    assert outside(tv, ".watch-pile, #w-leader, #w-title, #w-turn") == []
    # The pile is whole and fills most of the stage, readable from a sofa.
    assert tiles_outside(tv, "tilesWatch.view.scene", ".watch-pile") == []
    assert tv.evaluate(PILE_SHARE) >= 0.6
    # The header names the pile as the host chose it, and the race's clock.
    assert tv.inner_text("#w-title") == "Race · Big (Turtle, 144)"
    assert ":" in tv.inner_text("#w-turn")
    name = f"{size['width']}x{size['height']}"
    tv.screenshot(path=artifacts / f"watch-race-{name}.png")


@pytest.mark.parametrize("size", [LAPTOP, {"width": 1920, "height": 1080}])
def test_the_tv_shows_a_together_game_whole(
    size, chromium, pages, rooms_server, artifacts
):
    room, people = room_with("Ann", ["Bob", "Cat"], 3, "together", "big")
    tv = open_as(chromium, pages, rooms_server, None, f"/watch?code={room.code}", size)
    wait_for(tv, "document.querySelectorAll('#w-seats li').length === 6")
    wait_for(tv, "window.tilesWatch.view.scene?.idle === true", timeout=30_000)
    assert outside(tv, "#w-seats li, #w-seats .seat-points, .watch-pile, #w-turn") == []
    assert tiles_outside(tv, "tilesWatch.view.scene", ".watch-pile") == []
    assert tv.evaluate(PILE_SHARE) >= 0.6
    assert tv.inner_text("#w-title") == "Together · Big (Turtle, 144)"
    name = f"{size['width']}x{size['height']}"
    tv.screenshot(path=artifacts / f"watch-together-{name}.png")
