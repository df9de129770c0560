"""Error replies: the site's own pages, and JSON under the solo play API.

The API's views answer their own errors (games.api); these cover what
happens before or around them (an unknown address, a refused CSRF token, a
bug), so a script talking to the API always gets JSON back.

An outage (the database or Redis out of reach) is not a bug: whatever raised
it, in a view or in a middleware before it (the session, the account's
language), the reply is a 503 that says to try again, with Retry-After.
Nothing needs restarting afterwards: Django drops a database connection that
failed when the request ends, and redis-py reconnects on its next command.
"""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

API_PREFIX = "/play/api/"

# What a service out of reach raises, as Django sees it: psycopg's lost or
# refused connections (OperationalError, InterfaceError once closed),
# redis-py's, and a socket's own (channels_redis's reader).
OUTAGES = (
    OperationalError,
    InterfaceError,
    RedisConnectionError,
    RedisTimeoutError,
    ConnectionError,
)
# Seconds a client is asked to wait before trying again after a 503.
RETRY_AFTER_S = 15

PAGES = {
    400: ("bad_request", _("Bad request"), _("That request could not be read.")),
    403: ("forbidden", _("Not allowed"), _("You cannot do that here.")),
    404: ("not_found", _("Not found"), _("There is no page at this address.")),
    500: (
        "server_error",
        _("Something went wrong"),
        _("The server failed to answer. Try again in a moment."),
    ),
}


def answer(request: HttpRequest | None, status: int, detail: str = "") -> HttpResponse:
    code, title, message = PAGES[status]
    if request is not None and request.path.startswith(API_PREFIX):
        return JsonResponse(
            {"error": code, "message": detail or message}, status=status
        )
    # No request context for a 500: whatever failed may fail again in a
    # context processor; the page needs none.
    context = {"status": status, "title": title, "message": message}
    html = render_to_string("error.html", context, request if status < 500 else None)
    return HttpResponse(html, status=status)


def is_outage(error: BaseException | None) -> bool:
    """Whether `error`, or one it was raised from, is a service out of reach."""
    seen = 0
    while error is not None and seen < 8:
        if isinstance(error, OUTAGES):
            return True
        error, seen = error.__cause__ or error.__context__, seen + 1
    return False


def wants_json(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX) or (
        "application/json" in request.headers.get("Accept", "")
    )


def unavailable(request: HttpRequest) -> HttpResponse:
    """The 503 of an outage: try again in a moment, in the page's language.

    Rendered without the request's context processors (they read the
    session and the account, which may be what is out of reach); the
    language comes from the cookie or the browser when the account's could
    not be read."""
    language = getattr(request, "LANGUAGE_CODE", None) or (
        translation.get_language_from_request(request)
    )
    with translation.override(language):
        message = _(
            "The game's servers cannot reach their data just now. Wait a"
            " moment and try again."
        )
        if wants_json(request):
            body = {
                "error": "unavailable",
                "message": str(message),
                "retry_after": RETRY_AFTER_S,
            }
            response: HttpResponse = JsonResponse(body, status=503)
        else:
            context = {
                "message": message,
                "retry_after": RETRY_AFTER_S,
                # A page asked for is asked for again by the browser; a form
                # sent is not sent again behind the player's back.
                "reload": request.method in ("GET", "HEAD"),
            }
            response = HttpResponse(render_to_string("503.html", context), status=503)
    response["Retry-After"] = str(RETRY_AFTER_S)
    return response


def bad_request(request, exception=None) -> HttpResponse:
    return answer(request, 400)


def forbidden(request, exception=None) -> HttpResponse:
    return answer(request, 403)


def not_found(request, exception=None) -> HttpResponse:
    return answer(request, 404)


def server_error(request) -> HttpResponse:
    # Django calls this while handling the exception: it is sys.exception().
    if is_outage(sys.exception()):
        return unavailable(request)
    return answer(request, 500)


def csrf_failure(request, reason: str = "") -> HttpResponse:
    return answer(request, 403, "the CSRF token is missing or wrong; reload the page")
