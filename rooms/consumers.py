"""The room websocket (docs/protocol.md): thin over rooms.actions.

A connection serves one seated player. It joins the room's group, sends the
player's seat and then either the events since the version the client
already has or a full state, and afterwards forwards every event published
for the room. Each incoming message is checked (size, rate, shape) before it
reaches an action, and acts only for the connection's own seat.
"""

import asyncio
import contextvars
import functools
import json
import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from functools import cached_property
from urllib.parse import parse_qs

from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import InterfaceError, OperationalError, close_old_connections
from django.utils import translation
from django.utils.translation import gettext

from accounts.language import scope_language
from accounts.models import Player
from games.errors import ActionError
from monitoring import metrics
from rooms import actions, hints
from rooms.identity import player_for_scope
from rooms.limits import (
    HINT_RATE,
    LIMITS,
    SOCKETS_PER_SEAT,
    TokenBucket,
    seat_key,
)
from rooms.models import Member, Room
from rooms.protocol import MAX_MESSAGE_CHARS, BadMessage, validate
from rooms.publish import group_name
from rooms.state import full_state
from sitewide.numerals import local_digits
from sitewide.pubsub import fanout, stopped

log = logging.getLogger(__name__)

# Close codes (4000-4999 are the application's own).
CLOSE_NOT_MEMBER = 4403
CLOSE_FLOOD = 4429
CLOSE_LEFT = 4000
CLOSE_NO_ROOM = 4404
CLOSE_TOO_MANY = 4409


def _seat_of(code: str, scope: dict) -> tuple[Player, int] | None:
    player = player_for_scope(scope)
    if player is None:
        return None
    seat = (
        Member.objects.filter(room__in=Room.objects.open(), room__code=code)
        .filter(player=player)
        .values_list("seat", flat=True)
        .first()
    )
    return None if seat is None else (player, seat)


# Hints read the room and then wait for the engine's search in the hint
# process (rooms.hints): they get threads of their own so moves never wait
# behind them.
HINT_THREADS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="room-hint")


def _in_language[R](language: str | None, call: Callable[[], R]) -> R:
    # Run in a copy of the caller's context, which carries its context
    # variables as they are (rooms.publish's loop) but not the language:
    # asgiref's Local, where Django keeps it, tags a value with the thread
    # that set it and shows no other thread the loop's. asgiref's own hops
    # re-home such values with a helper of theirs, private; the language is
    # the one Local the actions read that the caller sets, so it is set again
    # here. In the copy, dropped after the call: nothing stays on the thread.
    translation.activate(language)
    return call()


def _thread_handler[R](
    context: contextvars.Context, language: str | None, call: Callable[[], R]
) -> R:
    # As channels' database_sync_to_async: a connection broken or too old
    # (by its last use, on this thread or before) is closed, and the next
    # query opens a new one; Django's connections are this thread's own.
    close_old_connections()
    try:
        return context.run(_in_language, language, call)
    finally:
        close_old_connections()


def in_thread[**P, R](
    fn: Callable[P, R], executor: Executor | None = None
) -> Callable[P, Awaitable[R]]:
    """Run `fn` on any worker thread (each with its own database connection)
    rather than the one thread channels gives sync code by default: actions
    are whole transactions of their own, so a process can run several at
    once instead of queueing every room's moves behind each other.

    What `database_sync_to_async(fn, thread_sensitive=False)` does for such
    a call, and no more: the loop's default executor (or `executor`), a
    copy of the caller's context (the loop to publish from, rooms.publish)
    with its language active, and Django's clean-up of connections around
    it. asgiref's SyncToAsync also built itself anew for every call,
    shielded the future, kept state for async_to_sync called back from the
    thread (nothing run here does: events go out through rooms.publish's
    hand-over) and copied the context back to the caller afterwards
    (nothing run here sets a variable the caller reads)."""

    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        context = contextvars.copy_context()
        language = translation.get_language()
        work = functools.partial(fn, *args, **kwargs)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            executor, _thread_handler, context, language, work
        )

    return call


# The scope's entry for the socket's own ASGI send, as the server handed it
# to `FramesOut`, outside every middleware.
FRAMES = "tiles.frames"


class FramesOut:
    """ASGI middleware, outermost for websockets: names the server's own
    send in the scope. A frame of text sent through it skips the wrappers
    of the middlewares inside (the session's, which saves only on an HTTP
    response; accounts.socket_outage's, which watches the handshake and
    the close), none of which does anything for one: a room's event is
    such a frame to every socket of the room."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        return await self.application({**scope, FRAMES: send}, receive, send)


class DirectFrames(AsyncJsonWebsocketConsumer):
    """A consumer whose frames of text go straight to the server's send
    (`FramesOut`); the handshake and the close still go through the
    middlewares. Without `FramesOut` (a test of the bare consumer) every
    message takes the usual way.

    It has no channel of the channel layer: the socket is its one source
    of messages, each dispatched in turn in the connection's task."""

    channel_layer_alias = None

    async def __call__(self, scope, receive, send) -> None:
        # channels' AsyncConsumer.__call__ without its await_many_dispatch,
        # which waits on several sources at once: for every message it made
        # a task of the receive and waited on it with asyncio.wait, 2.5 % of
        # a busy daphne's CPU. Dispatched in turn as there, each fully
        # before the next is received.
        self.scope = scope
        self.channel_layer = None
        self.base_send = send
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass

    @cached_property
    def frames(self):
        return self.scope.get(FRAMES, self.base_send)

    async def send(self, text_data=None, bytes_data=None, close=False) -> None:
        if text_data is None or bytes_data is not None or close:
            await super().send(text_data, bytes_data, close)
        else:
            await self.frames({"type": "websocket.send", "text": text_data})


# How often a connection looks for changes itself when the channel layer
# cannot carry them from other processes (the embedded setup).
WATCH_S = 0.25


def _room_version(code: str) -> int | None:
    return Room.objects.filter(code=code).values_list("version", flat=True).first()


def _open_room_version(code: str) -> int | None:
    rooms = Room.objects.open().filter(code=code)
    return rooms.values_list("version", flat=True).first()


# What `?since=` may be: ASCII digits only (str.isdigit() also takes "²" or
# "①", which int() refuses), and no more than a version can be.
SINCE = re.compile(r"[0-9]{1,16}")


def parse_since(raw: str) -> int | None:
    """The version a reconnecting client has, or None for a full state."""
    return int(raw) if SINCE.fullmatch(raw) else None


def _catch_up(code: str, since: int | None) -> dict:
    """The events after `since` when they are all kept, else a full state."""
    room, members, rnd, state = actions.snapshot(code)
    if since is not None and since <= room.version:
        events = actions.events_since(room, since)
        if events is not None:
            return {"type": "events", "events": events}
    return {"type": "state", **full_state(room, members, rnd, state)}


# Players of this process whose hint is being worked out.
HINTING: set[int] = set()
metrics.HINTS.set_function(HINTING.__len__)


def _hint(code: str, player) -> dict:
    found = actions.use_hint(code, player, hints.solve)
    return {
        "type": "hint",
        "pair": list(found.pair) if found.pair else None,
        "clearable": found.clearable,
    }


# Message type -> the action it calls with the connection's player and the
# message's fields.
ACTIONS: dict[str, Callable[..., Room]] = {
    "take": actions.take_pair,
    "undo": actions.undo,
    "shuffle": actions.shuffle,
    "stop": actions.stop_here,
    "pause": actions.pause,
    "resume": actions.resume,
    "end_now": actions.end_now,
    "start_game": actions.start_game,
    "deal": actions.deal_round,
    "add_bot": actions.add_bot,
    "remove_bot": actions.remove_bot,
    "remove": actions.remove_member,
    "lock": actions.lock_room,
    "leave": actions.leave,
}


class RoomConsumer(DirectFrames):
    # No channel of its own (`DirectFrames`): the room's messages come
    # through the process's fan-out (sitewide.pubsub.Fanout), one
    # subscription per room rather than a channel and a group membership
    # per socket.
    # A person sends a few messages a second at most; a page that reconnects
    # and syncs may burst.
    RATE, BURST = 8.0, 24
    # Messages refused for flooding before the connection is closed.
    MAX_STRIKES = 20
    closing = False  # set once this consumer closed or saw the socket go
    # Set while this socket's own leave runs: it closes as left, after its
    # ack, even when its seat's departure comes back first (`_room_message`).
    leaving = False
    early: list[dict] | None = None  # the room's messages before the state
    counted: tuple = ()  # this socket's (key, ticket) in limits.LIMITS

    async def connect(self) -> None:
        metrics.SOCKETS.labels("room").inc()
        self.code = self.scope["url_route"]["kwargs"]["code"].upper()
        found = await in_thread(_seat_of)(self.code, self.scope)
        if found is None:
            # Accepted first so the page sees the reason (a refused handshake
            # looks like a network failure, which it would retry forever).
            await self.accept()
            await self.close(code=CLOSE_NOT_MEMBER)
            return
        self.player, self.seat = found
        if not await self._count(seat_key(self.code, self.player.pk), SOCKETS_PER_SEAT):
            await self._refuse_too_many(
                gettext("you have %(count)s connections to this room already")
                % {"count": local_digits(SOCKETS_PER_SEAT)}
            )
            return
        hints.start()  # if not yet: it takes a second, hints run here meanwhile
        self.bucket = TokenBucket(self.RATE, self.BURST)
        self.strikes = 0
        self.version = 0  # the last version this connection has sent
        self.watcher = None
        # This socket in a Together room's state (whose drop counts).
        self.link = f"socket.{uuid.uuid4().hex}"
        # Join the group before reading the state: an event committed in
        # between is then heard rather than missed. The fan-out hands the
        # room's messages over as they come, so until the state has gone
        # they wait here (a socket says hello, then the state, then events).
        self.early = []
        self.fanout = fanout()
        await self.fanout.join(group_name(self.code), self, self._room_message)
        await self.accept()
        query = parse_qs(self.scope.get("query_string", b"").decode())
        since = query.get("since", [""])[0]
        await self.send_json({"type": "hello", "seat": self.seat, "t": _now_ms()})
        await self._send_catch_up(parse_since(since))
        early, self.early = self.early, None
        for message in early:
            await self._room_message(message)
        if isinstance(get_channel_layer(), InMemoryChannelLayer):
            # This layer does not cross processes, and the timer process
            # (bots, time limits) is another one: look for its changes here.
            self.watcher = asyncio.create_task(self._watch())
        # On the game screen again: in Together, their turns come back, and
        # this socket is the one whose drop counts.
        await in_thread(actions.open_connection)(self.code, self.player, self.link)

    async def send(self, text_data=None, bytes_data=None, close=False) -> None:
        # Events of the room may still be queued for this consumer after it
        # closed (a Leave's own events): daphne would log each one sent.
        if self.closing:
            return
        await super().send(text_data, bytes_data, close)

    async def close(self, code=None, reason=None) -> None:
        self.closing = True
        await super().close(code, reason)

    async def _count(self, key: str, limit: int) -> bool:
        ticket = await LIMITS.take(key, limit)
        if ticket is None:
            return False
        self.counted = (*self.counted, (key, ticket))
        return True

    async def _refuse_too_many(self, reason: str) -> None:
        # Accepted first so the page sees the reason, as for 4403.
        await self.accept()
        await self._error(None, "too_many_connections", reason)
        await self.close(code=CLOSE_TOO_MANY)

    async def websocket_connect(self, message) -> None:
        # Everything this consumer says to the person is in their page's
        # language, set here once for the socket: in the context of the
        # connection's task, where its every message is dispatched
        # (`DirectFrames`) and which each action's thread runs in a copy of
        # (`in_thread`). Set and unset around each message, as
        # translation.override, it cost 2 % of a busy daphne. (A room's
        # events come through `_room_message` instead: already encoded, they
        # say nothing in words.)
        translation.activate(self.language)
        try:
            await super().websocket_connect(message)
        except Exception:
            # An outage mid-handshake (accounts.socket_outage answers it): no
            # disconnect follows, so the sockets counted are given back here
            # or the seat would stay full once the service is back.
            metrics.SOCKETS.labels("room").dec()
            await self._give_back()
            await self._stop_listening()
            raise

    async def _stop_listening(self) -> None:
        if hasattr(self, "fanout"):
            await self.fanout.leave(group_name(self.code), self)

    async def _give_back(self) -> None:
        for key, ticket in self.counted:
            await LIMITS.release(key, ticket)
        self.counted = ()

    async def disconnect(self, code: int) -> None:
        metrics.SOCKETS.labels("room").dec()
        self.closing = True
        await self._give_back()
        if not hasattr(self, "bucket"):
            return  # refused at connect: it joined nothing
        if self.watcher is not None:
            await stopped(self.watcher)
        await self._stop_listening()
        # Gone from the game screen: in Together, skipped unless back soon
        # (a reload reconnects within the grace, and keeps the turn).
        await in_thread(actions.drop_connection)(self.code, self.player, self.link)

    @cached_property
    def language(self) -> str:
        # Its cookie and headers came with the handshake: the same all along.
        return scope_language(self.scope)

    async def dispatch(self, message: dict) -> None:
        # Channels closes stale database connections before every message it
        # dispatches, on its one sync thread: a thread hop for each frame a
        # player sends. This consumer reaches the database only from the
        # worker threads of `in_thread`, which closes them there, so the
        # frames skip the hop.
        if message["type"] == "websocket.receive":
            await self.websocket_receive(message)
        else:
            await super().dispatch(message)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(WATCH_S)
            latest = await in_thread(_room_version)(self.code)
            if latest is not None and latest > self.version:
                await self._send_catch_up(self.version)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if not self.bucket.allow():
            self.strikes += 1
            if self.strikes >= self.MAX_STRIKES:
                await self.close(code=CLOSE_FLOOD)
                return
            await self._error(
                None, "rate_limited", gettext("too many messages; slow down")
            )
            return
        if text_data is None:
            refusal = "send messages as text frames of JSON, not binary"
            await self._error(None, "bad_message", refusal)
            return
        if len(text_data) > MAX_MESSAGE_CHARS:
            limit = f"send JSON text of {MAX_MESSAGE_CHARS} characters at most"
            await self._error(None, "bad_message", limit)
            return
        try:
            message = json.loads(text_data)
        except ValueError:
            await self._error(None, "bad_message", "the message is not JSON")
            return
        try:
            kind, fields, ref = validate(message)
        except BadMessage as e:
            await self._error(e.ref, "bad_message", e.message)
            return
        try:
            await self._dispatch(kind, fields, ref)
        except ActionError as e:
            await self._error(ref, e.code, e.message, e.tile)
        except (InterfaceError, OperationalError):
            # The database was out of reach: a connection broken since its
            # last use (no health check runs first, see sitewide/env.py) or
            # PostgreSQL restarting. The action's transaction did not
            # commit, and Django closes that connection once the call ends,
            # so the socket stays and the player can simply try again.
            log.warning("room %s: %s failed on the database", self.code, kind)
            message = "the server could not save that; try again"
            await self._error(ref, "unavailable", message)

    @metrics.room_acks
    async def _dispatch(self, kind: str, fields: dict, ref) -> None:
        if kind == "ping":
            # The room's version rides on the pong: a client whose last
            # notification was dropped sees it is behind even while the
            # room is quiet, and syncs.
            latest = await in_thread(_room_version)(self.code)
            pong = {"type": "pong", "ref": ref, "t": _now_ms(), "v": latest}
            await self.send_json(pong)
        elif kind == "sync":
            await self._send_catch_up(fields["since"], ref)
        elif kind == "hint":
            await self._hint(ref)
        elif kind == "safety":
            safety = in_thread(actions.back_to_safety)
            room, found = await safety(self.code, self.player, **fields)
            answer = {
                "exact": found.exact,
                "clearable_now": found.clearable_now,
                "pairs_back": found.pairs_back,
            }
            await self.send_json(
                {"type": "ack", "ref": ref, "v": room.version, "safety": answer}
            )
        elif kind == "visible":
            away = not fields["visible"]
            seen = await in_thread(actions.set_away)(self.code, self.player, away)
            await self._ack(ref, seen.version if seen is not None else self.version)
        else:
            action = ACTIONS[kind]
            self.leaving = kind == "leave"
            try:
                room = await in_thread(action)(self.code, self.player, **fields)
            except BaseException:
                self.leaving = False  # refused: still seated
                raise
            await self._ack(ref, room.version)
            if kind == "leave":
                await self.close(code=CLOSE_LEFT)

    async def _hint(self, ref) -> None:
        """A hint, one at a time per player: a hint asked while the
        player's last one is still being searched is refused at once
        rather than queued, so nobody can line up the hint process."""
        player = self.player.pk
        if player in HINTING:
            message = gettext("your last hint is still being worked out")
            await self._error(ref, "rate_limited", message)
            return
        if not await LIMITS.allow_hint(player):
            every = f"{1 / HINT_RATE:g}"
            message = gettext(
                "one hint every %(every)s seconds at most; try again soon"
            ) % {"every": local_digits(every)}
            await self._error(ref, "rate_limited", message)
            return
        HINTING.add(player)
        try:
            reply = await in_thread(_hint, HINT_THREADS)(self.code, self.player)
        finally:
            HINTING.discard(player)
        await self.send_json({**reply, "ref": ref})

    async def _send_catch_up(self, since: int | None, ref=None) -> None:
        reply = await in_thread(_catch_up)(self.code, since)
        self._sent(reply)
        await self.send_json({**reply, "ref": ref, "t": _now_ms()})

    def _sent(self, reply: dict) -> None:
        if reply["type"] == "state":
            self.version = max(self.version, reply["version"])
        elif reply["events"]:
            self.version = max(self.version, reply["events"][-1]["v"])

    async def _ack(self, ref, version: int) -> None:
        # Written as json.dumps would write {"type": "ack", "ref", "v"}, but
        # without building the dict and encoding it whole: the reply to
        # every move.
        text = f'{{"type": "ack", "ref": {json.dumps(ref)}, "v": {version}}}'
        await self.send(text_data=text)

    async def _error(self, ref, code: str, message: str, tile=None) -> None:
        reply = {"type": "error", "ref": ref, "code": code, "message": message}
        if tile is not None:
            reply["tile"] = tile
        await self.send_json(reply)

    async def _room_message(self, message: dict) -> None:
        """A message of the room's group (rooms.publish), handed over by the
        process's fan-out (sitewide.pubsub): it writes to this socket and
        waits for nothing else, as the room's other sockets get it next."""
        if self.early is not None:
            self.early.append(message)  # connecting: after the state
        elif message["type"] == "room.events":
            if message["last"] <= self.version:
                return  # in the state or events this socket was sent
            # The events, already encoded: a frame of text (`DirectFrames`).
            self.version = message["last"]
            await self.send(text_data=message["text"])
        elif message["seat"] == self.seat and not (self.closing or self.leaving):
            # A seat left or was removed: its other sockets close as not
            # seated (the page then shows the join form, or that it was
            # removed). The socket that asked to leave closes once acked.
            await self.close(code=CLOSE_NOT_MEMBER)


# -- watchers ----------------------------------------------------------------

# How often a watcher's screen may change: a few times a second is plenty
# for a TV, and it bounds what any number of watchers cost.
WATCH_EVERY_S = 0.5


class WatchFeed:
    """The latest full state of one room as watchers see it, shared by every
    watcher of that room in this process.

    Watchers never join the room's group, so a move is published to the
    players alone whatever the audience. Instead, at most once every
    WATCH_EVERY_S, the first watcher to ask reads the room's version (one
    indexed row) and, only when it moved on, the full state, without the
    room's lock; every other watcher of the room gets that same encoded
    text. The state is read after its version, so it is never older than
    the version it is sent with, and a change caught halfway shows in full
    on the next read."""

    feeds: dict[str, "WatchFeed"] = {}

    def __init__(self, code: str) -> None:
        self.code = code
        self.watchers = 0
        self.lock = asyncio.Lock()
        self.read_at = -WATCH_EVERY_S
        self.version: int | None = None
        self.text = ""

    @classmethod
    def join(cls, code: str) -> "WatchFeed":
        feed = cls.feeds.setdefault(code, cls(code))
        feed.watchers += 1
        return feed

    def leave(self) -> None:
        self.watchers -= 1
        if not self.watchers:
            self.feeds.pop(self.code, None)

    async def latest(self) -> tuple[int | None, str]:
        async with self.lock:
            if time.monotonic() - self.read_at >= WATCH_EVERY_S:
                self.read_at = time.monotonic()
                version = await in_thread(_open_room_version)(self.code)
                if version is not None and version != self.version:
                    self.text = await in_thread(_watch_text)(self.code, version)
                self.version = version
            return self.version, self.text


def _watch_text(code: str, version: int) -> str:
    room, members, rnd, state = actions.read_state(code)
    body = full_state(room, members, rnd, state)
    return json.dumps({"type": "state", "watch": True, **body, "version": version})


class WatchConsumer(DirectFrames):
    """A seatless, read-only socket for a TV or laptop showing a room: it
    sends the room's full state whenever it changed (at most every
    WATCH_EVERY_S) and refuses every action."""

    async def connect(self) -> None:
        metrics.SOCKETS.labels("watch").inc()
        self.code = self.scope["url_route"]["kwargs"]["code"].upper()
        self.feed = WatchFeed.join(self.code)
        self.sent: int | None = None
        version, _ = await self.feed.latest()
        await self.accept()
        if version is None:
            await self.close(code=CLOSE_NO_ROOM)
            return
        self.bucket = TokenBucket(RoomConsumer.RATE, RoomConsumer.BURST)
        await self.send_json({"type": "hello", "seat": None, "t": _now_ms()})
        self.follower = asyncio.create_task(self._follow())

    async def disconnect(self, code: int) -> None:
        metrics.SOCKETS.labels("watch").dec()
        self.feed.leave()
        follower = getattr(self, "follower", None)
        if follower is not None:
            await stopped(follower)

    async def _follow(self) -> None:
        while True:
            version, text = await self.feed.latest()
            if version is None:
                await self.close(code=CLOSE_NO_ROOM)
                return
            if version != self.sent:
                self.sent = version
                await self.send(text_data=text)
            await asyncio.sleep(WATCH_EVERY_S)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if not self.bucket.allow():
            return  # a watcher has nothing to say; floods are dropped
        try:
            message = json.loads(text_data or "")
        except ValueError:
            message = None
        ref = message.get("ref") if isinstance(message, dict) else None
        if isinstance(message, dict) and message.get("type") == "ping":
            await self.send_json({"type": "pong", "ref": ref, "t": _now_ms()})
            return
        await self.send_json(
            {
                "type": "error",
                "ref": ref if isinstance(ref, (str, int)) else None,
                "code": "watching",
                "message": "watchers cannot act",
            }
        )


def _now_ms() -> int:
    return int(time.time() * 1000)
