"""/healthz tells the truth about the work done elsewhere: the heartbeats
of the rooms' timer, the Celery worker and beat (monitoring.heartbeats),
and answers a load balancer that probes by address.

The last test runs the real processes (daphne, `manage.py run_timers`,
`celery worker`, `celery beat`), stops and kills them, and starts them
again, reading /healthz as a load balancer does (Host: an IP address)."""

import http.client
import json
import signal
import sys
import time
import uuid
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from monitoring.models import Heartbeat
from tests.services import Daphne, Process, manage, needs_services, server_env

pytestmark = pytest.mark.django_db


def beat(part: str, seconds_ago: float = 0.0, process: str = "web1:100") -> None:
    at = timezone.now() - timedelta(seconds=seconds_ago)
    Heartbeat.objects.update_or_create(
        part=part, process=process, defaults={"beat_at": at}
    )


def all_beating() -> None:
    for part in ("timer", "worker", "beat"):
        beat(part, 1)


def test_fresh_heartbeats_are_200_with_their_ages(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    all_beating()
    beat("timer", 12, process="web2:200")  # a dead one beside a live one
    reply = Client().get("/healthz")
    assert reply.status_code == 200, reply.json()
    beats = reply.json()["heartbeats"]
    assert set(beats) == {"timer", "worker", "beat"}
    assert all(b["ok"] and 0.9 <= b["age_s"] < 5 for b in beats.values())
    assert 12 <= beats["timer"]["processes"]["web2:200"] < 15
    assert "failing" not in reply.json()


@pytest.mark.parametrize("part", ["timer", "worker", "beat"])
def test_a_stale_or_missing_heartbeat_is_503_naming_the_part(settings, part):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.HEARTBEAT_STALE_S = 30
    all_beating()
    beat(part, 31)
    stale = Client().get("/healthz")
    assert stale.status_code == 503
    assert stale.json()["status"] == "failing"
    assert stale.json()["failing"] == [part]
    assert "last heartbeat 3" in stale.json()["heartbeats"][part]["error"]
    Heartbeat.objects.filter(part=part).delete()
    missing = Client().get("/healthz")
    assert missing.status_code == 503 and missing.json()["failing"] == [part]
    assert "not running" in missing.json()["heartbeats"][part]["error"]


def test_embedded_celery_is_eager_and_only_the_timer_beats(settings):
    """No REDIS_URL: tasks run in the web process and beat is not run; the
    timer is its own process (scripts/serve.py) and must beat."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.REDIS_URL = ""
    beat("timer", 1)
    reply = Client().get("/healthz")
    assert reply.status_code == 200, reply.json()
    assert reply.json()["heartbeats"]["worker"] == {"ok": True, "eager": True}
    assert "beat" not in reply.json()["heartbeats"]
    Heartbeat.objects.all().delete()
    assert Client().get("/healthz").json()["failing"] == ["timer"]


def test_healthz_answers_a_probe_by_address_and_no_other_page_does(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.ALLOWED_HOSTS = ["tiles.example"]
    all_beating()
    for host in ("10.0.0.5", "10.0.0.5:8001", "[fd00::5]:8001"):
        assert Client().get("/healthz", HTTP_HOST=host).status_code == 200
    assert Client().get("/", HTTP_HOST="10.0.0.5").status_code == 400
    assert Client().get("/healthz/", HTTP_HOST="10.0.0.5").status_code == 400
    assert Client().get("/rooms/", HTTP_HOST="10.0.0.5").status_code == 400
    assert Client().post("/healthz", HTTP_HOST="10.0.0.5").status_code == 405


# -- The real processes ------------------------------------------------------
# Beats every second, stale after three: a killed process shows in seconds.
FAST = {"HEARTBEAT_INTERVAL_S": "1", "HEARTBEAT_STALE_S": "3"}
WAIT_S = 40


def celery_worker(queue: str, env: dict[str, str]) -> Process:
    """A real worker on a queue of the test's own (no other takes its
    tasks), started as deploy/ starts it (--quiet)."""
    args = [sys.executable, "-m", "celery", "-A", "config", "--quiet", "worker"]
    args += ["--pool", "solo", "--queues", queue]
    args += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    return Process(args, env, "celery worker")


def worker() -> Process:
    return celery_worker(f"tiles-test-{uuid.uuid4().hex[:10]}", server_env(**FAST))


def beat_process(tmp_path) -> Process:
    args = [sys.executable, "-m", "celery", "-A", "config", "beat"]
    args += ["--schedule", str(tmp_path / f"beat-{uuid.uuid4().hex[:6]}")]
    return Process(args, server_env(**FAST), "celery beat")


def probe(daphne: Daphne) -> tuple[int, dict]:
    """GET /healthz as a load balancer does: by address, no known Host."""
    conn = http.client.HTTPConnection("127.0.0.1", daphne.port, timeout=10)
    try:
        conn.request("GET", "/healthz", headers={"Host": "10.0.0.5"})
        reply = conn.getresponse()
        return reply.status, json.loads(reply.read())
    finally:
        conn.close()


def wait_for(daphne: Daphne, status: int, failing: list[str], logs) -> dict:
    deadline = time.monotonic() + WAIT_S
    while True:
        got, body = probe(daphne)
        if got == status and sorted(body.get("failing", [])) == sorted(failing):
            return body
        if time.monotonic() > deadline:
            outputs = "\n".join(p.log() for p in logs)
            pytest.fail(f"wanted {status} {failing}, got {got} {body}\n{outputs}")
        time.sleep(0.3)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_stopped_and_killed_processes_are_named_and_their_return_seen(tmp_path):
    needs_services("the timer, a worker and beat")
    daphne = Daphne(server_env(**FAST))
    timer = manage(["run_timers"], server_env(**FAST))
    work, sched = worker(), beat_process(tmp_path)
    running = [daphne, timer, work, sched]
    try:
        daphne.wait_ready()
        body = wait_for(daphne, 200, [], running)
        assert all(b["age_s"] <= 3 for b in body["heartbeats"].values()), body

        # SIGTERM: a clean stop is named at once (its row is gone).
        timer.stop()
        body = wait_for(daphne, 503, ["timer"], running)
        assert "not running" in body["heartbeats"]["timer"]["error"]
        # kill -9: named once its last beat is stale.
        work.proc.send_signal(signal.SIGKILL)
        work.proc.wait()
        sched.stop()
        body = wait_for(daphne, 503, ["beat", "timer", "worker"], running)
        assert "last heartbeat" in body["heartbeats"]["worker"]["error"]

        # Started again: healthy again.
        timer = manage(["run_timers"], server_env(**FAST))
        work, sched = worker(), beat_process(tmp_path)
        running = [daphne, timer, work, sched]
        wait_for(daphne, 200, [], running)
    finally:
        for process in running:
            process.stop()
