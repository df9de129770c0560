"""Moving the view: a drag pans, the fit button appears once the view was
moved and brings back the view from above; the rotate mode is remembered."""

import pytest

from tests.browser.conftest import DESKTOP
from tests.browser.helpers import wait_settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def drag(page, dx: float, dy: float, button: str = "left") -> None:
    box = page.locator("#board-view canvas").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down(button=button)
    for k in range(1, 9):
        page.mouse.move(x + dx * k / 8, y + dy * k / 8)
    page.mouse.up(button=button)


def test_fit_shows_once_the_view_moved_and_brings_it_back(open_board, artifacts):
    page = open_board("small", DESKTOP)
    fit = page.locator("#fit")
    assert fit.is_hidden()
    drag(page, 160, 40)
    drag(page, -200, 60, button="right")
    wait_settled(page)
    assert fit.is_visible()
    page.screenshot(path=artifacts / "board-desktop-turned.png")
    fit.click()
    wait_settled(page)
    assert fit.is_hidden()


def test_the_rotate_mode_is_remembered_on_the_device(open_board):
    page = open_board("small")
    mode = page.locator("#mode")
    assert mode.get_attribute("aria-pressed") == "false"
    page.keyboard.press("m")
    assert mode.get_attribute("aria-pressed") == "true"
    page.reload()
    wait_settled(page)
    assert page.locator("#mode").get_attribute("aria-pressed") == "true"
    # The switch in the settings says what it toggles; pressed, drag turns.
    page.get_by_role("button", name="Settings", exact=True).click()
    switch = page.locator("#settings").get_by_role("button", name="Rotate mode")
    assert switch.get_attribute("aria-pressed") == "true"
