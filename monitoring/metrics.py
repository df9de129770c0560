"""Prometheus metrics (prometheus-client), one HTTP port per process.

Each process that has metrics (a daphne, the timer) serves its own on
METRICS_ADDR:METRICS_PORT (loopback by default), only when METRICS_PORT is
set, and Prometheus scrapes each as a target of its own. Chosen over
prometheus-client's multiprocess mode (files in a shared folder, summed
by one endpoint): that needs the folder wiped before the first process
starts and every dead process marked by hand, or a killed daphne's open
sockets count for ever; here a process's numbers die with it, and `up`
says which one is down. docs/OPERATIONS.md lists the metrics and ports.
"""

import functools
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import datetime

from django.conf import settings
from django.db import connections
from django.db.models import Count
from prometheus_client import REGISTRY, Counter, Gauge, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

log = logging.getLogger("monitoring.metrics")

# What a person waits for: from their message to its ack, by kind (take is
# a move; ping, sync and the others too, as asked); refusals not counted.
ROOM_ACK = Histogram(
    "tiles_room_ack_seconds",
    "From a room member's message to its ack, by kind (take: a move).",
    ["kind"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
# rate(tiles_moves_total[1m]): moves a second.
MOVES = Counter(
    "tiles_moves", "Pairs taken and accepted, by where (room, solo).", ["where"]
)
SOCKETS = Gauge(
    "tiles_sockets_open", "Websockets open in this process, by kind.", ["kind"]
)
HINTS = Gauge(
    "tiles_hints_waiting",
    "Room hints being worked out in this daphne's hint process.",
)
TIMER_LATENESS = Histogram(
    "tiles_timer_lateness_seconds",
    "How long after its time the timer found a due room.",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
)


def timer_lateness(now: datetime, wake_times: list[datetime]) -> None:
    for wake_at in wake_times:
        TIMER_LATENESS.observe((now - wake_at).total_seconds())


def room_acks(
    dispatch: Callable[..., Awaitable[None]],
) -> Callable[..., Awaitable[None]]:
    """Times a room consumer's `_dispatch(kind, fields, ref)`, which acks
    the message or raises: only acked messages are observed."""

    # Each kind's histogram looked up once (the protocol's few kinds):
    # `labels` checks its values and takes a lock on every call.
    acks = functools.cache(ROOM_ACK.labels)
    moves = MOVES.labels("room")

    @functools.wraps(dispatch)
    async def timed(consumer: object, kind: str, *args: object) -> None:
        started = time.perf_counter()
        await dispatch(consumer, kind, *args)
        acks(kind).observe(time.perf_counter() - started)
        if kind == "take":
            moves.inc()

    return timed


class OpenRooms(Collector):
    """tiles_rooms{status}: rooms not closed, counted in the database when
    scraped (one process exports it: the timer's)."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from rooms.models import Room

        family = GaugeMetricFamily(
            "tiles_rooms", "Rooms not closed, by status.", labels=["status"]
        )
        try:
            counted = Room.objects.open().values_list("status").order_by()
            for status, count in counted.annotate(Count("id")):
                family.add_metric([status], count)
        finally:
            # Each scrape has a thread of its own: close what it opened.
            connections.close_all()
        yield family


def serve(*collectors: Collector) -> None:
    """Serve this process's metrics on METRICS_ADDR:METRICS_PORT, if set."""
    port = settings.METRICS_PORT
    if not port:
        return
    for collector in collectors:
        REGISTRY.register(collector)
    try:
        start_http_server(port, addr=settings.METRICS_ADDR)
    except OSError as error:
        # Never worth stopping the process for: it serves players.
        log.error("metrics not served on %s:%s: %s", settings.METRICS_ADDR, port, error)
        return
    log.info("metrics on http://%s:%s/metrics", settings.METRICS_ADDR, port)
