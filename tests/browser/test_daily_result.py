"""The result screen of today's daily, in chromium: given up, it says when
the way through opens (no button for it while the daily is ranked); cleared
faster than the hard bot, it says the time waits for review. Screenshots at
phone and laptop sizes, and the given-up screen in Nepali."""

import pytest

from dailies import days
from tests.browser.chromium import PHONE
from tests.browser.helpers import take, the_run, wait_settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}
SIZES = ((PHONE, "phone"), (LAPTOP, "desktop"))


def daily_query() -> str:
    return f"?board=daily:{days.today()}:small"


def give_up(page) -> None:
    page.keyboard.press("g")
    page.locator("[data-action=confirm-giveup]").click()
    page.locator("#result").wait_for(state="visible")


def test_a_given_up_daily_says_when_its_way_through_opens(open_board, artifacts):
    closes = days.closes(days.today())
    for viewport, name in SIZES:
        page = open_board("small", viewport=viewport, query=daily_query())
        # No way through on offer during play either.
        assert page.locator("[data-action=way]:not(#result-way)").count() >= 1
        for button in page.locator("[data-action=way]").all():
            assert button.is_hidden()
        give_up(page)
        opens = page.locator("#result-way-opens")
        opens.wait_for(state="visible")
        assert f"{closes.day} {closes:%B %Y}" in opens.text_content()
        assert page.locator("#result-way").is_hidden()
        page.screenshot(path=artifacts / f"daily-result-{name}-way-opens.png")
        the_run().delete()


def test_the_day_it_opens_is_in_nepali(open_board, live_server, artifacts):
    page = open_board("small", viewport=PHONE, query="")
    page.context.add_cookies(
        [{"name": "django_language", "value": "ne", "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/play/small/{daily_query()}")
    wait_settled(page)
    give_up(page)
    opens = page.locator("#result-way-opens")
    opens.wait_for(state="visible")
    text = opens.text_content()
    assert str(days.closes(days.today()).year) not in text and "२०" in text
    page.screenshot(path=artifacts / "daily-result-phone-nepali.png")


def test_a_clear_quicker_than_the_hard_bot_waits_for_review(open_board, artifacts):
    for viewport, name in SIZES:
        page = open_board("small", viewport=viewport, query=daily_query())
        run = the_run()
        for a, b in run.witness:
            # A person's pace (over the 250 ms floor), far quicker than the
            # hard bot's 1,200 ms a pair.
            page.wait_for_timeout(320)
            take(page, a, b)
        page.locator("#result").wait_for(state="visible")
        note = page.locator("#result-note")
        page.wait_for_function(
            "() => /reviewed/.test(document.querySelector('#result-note').textContent)"
        )
        assert "leaderboard once an admin has reviewed it" in note.text_content()
        page.screenshot(path=artifacts / f"daily-result-{name}-review.png")
        run.refresh_from_db()
        assert (run.status, run.review, run.too_fast) == ("won", "waiting", False)
        run.delete()
