"""Browser tests: Debian's chromium driven by Playwright's sync API.

Run them as their own pytest invocation (Playwright's sync API and
pytest-asyncio cannot share a process):

    .venv/bin/python -m pytest -m browser -p no:asyncio

WebGL runs in software (SwiftShader). Without /usr/bin/chromium the tests are
skipped with the reason, except under CI=true, where that is a failure.
"""

import os
import shutil
from pathlib import Path

import pytest

from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE  # noqa: F401

# The room tests' fixtures, offered to every browser test module.
from tests.browser.conftest_rooms import open_page, rooms_server  # noqa: F401
from tests.browser.helpers import wait_settled
from tests.browser.screens import pages  # noqa: F401

# Playwright's sync API runs an event loop in this thread; the ORM calls the
# tests make between page actions are still plain synchronous calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


@pytest.fixture(scope="session")
def django_db_modify_db_settings(tmp_path_factory):
    """Give the browser run its own SQLite file, apart from other test runs."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        db.setdefault("TEST", {})["NAME"] = str(
            tmp_path_factory.mktemp("browser-db") / "browser.sqlite3"
        )


@pytest.fixture(scope="session")
def chromium():
    if not CHROMIUM.exists() or not shutil.which(str(CHROMIUM)):
        reason = f"{CHROMIUM} is missing: apt-get install -y chromium"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def open_board(chromium, live_server):
    """Open a board page in a fresh browser context; fail on any script error."""
    opened = []

    def open_board(
        slug: str = "small",
        viewport: dict = PHONE,
        query: str = "",
        touch: bool = False,
    ):
        """`touch`: a touch screen on a mobile browser, as a phone is."""
        context = chromium.new_context(
            bypass_csp=True,
            viewport=viewport,
            device_scale_factor=2 if viewport == PHONE else 1,
            has_touch=touch,
            is_mobile=touch,
        )
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        opened.append((context, errors))
        page.goto(f"{live_server.url}/play/{slug}/{query}")
        wait_settled(page)
        return page

    yield open_board
    for context, errors in opened:
        context.close()
        assert errors == [], f"script errors on the page: {errors}"
