"""How daphne answers a broken websocket frame: with a close code.

daphne builds its autobahn factory with autobahn's default `failByDrop`,
which answers a frame too big, invalid UTF-8 or an unmasked client frame by
resetting the TCP connection: the page cannot tell that from a network
failure. With it off, autobahn sends the close frame RFC 6455 gives each
case (1009, 1007, 1002). daphne offers no option for it, so its factory
class is swapped for one that adds ours to the options daphne sets.
"""

from pprint import pformat

from autobahn.websocket import protocol as autobahn_protocol
from daphne import server
from daphne.ws_protocol import WebSocketFactory

# No message of docs/protocol.md comes near this; daphne's default is 1 MiB,
# which a socket may be made to buffer for nothing.
MAX_FRAME_BYTES = 64 * 1024


class ClosingWebSocketFactory(WebSocketFactory):
    def setProtocolOptions(self, **options) -> None:
        options.update(
            failByDrop=False,
            maxFramePayloadSize=MAX_FRAME_BYTES,
            maxMessagePayloadSize=MAX_FRAME_BYTES,
        )
        super().setProtocolOptions(**options)


def close_broken_frames() -> None:
    """Make the daphne of this process close on broken frames; call it
    before daphne starts its server (config.asgi is imported first)."""
    server.WebSocketFactory = ClosingWebSocketFactory


class _Formatted:
    """pformat(value), worked out only when the line is written."""

    def __init__(self, value: object) -> None:
        self.value = value

    def __str__(self) -> str:
        return pformat(self.value)


def lighter_handshakes() -> None:
    """autobahn pretty-prints every new socket's 29 options for a debug line
    (`pformat` before the logger is even asked), about 1 ms of the event
    loop's time per handshake and a third of what a refused one costs: a
    storm of 300 handshakes from one member held every other socket of the
    process up for that long. The text is now made only if a debug line is
    actually written."""
    autobahn_protocol.pformat = _Formatted  # type: ignore[assignment]
