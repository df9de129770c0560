"""daphne serves the collected static files as production needs them: under
hashed names cached for a year, compressed once at collectstatic, with the
security headers of every other reply, and a bad path is a plain 404."""

import gzip
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

import brotli
import pytest
from asgiref.testing import ApplicationCommunicator
from django.conf import settings
from django.templatetags.static import static

from config.asgi import application
from sitewide.js_catalog import catalog_script
from tests.services import ROOT, free_port

FOREVER = b"max-age=31536000, public, immutable"
HASHED = re.compile(r"\.[0-9a-f]{12}\.js$")
# The board page's bundle (three.js and the page's modules), built by make.
BUNDLE = "dist/game.js"


async def fetch(path: str, *headers: tuple[bytes, bytes]) -> dict:
    """GET through the whole ASGI application, as daphne calls it. (Channels'
    HttpCommunicator expects a body in every message; a streamed file ends
    with a message that has none.)"""
    raw_path, _, query = path.partition("?")
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "path": urllib.request.unquote(raw_path),
        "raw_path": raw_path.encode(),
        "query_string": query.encode(),
        "headers": [(b"host", b"127.0.0.1"), *headers],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    app = ApplicationCommunicator(application, scope)
    await app.send_input({"type": "http.request", "body": b""})
    start = await app.receive_output(5)
    body = b""
    while True:
        message = await app.receive_output(5)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    headers = {name.lower(): value for name, value in start["headers"]}
    return {"status": start["status"], "headers": headers, "body": body}


def page_scripts(html: str) -> list[str]:
    return re.findall(r'<script[^>]* src="([^"]+)"', html)


@pytest.mark.django_db
def test_the_board_page_loads_one_bundle_under_its_hashed_name(client):
    page = client.get("/play/small/")
    scripts = page_scripts(page.content.decode())
    # The service worker's registration (sitewide/install.py, on every
    # page) and the JavaScript catalogue of the page's language come first.
    assert scripts == [
        static("js/install.js"),
        static("dist/i18n/en.js"),
        static(BUNDLE),
    ]
    assert all(HASHED.search(script) for script in scripts)


@pytest.mark.django_db
async def test_the_javascript_strings_are_a_static_file_per_language(async_client):
    """No request to Django's catalogue view on each page: a file per
    language under a hashed name, cached for a year, and what the view
    itself would answer for that language now (not a stale copy)."""
    async_client.cookies["django_language"] = "ne"
    page = await async_client.get("/")
    (catalogue,) = [s for s in page_scripts(page.content.decode()) if "i18n" in s]
    assert catalogue == static("dist/i18n/ne.js") and HASHED.search(catalogue)
    reply = await fetch(catalogue)
    assert reply["status"] == 200
    assert reply["headers"][b"cache-control"] == FOREVER
    assert reply["headers"][b"content-type"].startswith(b"text/javascript")
    assert reply["body"] == catalog_script("ne")
    # Nepali's digits, as the page's scripts read them (static/js/i18n.js).
    assert "०१२३४५६७८९".encode("unicode_escape").lower() in reply["body"].lower()
    english = await fetch(static("dist/i18n/en.js"))
    assert english["body"] == catalog_script("en") != reply["body"]
    assert (await async_client.get("/i18n/js/")).status_code == 404


async def test_the_bundle_is_cached_for_a_year():
    reply = await fetch(static(BUNDLE))
    assert reply["status"] == 200
    assert reply["headers"][b"cache-control"] == FOREVER
    assert b"WebGL" in reply["body"]


async def test_brotli_then_gzip_then_plain_each_made_once_at_collectstatic():
    url = static(BUNDLE)
    on_disk = settings.STATIC_ROOT / url.removeprefix("/static/")
    plain = await fetch(url)
    packed_br = await fetch(url, (b"accept-encoding", b"gzip, deflate, br"))
    packed_gz = await fetch(url, (b"accept-encoding", b"gzip"))
    assert b"content-encoding" not in plain["headers"]
    assert packed_br["headers"][b"content-encoding"] == b"br"
    assert packed_gz["headers"][b"content-encoding"] == b"gzip"
    assert brotli.decompress(packed_br["body"]) == plain["body"]
    assert gzip.decompress(packed_gz["body"]) == plain["body"]
    assert len(packed_br["body"]) < len(plain["body"]) / 4
    # The bytes sent are the files written at collectstatic, not a
    # compression run on this request.
    assert packed_br["body"] == on_disk.with_name(on_disk.name + ".br").read_bytes()
    assert packed_gz["body"] == on_disk.with_name(on_disk.name + ".gz").read_bytes()


async def test_static_replies_carry_the_security_headers():
    reply = await fetch(static("css/site.css"))
    assert reply["status"] == 200
    assert reply["headers"][b"x-content-type-options"] == b"nosniff"
    assert b"referrer-policy" in reply["headers"]
    assert b"cross-origin-opener-policy" in reply["headers"]


async def test_a_bad_or_unknown_static_path_is_a_404():
    for path in (
        "/static/..%2f..%2fconfig/settings.py",
        "/static/%2e%2e/%2e%2e/manage.py",
        "/static/js/board/no-such-module.js",
    ):
        reply = await fetch(path)
        assert reply["status"] == 404, path
        assert b"settings" not in reply["body"] and b"Traceback" not in reply["body"]


async def test_the_site_icon_is_served_and_the_old_address_leads_to_it():
    icon_url = static("favicon.svg")
    icon = await fetch(icon_url)
    assert icon["status"] == 200
    assert icon["body"].startswith(b"<svg")
    # Pages outside the site's own template (the admin) are asked for it at
    # /favicon.ico by browsers: that must not be a 404.
    old = await fetch("/favicon.ico")
    assert old["status"] in (301, 302)
    assert old["headers"][b"location"] == icon_url.encode()


@pytest.mark.parametrize("debug", ["0", "1"])
def test_embedded_mode_serves_the_files_and_404s_a_bad_path(debug: str):
    """Nothing set in the environment but DEBUG: daphne serves the collected
    files with DEBUG off (no development handler behind it), the sources
    with DEBUG on; a missing or escaping path is a 404 either way."""
    env = {"PATH": "/usr/bin:/bin", "DEBUG": debug, "PYTHONUNBUFFERED": "1"}
    port = free_port()
    daphne = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
        + ["config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        if debug == "0":
            reply = wait_for(base + static(BUNDLE))
            assert reply.headers["Cache-Control"] == FOREVER.decode()
        else:
            source = wait_for(f"{base}/static/js/board/game.js").read()
            assert b"new Game(root)" in source
        for bad in ("/static/js/nope.js", "/static/..%2f..%2fmanage.py"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(base + bad)
            assert refused.value.code == 404, bad
    finally:
        daphne.terminate()
        daphne.wait(15)


def wait_for(url: str):
    deadline = time.monotonic() + 30
    while True:
        try:
            return urllib.request.urlopen(url, timeout=5)
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
