"""nginx in front of a daphne, with the limits and the /ws/ location of
deploy/nginx/tiles.conf as shipped, on plain HTTP on loopback: for the
tests and benches that put the proxy in the story. Started and stopped by
its own PID."""

import os
import re
import shutil
import socket
import tempfile
import time
from pathlib import Path

from tests.services import Process, free_port

SHIPPED = Path(__file__).resolve().parent.parent / "deploy/nginx/tiles.conf"
START_S = 10


def nginx_binary() -> str | None:
    found = shutil.which("nginx") or "/usr/sbin/nginx"
    return found if os.access(found, os.X_OK) else None


def shipped_setting(pattern: str) -> int:
    """A number of the shipped config, e.g. the burst of handshakes."""
    found = re.search(pattern, SHIPPED.read_text())
    assert found, pattern
    return int(found.group(1))


def shipped_ws_config(upstream: int, port: int, folder: Path) -> str:
    """The shipped limits, /ws/ location and its refusal, served on `port`
    and passing to the daphne on `upstream`."""
    text = SHIPPED.read_text()
    zones = re.findall(r"^limit_(?:conn|req)_zone .*;$", text, re.M)
    upgrade = re.search(r"^map \$http_upgrade .*?^}", text, re.M | re.S)
    location = re.search(r"^    location /ws/ \{.*?^    }", text, re.M | re.S)
    refusal = re.search(r"^    location @too_many \{.*?^    }", text, re.M | re.S)
    assert zones and upgrade and location and refusal, "tiles.conf changed shape"
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
events {{ worker_connections 4096; }}
http {{
    access_log off;
    {temp}
    {upgrade.group(0)}
    {chr(10).join(zones)}
    server {{
        listen 127.0.0.1:{port};
{ws}
{refusal.group(0)}
    }}
}}
"""


class Nginx(Process):
    """nginx on a free port in front of the daphne on `upstream`."""

    def __init__(self, binary: str, upstream: int) -> None:
        self.port = free_port()
        self.folder = tempfile.TemporaryDirectory(prefix="tiles-nginx-")
        folder = Path(self.folder.name)
        conf = folder / "nginx.conf"
        conf.write_text(shipped_ws_config(upstream, self.port, folder))
        args = [binary, "-c", str(conf), "-p", str(folder)]
        super().__init__([*args, "-e", str(folder / "error.log")], {}, "nginx")

    def wait_ready(self) -> None:
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.5).close()
                return
            except OSError:
                time.sleep(0.05)
        log = Path(self.folder.name) / "error.log"
        errors = log.read_text() if log.exists() else ""
        raise RuntimeError(f"nginx did not start: {errors}\n{self.log()}")

    def stop(self) -> None:
        super().stop()
        self.folder.cleanup()
