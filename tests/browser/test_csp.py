"""With the Content-Security-Policy on (Django's own: scripts from this site
only, no 'unsafe-inline'), the pages still work in chromium: the
board draws, the room page connects and the host's manners controls act.
Any policy violation fails the test."""

import pytest

from rooms.models import Room
from tests.browser.chromium import PHONE
from tests.browser.helpers import colour_stats

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 15_000
LAPTOP = {"width": 1366, "height": 768}


def watch_policy(page) -> list[str]:
    """Every CSP violation the page reports."""
    violations: list[str] = []
    page.on(
        "console",
        lambda m: (
            violations.append(m.text) if "Content Security Policy" in m.text else 0
        ),
    )
    return violations


def assert_strict(policy: str) -> None:
    assert "unsafe-inline" not in policy
    assert "script-src 'self'" in policy


def test_the_board_draws_under_the_policy(chromium, live_server):
    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    violations = watch_policy(page)
    response = page.goto(f"{live_server.url}/play/small/")
    assert_strict(response.headers["content-security-policy"])
    page.wait_for_function(
        "() => window.tilesBoard && window.tilesBoard.idle()", timeout=60_000
    )
    stats = colour_stats(page.locator("#board-view canvas").screenshot())
    assert stats["variance"] > 200 and stats["colours"] > 40, stats
    context.close()
    assert violations == []


def strict_page(chromium, url: str, viewport: dict):
    """A page under the policy (the shared fixtures bypass it), with the
    violations and script errors it reports."""
    page = chromium.new_context(viewport=viewport).new_page()
    problems = watch_policy(page)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(url)
    return page, problems


def until(page, condition: str) -> None:
    # A function, not an expression: Playwright evals expressions, which
    # the policy (rightly) refuses.
    page.wait_for_function(f"() => {condition}", timeout=WAIT_MS)


def test_the_room_connects_and_the_host_removes_and_locks(
    chromium, rooms_server, artifacts
):
    ann, violations = strict_page(chromium, f"{rooms_server}/rooms/", LAPTOP)
    ann.fill("#host-form input[name=name]", "Ann")
    ann.click("#host-form button[type=submit]")
    until(ann, "document.querySelector('#room')?.dataset.conn === 'online'")
    code = ann.locator("#room").get_attribute("data-code")
    invite = ann.locator("#invite").input_value()
    bob, bob_violations = strict_page(chromium, invite, PHONE)
    bob.fill("#join-form input[name=name]", "Bob")
    bob.click("#join-form button[type=submit]")
    until(bob, "document.querySelector('#room')?.dataset.conn === 'online'")
    assert bob.locator("#host-manners").is_hidden()  # not the host

    ann.click("#host-manners summary")
    until(ann, "document.querySelectorAll('#manners-people li').length === 1")
    ann.check("#lock-room")
    until(ann, "window.tilesRoom.conn.state.room.locked === true")
    ann.screenshot(path=artifacts / "room-host-manners-laptop.png")
    ann.set_viewport_size(PHONE)
    ann.screenshot(path=artifacts / "room-host-manners-phone.png")
    ann.set_viewport_size(LAPTOP)
    ann.click("#manners-people button")
    ann.click("#remove-yes")  # Remove asks first
    # Bob's page is closed as not seated and reloads to say why.
    bob.wait_for_selector("#join-refused", timeout=WAIT_MS)
    room = Room.objects.get(code=code)
    assert room.locked and room.members.count() == 1
    assert "removed you" in bob.inner_text("#join-refused")
    assert violations == [] and bob_violations == []
