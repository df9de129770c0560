"""When no two free tiles match, a quiet notice beside the board offers Undo,
Restart and (for new deals) Shuffle; a shuffle gets the game going again."""

import random

import pytest

from games.engine.formats import position_from_json
from tests.browser.helpers import take, the_run, wait_settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def pairs_to_a_dead_end(run, tries: int = 200) -> list[tuple[int, int]]:
    """Legal takes (tile ids) that leave tiles standing with no move left:
    the shortest such line found in a few random games."""
    position = position_from_json({"tiles": run.tiles})
    rng = random.Random(7)
    best = None
    for _ in range(tries):
        board = position.board.copy()
        taken = []
        while board.free_pairs():
            a, b = rng.choice(board.free_pairs())
            board.take(a, b)
            taken.append((position.ids[a], position.ids[b]))
        if not board.cleared and (best is None or len(taken) < len(best)):
            best = taken
    assert best is not None, "no dead end found on this deal"
    return best


def test_a_stuck_pile_offers_undo_restart_and_shuffle(open_board, artifacts):
    # Random play on Turtle soon reaches a dead end; Small deals rarely have one.
    page = open_board("turtle")
    for a, b in pairs_to_a_dead_end(the_run()):
        take(page, a, b)
    wait_settled(page)
    stuck = page.locator("#stuck")
    assert stuck.is_visible()
    # Beside the board, not over it: the notice sits below the table.
    table = page.locator("#board-view").bounding_box()
    notice = stuck.bounding_box()
    assert notice["y"] >= table["y"] + table["height"] - 1
    for action in ("undo", "restart", "shuffle"):
        assert stuck.locator(f"[data-action={action}]").is_visible()
    assert "No pairs left" in stuck.inner_text()
    # A hint now says why it shows no pair.
    page.locator("#hint").click()
    page.locator("#message").filter(has_text="No pairs left").wait_for()
    page.screenshot(path=artifacts / "board-phone-stuck.png")
    stuck.locator("[data-action=shuffle]").click()
    wait_settled(page)
    assert the_run().shuffles == 1
    assert stuck.is_hidden()
