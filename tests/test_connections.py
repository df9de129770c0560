"""Connections that cannot hang (issue 25, sitewide/connections.py): every
PostgreSQL and Redis socket notices a silent peer within seconds, no
statement runs past 10 s, and deployments sharing a Redis stay apart."""

import asyncio
import json
import os

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.db import connection

from sitewide.connections import channel_prefix, redis_options
from tests.test_settings import PROD, python

OPTIONS = (
    "import json, django; django.setup(); from django.conf import settings as s;"
    "print(json.dumps(s.DATABASES['default']['OPTIONS']))"
)


def options(**env: str) -> dict:
    out = python(["-c", OPTIONS], **{**PROD, **env})
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_postgres_connections_give_up_on_a_silent_server_by_default():
    got = options()
    assert got["keepalives"] == 1 and got["keepalives_idle"] == 5
    assert got["tcp_user_timeout"] == 10000
    assert "statement_timeout=10s" in got["options"]


def test_what_database_url_sets_is_kept():
    url = PROD["DATABASE_URL"] + "?keepalives_idle=30&options=-c%20work_mem%3D8MB"
    got = options(DATABASE_URL=url)
    assert got["keepalives_idle"] == 30
    assert got["options"] == "-c work_mem=8MB -c statement_timeout=10s"
    url = PROD["DATABASE_URL"] + "?options=-c%20statement_timeout%3D0"
    assert options(DATABASE_URL=url)["options"] == "-c statement_timeout=0"


def test_a_transaction_pooler_gets_no_session_options():
    assert "options" not in options(DATABASE_TRANSACTION_POOLER="1")


@pytest.mark.django_db
def test_a_statement_that_runs_too_long_is_stopped():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's statement_timeout")
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone() == ("10s",)
    dsn = connection.connection.info.dsn
    assert "keepalives_idle=5" in dsn and "tcp_user_timeout=10000" in dsn


def test_two_deployments_on_one_redis_hear_only_their_own():
    url = os.environ.get("REDIS_URL")
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail("REDIS_URL is needed; CI must provide it")
        pytest.skip("needs REDIS_URL")
    base = url.rsplit("/", 1)[0]
    layers = [
        RedisPubSubChannelLayer(
            hosts=[{"address": f"{base}/{db}", **redis_options()}],
            prefix=channel_prefix(f"{base}/{db}", ""),
        )
        for db in (1, 2)
    ]

    async def heard() -> list[bool]:
        channels = [await layer.new_channel() for layer in layers]
        for layer, channel in zip(layers, channels, strict=True):
            await layer.group_add("room-K7QXM", channel)
        await layers[0].group_send("room-K7QXM", {"type": "events"})
        got = []
        for layer, channel in zip(layers, channels, strict=True):
            try:
                await asyncio.wait_for(layer.receive(channel), 1)
                got.append(True)
            except TimeoutError:
                got.append(False)
        for layer in layers:
            await layer.flush()
        return got

    assert asyncio.run(heard()) == [True, False]
