"""daphne as Tiles runs it: `python -m sitewide.serve` takes daphne's own
arguments (`python -m sitewide.serve -b 127.0.0.1 -p 8000 config.asgi:application`).

One thing daphne has no option for: its websockets are built with
autobahn's default `failByDrop`, which answers a frame too big, invalid
UTF-8 or an unmasked client frame by resetting the TCP connection, and the
page cannot tell that from a network failure. With it off autobahn sends
the close frame RFC 6455 gives each case (1009, 1007, 1002). daphne's
command line takes its server class as a class attribute, and its server
a `ready_callable` once its websocket factory is made: the option is set
there, through autobahn's public setProtocolOptions. The sizes are daphne's
own options. tests/test_ws_frames.py fails if a daphne upgrade changes
any of this.

Its `ready_callable` also arranges the stop of sitewide.restart_close, and
names the websocket protocol its factory builds (`TilesWebSocketProtocol`,
through twisted's `Factory.protocol`).
"""

import sys
from typing import Any

from daphne.cli import CommandLineInterface
from daphne.server import Server
from daphne.ws_protocol import WebSocketProtocol
from twisted.internet import tcp

from sitewide.restart_close import close_sockets_on_stop

# No message of docs/protocol.md comes near this; daphne's default is 1 MiB,
# which a socket may be made to buffer for nothing.
MAX_FRAME_BYTES = 64 * 1024


class TilesWebSocketProtocol(WebSocketProtocol):
    """daphne's websocket, less a cost autobahn adds to every frame it
    writes at once: the arguments of a debug line (the method's qualified
    name and the peer, coloured through click), worked out before its
    logger finds debug off, and a room's event is a frame to every socket
    of the room. Such a frame is written as autobahn writes it; any other
    case (a queue of frames, chopping, octet logging, a socket not open)
    is autobahn's own. The frame then goes to the socket at once
    (`write_now`)."""

    def sendData(
        self, data: bytes, sync: bool = False, chopsize: int | None = None
    ) -> None:
        if (
            sync
            or chopsize
            or self.send_queue
            or self.logOctets
            or self.state != self.STATE_OPEN
        ):
            super().sendData(data, sync, chopsize)
            return
        write_now(self.transport, data)
        self.trafficStats.outgoingOctetsWireLevel += len(data)


def write_now(transport: Any, data: bytes) -> None:
    """Write `data` to a TCP connection with nothing else waiting to go,
    straight to its socket, and buffer with twisted whatever the socket
    did not take. twisted's `write` only buffers and registers the socket
    for writing: each frame cost two epoll changes and a turn of the loop
    before its send, twice the system calls of the send itself, and a
    room's event is a frame to each of its sockets. Anything else (a
    buffer not yet flushed, a closing connection, TLS) is twisted's own
    `write`, which also reports a connection lost on the send."""
    if (
        isinstance(transport, tcp.Connection)
        and transport.connected
        and not transport.disconnecting
        and not transport.dataBuffer
        # Private, but the one place twisted keeps what `write` has queued
        # since the last flush: a frame must never jump ahead of it.
        and not transport._tempDataBuffer
    ):
        sent = transport.writeSomeData(data)
        if isinstance(sent, int):
            data = data[sent:]
    if data:
        transport.write(data)


class TilesServer(Server):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["websocket_max_frame_size"] = MAX_FRAME_BYTES
        kwargs["websocket_max_message_size"] = MAX_FRAME_BYTES
        super().__init__(*args, ready_callable=self._ready, **kwargs)

    def _ready(self) -> None:
        self.ws_factory.setProtocolOptions(failByDrop=False)
        # Read as each socket is accepted: none is before the reactor runs.
        self.ws_factory.protocol = TilesWebSocketProtocol
        # A stop (SIGTERM) closes this server's sockets with 1012 first.
        close_sockets_on_stop(lambda: list(self.connections))


class TilesCommandLine(CommandLineInterface):
    server_class = TilesServer


def main(argv: list[str]) -> None:
    TilesCommandLine().run(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
