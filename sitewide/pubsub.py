"""Groups of sockets across processes: a message published to a group
reaches every listener of it in every process (rooms.publish, its rooms'
sockets).

A process subscribes once per group it serves, not once per socket
(`Fanout`): each message is read and decoded once and handed to every
listener of its group in the process in one turn of the loop, rather than
queued for each socket's consumer to wake, decode and send in turn.

With Redis (the channel layer's host and prefix, config.settings) the
messages go over Redis pub/sub directly (`encode`): what a loop publishes
while a publish is under way goes out together after it, in one round
trip (a pipeline), so a busy process's messages never queue one round
trip each. Without it (the in-memory channel layer: one process, the
embedded setup and tests) they go through channels' public layer API.

Both ends use redis-py's connections (REDIS_URL's TLS, AUTH and database,
its reconnects and resubscribes) but not its per-command layers in the
steady state: its retry wrapper, health check, observability hooks and
message dicts cost more Python a message than the message itself (issue
29: 5-7 % of a daphne each way at 200 rooms).
"""

import asyncio
import json
import logging
import math
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import redis.asyncio
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from redis.asyncio.connection import AbstractConnection

log = logging.getLogger(__name__)

# A message for a group: a dict of JSON values with its group's name as
# "group" (which tells a process's fan-out whose listeners it is for).
Message = dict[str, Any]
# What a socket's consumer is handed for each message of its group.
Listener = Callable[[Message], Awaitable[None]]
Deliver = Callable[[Message], Awaitable[None]]


def _redis_config() -> tuple[str, dict[str, Any], str] | None:
    """The Redis address, connection options and channel prefix of the
    channel layer's configuration, or None for the in-memory layer."""
    if isinstance(get_channel_layer(), InMemoryChannelLayer):
        return None
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    (host,) = config["hosts"]
    options = dict(host) if isinstance(host, dict) else {"address": host}
    address = options.pop("address")
    return address, options, config.get("prefix", "asgi")


async def stopped(task: asyncio.Task[None]) -> None:
    """Cancel `task` and wait until it ended. A cancel of the caller itself
    meanwhile still ends the caller (daphne's shutdown cancels each socket's
    consumer and waits for all of them: one that went on would hold the
    process up until it is killed)."""
    task.cancel()
    await asyncio.wait([task])


def encode(message: Message) -> str:
    """A message as sent over Redis: its fields as JSON but for its
    "text", already JSON as every socket sends it, after a newline (which
    no JSON from json.dumps holds) rather than escaped and unescaped again
    as a string inside it."""
    fields = {key: value for key, value in message.items() if key != "text"}
    head = json.dumps(fields)
    return head if "text" not in message else f"{head}\n{message['text']}"


def decode(data: bytes) -> Message:
    # Decoded whole (no UTF-8 sequence holds a newline's byte): json.loads
    # of a str skips its guess at the encoding of bytes.
    head, newline, text = data.decode().partition("\n")
    message = json.loads(head)
    if not isinstance(message, dict):
        raise ValueError(f"not a message: {head[:100]!r}")
    if newline:
        message["text"] = text
    return message


class Bus(Protocol):
    """How a process hears its groups."""

    async def subscribe(self, group: str) -> None: ...
    async def unsubscribe(self, group: str) -> None: ...
    async def close(self) -> None: ...


class RedisBus:
    """One pub/sub connection of the process's loop, its messages read as
    they come and handed to `deliver`. redis-py subscribes it again to
    its channels when it reconnects."""

    def __init__(self, config: tuple[str, dict[str, Any], str], deliver: Deliver):
        address, options, self.prefix = config
        self.client = redis.asyncio.Redis.from_url(address, **options)
        self.pubsub = self.client.pubsub(
            ignore_subscribe_messages=True, push_handler_func=_pushed
        )
        self.deliver = deliver
        self.reader: asyncio.Task[None] | None = None

    async def subscribe(self, group: str) -> None:
        await self.pubsub.subscribe(self.prefix + group)
        if self.reader is None:
            self.reader = asyncio.create_task(self._read())

    async def unsubscribe(self, group: str) -> None:
        await self.pubsub.unsubscribe(self.prefix + group)

    async def close(self) -> None:
        if self.reader is not None:
            await stopped(self.reader)
        await self.pubsub.aclose()
        await self.client.aclose()

    async def _read(self) -> None:
        while True:
            try:
                # redis-py's own read, which connects again (and subscribes
                # again) if the connection dropped. No timeout: the
                # connection's keepalive (sitewide.connections) ends a read
                # from a peer gone silent.
                message = await self.pubsub.get_message(timeout=None)
            except Exception:
                # Redis is out of reach: redis-py connects again on the next
                # read. What was published meanwhile is lost; the clients
                # see the gap in versions on their next event or ping.
                log.warning("lost the groups' subscription", exc_info=True)
                await asyncio.sleep(1)
                continue
            if message is not None and message["type"] == "message":
                await self._hand_on(message["data"])
            await self._read_fast()

    async def _read_fast(self) -> None:
        """Read replies straight off the subscribed connection until a read
        fails, then drop the connection: `_read` goes back to redis-py's
        read, which connects again (and subscribes again) or says why not.

        `get_message` wraps each reply in a retry, a health check, timing
        and pub/sub counters for observability and a dict; here a message is
        handed on as read, and each reply already buffered is read without
        waiting on the socket. This uses what `PubSub.parse_response` itself
        calls (its `connection` and `Connection.read_response`, whose
        `math.inf` timeout is redis-py's documented "block, no
        socket_timeout" for pub/sub reads), so any other reply (the
        confirmations of subscribe and unsubscribe, which keep its channels
        right for resubscribing, a pong) still goes through its
        `handle_message`. Its health check is left out: it would PING
        before a read that starts 15 s after the previous read ended, and
        here (as in `_read` before) each read starts as the last ends."""
        connection = self.pubsub.connection
        assert connection is not None  # subscribed before the reader starts
        while True:
            try:
                reply = await connection.read_response(
                    timeout=math.inf, disconnect_on_error=False, push_request=True
                )
            except Exception:
                reply = None
            if reply is None:
                # No reply is a failed read too: redis-py takes the socket's
                # own timeout (keepalive or TCP_USER_TIMEOUT giving up on a
                # cut link: ETIMEDOUT, a TimeoutError) for the end of a read
                # timeout asked for, and answers None, at once, to that read
                # and every later one on the dead socket. Kept, the
                # connection would have this loop (and redis-py's own read
                # until its next health check) spin without ever yielding to
                # the event loop: the process would answer nothing.
                await connection.disconnect(nowait=True)
                return
            if isinstance(reply, list) and reply[0] == b"message":
                await self._hand_on(reply[2])
                continue
            message = await self.pubsub.handle_message(reply)
            if message is not None and message["type"] == "message":
                await self._hand_on(message["data"])

    async def _hand_on(self, data: bytes) -> None:
        """`data` decoded, to `deliver`. What is not a message (a PUBLISH
        typed by hand on a group's channel) is logged and dropped: raised,
        it would end the reader, and the process would hear none of its
        groups again."""
        try:
            message = decode(data)
        except ValueError:
            log.warning("dropped what is not a message: %r", data[:100])
            return
        await self.deliver(message)


async def _pushed(reply: Any) -> Any:
    """A pub/sub reply over RESP3 (a push, redis-py's default protocol), as
    read: redis-py's default handler of pushes logs each at debug level,
    formatting the whole message whether or not the level is on."""
    return reply


class LayerBus:
    """The channel layer's groups, on one channel of the process's loop."""

    def __init__(self, layer: Any, deliver: Deliver) -> None:
        self.layer = layer
        self.deliver = deliver
        self.channel: str | None = None
        self.receiver: asyncio.Task[None] | None = None

    async def subscribe(self, group: str) -> None:
        if self.channel is None:
            self.channel = await self.layer.new_channel()
            self.receiver = asyncio.create_task(self._receive(self.channel))
        await self.layer.group_add(group, self.channel)

    async def unsubscribe(self, group: str) -> None:
        await self.layer.group_discard(group, self.channel)

    async def close(self) -> None:
        # The layer lets go of the channel when its receive is cancelled.
        if self.receiver is not None:
            await stopped(self.receiver)

    async def _receive(self, channel: str) -> None:
        while True:
            await self.deliver(await self.layer.receive(channel))


class Fanout:
    """One process's subscriptions to groups, shared by its sockets: a
    group is subscribed once while any socket of the process listens to
    it, and each of its messages is handed to every listener in turn (a
    listener writes to its socket and waits on nothing else, so one
    message reaches all of them in one turn of the loop)."""

    def __init__(self) -> None:
        self.listeners: dict[str, dict[object, Listener]] = {}
        # Joins and leaves one at a time: a group's first join must have
        # subscribed before any of its sockets reads the state.
        self.lock = asyncio.Lock()
        self.bus: Bus | None = None

    async def join(self, group: str, key: object, listener: Listener) -> None:
        """Hand `listener` every message of `group` from now on (the group
        is subscribed when this returns), until `leave(group, key)`."""
        async with self.lock:
            if self.bus is None:
                config = _redis_config()
                self.bus = (
                    LayerBus(get_channel_layer(), self._deliver)
                    if config is None
                    else RedisBus(config, self._deliver)
                )
            if group not in self.listeners:
                await self.bus.subscribe(group)
                self.listeners[group] = {}
            self.listeners[group][key] = listener

    async def leave(self, group: str, key: object) -> None:
        async with self.lock:
            listeners = self.listeners.get(group, {})
            if listeners.pop(key, None) is None or listeners:
                return
            del self.listeners[group]
            assert self.bus is not None
            try:
                await self.bus.unsubscribe(group)
            except Exception:
                # Redis is out of reach: the group's messages, if any
                # still come, find no listener here.
                log.warning("could not leave %s", group, exc_info=True)
            if not self.listeners:
                # Nothing left to hear: the subscription goes too.
                bus, self.bus = self.bus, None
                await bus.close()

    async def _deliver(self, message: Message) -> None:
        for listener in list(self.listeners.get(message.get("group", ""), {}).values()):
            try:
                await listener(message)
            except Exception:
                log.exception("a listener of %s failed", message["group"])


def _this_loops[T](
    kept: dict[asyncio.AbstractEventLoop, T], make: Callable[[], T]
) -> T:
    """The running loop's entry of `kept`, made on first use (the entries
    of loops closed since are dropped then: a test runs many loops)."""
    loop = asyncio.get_running_loop()
    found = kept.get(loop)
    if found is None:
        for old in [old for old in kept if old.is_closed()]:
            del kept[old]
        found = kept[loop] = make()
    return found


_fanouts: dict[asyncio.AbstractEventLoop, Fanout] = {}


def fanout() -> Fanout:
    """The running loop's fan-out."""
    return _this_loops(_fanouts, Fanout)


class Publisher:
    """A loop's messages to Redis: one publish at a time, and what comes
    meanwhile goes out together after it, in order, on a connection of
    its own."""

    def __init__(self, config: tuple[str, dict[str, Any], str]) -> None:
        address, options, self.prefix = config
        self.connection = _connection(address, options)
        self.waiting: list[tuple[list[Message], asyncio.Future[None]]] = []
        self.sender: asyncio.Task[None] | None = None

    async def publish(self, messages: list[Message]) -> None:
        done = asyncio.get_running_loop().create_future()
        self.waiting.append((messages, done))
        if self.sender is None:
            self.sender = asyncio.create_task(self._send())
        await done

    async def _send(self) -> None:
        while self.waiting:
            batch, self.waiting = self.waiting, []
            try:
                await _publish_on(
                    self.connection, self.prefix, [m for ms, _ in batch for m in ms]
                )
            except Exception as error:
                for _, done in batch:
                    done.set_exception(error)
            else:
                for _, done in batch:
                    done.set_result(None)
        self.sender = None


def _connection(address: str, options: dict[str, Any]) -> AbstractConnection:
    """A connection to Redis as redis-py's pool makes it from the URL (TLS,
    AUTH, database, timeouts), connected on first use."""
    return redis.asyncio.ConnectionPool.from_url(address, **options).make_connection()


async def _publish_on(
    connection: AbstractConnection, prefix: str, messages: list[Message]
) -> None:
    """PUBLISH each message in one round trip: what a redis-py pipeline
    sends and reads, without its command stack, per-command response
    callbacks, retry wrapper (no retries: none is configured), pool
    checkout and observability hooks, which cost more than the round
    trip's own Python for a batch of a few messages."""
    packed = b"".join(_publish_command(prefix, message) for message in messages)
    # As redis-py's pool checks a connection before handing it out: one that
    # Redis closed meanwhile (a restart, CLIENT KILL) connects again rather
    # than failing this batch.
    if connection.is_connected and await connection.can_read():
        await connection.disconnect()
    try:
        await connection.send_packed_command(packed)
        for _ in messages:
            await connection.read_response()
    except BaseException:
        # Replies left unread would answer the next batch's commands.
        await connection.disconnect(nowait=True)
        raise


def _publish_command(prefix: str, message: Message) -> bytes:
    """PUBLISH of `message` to its group in Redis's protocol (RESP), as
    redis-py's `pack_command` writes it (UTF-8) in a fifth of the time."""
    channel = (prefix + message["group"]).encode()
    data = encode(message).encode()
    return b"*3\r\n$7\r\nPUBLISH\r\n$%d\r\n%b\r\n$%d\r\n%b\r\n" % (
        len(channel),
        channel,
        len(data),
        data,
    )


_publishers: dict[asyncio.AbstractEventLoop, Publisher] = {}


async def publish(messages: list[Message], *, once: bool = False) -> None:
    """Send `messages` to their groups (each its "group"), in order. A
    loop that publishes all along keeps a connection for it; `once`, from
    a loop made for the call, opens one and closes it again."""
    config = _redis_config()
    if config is None:
        layer = get_channel_layer()
        for message in messages:
            await layer.group_send(message["group"], message)
        return
    if once:
        address, options, prefix = config
        connection = _connection(address, options)
        try:
            await _publish_on(connection, prefix, messages)
        finally:
            await connection.disconnect()
        return
    await _this_loops(_publishers, lambda: Publisher(config)).publish(messages)
