"""Connections that cannot hang: every socket to PostgreSQL and Redis
notices a peer that went silent within about ten seconds.

A host whose network is cut and comes back can hold a socket whose other
end is long gone (its FIN was lost on the cut link); the kernel's own
keepalive waits two hours before it asks. A thread waiting on such a socket
never returns, and when it is the thread of Django's thread-sensitive
executor, every request of its daphne waits behind it (issue 25). Here
each connection probes an idle peer after a few seconds and gives up on
unacknowledged data after ten, so the call fails, its request or move
answers an error, and the next opens a fresh connection.
"""

import socket
from typing import Any
from urllib.parse import urlsplit

# libpq's own names (they reach psycopg as connection parameters). A URL
# that sets any of them keeps its own value.
POSTGRES_DEFAULTS = {
    "connect_timeout": 5,
    "keepalives": 1,
    "keepalives_idle": 5,
    "keepalives_interval": 2,
    "keepalives_count": 3,
    # Milliseconds that sent data may stay unacknowledged: a query sent
    # into a cut link fails after this instead of retransmitting for 15 min.
    "tcp_user_timeout": 10000,
}
# No statement runs longer than this (a request must fail rather than
# wait); the app's statements take milliseconds. A session setting, sent
# at connect: a pooler in transaction mode keeps none, so there it belongs
# on the role (docs/DEPLOY.md).
STATEMENT_TIMEOUT = "-c statement_timeout=10s"

# Seconds. A command's reply that takes longer than SOCKET_TIMEOUT_S means a
# dead Redis or a cut link; health checks PING a connection idle this long
# before it is used again.
REDIS_SOCKET_TIMEOUT_S = 5
REDIS_CONNECT_TIMEOUT_S = 3
REDIS_HEALTH_CHECK_S = 15
REDIS_KEEPALIVE = {
    socket.TCP_KEEPIDLE: 5,
    socket.TCP_KEEPINTVL: 2,
    socket.TCP_KEEPCNT: 3,
    socket.TCP_USER_TIMEOUT: 10000,
}


def postgres_options(options: dict[str, Any], *, transaction_pooler: bool) -> None:
    """Add the defaults above to a DATABASES entry's OPTIONS in place;
    what DATABASE_URL already set is kept."""
    for key, value in POSTGRES_DEFAULTS.items():
        options.setdefault(key, value)
    if transaction_pooler:
        return
    given = str(options.get("options", ""))
    if "statement_timeout" not in given:
        options["options"] = f"{given} {STATEMENT_TIMEOUT}".strip()


def redis_options() -> dict[str, Any]:
    """redis-py's connection arguments (the cache, the channel layer)."""
    return {
        "socket_timeout": REDIS_SOCKET_TIMEOUT_S,
        "socket_connect_timeout": REDIS_CONNECT_TIMEOUT_S,
        "socket_keepalive": True,
        "socket_keepalive_options": REDIS_KEEPALIVE,
        "health_check_interval": REDIS_HEALTH_CHECK_S,
        "retry_on_timeout": False,
    }


def channel_prefix(url: str, given: str) -> str:
    """The channel layer's name prefix. The pub/sub layer's channels are
    Redis pub/sub channels, which ignore the database number: two
    deployments on one Redis would hear each other's rooms. By default the
    prefix carries the URL's database number, so deployments on different
    numbers are apart; CHANNEL_LAYER_PREFIX names one outright."""
    if given:
        return given
    database = urlsplit(url).path.strip("/") or "0"
    return f"tiles{database}"
