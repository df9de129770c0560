"""Undo puts the last pair back; a hint shows a pair and is counted."""

import pytest

from tests.browser.helpers import free_button, take, the_run, wait_settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_undo_puts_the_last_pair_back(open_board):
    page = open_board("small")
    run = the_run()
    (a, b), (c, d) = run.witness[:2]
    take(page, a, b)
    take(page, c, d)
    wait_settled(page)
    assert page.locator("#tiles-left").inner_text() == str(len(run.tiles) - 4)
    page.keyboard.press("u")
    wait_settled(page)
    assert page.locator("#tiles-left").inner_text() == str(len(run.tiles) - 2)
    run.refresh_from_db()
    assert run.moves == [[a, b]] and run.undos == 1
    # The pair is standing and free again, so it can be taken once more.
    assert free_button(page, c).count() == 1 and free_button(page, d).count() == 1
    page.locator("#undo").click()
    wait_settled(page)
    run.refresh_from_db()
    assert run.moves == [] and run.undos == 2
    assert page.locator("#undo").is_disabled()


def test_a_hint_shows_a_matching_free_pair_and_counts(open_board):
    page = open_board("small")
    page.keyboard.press("h")
    # The table names a tile of the hinted pair (the note fades after a while).
    page.locator("#message").filter(has_text="Try").wait_for()
    wait_settled(page)
    run = the_run()
    assert run.hints == 1
    assert page.locator("#hint-count").inner_text() == "1"
    # The board still plays on after a hint: the hinted run is not clean.
    a, b = run.witness[0]
    take(page, a, b)
    wait_settled(page)
    run.refresh_from_db()
    assert run.moves == [[a, b]] and not run.clean
