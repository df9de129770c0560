"""The sign-in door and outages as a person sees them (issue 24, points 5
and 6), in chromium, in English and Nepali, on a phone and a laptop: the
sign-in page's known-device note, the profile's failed attempts, the 503
page that reloads itself once the database is back, and a room page that
says the server is busy and reconnects by itself after a Redis outage.
Screenshots go to tests/artifacts/."""

import pytest
from django.contrib.auth import get_user_model

from tests.browser.chromium import PHONE
from tests.outage_helpers import (
    daphne_on_own_redis,
    database_proxy,
    proxied_database_url,
)
from tests.services import Daphne, needs_services, server_env

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "right-horse-battery"
LAPTOP = {"width": 1366, "height": 768}
SCREENS = {"phone": PHONE, "laptop": LAPTOP}


def new_page(chromium, base: str, viewport=LAPTOP, language: str = "en"):
    context = chromium.new_context(viewport=viewport)
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def fits(page) -> None:
    """Nothing wider than the screen (no sideways scrolling on a phone)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def sign_in(page, base: str, password: str = PASSWORD) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "ana")
    page.fill("#id_password", password)
    page.click("form.account-form button[type=submit]")
    page.wait_for_load_state()


def test_the_known_device_note_and_the_profiles_attempts(
    chromium, rooms_server, artifacts
):
    get_user_model().objects.create_user("ana", password=PASSWORD)
    stranger = new_page(chromium, rooms_server)
    owners = {}
    for language in ("en", "ne"):
        for screen, viewport in SCREENS.items():
            page = new_page(chromium, rooms_server, viewport, language)
            page.goto(f"{rooms_server}/accounts/login/")
            assert page.locator("#device-note").get_attribute("data-known") == "0"
            sign_in(page, rooms_server)
            page.locator('form[action$="/logout/"] button').click()  # sign out
            page.wait_for_load_state()
            page.goto(f"{rooms_server}/accounts/login/")
            note = page.locator("#device-note")
            assert note.get_attribute("data-known") == "1"
            fits(page)
            name = f"door-sign-in-known-{language}-{screen}.png"
            page.screenshot(path=artifacts / name)
            owners[language, screen] = page
    for (language, screen), page in owners.items():
        # A stranger's guess, then the owner signs in: it is the one failure
        # since their previous sign-in (on whichever device that was).
        sign_in(stranger, rooms_server, "a-wrong-guess")
        assert stranger.url.endswith("/accounts/login/")
        sign_in(page, rooms_server)
        page.goto(f"{rooms_server}/accounts/profile/")
        block = page.locator("#sign-in-attempts")
        assert block.get_attribute("data-count") == "1"
        text = block.inner_text()
        assert ("१" if language == "ne" else "1 wrong password was") in text
        fits(page)
        page.screenshot(
            path=artifacts / f"door-profile-attempts-{language}-{screen}.png",
            full_page=True,
        )
        # The next device's sign-in is this one's "previous" from now on.
        page.locator('form[action$="/logout/"] button').click()
        page.wait_for_load_state()
        assert page.errors == []
    # The stranger keeps guessing until refused; then a new device of the
    # owner, with the right password, waits too and is told why.
    for _ in range(10):
        sign_in(stranger, rooms_server, "a-wrong-guess")
        if stranger.locator("#throttled").count():
            break
    assert stranger.locator("#throttled").count() == 1
    for language in ("en", "ne"):
        for screen, viewport in SCREENS.items():
            page = new_page(chromium, rooms_server, viewport, language)
            page.goto(f"{rooms_server}/accounts/login/")
            assert page.locator("#device-note").get_attribute("data-known") == "0"
            name = f"door-sign-in-new-{language}-{screen}.png"
            page.screenshot(path=artifacts / name)
            sign_in(page, rooms_server)
            assert page.locator("#throttled-why").is_visible()
            fits(page)
            page.screenshot(path=artifacts / f"door-429-new-{language}-{screen}.png")
            assert page.errors == []


def test_the_503_page_reloads_by_itself_once_the_database_is_back(chromium, artifacts):
    needs_services("the 503 page")
    proxy = database_proxy()
    daphne = Daphne(server_env(DATABASE_URL=proxied_database_url(proxy)))
    try:
        daphne.wait_ready()
        base = f"http://127.0.0.1:{daphne.port}"
        pages = []
        for language in ("en", "ne"):
            for screen, viewport in SCREENS.items():
                page = new_page(chromium, base, viewport, language)
                page.goto(f"{base}/daily/")
                pages.append((language, screen, page))
        proxy.cut()
        for language, screen, page in pages:
            reply = page.goto(f"{base}/daily/")
            assert reply.status == 503
            assert page.locator("#unavailable").is_visible()
            assert ("५०३" if language == "ne" else "503") in page.inner_text("main")
            fits(page)
            page.screenshot(path=artifacts / f"door-503-{language}-{screen}.png")
        proxy.restore()
        # Nobody touches the pages: each asks again by itself.
        for _, _, page in pages:
            page.wait_for_selector("#unavailable", state="detached", timeout=30_000)
            assert page.url == f"{base}/daily/"
            assert page.errors == []
    finally:
        daphne.stop()
        proxy.cut()


def test_the_room_page_says_the_server_is_busy_and_reconnects(chromium, artifacts):
    needs_services("the room page in a Redis outage")
    with daphne_on_own_redis() as (redis, daphne):
        base = f"http://127.0.0.1:{daphne.port}"
        page = new_page(chromium, base, PHONE)
        page.goto(f"{base}/rooms/")
        page.fill("#host-form input[name=name]", "Ann")
        page.click("#host-form button[type=submit]")
        page.wait_for_selector("#room[data-conn=online]")
        redis.stop()
        page.reload()  # the page's socket opens while Redis is away
        page.wait_for_selector("#room[data-conn=unavailable]", timeout=15_000)
        assert "trying again" in page.inner_text("#conn")
        page.screenshot(path=artifacts / "door-room-unavailable-en-phone.png")
        redis.start()
        page.wait_for_selector("#room[data-conn=online]", timeout=30_000)
        assert page.errors == []
