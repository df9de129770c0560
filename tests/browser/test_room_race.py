"""Two players race on a Small pile in two browsers: hosting, joining by the
invite link, dealing, and each seeing the other's matches in the strip."""

import pytest

from rooms.models import Room
from tests.browser.conftest import PHONE
from tests.browser.conftest_rooms import rooms_server  # noqa: F401 (fixture)
from tests.room_helpers import solution

pytestmark = pytest.mark.browser

WAIT_MS = 15_000


@pytest.fixture
def open_page(chromium):
    """A page in its own browser context (its own cookies: its own player);
    any script error fails the test."""
    opened = []

    def open_page(url: str):
        context = chromium.new_context(viewport=PHONE)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        opened.append((context, errors))
        page.goto(url)
        return page

    yield open_page
    for context, errors in opened:
        context.close()
        assert errors == [], f"script errors on the page: {errors}"


def wait_for(page, script: str) -> None:
    page.wait_for_function(script, timeout=WAIT_MS)


def strip_matches(page, seat: int, matches: int) -> None:
    wait_for(
        page,
        f"document.querySelector('#strip li[data-seat=\"{seat}\"]')"
        f"?.dataset.matches === '{matches}'",
    )


def take(page, pair) -> None:
    for tile in pair:
        page.locator(f'#board .tile[data-tile="{tile}"]').dispatch_event("click")


def test_two_players_race_on_a_small_pile(open_page, rooms_server, artifacts):  # noqa: F811
    ann = open_page(f"{rooms_server}/rooms/")
    ann.fill("#host-form input[name=name]", "Ann")
    ann.click("#host-form button[type=submit]")
    wait_for(ann, "document.querySelector('#room')?.dataset.status === 'lobby'")
    code = ann.locator("#room").get_attribute("data-code")

    bob = open_page(ann.locator("#invite").input_value())
    bob.fill("#join-form input[name=name]", "Bob")
    bob.click("#join-form button[type=submit]")
    wait_for(bob, "document.querySelector('#room')?.dataset.status === 'lobby'")
    wait_for(ann, "document.querySelectorAll('#members li').length === 2")
    # The host adds a bot and takes it away again; Bob sees both.
    ann.select_option("#bot-level", "easy")
    ann.click("#add-bot")
    wait_for(bob, "document.querySelectorAll('#members li').length === 3")
    assert "Easy bot" in bob.inner_text("#members")
    ann.click("#members li[data-seat='2'] button")
    wait_for(bob, "document.querySelectorAll('#members li').length === 2")
    assert bob.locator("#host-lobby").is_hidden()

    ann.click("#start-game")
    for page in (ann, bob):
        wait_for(page, "document.querySelector('#room').dataset.status === 'game'")
    ann.select_option("#deal-form select[name=pile]", "small")
    ann.select_option("#deal-form select[name=limit]", "0")
    ann.click("#deal")
    for page in (ann, bob):
        wait_for(page, "document.querySelectorAll('#board .tile').length === 32")
        wait_for(page, "document.querySelectorAll('#strip li').length === 2")
    pairs = solution(Room.objects.get(code=code))
    ann.wait_for_timeout(1600)  # the pile builds, then the clocks start

    take(ann, pairs[0])
    strip_matches(bob, 0, 1)
    take(bob, pairs[0])
    strip_matches(ann, 1, 1)
    # Bob pauses for everyone: Ann's pile is covered until she resumes.
    bob.click("#pause")
    wait_for(ann, "!document.querySelector('#paused-cover').hidden")
    ann.click("#resume")
    wait_for(bob, "document.querySelector('#paused-cover').hidden")
    bob.screenshot(path=artifacts / "room-race.png")

    for k, pair in enumerate(pairs[1:], start=2):
        take(ann, pair)
        strip_matches(ann, 0, k)
    strip_matches(bob, 0, len(pairs))
    wait_for(ann, "!document.querySelector('#standings').hidden")
    assert "Standings so far" in ann.inner_text("#standings")
    assert "best on this pile" in ann.inner_text("#best")

    ann.click("#end-now")
    for page in (ann, bob):
        wait_for(
            page,
            "document.querySelector('#standings-title')?.textContent"
            " === 'Final standings'",
        )
    ann.screenshot(path=artifacts / "room-standings.png")
    standings = bob.inner_text("#standings-list")
    assert standings.index("Ann") < standings.index("Bob")
