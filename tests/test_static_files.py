"""daphne serves the static files itself, gzipped for browsers that accept it."""

import gzip

from asgiref.testing import ApplicationCommunicator

from config.asgi import application

# The board page's bundle (three.js and the page's modules), built by make.
BUNDLE = "/static/dist/game.js"


async def fetch(path: str, *headers: tuple[bytes, bytes]) -> dict:
    """GET through the whole ASGI application, as daphne calls it. (Channels'
    HttpCommunicator expects a body in every message; a streamed file ends
    with a message that has none.)"""
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "path": path,
        "query_string": b"",
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


async def test_the_bundle_goes_out_gzipped_to_a_browser_that_accepts_it():
    plain = await fetch(BUNDLE)
    packed = await fetch(BUNDLE, (b"accept-encoding", b"gzip, br"))
    assert plain["status"] == packed["status"] == 200
    assert packed["headers"][b"content-encoding"] == b"gzip"
    assert gzip.decompress(packed["body"]) == plain["body"]
    assert len(packed["body"]) < len(plain["body"]) / 3


async def test_a_client_without_gzip_gets_the_plain_file():
    plain = await fetch("/static/js/board/rules.js")
    assert plain["status"] == 200
    assert b"content-encoding" not in plain["headers"]
    assert b"free" in plain["body"]


async def test_the_site_icon_is_served_and_the_old_address_leads_to_it():
    icon = await fetch("/static/favicon.svg")
    assert icon["status"] == 200
    assert icon["body"].startswith(b"<svg")
    # Pages outside the site's own template (the admin) are asked for it at
    # /favicon.ico by browsers: that must not be a 404.
    old = await fetch("/favicon.ico")
    assert old["status"] in (301, 302)
    assert old["headers"][b"location"] == b"/static/favicon.svg"
