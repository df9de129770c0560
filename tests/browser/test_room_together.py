"""A Together game between a page and a bot on a Small pile, with a watch
page open: the host deals Together, takes pairs on her turns by tapping the
3D pile, the bot takes its turns (the timer run from the test), the watch
page follows the shared pile and the cards, and both pages end with the
final standings."""

import threading
import time

import pytest
from django.db import connection

from rooms import actions
from rooms.models import Room
from rooms.together import standings
from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.browser

WAIT_MS = 20_000


def wait_for(page, script: str, timeout: int = WAIT_MS) -> None:
    page.wait_for_function(script, timeout=timeout)


def shared_state(code: str):
    return Room.objects.get(code=code).current_round.together_state()


def _timers_once() -> None:
    try:
        for room_id in actions.due_rooms():
            actions.apply_due_timers(room_id)
    finally:
        connection.close()


def run_timers_until(code: str, done, timeout_s: float = 20) -> None:
    """Play the timer process's part (the bot's turns) until `done()`. On a
    thread of its own, as a process apart would be: this one runs
    Playwright's event loop, where publishing to the channel layer cannot."""
    end = time.monotonic() + timeout_s
    while not done():
        assert time.monotonic() < end, "the bot did not play"
        timer = threading.Thread(target=_timers_once)
        timer.start()
        timer.join()
        time.sleep(0.1)


def tap(page, tile: int) -> None:
    """Tap a tile of the 3D pile where it shows, as a player would."""
    point = page.evaluate(f"window.tilesRoom.together.scene.tappablePoint({tile})")
    if point is None:  # hidden from this angle: the page's own tap handler
        page.evaluate(f"window.tilesRoom.together.tap({tile})")
    else:
        page.mouse.click(point["x"], point["y"])


def test_a_page_and_a_bot_play_together_with_a_watch_page(
    open_page,
    rooms_server,
    artifacts,
):
    ann = open_page(f"{rooms_server}/rooms/")
    ann.fill("#host-form input[name=name]", "Ann")
    ann.click("#host-form button[type=submit]")
    wait_for(ann, "document.querySelector('#room')?.dataset.status === 'lobby'")
    code = ann.locator("#room").get_attribute("data-code")
    ann.select_option("#bot-level", "hard")
    ann.click("#add-bot")
    wait_for(ann, "document.querySelectorAll('#members li').length === 2")
    ann.click("#start-game")
    wait_for(ann, "document.querySelector('#room').dataset.status === 'game'")

    tv = open_page(f"{rooms_server}/watch")
    tv.fill("#watch-form input[name=code]", code.lower())
    tv.click("#watch-form button[type=submit]")
    wait_for(tv, "document.querySelector('#watch')?.dataset.conn === 'online'")
    assert not tv.locator("#w-waiting").is_hidden()

    ann.check("#deal-form input[value=together]")
    assert ann.locator("#limit-choice").is_hidden()
    ann.select_option("#deal-form select[name=pile]", "small")
    ann.click("#deal")
    wait_for(ann, "document.querySelectorAll('#t-strip li').length === 2")
    wait_for(tv, "document.querySelector('#watch').dataset.mode === 'together'")
    wait_for(tv, "document.querySelectorAll('#w-seats li').length === 2")
    assert ann.inner_text("#t-strip li[data-seat='0']").startswith("Ann (you)")
    # Ann joined first: her turn, once the pile has built.
    wait_for(ann, "document.querySelector('#t-turn').textContent.startsWith('Your')")
    assert (
        ann.locator("#t-strip li[data-seat='0']").get_attribute("class").count("turn")
    )
    assert ann.locator("#t-hint").is_visible()
    assert ann.locator("#undo").is_hidden() and ann.locator("#shuffle").is_hidden()

    turns = 0
    while shared_state(code).status == "playing":
        state = shared_state(code)
        if state.turn_seat != 0:
            moves = len(state.moves)
            run_timers_until(code, lambda m=moves: len(shared_state(code).moves) > m)
            continue
        moves = len(state.moves)
        wait_for(ann, f"document.querySelector('#t-pile').dataset.moves === '{moves}'")
        wait_for(
            ann, "document.querySelector('#t-turn').textContent.startsWith('Your')"
        )
        a, b = state.board().free_pairs()[0]
        tap(ann, a)
        tap(ann, b)
        wait_for(
            ann, f"document.querySelector('#t-pile').dataset.moves === '{moves + 1}'"
        )
        turns += 1
        if turns == 2:
            # The bot's pair is on its card; the watch page shows the same.
            wait_for(tv, f"window.tilesWatch.conn.state.round.moves.length >= {moves}")
            settled = "window.tilesRoom.together.scene.idle === true"
            wait_for(ann, settled)  # the pair's flight to the card
            ann.screenshot(path=artifacts / "room-together.png")
            wait_for(tv, "window.tilesWatch.view.scene.idle === true")
            tv.screenshot(path=artifacts / "watch-together.png")
            ann.set_viewport_size(PHONE)
            wait_for(ann, settled)
            ann.screenshot(path=artifacts / "room-together-phone.png")
            ann.set_viewport_size(DESKTOP)

    final = shared_state(code)
    assert len(final.moves) >= 2 and turns >= 1
    wait_for(ann, "!document.querySelector('#t-standings').hidden")
    wait_for(tv, "!document.querySelector('#w-final').hidden")
    # The rules' own standings: level on points, the quicker average turn
    # comes first, so the most points alone does not name the winner.
    first = standings(final)[0].seat
    winner = next(s.name for s in final.seats if s.seat == first)
    assert ann.inner_text("#t-standings-list").startswith(f"1. {winner}")
    assert winner in tv.inner_text("#w-final-list")
    points = {s.name: s.points for s in final.seats}
    for name, value in points.items():
        assert f"{name}: {value} points" in tv.inner_text("#w-final-list")
    ann.screenshot(path=artifacts / "room-together-final.png")
    tv.screenshot(path=artifacts / "watch-together-final.png")
