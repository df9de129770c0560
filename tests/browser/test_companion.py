"""The companion in the page: back to safety from a stuck pile, a way
through played (with pause and step) to an empty table, and where a given-up
run turned, shown on the result screen."""

import re

import pytest

from games.engine.board import Board
from games.engine.certificate import find_certificate
from games.engine.solver import solve
from tests.browser.chromium import PHONE
from tests.browser.helpers import take, the_run, wait_settled
from tests.browser.test_stuck import pairs_to_a_dead_end
from tests.engine_helpers import replay

# How the result screen words the first step of a certificate.
REASONS = (
    r"lie one on the other|one lies on its partner|can never both be free"
    r"|cannot all be taken|block each other"
)
# The laptop size the screenshots are kept at.
LAPTOP = {"width": 1366, "height": 768}

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def stuck_page(open_board, viewport=PHONE):
    """Turtle (random play soon reaches a dead end there) left stuck."""
    page = open_board("turtle", viewport=viewport)
    for a, b in pairs_to_a_dead_end(the_run()):
        take(page, a, b)
    wait_settled(page)
    assert page.locator("#stuck").is_visible()
    return page


def clearable(board: Board) -> bool:
    """Solved on the engine and the clearing replayed on a fresh board."""
    result = solve(board)
    return result.solvable is True and replay(board, result.solution).cleared


def test_back_to_safety_from_a_stuck_pile(open_board, artifacts):
    page = stuck_page(open_board)
    taken = len(the_run().moves)
    page.locator("#stuck [data-action=safety]").click()
    wait_settled(page)
    run = the_run()
    back = taken - len(run.moves)
    assert back > 0 and clearable(run.state().board()) and run.hints == 1
    text = page.locator("#message").text_content()
    assert re.match(rf"{back} pairs? back the pile could still be cleared", text)
    assert page.locator("#board").get_attribute("data-left") == str(
        run.state().board().standing.bit_count()
    )
    page.screenshot(path=artifacts / "companion-phone-safety.png")


def test_a_way_through_plays_to_an_empty_table_with_pause_and_step(
    open_board, artifacts
):
    page = stuck_page(open_board)
    standing = page.locator("#board").get_attribute("data-left")
    page.locator("#stuck [data-action=way]").click()
    board = page.locator("#board")
    page.wait_for_function("() => document.querySelector('#board').dataset.replay")
    # From the start of the deal: the pile is lost where it stands.
    assert board.get_attribute("data-left") == "144"
    page.wait_for_function(
        "() => document.querySelector('#replay span').textContent.startsWith('2 of')"
    )
    page.locator("[data-action=replay-pause]").click()
    assert board.get_attribute("data-replay") == "paused"
    page.screenshot(path=artifacts / "companion-phone-replay.png")
    steps = 0
    while board.get_attribute("data-replay") != "done":
        page.locator("[data-action=replay-step]").click()
        steps += 1
        assert steps <= 72
    wait_settled(page)
    assert board.get_attribute("data-left") == "0"
    # Taps wait while watching; back to the game shows the run as it was.
    page.locator("[data-action=replay-done]").click()
    wait_settled(page)
    assert board.get_attribute("data-left") == standing
    assert the_run().hints == 1


def test_a_given_up_run_says_where_it_turned(open_board, artifacts):
    for viewport, name in ((PHONE, "phone"), (LAPTOP, "desktop")):
        page = stuck_page(open_board, viewport)
        page.keyboard.press("g")
        page.locator("[data-action=confirm-giveup]").click()
        text = page.locator("#result-turned")
        text.wait_for(state="visible")
        page.wait_for_function(
            "() => /turned on your|could still be cleared/"
            ".test(document.querySelector('#result-turned').textContent)"
        )
        page.screenshot(path=artifacts / f"companion-{name}-turned.png")
        found = re.search(r"your (\d+)\w\w pair, the ", text.text_content())
        assert found, text.text_content()
        n = int(found.group(1))
        run = the_run()
        before = Board(run.state().layout, run.state().faces)
        for a, b in run.moves[: n - 1]:
            before.take(a, b)
        assert clearable(before)
        # When a certificate shows why the pile was lost after that pair,
        # the screen says so in words (docs/certificates.md).
        before.take(*run.moves[n - 1])
        if find_certificate(before) is not None:
            assert re.search(REASONS, text.text_content()), text.text_content()
        page.locator("[data-action=turned-show]").click()
        wait_settled(page)
        left = page.locator("#board").get_attribute("data-left")
        assert left == str(144 - 2 * (n - 1))
        page.screenshot(path=artifacts / f"companion-{name}-turned-position.png")
        run.delete()
