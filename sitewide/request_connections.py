"""A request's database connections closed when the request ends.

Under ASGI, Django runs a request's synchronous code on a thread of its
own (asgiref's ThreadSensitiveContext: a one-thread executor a request,
shut down after it). A connection kept open for reuse (CONN_MAX_AGE)
belongs to that thread, which never runs again: it stays open until the
garbage collector finds it. Forty health probes left a daphne holding
forty-one connections, and several daphnes ran a PostgreSQL of 100
connections out ("too many clients already"). Django's documentation asks
for persistent connections to be off under ASGI; they are off here for
requests only. The long-lived threads of room sockets, the timer and the
Celery worker keep theirs, which spares each move a connection of its own
and keeps its prepared statements.
"""

from typing import Any

from django.core.handlers.asgi import ASGIHandler
from django.core.signals import request_finished
from django.db import connections


def close_request_connections(**kwargs: Any) -> None:
    """The finished request's connections: this runs on its thread, so
    these are the connections only that thread could have used."""
    connections.close_all()


def close_after_each_request() -> None:
    # Sent by the ASGI handler only: the test client's requests (its own
    # handler class) run inside a test's transaction, which must stay open.
    request_finished.connect(
        close_request_connections,
        sender=ASGIHandler,
        dispatch_uid="sitewide.request_connections",
    )
