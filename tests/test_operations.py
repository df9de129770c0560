"""What an operator relies on: /healthz, one structured log line per
request, and error replies in the site's style (JSON under the API)."""

import re
import urllib.error
import urllib.request

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import include, path

from accounts.models import Player
from config import urls as config_urls
from tests.services import Daphne, needs_services, server_env
from tests.test_health import all_beating

pytestmark = pytest.mark.django_db


def boom(request) -> HttpResponse:
    raise RuntimeError("a bug")


# The real site plus two views that fail, one of them under the API; Django
# takes the error handlers from the URLconf module.
handler500 = config_urls.handler500
urlpatterns = [
    path("play/api/boom", boom),
    path("boom", boom),
    path("", include("config.urls")),
]
with_bugs = override_settings(ROOT_URLCONF=__name__)


def test_healthz_answers_each_round_trip_without_a_session_or_a_guest():
    players = Player.objects.count()
    all_beating()  # the timer, worker and beat (tests/test_health.py)
    reply = Client().get("/healthz")
    assert reply.status_code == 200
    body = reply.json()
    assert body["status"] == "ok"
    expected = {"database", "channel_layer"} | (
        {"redis"} if settings.REDIS_URL else set()
    )
    assert set(body["checks"]) == expected
    assert all(check["ok"] and check["ms"] >= 0 for check in body["checks"].values())
    assert "Set-Cookie" not in reply.headers and not reply.cookies
    assert "no-cache" in reply["Cache-Control"]
    assert Player.objects.count() == players


def test_healthz_is_503_naming_what_failed(settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    reply = Client().get("/healthz")
    assert reply.status_code == 503
    body = reply.json()
    assert body["status"] == "failing"
    assert body["checks"]["redis"]["ok"] is False
    assert "Error" in body["checks"]["redis"]["error"]
    assert body["checks"]["database"]["ok"] is True


def test_an_unknown_page_is_a_404_in_the_site_style():
    reply = Client().get("/no/such/page")
    assert reply.status_code == 404
    html = reply.content.decode()
    assert 'class="site-header"' in html and "Not found" in html


def test_the_api_answers_json_for_an_unknown_address_and_a_refused_token():
    unknown = Client().get("/play/api/nope")
    assert unknown.status_code == 404
    assert unknown.json()["error"] == "not_found"
    refused = Client(enforce_csrf_checks=True).post(
        "/play/api/runs", "{}", content_type="application/json"
    )
    assert refused.status_code == 403
    assert refused.json()["error"] == "forbidden"
    assert "CSRF" in refused.json()["message"]


@with_bugs
def test_a_bug_is_a_500_page_in_the_site_style_and_json_under_the_api():
    client = Client(raise_request_exception=False)
    page = client.get("/boom")
    assert page.status_code == 500
    assert 'class="site-header"' in page.content.decode()
    assert "a bug" not in page.content.decode()
    api = client.get("/play/api/boom")
    assert api.status_code == 500
    assert api["Content-Type"] == "application/json"
    assert api.json()["error"] == "server_error"


LINE = re.compile(
    r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (?P<level>[A-Z]+) (?P<logger>\S+) "
    r"\[(?P<id>[^\]]+)\] (?P<message>.*)$"
)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_each_request_is_one_line_with_time_level_logger_and_request_id():
    needs_services("a daphne process")
    daphne = Daphne(server_env(), "daphne")
    try:
        daphne.wait_ready()
        base = f"http://127.0.0.1:{daphne.port}"
        urllib.request.urlopen(f"{base}/").read()
        asked = urllib.request.Request(
            f"{base}/missing-page", headers={"X-Request-ID": "proxy-id-12345678"}
        )
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(asked)
        assert missing.value.headers["X-Request-ID"] == "proxy-id-12345678"
        forged = urllib.request.Request(f"{base}/", headers={"X-Request-ID": "x y"})
        own_id = urllib.request.urlopen(forged).headers["X-Request-ID"]
        assert re.fullmatch(r"[0-9a-f]{32}", own_id)
        daphne.stop()
        lines = [LINE.match(line.rstrip("\n")) for line in daphne.lines]
        assert all(lines), daphne.log()
        about_missing = [m for m in lines if "/missing-page" in m["message"]]
        assert len(about_missing) == 1, daphne.log()
        (line,) = about_missing
        assert (line["level"], line["logger"], line["id"]) == (
            "WARNING",
            "tiles.request",
            "proxy-id-12345678",
        )
        assert line["message"].startswith("GET /missing-page 404 ")
        assert any(m["id"] == own_id for m in lines)
    finally:
        daphne.stop()
