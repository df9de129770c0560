"""Tiny typed readers for settings taken from the environment.

Each one returns the embedded default when the variable is unset, and refuses
a value it cannot read with ImproperlyConfigured, so a typo fails at start-up
instead of silently running with the default.
"""

import os
from urllib.parse import unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name} must be a boolean (1/0, true/false), got {raw!r}"
    )


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def database_from_url(url: str) -> dict:
    """Turn postgres://user:pass@host:port/name into a DATABASES entry."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        raise ImproperlyConfigured(
            "DATABASE_URL must start with postgres:// or postgresql://, "
            f"got {parts.scheme!r}"
        )
    name = unquote(parts.path.lstrip("/"))
    if not name:
        raise ImproperlyConfigured("DATABASE_URL names no database")
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(parts.port or ""),
        # Rooms and runs lock rows; short-lived connections keep daphne's
        # thread pool from pinning idle connections open forever.
        "CONN_MAX_AGE": 60,
        # No health check: it is a `SELECT 1` round trip before the first
        # query of every request and of every move a daphne process runs.
        # A connection broken since its last use (PostgreSQL restarted)
        # fails that one action instead, and Django closes it when the
        # action ends (it saw the error), so the next opens a new one; a
        # room's socket answers that action `unavailable` (rooms.consumers).
        "CONN_HEALTH_CHECKS": False,
        # Django turns psycopg's prepared statements off (for poolers in
        # transaction mode; none here). On, they apply only to cursors that
        # bind on the server: the fixed statements of a room's move
        # (rooms.move_tx.prepared), which PostgreSQL then parses and plans
        # once per connection instead of every move; Django's own cursors
        # bind on the client and never prepare.
        "OPTIONS": {"prepare_threshold": 5},
    }
