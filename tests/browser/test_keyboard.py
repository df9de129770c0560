"""Every action has a key: the free tiles can be walked with the arrows and
picked with Enter, P pauses (covering the pile), ? opens the help."""

import pytest

from tests.browser.helpers import the_run, wait_settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def focused_tile(page) -> str | None:
    return page.evaluate("document.activeElement.dataset.tile ?? null")


def test_arrow_keys_walk_the_free_tiles_and_enter_picks(open_board):
    page = open_board("small")
    page.keyboard.press("ArrowRight")
    first = focused_tile(page)
    assert first is not None
    page.keyboard.press("ArrowRight")
    second = focused_tile(page)
    assert second is not None and second != first
    page.keyboard.press("Enter")
    button = page.locator(f'#free-tiles button[data-tile="{second}"]')
    assert button.get_attribute("aria-pressed") == "true"
    page.keyboard.press("Enter")
    assert button.get_attribute("aria-pressed") == "false"


def test_p_pauses_and_covers_the_pile_then_resumes(open_board):
    page = open_board("small")
    page.keyboard.press("p")
    wait_settled(page)
    assert page.locator("#pause-cover").is_visible()
    assert the_run().status == "paused"
    page.keyboard.press("Escape")
    wait_settled(page)
    assert not page.locator("#pause-cover").is_visible()
    assert the_run().status == "playing"


def test_question_mark_opens_the_help(open_board):
    page = open_board("small")
    page.keyboard.press("?")
    help_dialog = page.locator("#help")
    help_dialog.wait_for(state="visible")
    assert "undo" in help_dialog.inner_text()
    page.keyboard.press("Escape")
    help_dialog.wait_for(state="hidden")
