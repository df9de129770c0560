"""One real Celery worker against Redis makes the daily deals.

The worker runs as its own process (`celery -A config worker --pool solo`),
listening on a queue of this test's own so no other worker takes the task,
and is pointed at the test database by DATABASE_URL (the settings read the
database name from it, so nothing else is needed). The test enqueues the
daily task twice and waits for the rows: made once, verified, unchanged.
"""

import sys
import time
import uuid

import pytest

from dailies.models import DailyDeal
from dailies.tasks import prepare_dailies
from games.layouts import playable_layouts
from tests.services import Process, needs_services, server_env

WAIT_S = 120


class Worker(Process):
    def __init__(self, queue: str) -> None:
        args = [sys.executable, "-m", "celery", "-A", "config", "worker"]
        args += ["--pool", "solo", "--queues", queue, "--loglevel", "INFO"]
        args += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
        super().__init__(args, server_env(), "celery worker")

    def succeeded(self) -> int:
        return sum("prepare_dailies" in ln and "succeeded" in ln for ln in self.lines)

    def wait_for(self, done, what: str) -> None:
        deadline = time.monotonic() + WAIT_S
        while not done():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"worker did not {what} in {WAIT_S} s:\n{self.log()}")
            time.sleep(0.2)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_worker_makes_todays_dailies_once():
    needs_services("a real worker")
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
