"""/healthz: can this process reach what it needs, right now?

A round trip to each: PostgreSQL (or the embedded SQLite), Redis, and the
channel layer (a message sent to a new channel and read back). 200 when all
answer, 503 naming the one that did not, so a load balancer takes this
process out of rotation. It reads no session and makes no guest.
"""

import asyncio
import time
from collections.abc import Awaitable, Callable

import redis.asyncio
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

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


@never_cache
@require_GET
async def healthz(request: HttpRequest) -> JsonResponse:
    checks = {
        "database": _timed(sync_to_async(_database)),
        "channel_layer": _timed(_channel_layer),
    }
    if settings.REDIS_URL:
        checks["redis"] = _timed(_redis)
    results = dict(zip(checks, await asyncio.gather(*checks.values()), strict=True))
    healthy = all(result["ok"] for result in results.values())
    return JsonResponse(
        {"status": "ok" if healthy else "failing", "checks": results},
        status=200 if healthy else 503,
    )
