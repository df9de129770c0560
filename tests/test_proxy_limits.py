"""A storm of websocket handshakes from one address is refused by the front
proxy, as deploy/nginx/tiles.conf ships it, before daphne does any work;
what gets past is still refused by the app past a seat's sockets (4409),
and everyone else plays on. A real nginx in front of a real daphne, the
client written from docs/protocol.md."""

import asyncio
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async

from rooms import limits
from tests.room_helpers import guest_cookie_value
from tests.services import Daphne, free_port, needs_services, server_env
from tests.test_two_daphne import seated_room
from tests.wsclient import Closed, Refused, WebSocket

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

SHIPPED = Path(__file__).resolve().parent.parent / "deploy/nginx/tiles.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
START_S = 10

cookie_of = sync_to_async(guest_cookie_value)


def shipped_ws_config(upstream: int, port: int, folder: Path) -> str:
    """The shipped limits and /ws/ location, served on `port` from plain
    HTTP on loopback and passing to the daphne on `upstream`."""
    text = SHIPPED.read_text()
    zones = re.findall(r"^limit_(?:conn|req)_zone .*;$", text, re.M)
    upgrade = re.search(r"^map \$http_upgrade .*?^}", text, re.M | re.S)
    location = re.search(r"^    location /ws/ \{.*?^    }", text, re.M | re.S)
    assert zones and upgrade and location, "deploy/nginx/tiles.conf changed shape"
    ws = location.group(0).replace("http://tiles", f"http://127.0.0.1:{upstream}")
    # The page's origin names this test's port; production's has none.
    ws = ws.replace("Host $host;", "Host $http_host;")
    temp = " ".join(
        f"{kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""
daemon off;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    {temp}
    {upgrade.group(0)}
    {chr(10).join(zones)}
    server {{
        listen 127.0.0.1:{port};
{ws}
    }}
}}
"""


def setting(pattern: str) -> int:
    """A number of the shipped config (the burst of handshakes)."""
    found = re.search(pattern, SHIPPED.read_text())
    assert found, pattern
    return int(found.group(1))


@pytest.fixture
def proxied() -> Iterator[int]:
    """A daphne as production runs it (--proxy-headers), behind nginx with
    the shipped limits: the port of nginx."""
    needs_services("a daphne process")
    if not Path(NGINX).exists():
        reason = "nginx is not installed (apt-get install nginx-light)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    daphne = Daphne(server_env(), options=("--proxy-headers",))
    daphne.wait_ready()
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="tiles-nginx-") as folder:
        conf = Path(folder) / "nginx.conf"
        conf.write_text(shipped_ws_config(daphne.port, port, Path(folder)))
        nginx = subprocess.Popen(
            [NGINX, "-c", str(conf), "-p", folder, "-e", f"{folder}/error.log"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            _wait_for(port, nginx, Path(folder) / "error.log")
            yield port
        finally:
            nginx.terminate()
            nginx.wait(timeout=10)
            daphne.stop()


def _wait_for(port: int, nginx: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        if nginx.poll() is not None:
            break
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    errors = log.read_text() if log.exists() else ""
    pytest.fail(f"nginx did not start: {errors}")


async def first_message(ws: WebSocket) -> str:
    """hello, or the reason a socket is refused past the proxy."""
    message = await ws.recv_json()
    if message["type"] == "error":
        with pytest.raises(Closed) as closed:
            await ws.recv_json()
        assert closed.value.code == 4409
        return message["code"]
    return message["type"]


async def test_a_storm_from_one_address_is_refused_by_the_proxy(proxied):
    room, ann, bob = await sync_to_async(seated_room)()
    ann_cookie, bob_cookie = await cookie_of(ann), await cookie_of(bob)
    storm = await asyncio.gather(
        *(
            WebSocket.room(proxied, room.code, ann_cookie, source="127.0.0.7")
            for _ in range(60)
        ),
        return_exceptions=True,
    )
    opened = [ws for ws in storm if isinstance(ws, WebSocket)]
    refused = [e for e in storm if not isinstance(e, WebSocket)]
    # The proxy lets a burst through (and a handshake more should its rate
    # tick over meanwhile); the rest never reach daphne.
    burst = setting(r"zone=handshakes_per_address burst=(\d+)")
    assert burst + 1 <= len(opened) <= burst + 2
    assert all(isinstance(e, Refused) and " 429 " in e.status for e in refused)
    # Past the proxy, the app still holds a seat to its sockets: the rest
    # are told why and closed.
    firsts = sorted(await asyncio.gather(*(first_message(ws) for ws in opened)))
    extra = len(opened) - limits.SOCKETS_PER_SEAT
    assert (
        firsts == ["hello"] * limits.SOCKETS_PER_SEAT + ["too_many_connections"] * extra
    )
    # Bob, from his own address, is let in at once.
    bob_ws = await WebSocket.room(proxied, room.code, bob_cookie, source="127.0.0.8")
    assert (await bob_ws.recv_json())["type"] == "hello"
    for ws in [*opened, bob_ws]:
        await ws.close()
