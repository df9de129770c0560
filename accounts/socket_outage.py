"""An outage during a websocket's handshake: "try again", not HTTP 500.

A room socket's handshake reads the session and the seat from the database
and joins the room's group on Redis. With either out of reach, the error
would reach daphne, which answers the handshake 500: to the page that looks
like any network failure, with no word of what is wrong. Here the socket is
accepted and closed with CLOSE_TRY_AGAIN and a message in the page's
language; the page says the server is busy and reconnects with its usual
back-off until the service is back (static/js/rooms/connection.js).
"""

import json
import logging

from django.http import parse_cookie
from django.utils import translation
from django.utils.translation import gettext

from accounts.language import scope_language
from sitewide.errors import is_outage

log = logging.getLogger(__name__)

# 4000-4999 are the application's own close codes: 4503 as HTTP's 503.
CLOSE_TRY_AGAIN = 4503


def _language(scope: dict) -> str:
    # Outside channels' cookie middleware: the cookies are read here.
    headers = dict(scope.get("headers") or [])
    cookies = parse_cookie(headers.get(b"cookie", b"").decode("latin-1"))
    return scope_language({**scope, "cookies": cookies})


class SocketOutage:
    """ASGI middleware for websockets (see the module's doc)."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send) -> None:
        seen: set[str] = set()  # the message types received and sent so far

        async def receiving():
            message = await receive()
            seen.add(message["type"])
            return message

        async def sending(message):
            seen.add(message["type"])
            await send(message)

        try:
            await self.application(scope, receiving, sending)
        except Exception as error:
            if not is_outage(error):
                raise
            log.warning("socket %s: told to try again: %r", scope.get("path"), error)
            if {"websocket.close", "websocket.disconnect"} & seen:
                return  # the socket is gone already
            if "websocket.connect" not in seen:
                await receive()  # the handshake, not yet read
            if "websocket.accept" not in seen:
                # Accepted so the page gets the code and the reason (a
                # refused handshake looks like the network's failure).
                await send({"type": "websocket.accept"})
            with translation.override(_language(scope)):
                text = gettext(
                    "The server cannot reach its data just now: trying again."
                )
            reply = {"type": "error", "code": "unavailable", "message": text}
            await send({"type": "websocket.send", "text": json.dumps(reply)})
            await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN})
