"""What one person may open and ask of a daphne process, on top of each
socket's own message rate: sockets per player in a room, sockets per
address, and hints per player (docs/protocol.md, "Limits").

Counted in the process that holds the sockets: one member can no longer
make every event of a room go out hundreds of times, or keep the solver
busy from many sockets. Several daphne processes each count their own, so
the limits hold per process; a process that dies takes its counts with it
(nothing to clean up in a shared store).
"""

import time
from collections import Counter

# A phone, a laptop and a reload whose old socket has not timed out yet.
SOCKETS_PER_SEAT = 4
# A household or a classroom behind one address, several sockets each.
SOCKETS_PER_ADDRESS = 32
# Hints search the whole pile: one every two seconds, a few in a row.
HINT_RATE, HINT_BURST = 0.5, 3


class TokenBucket:
    """`rate` requests a second on average, bursts of up to `burst`."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class SocketCounts:
    """The sockets open in this process, by address and by seat."""

    def __init__(self) -> None:
        self.counts: Counter = Counter()

    def take(self, key: tuple, limit: int) -> bool:
        """Count one more socket under `key`, unless `limit` are open."""
        if self.counts[key] >= limit:
            return False
        self.counts[key] += 1
        return True

    def release(self, key: tuple) -> None:
        self.counts[key] -= 1
        if self.counts[key] <= 0:
            del self.counts[key]


class HintBuckets:
    """One hint bucket per player, shared by all of their sockets here."""

    def __init__(self) -> None:
        self.buckets: dict[int, TokenBucket] = {}

    def allow(self, player_id: int) -> bool:
        bucket = self.buckets.get(player_id)
        if bucket is None:
            # Forget full buckets now and then, so the table stays small.
            if len(self.buckets) > 10_000:
                self.buckets.clear()
            bucket = self.buckets[player_id] = TokenBucket(HINT_RATE, HINT_BURST)
        return bucket.allow()


SOCKETS = SocketCounts()


class AddressLimit:
    """ASGI middleware: a websocket handshake from an address that has
    SOCKETS_PER_ADDRESS sockets open here is refused (403) before anything
    else runs (session, database, channel layer): a storm of handshakes
    from one address costs a dict lookup each."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        client = scope.get("client")
        key = ("address", client[0]) if client else None
        if key is not None and not SOCKETS.take(key, SOCKETS_PER_ADDRESS):
            # Closed before it is accepted: daphne answers 403. No consumer
            # is made, so not even the channel layer hears of it.
            if (await receive())["type"] == "websocket.connect":
                await send({"type": "websocket.close"})
            return None
        try:
            return await self.application(scope, receive, send)
        finally:
            if key is not None:
                SOCKETS.release(key)


HINTS = HintBuckets()
