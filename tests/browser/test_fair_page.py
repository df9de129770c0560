"""The page that says how to check a daily, at phone and laptop sizes, and
the JSON it points at, fetched as any outside tool would."""

import pytest

from dailies import days
from tests.browser.chromium import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}


def test_the_fair_page_and_an_open_days_json(chromium, live_server, artifacts):
    for viewport, name in ((PHONE, "phone"), (LAPTOP, "desktop")):
        context = chromium.new_context(viewport=viewport)
        page = context.new_page()
        page.goto(f"{live_server.url}/daily/fair/")
        assert page.locator("h1").text_content() == "Check that a deal was fair"
        assert "sha256sum" in page.locator("pre").nth(1).text_content()
        page.screenshot(path=artifacts / f"fair-{name}.png", full_page=True)
        # Today's commitments, open, as a person sees them first.
        today_list = page.locator("details[open]")
        today_list.screenshot(path=artifacts / f"fair-{name}-commitments.png")
        listed = page.evaluate(
            "async (url) => (await fetch(url)).json()",
            f"{live_server.url}/daily/commitments.json",
        )
        shown = page.locator("details[open] code.hash").all_text_contents()
        today = str(days.today())
        assert shown == [
            c["sha256"] for c in listed["commitments"] if c["date"] == today
        ]
        # The hashes wrap: nothing is wider than the screen.
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"]
        deal = page.evaluate(
            "async (url) => (await fetch(url)).json()",
            f"{live_server.url}/daily/{days.today()}/small.json",
        )
        assert len(deal["commitment"]["sha256"]) == 64 and "solution" not in deal
        context.close()
