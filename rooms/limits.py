"""What one person may open and ask of the servers, on top of each socket's
own message rate: sockets per player in a room, sockets per address, and
hints per player (docs/protocol.md, "Limits").

With REDIS_URL set (several daphne processes, maybe on several machines)
every process counts in Redis, so a player's fifth socket is refused
whichever process it reaches. Each socket is an entry that lives HOLD_S
unless the process holding it renews it (every RENEW_S): when a process
dies without closing its sockets, their entries lapse on their own rather
than counting against the player forever. Redis's own clock stamps them,
so machines whose clocks differ agree. Without Redis (the embedded setup,
one daphne process) the counts are kept in the process's memory.

Redis out of reach: the socket is let in, counted in its process only
(logged). The
channel layer is on the same Redis, so the room is not working anyway, and
refusing everyone would only add a second fault to the first.
"""

import asyncio
import itertools
import logging
import time
import uuid
import weakref
from collections import Counter
from collections.abc import Hashable

import redis.asyncio
from django.conf import settings
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

# A phone, a laptop and a reload whose old socket has not timed out yet.
SOCKETS_PER_SEAT = 4
# A household or a classroom behind one address, several sockets each.
SOCKETS_PER_ADDRESS = 32
# Hints search the whole pile: one every two seconds, a few in a row.
HINT_RATE, HINT_BURST = 0.5, 3

# How long a socket's entry in Redis lasts unless renewed, and how often its
# process renews the entries of the sockets it holds.
HOLD_S = 60
RENEW_S = 20

PREFIX = "tiles:limits:"


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

    def give_back(self) -> None:
        """Undo the last allow(): what it was for did not happen."""
        self.tokens = min(self.burst, self.tokens + 1)


class Buckets:
    """A TokenBucket per key (a player, a device), in this process's memory:
    a check that needs no round trip."""

    # Past this many keys the table starts afresh, so it stays small: at
    # worst a key gets a full bucket early.
    MAX_KEYS = 10_000

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.buckets: dict[Hashable, TokenBucket] = {}

    def allow(self, key: Hashable) -> bool:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.MAX_KEYS:
                self.buckets.clear()
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst)
        return bucket.allow()

    def give_back(self, key: Hashable) -> None:
        bucket = self.buckets.get(key)
        if bucket is not None:
            bucket.give_back()


class MemorySockets:
    """The sockets open in this process, by address and by seat."""

    def __init__(self) -> None:
        self.counts: Counter = Counter()

    async def take(self, key: str, limit: int) -> str | None:
        """Count one more socket under `key` unless `limit` are open: a
        ticket to give back on release, or None when refused."""
        if self.counts[key] >= limit:
            return None
        self.counts[key] += 1
        return key

    async def release(self, key: str, ticket: str) -> None:
        self.counts[key] -= 1
        if self.counts[key] <= 0:
            del self.counts[key]


# Drop the lapsed entries, then add this one if fewer than the limit remain.
# The key itself expires with its newest entry, so nothing is left behind.
TAKE = """
local now = tonumber(redis.call('TIME')[1])
local hold = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + hold, ARGV[1])
redis.call('EXPIRE', KEYS[1], hold)
return 1
"""

# Push back the end of each (KEYS[i], ARGV[i + 1]) entry that still exists
# and has not lapsed: a process cut off from Redis for longer than the hold
# must not bring back sockets the others have stopped counting (its pages
# have reconnected elsewhere meanwhile).
RENEW = """
local now = tonumber(redis.call('TIME')[1])
local hold = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('ZADD', key, 'XX', 'CH', now + hold, ARGV[i + 1]) == 1 then
    redis.call('EXPIRE', key, hold)
  end
end
return #KEYS
"""


class Clients:
    """One Redis client per event loop (a client is bound to the loop it
    first ran on; tests run each on a loop of their own)."""

    def __init__(self) -> None:
        self.clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def get(self) -> redis.asyncio.Redis:
        loop = asyncio.get_running_loop()
        client = self.clients.get(loop)
        if client is None:
            # A few connections, waited for when all are busy: a storm of
            # handshakes must not open a Redis connection each.
            pool = redis.asyncio.BlockingConnectionPool.from_url(
                settings.REDIS_URL, max_connections=4, timeout=5
            )
            client = self.clients[loop] = redis.asyncio.Redis(connection_pool=pool)
        return client


CLIENTS = Clients()


class RedisSockets:
    """The sockets open in every process, in Redis (see the module's doc).

    This process's own count comes first: when it alone holds `limit`
    sockets under a key (those being counted included), Redis would refuse
    too, so a storm of handshakes is refused here without a round trip."""

    def __init__(self) -> None:
        self.process = uuid.uuid4().hex[:12]
        self.serial = itertools.count()
        self.local: Counter = Counter()
        self.keys: dict[str, str] = {}  # ticket -> key, this process's sockets
        self.held: set[str] = set()  # the tickets counted in Redis
        self.renewers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    async def take(self, key: str, limit: int) -> str | None:
        if self.local[key] >= limit:
            return None
        self.local[key] += 1
        ticket = f"{self.process}:{next(self.serial)}"
        self.keys[ticket] = key
        try:
            client = CLIENTS.get()
            taken = await client.eval(TAKE, 1, PREFIX + key, ticket, limit, HOLD_S)
        except (RedisError, OSError) as error:
            log.warning("socket limit %s counted here only: %s", key, error)
            return ticket
        if not taken:
            await self.release(key, ticket)
            return None
        self.held.add(ticket)
        self._renew_on_this_loop()
        return ticket

    async def release(self, key: str, ticket: str) -> None:
        if self.keys.pop(ticket, None) is None:
            return
        self.local[key] -= 1
        if self.local[key] <= 0:
            del self.local[key]
        if ticket not in self.held:
            return  # never counted in Redis
        self.held.discard(ticket)
        try:
            await CLIENTS.get().zrem(PREFIX + key, ticket)
        except (RedisError, OSError) as error:
            log.warning("socket limit %s not released (lapses): %s", key, error)

    def _renew_on_this_loop(self) -> None:
        loop = asyncio.get_running_loop()
        task = self.renewers.get(loop)
        if task is None or task.done():
            self.renewers[loop] = loop.create_task(self._renew())

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(RENEW_S)
            await self.renew_once()

    async def renew_once(self) -> None:
        """Push back the end of this process's entries (those not lapsed)."""
        tickets = [t for t in self.held if t in self.keys]
        if not tickets:
            return
        keys = [PREFIX + self.keys[t] for t in tickets]
        try:
            await CLIENTS.get().eval(RENEW, len(keys), *keys, HOLD_S, *tickets)
        except (RedisError, OSError) as error:
            log.warning("socket limits not renewed: %s", error)


class MemoryHints:
    """One hint bucket per player, shared by all of their sockets here."""

    def __init__(self) -> None:
        self.local = Buckets(HINT_RATE, HINT_BURST)

    async def allow(self, player_id: int) -> bool:
        return self.local.allow(player_id)


# The same bucket as TokenBucket, kept as the time its next hint is free
# (GCRA): a hint is allowed while that time is at most burst - 1 intervals
# ahead of now. The key expires once the bucket is full again.
HINT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local free_at = math.max(tonumber(redis.call('GET', KEYS[1]) or now), now)
if free_at - now > (burst - 1) * interval then return 0 end
redis.call('SET', KEYS[1], free_at + interval, 'PX', free_at + interval - now)
return 1
"""


class RedisHints:
    """Hint buckets in Redis: a player's sockets on every process share one.

    This process's own bucket comes first: the one in Redis has counted at
    least the hints allowed here, so when this one is empty that one is too,
    and a flood of hints is refused with no round trip."""

    def __init__(self) -> None:
        self.local = Buckets(HINT_RATE, HINT_BURST)

    async def allow(self, player_id: int) -> bool:
        if not self.local.allow(player_id):
            return False
        interval_ms = round(1000 / HINT_RATE)
        key = f"{PREFIX}hints:{player_id}"
        try:
            client = CLIENTS.get()
            allowed = bool(await client.eval(HINT, 1, key, interval_ms, HINT_BURST))
        except (RedisError, OSError) as error:
            log.warning("hint limit not counted: %s", error)
            return True
        if not allowed:
            # Not a hint after all: this process's bucket counts only those.
            self.local.give_back(player_id)
        return allowed


class Shared:
    """The counts of this setup, chosen on first use (settings are read
    then, not at import)."""

    def __init__(self) -> None:
        self.sockets: MemorySockets | RedisSockets | None = None
        self.hints: MemoryHints | RedisHints | None = None

    def reset(self) -> None:
        """Forget this process's counts (tests): chosen afresh on next use."""
        self.sockets = self.hints = None

    def _choose(self) -> None:
        if settings.REDIS_URL:
            self.sockets, self.hints = RedisSockets(), RedisHints()
        else:
            self.sockets, self.hints = MemorySockets(), MemoryHints()

    async def take(self, key: str, limit: int) -> str | None:
        if self.sockets is None:
            self._choose()
        assert self.sockets is not None
        return await self.sockets.take(key, limit)

    async def release(self, key: str, ticket: str) -> None:
        assert self.sockets is not None
        await self.sockets.release(key, ticket)

    async def allow_hint(self, player_id: int) -> bool:
        if self.hints is None:
            self._choose()
        assert self.hints is not None
        return await self.hints.allow(player_id)


LIMITS = Shared()


def seat_key(code: str, player_id: int) -> str:
    return f"seat:{code}:{player_id}"


def address_key(address: str) -> str:
    return f"address:{address}"


class AddressLimit:
    """ASGI middleware: a websocket handshake from an address that has
    SOCKETS_PER_ADDRESS sockets open is refused (403) before anything else
    runs (session, database, channel layer): a storm of handshakes from one
    address costs one count each."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        client = scope.get("client")
        key = address_key(client[0]) if client else None
        ticket = None
        if key is not None:
            ticket = await LIMITS.take(key, SOCKETS_PER_ADDRESS)
            if ticket is None:
                # Closed before it is accepted: daphne answers 403. No
                # consumer is made, so not even the channel layer hears of it.
                if (await receive())["type"] == "websocket.connect":
                    await send({"type": "websocket.close"})
                return None
        try:
            return await self.application(scope, receive, send)
        finally:
            if key is not None and ticket is not None:
                await LIMITS.release(key, ticket)
