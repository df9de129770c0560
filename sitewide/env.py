"""Tiny typed readers for settings taken from the environment.

Each one returns the embedded default when the variable is unset, and refuses
a value it cannot read with ImproperlyConfigured, so a typo fails at start-up
instead of silently running with the default.
"""

import os

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from psycopg import pq
from redis.connection import parse_url

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


def database_from_url(
    url: str, *, transaction_pooler: bool
) -> dj_database_url.DBConfig:
    """A DATABASES entry from DATABASE_URL, parsed by dj-database-url.

    Query options are libpq's connection parameters (`?sslmode=require&
    connect_timeout=5`) and reach psycopg unchanged; `conn_max_age` (seconds,
    default 60) is Django's connection age. Anything else is refused here,
    at start-up, rather than by the first connection.
    """
    postgres_only = ImproperlyConfigured(
        "DATABASE_URL must start with postgres:// or postgresql://"
    )
    try:
        db = dj_database_url.parse(url, conn_max_age=60)
    except dj_database_url.UnknownSchemeError:
        raise postgres_only from None
    except ValueError:
        raise ImproperlyConfigured(
            "DATABASE_URL cannot be read: expected "
            "postgres://user:password@host:5432/name (quote special characters)"
        ) from None
    if db["ENGINE"] != "django.db.backends.postgresql":
        raise postgres_only
    if not db.get("NAME"):
        raise ImproperlyConfigured("DATABASE_URL names no database")
    options = db.setdefault("OPTIONS", {})
    if "conn_max_age" in options:
        db["CONN_MAX_AGE"] = _int_option("conn_max_age", options.pop("conn_max_age"))
    unknown = sorted(set(options) - _libpq_keywords())
    if unknown:
        raise ImproperlyConfigured(
            f"DATABASE_URL has unknown option(s) {', '.join(unknown)}; "
            "options are libpq connection parameters or conn_max_age"
        )
    # No health check: it is a `SELECT 1` round trip before the first query
    # of every request and of every move a daphne process runs. A connection
    # broken since its last use (PostgreSQL restarted) fails that one action
    # instead, and Django closes it when the action ends (it saw the error),
    # so the next opens a new one; a room's socket answers that action
    # `unavailable` (rooms.consumers).
    db["CONN_HEALTH_CHECKS"] = False
    if transaction_pooler:
        # A pooler in transaction mode hands each transaction to any server
        # connection: a cursor or a prepared statement left on one is not
        # there for the next transaction.
        db["DISABLE_SERVER_SIDE_CURSORS"] = True
        options["prepare_threshold"] = None
    else:
        # Django turns psycopg's prepared statements off. On, they apply only
        # to cursors that bind on the server: the reads and writes of a
        # room's move (rooms.move_tx.prepared), which PostgreSQL then parses
        # and plans once per connection instead of every move; Django's own
        # cursors bind on the client and never prepare.
        options["prepare_threshold"] = 5
    return db


def _int_option(name: str, value: object) -> int:
    if isinstance(value, int):
        return value
    raise ImproperlyConfigured(f"DATABASE_URL option {name} must be an integer")


def _libpq_keywords() -> set[str]:
    return {option.keyword.decode() for option in pq.Conninfo.get_defaults()}


def redis_url(name: str) -> str:
    """The Redis URL in `name`, checked by redis-py's own parser (unset: "")."""
    url = env_str(name)
    if url:
        try:
            parse_url(url)
        except ValueError as error:
            raise ImproperlyConfigured(f"{name} cannot be read: {error}") from None
    return url
