"""A storm of websocket handshakes, refused at the door.

Past the door, a room socket's handshake costs daphne about 5 ms of its
event loop (autobahn's handshake, an application instance, the origin and
address checks, the session, the database lookup of the seat, and for one
too many an accept, a reason and a close), during which every other socket
of the process waits: 300 handshakes from one member held the room's other
players up by a third of a second (bench/room_sockets.py). The door, in
daphne's HTTP request before any of that, answers 429 with Retry-After
(about 0.25 ms) to a handshake

- from an address that already holds SOCKETS_PER_ADDRESS sockets in this
  process (the count rooms.limits.AddressLimit keeps; the count across
  processes, in Redis, stays AddressLimit's), or
- from a device (the same cookies and address) that has opened more than
  HANDSHAKE_BURST sockets to the same path in a row: a person's tabs and
  reloads stay under it, and one too many still reaches the consumer to be
  told why (4409).

daphne offers no hook for it, so its request class is swapped for one that
looks first.
"""

from daphne import http_protocol
from daphne.utils import parse_x_forwarded_for
from django.conf import settings

from accounts.players import GUEST_COOKIE
from rooms.limits import HANDSHAKES, LIMITS, SOCKETS_PER_ADDRESS, address_key

# Long enough for a socket of the address to close or a bucket to refill;
# the page's own backoff waits longer anyway.
RETRY_AFTER_S = 10


class DoorRequest(http_protocol.WebRequest):
    def process(self):
        host = self._websocket_client_host()
        if host is not None and not self._welcome(host):
            self._too_many()
            return None
        return super().process()

    def _welcome(self, host: str) -> bool:
        if LIMITS.full_here(address_key(host), SOCKETS_PER_ADDRESS):
            return False
        # Twisted parsed the cookies already; the seat they name would need
        # the database, so the device is told apart by its credentials.
        device = (
            host,
            self.path,
            self.getCookie(GUEST_COOKIE.encode()),
            self.getCookie(settings.SESSION_COOKIE_NAME.encode()),
        )
        return HANDSHAKES.allow(device)

    def _websocket_client_host(self) -> str | None:
        """The client's address as daphne will put it in the scope (behind
        a proxy, from its header), if this is a websocket handshake."""
        upgrade = self.requestHeaders.getRawHeaders(b"upgrade", [b""])[0]
        if upgrade.lower() != b"websocket" or not hasattr(self.client, "host"):
            return None
        client = [str(self.client.host), self.client.port]
        server = self.channel.factory.server
        if server.proxy_forwarded_address_header:
            client, _ = parse_x_forwarded_for(
                self.requestHeaders,
                server.proxy_forwarded_address_header,
                server.proxy_forwarded_port_header,
                server.proxy_forwarded_proto_header,
                client,
                "http",
            )
        return str(client[0]) if client else None

    def _too_many(self) -> None:
        self.setResponseCode(429, b"Too Many Requests")
        self.setHeader(b"content-type", b"text/plain; charset=utf-8")
        self.setHeader(b"retry-after", str(RETRY_AFTER_S).encode())
        # The connection goes too: a storm's sockets must not linger.
        self.setHeader(b"connection", b"close")
        self.write(b"too many connections\n")
        self.finish()


def refuse_storms_at_the_door() -> None:
    """Make the daphne of this process refuse storms before building their
    handshakes; call it before daphne starts (config.asgi is imported
    first). daphne's HTTP factory looks its request class up per connection."""
    http_protocol.WebRequest = DoorRequest  # type: ignore[misc]
