"""One real Celery worker against Redis makes the daily deals.

The worker runs as its own process (`celery -A config worker --pool solo`),
listening on a queue of this test's own so no other worker takes the task,
and is pointed at the test database by DATABASE_URL (the settings read the
database name from it, so nothing else is needed). The test enqueues the
daily task twice and waits for the rows: made once, verified, unchanged.
"""

import os
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

from dailies.models import DailyDeal
from dailies.tasks import prepare_dailies
from games.layouts import playable_layouts

ROOT = Path(__file__).resolve().parent.parent
WAIT_S = 120


def _needs_services() -> None:
    missing = []
    if not os.environ.get("REDIS_URL"):
        missing.append("REDIS_URL")
    if connection.vendor != "postgresql":
        missing.append("DATABASE_URL (PostgreSQL)")
    if missing:
        reason = f"a real worker needs {' and '.join(missing)}"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}; CI must provide them")
        pytest.skip(reason)


def _test_database_url() -> str:
    """DATABASE_URL naming the database this test runs in."""
    db = connection.settings_dict
    auth = quote(db["USER"] or "")
    if db["PASSWORD"]:
        auth += ":" + quote(db["PASSWORD"])
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}{port}/{db['NAME']}"


class Worker:
    def __init__(self, queue: str) -> None:
        env = {**os.environ, "DATABASE_URL": _test_database_url()}
        env.setdefault("SECRET_KEY", "celery-worker-test")
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker"]
            + ["--pool", "solo", "--queues", queue, "--loglevel", "INFO"]
            + ["--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line)

    def succeeded(self) -> int:
        return sum("prepare_dailies" in ln and "succeeded" in ln for ln in self.lines)

    def wait_for(self, done, what: str) -> None:
        deadline = time.monotonic() + WAIT_S
        while not done():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                log = "".join(self.lines[-40:])
                pytest.fail(f"worker did not {what} in {WAIT_S} s:\n{log}")
            time.sleep(0.2)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_worker_makes_todays_dailies_once():
    _needs_services()
    queue = f"tiles-test-{uuid.uuid4().hex[:10]}"
    layouts = {lay.slug for lay in playable_layouts()}
    worker = Worker(queue)
    try:
        prepare_dailies.apply_async(kwargs={"days_ahead": 0}, queue=queue)
        worker.wait_for(lambda: worker.succeeded() >= 1, "run the daily task")
        rows = DailyDeal.objects.all()
        assert {r.layout_slug for r in rows} == layouts
        assert all(r.verified for r in rows)
        faces = {r.layout_slug: r.faces for r in rows}
        # Enqueued again (as beat does every hour): nothing new, nothing changed.
        prepare_dailies.apply_async(kwargs={"days_ahead": 0}, queue=queue)
        worker.wait_for(lambda: worker.succeeded() >= 2, "run the task again")
        assert {r.layout_slug: r.faces for r in DailyDeal.objects.all()} == faces
        assert "'made': 0" in "".join(worker.lines)
    finally:
        worker.stop()
