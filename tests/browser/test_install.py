"""Installing to a home screen (issue 28, point 6), in chromium under the
site's Content-Security-Policy: the page registers the service worker, links
a manifest that chromium parses without complaint, and after one visit the
hashed static files come from the worker's cache, and nothing else does."""

import re

import pytest

from tests.browser.chromium import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 20_000
HASHED_STATIC = re.compile(r"^/static/.+\.[0-9a-f]{12}\.[^/.]+$")

# Functions, not expressions: Playwright evals expressions, which the
# policy (rightly) refuses.
# evaluate() has no timeout of its own: `ready` never settles without a
# worker, so the wait gives up by itself.
READY = f"""async () => {{
  const late = new Promise((_, fail) =>
    setTimeout(() => fail(new Error("no worker")), {WAIT_MS}));
  const registration = await Promise.race([navigator.serviceWorker.ready, late]);
  return registration.active.scriptURL;
}}"""
CACHED = """async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) urls.push(request.url);
  }
  return urls;
}"""
STYLESHEET_CACHED = """async () => {
  const href = document.querySelector('link[rel=stylesheet]').href;
  const hit = await caches.match(href);
  return hit ? [href, (await hit.text()).length] : null;
}"""


def test_the_page_installs_its_worker_and_manifest(chromium, live_server):
    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    # What the policy refuses, and the worker's registration failing
    # (static/js/install.js warns).
    watched = ("Content Security Policy", "service worker", "Manifest")
    page.on(
        "console",
        lambda m: problems.append(m.text) if any(w in m.text for w in watched) else 0,
    )
    page.goto(f"{live_server.url}/")
    page.set_default_timeout(WAIT_MS)
    worker = page.evaluate(READY)
    assert worker.startswith(f"{live_server.url}/sw.js?"), worker

    # The manifest as chromium reads it for installing.
    cdp = context.new_cdp_session(page)
    app = cdp.send("Page.getAppManifest")
    assert app["url"] == f"{live_server.url}/manifest.webmanifest"
    assert app["errors"] == [], app["errors"]
    assert '"display": "standalone"' in app["data"]

    # The first visit came before the worker: the second fills its cache,
    # the third is answered from it.
    page.reload()
    page.evaluate(READY)
    stylesheet = page.evaluate(STYLESHEET_CACHED)
    assert stylesheet and stylesheet[1] > 100, stylesheet
    served = []
    page.on("response", lambda r: served.append((r.url, r.from_service_worker)))
    page.reload()
    page.evaluate(READY)
    assert (stylesheet[0], True) in served, served
    # Only the hashed static files are kept: never the page, the API or
    # the catalogue's unhashed address.
    cached = page.evaluate(CACHED)
    assert cached, "nothing cached"
    for url in cached:
        path = url.removeprefix(live_server.url)
        assert HASHED_STATIC.match(path), url
    # The page itself went to the network.
    assert (f"{live_server.url}/", False) in served, served
    context.close()
    assert problems == [], problems
