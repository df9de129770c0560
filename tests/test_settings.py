"""Settings come from the environment, with an embedded default."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from sitewide.connections import POSTGRES_DEFAULTS

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
    "DATABASE_TRANSACTION_POOLER",
)


def python(
    code_or_args: list[str], cwd: Path = ROOT, **env: str
) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in MINE}
    base["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run(
        [sys.executable, *code_or_args],
        cwd=cwd,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def another_install(folder: Path) -> Path:
    """A second install in `folder`: its own copy of config/ (whose parent
    is BASE_DIR, so var/ is folder/var), the apps of this checkout. The
    embedded mode writes its key and database there, never in the
    developer's var/."""
    shutil.copytree(
        ROOT / "config", folder / "config", ignore=shutil.ignore_patterns("__pycache__")
    )
    return folder


def embedded(install: Path, probe: str) -> subprocess.CompletedProcess:
    """`probe` run in `install` with nothing set (its config/ comes first)."""
    return python(["-c", probe], cwd=install, PYTHONPATH=str(ROOT))


def test_nothing_set_means_sqlite_in_memory_layer_and_eager_celery(tmp_path):
    out = embedded(another_install(tmp_path), PROBE)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {
        "db": "django.db.backends.sqlite3",
        "layer": "channels.layers.InMemoryChannelLayer",
        "eager": True,
        "debug": False,
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


def refused(**env: str) -> str:
    """The one line manage.py prints when it refuses the configuration."""
    out = python(["manage.py", "check"], **env)
    assert out.returncode != 0, out.stdout
    assert out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    return lines[0]


def test_either_production_url_needs_a_secret_key():
    for url in ("DATABASE_URL", "REDIS_URL"):
        assert "SECRET_KEY must be set" in refused(**{url: PROD[url]})


def test_placeholder_and_short_keys_are_refused():
    for key, why in (
        ("change-me", "placeholder"),
        ("change-me-" * 6, "placeholder"),
        ("django-insecure-" + "x1y2z3" * 9, "placeholder"),
        ("0123456789abcdef0123456789abcdef", "too short"),
        ("ab" * 30, "too plain"),
    ):
        line = refused(DATABASE_URL=PROD["DATABASE_URL"], SECRET_KEY=key)
        assert why in line, line
        assert key not in line


def test_the_embedded_mode_makes_its_own_key_once_per_install(tmp_path):
    install = another_install(tmp_path)
    probe = "import django; django.setup(); from django.conf import settings as s;"
    probe += "print(s.SECRET_KEY)"
    first, second = (embedded(install, probe) for _ in range(2))
    assert first.returncode == 0, first.stderr
    key = first.stdout.strip()
    assert key == second.stdout.strip()
    assert len(key) >= 50
    stored = install / "var" / "secret_key"
    assert stored.read_text().strip() == key
    assert stored.stat().st_mode & 0o077 == 0, "only its owner may read the key"
    tracked = subprocess.run(
        ["git", "grep", "-F", key], cwd=ROOT, capture_output=True, text=True
    )
    assert tracked.stdout == "", "the key is in the repository"


def test_a_value_that_cannot_be_read_is_refused():
    assert "DEBUG must be a boolean" in refused(DEBUG="maybe")
    assert "REDIS_URL cannot be read" in refused(
        REDIS_URL="http://127.0.0.1:6379/0", SECRET_KEY=PROD["SECRET_KEY"]
    )


DATABASE_PROBE = (
    "import json, django; django.setup(); from django.conf import settings as s;"
    "d = s.DATABASES['default'];"
    "print(json.dumps({k: d[k] for k in ('HOST', 'PORT', 'NAME', 'OPTIONS',"
    " 'CONN_MAX_AGE', 'DISABLE_SERVER_SIDE_CURSORS')}))"
)


def test_database_url_options_reach_psycopg():
    url = "postgres://tiles:p%40ss@db.example.org:6432/tiles"
    url += "?sslmode=require&connect_timeout=5&conn_max_age=300"
    out = python(["-c", DATABASE_PROBE], **{**PROD, "DATABASE_URL": url})
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {
        "HOST": "db.example.org",
        "PORT": 6432,
        "NAME": "tiles",
        "OPTIONS": {
            "sslmode": "require",
            "connect_timeout": 5,
            "prepare_threshold": 5,
            # sitewide/connections.py's defaults, beside the URL's own.
            **{k: v for k, v in POSTGRES_DEFAULTS.items() if k != "connect_timeout"},
            "options": "-c statement_timeout=10s",
        },
        "CONN_MAX_AGE": 300,
        "DISABLE_SERVER_SIDE_CURSORS": False,
    }


def test_a_transaction_pooler_turns_off_what_it_cannot_keep():
    out = python(["-c", DATABASE_PROBE], **PROD, DATABASE_TRANSACTION_POOLER="1")
    assert out.returncode == 0, out.stderr
    db = json.loads(out.stdout)
    assert db["DISABLE_SERVER_SIDE_CURSORS"] is True
    assert db["OPTIONS"]["prepare_threshold"] is None


def test_a_bad_database_url_is_one_line():
    key = PROD["SECRET_KEY"]
    for url, why in (
        ("mysql://root@127.0.0.1/tiles", "must start with postgres://"),
        ("postgres://127.0.0.1:5432/", "names no database"),
        ("postgres://127.0.0.1:port/tiles", "cannot be read"),
        ("postgres://127.0.0.1/tiles?sslmod=require", "unknown option(s) sslmod"),
        ("postgres://127.0.0.1/tiles?conn_max_age=soon", "must be an integer"),
    ):
        assert why in refused(DATABASE_URL=url, SECRET_KEY=key), url


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
