"""Throttles on HTTP (django-ratelimit's counters) and the 429 they answer.

Each throttle counts requests in a fixed window per key (an address, a
player, a user name) in the shared cache (Redis in production, so every
daphne process counts together). Over its limit, a request is answered 429
with Retry-After and says when to try again, as JSON for the API and the
room actions, as a page otherwise; it does nothing else.

The rates are settings (THROTTLE_RATES), so a deployment can tune them and
tests can make them small.

With the cache out of reach a throttle lets the request through and logs a
line: refusing everyone would add a second fault to the first (the room
limits do the same, rooms.limits).
"""

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext, ngettext
from django_ratelimit import core
from redis.exceptions import RedisError

from accounts.devices import device_nonce, fold
from accounts.players import current_player
from sitewide.errors import wants_json
from sitewide.numerals import local_digits

log = logging.getLogger(__name__)
# Set on a request once the cache failed it: its other throttles skip it.
_CACHE_DOWN = "_tiles_throttles_down"

# A django-ratelimit key: one of its names ("ip") or (group, request) -> str.
Key = str | Callable[[str, HttpRequest], str]
BY_ADDRESS = "ip"


def by_player(group: str, request: HttpRequest) -> str:
    return str(current_player(request).pk)


def by_user(group: str, request: HttpRequest) -> str:
    return str(request.user.pk)


def by_account_and_device(group: str, request: HttpRequest) -> str:
    """The account tried (its name folded, so "Ana" and "ana " count as
    one), with this device's known-device nonce for it, or "?" for every
    device the account does not know (accounts.devices)."""
    username = request.POST.get("username", "")
    return f"{fold(username)}\n{device_nonce(request, username) or '?'}"


def sign_in_refused(request: HttpRequest) -> str:
    """What a refused sign-in says about devices."""
    if device_nonce(request, request.POST.get("username", "")) is not None:
        return gettext(
            "This device typed too many wrong passwords for this account: it"
            " waits, and other devices are not held up."
        )
    return gettext(
        "Too many wrong passwords were typed for this account on devices that"
        " have not signed in to it before, so they wait, this one too. A"
        " device that has signed in to this account before still signs in at"
        " once."
    )


@dataclass(frozen=True)
class Throttle:
    """One limit: `group` names its rate in THROTTLE_RATES; `explain`, if
    given, says more on the 429 about why this request waits."""

    group: str
    key: Key
    explain: Callable[[HttpRequest], str] | None = None

    def _usage(self, request: HttpRequest, count: bool) -> dict | None:
        if getattr(request, _CACHE_DOWN, False):
            return None  # one wait for a hung cache a request is enough
        rate = settings.THROTTLE_RATES[self.group]
        try:
            return core.get_usage(
                request, self.group, key=self.key, rate=rate, increment=count
            )
        except (RedisError, OSError) as error:
            log.warning("throttle %s not counted (fails open): %s", self.group, error)
            setattr(request, _CACHE_DOWN, True)
            return None

    def wait_s(self, request: HttpRequest, count: bool = True) -> int | None:
        """Seconds until the window ends when over the limit, else None;
        `count` adds this request to the window first."""
        usage = self._usage(request, count)
        if usage is None:
            return None
        # Counted, this request is refused past the limit; only looked at
        # (a miss counts later), once the limit is reached.
        used = usage["count"] if count else usage["count"] + 1
        if used <= usage["limit"]:
            return None
        return max(1, math.ceil(usage["time_left"]))

    def hit(self, request: HttpRequest) -> None:
        """Count a request that only counts after the fact (a wrong code)."""
        self._usage(request, True)


def too_many(request: HttpRequest, wait_s: int, explained: str = "") -> HttpResponse:
    """The 429: what was refused and when to try again."""
    minutes = math.ceil(wait_s / 60)
    if wait_s < 120:
        message = ngettext(
            "Too many tries: try again in %(n)s second.",
            "Too many tries: try again in %(n)s seconds.",
            wait_s,
        ) % {"n": local_digits(wait_s)}
    else:
        message = ngettext(
            "Too many tries: try again in %(n)s minute.",
            "Too many tries: try again in %(n)s minutes.",
            minutes,
        ) % {"n": local_digits(minutes)}
    if wants_json(request):
        body = {"error": "throttled", "message": message, "retry_after": wait_s}
        if explained:
            body["explained"] = explained
        response = JsonResponse(body, status=429)
    else:
        context = {"message": message, "retry_after": wait_s, "explained": explained}
        response = render(request, "429.html", context, status=429)
    response["Retry-After"] = str(wait_s)
    return response


def throttled(*throttles: Throttle, methods: tuple[str, ...] = ("POST",)):
    """A view whose `methods` requests count against every throttle given;
    over any of them it answers 429 and the view does not run."""

    def decorate(view):
        @wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs):
            if request.method in methods:
                refused = [
                    (w, t) for t in throttles if (w := t.wait_s(request)) is not None
                ]
                if refused:
                    wait, throttle = max(refused, key=lambda r: r[0])
                    explain = throttle.explain
                    return too_many(request, wait, explain(request) if explain else "")
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


# Wrong room codes from one address (watching or joining): only a miss
# counts (`hit`), so people who type the right code are never held up.
CODE_GUESSES = Throttle("code_guess", BY_ADDRESS)


def guess_refused(request: HttpRequest) -> HttpResponse | None:
    """The 429 for an address that guessed too many wrong codes, or None."""
    wait = CODE_GUESSES.wait_s(request, count=False)
    return None if wait is None else too_many(request, wait)


# Sign-in (the site's and the admin's share the counts, so alternating
# gains nothing): per account tried and known device (or per account for
# every unknown device), and per address.
SIGN_IN = (
    Throttle("sign_in_name", by_account_and_device, sign_in_refused),
    Throttle("sign_in", BY_ADDRESS),
)
