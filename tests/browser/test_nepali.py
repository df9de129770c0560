"""The site in Nepali, in chromium under the real CSP: every page a person
reaches shows no English string that has a translation and no Western
digit in a number; the face atlas prints Devanagari on character tiles only;
the header's switch changes the language and keeps it."""

import gettext
import re
from pathlib import Path

import pytest

from tests.browser.chromium import DESKTOP, PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 20_000
LOCALE = Path(__file__).resolve().parents[2] / "locale" / "ne" / "LC_MESSAGES"
WESTERN_DIGIT = re.compile("[0-9]")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
KEY_NAMES = {"Esc", "Enter", "Space", "English", "EN"}


def english_with_a_translation() -> set[str]:
    """The English of every catalogue entry (fixed text only: no
    placeholders, no markup) whose Nepali differs from it."""
    found = set()
    for domain in ("django", "djangojs"):
        with open(LOCALE / f"{domain}.mo", "rb") as mo:
            catalog = gettext.GNUTranslations(mo)._catalog
        for key, nepali in catalog.items():
            english = key[0] if isinstance(key, tuple) else key
            if "\x04" in english:  # a context: "digits\x040123456789"
                english = english.split("\x04", 1)[1]
            if not english or "%" in english or "<" in english or english == nepali:
                continue
            # Short words ("Play", "Room") are found inside other words and
            # names; a string of two words or more stands for itself.
            if " " in english.strip():
                found.add(english)
    return found


def nepali_page(chromium, base: str, viewport=PHONE):
    """A page whose browser has chosen Nepali before (the language cookie)."""
    context = chromium.new_context(viewport=viewport)
    context.add_cookies([{"name": "django_language", "value": "ne", "url": base}])
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on(
        "console",
        lambda m: (
            problems.append(f"{page.url}: {m.text}")
            if "Content Security" in m.text
            else 0
        ),
    )
    return page, problems


def until(page, condition: str) -> None:
    page.wait_for_function(f"() => {condition}", timeout=WAIT_MS)


# What a person reads as words: the page's text without code (the fair
# page's commands and file formats, which are the same in every language).
READABLE_TEXT = """() => {
  const code = [...document.querySelectorAll("code, pre")];
  code.forEach((el) => (el.style.display = "none"));
  const text = document.body.innerText;
  code.forEach((el) => (el.style.display = ""));
  return text;
}"""


def check_text(page, where: str, english: set[str], allowed: tuple[str, ...] = ()):
    assert page.locator("html").get_attribute("lang") == "ne", where
    text = page.evaluate(READABLE_TEXT)
    for keep in allowed:  # identifiers people type (a room code)
        text = text.replace(keep, "")
    left = sorted(s for s in english if s in text)
    assert left == [], (where, left)
    # Beyond the catalogue: no Latin word at all but the keyboard's key
    # names and the switch's "English" (its own name; "EN" on a phone).
    latin = set(LATIN_WORD.findall(text)) - KEY_NAMES
    assert latin == set(), (where, sorted(latin))
    digits = WESTERN_DIGIT.findall(text)
    assert digits == [], (where, digits, text[:400])


def test_the_site_in_nepali_shows_no_english_and_no_western_digits(
    chromium, rooms_server, artifacts
):
    english = english_with_a_translation()
    assert len(english) > 150  # the check reads the real catalogues
    page, problems = nepali_page(chromium, rooms_server)
    for path in (
        "/",
        "/daily/",
        "/levels/",
        "/daily/fair/",
        "/rooms/",
        "/rooms/rules",
        "/watch",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/profile/",
    ):
        page.goto(rooms_server + path)
        check_text(page, path, english)
    page.goto(rooms_server + "/play/small/")
    until(page, "window.tilesBoard && window.tilesBoard.idle()")
    page.keyboard.press("?")  # the help dialog, in Nepali too
    until(page, "document.querySelector('#help').open")
    check_text(page, "/play/small/", english)
    page.screenshot(path=artifacts / "nepali-board-phone.png")

    # A room: host it in Nepali, deal, and look at the race and the TV page.
    page.goto(rooms_server + "/rooms/")
    page.fill("#host-form input[name=name]", "आशा")
    page.click("#host-form button[type=submit]")
    until(page, "document.querySelector('#room')?.dataset.conn === 'online'")
    code = page.locator("#room").get_attribute("data-code")
    check_text(page, "room lobby", english, (code,))
    page.click("#start-game")
    until(page, "!document.querySelector('#deal-form').hidden")
    page.select_option("#deal-form select[name=pile]", "small")
    page.click("#deal")
    until(page, "!document.querySelector('#race').hidden")
    # The clock runs: a digit other than zero shows (in Devanagari).
    until(page, "/[१-९]/.test(document.querySelector('#clock').textContent)")
    check_text(page, "room race", english, (code,))
    page.screenshot(path=artifacts / "nepali-room-phone.png")
    watch, watch_problems = nepali_page(chromium, rooms_server, DESKTOP)
    watch.goto(f"{rooms_server}/watch?code={code}")
    until(watch, "document.querySelector('#watch')?.dataset.conn === 'online'")
    until(watch, "!document.querySelector('#w-stage').hidden")
    check_text(watch, "watch", english, (code,))
    watch.screenshot(path=artifacts / "nepali-watch-laptop.png")
    assert problems == [] and watch_problems == []


LAPTOP = {"width": 1366, "height": 768}


def field_errors(page) -> list[str]:
    return page.locator(".field-error, .form-errors li").all_inner_texts()


def test_forms_errors_and_account_pages_in_nepali(chromium, rooms_server, artifacts):
    """Beyond the main pages: Django's own form errors (the password's
    length, a field's), the error pages, the invite link's join form, a
    signed-in player's account pages and the 429, all without English or
    Western digits."""
    english = english_with_a_translation()
    page, problems = nepali_page(chromium, rooms_server)
    for path in ("/no-such-page/", "/r/ZZZZZ", "/daily/2001-01-01/"):
        page.goto(rooms_server + path)
        check_text(page, path, english)
    page.goto(rooms_server + "/accounts/login/")
    page.fill("input[name=username]", "nobody")
    page.fill("input[name=password]", "wrong password")
    page.click("main button[type=submit]")
    check_text(page, "sign-in error", english)

    # Sign up with a password too short: Django's validator, our digits.
    for viewport, name in ((PHONE, "phone"), (LAPTOP, "laptop")):
        page.set_viewport_size(viewport)
        page.goto(rooms_server + "/accounts/signup/")
        page.fill("input[name=username]", "asha")
        page.fill("input[name=password1]", "baagh")
        page.fill("input[name=password2]", "baagh")
        page.click("main button[type=submit]")
        errors = field_errors(page)
        assert any("कम्तीमा ८ अक्षर" in e for e in errors), errors
        check_text(page, "sign-up error", english)
        page.screenshot(path=artifacts / f"nepali-signup-error-{name}.png")
    page.set_viewport_size(PHONE)
    page.fill("input[name=username]", "asha")
    page.fill("input[name=password1]", "a long pass 123")
    page.fill("input[name=password2]", "a long pass 123")
    page.click("main button[type=submit]")
    page.wait_for_url("**/accounts/profile/")
    check_text(page, "profile, signed in", english, ("asha",))
    page.fill("input[name=display_name]", "   ")
    page.click("form[action$='/accounts/name/'] button[type=submit]")
    check_text(page, "display name error", english, ("asha",))
    page.goto(rooms_server + "/accounts/password/")
    page.fill("input[name=old_password]", "a long pass 123")
    page.fill("input[name=new_password1]", "1234")
    page.fill("input[name=new_password2]", "1234")
    page.click("main button[type=submit]")
    assert len(field_errors(page)) >= 2
    check_text(page, "password change error", english)

    # The invite link opened by someone not in the room: its join form.
    page.goto(rooms_server + "/rooms/")
    page.fill("#host-form input[name=name]", "आशा")
    page.click("#host-form button[type=submit]")
    until(page, "document.querySelector('#room')?.dataset.conn === 'online'")
    code = page.locator("#room").get_attribute("data-code")
    guest, guest_problems = nepali_page(chromium, rooms_server)
    guest.goto(f"{rooms_server}/r/{code}")
    check_text(guest, "join by invite", english, (code,))

    # Too many wrong room codes: the 429 counts down in Nepali digits.
    for _ in range(25):
        if guest.request.get(f"{rooms_server}/watch?code=QQQQQ").status == 429:
            break
    guest.goto(f"{rooms_server}/watch?code=QQQQQ")
    assert guest.locator("#throttled").count() == 1
    check_text(guest, "429", english)
    assert problems == [] and guest_problems == []


ATLAS_CELLS = """async (set) => {
  const drawAtlas = (numerals) => window.tilesBoard.atlas(numerals, set);
  const cell = (atlas, face) => {
    const [u, v] = atlas.cells.get(face);
    const w = atlas.canvas.width * atlas.cellSize[0];
    const h = atlas.canvas.height * atlas.cellSize[1];
    const y = atlas.canvas.height * (1 - v) - h;
    const ctx = atlas.canvas.getContext("2d");
    return Array.from(ctx.getImageData(u * atlas.canvas.width, y, w, h).data).join(",");
  };
  const page = drawAtlas();  // the page's own numerals and wind letters
  const western = drawAtlas("0123456789");
  const faces = ["characters-5", "characters-9", "dots-5", "bamboo-9", "dragon-red"];
  return Object.fromEntries(faces.map((f) => [f, cell(page, f) === cell(western, f)]));
}"""


@pytest.mark.parametrize("tile_set", ["classic", "large", "traditional"])
def test_the_face_atlas_prints_devanagari_on_every_suit(
    chromium, live_server, tile_set
):
    page, _ = nepali_page(chromium, live_server.url)
    page.goto(live_server.url + "/play/small/")
    assert page.locator("html").get_attribute("lang") == "ne"
    until(page, "window.tilesBoard && window.tilesBoard.idle()")
    same = page.evaluate(ATLAS_CELLS, tile_set)
    # Every suit's number is Devanagari; a dragon carries no number.
    assert same == {
        "characters-5": False,
        "characters-9": False,
        "dots-5": False,
        "bamboo-9": False,
        "dragon-red": True,
    }
    # The winds carry their Nepali letters (पू for east), not E.
    assert page.evaluate(
        "[...'ESWN'].map((w) => django.pgettext('wind on a tile', w))"
    ) == ["पू", "द", "प", "उ"]
    english = page.context.browser.new_context().new_page()
    english.goto(live_server.url + "/play/small/")
    until(english, "window.tilesBoard && window.tilesBoard.idle()")
    assert all(english.evaluate(ATLAS_CELLS, tile_set).values())


def test_the_switch_in_the_header_changes_the_language_and_keeps_it(
    chromium, live_server
):
    context = chromium.new_context(viewport=PHONE, locale="en-US")
    page = context.new_page()
    page.goto(live_server.url + "/levels/")
    assert page.locator("html").get_attribute("lang") == "en"
    page.click(".language-switch button[value=ne]")
    page.wait_for_load_state()
    assert page.url.endswith("/levels/")  # the same address, now in Nepali
    assert page.locator("html").get_attribute("lang") == "ne"
    page.goto(live_server.url + "/")
    assert "नयाँ बाजी" in page.inner_text("main")
    page.click(".language-switch button[value=en]")
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "en"
    context.close()
