"""A live server that speaks websockets, for the room browser tests.

pytest-django's live_server is WSGI only. This forks daphne from the test
process (as channels' ChannelsLiveServerTestCase does), so it serves the
test database whatever its engine, with committed data: use it with
`transactional_db`. The browser conftest offers these fixtures to every module.
"""

from concurrent.futures import ThreadPoolExecutor
from functools import partial

import pytest
from channels.testing.live import make_application
from daphne.testing import DaphneProcess
from django.db import connection

from tests.browser.chromium import DESKTOP

START_S = 30


class FreshDaphne(DaphneProcess):
    def run(self) -> None:
        # The fork inherits asgiref's single worker thread from the parent,
        # dead in the child: a sync call would wait on it forever.
        from asgiref.sync import SyncToAsync

        SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
        super().run()


def use_database(name: str) -> None:
    """In the child: the test database by its actual name (channels' own
    helper would prefix "test_" once more on PostgreSQL)."""
    from django.conf import settings
    from django.db import connections

    settings.DATABASES["default"]["NAME"] = name
    connections["default"].settings_dict["NAME"] = name


@pytest.fixture
def rooms_server(transactional_db):
    """The base URL of a daphne serving the whole site, websockets included."""
    process = FreshDaphne(
        host="127.0.0.1",
        # The site's own application: it serves the collected static files
        # under their hashed names (sitewide.static), as production does.
        get_application=partial(make_application, static_wrapper=None),
        setup=partial(use_database, connection.settings_dict["NAME"]),
    )
    process.start()
    if not process.ready.wait(START_S):
        process.terminate()
        pytest.fail(f"daphne did not start in {START_S} s")
    yield f"http://127.0.0.1:{process.port.value}"
    process.terminate()
    process.join(10)


@pytest.fixture
def open_page(chromium):
    """Opens a page in its own browser context (its own cookies: its own
    player); any script error on any of them fails the test."""
    opened = []

    def open_page(url: str, viewport=DESKTOP):
        context = chromium.new_context(viewport=viewport, bypass_csp=True)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        opened.append((context, errors))
        page.goto(url)
        return page

    yield open_page
    for context, errors in opened:
        context.close()
        assert errors == [], f"script errors on the page: {errors}"
