"""How the board looks and sounds (issue 28): tile sets and tables chosen in
the settings and kept, calm motion for players who ask for less, sounds
only after the first tap, and screenshots of every set for people to look
at (tests/artifacts/looks-*.png)."""

import pytest

from games.models import Run
from tests.browser.chromium import PHONE
from tests.browser.helpers import take, the_run, wait_settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}
SETS = {"classic": "Classic", "large": "Large print", "traditional": "Traditional"}

# Counts every audio context the page makes and every sound source started.
COUNT_AUDIO = """
window.audioLog = { contexts: 0, started: 0 };
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  constructor(...args) {
    super(...args);
    window.audioLog.contexts++;
    for (const make of ["createOscillator", "createBufferSource"]) {
      const original = this[make].bind(this);
      this[make] = () => {
        const node = original();
        const start = node.start.bind(node);
        node.start = (...a) => { window.audioLog.started++; return start(...a); };
        return node;
      };
    }
  }
};
"""


def board_page(chromium, base, slug="small", viewport=PHONE, language="en", **options):
    context = chromium.new_context(bypass_csp=True, viewport=viewport, **options)
    if language != "en":
        cookie = {"name": "django_language", "value": language, "url": base}
        context.add_cookies([cookie])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/play/{slug}/")
    wait_settled(page)
    return page, errors


def choose_set(page, label: str) -> None:
    page.get_by_role("button", name="Settings").click()
    page.get_by_role("radio", name=label).check()
    page.locator("#settings").get_by_role("button", name="Back to the game").click()
    wait_settled(page)


def test_the_tile_set_and_table_are_chosen_in_settings_and_kept(chromium, live_server):
    page, errors = board_page(chromium, live_server.url)
    assert page.evaluate("window.tilesBoard.look().set") == "classic"
    before = page.locator("#board-view canvas").screenshot()
    page.get_by_role("button", name="Settings").click()
    page.get_by_role("radio", name="Large print").check()
    page.get_by_role("radio", name="Night blue").check()
    page.keyboard.press("Escape")
    wait_settled(page)
    assert page.evaluate("window.tilesBoard.look()")["set"] == "large"
    assert page.locator("#board-view canvas").screenshot() != before
    page.reload()
    wait_settled(page)
    look = page.evaluate("window.tilesBoard.look()")
    assert (look["set"], look["table"]) == ("large", "night")
    page.get_by_role("button", name="Settings").click()
    assert page.get_by_role("radio", name="Large print").is_checked()
    assert page.get_by_role("radio", name="Night blue").is_checked()
    assert errors == []


def test_the_helpers_are_in_the_settings_by_name(chromium, live_server, artifacts):
    page, errors = board_page(chromium, live_server.url)
    page.get_by_role("button", name="Settings").click()
    dialog = page.locator("#settings")
    page.screenshot(path=artifacts / "looks-phone-settings.png")
    for name in (
        "Warn me when the pile is lost",
        "Back to safety",
        "Show me a way through",
        "Sound",
        "Rotate mode",
        "Shade blocked tiles",
    ):
        assert dialog.get_by_role("button", name=name, exact=True).is_visible(), name
    for name in [*SETS.values(), "Green felt", "Night blue", "Walnut", "Slate"]:
        assert dialog.get_by_role("radio", name=name).is_visible(), name
    # The quiet warning is switched on here, and stays on.
    warn = dialog.get_by_role("button", name="Warn me when the pile is lost")
    assert warn.get_attribute("aria-pressed") == "false"
    warn.click()
    assert warn.get_attribute("aria-pressed") == "true"
    page.reload()
    wait_settled(page)
    page.get_by_role("button", name="Settings").click()
    assert warn.get_attribute("aria-pressed") == "true"
    # The view from above stays one tap away on the tool bar; the other
    # view switches are in the settings only.
    page.keyboard.press("Escape")
    tools = page.locator(".board-tools")
    assert tools.get_by_role("button", name="View from above").is_visible()
    for name in ("Rotate mode", "Shade blocked tiles"):
        assert tools.get_by_role("button", name=name, exact=True).count() == 0, name
    assert errors == []


def test_no_sound_plays_before_the_first_tap_and_the_switch_is_kept(
    chromium, live_server
):
    context = chromium.new_context(bypass_csp=True, viewport=PHONE)
    context.add_init_script(COUNT_AUDIO)
    page = context.new_page()
    page.goto(f"{live_server.url}/play/small/")
    wait_settled(page)
    page.wait_for_timeout(300)
    assert page.evaluate("window.audioLog") == {"contexts": 0, "started": 0}
    # The first tap on a free tile: it lifts with a sound.
    run = the_run()
    free = page.locator("#free-tiles button").first.get_attribute("data-tile")
    point = page.evaluate(f"window.tilesBoard.tappable({free})")
    page.mouse.click(point["x"], point["y"])
    page.wait_for_function("window.audioLog.started > 0")
    assert page.evaluate("window.audioLog.contexts") == 1
    # Sound off: kept after a reload, and no tap makes any.
    page.get_by_role("button", name="Settings").click()
    page.get_by_role("button", name="Sound", exact=True).click()
    page.reload()
    wait_settled(page)
    page.get_by_role("button", name="Settings").click()
    sound = page.get_by_role("button", name="Sound", exact=True)
    assert sound.get_attribute("aria-pressed") == "false"
    page.keyboard.press("Escape")
    a, b = run.witness[0]
    point = page.evaluate(f"window.tilesBoard.tappable({a})")
    page.mouse.click(point["x"], point["y"])
    page.wait_for_timeout(300)
    assert page.evaluate("window.audioLog") == {"contexts": 0, "started": 0}
    context.close()


def cleared(page) -> None:
    for a, b in Run.objects.latest("created").witness:
        page.wait_for_timeout(300)
        take(page, a, b)
    page.locator("#result").wait_for(state="visible")


def test_a_clear_is_celebrated_and_calm_when_asked(chromium, live_server, artifacts):
    page, errors = board_page(chromium, live_server.url)
    assert page.evaluate("window.tilesBoard.look().calm") is False
    cleared(page)
    pieces = page.locator("#celebration .piece")
    assert pieces.count() > 10
    assert pieces.first.evaluate("(el) => el.getAnimations().length") == 1
    page.wait_for_timeout(500)
    page.screenshot(path=artifacts / "looks-phone-celebration.png")
    page.context.close()

    page, errors = board_page(chromium, live_server.url, reduced_motion="reduce")
    assert page.evaluate("window.tilesBoard.look().calm") is True
    cleared(page)
    assert page.locator("#celebration .piece").count() > 10
    moving = page.locator("#result *").evaluate_all(
        "(els) => els.some((el) => el.getAnimations().length)"
    )
    assert moving is False
    page.screenshot(path=artifacts / "looks-phone-celebration-calm.png")
    assert errors == []


def test_a_lost_new_deal_can_be_tried_again(chromium, live_server):
    page, errors = board_page(chromium, live_server.url)
    first = the_run()
    page.get_by_role("button", name="Give up").click()
    page.locator("#confirm [data-action=confirm-giveup]").click()
    again = page.get_by_role("button", name="Try this deal again")
    again.wait_for(state="visible")
    again.click()
    wait_settled(page)
    runs = list(type(first).objects.order_by("created"))
    assert len(runs) == 2 and runs[1].status == "playing"
    assert runs[1].initial_faces == first.initial_faces
    assert page.locator("#board").get_attribute("data-status") == "playing"
    assert errors == []


def test_the_header_fits_one_line_on_a_phone(chromium, live_server):
    for language in ("en", "ne"):
        page, _ = board_page(chromium, live_server.url, language=language)
        for path in ("/", "/play/small/"):
            page.goto(live_server.url + path)
            tops = page.locator(".site-header a, .site-header button").evaluate_all(
                "(els) => els.filter((el) => el.offsetParent)"
                ".map((el) => el.getBoundingClientRect().top)"
            )
            assert max(tops) - min(tops) < 12, (language, path, tops)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, (language, path)
        page.context.close()


@pytest.mark.parametrize("slug", ["turtle", "pagoda", "column"])
def test_screenshots_of_every_tile_set(chromium, live_server, artifacts, slug):
    """Each set and table on the phone and the laptop, English and Nepali."""
    tables = {"classic": "felt", "large": "night", "traditional": "wood"}
    for language in ("en", "ne"):
        for size, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
            page, errors = board_page(
                chromium, live_server.url, slug, viewport, language
            )
            for name in SETS:
                page.evaluate(
                    f"localStorage.setItem('tiles.set', '{name}');"
                    f"localStorage.setItem('tiles.table', '{tables[name]}')"
                )
                page.reload()
                wait_settled(page)
                # A reloaded run comes back paused (when its pause landed).
                if page.locator("#pause-cover").is_visible():
                    page.locator("#pause-cover").click()
                    wait_settled(page)
                shot = f"looks-{slug}-{name}-{size}-{language}.png"
                page.screenshot(path=artifacts / shot)
            assert errors == []
            page.context.close()
