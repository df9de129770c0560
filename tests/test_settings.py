"""Settings come from the environment, with an embedded default."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
PROBE = (
    "import json, django; django.setup(); from django.conf import settings as s;"
    "print(json.dumps({'db': s.DATABASES['default']['ENGINE'],"
    " 'layer': s.CHANNEL_LAYERS['default']['BACKEND'],"
    " 'eager': s.CELERY_TASK_ALWAYS_EAGER, 'debug': s.DEBUG,"
    " 'broker': s.CELERY_BROKER_URL}))"
)
PROD = {
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/test",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "SECRET_KEY": "a-long-and-random-production-key-7Hq2vX9pL4mZ8rT1wY6nB3cK5jD0sF",
}
MINE = (
    "DATABASE_URL",
    "REDIS_URL",
    "SECRET_KEY",
    "DEBUG",
    "TILES_HTTPS",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)


def python(code_or_args: list[str], **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in MINE}
    base["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run(
        [sys.executable, *code_or_args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_nothing_set_means_sqlite_in_memory_layer_and_eager_celery():
    out = python(["-c", PROBE])
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {
        "db": "django.db.backends.sqlite3",
        "layer": "channels.layers.InMemoryChannelLayer",
        "eager": True,
        "debug": True,
        "broker": "memory://",
    }


def test_database_and_redis_urls_select_the_production_setup():
    out = python(["-c", PROBE], **PROD)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {
        "db": "django.db.backends.postgresql",
        "layer": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "eager": False,
        "debug": False,
        "broker": PROD["REDIS_URL"],
    }


def test_production_refuses_to_start_without_a_secret_key():
    out = python(["-c", PROBE], DATABASE_URL=PROD["DATABASE_URL"])
    assert out.returncode != 0
    assert "SECRET_KEY must be set" in out.stderr


def test_a_value_that_cannot_be_read_is_refused():
    out = python(["-c", PROBE], DEBUG="maybe")
    assert "DEBUG must be a boolean" in out.stderr


def test_check_deploy_is_clean_with_production_settings():
    out = python(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        ALLOWED_HOSTS="tiles.example.org",
        **PROD,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout


def test_ci_runs_against_postgresql_and_redis():
    """Under CI the suite must exercise the production services, not defaults."""
    if os.environ.get("CI") != "true":
        pytest.skip("only meaningful under CI=true")
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert "Redis" in settings.CHANNEL_LAYERS["default"]["BACKEND"]
    assert not settings.CELERY_TASK_ALWAYS_EAGER
