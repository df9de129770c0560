"""A whole Small deal played through the page ends on the result screen, and
the clean clear is saved as the player's best time."""

import pytest

from games.models import BestTime
from tests.browser.helpers import take, the_run, wait_settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_small_deal_played_to_the_end_saves_the_best_time(open_board, artifacts):
    page = open_board("small")
    run = the_run()
    for a, b in run.witness:
        # At a person's pace: pairs sent faster than hands can tap are
        # never ranked (docs/fair-play.md).
        page.wait_for_timeout(400)
        take(page, a, b)
    wait_settled(page)
    result = page.locator("#result")
    result.wait_for(state="visible")
    assert page.locator("#result-title").inner_text() == "Cleared!"
    assert page.locator("#board").get_attribute("data-status") == "won"
    assert page.locator("#tiles-left").inner_text() == "0"
    run.refresh_from_db()
    assert run.status == "won"
    assert run.set_best
    best = BestTime.objects.get(board_key="free:small")
    # The clock stopped at the win: the best is the run's banked time.
    assert best.best_ms == run.banked_ms
    assert page.locator("#result-new-best").is_visible()
    shown_best = page.locator("#result-best").inner_text()
    assert shown_best == page.locator("#result-time").inner_text()
    assert page.locator("#result-hints").inner_text() == "0"
    assert page.locator("#result-shuffles").inner_text() == "0"
    page.screenshot(path=artifacts / "board-phone-result.png")

    # A new deal from the result screen starts a fresh pile.
    page.locator("#result [data-action=new]").click()
    wait_settled(page)
    assert page.locator("#board").get_attribute("data-status") == "playing"
    assert page.locator("#tiles-left").inner_text() == str(len(run.tiles))


def test_a_clear_at_machine_speed_says_it_is_not_ranked(open_board):
    page = open_board("small")
    run = the_run()
    for a, b in run.witness:
        take(page, a, b)
    wait_settled(page)
    page.locator("#result").wait_for(state="visible")
    assert "not ranked" in page.locator("#result-note").inner_text()
    assert page.locator("#result-new-best").is_hidden()
    run.refresh_from_db()
    assert run.too_fast and not BestTime.objects.exists()
