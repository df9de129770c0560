"""Real servers for the services tests: daphne and management commands run
as their own processes against the test database and Redis.

Each process gets DATABASE_URL naming the database the test runs in (the
settings read everything from the environment), plain HTTP on loopback, and
is stopped by its own PID.
"""

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent
START_S = 30


def needs_services(what: str) -> None:
    """Skip unless PostgreSQL and Redis are configured; under CI=true a
    missing service is a failure instead."""
    missing = []
    if not os.environ.get("REDIS_URL"):
        missing.append("REDIS_URL")
    if connection.vendor != "postgresql":
        missing.append("DATABASE_URL (PostgreSQL)")
    if missing:
        reason = f"{what} needs {' and '.join(missing)}"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}; CI must provide them")
        pytest.skip(reason)


def terminate_backend(pid: int) -> None:
    """End backend `pid` from another connection, as a restart would."""

    def end() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        finally:
            connection.close()

    thread = threading.Thread(target=end)
    thread.start()
    thread.join()


def current_database_url() -> str:
    """DATABASE_URL naming the database this test runs in."""
    db = connection.settings_dict
    auth = quote(db["USER"] or "")
    if db["PASSWORD"]:
        auth += ":" + quote(db["PASSWORD"])
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}{port}/{db['NAME']}"


def server_env(**extra: str) -> dict[str, str]:
    env = {
        **os.environ,
        "DATABASE_URL": current_database_url(),
        "TILES_HTTPS": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "PYTHONUNBUFFERED": "1",
        **extra,
    }
    env.setdefault(
        "SECRET_KEY", "services-test-key-used-by-no-deployment-4f9a2c7e1b8d3f6a"
    )
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Process:
    """A child process whose output is kept for the failure message."""

    def __init__(
        self, args: list[str], env: dict[str, str], name: str, cwd: Path = ROOT
    ) -> None:
        self.name = name
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            args,
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line)

    def log(self) -> str:
        return f"--- {self.name} ---\n" + "".join(self.lines[-40:])

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Daphne(Process):
    def __init__(
        self, env: dict[str, str], name: str = "daphne", options: Sequence[str] = ()
    ) -> None:
        self.port = free_port()
        args = [sys.executable, "-m", "sitewide.serve", "-b", "127.0.0.1"]
        args += ["-p", str(self.port), "--verbosity", "0", *options]
        args += ["config.asgi:application"]
        super().__init__(args, env, f"{name} :{self.port}")

    def wait_ready(self) -> None:
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.5).close()
                return
            except OSError:
                time.sleep(0.1)
        pytest.fail(f"{self.name} did not start in {START_S} s\n{self.log()}")


def manage(command: list[str], env: dict[str, str]) -> Process:
    """A long-running management command, e.g. ["run_timers"]."""
    return Process([sys.executable, "manage.py", *command], env, command[0])
