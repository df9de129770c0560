"""The controls the rules name, on the solo board and in a room alike: each
an icon button with an accessible name and a tooltip that does its job.
And the states that used to be silent say why: a paused run, the host
leaving, a late joiner (no clock, no pause, refused by the server too)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from rooms import actions
from rooms.models import Room
from rooms.race import LATE_JOIN_MS
from tests.browser.helpers import wait_settled
from tests.browser.screens import (
    LAPTOP,
    PHONE_SIDE,
    PHONE_UP,
    off_loop,
    open_as,
    outside,
    room_with,
    wait_for,
)
from tests.room_helpers import person
from tests.waiting import wait_until

pytestmark = pytest.mark.browser

SOLO = {
    "hint": "Hint",
    "undo": "Undo",
    "pause": "Pause",
    "settings-open": "Settings",
    "leave": "Leave",
}
ROOM = {
    "hint": "Hint",
    "undo": "Undo",
    # A room's button says how many of the deal's pauses are left.
    "pause": "Pause: 3 left",
    "settings-open": "Settings",
    "help-open": "How to play",
    "leave": "Leave the room",
}
# The view's switches, in the settings dialog on both pages, with their keys.
SWITCHES = {"Rotate mode": "M", "Shade blocked tiles": "B"}


def named(page, ids: dict[str, str]) -> None:
    for element_id, name in ids.items():
        control = page.locator(f"#{element_id}")
        assert control.is_visible(), element_id
        assert control.get_attribute("aria-label") == name
        assert control.get_attribute("title"), element_id
        assert control.locator("svg.icon").count() == 1, element_id


def switches_in_settings(page):
    """Open Settings: the view's switches are there, each once on the page,
    by its name; returns them by name."""
    page.get_by_role("button", name="Settings", exact=True).click()
    dialog = page.locator("#settings")
    dialog.wait_for(state="visible")
    found = {}
    for name, key in SWITCHES.items():
        assert page.get_by_role("button", name=name, exact=True).count() == 1, name
        switch = dialog.get_by_role("button", name=name, exact=True)
        assert switch.is_visible(), name
        assert switch.get_attribute("aria-keyshortcuts") == key, name
        assert switch.get_attribute("title"), name
        found[name] = switch
    return found


def fits_after_a_drag(page, view: str) -> None:
    """The corners show once the view has moved, and fit it again."""
    assert page.locator("#fit").is_hidden()
    box = page.locator(view).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 80, y + 40, steps=6)
    page.mouse.up()
    page.locator("#fit").wait_for(state="visible")
    page.click("#fit")
    page.locator("#fit").wait_for(state="hidden")


def paused_says_how_to_go_on(page, cover_id: str):
    """Pause: the pile is covered by the words to go on; returns the cover."""
    page.click("#pause")
    cover = page.locator(f"#{cover_id}")
    cover.wait_for(state="visible")
    assert cover.inner_text().startswith("Paused: tap to go on")
    return cover


@pytest.mark.parametrize(
    "viewport", [PHONE_UP, PHONE_SIDE, LAPTOP], ids=["phone", "phone-side", "laptop"]
)
def test_the_solo_board_names_its_controls_and_each_does_its_job(
    open_board, viewport, artifacts, request
):
    page = open_board("turtle", viewport)
    screen = request.node.callspec.id
    page.screenshot(path=artifacts / f"solo-turtle-{screen}.png")
    named(page, SOLO)
    assert page.locator("[data-action=help]").get_attribute("aria-label") == (
        "How to play"
    )
    assert outside(page, ".board-tools button, .bar-icons > *") == []
    # Rotate mode and shading: switches in the settings, and their keys.
    switch = switches_in_settings(page)
    page.screenshot(path=artifacts / f"solo-settings-{screen}.png")
    switch["Rotate mode"].click()
    assert switch["Rotate mode"].get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('tiles.rotateFirst')") == "1"
    switch["Shade blocked tiles"].click()
    assert switch["Shade blocked tiles"].get_attribute("aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('tiles.shading')") == "0"
    page.keyboard.press("Escape")
    page.keyboard.press("b")
    page.keyboard.press("m")
    assert page.evaluate("localStorage.getItem('tiles.rotateFirst')") == "0"
    assert page.evaluate("localStorage.getItem('tiles.shading')") == "1"
    assert page.get_attribute("#shading", "aria-pressed") == "true"
    assert page.get_attribute("#mode", "aria-pressed") == "false"
    # The question mark: how to play, the icons explained.
    page.click("[data-action=help]")
    assert page.locator("#help").is_visible()
    assert page.locator("#help .keys svg.icon").count() >= 8
    page.keyboard.press("Escape")
    fits_after_a_drag(page, "#board-view")
    # A paused run says how to go on, and nothing but that looks active.
    cover = paused_says_how_to_go_on(page, "pause-cover")
    wait_settled(page)
    for control in ("hint", "undo", "shuffle", "giveup"):
        assert page.locator(f"#{control}").is_disabled(), control
    page.screenshot(path=artifacts / f"solo-paused-{screen}.png")
    cover.click()
    cover.wait_for(state="hidden")
    wait_settled(page)
    assert page.locator("#hint").is_enabled()


@pytest.mark.parametrize("viewport", [PHONE_UP, LAPTOP], ids=["phone", "laptop"])
def test_a_room_names_its_controls_and_each_does_its_job(
    viewport, chromium, pages, rooms_server, artifacts, request
):
    room, people = room_with("Ann", [], 1, "race", "small")
    page = open_as(
        chromium, pages, rooms_server, people["Ann"], f"/r/{room.code}", viewport
    )
    wait_for(page, "document.querySelectorAll('#free-tiles button').length > 0")
    named(page, ROOM)
    assert outside(page, "#race-bar button, .head-icons > *") == []
    race = "window.tilesRoom.race.scene"
    switch = switches_in_settings(page)
    page.screenshot(path=artifacts / f"room-settings-{request.node.callspec.id}.png")
    switch["Rotate mode"].click()
    assert page.evaluate(f"{race}.view.rotateFirst") is True
    assert switch["Rotate mode"].get_attribute("aria-pressed") == "true"
    switch["Shade blocked tiles"].click()
    assert page.evaluate(f"{race}.shading") is False
    page.keyboard.press("Escape")
    page.keyboard.press("m")
    assert page.evaluate(f"{race}.view.rotateFirst") is False
    page.keyboard.press("b")
    assert page.evaluate(f"{race}.shading") is True
    assert page.get_attribute("#mode", "aria-pressed") == "false"
    assert page.get_attribute("#shading", "aria-pressed") == "true"
    page.click("#hint")
    wait_for(page, f"{race}.hintA >= 0")
    page.click("#help-open")
    assert page.locator("#help").is_visible()
    assert "Together" in page.inner_text("#help")
    page.keyboard.press("Escape")
    fits_after_a_drag(page, "#board")
    # Pause for everyone; the cover says how to go on, and a tap does.
    cover = paused_says_how_to_go_on(page, "paused-cover")
    assert page.locator("#hint").is_disabled()
    cover.click()
    cover.wait_for(state="hidden")
    # The x asks first, then leaves the room.
    page.click("#leave")
    assert "the game ends for everyone" in page.inner_text("#leave-confirm")
    page.click("#leave-confirm button.primary")
    assert page.locator("#leave-confirm").is_hidden()
    assert page.locator("#room").get_attribute("data-status") == "game"
    page.click("#leave")
    page.click("#leave-yes")
    page.wait_for_url(f"{rooms_server}/rooms/", timeout=15_000)


def test_the_host_leaving_is_announced(chromium, pages, rooms_server):
    room, people = room_with("Ann", ["Bob"], 0, "race", "small")
    bob = open_as(
        chromium, pages, rooms_server, people["Bob"], f"/r/{room.code}", PHONE_UP
    )
    wait_for(bob, "window.tilesRoom.race.scene?.n === 32")
    off_loop(actions.leave, room.code, people["Ann"])
    wait_for(bob, "document.querySelector('#room').dataset.status === 'lobby'")
    notice = bob.locator("#notice")
    assert notice.is_visible()
    assert notice.inner_text() == (
        "Ann (the host) left, so the game ended. You are the host now."
    )


def test_a_late_joiner_has_no_clock_and_cannot_pause_the_race(
    chromium, pages, rooms_server
):
    room, people = room_with("Ann", [], 1, "race", "small")
    dealt_at = Room.objects.get(pk=room.pk).current_round.dealt_at
    wait_until(
        lambda: timezone.now() - dealt_at > timedelta(milliseconds=LATE_JOIN_MS),
        "the end of the late-join window",
    )
    cat = person("Cat")
    off_loop(actions.join_room, room.code, cat, "Cat")
    page = open_as(chromium, pages, rooms_server, cat, f"/r/{room.code}", PHONE_UP)
    wait_for(page, "document.querySelectorAll('#strip li').length === 2")
    assert page.locator("#in-progress").is_visible()
    for control in ("#clock", "#pause", "#resume", "#board-wrap"):
        assert page.locator(control).is_hidden(), control
    assert outside(page, "#strip li") == []
    # The server refuses it too, whatever the page sends.
    reply = page.evaluate("window.tilesRoom.conn.send('pause')")
    assert reply["type"] == "error" and reply["code"] == "not_racing"
