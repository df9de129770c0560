"""Known devices: a browser that signed in to an account keeps a signed
cookie naming that account, so strangers cannot lock its owner out.

OWASP's "device cookies" scheme: sign-in attempts for an account are
counted per device that has signed in to it before (its cookie's nonce),
and in one bucket for every other device. Wrong passwords from anywhere
else fill only that other bucket: the owner's known device still signs in
at once, and a known device that itself tries too many wrong passwords is
held back on its own (accounts.throttle.SIGN_IN).

One cookie holds the accounts the device signed in to (a family's shared
tablet signs in as several), newest first, signed with the site's key so
it cannot be made up; each sign-in gives its account a fresh nonce.
"""

import secrets

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse

DEVICE_COOKIE = "tiles_device"
DEVICE_COOKIE_SALT = "accounts.device"
DEVICE_COOKIE_AGE = 60 * 60 * 24 * 365
# Accounts one device is known for; the oldest is forgotten past this.
MAX_ACCOUNTS = 5
# Set on the request by a sign-in (accounts.sign_ins): the account to add.
_SIGNED_IN = "_tiles_signed_in_as"


def fold(username: str) -> str:
    """A user name as the sign-in throttles count it: "Ana" and "ana " are
    one account to them."""
    return username.strip().casefold()[:150]


def _entries(request: HttpRequest) -> list[tuple[str, str]]:
    """(folded user name, nonce) pairs of this device's genuine cookie."""
    value = request.COOKIES.get(DEVICE_COOKIE)
    if not value:
        return []
    try:
        entries = signing.loads(
            value, salt=DEVICE_COOKIE_SALT, max_age=DEVICE_COOKIE_AGE
        )
    except signing.BadSignature:
        return []
    if not isinstance(entries, list):
        return []
    return [
        (name, nonce)
        for entry in entries[:MAX_ACCOUNTS]
        if isinstance(entry, list)
        and len(entry) == 2
        and all(isinstance(part, str) for part in entry)
        for name, nonce in [entry]
    ]


def device_nonce(request: HttpRequest, username: str) -> str | None:
    """This device's nonce for the account `username` names, if it signed
    in to it before; None for a device the account does not know."""
    name = fold(username)
    return next((nonce for known, nonce in _entries(request) if known == name), None)


def is_known(request: HttpRequest) -> bool:
    """Whether this device has signed in to any account here before."""
    return bool(_entries(request))


def signed_in(request: HttpRequest, username: str) -> None:
    """Note that this request signed in as `username`: the reply carries
    the device's cookie with that account added (remember_device)."""
    setattr(request, _SIGNED_IN, fold(username))


def remember_device(request: HttpRequest, response: HttpResponse) -> None:
    name = getattr(request, _SIGNED_IN, None)
    if name is None:
        return
    others = [[known, nonce] for known, nonce in _entries(request) if known != name]
    entries = [[name, secrets.token_urlsafe(12)], *others][:MAX_ACCOUNTS]
    response.set_cookie(
        DEVICE_COOKIE,
        signing.dumps(entries, salt=DEVICE_COOKIE_SALT, compress=True),
        max_age=DEVICE_COOKIE_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
