"""A level board says which level it is, offers no shuffle and shows no
shuffle count, and once cleared offers the next level, headed as such."""

import pytest

from dailies.levels import level_spec
from games.engine.catalogue import get_layout
from tests.browser.helpers import take, the_run, wait_settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_cleared_level_offers_the_next_level(open_board, artifacts):
    slug = level_spec(1).layout_slug
    page = open_board(slug, query="?board=level:1")
    pile = get_layout(slug).name
    assert page.locator("#layout-name").inner_text() == f"Level 1 · {pile}"
    # A level never shuffles: no button for it, no count of it.
    assert page.locator("#shuffle").is_hidden()
    for a, b in the_run().witness:
        take(page, a, b)
    wait_settled(page)
    page.locator("#result").wait_for(state="visible")
    assert page.locator("#result-shuffles").is_hidden()
    assert page.locator("#result dt", has_text="Shuffles").is_hidden()
    nxt = page.locator("#next-level")
    assert nxt.is_visible() and nxt.inner_text() == "Next level"
    page.screenshot(path=artifacts / "board-level-cleared-phone.png")
    nxt.click()
    page.wait_for_url("**board=level%3A2")
    wait_settled(page)
    assert page.locator("#layout-name").inner_text().startswith("Level 2 · ")
