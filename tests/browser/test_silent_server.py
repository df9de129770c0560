"""A server that goes silent (its host's network cut: no close frame, no
reset, and a proxy in front keeps the socket open) is noticed by the real
room page: "reconnecting…" 10 s after the server's last word, then a new
socket; after a network change, within the probe's 3 s. The socket is
routed through Playwright, which stops passing the server's frames on."""

import time

import pytest

from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.browser

# static/js/rooms/connection.js: pings every 5 s; 10 s after the last word.
NOTICED_S = 13
PROBE_S = 4


class Sockets:
    """Every room socket the page opens, each passed through until cut."""

    def __init__(self, page) -> None:
        self.opened: list[dict] = []
        page.route_web_socket("**/ws/rooms/**", self.route)

    def route(self, ws) -> None:
        link = {"url": ws.url, "cut": False}
        server = ws.connect_to_server()
        ws.on_message(lambda m: None if link["cut"] else server.send(m))
        server.on_message(lambda m: None if link["cut"] else ws.send(m))
        self.opened.append(link)

    def cut(self) -> None:
        self.opened[-1]["cut"] = True


def status(page, value: str, within_s: float) -> float:
    started = time.monotonic()
    page.wait_for_function(
        f"document.querySelector('#room')?.dataset.conn === '{value}'",
        timeout=within_s * 1000,
    )
    return time.monotonic() - started


def hosted_room(open_page, server: str, viewport):
    """Ann hosts a room; its page, with its sockets routed."""
    page = open_page(f"{server}/rooms/", viewport)
    sockets = Sockets(page)
    page.fill("#host-form input[name=name]", "Ann")
    page.click("#host-form button[type=submit]")
    status(page, "online", 15)
    return page, sockets


def test_the_page_leaves_a_silent_server_and_comes_back(open_page, rooms_server):
    page, sockets = hosted_room(open_page, rooms_server, DESKTOP)
    assert len(sockets.opened) == 1 and "since" not in sockets.opened[0]["url"]

    sockets.cut()
    took = status(page, "offline", NOTICED_S)  # "reconnecting…"
    status(page, "online", 15)
    assert len(sockets.opened) == 2, "a new socket"
    print(f"\nsilent server noticed after {took:.1f} s (10 s after its last word)")


def test_a_network_change_finds_a_dead_socket_within_seconds(open_page, rooms_server):
    page, sockets = hosted_room(open_page, rooms_server, PHONE)
    sockets.cut()
    page.evaluate("window.dispatchEvent(new Event('online'))")
    took = status(page, "offline", PROBE_S)
    status(page, "online", 15)
    assert len(sockets.opened) == 2
    print(f"\nafter a network change: noticed in {took:.1f} s")
