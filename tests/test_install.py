"""Installing the site to a phone's home screen (issue 28, point 6): the
pages link a web app manifest that names our own icons, and the service
worker is answered at the site root as JavaScript that is never cached for
long (a worker update must reach the browser on its next check)."""

import json
import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


def linked(page: str, rel: str) -> str:
    found = re.search(rf'<link rel="{rel}" href="([^"]+)"', page)
    assert found, f"no {rel} link"
    return found[1]


def test_the_pages_link_the_manifest_and_its_colour():
    page = Client().get("/").content.decode()
    assert linked(page, "manifest") == "/manifest.webmanifest"
    assert '<meta name="theme-color" content="#1d2b24">' in page
    assert re.search(
        r'src="/static/js/install\.[0-9a-f]{12}\.js" data-worker="/sw\.js"', page
    )


def test_the_manifest_installs_a_standalone_app_with_our_icons():
    response = Client().get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    assert "no-cache" in response["Cache-Control"]
    manifest = json.loads(response.content)
    assert manifest["name"] == manifest["short_name"] == "Tiles"
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    # The site's own background (static/css/site.css --bg).
    css = Path(finders.find("css/site.css")).read_text()
    assert f"--bg: {manifest['background_color']};" in css
    assert manifest["theme_color"] == manifest["background_color"]
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512", "any"} <= sizes
    for icon in manifest["icons"]:
        # Served under their hashed names, from this site.
        assert Client().get(icon["src"]).status_code == 200, icon


def test_the_manifest_speaks_the_visitors_language():
    client = Client(headers={"accept-language": "ne"})
    manifest = json.loads(client.get("/manifest.webmanifest").content)
    assert manifest["lang"] == "ne"
    assert manifest["name"] != "Tiles" and manifest["description"].isascii() is False


def test_the_worker_is_served_from_the_root_as_uncached_javascript():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert "no-cache" in response["Cache-Control"]
    assert b'addEventListener("fetch"' in response.content
    # Nothing but reading: a worker is never posted to.
    assert Client().post("/sw.js").status_code == 405


def test_the_policy_allows_the_manifest_and_the_worker():
    policy = Client().get("/")["Content-Security-Policy"]
    assert "manifest-src 'self'" in policy
    assert "worker-src 'self'" in policy
