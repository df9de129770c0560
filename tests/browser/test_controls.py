"""Controls a phone can use: every button and field of the site's forms and
of a room's lobby is a target a thumb can hit, and the invite link goes to
a friend in one tap (the phone's share sheet, else the clipboard)."""

import pytest

from tests.browser.chromium import PHONE

pytestmark = pytest.mark.browser

WAIT_MS = 15_000
# WCAG's target size: 44 CSS pixels.
MIN_TARGET_PX = 44
CONTROLS = (
    "main button, main select,"
    " main input:not([type=hidden]):not([type=radio]):not([type=checkbox])"
)


def small_controls(page) -> list[str]:
    """The visible controls in the page's main part under the target size."""
    return page.evaluate(
        """([selector, min]) => [...document.querySelectorAll(selector)]
            .filter((el) => el.offsetParent !== null)
            .filter((el) => el.getBoundingClientRect().height < min)
            .map((el) => `${el.outerHTML.slice(0, 60)}: ${
                el.getBoundingClientRect().height}px`)""",
        [CONTROLS, MIN_TARGET_PX],
    )


def host_room(page, base: str) -> str:
    page.goto(f"{base}/rooms/")
    page.fill("#host-form input[name=name]", "Ann")
    page.click("#host-form button[type=submit]")
    page.wait_for_function(
        "document.querySelector('#room')?.dataset.status === 'lobby'",
        timeout=WAIT_MS,
    )
    return page.locator("#invite").input_value()


@pytest.mark.parametrize(
    "path",
    [
        "/rooms/",
        "/watch",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/profile/",
    ],
)
def test_form_controls_are_thumb_sized_on_a_phone(open_page, rooms_server, path):
    page = open_page(f"{rooms_server}{path}", PHONE)
    assert page.locator(CONTROLS).count() >= 2
    assert small_controls(page) == []


def test_the_lobby_controls_are_thumb_sized_on_a_phone(open_page, rooms_server):
    page = open_page(f"{rooms_server}/rooms/", PHONE)
    host_room(page, rooms_server)
    # The host's lobby: invite, leave, bot level, add a bot, start.
    assert page.locator(CONTROLS).locator("visible=true").count() >= 5
    assert small_controls(page) == []


def test_the_invite_link_is_copied_where_there_is_no_share_sheet(
    chromium, rooms_server
):
    context = chromium.new_context(viewport=PHONE, bypass_csp=True)
    try:
        # Desktop Linux chromium has no share sheet; make sure of it.
        context.add_init_script("delete Navigator.prototype.share")
        context.grant_permissions(
            ["clipboard-read", "clipboard-write"], origin=rooms_server
        )
        page = context.new_page()
        invite = host_room(page, rooms_server)
        button = page.locator("#share-invite")
        assert button.inner_text() == "Copy link"
        button.click()
        page.wait_for_function(
            "document.getElementById('invite-status').textContent === 'Link copied'",
            timeout=WAIT_MS,
        )
        assert page.evaluate("navigator.clipboard.readText()") == invite
        assert invite.endswith(page.locator("#room").get_attribute("data-code"))
        # The note is news only for a moment; a stale one would mislead.
        page.wait_for_function(
            "document.getElementById('invite-status').textContent === ''",
            timeout=WAIT_MS,
        )
    finally:
        context.close()


def test_the_invite_link_opens_the_share_sheet_on_a_phone(chromium, rooms_server):
    context = chromium.new_context(viewport=PHONE, bypass_csp=True)
    try:
        # A stand-in share sheet that records what it was given.
        context.add_init_script(
            "navigator.share = async (data) => { window.sharedWith = data; };"
        )
        page = context.new_page()
        invite = host_room(page, rooms_server)
        button = page.locator("#share-invite")
        assert button.inner_text() == "Share link"
        button.click()
        page.wait_for_function("window.sharedWith !== undefined", timeout=WAIT_MS)
        shared = page.evaluate("window.sharedWith")
        code = page.locator("#room").get_attribute("data-code")
        assert shared == {"title": f"Tiles room {code}", "url": invite}
    finally:
        context.close()
