"""A daphne that is stopped (SIGTERM: systemctl stop or restart, an
upgrade) stops listening and tells every open socket so with close code
1012, "service restart", before it goes. Left to itself daphne only drops the TCP
connections, which a page cannot tell from a network failure; on 1012 the
page reconnects at once (static/js/rooms/connection.js), through nginx,
to a process that is still up.
"""

import weakref

# daphne's server module installs its asyncio reactor: imported before
# twisted's reactor, so that is the one we get.
import daphne.server  # noqa: F401
from daphne.ws_protocol import WebSocketProtocol
from twisted.internet import reactor, task, tcp

CLOSE_RESTART = 1012
# Long enough for the close frames to leave; short against the unit's
# TimeoutStopSec (deploy/systemd/tiles-web@.service).
FLUSH_S = 0.3

_open: "weakref.WeakSet[WebSocketProtocol]" = weakref.WeakSet()


def _opened(protocol: WebSocketProtocol, original) -> None:
    _open.add(protocol)
    original(protocol)


def _close_all():
    # First no new connection: a page told to reconnect must not reach
    # this process again while it finishes (nginx then takes the next).
    for reader in reactor.getReaders():
        if isinstance(reader, tcp.Port):
            reader.stopListening()
    for protocol in list(_open):
        if protocol.state == protocol.STATE_OPEN:
            # sendClose allows only 1000 and 3000-4999 from an application;
            # 1012 is the server's own to send (RFC 6455's registry).
            protocol.sendCloseFrame(code=CLOSE_RESTART)
    return task.deferLater(reactor, FLUSH_S, lambda: None)


def close_sockets_on_stop() -> None:
    """Call once in daphne's process, before its server runs (config.asgi
    is imported first)."""
    original = WebSocketProtocol.onOpen
    WebSocketProtocol.onOpen = lambda self: _opened(self, original)
    # twisted's stubs type the module-level reactor as the interface class.
    reactor.addSystemEventTrigger("before", "shutdown", _close_all)  # type: ignore[arg-type]
