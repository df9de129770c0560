"""Outages for the services tests: a Redis server of the test's own, to
stop and start again, and a TCP proxy in front of PostgreSQL, to cut and
restore; and a device that talks HTTP to a real daphne.

A stopped redis-server and a cut proxy look to Django as the real outages
do: connections refused, and those open closed under it (PostgreSQL's
"server closed the connection unexpectedly").
"""

import contextlib
import http.cookiejar
import re
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator

import pytest
from django.db import connection

from tests.services import Daphne, current_database_url, free_port, server_env

START_S = 15


def wait_listening(port: int, what: str) -> None:
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    pytest.fail(f"{what} did not listen on {port} in {START_S} s")


class OwnRedis:
    """A redis-server on a free port, started and stopped by its PID (the
    machine's shared one on 6379 is never touched)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        args = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        args += ["--save", "", "--appendonly", "no", "--loglevel", "warning"]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL)
        wait_listening(self.port, "redis-server")

    def freeze(self, frozen: bool = True) -> None:
        """Stop the process where it is (SIGSTOP) or let it go on: a Redis
        that hangs, its connections accepted and never answered."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP if frozen else signal.SIGCONT)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.terminate()
            self.proc.wait(timeout=15)
        self.proc = None


class Proxy:
    """TCP from a free port to `target`; cut() closes the listener and every
    connection through it, restore() listens on the same port again."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self.lock = threading.Lock()
        self.sockets: set[socket.socket] = set()
        self.listener: socket.socket | None = None

    def restore(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        with self.lock:
            listener, self.listener = self.listener, None
            doomed, self.sockets = self.sockets, set()
        if listener is not None:
            listener.close()
        for s in doomed:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self.lock:
                if self.listener is not listener:
                    client.close()
                    server.close()
                    return
                self.sockets |= {client, server}
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)


@contextlib.contextmanager
def daphne_on_own_redis(**env: str) -> Iterator[tuple[OwnRedis, Daphne]]:
    """A daphne process whose Redis is one of the test's own (and `env`),
    both stopped afterwards."""
    redis = OwnRedis()
    redis.start()
    daphne = Daphne(server_env(REDIS_URL=redis.url, **env))
    try:
        daphne.wait_ready()
        yield redis, daphne
    finally:
        daphne.stop()
        redis.stop()


def database_proxy() -> Proxy:
    """A proxy to the PostgreSQL this test's database is on, listening."""
    db = connection.settings_dict
    proxy = Proxy((db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432)))
    proxy.restore()
    return proxy


def proxied_database_url(proxy: Proxy) -> str:
    """DATABASE_URL naming this test's database through `proxy`."""
    parts = urllib.parse.urlsplit(current_database_url())
    user = parts.netloc.rpartition("@")[0]
    return parts._replace(netloc=f"{user}@127.0.0.1:{proxy.port}").geturl()


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Reply:
    def __init__(self, status: int, headers, body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body
        self.text = body.decode("utf-8", "replace")


class Device:
    """A browser's HTTP side against a real daphne: its cookies, the CSRF
    token its forms carry, redirects not followed (a 302 is the answer)."""

    def __init__(self, port: int, language: str = "en") -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.jar = http.cookiejar.CookieJar()
        self.language = language
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirects()
        )

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def request(self, path: str, form: dict | None = None, **headers) -> Reply:
        data = None
        if form is not None:
            token = self.cookie("csrftoken") or ""
            data = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": token})
        request = urllib.request.Request(
            self.base + path,
            data=None if data is None else data.encode(),
            headers={
                "Accept-Language": self.language,
                "Referer": self.base + path,
                **headers,
            },
        )
        try:
            with self.opener.open(request, timeout=30) as response:
                return Reply(response.status, response.headers, response.read())
        except urllib.error.HTTPError as error:
            return Reply(error.code, error.headers, error.read())

    def get(self, path: str, **headers) -> Reply:
        return self.request(path, **headers)

    def post(self, path: str, form: dict, **headers) -> Reply:
        return self.request(path, form, **headers)

    def csrf_from(self, path: str) -> None:
        """Load a page with a form, as the browser would before sending it."""
        reply = self.get(path)
        assert reply.status == 200, (path, reply.status, reply.text[:300])
        assert re.search(r'name="csrfmiddlewaretoken"', reply.text)
