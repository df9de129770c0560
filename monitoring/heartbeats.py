"""Heartbeats of the background processes, and what /healthz makes of them.

The rooms' timer and Celery beat beat from their own loops (a beat says
the loop still turns, not only that the process exists); a Celery worker
beats from a thread of its own, because its one pool thread (`--pool
solo`) may run a task for minutes and that is no failure. Each beat is
one row upserted in the database (`Heartbeat`): every web process on every
host reads every timer and worker from there, in the embedded setup
(SQLite, the timer a process beside daphne) as in production. A process
that stops cleanly removes its row, so /healthz names it at once; one that
was killed is named when its last beat grows stale.

A part is healthy while any of its processes beats: any timer handles any
room and any worker any task, so one dead among live ones is for the
operator (each process's age is in the reply), not for the load balancer.
"""

import logging
import os
import socket
import threading
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError, close_old_connections, connections
from django.utils import timezone

from monitoring.models import Heartbeat

log = logging.getLogger("monitoring.heartbeats")

Part = Heartbeat.Part
# A killed process's row is reported this long, then cleared.
FORGET_AFTER = timedelta(days=1)


class Beater:
    """The heartbeat of this process as `part`."""

    def __init__(self, part: str) -> None:
        self.part = part
        self.process = f"{socket.gethostname()}:{os.getpid()}"
        self._due = 0.0
        self._lock = threading.Lock()
        self._started = False

    def maybe(self) -> None:
        """Beat if the last beat is an interval old: cheap enough to call on
        every turn of a busy loop, from any of its threads."""
        now = time.monotonic()
        with self._lock:
            if now < self._due:
                return
            self._due = now + settings.HEARTBEAT_INTERVAL_S
        self.beat()

    def beat(self) -> None:
        now = timezone.now()
        try:
            Heartbeat.objects.bulk_create(
                [Heartbeat(part=self.part, process=self.process, beat_at=now)],
                update_conflicts=True,
                unique_fields=["part", "process"],
                update_fields=["beat_at"],
            )
            if not self._started:
                self._started = True
                forgotten = now - FORGET_AFTER
                Heartbeat.objects.filter(beat_at__lt=forgotten).delete()
                log.info("%s %s beats every %s s", self.part, self.process, _every())
        except DatabaseError as error:
            # The database is away: /healthz says so, and this beat is late.
            log.warning("%s heartbeat not written: %s", self.part, error)
            close_old_connections()

    def stop(self) -> None:
        """Stopped cleanly: gone from /healthz at once, not when stale."""
        try:
            mine = Heartbeat.objects.filter(part=self.part, process=self.process)
            mine.delete()
        except DatabaseError as error:
            log.warning("%s heartbeat not removed: %s", self.part, error)


def _every() -> str:
    return f"{settings.HEARTBEAT_INTERVAL_S:g}"


# -- The Celery worker: a thread from worker_ready to worker_shutdown -------
_worker_stop = threading.Event()
_worker_thread: threading.Thread | None = None


def _beat_worker() -> None:
    beater = Beater(Part.WORKER)
    try:
        while True:
            beater.beat()
            if _worker_stop.wait(settings.HEARTBEAT_INTERVAL_S):
                break
        beater.stop()
    finally:
        connections.close_all()


def worker_started(**kwargs: object) -> None:
    global _worker_thread
    _worker_stop.clear()
    _worker_thread = threading.Thread(
        target=_beat_worker, name="heartbeat", daemon=True
    )
    _worker_thread.start()


def worker_stopped(**kwargs: object) -> None:
    _worker_stop.set()
    if _worker_thread is not None:
        _worker_thread.join(timeout=5)


# -- What /healthz reports --------------------------------------------------
def watched_parts() -> list[str]:
    """The timer always (embedded too: a process of its own beside daphne);
    the worker and beat when Celery has a broker. In eager mode there is no
    worker (tasks run in the caller) and no beat (nothing is scheduled)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return [Part.TIMER]
    return [Part.TIMER, Part.WORKER, Part.BEAT]


def report(now: datetime | None = None) -> dict[str, dict]:
    """For each watched part: ok, the age of its freshest beat (s), and each
    of its processes seen in the last day with its age."""
    now = now or timezone.now()
    parts = watched_parts()
    rows = Heartbeat.objects.filter(part__in=parts, beat_at__gte=now - FORGET_AFTER)
    ages: dict[str, dict[str, float]] = {part: {} for part in parts}
    for part, process, beat_at in rows.values_list("part", "process", "beat_at"):
        ages[part][process] = round((now - beat_at).total_seconds(), 1)
    stale = settings.HEARTBEAT_STALE_S
    found: dict[str, dict] = {}
    for part, processes in ages.items():
        if not processes:
            found[part] = {"ok": False, "error": "no heartbeat: not running"}
            continue
        age = min(processes.values())
        found[part] = {"ok": age <= stale, "age_s": age, "processes": processes}
        if age > stale:
            found[part]["error"] = f"last heartbeat {age:g} s ago (over {stale} s)"
    if settings.CELERY_TASK_ALWAYS_EAGER:
        found["worker"] = {"ok": True, "eager": True}
    return found
