"""Back to safety in a race: a racer whose pile is stuck presses it and is
taken back, in one step, to the latest position of their pile that can still
be cleared, the page says how many pairs back that was, and the other racer's
strip shows the matches given back. Together offers none of it. Screenshots
on a phone and a laptop go to tests/artifacts/."""

import pytest

from games.engine.solver import solve
from rooms.models import Room
from tests.browser.screens import (
    LAPTOP,
    PHONE_UP,
    off_loop,
    open_as,
    play_to_a_dead_end,
    room_with,
    shown_count,
    wait_for,
)
from tests.engine_helpers import replay

pytestmark = pytest.mark.browser


def _racer_board(code: str, seat: int):
    rnd = Room.objects.get(code=code).current_round
    racer = rnd.racers.get(seat=seat).state()
    return racer.matches, racer.board(rnd.dealt().layout)


@pytest.mark.parametrize("screen", ["phone", "laptop"])
def test_a_stuck_racer_goes_back_to_safety(
    screen, chromium, pages, rooms_server, artifacts
):
    room, people = room_with("Ann", ["Bob"], 0, "race", "big")
    viewport = PHONE_UP if screen == "phone" else LAPTOP
    path = f"/r/{room.code}"
    ann = open_as(chromium, pages, rooms_server, people["Ann"], path, viewport)
    bob = open_as(chromium, pages, rooms_server, people["Bob"], path, LAPTOP)
    wait_for(ann, "window.tilesRoom.race.scene?.n === 144")
    # Random play on the deal, on the server, to where no two free tiles match.
    taken = play_to_a_dead_end(room, people["Ann"])
    wait_for(ann, f"document.querySelector('#board').dataset.moves === '{taken}'")
    wait_for(ann, "!document.querySelector('#stuck').hidden")
    assert ann.locator("#safety").is_visible()
    assert ann.get_attribute("#safety", "aria-label") == "Back to safety"
    assert "(K)" in ann.get_attribute("#safety", "title")
    ann.screenshot(path=artifacts / f"room-race-safety-stuck-{screen}.png")

    ann.click("#stuck-safety")
    wait_for(ann, f"document.querySelector('#board').dataset.moves !== '{taken}'")
    message = ann.inner_text("#race-message")
    assert "back the pile could still be cleared" in message, message
    matches, board = off_loop(_racer_board, room.code, 0)
    assert 0 < matches < taken
    # Where it landed clears: the solver's clearing, replayed on that board.
    found = solve(board)
    assert found.solvable and replay(board, found.solution).cleared
    # The pairs flew back on her pile, and Bob's strip shows her matches.
    standing = ann.evaluate("window.tilesRoom.race.standing.filter(Boolean).length")
    assert standing == 144 - 2 * matches
    wait_for(
        bob,
        "document.querySelector('#strip li[data-seat=\"0\"]')"
        f"?.dataset.matches === '{matches}'",
    )
    assert ann.locator("#stuck").is_hidden()
    wait_for(ann, "window.tilesRoom.race.scene?.idle === true")
    ann.screenshot(path=artifacts / f"room-race-safety-{screen}.png")

    # Pressed again on a pile that can be cleared: nothing to undo.
    ann.keyboard.press("k")
    wait_for(
        ann,
        "document.querySelector('#race-message').textContent"
        ".includes('no need to go back')",
    )
    assert off_loop(_racer_board, room.code, 0)[0] == matches


def test_together_offers_no_back_to_safety(chromium, pages, rooms_server):
    room, people = room_with("Ann", ["Bob"], 0, "together", "small")
    path = f"/r/{room.code}"
    page = open_as(chromium, pages, rooms_server, people["Ann"], path, LAPTOP)
    wait_for(page, "window.tilesRoom.together.scene?.idle === true")
    wait_for(page, "!document.querySelector('#together').hidden")
    assert shown_count(page, "[aria-label='Back to safety']") == 0
    assert "Back to safety" not in page.inner_text("#game")
    page.keyboard.press("k")
    # Whatever "k" sent, its answer comes before the answer to this ping.
    assert page.evaluate("window.tilesRoom.conn.send('ping')")["type"] == "pong"
    assert page.locator("#notice").is_hidden()
