"""The same board page plays fixed boards (a level, a daily): the mode comes
with the run, and shuffle and new deal, which they do not allow, are hidden."""

import pytest

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
