"""/healthz: can this process reach what it needs, and is the work that
happens elsewhere being done, right now?

A round trip to each: PostgreSQL (or the embedded SQLite), Redis, and the
channel layer (a message sent to a new channel and read back); and the
heartbeats of the rooms' timer, the Celery worker and beat
(monitoring.heartbeats). 200 with each one's time or age when all are
well, 503 naming each that is not (in `failing`), so a load balancer takes
this process out of rotation and an operator reads why. It reads no
session and makes no guest.

A load balancer probes each process by its address (Host: 10.0.0.5), which
is in no ALLOWED_HOSTS: `HealthByAddress` answers /healthz before anything
reads the Host header, and every other page still refuses unknown hosts.
"""

import asyncio
import time
from collections.abc import Awaitable, Callable

import redis.asyncio
from asgiref.sync import markcoroutinefunction, sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from monitoring import heartbeats

TIMEOUT_S = 2.0


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


async def _redis() -> None:
    client = redis.asyncio.from_url(settings.REDIS_URL)
    try:
        await client.ping()
    finally:
        await client.aclose()


async def _channel_layer() -> None:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "health.ping"})
    message = await layer.receive(channel)
    if message.get("type") != "health.ping":
        raise RuntimeError("the layer answered with another message")


async def _timed(check: Callable[[], Awaitable[None]]) -> dict:
    started = time.perf_counter()
    try:
        await asyncio.wait_for(check(), TIMEOUT_S)
    except TimeoutError:
        return {"ok": False, "error": f"no answer in {TIMEOUT_S:g} s"}
    except Exception as error:  # noqa: BLE001 (any failure is the answer)
        return {"ok": False, "error": f"{type(error).__name__}: {error}"[:200]}
    return {"ok": True, "ms": round((time.perf_counter() - started) * 1000, 1)}


async def _heartbeats() -> dict[str, dict]:
    try:
        report = sync_to_async(heartbeats.report)
        return await asyncio.wait_for(report(), TIMEOUT_S)
    except Exception as error:  # noqa: BLE001 (unread is unknown: failing)
        why = f"not read: {type(error).__name__}: {error}"[:200]
        return {
            part: {"ok": False, "error": why} for part in heartbeats.watched_parts()
        }


@never_cache
@require_GET
async def healthz(request: HttpRequest) -> JsonResponse:
    checks = {
        "database": _timed(sync_to_async(_database)),
        "channel_layer": _timed(_channel_layer),
    }
    if settings.REDIS_URL:
        checks["redis"] = _timed(_redis)
    answers = await asyncio.gather(_heartbeats(), *checks.values())
    beats, results = answers[0], dict(zip(checks, answers[1:], strict=True))
    failing = [name for name, r in (results | beats).items() if not r["ok"]]
    body: dict[str, object] = {
        "status": "failing" if failing else "ok",
        "checks": results,
        "heartbeats": beats,
    }
    if failing:
        body["failing"] = failing
    return JsonResponse(body, status=503 if failing else 200)


class HealthByAddress:
    """/healthz for whoever asks, by any Host: placed before the middleware
    that reads the Host header (SecurityMiddleware's redirect, CSRF,
    CommonMiddleware), so a probe by IP address gets its answer instead of
    ALLOWED_HOSTS' 400. Only this one exact path: any other page for an
    unknown host is refused as before."""

    sync_capable = False
    async_capable = True

    def __init__(self, get_response) -> None:
        self.get_response = get_response
        markcoroutinefunction(self)

    async def __call__(self, request: HttpRequest):
        if request.path_info == "/healthz":
            return await healthz(request)
        return await self.get_response(request)
