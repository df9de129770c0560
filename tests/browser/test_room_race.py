"""Two players race on a Small pile in two browsers (a desktop and a phone):
hosting, joining by the invite link, dealing, playing on the 3D pile (taps on
the canvas and the hidden list of free tiles), a blocked tile refused with
its reason, and each seeing the other's matches in the strip."""

import pytest

from rooms.models import Room
from tests.browser.conftest import DESKTOP, PHONE
from tests.room_helpers import solution

pytestmark = pytest.mark.browser

WAIT_MS = 15_000


def wait_for(page, script: str) -> None:
    page.wait_for_function(script, timeout=WAIT_MS)


def strip_matches(page, seat: int, matches: int) -> None:
    wait_for(
        page,
        f"document.querySelector('#strip li[data-seat=\"{seat}\"]')"
        f"?.dataset.matches === '{matches}'",
    )


def settled(page) -> None:
    """Wait until no tile or camera animation runs on the 3D pile."""
    wait_for(page, "window.tilesRoom.race.scene?.idle === true")


def take(page, pair) -> None:
    """Pick the pair's tiles from the hidden list of free tiles, as a
    keyboard or screen-reader user would."""
    for tile in pair:
        page.locator(f'#free-tiles button[data-index="{tile}"]').dispatch_event("click")


def tap(page, tile: int) -> None:
    """Tap a tile of the 3D pile where it shows, as a player would."""
    settled(page)
    point = page.evaluate(f"window.tilesRoom.race.scene.tappablePoint({tile})")
    assert point is not None, f"tile {tile} cannot be tapped from this view"
    page.mouse.click(point["x"], point["y"])


def test_two_players_race_on_a_small_pile(open_page, rooms_server, artifacts):
    ann = open_page(f"{rooms_server}/rooms/", DESKTOP)
    ann.fill("#host-form input[name=name]", "Ann")
    ann.click("#host-form button[type=submit]")
    wait_for(ann, "document.querySelector('#room')?.dataset.status === 'lobby'")
    code = ann.locator("#room").get_attribute("data-code")

    bob = open_page(ann.locator("#invite").input_value(), PHONE)
    bob.fill("#join-form input[name=name]", "Bob")
    bob.click("#join-form button[type=submit]")
    wait_for(bob, "document.querySelector('#room')?.dataset.status === 'lobby'")
    wait_for(ann, "document.querySelectorAll('#members li').length === 2")
    # The host adds a bot and takes it away again; Bob sees both.
    ann.select_option("#bot-level", "easy")
    ann.click("#add-bot")
    wait_for(bob, "document.querySelectorAll('#members li').length === 3")
    assert "Easy bot" in bob.inner_text("#members")
    ann.click("#members li[data-seat='2'] button")
    wait_for(bob, "document.querySelectorAll('#members li').length === 2")
    assert bob.locator("#host-lobby").is_hidden()

    ann.click("#start-game")
    for page in (ann, bob):
        wait_for(page, "document.querySelector('#room').dataset.status === 'game'")
    ann.select_option("#deal-form select[name=pile]", "small")
    ann.select_option("#deal-form select[name=limit]", "0")
    ann.click("#deal")
    for page in (ann, bob):
        wait_for(page, "window.tilesRoom.race.scene?.n === 32")
        wait_for(page, "document.querySelectorAll('#strip li').length === 2")
    pairs = solution(Room.objects.get(code=code))
    # The pile builds, then the clocks start and the free tiles are listed.
    for page in (ann, bob):
        wait_for(page, "document.querySelectorAll('#free-tiles button').length > 0")

    # A covered or side-held tile shakes and the page says why.
    blocked = ann.evaluate(
        "(() => { const r = window.tilesRoom.race;"
        " return r.standing.findIndex((up, i) =>"
        " up && r.geometry.blockedReason(i, r.standing)); })()"
    )
    ann.evaluate(f"window.tilesRoom.race.tap({blocked})")
    assert ann.evaluate("window.tilesRoom.race.scene.shakes") == 1
    assert ann.locator("#room").get_attribute("data-blocked") in ("covered", "sides")
    assert "That tile is" in ann.inner_text("#race-message")

    # Ann taps her first pair on the canvas: the first tile lifts, the second
    # sends the pair.
    tap(ann, pairs[0][0])
    wait_for(ann, f"window.tilesRoom.race.selected === {pairs[0][0]}")
    tap(ann, pairs[0][1])
    strip_matches(bob, 0, 1)
    wait_for(ann, "document.querySelector('#board').dataset.moves === '1'")
    take(bob, pairs[0])
    strip_matches(ann, 1, 1)
    # Bob pauses for everyone (with the P key, as on the solo board): Ann's
    # pile is covered until she resumes.
    bob.keyboard.press("p")
    wait_for(ann, "!document.querySelector('#paused-cover').hidden")
    ann.click("#resume")
    wait_for(bob, "document.querySelector('#paused-cover').hidden")
    take(bob, pairs[1])
    strip_matches(ann, 1, 2)
    # Undo (the U key) puts the pair back from the server's state; Bob takes
    # it again.
    wait_for(bob, "document.querySelector('#board').dataset.moves === '2'")
    bob.keyboard.press("u")
    strip_matches(ann, 1, 1)
    wait_for(bob, f"window.tilesRoom.race.standing[{pairs[1][0]}] === true")
    take(bob, pairs[1])
    strip_matches(ann, 1, 2)
    # A pair the server refuses (these two do not match): the board is put
    # back as the server has it.
    settled(bob)
    a, b = bob.evaluate(
        "(() => { const r = window.tilesRoom.race;"
        " const free = r.geometry.freeTiles(r.standing);"
        " for (const a of free) for (const b of free)"
        "   if (r.faces[a].split('-')[0] !== r.faces[b].split('-')[0]) return [a, b];"
        " })()"
    )
    bob.evaluate(f"window.tilesRoom.race.take({a}, {b})")
    wait_for(bob, "!document.querySelector('#notice').hidden")
    wait_for(
        bob,
        f"window.tilesRoom.race.standing[{a}] && window.tilesRoom.race.standing[{b}]",
    )
    strip_matches(ann, 1, 2)
    bob.click("#hint")
    wait_for(bob, "window.tilesRoom.race.scene.hintA >= 0")  # the pair glows
    bob.screenshot(path=artifacts / "room-race-phone.png")
    settled(ann)
    ann.screenshot(path=artifacts / "room-race.png")

    for k, pair in enumerate(pairs[1:], start=2):
        take(ann, pair)
        strip_matches(ann, 0, k)
    strip_matches(bob, 0, len(pairs))
    wait_for(ann, "!document.querySelector('#standings').hidden")
    assert "Standings so far" in ann.inner_text("#standings")
    assert "best on this pile" in ann.inner_text("#best")

    ann.click("#end-now")
    for page in (ann, bob):
        wait_for(
            page,
            "document.querySelector('#standings-title')?.textContent"
            " === 'Final standings'",
        )
    ann.screenshot(path=artifacts / "room-standings.png")
    standings = bob.inner_text("#standings-list")
    assert standings.index("Ann") < standings.index("Bob")
