"""What an operator sees: Prometheus metrics from each process on a port
of its own, errors at a (fake, local) Sentry, and LOG_FORMAT=json lines
from every part. Each on the real processes: daphne, `manage.py
run_timers`, `celery worker` and `celery beat`."""

import asyncio
import gzip
import json
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import brotli
import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from config.celery import app
from dailies.tasks import prepare_dailies
from tests.room_helpers import guest_cookie_value, solution
from tests.run_helpers import Browser, witness_of
from tests.seat_client import Seat, start_race, take_in_turns
from tests.services import (
    Daphne,
    Process,
    free_port,
    manage,
    needs_services,
    server_env,
)
from tests.test_health import celery_worker
from tests.test_two_daphne import seated_room

WAIT_S = 60


def scrape(port: int) -> dict[tuple[str, tuple], float]:
    """Every sample a process's metrics port serves, by name and labels."""
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5)
    samples = {}
    for family in text_string_to_metric_families(text.read().decode()):
        for s in family.samples:
            samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return samples


def until(check, what: str, processes) -> None:
    deadline = time.monotonic() + WAIT_S
    while not check():
        if time.monotonic() > deadline:
            logs = "\n".join(p.log() for p in processes)
            pytest.fail(f"never saw {what}\n{logs}")
        time.sleep(0.2)


@pytest.mark.django_db
def test_a_solo_move_counts_as_a_move():
    def moves() -> float:
        return REGISTRY.get_sample_value("tiles_moves_total", {"where": "solo"}) or 0

    before = moves()
    me = Browser()
    run = me.start().json()
    a, b = witness_of(run["id"])[0]
    assert me.take(run, a, a, move=0).status_code == 400  # refused: not counted
    assert me.take(run, a, b).status_code == 200
    assert moves() == before + 1


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
async def test_each_process_serves_its_own_metrics_on_loopback():
    needs_services("two daphne processes and a timer")
    room, ann_player, bob_player = await sync_to_async(seated_room)()
    ports = {name: free_port() for name in ("one", "two", "timer")}
    one = Daphne(server_env(METRICS_PORT=str(ports["one"])), "daphne one")
    two = Daphne(server_env(METRICS_PORT=str(ports["two"])), "daphne two")
    timer = manage(["run_timers"], server_env(METRICS_PORT=str(ports["timer"])))
    processes = [one, two, timer]
    try:
        one.wait_ready()
        two.wait_ready()
        cookie = sync_to_async(guest_cookie_value)
        ann = Seat("ann", await cookie(ann_player), room.code)
        bob = Seat("bob", await cookie(bob_player), room.code)
        await ann.connect(one.port)
        await bob.connect(two.port)
        pairs = await start_race(ann, bob, lambda: sync_to_async(solution)(room))
        await take_in_turns(ann, bob, pairs, range(3))
        hint = await ann.send({"type": "hint"})
        assert hint["type"] == "hint", hint

        room_take = ("tiles_room_ack_seconds_count", (("kind", "take"),))
        moves = ("tiles_moves_total", (("where", "room"),))
        sockets = ("tiles_sockets_open", (("kind", "room"),))
        for daphne in (one, two):
            got = scrape(ports["one" if daphne is one else "two"])
            # Each process its own: three moves on each, not six, not lost.
            assert got[room_take] == 3 and got[moves] == 3, got
            assert got[sockets] == 1
            assert ("tiles_hints_waiting", ()) in got
            # Not on the site's own port, which the internet reaches.
            with pytest.raises(urllib.error.HTTPError) as public:
                urllib.request.urlopen(f"http://127.0.0.1:{daphne.port}/metrics")
            assert public.value.code == 404
        assert scrape(ports["one"])[("tiles_hints_waiting", ())] == 0

        # The timer's: the bot's moves came due and were found; the room.
        def timer_saw_the_bot() -> bool:
            got = scrape(ports["timer"])
            return got.get(("tiles_timer_lateness_seconds_count", ()), 0) >= 1

        await asyncio.to_thread(until, timer_saw_the_bot, "the bot", processes)
        assert scrape(ports["timer"])[("tiles_rooms", (("status", "game"),))] == 1

        # A socket closed is a socket no longer counted.
        await ann.ws.close()
        await asyncio.to_thread(
            until, lambda: scrape(ports["one"])[sockets] == 0, "0 sockets", processes
        )
    finally:
        for process in processes:
            process.stop()
        # This test's own connection, on the thread sync_to_async used.
        await sync_to_async(connections.close_all)()


# -- Sentry --------------------------------------------------------------------
class FakeSentry:
    """An HTTP server on loopback that takes Sentry envelopes, as sentry.io
    would, and keeps each one's text."""

    def __init__(self) -> None:
        received: list[str] = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                encoding = self.headers.get("Content-Encoding", "")
                if encoding == "gzip":
                    body = gzip.decompress(body)
                elif encoding == "br":
                    body = brotli.decompress(body)
                elif encoding == "deflate":
                    body = zlib.decompress(body)
                received.append(self.path + "\n" + body.decode())
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args) -> None:
                pass

        self.received = received
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def dsn(self) -> str:
        return f"http://publickey@127.0.0.1:{self.port}/42"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_without_a_dsn_sentry_is_not_started():
    # This test process read the settings with SENTRY_DSN unset.
    assert "sentry_sdk" not in sys.modules


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_errors_of_a_view_and_of_a_task_reach_sentry():
    needs_services("daphne and a worker")
    sentry = FakeSentry()
    env = server_env(SENTRY_DSN=sentry.dsn, DJANGO_SETTINGS_MODULE="tests.sentry_site")
    queue = f"tiles-test-{uuid.uuid4().hex[:10]}"
    daphne = Daphne(env)
    worker = celery_worker(queue, env)
    processes = [daphne, worker]
    try:
        daphne.wait_ready()
        with pytest.raises(urllib.error.HTTPError) as bug:
            urllib.request.urlopen(f"http://127.0.0.1:{daphne.port}/boom")
        assert bug.value.code == 500

        def reported(text: str):
            return lambda: any(text in e and '"event"' in e for e in sentry.received)

        until(reported('"a bug"'), "the view's error at Sentry", processes)
        (event,) = [e for e in sentry.received if '"a bug"' in e]
        assert event.startswith("/api/42/envelope/")
        assert '"RuntimeError"' in event and "/boom" in event
        # No timer runs here: a failing /healthz, which is no event.
        with pytest.raises(urllib.error.HTTPError) as failing:
            urllib.request.urlopen(f"http://127.0.0.1:{daphne.port}/healthz")
        assert failing.value.code == 503
        send_bad_task(queue)
        until(reported("no_such_argument"), "the task's error at Sentry", processes)
        (task_event,) = [e for e in sentry.received if "no_such_argument" in e]
        assert '"TypeError"' in task_event and "prepare_dailies" in task_event
        # The view's error once: not again as its request's log line.
        assert not [e for e in sentry.received if "GET /" in e], sentry.received
    finally:
        for process in processes:
            process.stop()
        sentry.stop()


def send_bad_task(queue: str) -> None:
    """A task that fails in the worker: an argument it does not take, as
    a typo would give (sent by name: the sender's own check would refuse)."""
    app.send_task(prepare_dailies.name, kwargs={"no_such_argument": 1}, queue=queue)


# -- JSON logs -------------------------------------------------------------
FIELDS = {"time", "level", "logger", "request_id", "message"}


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_log_format_json_is_one_object_a_line_from_every_part(tmp_path):
    needs_services("daphne, the timer, a worker and beat")
    env = server_env(LOG_FORMAT="json", HEARTBEAT_INTERVAL_S="1")
    queue = f"tiles-test-{uuid.uuid4().hex[:10]}"
    daphne = Daphne(env)
    timer = manage(["run_timers"], env)
    worker = celery_worker(queue, env)
    beat = Process(
        [sys.executable, "-m", "celery", "-A", "config", "--quiet", "beat"]
        + ["--schedule", str(tmp_path / "beat")],
        env,
        "celery beat",
    )
    processes = [daphne, timer, worker, beat]
    try:
        daphne.wait_ready()
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(f"http://127.0.0.1:{daphne.port}/missing-page")
        send_bad_task(queue)

        def logged(process: Process, text: str):
            return lambda: any(text in line for line in process.lines)

        until(logged(daphne, "/missing-page"), "daphne's request line", processes)
        until(logged(worker, "no_such_argument"), "the task's failure", processes)
        for part in (timer, beat):
            until(logged(part, "beats every 1 s"), f"{part.name} start", processes)
    finally:
        for process in processes:
            process.stop()
    for process in processes:
        entries = [json.loads(line) for line in process.lines if line.strip()]
        assert entries, process.log()
        assert all(set(entry) >= FIELDS for entry in entries), process.log()
        assert all(entry["time"].endswith("Z") for entry in entries)
    (request,) = [json.loads(line) for line in daphne.lines if "/missing-page" in line]
    assert request["logger"] == "tiles.request" and request["level"] == "WARNING"
    assert len(request["request_id"]) == 32
    (failure,) = [json.loads(ln) for ln in worker.lines if "no_such_argument" in ln]
    assert failure["level"] == "ERROR" and "TypeError" in failure["exc"]
    assert any("Warm shutdown" in line for line in worker.lines)
