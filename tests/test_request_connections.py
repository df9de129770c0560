"""A daphne's requests leave no database connection open behind them
(sitewide/request_connections.py). Under ASGI each request runs on a
thread of its own; a connection kept for reuse stayed open until the
garbage collector found it, and enough requests (health probes every few
seconds) ran a shared PostgreSQL out of connections."""

import time
import urllib.error
import urllib.request

import pytest
from django.db import connection

from tests.services import Daphne, needs_services, server_env

# The daphne's connections are told apart by their application_name
# (libpq's PGAPPNAME).
APP = "request-connections-test"
PAGES = ["/healthz", "/rooms/", "/daily/", "/levels/"]


def open_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
            [APP],
        )
        return cursor.fetchone()[0]


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:  # /healthz: 503 with no timer
        return error.code


@pytest.mark.django_db(transaction=True)
def test_forty_requests_leave_no_connection_open():
    needs_services("a daphne's connections")
    daphne = Daphne(server_env(PGAPPNAME=APP))
    try:
        daphne.wait_ready()
        base = f"http://127.0.0.1:{daphne.port}"
        answers = {status(base + page) for page in PAGES * 10}
        assert answers <= {200, 503}, answers
        # The last request's connection closes as its response ends, just
        # after the client has read it.
        deadline = time.monotonic() + 5
        while (held := open_connections()) > 0 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert held == 0, f"{held} connections left open by 40 requests"
    finally:
        daphne.stop()
