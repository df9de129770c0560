"""The server is the judge: when a move never reaches it, the page asks for
the run again and puts the pile back the way the server has it."""

import pytest

from tests.browser.helpers import free_button, take, the_run, wait_settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_take_lost_on_the_way_is_undone_on_screen(open_board):
    page = open_board("small")
    run = the_run()
    a, b = run.witness[0]
    page.route("**/take", lambda route: route.abort())
    take(page, a, b)
    assert page.locator("#tiles-left").inner_text() == str(len(run.tiles) - 2)
    page.locator("#message").filter(has_text="No connection").wait_for()
    page.unroute("**/take")
    # The page asks for the run again and shows the pair standing.
    page.wait_for_function(
        f"document.querySelector('#tiles-left').textContent === '{len(run.tiles)}'",
        timeout=30_000,
    )
    wait_settled(page)
    assert free_button(page, a).count() == 1 and free_button(page, b).count() == 1
    run.refresh_from_db()
    assert run.moves == []
