"""The same board page plays fixed boards (a level, a daily): the mode comes
with the run, and shuffle and new deal, which they do not allow, are hidden."""

import pytest

from games.models import Run
from tests.browser.helpers import take, the_run, wait_settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_level_hides_shuffle_and_new_deal_and_plays(open_board):
    page = open_board("small", query="?board=level:1")
    board = page.locator("#board")
    assert board.get_attribute("data-mode") == "level"
    run = the_run()
    assert run.board_key == "level:1"
    for action in ("shuffle", "new"):
        for button in page.locator(f"#board [data-action={action}]").all():
            assert button.is_hidden()
    # S does nothing here: no request, no shuffle counted.
    page.keyboard.press("s")
    a, b = run.witness[0]
    take(page, a, b)
    wait_settled(page)
    run.refresh_from_db()
    assert run.moves == [[a, b]] and run.shuffles == 0


def test_a_new_deal_board_shows_shuffle_and_new_deal(open_board):
    page = open_board("small")
    assert page.locator("#board").get_attribute("data-mode") == "free"
    assert page.locator(".board-tools [data-action=shuffle]").is_visible()
    assert page.locator(".board-tools [data-action=new]").is_visible()


def test_a_cleared_level_offers_to_play_it_again(open_board):
    page = open_board("small", query="?board=level:1")
    run = the_run()
    for a, b in run.witness:
        take(page, a, b)
    result = page.locator("#result")
    result.wait_for(state="visible")
    assert result.locator("[data-action=new]").is_hidden()
    result.locator("[data-action=again]").click()
    wait_settled(page)
    assert page.locator("#board").get_attribute("data-status") == "playing"
    assert page.locator("#tiles-left").inner_text() == str(len(run.tiles))
    again = Run.objects.exclude(pk=run.pk).get()
    assert again.board_key == "level:1" and again.tiles == run.tiles
