"""A daphne that is stopped (SIGTERM: systemctl stop or restart, an
upgrade) stops listening and tells every open socket so with close code
1012, "service restart", before it goes. Left to itself daphne only drops
the TCP connections, which a page cannot tell from a network failure; on
1012 the page reconnects at once (static/js/rooms/connection.js), through
nginx, to a process that is still up.

It waits (a few seconds at most) for the sockets to finish closing, so
each consumer's disconnect runs as for any page that left: daphne's own
shutdown cancels them instead, and a player's socket would go on counting
against their limit (rooms/limits.py) until it lapses, a minute later.
"""

import signal
import time
from collections.abc import Callable, Iterable
from typing import Any

# daphne's server module installs its asyncio reactor: imported before
# twisted's reactor, so that is the one we get.
import daphne.server  # noqa: F401
from daphne.ws_protocol import WebSocketProtocol
from twisted.internet import reactor as _installed
from twisted.internet import tcp

# Twisted's stubs type the module-level reactor as its interface class.
reactor: Any = _installed

CLOSE_RESTART = 1012
# Well inside the unit's TimeoutStopSec (deploy/systemd/tiles-web@.service).
CLOSING_S = 3.0
POLL_S = 0.05
LAST_LOOK_S = 0.2

Sockets = Callable[[], Iterable[object]]


def _still_open(sockets: Sockets) -> list[WebSocketProtocol]:
    return [
        p
        for p in sockets()
        if isinstance(p, WebSocketProtocol) and p.state != p.STATE_CLOSED
    ]


def _stop_gracefully(sockets: Sockets) -> None:
    # First no new connection: a page told to reconnect must not reach
    # this process again while it finishes (nginx then takes the next).
    for reader in reactor.getReaders():
        if isinstance(reader, tcp.Port):
            reader.stopListening()
    _stop_when_closed(sockets, time.monotonic() + CLOSING_S)


def _tell_to_reconnect(sockets: Sockets) -> list[WebSocketProtocol]:
    """1012 to every socket open and not yet told; those not closed yet."""
    still = _still_open(sockets)
    for protocol in still:
        if protocol.state == protocol.STATE_OPEN:
            # sendClose allows only 1000 and 3000-4999 from an application;
            # 1012 is the server's own to send (RFC 6455's registry).
            protocol.sendCloseFrame(code=CLOSE_RESTART)
    return still


def _stop_when_closed(sockets: Sockets, deadline: float) -> None:
    # Told again at every look: a handshake can still arrive after the
    # stop, on a connection nginx keeps open to this process for its next
    # requests; left untold, that socket would be cut without a word and
    # its count outlive the process (rooms/limits.py).
    if _tell_to_reconnect(sockets) and time.monotonic() < deadline:
        reactor.callLater(POLL_S, _stop_when_closed, sockets, deadline)
    else:
        # Each disconnect gets a moment to run before daphne cancels what
        # is left; a socket opened meanwhile is told and waited for too.
        reactor.callLater(LAST_LOOK_S, _stop_unless_opened, sockets, deadline)


def _stop_unless_opened(sockets: Sockets, deadline: float) -> None:
    if _still_open(sockets) and time.monotonic() < deadline:
        _stop_when_closed(sockets, deadline)
    else:
        reactor.stop()


def close_sockets_on_stop(sockets: Sockets) -> None:
    """Call once in daphne's process before its reactor runs (sitewide.serve's
    server does, when daphne calls it ready); `sockets` gives the server's
    open connections (daphne's `Server.connections`)."""

    def on_sigterm(signum: int, frame: object) -> None:
        reactor.callFromThread(_stop_gracefully, sockets)

    # After the reactor's own handlers, which would stop it at once.
    reactor.callWhenRunning(signal.signal, signal.SIGTERM, on_sigterm)
